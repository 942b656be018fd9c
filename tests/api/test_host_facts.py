"""The host's powers are facts (issue 26, docs/async.md ASYNC-9): a re-issued link and a hand-over are
events of the game's log, on the table and in the history, told to the seat they concern; the old token
is refused at once with a problem that says why; an open take-back request is closed by a resignation or
a hand-over (ASYNC-6); failed tokens are throttled per client."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Rate
from api.settings import Settings
from replays.service import verify_file
from tests.api.async_helpers import Listener, bearer
from tests.api.helpers import parse_sse, wait_until

CHARACTERS = ["galileo", "kepler", "copernicus", "bruno"]


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener().start()
    yield found
    found.stop()


@pytest.fixture
def app_settings(settings: Settings) -> Settings:
    # The webhook worker runs (it delivers to the local listener); the clocks have nothing to do.
    return replace(settings, webhook_allow_networks=("127.0.0.1/32",), webhook_poll_seconds=0.05)


@pytest.fixture
def client(app_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def create(client: TestClient, n: int, hooks: dict[int, str] | None = None) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"name": f"P{i}", "character": CHARACTERS[i]} for i in range(n)]
    for seat, url in (hooks or {}).items():
        seats[seat]["webhook"] = url
    response = client.post("/games", json={"seats": seats, "first_seat": 0})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def post(client: TestClient, game_id: str, path: str, token: str, **body: Any) -> Any:
    body.setdefault("command_id", uuid.uuid4().hex)
    return client.post(f"/games/{game_id}/{path}", headers=bearer(token), json=body)


def log(client: TestClient, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
    headers = bearer(token) if token else {}
    found: list[dict[str, Any]] = client.get(f"/games/{game_id}/events", headers=headers).json()["events"]
    return found


def play_first_move(client: TestClient, game_id: str, token: str) -> None:
    listing = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()
    move = next(m for m in listing["moves"] if m["text"].startswith("@0 move"))
    answer = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(token),
        json={"command": move, "expected_version": listing["version"], "command_id": uuid.uuid4().hex},
    )
    assert answer.status_code == 200, answer.text


def test_ASYNC_9_a_reissued_link_is_in_the_log_on_the_table_told_to_the_seat_and_refused_with_a_reason(
    client: TestClient, listener: Listener
) -> None:
    created = create(client, 2, hooks={1: listener.url})
    game_id, host = created["game_id"], created["host_token"]
    ben = created["seats"][1]["token"]
    assert client.get(f"/games/{game_id}/moves", headers=bearer(ben)).status_code == 200

    answer = client.post(f"/games/{game_id}/host/seats/1/link", headers=bearer(host))
    assert answer.status_code == 200, answer.text
    new = answer.json()["token"]

    # The log: the re-issue is an event of a host's table batch, with the seat and the rule, no token.
    events = log(client, game_id)
    last = events[-1]
    assert (last["type"], last["actor"], last["event"]) == (
        "SeatLinkReissued",
        "host",
        {"type": "SeatLinkReissued", "seat": 1, "rule": "ASYNC-9"},
    )
    assert last["text"] == "The host re-issued the seat's link: its old link no longer opens it"
    assert "gg_" not in client.get(f"/games/{game_id}/events").text
    # The table: the host's acts, for anyone.
    table = client.get(f"/games/{game_id}/table").json()
    assert [(a["type"], a["seat"], a["version"]) for a in table["host_actions"]] == [
        ("SeatLinkReissued", 1, last["version"])
    ]
    # The old token: a clear 401 that names the re-issue (nothing the log does not show).
    refused = client.get(f"/games/{game_id}/moves", headers=bearer(ben))
    assert refused.status_code == 401
    problem = refused.json()
    assert problem["code"] == "link-reissued" and problem["rule_id"] == "ASYNC-9"
    assert problem["version"] == last["version"] and "re-issued" in problem["detail"]
    assert new not in refused.text and "gg_" not in refused.text
    assert client.get(f"/games/{game_id}/moves", headers=bearer(new)).json()["seat"] == 1
    # The seat is told: its webhook gets `seat-link-reissued` (the delivery log shows it to the host too).
    call = wait_until(
        lambda: next((c for c in listener.calls if c.json["event"] == "seat-link-reissued"), None),
        10,
        "the seat's notification",
    )
    assert call.json["seat"] == 1 and call.json["happened"] == ["SeatLinkReissued"]
    assert "gg_" not in call.body.decode()
    kinds = {
        (d["seat"], d["kind"])
        for d in client.get(f"/games/{game_id}/notifications", headers=bearer(host)).json()["deliveries"]
    }
    assert (1, "seat-link-reissued") in kinds
    # Verification, export and import carry the new event.
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True
    exported = client.get(f"/games/{game_id}/export")
    assert exported.status_code == 200
    assert "SeatLinkReissued" in exported.text and verify_file(exported.content).findings == ()
    at = client.get(f"/games/{game_id}/at/{last['version']}")
    assert at.status_code == 200
    forked = client.post(f"/games/{game_id}/fork", json={"at_version": last["version"]})
    assert forked.status_code == 201, forked.text
    assert client.get(f"/games/{forked.json()['game_id']}/verify").json()["ok"] is True


def test_ASYNC_9_the_old_token_is_refused_everywhere_it_was_used(client: TestClient) -> None:
    created = create(client, 2)
    game_id, host = created["game_id"], created["host_token"]
    ada = created["seats"][0]["token"]
    assert client.post(f"/games/{game_id}/host/seats/0/link", headers=bearer(host)).status_code == 200
    version = client.get(f"/games/{game_id}").json()["version"]
    for method, path, body in [
        ("GET", f"/games/{game_id}", None),
        ("GET", f"/games/{game_id}/table", None),
        ("POST", f"/games/{game_id}/resign", {"command_id": "r"}),
        (
            "POST",
            f"/games/{game_id}/commands",
            {"command": {"text": "@0 move 1"}, "expected_version": version, "command_id": "c"},
        ),
        ("GET", "/turns", None),
    ]:
        answer = client.request(method, path, headers=bearer(ada), json=body)
        assert answer.status_code == 401, (method, path, answer.text)
        assert answer.json()["code"] == "link-reissued", (method, path)
    assert client.get(f"/games/{game_id}").json()["version"] == version  # nothing was written


def test_ASYNC_9_a_stream_opened_with_the_old_token_ends_at_the_reissue(client: TestClient) -> None:
    created = create(client, 2)
    game_id, host = created["game_id"], created["host_token"]
    ben = created["seats"][1]["token"]
    version = created["version"]
    with client.stream("GET", f"/games/{game_id}/stream?after={version}", headers=bearer(ben)) as response:
        assert response.status_code == 200
        assert client.post(f"/games/{game_id}/host/seats/1/link", headers=bearer(host)).status_code == 200
        lines = response.iter_lines()
        message = parse_sse(lines, count=1)[0]
        assert message["data"]["type"] == "SeatLinkReissued"
        rest = list(lines)  # the stream ends: nothing more reaches the old token
    assert "event: revoked" in rest


def test_ASYNC_3_a_host_hand_over_is_a_fact_revokes_the_token_and_ends_the_old_webhook(
    client: TestClient, listener: Listener
) -> None:
    created = create(client, 2, hooks={1: listener.url})
    game_id, host = created["game_id"], created["host_token"]
    ben = created["seats"][1]["token"]
    handed = post(client, game_id, "host/seats/1/handover", host, to="person")
    assert handed.status_code == 200, handed.text
    refused = client.get(f"/games/{game_id}/moves", headers=bearer(ben))
    assert refused.status_code == 401 and refused.json()["code"] == "seat-handed-over"
    assert refused.json()["rule_id"] == "ASYNC-3"
    new = handed.json()["link"]["token"]
    assert client.get(f"/games/{game_id}/moves", headers=bearer(new)).json()["seat"] == 1
    acts = client.get(f"/games/{game_id}/table").json()["host_actions"]
    assert [(a["type"], a["seat"]) for a in acts] == [("SeatHandedOver", 1)]
    # The webhook was the previous holder's: it is removed with the hand-over (ASYNC-3), so nothing of
    # the seat's new holder (not even the notice of the hand-over itself) reaches its URL.
    time.sleep(0.5)  # ten polls of the delivery worker (webhook_poll_seconds=0.05)
    assert [c.json["event"] for c in listener.calls if c.json.get("seat") == 1] == []


def test_ASYNC_9_a_replayed_hand_over_writes_and_revokes_nothing_more(client: TestClient) -> None:
    created = create(client, 2)
    game_id, host = created["game_id"], created["host_token"]
    first = post(client, game_id, "host/seats/1/handover", host, to="person", command_id="h1")
    again = post(client, game_id, "host/seats/1/handover", host, to="person", command_id="h1")
    assert again.status_code == 200 and again.json()["replayed"] is True and again.json()["link"] is None
    token = first.json()["link"]["token"]
    assert client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()["seat"] == 1


# -- an open take-back request and a resignation or hand-over (ASYNC-6) -----------------------------------


@pytest.mark.parametrize("how", ["resign", "handover"])
def test_ASYNC_6_a_resignation_or_hand_over_closes_the_open_take_back_request(
    client: TestClient, how: str
) -> None:
    created = create(client, 3)
    game_id, host = created["game_id"], created["host_token"]
    a, _, c = (s["token"] for s in created["seats"])
    play_first_move(client, game_id, a)
    asked = post(client, game_id, "takeback", a)
    assert [e["type"] for e in asked.json()["events"]] == ["TakeBackRequested"]
    if how == "resign":
        closed = post(client, game_id, "resign", c)
        expected = ["SeatResigned", "SeatHandedOver", "TakeBackClosed"]
        reason = "resigned"
    else:
        closed = post(client, game_id, "host/seats/2/handover", host, to="bot")
        expected = ["SeatHandedOver", "TakeBackClosed"]
        reason = "host"
    assert closed.status_code == 200, closed.text
    assert [e["type"] for e in closed.json()["events"]] == expected
    fact = closed.json()["events"][-1]["event"]
    assert fact == {**fact, "seat": 0, "by_seat": 2, "reason": reason, "rule": "ASYNC-6"}
    assert client.get(f"/games/{game_id}/table").json()["takeback"] is None
    # Nothing is left open: no answer is awaited, and a new request is judged on its own (here the
    # hand-over since is past the information horizon, ASYNC-7), not refused as `take-back-pending`.
    b = created["seats"][1]["token"]
    assert post(client, game_id, "takeback/answer", b, accept=True).json()["code"] == "no-take-back-request"
    again = post(client, game_id, "takeback", a)
    assert again.status_code == 409 and again.json()["code"] == "past-the-horizon"
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True


# -- failed tokens are throttled per client ----------------------------------------------------------------


@pytest.fixture
def throttled(settings: Settings) -> Iterator[TestClient]:
    config = replace(
        settings, rates={**settings.rates, "bad_token": Rate(6, 3)}, trust_forwarded_for=True, clocks=False
    )
    with TestClient(create_app(config)) as test_client:
        yield test_client


def test_failed_tokens_are_throttled_per_client(throttled: TestClient) -> None:
    client = throttled
    created = create(client, 2)
    game_id, good = created["game_id"], created["seats"][0]["token"]
    me, other = {"X-Forwarded-For": "198.51.100.7"}, {"X-Forwarded-For": "198.51.100.8"}
    guesses = ["gg_" + "A" * 43, "not-a-token", "gg_" + "B" * 43]
    for guess in guesses:  # the burst: each is a plain 401
        answer = client.get(f"/games/{game_id}/moves", headers={**me, **bearer(guess)})
        assert answer.status_code == 401, answer.text
    for path in (f"/games/{game_id}/moves", f"/games/{game_id}/table", "/turns"):
        # Past it, every token from this client is refused, the right one too, until the bucket refills.
        answer = client.get(path, headers={**me, **bearer(good)})
        assert answer.status_code == 429, (path, answer.text)
        assert answer.json()["code"] == "too-many-failed-tokens"
        assert int(answer.headers["Retry-After"]) >= 1 and answer.json()["retry_after"] >= 1
    # Another client is not held back, and a spectator (no token) is not either.
    assert client.get(f"/games/{game_id}/moves", headers={**other, **bearer(good)}).status_code == 200
    assert client.get(f"/games/{game_id}", headers=me).status_code == 200
