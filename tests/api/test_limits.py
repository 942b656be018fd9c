"""Limits (docs/operations.md, "Limits"): a body over its limit gets 413 on every path, chunked included;
per-client token buckets answer 429 with Retry-After on create, fork, import, commands and table writes; caps
on the games and bytes one client stores answer 403 quota-exceeded; nothing is written by a refused
request."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Rate, RateLimiter, RedisBuckets
from api.settings import DEFAULT_RATES, NO_RATES, Settings
from domain import SeatSpec, Setup
from replays.service import Games
from tests.api.conftest import LiveServer
from tests.api.helpers import NDJSON, create, free_port

PROBLEM = "application/problem+json"
TEN_MB = 10 * 1024 * 1024


def _chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    yield b'{"seats": [{"name": "'
    sent = 0
    while sent < total:
        yield b"x" * size
        sent += size
    yield b'"}]}'


@pytest.mark.parametrize(
    "path", ["/games", "/games/import", "/games/00000000-0000-0000-0000-000000000000/fork"]
)
def test_a_10_mb_chunked_body_gets_413_on_every_path(
    settings: Settings, path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Over a real socket, with Transfer-Encoding: chunked and no Content-Length."""
    limit = settings.max_import_bytes if path == "/games/import" else settings.max_body_bytes
    body = max(TEN_MB, limit + 1)
    with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        started = time.monotonic()
        request = http.build_request(
            "POST", path, content=_chunks(body), headers={"Content-Type": "application/json"}
        )
        assert "content-length" not in request.headers and request.headers["transfer-encoding"] == "chunked"
        try:
            response = http.send(request)
        except httpx.WriteError:  # the server answered and closed before the client finished sending
            pytest.fail("the connection was closed without an answer")
        elapsed = time.monotonic() - started
        assert response.status_code == 413, response.text
        assert response.headers["content-type"].startswith(PROBLEM)
        assert response.json()["code"] == "body-too-large"
        assert http.get("/games").json()["games"] == []  # nothing was stored
    with capsys.disabled():
        print(f"\n10 MB chunked POST {path}: 413 in {elapsed:.2f} s")


def test_declared_oversized_body_gets_413_before_reading(client: TestClient, settings: Settings) -> None:
    response = client.post(
        "/games", content=b"{}", headers={"Content-Length": str(settings.max_body_bytes + 1)}
    )
    assert response.status_code == 413 and response.json()["code"] == "body-too-large"


def test_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    limiter = RateLimiter({"create": Rate(60, 3)}, clock=lambda: now[0])  # one a second, bursts of 3
    assert [limiter.take_local("create", "a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take_local("create", "a") == pytest.approx(1.0)
    assert limiter.take_local("create", "b") == 0.0  # buckets are per client
    now[0] = 1.0
    assert limiter.take_local("create", "a") == 0.0
    assert limiter.take_local("fork", "a") == 0.0  # no rate for the kind: unlimited


def test_rate_parse() -> None:
    assert Rate.parse("30/10") == Rate(30, 10)
    assert not Rate.parse("off").enabled
    with pytest.raises(ValueError):
        Rate.parse("-1/2")


def _backup(tmp_path: Path) -> bytes:
    with Games(f"sqlite:///{tmp_path}/backup.db") as games:
        game_id, _ = games.create(Setup(seats=(SeatSpec("A", "galileo"), SeatSpec("B", "kepler")), seed="l"))
        return games.export(game_id, reveal=True)


def test_rate_limits_answer_429_with_retry_after(settings: Settings, tmp_path: Path) -> None:
    rates = {"create": Rate(1, 2), "fork": Rate(1, 1), "import": Rate(1, 1), "command": Rate(1, 1)}
    with TestClient(create_app(replace(settings, rates=rates))) as client:
        table = create(client, 2, seed="rates")
        create(client, 2, seed="rates-2")
        refused = client.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}]})
        assert refused.status_code == 429 and refused.headers["content-type"].startswith(PROBLEM)
        assert refused.json()["code"] == "rate-limited" and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["retry_after"] == int(refused.headers["retry-after"])
        fork = f"/games/{table.game_id}/fork"
        assert client.post(fork, json={"at_version": 1}).status_code == 201
        assert client.post(fork, json={"at_version": 1}).status_code == 429
        backup = _backup(tmp_path)
        assert client.post("/games/import", content=backup, headers=NDJSON).status_code == 201
        assert client.post("/games/import", content=backup, headers=NDJSON).status_code == 429
        seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
        listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
        url = f"/games/{table.game_id}/commands"
        post = {"command": listing["moves"][0], "expected_version": listing["version"], "command_id": "c1"}
        assert client.post(url, headers=table.auth(seat), json=post).status_code == 200
        again = client.post(url, headers=table.auth(seat), json={**post, "command_id": "c2"})
        assert again.status_code == 429
        assert len(client.app.state.runtime.store.list_games()) == 4  # 2 created, 1 fork, 1 import


