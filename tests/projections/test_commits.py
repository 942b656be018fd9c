"""SQLite commits per move (issue 17, "Throughput"): a move is one commit of the event store, and a view
writes what it catches up in one commit however many moves that holds, so a view that lingers between
catch-ups commits once per `linger`, not once per move. Counted, not timed: load-independent."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteConnection

from domain import legal_moves
from domain.bots import make_bot
from domain.selfplay import default_setup
from projections.projector import open_table, spec
from projections.runners import PollingRunner, catch_up
from projections.source import open_store
from replays.service import Games
from replays.store import SNAPSHOT_INTERVAL

MOVES = 30


@pytest.fixture
def commits(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Commits of the library's SQLite connections (the store's and the views'), by database file name."""
    counted: Counter[str] = Counter()
    commit = SQLiteConnection.commit

    def counting(self: SQLiteConnection) -> None:
        conn: sqlite3.Connection = self._sqlite_conn
        path = next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main")
        commit(self)
        counted[Path(path).name] += 1

    monkeypatch.setattr(SQLiteConnection, "commit", counting)
    yield counted


def _moves(games: Games, game_id: str, count: int) -> int:
    """Play `count` moves; returns the snapshots the store took meanwhile (a commit of their own, after
    the move's: one per SNAPSHOT_INTERVAL events)."""
    before = games.head(game_id)
    state = games.state(game_id)
    assert state is not None
    bots = [make_bot("random", f"commits:{i}") for i in range(len(state.players))]
    version = games.head(game_id)
    for _ in range(count):
        move = bots[state.turn.seat].choose(state, legal_moves(state))
        result = games.submit(game_id, move, version, f"commits-{version}", move.seat, "bot")
        version = result.version
        state = games.state(game_id)
        assert state is not None
    return version // SNAPSHOT_INTERVAL - before // SNAPSHOT_INTERVAL


def _views(url: str) -> dict[str, Any]:
    return {name: spec(name).projection(view=open_table(url, name)) for name in ("lobby", "stats")}


def test_a_move_is_one_commit_and_a_catch_up_one_commit_per_view_for_all_its_moves(
    tmp_path: Path, commits: Counter[str]
) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    views = _views(url)  # tables created
    app = open_store(url)
    with Games(url) as games:
        game_id, _ = games.create(default_setup(2, "commits-1"))
        for projection in views.values():
            catch_up(app, projection)
        commits.clear()
        snapshots = _moves(games, game_id, MOVES)
    assert commits == Counter({"games.db": MOVES + snapshots})  # one commit per move, nothing else written
    commits.clear()
    for projection in views.values():
        assert catch_up(app, projection) >= (MOVES if projection.name == "lobby" else 1)  # the moves' events
    assert commits == Counter({"games.lobby.db": 1, "games.stats.db": 1})
    app.close()
    for projection in views.values():
        projection.view.datastore.close()


def test_a_polling_view_lingers_so_that_the_moves_meanwhile_share_one_commit(
    tmp_path: Path, commits: Counter[str]
) -> None:
    """Woken after every move, the runner catches up once and lingers: the moves stored during its linger
    are written together at its next catch-up (here the linger outlasts the test: one catch-up, at start)."""
    url = f"sqlite:///{tmp_path}/games.db"
    views = _views(url)
    app = open_store(url)  # (opening a store writes: its tables are created if missing)
    with Games(url) as games:
        game_id, _ = games.create(default_setup(2, "commits-2"))
        runners = [PollingRunner(open_store(url), p, interval=600, linger=600) for p in views.values()]
        for runner in runners:
            runner.start()
        for runner in runners:  # the first catch-up (the new game) has been written
            while runner.projection.view.head() == 0:
                runner._stop.wait(0.01)
        commits.clear()
        snapshots = 0
        for _ in range(MOVES):
            snapshots += _moves(games, game_id, 1)
            for runner in runners:
                runner.wake()
        for runner in runners:
            runner.stop()
            assert runner.catch_ups == 1
            runner.app.close()
    assert commits == Counter({"games.db": MOVES + snapshots})  # the views wrote nothing while lingering
    for projection in views.values():
        projection.discard()
        catch_up(app, projection)  # the next catch-up: every lingering move at once
    assert commits == Counter({"games.db": MOVES + snapshots, "games.lobby.db": 1, "games.stats.db": 1})
    app.close()
    for projection in views.values():
        projection.view.datastore.close()
