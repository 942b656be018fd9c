"""Turn notifications (docs/async.md): signed, verifiable, retried after an endpoint failure, delivered
after a server restart, and never delaying a move. A local listener on 127.0.0.1; waits on conditions."""

from __future__ import annotations

import base64
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError

from api.app import create_app
from api.crypto import Keyring
from api.notify import SIGNATURE_HEADER, sign, verify_signature
from api.schemas import DeliveryOut
from api.settings import Settings
from api.tables import TableStore
from tests.api.async_helpers import Call, Clock, Listener, bearer, public_resolver
from tests.api.helpers import free_port, runtime_of, wait_until
from tests.conftest import TEST_ENCRYPTION_KEY

KEYRING = Keyring.of([TEST_ENCRYPTION_KEY], "the tests' key")


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


# -- Standard Webhooks signatures, rotation, the delivery log and registrations (issue 26, items 5 and 9) --
# Deliveries are driven by the test (`send_due`) on a clock the test moves, starting at the real time:
# the verifier (the `standardwebhooks` package) judges timestamps by the real time.


@pytest.fixture
def now_clock() -> Clock:
    return Clock(now=datetime.now(UTC))


@pytest.fixture
def driven(settings: Settings, now_clock: Clock) -> Iterator[TestClient]:
    config = replace(
        settings,
        clocks=False,
        webhook_allow_networks=("127.0.0.1/32",),  # the local listener (api/egress.py)
        webhook_backoff_seconds=1.0,
        webhook_rotation_seconds=60.0,
    )
    with TestClient(create_app(config, clock=now_clock)) as client:
        yield client


def _deliver(client: TestClient) -> int:
    sent: int = client.portal.call(runtime_of(client).notifier.send_due, True)  # type: ignore[union-attr]
    return sent


def _made(client: TestClient, **seat: Any) -> dict[str, Any]:
    seats = [{"name": "Ada", "character": "galileo", **seat}, {"name": "Ben", "character": "kepler"}]
    response = client.post("/games", json={"seats": seats, "first_seat": 0})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _host_log(client: TestClient, created: dict[str, Any]) -> list[dict[str, Any]]:
    answer = client.get(f"/games/{created['game_id']}/notifications", headers=bearer(created["host_token"]))
    deliveries: list[dict[str, Any]] = answer.json()["deliveries"]
    return deliveries


def _cancel(client: TestClient, created: dict[str, Any]) -> None:
    answer = client.post(
        f"/games/{created['game_id']}/host/cancel",
        headers=bearer(created["host_token"]),
        json={"command_id": "cancel"},
    )
    assert answer.status_code == 200, answer.text


def _verify(secret: str, call: Call) -> Any:
    return StandardWebhook(secret).verify(call.body, call.headers)


def test_secrets_are_standard_base64_after_whsec(driven: TestClient) -> None:
    secret = _made(driven, webhook="http://127.0.0.1:9/hook")["seats"][0]["webhook_secret"]
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) == 32


def test_a_standard_webhooks_verifier_accepts_each_delivery_and_refuses_a_stale_replay(
    driven: TestClient, now_clock: Clock
) -> None:
    listener = Listener(statuses=[500]).start()
    try:
        created = _made(driven, webhook=listener.url)
        secret = created["seats"][0]["webhook_secret"]
        assert _deliver(driven) == 1  # answered 500: retried after the backoff
        now_clock.advance(seconds=1.5)
        assert _deliver(driven) == 1
        first, retry = listener.calls
        assert first.headers["webhook-id"] == retry.headers["webhook-id"] == first.json["id"]  # constant
        assert int(retry.headers["webhook-timestamp"]) > int(first.headers["webhook-timestamp"])
        for call in (first, retry):
            assert _verify(secret, call)["event"] == "your-turn"
            assert verify_signature(secret, call.body, call.headers[SIGNATURE_HEADER.lower()])  # deprecated
        [row] = _host_log(driven, created)
        assert (row["status"], row["attempts"], row["result"]) == ("delivered", 2, "2xx")
        # A captured delivery replayed with a fresh timestamp, or with another body: no signature matches.
        fresh = {**retry.headers, "webhook-timestamp": str(int(time.time()) + 60)}
        with pytest.raises(WebhookVerificationError):
            StandardWebhook(secret).verify(retry.body, fresh)
        with pytest.raises(WebhookVerificationError):
            StandardWebhook(secret).verify(retry.body.replace(b"your-turn", b"game-ended"), retry.headers)
        # A delivery captured six minutes ago and replayed now: too old.
        now_clock.now = datetime.now(UTC) - timedelta(minutes=6)
        old = _made(driven, webhook=listener.url)
        _deliver(driven)
        stale = listener.calls[-1]
        assert stale.json["game_id"] == old["game_id"]
        with pytest.raises(WebhookVerificationError, match="too old"):
            _verify(old["seats"][0]["webhook_secret"], stale)
    finally:
        listener.stop()


