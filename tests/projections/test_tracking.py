"""Exactly-once views: a crash in the middle of a batch, a competing runner, a rebuild under a running
projector, and views kept while games are played equal the same views rebuilt from scratch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from domain import Options, legal_moves
from domain.bots import make_bot
from domain.selfplay import default_setup
from projections import projector
from projections.documents import Moved
from projections.projection import GameProjection
from projections.runners import StoreProjectionRunner, catch_up
from projections.source import open_store
from replays.service import Games
from replays.store import GameStore
from tests.replays.conftest import StepClock

NAMES = list(projector.SPECS)


class Crash(Exception):
    """The projector process dies here."""


def crashing(name: str, after: int) -> type[GameProjection[Any]]:
    """The projection `name`, raising inside `process_event` after `after` events."""
    base = projector.spec(name).projection

    class Crashing(base):  # type: ignore[valid-type, misc]
        seen = 0

        def process_event(self, domain_event: Any, tracking: Any) -> None:
            type(self).seen += 1
            if type(self).seen > after:
                raise Crash(f"after {after} events")
            super().process_event(domain_event, tracking)

    Crashing.name = base.name  # the same view, tables and tracking
    return Crashing


def dump(url: str, name: str) -> dict[str, Any]:
    table = projector.open_table(url, name)
    try:
        return {"position": table.head(), "rows": table.dump()}
    finally:
        table.datastore.close()


def matching_ids(app: GameStore, topics: tuple[str, ...]) -> list[int]:
    return [
        n.id for n in app.recorder.select_notifications(0, 10**7, topics=topics, inclusive_of_start=False)
    ]


@pytest.fixture
def app(small_url: str) -> Iterator[GameStore]:
    store = open_store(small_url)
    yield store
    store.close()


@pytest.mark.parametrize("name", NAMES)
def test_crash_mid_batch_resumes_where_it_stopped(small_url: str, app: GameStore, name: str) -> None:
    projector.rebuild(small_url, name)
    want = dump(small_url, name)
    table = projector.open_table(small_url, name)
    table.reset()
    cls = crashing(name, after=1234)
    with pytest.raises(Crash):
        catch_up(app, cls(view=table))
    ids = matching_ids(app, cls.topics)
    assert table.head() == ids[999]  # two whole batches of 500 kept; the third, interrupted, left no trace
    table.datastore.close()
    restarted = projector.spec(name).projection(view=projector.open_table(small_url, name))
    assert catch_up(app, restarted) == len(ids) - 1000  # nothing processed twice
    assert dump(small_url, name) == want


@pytest.mark.parametrize("small_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
@pytest.mark.parametrize("name", NAMES)
def test_crash_under_the_library_runner(small_url: str, app: GameStore, name: str) -> None:
    """PostgreSQL: the library's ProjectionRunner (SQLite has no subscriptions)."""
    projector.rebuild(small_url, name)
    want = dump(small_url, name)
    table = projector.open_table(small_url, name)
    table.reset()
    table.datastore.close()
    s = projector.spec(name)
    runner = StoreProjectionRunner(
        application_class=GameStore,
        projection_class=crashing(name, after=777),
        view_class=s.postgres_table,
        env=projector.runner_env(small_url),
    )
    with pytest.raises(Crash), runner:
        runner.run_forever(timeout=60)
    runner.view.datastore.close()
    assert dump(small_url, name)["position"] == matching_ids(app, s.projection.topics)[499]
    with projector.Projector(small_url, [name]) as running:
        running.wait(timeout=60)
    assert dump(small_url, name) == want


@pytest.mark.parametrize("name", NAMES)
def test_a_competing_runner_fails_closed(small_url: str, app: GameStore, name: str) -> None:
    projector.rebuild(small_url, name)
    want = dump(small_url, name)
    table = projector.open_table(small_url, name)
    table.reset()
    s = projector.spec(name)
    first, second = s.projection(view=table), s.projection(view=table)
    batch = app.recorder.select_notifications(0, 300, topics=s.projection.topics, inclusive_of_start=False)
    for projection in (first, second):
        for n in batch:
            projection.process_event(app.mapper.to_domain_event(n), Tracking(GameStore.name, n.id))
    first.flush()
    after_first = table.dump()
    with pytest.raises(Moved):
        second.flush()  # the same 300 events again: refused, not counted twice
    assert table.dump() == after_first and table.head() == batch[-1].id
    second.discard()
    assert second.position == batch[-1].id
    catch_up(app, second)
    assert {"position": table.head(), "rows": table.dump()} == want
    table.datastore.close()


def _play(games: Games, game_id: str, moves: int) -> None:
    """Random bots make up to `moves` decisions in a stored game, through the service."""
    for _ in range(moves):
        state = games.state(game_id)
        assert state is not None
        if state.finished:
            return
        move = make_bot("random", f"{game_id}:{games.head(game_id)}").choose(state, legal_moves(state))
        version = games.head(game_id)
        games.submit(game_id, move, version, f"bot:{version}", move.seat)


def test_views_kept_while_playing_equal_views_rebuilt(empty_url: str) -> None:
    games = Games(empty_url, clock=StepClock())
    # A long poll interval: on SQLite only the wake-up after each save can keep the views current.
    with projector.Projector(empty_url, interval=120) as running:
        ids = [
            games.create(default_setup(2, "live-0"))[0],
            games.create(default_setup(3, "live-1", Options(luna=True)))[0],
            games.create(default_setup(4, "live-2"))[0],
        ]
        for _ in range(6):
            for game_id in ids:
                _play(games, game_id, 10)
        forked = games.fork(ids[0], 30)
        _play(games, forked, 12)
        _play(games, ids[0], 10_000)  # to its end
        running.wait(timeout=60)
        live = {name: dump(empty_url, name) for name in NAMES}
        for name in NAMES:  # a rebuild while the projector runs: it follows the rebuilt view
            projector.rebuild(empty_url, name)
            assert dump(empty_url, name) == live[name]
        for game_id in ids[1:]:
            _play(games, game_id, 25)
        running.wait(timeout=60)
        live = {name: dump(empty_url, name) for name in NAMES}
    for name in NAMES:
        projector.rebuild(empty_url, name)
        assert dump(empty_url, name) == live[name]
    lobby = projector.open_lobby(empty_url)
    try:
        rows = {g.game_id: g for g in lobby.list(limit=10)}
        assert set(rows) == {*ids, forked}
        for game_id, row in rows.items():
            state = games.state(game_id)
            assert state is not None
            assert row.version == games.head(game_id)
            assert row.to_act == (None if state.finished else state.turn.seat)
            assert [s.score for s in row.seats] == [p.score for p in state.players]
            assert {s.kind for s in row.seats if s.kind} <= {"bot"}
        assert rows[ids[0]].status == "finished" and rows[ids[1]].status == "active"
        assert rows[forked].forked_from == {"game_id": ids[0], "version": 30}
    finally:
        lobby.close()
        games.close()
