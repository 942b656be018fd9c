"""Event-store benchmarks (store issue), each as a ratio to a baseline measured in the same run:

1. rebuilding a finished game's state at random versions, with and without snapshots, against only
   decoding the same stored events with orjson;
2. the round trip of one command through `Games.submit` on SQLite (and PostgreSQL when reachable)
   against a bare `eventsourcing` append of one event on the same store;
3. stored bytes per move against a full state dump per move.

PostgreSQL: GALILEO_BENCH_POSTGRES_URL, else GALILEO_TEST_POSTGRES_URL, else the test default; skipped
when unreachable. Each PostgreSQL run uses a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, ClassVar
from uuid import UUID

import orjson
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from domain import dump_state, evolve, legal_moves
from domain.bots import make_bot
from domain.selfplay import default_setup
from replays.service import Games
from replays.store import SNAPSHOT_INTERVAL, GameStore, mutate_all, store_env, unpack

VERSIONS = 60  # random versions rebuilt per game
GAMES = 2  # finished random-bot games (about 1,000 events each)


class NoSnapshots(GameStore):
    """The same store read without snapshots: every rebuild replays from event 1."""

    name = "Games"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {}


class Counter(Aggregate):
    """The bare baseline: one event per save."""

    @event("Created")
    def __init__(self) -> None:
        self.n = 0

    @event("Ticked")
    def tick(self) -> None:
        self.n += 1


class Bare(Application[UUID]):
    name = "Bare"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def play_stored(games: Games, seed: str) -> tuple[str, list[float], int]:
    """A random-bot game through the store: (ID, seconds per submit, decisions)."""
    game_id, version = games.create(default_setup(2, seed))
    state = games.state(game_id)
    assert state is not None
    bots = [make_bot("random", f"{seed}:{i}") for i in range(2)]
    times: list[float] = []
    while not state.finished:
        move = bots[state.turn.seat].choose(state, legal_moves(state))
        t0 = time.perf_counter()
        result = games.submit(game_id, move, version, f"{seed}-{version}", move.seat)
        times.append(time.perf_counter() - t0)
        version = result.version
        for e in result.events:
            state = evolve(state, e)
    return game_id, times, len(times)


def bare_append(url: str, count: int) -> list[float]:
    """Seconds per bare append: load the aggregate (cached), trigger one event, save it."""
    env = {**store_env(url), "AGGREGATE_CACHE_MAXSIZE": "16"}
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        env["SQLITE_DBNAME"] = env["SQLITE_DBNAME"] + ".bare"
    app = Bare(env=env)
    counter = Counter()
    app.save(counter)
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        loaded: Counter = app.repository.get(counter.id)
        loaded.tick()
        app.save(loaded)
        times.append(time.perf_counter() - t0)
    app.close()
    return times


def rebuild_figures(games: Games, url: str, game_ids: list[str]) -> dict[str, float]:
    """Median seconds to rebuild at random versions: with snapshots, without, and decode only."""
    plain = NoSnapshots(env=store_env(url))
    rng = random.Random(11)
    with_snap: list[float] = []
    without: list[float] = []
    decode: list[float] = []
    for game_id in game_ids:
        gid = UUID(game_id)
        head = games.head(game_id)
        rows = games.store.recorder.select_events(gid)
        for version in (rng.randint(1, head) for _ in range(VERSIONS)):
            t0 = time.perf_counter()
            games.state(game_id, version)
            with_snap.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            plain.repository.get(gid, version=version, projector_func=mutate_all)
            without.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for row in rows[:version]:
                orjson.loads(unpack(row.state))
            decode.append(time.perf_counter() - t0)
    plain.close()
    return {"snapshots": _median(with_snap), "replay": _median(without), "decode": _median(decode)}


def bytes_figures(games: Games, game_ids: list[str], decisions: int) -> dict[str, float]:
    stored = 0
    snapshots = 0
    dumps = 0
    for game_id in game_ids:
        gid = UUID(game_id)
        stored += sum(len(r.state) + len(r.topic) for r in games.store.recorder.select_events(gid))
        assert games.store.snapshots is not None
        snapshots += sum(len(r.state) for r in games.store.snapshots.recorder.select_events(gid))
        state = None
        for stored_event in games.events(game_id):
            state = evolve(state, stored_event.event)
            if (
                stored_event.metadata["batch"] == stored_event.version
                and stored_event.metadata["kind"] == "command"
            ):
                dumps += len(orjson.dumps(dump_state(state)))  # state before each move, one dump per move
    return {
        "events": stored / decisions,
        "snapshots": snapshots / decisions,
        "dump": dumps / decisions,
    }


def measure(label: str, url: str, report: Callable[[str], None]) -> None:
    with Games(url) as games:
        played = [play_stored(games, f"bench-store-{label}-{g}") for g in range(GAMES)]
        ids = [game_id for game_id, _, _ in played]
        submits = [t for _, times, _ in played for t in times]
        decisions = sum(n for _, _, n in played)
        bare = bare_append(url, min(len(submits), 500))
        rebuild = rebuild_figures(games, url, ids)
        sizes = bytes_figures(games, ids, decisions)
    sub, base = _median(submits), _median(bare)
    report(
        f"{label}: submit round trip p50 {_ms(sub)} (p99 {_ms(sorted(submits)[int(len(submits) * 0.99)])}) "
        f"vs bare append p50 {_ms(base)}: {sub / base:.1f}x  [{decisions} commands]"
    )
    report(
        f"{label}: rebuild at a random version p50 {_ms(rebuild['snapshots'])} with snapshots every "
        f"{SNAPSHOT_INTERVAL}, {_ms(rebuild['replay'])} without; orjson decode of the same events "
        f"{_ms(rebuild['decode'])}: {rebuild['snapshots'] / rebuild['decode']:.2f}x with, "
        f"{rebuild['replay'] / rebuild['decode']:.1f}x without"
    )
    if label == "SQLite":
        report(
            f"bytes per move: stored events {sizes['events']:.0f} B "
            f"(+ snapshots {sizes['snapshots']:.0f} B) vs "
            f"a full state dump {sizes['dump']:.0f} B: {sizes['events'] / sizes['dump']:.2f}x "
            f"({(sizes['events'] + sizes['snapshots']) / sizes['dump']:.2f}x with snapshots)"
        )


def main() -> None:
    for label, url in _each_store():
        measure(label, url, print)


def _each_store() -> Iterator[tuple[str, str]]:
    """(label, URL) of each store to measure: a fresh SQLite file, and a PostgreSQL schema if reachable."""
    with tempfile.TemporaryDirectory() as folder:
        yield "SQLite", f"sqlite:///{folder}/bench.db"
    base = (
        os.environ.get("GALILEO_BENCH_POSTGRES_URL")
        or os.environ.get("GALILEO_TEST_POSTGRES_URL")
        or "postgresql://postgres@127.0.0.1:5432/test"
    )
    try:
        import psycopg

        with psycopg.connect(base, connect_timeout=2, autocommit=True) as conn:
            schema = f"bench_{uuid.uuid4().hex[:12]}"
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except Exception as exc:
        print(f"PostgreSQL: skipped ({type(exc).__name__}: {exc})")
        return
    try:
        yield "PostgreSQL", f"{base}?schema={schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
