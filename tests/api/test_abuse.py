"""A client that abuses the service (docs/operations.md, "Limits"; issue 26): streams it opens and never
reads, reads without end, slow connections, work it asks for in bulk, and requests whose numbers overflow.
Each limit answers a clear problem (429, 503, 408, 413, 415, 422) and leaves other clients served. All traffic
is to loopback, bounded in count and time."""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Rate, flush_growth
from api.settings import NO_RATES, Settings
from domain import SeatSpec, Setup
from replays.service import Games
from tests.api.conftest import LiveServer
from tests.api.helpers import NDJSON, Table, create, iter_sse, play_turns, runtime_of, wait_until
from tests.replays.analysers import PACED

PROBLEM = "application/problem+json"


def _problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


def _as(address: str) -> dict[str, str]:
    """The headers of a request from another client (the app trusts X-Forwarded-For here)."""
    return {"X-Forwarded-For": address}


@pytest.fixture
def forwarded(settings: Settings) -> Settings:
    return replace(settings, trust_forwarded_for=True)


# -- streams ---------------------------------------------------------------------------------------


def _first_messages(http: httpx.Client, url: str, count: int) -> list[dict[str, Any]]:
    with http.stream("GET", url) as response:
        assert response.status_code == 200, response.read()
        out = []
        for message in iter_sse(response.iter_lines()):
            out.append(message)
            if len(out) == count:
                return out
    return out


def test_a_new_stream_starts_at_the_head_unless_it_asks_for_the_past(settings: Settings) -> None:
    """Without Last-Event-ID or `after` a stream sends what happens next only (a flood of new streams
    replays nothing); `after=0` replays the whole log first, as the play page asks for."""
    with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        created = http.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": "head"}).json()
        table = Table(created["game_id"], [s["token"] for s in created["seats"]], created)
        play_turns(http, table, random.Random(5), max_decisions=4)
        head = http.get(f"/games/{table.game_id}").json()["version"]
        assert head > 4
        url = f"/games/{table.game_id}/stream"
        replayed = _first_messages(http, f"{url}?after=0", head)
        assert [int(m["id"]) for m in replayed if "id" in m] == list(range(1, head + 1))
        with http.stream("GET", url) as live:
            assert live.status_code == 200  # the stream is open (its `retry:` line has been sent)...
            lines = live.iter_lines()
            moves = http.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()
            seat = moves["to_act"]
            listing = http.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
            body = {"command": listing["moves"][0], "expected_version": head, "command_id": "next"}
            posted = http.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=body)
            assert posted.status_code == 200, posted.text
            first = next(m for m in iter_sse(lines) if "id" in m)
            assert int(first["id"]) == head + 1  # ...and its first event is the one after the head


def test_a_client_may_hold_only_a_few_streams(forwarded: Settings) -> None:
    config = replace(forwarded, max_streams_per_client=3)
    with LiveServer(config) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        game = create(http, 2, "streams").game_id
        url = f"/games/{game}/stream"
        with (
            http.stream("GET", url, headers=_as("10.0.0.1")) as a,
            http.stream("GET", url, headers=_as("10.0.0.1")) as b,
            http.stream("GET", url, headers=_as("10.0.0.1")) as c,
        ):
            assert {a.status_code, b.status_code, c.status_code} == {200}
            refused = http.get(url, headers=_as("10.0.0.1"))
            body = _problem(refused, 429, "too-many-streams")
            assert body["limit"] == 3 and int(refused.headers["retry-after"]) >= 1
            turns = http.get("/turns", headers={**_as("10.0.0.1"), "Authorization": "Bearer gg_x"})
            assert turns.status_code in (401, 429)  # the turns stream counts too (or the token fails)
            with http.stream("GET", url, headers=_as("10.0.0.2")) as other:
                assert other.status_code == 200  # another client is not affected
        # closed streams give their slots back
        wait_until(lambda: server.app.state.runtime.streams.count == 0, 5, "the slots to be released")
        with http.stream("GET", url, headers=_as("10.0.0.1")) as again:
            assert again.status_code == 200


def test_reads_have_a_rate_limit_per_client(forwarded: Settings) -> None:
    rates = {**NO_RATES, "read": Rate(60, 5)}
    with TestClient(create_app(replace(forwarded, rates=rates))) as client:
        table = create(client, 2, "reads")
        for _ in range(5):
            assert client.get(f"/games/{table.game_id}", headers=_as("10.0.0.3")).status_code == 200
        refused = client.get(f"/games/{table.game_id}/events", headers=_as("10.0.0.3"))
        body = _problem(refused, 429, "rate-limited")
        assert body["retry_after"] == int(refused.headers["retry-after"]) >= 1
        assert client.get(f"/games/{table.game_id}", headers=_as("10.0.0.4")).status_code == 200
        for free in ("/healthz", "/readyz", "/static/style.css"):  # probes and static files are not counted
            assert client.get(free, headers=_as("10.0.0.3")).status_code == 200, free


