"""HTTP API benchmarks (API issue), each figure against a bare baseline measured in the same run:

1. Move round trip: POST /games/{id}/commands (a legal move, read from /moves beforehand) through the
   whole service (auth, decide, hash-chained append, fan-out) p50/p99, against a bare FastAPI route that
   appends one event to an eventsourcing aggregate, on SQLite and (when reachable) PostgreSQL.
2. SSE delivery across two processes through Redis: a move posted to `galileo serve` A until it arrives
   on a stream held on `galileo serve` B, against a bare Redis publish -> subscriber round trip.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import httpx
import uvicorn
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from fastapi import FastAPI

from api.app import create_app
from api.settings import NO_RATES, Settings
from replays.store import store_env

POSTGRES_URL = os.environ.get("GALILEO_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("GALILEO_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
MOVES = 300
DELIVERIES = 100


# -- the bare baseline: one event appended per request ------------------------------------------------


class Tally(Aggregate):
    @event("Created")
    def __init__(self) -> None:
        self.count = 0

    @event("Ticked")
    def tick(self) -> None:
        self.count += 1


class BareApp(Application[UUID]):
    name = "BenchBare"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {}


def bare_app(database_url: str) -> FastAPI:
    events = BareApp(env=store_env(database_url))  # the same store settings, aggregate cache included
    app = FastAPI()

    @app.post("/tallies")
    def create() -> dict[str, str]:
        tally = Tally()
        events.save(tally)
        return {"id": str(tally.id)}

    @app.post("/tallies/{tally_id}/tick")
    def tick(tally_id: UUID) -> dict[str, int]:
        tally: Tally = events.repository.get(tally_id)
        tally.tick()
        events.save(tally)
        return {"version": tally.version}

    return app


# -- servers and statistics ---------------------------------------------------------------------------


class ThreadServer:
    def __init__(self, app: Any) -> None:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> tuple[float, float]:
    return statistics.median(values) * 1000, pct(values, 0.99) * 1000


# -- 1. move round trip ---------------------------------------------------------------------------------


def random_move(
    http: httpx.Client, game: str, tokens: list[str], rng: random.Random, command_id: str
) -> tuple[dict[str, str], dict[str, Any]] | None:
    """The seat to act's headers and a random legal command's body (None once the game is over): the
    two reads a client makes before each POST, kept outside the timed request."""
    view = http.get(f"/games/{game}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    if view["to_act"] is None:
        return None
    headers = {"Authorization": f"Bearer {tokens[view['to_act']]}"}
    listing = http.get(f"/games/{game}/moves", headers=headers).json()
    body = {
        "command": rng.choice(listing["moves"]),
        "expected_version": listing["version"],
        "command_id": command_id,
    }
    return headers, body


def move_round_trips(database_url: str, count: int) -> list[float]:
    # No per-client rate limits: one client sends every request (the bare route has no limiter either).
    from tests.conftest import TEST_ENCRYPTION_KEY  # the bench shares the tests' PostgreSQL database

    keys = (TEST_ENCRYPTION_KEY,)  # api/crypto.py
    settings = Settings(database_url=database_url, bots=False, rates=dict(NO_RATES), encryption_keys=keys)
    timings: list[float] = []
    rng = random.Random(1)
    with ThreadServer(create_app(settings)) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        while len(timings) < count:
            seats = [{"name": "A"}, {"name": "B"}]
            created = http.post("/games", json={"seats": seats, "seed": f"bench-{len(timings)}"}).json()
            game = created["game_id"]
            tokens = [s["token"] for s in created["seats"]]
            while len(timings) < count:
                move = random_move(http, game, tokens, rng, f"m{len(timings)}")
                if move is None:
                    break
                headers, body = move
                t0 = time.perf_counter()
                response = http.post(f"/games/{game}/commands", headers=headers, json=body)
                timings.append(time.perf_counter() - t0)
                assert response.status_code == 200, response.text
    return timings


def bare_round_trips(database_url: str, count: int) -> list[float]:
    timings: list[float] = []
    with (
        ThreadServer(bare_app(database_url)) as server,
        httpx.Client(base_url=server.url, timeout=30) as http,
    ):
        tally = http.post("/tallies").json()["id"]
        for _ in range(count):
            t0 = time.perf_counter()
            response = http.post(f"/tallies/{tally}/tick")
            timings.append(time.perf_counter() - t0)
            assert response.status_code == 200
    return timings


def postgres_reachable() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False


def redis_reachable() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def report_round_trip(store: str, database_url: str) -> None:
    api = summary(move_round_trips(database_url, MOVES))
    bare = summary(bare_round_trips(database_url, MOVES))
    print(
        f"move round trip, {store}: p50 {api[0]:.2f} ms, p99 {api[1]:.2f} ms | bare append route: "
        f"p50 {bare[0]:.2f} ms, p99 {bare[1]:.2f} ms | ratio p50 {api[0] / bare[0]:.1f}x, "
        f"p99 {api[1] / bare[1]:.1f}x  ({MOVES} requests each)",
        flush=True,
    )


# -- 2. SSE delivery across two processes -------------------------------------------------------------


def _sse_ids(lines: Iterator[str]) -> Iterator[int]:
    for line in lines:
        if line.startswith("id: "):
            yield int(line[4:])


class StreamArrivals:
    """Follows an SSE stream on a thread and notes when each event id (a version) arrives; `time_to`
    measures a POST's version arriving there (the cross-process delivery of both the service and its
    bare floor, bench/sse_floor.py)."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._arrivals: dict[int, float] = {}
        self._seen = threading.Condition()
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._follow, daemon=True)

    def __enter__(self) -> StreamArrivals:
        self._reader.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()

    def _follow(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(30, read=60)) as client,
                client.stream("GET", self._url) as response,
            ):
                for version in _sse_ids(response.iter_lines()):
                    with self._seen:
                        self._arrivals[version] = time.perf_counter()
                        self._seen.notify_all()
                    if self._stop.is_set():
                        return
        except httpx.HTTPError:
            if not self._stop.is_set():
                raise

    def wait(self, version: int, timeout: float = 10) -> float:
        """When `version` arrived on the stream (raises if it does not within `timeout` seconds)."""
        with self._seen:
            if not self._seen.wait_for(lambda: version in self._arrivals, timeout=timeout):
                raise RuntimeError(f"version {version} did not arrive on the other process's stream")
            return self._arrivals[version]