def test_a_table_write_counts_against_the_command_rate(settings: Settings) -> None:
    """Take-backs, resignation, clocks, webhooks and the host's powers are commands for the rate limit
    (docs/async.md), counted once the caller is known: an empty bucket answers 429 before the table rule
    is looked at, and a request without a token is answered 401 whatever the bucket holds (it costs
    nothing against it)."""
    rates = {**NO_RATES, "command": Rate(1, 1)}
    with TestClient(create_app(replace(settings, rates=rates))) as client:
        table = create(client, 2, seed="table-rates")
        version = client.get(f"/games/{table.game_id}").json()["version"]
        url = f"/games/{table.game_id}/resign"
        first = client.post(url, headers=table.auth(0), json={"command_id": "r1"})
        assert first.status_code == 200, first.text
        again = client.post(url, headers=table.auth(1), json={"command_id": "r2"})
        assert again.status_code == 429 and again.headers["content-type"].startswith(PROBLEM)
        assert again.json()["code"] == "rate-limited" and int(again.headers["retry-after"]) >= 1
        for path in ("host/cancel", "resign", "clock/resume", "takeback"):
            anonymous = client.post(f"/games/{table.game_id}/{path}", json={"command_id": "c1"})
            assert anonymous.status_code == 401 and anonymous.json()["code"] == "token-required", path
        host = {"Authorization": f"Bearer {table.created['host_token']}"}
        cancel = client.post(f"/games/{table.game_id}/host/cancel", headers=host, json={"command_id": "c1"})
        assert cancel.status_code == 429  # the host's own write, before the table rule
        events = client.get(f"/games/{table.game_id}/events").json()["events"]
        assert [e["type"] for e in events if e["version"] > version].count("SeatResigned") == 1


def test_default_rates_are_generous_for_people() -> None:
    assert DEFAULT_RATES["command"].burst >= 30 and set(DEFAULT_RATES) == set(NO_RATES)


def test_caps_on_games_and_bytes_per_client(settings: Settings, tmp_path: Path) -> None:
    with TestClient(create_app(replace(settings, max_games_per_client=2))) as client:
        create(client, 2, seed="cap-1")
        create(client, 2, seed="cap-2")
        refused = client.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}]})
        assert refused.status_code == 403 and refused.json()["code"] == "quota-exceeded"
        assert refused.json()["limit"] == 2
        assert len(client.app.state.runtime.store.list_games()) == 2
    backup = _backup(tmp_path)
    cap = len(backup) + 10
    other = replace(settings, database_url=f"sqlite:///{tmp_path}/other.db", max_bytes_per_client=cap)
    with TestClient(create_app(other)) as client:
        assert client.post("/games/import", content=backup, headers=NDJSON).status_code == 201
        refused = client.post("/games/import", content=backup, headers=NDJSON)
        assert refused.status_code == 403 and refused.json()["code"] == "quota-exceeded"
        usage = client.app.state.runtime.seats.usage(next(iter(_clients(client))))
        assert usage.games == 1 and 0 < usage.bytes <= cap


def _clients(client: TestClient) -> set[str]:
    seats = client.app.state.runtime.seats
    rows = seats._db.execute("SELECT client FROM galileo_creations").fetchall()
    return {r[0] for r in rows}


@pytest.mark.redis
def test_rate_buckets_are_shared_across_replicas_with_redis(redis_url: str, settings: Settings) -> None:
    """With Redis configured, two API replicas take from one bucket per client: a client gets the
    rate once, not once per replica (keys under a prefix of this test's own)."""
    prefix = f"test:rate:{uuid.uuid4().hex}"
    rate = Rate(60, 4)

    async def run() -> tuple[list[float], float]:
        replicas = [RedisBuckets(redis_url, 0.5, prefix) for _ in range(2)]
        limiters = [RateLimiter({"create": rate}, shared=r) for r in replicas]
        try:
            waits = [await limiters[i % 2].take("create", "client-a") for i in range(6)]
            other = await limiters[1].take("create", "client-b")
        finally:
            for r in replicas:
                await r.close()
        return waits, other

    waits, other = asyncio.run(run())
    assert waits[:4] == [0.0] * 4  # the burst, taken on both replicas together
    assert all(0 < w <= 1.0 for w in waits[4:])  # then one a second, whichever replica is asked
    assert other == 0.0  # buckets are per client


def test_an_unreachable_redis_falls_back_to_local_buckets() -> None:
    """Redis down: each replica limits with its own bucket (never unlimited, never blocked)."""

    async def run() -> list[float]:
        dead = RedisBuckets(f"redis://127.0.0.1:{free_port()}/0", 0.2)
        limiter = RateLimiter({"create": Rate(60, 2)}, shared=dead)
        try:
            return [await limiter.take("create", "a") for _ in range(3)]
        finally:
            await dead.close()

    started = time.monotonic()
    waits = asyncio.run(run())
    assert waits[:2] == [0.0, 0.0] and waits[2] > 0
    assert time.monotonic() - started < 3
