"""A projection runner reads the store `SETTLE_SECONDS` after a notification (PostgreSQL) or a save's
wake-up (SQLite), not at once (projections/runners.py): the moves of a busy moment are read together,
and every stored event still reaches the view, in order. Counted, not timed (beyond the settle itself)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from domain import legal_moves
from domain.bots import make_bot
from domain.selfplay import default_setup
from projections import runners
from projections.projector import Projector, open_table, runner_env, spec
from projections.runners import PollingRunner
from projections.source import open_store
from replays.service import Games
from replays.store import GameStore

MOVES = 12


@pytest.mark.postgres
def test_a_subscription_reads_the_moves_of_a_busy_moment_together(
    fresh_schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = fresh_schema
    with Games(url) as games:
        game_id, _ = games.create(default_setup(2, "settle-1"))
        stored = games.head(game_id)
    app = GameStore(env={**runner_env(url), "CREATE_TABLE": "yes"})
    assert isinstance(app.recorder, runners.ProjectionSourceRecorder)
    reads: list[float] = []
    real = runners.PostgresSubscription._pull

    def counted(self: Any) -> None:
        reads.append(time.monotonic())
        real(self)

    monkeypatch.setattr(runners.PostgresSubscription, "_pull", counted)
    seen: list[int] = []
    subscription = app.recorder.subscribe(gt=None, topics=())

    def follow() -> None:
        seen.extend(notification.id for notification in subscription)

    reader = threading.Thread(target=follow, daemon=True)
    with subscription:
        reader.start()
        _wait(lambda: len(seen) == stored)  # the first read: what was stored before
        first_reads = len(reads)
        with Games(url) as games:
            state = games.state(game_id)
            assert state is not None
            bot = make_bot("random", "settle-1")
            started = time.monotonic()
            for i in range(MOVES):  # each written well within SETTLE_SECONDS of the last
                move = bot.choose(state, legal_moves(state))
                stored = games.submit(game_id, move, stored, f"settle-{i}", move.seat, "bot").version
                state = games.state(game_id)
                assert state is not None
            writing = time.monotonic() - started
        _wait(lambda: len(seen) == stored)
        subscription.stop()
    reader.join(5)
    assert seen == sorted(seen) and len(set(seen)) == stored  # every event, once, in order
    # At most one read per settle period while the moves were written, and one after; so, when they
    # were written quickly (not on a machine too loaded to), fewer reads than moves.
    later = len(reads) - first_reads
    assert 1 <= later <= writing / runners.SETTLE_SECONDS + 2
    if writing < (MOVES - 3) * runners.SETTLE_SECONDS:
        assert later < MOVES


def _wait(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the subscription did not deliver in time"
        time.sleep(0.01)


@pytest.mark.postgres
def test_the_in_process_projector_keeps_its_views_with_settling_reads(fresh_schema: str) -> None:
    url = fresh_schema
    with Projector(url) as projector, Games(url) as games:
        game_id, _ = games.create(default_setup(2, "settle-2"))
        state = games.state(game_id)
        assert state is not None
        bot = make_bot("random", "settle-2")
        version = games.head(game_id)
        for i in range(5):
            move = bot.choose(state, legal_moves(state))
            version = games.submit(game_id, move, version, f"settle2-{i}", move.seat, "bot").version
            state = games.state(game_id)
            assert state is not None
        projector.wait(10)  # the lobby and the statistics caught up with every event


def test_a_polling_runner_woken_by_a_save_settles_before_it_catches_up(tmp_path: Path) -> None:
    """SQLite: woken by a save, the runner waits `settle` before it reads (the saves meanwhile are read
    together), then catches up with everything."""
    url = f"sqlite:///{tmp_path}/games.db"
    with Games(url) as games:
        game_id, _ = games.create(default_setup(2, "settle-3"))
        projection = spec("lobby").projection(view=open_table(url, "lobby"))
        runner = PollingRunner(open_store(url), projection, interval=600, linger=0, settle=0.5)
        runner.start()
        try:
            _wait(lambda: runner.projection.view.head() > 0)  # the first catch-up: at once
            first = runner.projection.view.head()
            state = games.state(game_id)
            assert state is not None
            move = make_bot("random", "settle-3").choose(state, legal_moves(state))
            woken = time.monotonic()
            games.submit(game_id, move, games.head(game_id), "settle-3", move.seat, "bot")
            runner.wake()
            _wait(lambda: runner.projection.view.head() > first)
            assert time.monotonic() - woken >= 0.5
        finally:
            runner.stop()
            runner.projection.view.datastore.close()
            runner.app.close()