def sse_deliveries(database_url: str, count: int, workdir: Path) -> list[float]:
    from tests.api.servers import ServeProcess

    env = {"GALILEO_DATABASE_URL": database_url, "REDIS_URL": REDIS_URL, "GALILEO_BOTS": "0"}
    timings: list[float] = []
    rng = random.Random(2)
    with (
        ServeProcess(workdir, env, "bench-a") as a,
        ServeProcess(workdir, env, "bench-b") as b,
        httpx.Client(base_url=a.url, timeout=30) as http,
    ):
        created = http.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": "sse"}).json()
        game = created["game_id"]
        tokens = [s["token"] for s in created["seats"]]
        with StreamArrivals(f"{b.url}/games/{game}/stream?after=0") as arrivals:
            arrivals.wait(1)
            while len(timings) < count:
                move = random_move(http, game, tokens, rng, f"s{len(timings)}")
                if move is None:
                    break
                headers, body = move
                t0 = time.perf_counter()
                version = http.post(f"/games/{game}/commands", headers=headers, json=body).json()["version"]
                timings.append(arrivals.wait(version) - t0)
    return timings


def bare_pubsub(count: int) -> list[float]:
    import redis

    publisher = redis.Redis.from_url(REDIS_URL)
    subscriber = redis.Redis.from_url(REDIS_URL).pubsub(ignore_subscribe_messages=True)
    channel = f"bench:{time.time_ns()}"
    subscriber.subscribe(channel)
    while subscriber.get_message(timeout=0.1) is not None:
        pass
    timings: list[float] = []
    for i in range(count):
        t0 = time.perf_counter()
        publisher.publish(channel, str(i))
        while True:
            message = subscriber.get_message(timeout=5)
            if message is not None and message["type"] == "message":
                break
        timings.append(time.perf_counter() - t0)
    subscriber.close()
    publisher.close()
    return timings


def report_sse(store: str, database_url: str, workdir: Path) -> None:
    api = summary(sse_deliveries(database_url, DELIVERIES, workdir))
    bare = summary(bare_pubsub(DELIVERIES * 5))
    print(
        f"SSE delivery A -> Redis -> B, {store} (post to arrival): p50 {api[0]:.2f} ms, "
        f"p99 {api[1]:.2f} ms | bare Redis pub/sub: p50 {bare[0]:.3f} ms, p99 {bare[1]:.3f} ms | "
        f"ratio p50 {api[0] / bare[0]:.0f}x, p99 {api[1] / bare[1]:.0f}x  ({DELIVERIES} moves)",
        flush=True,
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        report_round_trip("SQLite", f"sqlite:///{workdir}/api.db")
        if postgres_reachable():
            report_round_trip("PostgreSQL", POSTGRES_URL)
        else:
            print(f"move round trip, PostgreSQL: skipped ({POSTGRES_URL} not reachable)")
        if redis_reachable():
            database = POSTGRES_URL if postgres_reachable() else f"sqlite:///{workdir}/sse.db"
            report_sse("PostgreSQL" if database == POSTGRES_URL else "SQLite", database, workdir)
        else:
            print(f"SSE delivery: skipped (Redis {REDIS_URL} not reachable)")


if __name__ == "__main__":
    main()