def test_a_rotated_secret_signs_beside_the_new_one_until_the_overlap_ends(
    driven: TestClient, now_clock: Clock, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    listener = Listener().start()
    try:
        created = _made(driven, webhook=listener.url)
        game_id, old = created["game_id"], created["seats"][0]["webhook_secret"]
        seat = bearer(created["seats"][0]["token"])
        rotated = driven.post(f"/games/{game_id}/webhook/secret", headers=seat)
        assert rotated.status_code == 200, rotated.text
        new = rotated.json()["secret"]
        assert new != old and rotated.json()["url"] == listener.url
        # The table holds both secrets sealed (api/crypto.py): neither, nor its key's base64, in clear.
        with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
            stored = repr(list(db.execute("SELECT * FROM galileo_hooks")))
        assert stored.count("gs1:") == 2
        assert old.removeprefix("whsec_") not in stored and new.removeprefix("whsec_") not in stored
        _deliver(driven)  # the your-turn queued before the rotation: same registration, both secrets
        [during] = listener.calls
        assert len(during.headers["webhook-signature"].split(" ")) == 2
        assert _verify(old, during) and _verify(new, during)
        assert verify_signature(new, during.body, during.headers[SIGNATURE_HEADER.lower()])
        now_clock.advance(seconds=61)
        _cancel(driven, created)
        _deliver(driven)
        after = listener.calls[-1]
        assert after.json["event"] == "game-cancelled" and _verify(new, after)
        with pytest.raises(WebhookVerificationError):
            _verify(old, after)
        other = _made(driven)
        none = driven.post(
            f"/games/{other['game_id']}/webhook/secret", headers=bearer(other["seats"][0]["token"])
        )
        assert none.status_code == 404 and none.json()["code"] == "no-webhook"
    finally:
        listener.stop()
    assert old.removeprefix("whsec_") not in caplog.text and new.removeprefix("whsec_") not in caplog.text


STAMPED = ("id", "created_at", "delivered_at", "next_attempt_at")  # an id and times: digits by chance


def test_the_delivery_log_shows_classes_never_raw_errors_or_codes(driven: TestClient) -> None:
    listener = Listener(statuses=[404]).start()
    dead = free_port()  # nothing listens: the connection is refused
    try:
        answered = _made(driven, webhook=listener.url)
        unanswered = _made(driven, webhook=f"http://127.0.0.1:{dead}/hook")
        _deliver(driven)
        [row] = _host_log(driven, answered)
        assert (row["status"], row["result"]) == ("pending", "4xx")
        [row] = _host_log(driven, unanswered)
        assert (row["status"], row["result"]) == ("pending", "no-response")
        seat_view = driven.get(
            f"/games/{unanswered['game_id']}/notifications", headers=bearer(unanswered["seats"][0]["token"])
        )
        for text in (seat_view.text, str(_host_log(driven, answered))):
            assert "last_error" not in text and "last_code" not in text
            assert "Connect" not in text and "Errno" not in text and "refused" not in text
        # Only these members, none of them the raw status code or an error's text (a port, a reason).
        for row in (*_host_log(driven, answered), *seat_view.json()["deliveries"]):
            assert set(row) == set(DeliveryOut.model_fields)
            told = [v for k, v in row.items() if k not in STAMPED]
            assert 404 not in told and not any(str(dead) in str(v) for v in told)
    finally:
        listener.stop()


def test_a_replaced_webhook_gets_nothing_queued_for_the_old_one(driven: TestClient) -> None:
    """Item 9: rows are bound to the registration they were made for: never sent to another URL nor
    signed with another registration's secret. The new registration gets what the present calls for."""
    old_hook, new_hook = Listener().start(), Listener().start()
    try:
        created = _made(driven, webhook=old_hook.url)
        game_id, old_secret = created["game_id"], created["seats"][0]["webhook_secret"]
        seat = bearer(created["seats"][0]["token"])
        runtime = runtime_of(driven)
        claimed = runtime.tables.claim(runtime.clock(), runtime.clock() + timedelta(minutes=2))
        assert [d.kind for d in claimed] == ["your-turn"]  # in a worker's hands when the seat re-registers
        replaced = driven.put(f"/games/{game_id}/webhook", headers=seat, json={"url": new_hook.url})
        assert replaced.status_code == 200, replaced.text
        new_secret = replaced.json()["secret"]
        driven.portal.call(runtime.notifier.attempt, claimed[0])  # type: ignore[union-attr]
        assert old_hook.calls == [] and new_hook.calls == []  # the claimed row was the old one's
        _deliver(driven)
        [call] = new_hook.calls
        assert call.json["event"] == "your-turn" and _verify(new_secret, call)
        with pytest.raises(WebhookVerificationError):
            _verify(old_secret, call)
        assert old_hook.calls == []
    finally:
        old_hook.stop()
        new_hook.stop()


@pytest.mark.parametrize("to", ["person", "bot"])
def test_ASYNC_3_after_a_hand_over_the_old_webhook_gets_nothing(driven: TestClient, to: str) -> None:
    """Item 9: the seat's webhook was its previous holder's: the hand-over removes it with what was
    pending for it, and the new holder registers their own."""
    old_hook, new_hook = Listener().start(), Listener().start()
    try:
        created = _made(driven, webhook=old_hook.url)  # Ada's turn: a your-turn is pending for her
        game_id = created["game_id"]
        handed = driven.post(
            f"/games/{game_id}/host/seats/0/handover",
            headers=bearer(created["host_token"]),
            json={"command_id": "h", "to": to},
        )
        assert handed.status_code == 200, handed.text
        assert runtime_of(driven).tables.hooks(game_id) == {}
        if to == "person":
            token = handed.json()["link"]["token"]
            registered = driven.put(
                f"/games/{game_id}/webhook", headers=bearer(token), json={"url": new_hook.url}
            )
            assert registered.status_code == 200, registered.text
        else:
            client_bots = runtime_of(driven).bots
            driven.portal.call(client_bots.idle)  # type: ignore[union-attr]
        _cancel(driven, created)
        _deliver(driven)
        assert old_hook.calls == []
        if to == "person":
            assert sorted(c.json["event"] for c in new_hook.calls) == ["game-cancelled", "your-turn"]
            assert all(_verify(registered.json()["secret"], c) for c in new_hook.calls)
    finally:
        old_hook.stop()
        new_hook.stop()


OLD_HOOKS = """CREATE TABLE galileo_hooks (game_id TEXT NOT NULL, seat INTEGER NOT NULL, url TEXT NOT NULL,
    secret TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (game_id, seat))"""
OLD_OUTBOX = """CREATE TABLE galileo_outbox (id TEXT PRIMARY KEY, game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL, version INTEGER NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,
    attempts INTEGER NOT NULL, next_at TEXT NOT NULL, locked_until TEXT, last_code INTEGER, last_error TEXT,
    created_at TEXT NOT NULL, delivered_at TEXT, UNIQUE (game_id, seat, kind, version))"""


def test_tables_of_an_older_release_gain_the_new_columns_and_hide_their_raw_errors(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute(OLD_HOOKS)
        db.execute(OLD_OUTBOX)
        db.execute("INSERT INTO galileo_hooks VALUES ('g', 0, 'https://example.org/h', 'whsec_x', 't')")
        db.execute(
            "INSERT INTO galileo_outbox VALUES ('d', 'g', 0, 'your-turn', 3, 'https://example.org/h', '{}', "
            "'pending', 1, 't', NULL, NULL, 'ConnectError: [Errno 111] Connection refused', 't', NULL)"
        )
    tables = TableStore(f"sqlite:///{path}", KEYRING)
    try:
        [hook] = tables.hooks("g").values()
        [row] = tables.log("g")
        assert hook.hook_id is None and row.hook_id is None  # bound to each other (sent as before)
        assert row.to_json()["result"] == "no-response" and "Errno" not in str(row.to_json())
        TableStore(f"sqlite:///{path}", KEYRING).close()  # a second start adds nothing twice
    finally:
        tables.close()


def test_a_redirect_is_not_followed(driven: TestClient) -> None:
    target = Listener().start()
    redirecting = Listener(statuses=[307], location=target.url).start()
    try:
        created = _made(driven, webhook=redirecting.url)
        _deliver(driven)
        assert len(redirecting.calls) == 1 and target.calls == []
        assert _host_log(driven, created)[0]["result"] == "3xx"
    finally:
        redirecting.stop()
        target.stop()
