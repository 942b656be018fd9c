"""The scaled-out shape: two API processes on PostgreSQL + Redis, and play through a Redis outage."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from api.settings import Settings
from tests.api.conftest import LiveServer
from tests.api.helpers import StreamReader, Table, free_port, play_turns, wait_until
from tests.api.servers import PrivateRedis, ServeProcess

pytestmark = pytest.mark.timeout(120)


def _create(http: httpx.Client, seed: str) -> Table:
    created = http.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": seed})
    assert created.status_code == 201, created.text
    return Table(created.json()["game_id"], [s["token"] for s in created.json()["seats"]])


def _listing(http: httpx.Client, table: Table) -> dict:
    seat = http.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    return http.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()


def test_two_processes_share_moves_streams_and_conflicts(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    # A long heartbeat: within the test, only Redis pub/sub can bring A's move to B's stream.
    env = {
        "GALILEO_DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "GALILEO_STREAM_HEARTBEAT_SECONDS": "60",
    }
    with (
        ServeProcess(tmp_path, env, "a") as a,  # A keeps the read models; B leaves them to A
        ServeProcess(tmp_path, {**env, "GALILEO_PROJECTIONS": "off"}, "b") as b,
        httpx.Client(base_url=a.url, timeout=10) as on_a,
        httpx.Client(base_url=b.url, timeout=10) as on_b,
    ):
        table = _create(on_a, "two-processes")
        reader = StreamReader(f"{b.url}/games/{table.game_id}/stream?after=0").start()
        try:
            # B was ready (its Redis subscription live) before the test began, and a stream registers
            # its listener before it reads the store: once event 1 has arrived, A's next batch reaches it.
            assert [int(m["id"]) for m in reader.take(1)] == [1]
            listing = _listing(on_a, table)
            seat = listing["to_act"]
            posted = time.monotonic()
            response = on_a.post(
                f"/games/{table.game_id}/commands",
                headers=table.auth(seat),
                json={
                    "command": listing["moves"][0],
                    "expected_version": listing["version"],
                    "command_id": "m1",
                },
            )
            assert response.status_code == 200, response.text
            version = response.json()["version"]
            arrived = reader.take(version - 1, timeout=5)
            latency = time.monotonic() - posted
            assert [int(m["id"]) for m in arrived] == list(range(2, version + 1))
            assert latency < 5
        finally:
            reader.stop()

        # Conflicting posts split across A and B: exactly one winner.
        listing = _listing(on_b, table)
        seat = listing["to_act"]
        barrier = threading.Barrier(10)

        def post(i: int) -> int:
            http = on_a if i % 2 else on_b
            move = listing["moves"][i % len(listing["moves"])]
            body = {"command": move, "expected_version": listing["version"], "command_id": f"split-{i}"}
            barrier.wait(timeout=10)
            return http.post(
                f"/games/{table.game_id}/commands", headers=table.auth(seat), json=body
            ).status_code

        with ThreadPoolExecutor(10) as pool:
            statuses = sorted(pool.map(post, range(10)))
        assert statuses == [200] + [409] * 9
        versions = [
            e["version"] for e in on_b.get(f"/games/{table.game_id}/events?limit=500").json()["events"]
        ]
        assert versions == list(range(1, len(versions) + 1))


def test_play_goes_on_while_redis_is_down_and_streams_catch_up(redis_url: str, tmp_path: Path) -> None:
    del redis_url  # gates the test on a Redis installation; the one stopped here is private
    redis = PrivateRedis(tmp_path)
    redis.start()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/games.db",
        redis_url=redis.url,
        stream_poll_seconds=0.2,
        stream_heartbeat_seconds=60,
        redis_retry_seconds=0.2,
        redis_timeout_seconds=0.3,
    )
    try:
        with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=10) as http:
            # The server answers before its Redis subscription is up (a busy machine may take longer
            # than the 0.3 s connect timeout and retry): ready once it is.
            wait_until(lambda: http.get("/readyz").json()["checks"]["redis"] == "ok", 10, "Redis subscribed")
            table = _create(http, "redis-down")
            reader = StreamReader(f"{server.url}/games/{table.game_id}/stream?after=0").start()
            received: list[int] = []
            try:
                play_turns(http, table, random.Random(1), max_decisions=5)
                head = http.get(f"/games/{table.game_id}").json()["version"]
                received += [int(m["id"]) for m in reader.take(head)]

                redis.stop()
                ready = wait_until(
                    lambda: (r := http.get("/readyz")).status_code == 503 and r.json(), 5, "readyz 503"
                )
                assert ready["checks"]["redis"].startswith("unreachable")
                assert ready["checks"]["store"] == "ok"
                made = play_turns(http, table, random.Random(2), max_decisions=8)  # every post is a 200
                assert made == 8
                head = http.get(f"/games/{table.game_id}").json()["version"]
                received += [int(m["id"]) for m in reader.take(head - len(received))]  # read from the store

                redis.start()  # same port
                wait_until(
                    lambda: http.get("/readyz").status_code == 200, 10, "readyz 200 after Redis is back"
                )
                play_turns(http, table, random.Random(3), max_decisions=5)
                head = http.get(f"/games/{table.game_id}").json()["version"]
                received += [int(m["id"]) for m in reader.take(head - len(received))]
                assert received == list(range(1, head + 1))  # everything, once, in order
                time.sleep(0.5)
                assert reader.messages.empty()  # and nothing twice
            finally:
                reader.stop()
    finally:
        redis.stop()


def test_redis_on_a_closed_port_does_not_stop_play(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/games.db",
        redis_url=f"redis://127.0.0.1:{free_port()}/0",
        stream_poll_seconds=0.2,
        redis_retry_seconds=0.2,
        redis_timeout_seconds=0.3,
    )
    with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        ready = http.get("/readyz")
        assert ready.status_code == 503 and ready.json()["checks"]["redis"].startswith("unreachable")
        table = _create(http, "closed-port")
        reader = StreamReader(f"{server.url}/games/{table.game_id}/stream?after=0").start()
        try:
            assert play_turns(http, table, random.Random(5), max_decisions=6) == 6
            head = http.get(f"/games/{table.game_id}").json()["version"]
            assert [int(m["id"]) for m in reader.take(head)] == list(range(1, head + 1))
            view = http.get(f"/games/{table.game_id}")  # the view cache is skipped, not an error
            assert view.status_code == 200 and view.json()["version"] == head
        finally:
            reader.stop()