# -- slow clients ------------------------------------------------------------------------------------


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed `sock` (EOF or reset), or None if it stayed open."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while True:
            if not sock.recv(4096):
                return time.monotonic() - started
    except (ConnectionResetError, BrokenPipeError):
        return time.monotonic() - started
    except TimeoutError:
        return None


def test_slow_and_silent_connections_are_closed(settings: Settings) -> None:
    """A connection that sends nothing, or trickles its request head a byte at a time, is closed once
    `header_timeout_seconds` have passed; one whose body does not arrive in time gets 408."""
    config = replace(settings, header_timeout_seconds=0.5, body_timeout_seconds=0.5)
    with LiveServer(config) as server:
        address = ("127.0.0.1", server.port)
        with socket.create_connection(address) as silent:
            closed = _closed_within(silent, 3)
            assert closed is not None and closed < 2.0
        with socket.create_connection(address) as trickle:
            trickle.settimeout(3)
            started = time.monotonic()
            head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
            sent_until_closed = 0
            try:
                for byte in head:
                    trickle.send(bytes([byte]))
                    sent_until_closed += 1
                    time.sleep(0.05)  # each byte in time for a per-byte timer, never a whole head
            except (BrokenPipeError, ConnectionResetError):
                pass
            closed = _closed_within(trickle, 3)
            assert closed is not None and time.monotonic() - started < 2.5
            assert sent_until_closed < len(head)
        with socket.create_connection(address) as slow_body:
            slow_body.sendall(
                b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"
            )
            slow_body.settimeout(3)
            answer = slow_body.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
            assert b"body-too-slow" in answer
        with httpx.Client(base_url=server.url, timeout=5) as http:  # a normal client is served
            assert http.get("/healthz").status_code == 200


# -- creations and their cost -----------------------------------------------------------------------


def _backup(tmp_path: Path) -> bytes:
    """A complete export file (an operator's backup of a game just started), importable anywhere."""
    with Games(f"sqlite:///{tmp_path}/backup.db") as games:
        game_id, _ = games.create(Setup(seats=(SeatSpec("A", "galileo"), SeatSpec("B", "kepler")), seed="b"))
        return games.export(game_id, reveal=True)


