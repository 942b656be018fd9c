"""Bots playing stored games through the service: self-play with `--store`, fork play-outs, benchmarks.

Every move goes through `Games.submit` like a client's (its seat as the actor, a fresh command ID,
the version it saw), so a stored bot game is audited like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain import fold, legal_moves
from domain.bots import Bot, make_bot
from domain.events import Event, GameStarted
from domain.options import Options
from domain.selfplay import MAX_DECISIONS, GameRecord, default_setup
from domain.state import GameState
from replays.service import Games


def play_out(games: Games, game_id: str, bots: Sequence[Bot], limit: int | None = None) -> int:
    """Play a stored game with one bot per seat to its end, or for `limit` decisions; returns the
    number of decisions made."""
    state = games.state(game_id)
    version = games.head(game_id)
    assert state is not None
    decisions = 0
    max_decisions = MAX_DECISIONS if limit is None else limit
    while not state.finished and decisions < max_decisions:
        move = bots[state.turn.seat].choose(state, legal_moves(state))
        result = games.submit(game_id, move, version, f"{game_id}:{version}", move.seat, "bot")
        version = result.version
        state = fold(result.events, state)
        decisions += 1
    if limit is None and not state.finished:
        raise RuntimeError(f"game {game_id} did not end after {MAX_DECISIONS} decisions")
    return decisions


def stored_selfplay(
    games: Games,
    players: int,
    seed: str,
    bot: str = "greedy",
    options: Options | None = None,
    side: str | None = None,
    difficulty: str | None = None,
    characters: tuple[str, ...] = (),
) -> tuple[str, GameRecord]:
    """`domain.selfplay.selfplay` through the store: the same bots and seeds, stored and audited. The
    service draws the commitment's salt, so the record's setup carries it."""
    setup = default_setup(players, seed, options, side, difficulty, characters)
    game_id, _ = games.create(setup)
    decisions = play_out(games, game_id, [make_bot(bot, f"{seed}:{i}") for i in range(players)])
    events: tuple[Event, ...] = tuple(s.event for s in games.events(game_id))
    state: GameState | None = games.state(game_id)
    assert state is not None and isinstance(events[0], GameStarted)
    setup = replace(setup, salt=events[0].salt)  # the secret salt the service drew
    return game_id, GameRecord(setup, state, events, decisions, state.turn.number + 1)
