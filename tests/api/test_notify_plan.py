"""Queueing turn notifications (docs/async.md) reads nothing for a batch that calls for none: most
moves stay inside the turn, and their write path makes no webhook lookup (issue 17, HTTP move)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from api import notify
from api.tables import Hook
from domain import legal_moves
from domain.bots import make_bot
from replays.service import Games
from tests.replays.conftest import SecretCounter, StepClock, new_game


def test_a_batch_without_a_calling_event_is_planned_no_notification(tmp_path: Path) -> None:
    """Every seat a person with a webhook: a batch gets outbox rows only if it has a `CALLING` event,
    and every batch that passes the turn or ends the game gets them."""
    calling = quiet = 0
    with Games(f"sqlite:///{tmp_path}/plan.db", clock=StepClock(), secret=SecretCounter()) as games:
        game_id = new_game(games, "calling-1")
        hooks = {s: Hook(game_id, s, f"https://example.org/{s}", "secret") for s in (0, 1)}
        for i in range(400):
            game = games.game(game_id)
            assert game.state is not None
            if game.state.finished:
                break
            move = make_bot("random", f"calling-1:{i}").choose(game.state, legal_moves(game.state))
            result = games.submit(game_id, move, game.version, f"c-{i}", move.seat)
            rows = notify.plan(game_id, games.game(game_id), result.events, [0, 1], hooks, "http://x")
            if notify.calls_for_notification(result.events):
                calling += 1
                assert rows, [type(e).__name__ for e in result.events]
            else:
                quiet += 1
                assert rows == [], [type(e).__name__ for e in result.events]
    assert calling > 0 and quiet > calling  # both kinds were seen; most moves stay inside the turn


def test_queueing_a_batch_that_calls_for_nothing_reads_nothing(tmp_path: Path) -> None:
    with Games(f"sqlite:///{tmp_path}/quiet.db", clock=StepClock(), secret=SecretCounter()) as games:
        game_id = new_game(games, "quiet-1")
        for i in range(60):
            game = games.game(game_id)
            assert game.state is not None
            move = make_bot("random", f"quiet-1:{i}").choose(game.state, legal_moves(game.state))
            result = games.submit(game_id, move, game.version, f"q-{i}", move.seat)
            if not notify.calls_for_notification(result.events):
                break
        else:
            raise AssertionError("no batch inside a turn in 60 moves")
    untouchable: Any = object()  # any use of the runtime (its tables, store or seats) raises
    asyncio.run(notify.queue(untouchable, game_id, result.version, result.events))