def test_an_import_needs_its_own_content_type(client: TestClient, tmp_path: Path) -> None:
    """A cross-site form can post text/plain or a form without asking first: neither imports."""
    export = _backup(tmp_path)
    before = len(runtime_of(client).store.list_games())
    for media in (None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        headers = {} if media is None else {"Content-Type": media}
        _problem(client.post("/games/import", content=export, headers=headers), 415, "unsupported-media-type")
    assert len(runtime_of(client).store.list_games()) == before  # nothing stored
    assert client.post("/games/import", content=export, headers=NDJSON).status_code == 201


def test_rejected_imports_count_against_the_byte_cap(settings: Settings) -> None:
    config = replace(settings, max_bytes_per_client=10_000)
    with TestClient(create_app(config)) as client:
        garbage = b'{"not": "an export"}\n' * 200  # 4,200 bytes, parsed and rejected
        for _ in range(2):
            _problem(client.post("/games/import", content=garbage, headers=NDJSON), 422, "import-rejected")
        refused = client.post("/games/import", content=garbage, headers=NDJSON)
        body = _problem(refused, 403, "quota-exceeded")
        assert body["limit"] == 10_000


def test_a_bots_game_counts_its_real_size_against_the_byte_cap(settings: Settings) -> None:
    """One POST of four bots makes a whole game: what it stores as it is played counts, not the few
    hundred bytes of its first events."""
    with TestClient(create_app(settings)) as client:
        runtime = runtime_of(client)
        table = create(client, 4, "four-bots", bots={i: "greedy" for i in range(4)})
        wait_until(
            lambda: client.get(f"/games/{table.game_id}").json()["status"] == "finished", 120, "the game"
        )
        (client_key,) = _clients(runtime)

        def counted() -> bool:
            # The store counts a write's bytes just after the write returns (api/service.py): the game
            # may read as finished a moment before its last move's bytes are counted.
            flush_growth(runtime.store.growth, runtime.seats.grow)  # as before each creation
            return bool(runtime.seats.usage(client_key).bytes == _stored_size(runtime, table.game_id))

        wait_until(counted, 10, "the stored game's bytes counted")
        used = runtime.seats.usage(client_key).bytes
        assert used == _stored_size(runtime, table.game_id)
        assert used > 20_000  # a whole 4-seat game: tens of kilobytes, not the creation's few hundred


def _clients(runtime: Any) -> set[str]:
    return {str(r[0]) for r in runtime.seats._db.execute("SELECT client FROM galileo_creations").fetchall()}


def _stored_size(runtime: Any, game_id: str) -> int:
    """The game's stored events' bytes, read back from the store's own recorder."""
    from uuid import UUID

    rows = runtime.store.games.store.recorder.select_events(UUID(game_id))
    return sum(len(r.state) for r in rows)


# -- analyses ----------------------------------------------------------------------------------------


def _finished(client: TestClient, seed: str) -> str:
    table = create(client, 2, seed, bots={0: "greedy", 1: "greedy"})
    wait_until(
        lambda: client.get(f"/games/{table.game_id}").json()["status"] == "finished", 60, "the bots' game"
    )
    return table.game_id


@pytest.fixture
def analysing(forwarded: Settings) -> Iterator[TestClient]:
    config = replace(forwarded, analysis_per_client=2, analysis_queue_limit=3)
    with TestClient(create_app(config, analyser=PACED)) as client:
        yield client


def test_analyses_are_bounded_per_client_and_in_all(analysing: TestClient) -> None:
    game = _finished(analysing, "bounded")
    url = f"/games/{game}/analysis"
    for viewer in (0, 1):
        asked = analysing.post(url, json={"budget": "slow", "viewer": viewer}, headers=_as("10.0.1.1"))
        assert asked.status_code == 202, asked.text
    again = analysing.post(url, json={"budget": "slow", "viewer": 0}, headers=_as("10.0.1.1"))
    assert again.status_code == 202  # the same analysis again costs nothing: it is the same job
    refused = analysing.post(url, json={"budget": "steady"}, headers=_as("10.0.1.1"))
    body = _problem(refused, 429, "analysis-limit")
    assert body["limit"] == 2 and int(refused.headers["retry-after"]) >= 1
    third = analysing.post(url, json={"budget": "slow"}, headers=_as("10.0.1.2"))
    assert third.status_code == 202  # the queue now holds 3
    full = analysing.post(url, json={"budget": "steady"}, headers=_as("10.0.1.3"))
    body = _problem(full, 503, "analysis-busy")
    assert body["limit"] == 3 and int(full.headers["retry-after"]) >= 1


def test_only_a_client_that_asked_may_cancel_an_analysis(analysing: TestClient) -> None:
    game = _finished(analysing, "cancel-who")
    url = f"/games/{game}/analysis"
    job = analysing.post(url, json={"budget": "slow"}, headers=_as("10.0.2.1")).json()
    job_url = job["url"]
    _problem(analysing.delete(job_url, headers=_as("10.0.2.9")), 403, "not-your-analysis")
    assert analysing.get(job_url).json()["status"] in ("queued", "running")
    analysing.post(url, json={"budget": "slow"}, headers=_as("10.0.2.2"))  # a second asker joins
    first = analysing.delete(job_url, headers=_as("10.0.2.1"))
    assert first.status_code == 200 and first.json()["status"] in ("queued", "running")  # still wanted
    last = analysing.delete(job_url, headers=_as("10.0.2.2"))
    assert last.status_code == 200 and last.json()["status"] in ("cancelled", "cancelling")


def test_a_cancelled_running_analysis_ends_cancelled(forwarded: Settings) -> None:
    """With the real engine: cancelled while it runs, the job ends `cancelled`, never `failed`."""
    with TestClient(create_app(forwarded)) as client:
        game = _finished(client, "cancel-engine")
        job = client.post(f"/games/{game}/analysis", json={"budget": "fast"}).json()
        wait_until(lambda: client.get(job["url"]).json()["status"] == "running", 30, "the job to run")
        assert client.delete(job["url"]).json()["status"] in ("cancelling", "cancelled")
        ended = wait_until(
            lambda: (b := client.get(job["url"]).json())["status"] not in ("running", "cancelling") and b,
            30,
            "the job to end",
        )
        assert ended["status"] == "cancelled", ended


# -- numbers out of range -------------------------------------------------------------------------


def test_huge_numbers_and_durations_are_refused_not_failed(client: TestClient) -> None:
    game = create(client, 2, "huge").game_id
    for path in (
        f"/games/{game}/at/9223372036854775808",
        f"/games/{game}/at/99999999999999999999999",
        f"/games/{game}/events?after=9223372036854775808",
        f"/games/{game}/stream?after=9223372036854775808",
    ):
        _problem(client.get(path), 422, "invalid-request")
    seats = [{"name": "A"}, {"name": "B"}]
    for body in (
        {"seats": seats, "clock": {"per_move": "P99999999999D"}},
        {"seats": seats, "clock": {"base": "P99999999999W", "increment": "PT1S"}},
        {"seats": seats, "takeback_timeout": "P99999999999D"},
        {"seats": seats, "takeback_timeout": "PT99999999999999999999999H"},
    ):
        _problem(client.post("/games", json=body), 422, "invalid-table")
    fork = client.post(f"/games/{game}/fork", json={"at_version": 9223372036854775808})
    _problem(fork, 422, "invalid-request")
