"""Turn notifications (docs/async.md): signed, verifiable, retried after an endpoint failure, delivered
after a server restart, and never delaying a move. A local listener on 127.0.0.1; waits on conditions."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import httpx
import pytest

from api.notify import SIGNATURE_HEADER, sign, verify_signature
from api.settings import Settings
from tests.api.async_helpers import Listener, public_resolver
from tests.api.helpers import free_port, wait_until


@pytest.fixture
def fast(settings: Settings) -> Settings:
    return replace(
        settings,
        clock_tick_seconds=0.2,
        webhook_poll_seconds=0.1,
        webhook_backoff_seconds=0.2,
        webhook_allow_networks=("127.0.0.1/32",),  # the local listener (api/egress.py)
    )


def _create(client: httpx.Client, url: str, **body: Any) -> dict[str, Any]:
    seats = [{"name": "Ada", "character": "galileo", "webhook": url}, {"name": "Ben", "character": "kepler"}]
    response = client.post("/games", json={"seats": seats, "first_seat": 0, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _log(client: httpx.Client, created: dict[str, Any]) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    deliveries: list[dict[str, Any]] = client.get(
        f"/games/{created['game_id']}/notifications", headers=headers
    ).json()["deliveries"]
    return deliveries


def test_signature_is_hmac_sha256_of_the_body() -> None:
    body = b'{"game_id":"x","event":"your-turn"}'
    assert sign("s3cret", body) == "sha256=" + __import__("hmac").new(b"s3cret", body, "sha256").hexdigest()
    assert verify_signature("s3cret", body, sign("s3cret", body))
    assert not verify_signature("other", body, sign("s3cret", body))
    assert not verify_signature("s3cret", body + b" ", sign("s3cret", body))


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_retried_with_backoff_after_an_endpoint_failure(  # type: ignore[no-untyped-def]
    backend: str, fast: Settings, live_server, request: pytest.FixtureRequest
) -> None:
    if backend == "postgres":  # the outbox's claim (FOR UPDATE SKIP LOCKED) and the table records
        fast = replace(fast, database_url=request.getfixturevalue("postgres_url"))
    listener = Listener(statuses=[500, 503]).start()
    try:
        with live_server(fast) as server, httpx.Client(base_url=server.url, timeout=10) as client:
            created = _create(client, listener.url)
            wait_until(lambda: len(listener.calls) >= 3, 20, "two failures and a success")
            bodies = {call.body for call in listener.calls}
            assert len(bodies) == 1  # the same notification, retried
            for call in listener.calls:
                secret = created["seats"][0]["webhook_secret"]
                assert verify_signature(secret, call.body, call.headers[SIGNATURE_HEADER.lower()])
            log = wait_until(
                lambda: [d for d in _log(client, created) if d["status"] == "delivered"], 10, "the log"
            )
            assert log[0]["attempts"] == 3 and log[0]["result"] == "2xx"
    finally:
        listener.stop()


def test_delivered_after_a_server_restart(fast: Settings, live_server) -> None:  # type: ignore[no-untyped-def]
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    slow_retry = replace(fast, webhook_backoff_seconds=0.5)
    with live_server(slow_retry) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        created = _create(client, url)  # nothing listens yet: the first attempt fails
        wait_until(lambda: any(d["attempts"] >= 1 for d in _log(client, created)), 10, "a failed attempt")
    listener = Listener(port=port).start()
    try:
        with live_server(slow_retry) as server, httpx.Client(base_url=server.url, timeout=10) as client:
            call = wait_until(lambda: listener.calls[:1], 20, "the delivery after the restart")[0]
            assert call.json["game_id"] == created["game_id"] and call.json["event"] == "your-turn"
            secret = created["seats"][0]["webhook_secret"]
            assert verify_signature(secret, call.body, call.headers[SIGNATURE_HEADER.lower()])
            wait_until(
                lambda: _log(client, created)[0]["status"] == "delivered", 10, "the log to say delivered"
            )
    finally:
        listener.stop()


def test_a_slow_endpoint_never_delays_a_move(fast: Settings, live_server) -> None:  # type: ignore[no-untyped-def]
    hold = threading.Event()
    listener = Listener(hold=hold).start()
    try:
        with live_server(fast) as server, httpx.Client(base_url=server.url, timeout=10) as client:
            seats = [
                {"name": "Ada", "character": "galileo"},
                {"name": "Ben", "character": "kepler", "webhook": listener.url},
            ]
            created = client.post("/games", json={"seats": seats, "first_seat": 0}).json()
            game_id, token = created["game_id"], created["seats"][0]["token"]
            headers = {"Authorization": f"Bearer {token}"}
            for i in range(30):  # seat 0 plays its turn out; its end queues Ben's notification
                listing = client.get(f"/games/{game_id}/moves", headers=headers).json()
                if listing["to_act"] != 0:
                    break
                started = time.monotonic()
                response = client.post(
                    f"/games/{game_id}/commands",
                    headers=headers,
                    json={
                        "command": listing["moves"][-1],
                        "expected_version": listing["version"],
                        "command_id": f"m{i}",
                    },
                )
                assert response.status_code == 200
            assert listing["to_act"] == 1
            # The endpoint is still holding its first request: the moves were answered without it.
            assert not hold.is_set() and not listener.calls
            assert time.monotonic() - started < 5
            hold.set()
            wait_until(lambda: listener.calls, 10, "the held delivery to complete")
    finally:
        listener.stop()


def test_webhook_registered_later_and_removed(settings: Settings, live_server) -> None:  # type: ignore[no-untyped-def]
    with (
        live_server(replace(settings, clocks=False)) as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
    ):
        # example.org "resolves" to a public address here (nothing is delivered: no worker runs).
        server.app.state.runtime.resolve = public_resolver
        created = client.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}]}).json()
        game_id = created["game_id"]
        headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        bad = client.put(f"/games/{game_id}/webhook", headers=headers, json={"url": "ftp://example.org/x"})
        assert bad.status_code == 422 and bad.json()["code"] == "invalid-webhook"
        first = client.put(
            f"/games/{game_id}/webhook", headers=headers, json={"url": "https://example.org/a"}
        )
        second = client.put(
            f"/games/{game_id}/webhook", headers=headers, json={"url": "https://example.org/b"}
        )
        assert first.status_code == second.status_code == 200
        assert first.json()["secret"] != second.json()["secret"]  # a new secret each time
        assert client.delete(f"/games/{game_id}/webhook", headers=headers).status_code == 204
