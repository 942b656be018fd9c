"""Golden playthroughs (as in OpenSpiel): a fixed-seed game written decision by decision.

Each decision is one line `#<n> @<seat> legal=<count> -> <command>`, followed by one line per event
(`  <Type> <json of the fields>`). The text is stable across runs and platforms, so a diff shows
exactly which decision or event changed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from domain.bots import Bot, play_chosen
from domain.engine import legal_moves, start
from domain.events import Event, event_to_dict
from domain.setup import Setup


def _event_line(event: Event) -> str:
    data = event_to_dict(event)
    name = data.pop("type")
    return f"  {name} {json.dumps(data, sort_keys=True, separators=(',', ':'))}"


def playthrough(setup: Setup, bots: Sequence[Bot]) -> list[str]:
    seats = ", ".join(f"{s.name}/{s.character}" for s in setup.seats)
    lines = [f"# golden playthrough: seed={setup.seed} seats={seats}", "#0 setup"]
    state, events = start(setup)
    lines += [_event_line(e) for e in events]
    moves = legal_moves(state)
    n = 0
    while not state.finished:
        n += 1
        bot = bots[state.turn.seat]
        move = bot.choose(state, moves)
        lines.append(f"#{n} @{state.turn.seat} legal={len(moves)} -> {move}")
        state, new, known = play_chosen(bot, state, move)
        lines += [_event_line(e) for e in new]
        moves = legal_moves(state, known)
    lines.append(f"# final scores: {[p.score for p in state.players]} winners: {list(state.winners)}")
    return lines
