"""ASYNC-1: a command is judged by the time it was received, not by when it is stored (issue 15,
docs/async.md "Commands at the deadline"), on a controllable clock and with the scheduler's grace.

The scheduler's race with a slow write is staged deterministically: the store's `submit` is wrapped so
that, after the command was received and before it is written, the clock moves on and the scheduler
runs a round."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import anyio.from_thread
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.async_helpers import Clock, bearer
from tests.api.helpers import runtime_of

GRACE = 2.0


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    app = create_app(replace(settings, clocks=False, clock_grace_seconds=GRACE), clock=clock)
    with TestClient(app) as test_client:
        yield test_client


def created_game(client: TestClient) -> tuple[str, str, int]:
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    body = {"seats": seats, "first_seat": 0, "clock": {"per_move": "PT60S"}}
    created = client.post("/games", json=body).json()
    return created["game_id"], created["seats"][0]["token"], created["version"]


def move(client: TestClient, game_id: str, token: str, version: int, cid: str) -> Any:
    body = {"command": {"text": "@0 move 1"}, "expected_version": version, "command_id": cid}
    return client.post(f"/games/{game_id}/commands", headers=bearer(token), json=body)


def tick(client: TestClient) -> int:
    fired: int = client.portal.call(runtime_of(client).scheduler.tick, True)  # type: ignore[union-attr]
    return fired


def all_events(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"/games/{game_id}/events", params={"limit": 500}).json()[
        "events"
    ]
    return found


def stall_the_write(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, clock: Clock, by: timedelta, fired: list[int]
) -> None:
    """Seat 0's next write is delayed by `by`, during which the scheduler runs one round."""
    store = runtime_of(client).store
    real = store.submit

    def slow(*args: Any) -> Any:
        if args[4] == 0 and not fired:  # seat 0's command (the actor), once
            clock.advance(seconds=by.total_seconds())
            fired.append(anyio.from_thread.run(runtime_of(client).scheduler.tick, True))
        return real(*args)

    monkeypatch.setattr(store, "submit", slow)


def test_ASYNC_1_a_command_received_before_the_deadline_is_stored_even_if_the_scheduler_runs_meanwhile(
    client: TestClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, token, version = created_game(client)
    deadline = clock.now + timedelta(seconds=60)
    clock.advance(seconds=59, microseconds=999_000)  # received 1 ms before the deadline
    received = clock.now
    fired: list[int] = []
    stall_the_write(client, monkeypatch, clock, timedelta(seconds=1), fired)  # stored 1 s after it
    response = move(client, game_id, token, version, "in-time")
    assert response.status_code == 200, response.text
    assert fired == [0]  # the scheduler ran within its grace: it left the seat's time alone
    stored = response.json()["events"]
    assert stored[0]["type"] == "TelescopeMoved"
    assert stored[0]["received_at"] == received.isoformat() < deadline.isoformat()
    found = all_events(client, game_id)
    assert "TimeExpired" not in [e["type"] for e in found]  # exactly one outcome: the move
    assert found[-1]["actor"] == 0 and found[-1]["received_at"] == received.isoformat()
    # The move did not end the turn, whose time is out now: the seat's next command is too late.
    later = move(client, game_id, token, response.json()["version"], "later")
    assert later.status_code == 409 and later.json()["rule_id"] == "ASYNC-1"
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True


def test_ASYNC_1_a_command_received_in_time_that_loses_the_race_is_refused_clearly(
    client: TestClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, token, version = created_game(client)
    clock.advance(seconds=59, microseconds=999_000)
    fired: list[int] = []
    # The write stalls past the grace: the scheduler records the expiry first.
    stall_the_write(client, monkeypatch, clock, timedelta(seconds=GRACE + 1), fired)
    response = move(client, game_id, token, version, "slow")
    assert fired == [1]
    assert response.status_code == 409, response.text
    problem = response.json()
    assert problem["code"] == "time-expired" and problem["rule_id"] == "ASYNC-1"
    assert "recorded" in problem["detail"] and "received at" in problem["detail"]
    found = all_events(client, game_id)
    assert [e["type"] for e in found].count("TimeExpired") == 1
    expired_at = [e["type"] for e in found].index("TimeExpired")
    # Exactly one outcome: the command was not stored (seat 0 acts only after it, as the bot's seat).
    assert all(e["version"] > found[expired_at]["version"] for e in found if e["actor"] == 0)
    retried = move(client, game_id, token, version, "slow")  # a retry gets the same clear answer
    assert retried.status_code == 409 and retried.json()["code"] == "time-expired"
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True


def test_ASYNC_1_a_command_received_after_the_deadline_is_refused_and_records_the_expiry(
    client: TestClient, clock: Clock
) -> None:
    game_id, token, version = created_game(client)
    clock.advance(seconds=60, milliseconds=1)  # 1 ms late, well within the scheduler's grace
    assert tick(client) == 0  # the scheduler has not recorded it yet
    response = move(client, game_id, token, version, "late")
    assert response.status_code == 409, response.text
    problem = response.json()
    assert problem["code"] == "time-expired" and problem["rule_id"] == "ASYNC-1"
    assert "received at" in problem["detail"]
    found = all_events(client, game_id)
    expired = [e for e in found if e["type"] == "TimeExpired"]
    assert len(expired) == 1 and expired[0]["event"]["seat"] == 0  # recorded at once
    assert all(e["version"] > expired[0]["version"] for e in found if e["actor"] == 0)


def test_ASYNC_1_the_scheduler_records_an_idle_seats_expiry_after_its_grace(
    client: TestClient, clock: Clock
) -> None:
    game_id, _, _ = created_game(client)
    clock.advance(seconds=60)  # the deadline: the seat may no longer act ...
    assert client.get(f"/games/{game_id}/table").json()["clock"]["seconds_left"][0] == 0
    assert tick(client) == 0  # ... and the scheduler waits the grace for a command received in time
    clock.advance(seconds=GRACE, microseconds=-1)
    assert tick(client) == 0
    clock.advance(microseconds=1)
    assert tick(client) == 1
    expired = [e for e in all_events(client, game_id) if e["type"] == "TimeExpired"]
    assert expired[0]["event"]["deadline"] == (clock.now - timedelta(seconds=GRACE)).isoformat()
