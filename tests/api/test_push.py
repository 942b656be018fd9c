"""Web Push (issue 29, docs/notifications.md): a local push endpoint (an HTTP server on loopback) receives
what the service pushes; the test decrypts it with the subscription's keys (`http_ece`) and checks the
VAPID JWT. Subscriptions are stored sealed; a subscription the push service says is gone is removed; the
VAPID key is generated at the first start and the same for every start after."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from api import messages
from api.app import create_app
from api.crypto import new_key
from api.settings import Settings
from tests.api.async_helpers import Listener, bearer
from tests.api.helpers import hidden_ids, runtime_of, wait_until
from tests.api.pushbox import Device, check_vapid
from tests.api.test_mail import ORIGIN, end_turn, new_game

SUBJECT = "mailto:ops@example.org"


@pytest.fixture
def endpoint() -> Iterator[Listener]:
    listener = Listener().start()
    try:
        yield listener
    finally:
        listener.stop()


@pytest.fixture
def push_settings(settings: Settings) -> Settings:
    return replace(
        settings,
        bots=False,
        public_url=ORIGIN,
        vapid_subject=SUBJECT,
        webhook_allow_networks=("127.0.0.1/32",),  # the local push endpoint (api/egress.py)
        webhook_poll_seconds=0.1,
        webhook_backoff_seconds=0.2,
    )


@pytest.fixture
def client(push_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(push_settings), base_url=ORIGIN) as test_client:
        yield test_client


def test_ACCT_6_a_turn_is_pushed_encrypted_for_the_device_and_signed_with_vapid(
    client: TestClient, endpoint: Listener, push_settings: Settings
) -> None:
    game_id, (ada, ben) = new_game(client)
    device = Device(endpoint.url + "/ben-phone")
    added = client.put(f"/games/{game_id}/push", headers=bearer(ben), json=device.subscription)
    assert added.status_code == 204, added.text
    key = client.get("/push/key").json()["public_key"]
    assert client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()["push_devices"] == 1
    end_turn(client, game_id, ada, random.Random(6))
    wait_until(lambda: endpoint.calls, 10, "the push")
    (call,) = endpoint.calls
    check_vapid(call, key, device.endpoint, SUBJECT)
    assert int(call.headers["ttl"]) == push_settings.push_ttl_seconds
    message = device.open(call)
    assert message["title"] == messages.PUSH_TITLE
    assert message["body"] == messages.PUSH_BODY.format(seat="Ben", game="Ada and Ben")
    assert message["url"] == f"{ORIGIN}/play/{game_id}#seat=1" and message["game_id"] == game_id
    hidden = hidden_ids(runtime_of(client), game_id)
    assert hidden and not [card for card in hidden if card in str(message)]  # nothing hidden
    # The subscription's secret and endpoint are sealed in the database.
    with sqlite3.connect(push_settings.database_url.removeprefix("sqlite:///")) as db:
        dump = "\n".join(db.iterdump())
    assert device.subscription["keys"]["auth"] not in dump and "ben-phone" not in dump
    # Another device of Ben's could not read it: the message is encrypted for this one's keys only.
    other = Device(device.endpoint)
    with pytest.raises(Exception):  # noqa: B017 (http_ece raises a bare Exception or InvalidTag)
        other.open(call)


def test_a_subscription_the_push_service_says_is_gone_is_removed(
    client: TestClient, endpoint: Listener
) -> None:
    endpoint.statuses.append(410)
    game_id, (ada, ben) = new_game(client)
    client.put(f"/games/{game_id}/push", headers=bearer(ben), json=Device(endpoint.url + "/old").subscription)
    end_turn(client, game_id, ada, random.Random(7))
    reach = lambda: client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()  # noqa: E731
    wait_until(lambda: reach()["push_devices"] == 0, 10, "the gone subscription to be removed")
    log = client.get(f"/games/{game_id}/notifications", headers=bearer(ben)).json()["deliveries"]
    assert [(d["kind"], d["result"]) for d in log] == [("push:your-turn", "superseded")]


def test_bad_subscriptions_are_refused_and_nothing_is_stored(client: TestClient) -> None:
    game_id, (_, ben) = new_game(client)
    good = Device("https://push.example.org/x").subscription
    bad = [
        {**good, "endpoint": "ftp://push.example.org/x"},
        {**good, "keys": {**good["keys"], "auth": "c2hvcnQ"}},
        {**good, "keys": {**good["keys"], "p256dh": "AAAA"}},
    ]
    for body in bad:
        refused = client.put(f"/games/{game_id}/push", headers=bearer(ben), json=body)
        assert refused.status_code == 422 and refused.json()["code"] == "invalid-subscription", refused.text
    assert client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()["push_devices"] == 0
    assert client.put(f"/games/{game_id}/push", json=good).status_code == 401  # the seat token is needed


def test_the_vapid_key_is_generated_once_and_kept_sealed(push_settings: Settings) -> None:
    with TestClient(create_app(push_settings), base_url=ORIGIN) as first:
        key = first.get("/push/key").json()["public_key"]
        private = runtime_of(first).reach.service_key("vapid", lambda: "unused", runtime_of(first).clock())
    with TestClient(create_app(push_settings), base_url=ORIGIN) as second:
        assert second.get("/push/key").json()["public_key"] == key  # the same after a restart
    with sqlite3.connect(push_settings.database_url.removeprefix("sqlite:///")) as db:
        assert private not in "\n".join(db.iterdump())
    other_db = push_settings.database_url + "2"
    configured = replace(push_settings, vapid_private_key=private, database_url=other_db)
    with TestClient(create_app(configured), base_url=ORIGIN) as third:
        assert third.get("/push/key").json()["public_key"] == key  # the settings' key, the same key


def test_a_process_with_other_keys_still_starts_and_reads_no_sealed_value(
    push_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(push_settings), base_url=ORIGIN) as first:
        key = first.get("/push/key").json()["public_key"]
        game_id, (_, ben) = new_game(first)
        first.put(
            f"/games/{game_id}/push",
            headers=bearer(ben),
            json=Device("https://push.example.org/b").subscription,
        )
    # Another process on the same database with other encryption keys: it starts, says why in the log, and
    # opens none of the first one's sealed values.
    other = replace(push_settings, encryption_keys=(new_key(),))
    with caplog.at_level("ERROR"), TestClient(create_app(other), base_url=ORIGIN) as second:
        assert second.get("/push/key").json()["public_key"] != key
        assert second.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()["push_devices"] == 0
    assert "GALILEO_ENCRYPTION_KEYS" in caplog.text
