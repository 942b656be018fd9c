"""The measuring script of `bench/compare.py`: engine figures in CPU time, printed as one JSON line.

Run with `PYTHONPATH` at the checkout to measure; it uses only APIs present since the first release.
"""

from __future__ import annotations

import dataclasses
import json
import time

from domain import decide, evolve, legal_moves, start
from domain.bots import RandomBot, make_bot
from domain.selfplay import default_setup, play_game


def setup(players: int, seed: str):  # type: ignore[no-untyped-def]
    """The first release's catalog edition on both sides, so that both play the same games (a newer
    default edition deals differently)."""
    chosen = default_setup(players, seed)
    if hasattr(chosen, "catalog_edition"):
        chosen = dataclasses.replace(chosen, catalog_edition="base-provisional-1")
    return chosen


def selfplay(players: int, seed: str, bot: str):  # type: ignore[no-untyped-def]
    return play_game(setup(players, seed), [make_bot(bot, f"{seed}:{i}") for i in range(players)])


def main() -> None:
    clock = time.process_time
    decisions, events, spent = 0, 0, 0.0
    for g in range(8):  # the checked path per decision: legal_moves + decide + evolve
        state, _ = start(setup(4, f"bench-decide-{g}"))
        bots = [RandomBot(f"bench-{g}-{i}") for i in range(4)]
        while not state.finished:
            t0 = clock()
            moves = legal_moves(state)
            t1 = clock()
            move = bots[state.turn.seat].choose(state, moves)
            t2 = clock()
            for event in decide(state, move):
                state = evolve(state, event)
                events += 1
            spent += (t1 - t0) + (clock() - t2)
            decisions += 1
    logs = [selfplay(4, f"bench-replay-{g}", "random").events for g in range(8)]
    total = sum(len(log) for log in logs)
    t0 = clock()
    for log in logs:
        replayed = None
        for event in log:
            replayed = evolve(replayed, event)
    replay = total / (clock() - t0)
    from domain import bots  # the greedy bot looks one ply ahead: `play_on` (`play_through` before it)

    name = "play_on" if hasattr(bots, "play_on") else "play_through"
    lookahead = getattr(bots, name)
    plays = 0
    in_engine = 0.0

    def counted(state, move):  # type: ignore[no-untyped-def]
        nonlocal plays, in_engine
        plays += 1
        t0 = clock()
        result = lookahead(state, move)
        in_engine += clock() - t0
        return result

    setattr(bots, name, counted)
    t0 = clock()
    greedy_events = 0
    for g in range(3):
        greedy_events += len(selfplay(4, f"bench-greedy-{g}", "greedy").events)
    greedy_spent = clock() - t0
    print(
        json.dumps(
            {
                "decisions/s (random 4p, checked)": decisions / spent,
                "events/s of those decisions": events / spent,
                "evolve-only replay events/s": replay,
                "greedy 4p games/s": 3 / greedy_spent,
                "greedy 4p events/s": greedy_events / greedy_spent,
                "greedy lookahead plays/s, bot included": plays / greedy_spent,
                "greedy lookahead plays/s, engine only": plays / in_engine,
            }
        )
    )


if __name__ == "__main__":
    main()
