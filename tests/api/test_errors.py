"""Errors are application/problem+json with a stable code; bad input gets 4xx, never 500; nothing is
written on any error."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from api.settings import Settings
from tests.api.helpers import NDJSON, Table, create
from tests.conftest import TEST_ENCRYPTION_KEY

PROBLEM = "application/problem+json"


def _turn(client: TestClient, table: Table) -> tuple[int, dict]:
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    return seat, client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()


def _problem(response, status: int, code: str) -> dict:  # type: ignore[no-untyped-def]
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code and body["status"] == status and body["type"].endswith(code)
    assert body["title"] and "detail" in body
    return body


def test_illegal_move_is_422_with_rule_id_and_writes_nothing(client: TestClient) -> None:
    table = create(client, 2, seed="illegal")
    seat, listing = _turn(client, table)
    bad = {"type": "Move", "seat": seat, "steps": 5}
    response = client.post(
        f"/games/{table.game_id}/commands",
        headers=table.auth(seat),
        json={"command": bad, "expected_version": listing["version"], "command_id": "x"},
    )
    body = _problem(response, 422, "illegal-move")
    assert body["rule_id"] == "MOV-1" and body["reason"] == "bad-steps"
    assert client.get(f"/games/{table.game_id}").json()["version"] == listing["version"]


def test_stale_version_is_409_with_current_version(client: TestClient) -> None:
    table = create(client, 2, seed="stale")
    seat, listing = _turn(client, table)
    post = {"command": listing["moves"][0], "expected_version": listing["version"], "command_id": "a"}
    assert (
        client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=post).status_code
        == 200
    )
    head = client.get(f"/games/{table.game_id}").json()["version"]
    again = dict(post, command_id="b")
    body = _problem(
        client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=again),
        409,
        "version-conflict",
    )
    assert body["current_version"] == head
    assert client.get(f"/games/{table.game_id}").json()["version"] == head


def test_retry_with_the_same_command_id_returns_the_first_result(client: TestClient) -> None:
    table = create(client, 2, seed="retry")
    seat, listing = _turn(client, table)
    post = {"command": listing["moves"][0], "expected_version": listing["version"], "command_id": "once"}
    first = client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=post)
    second = client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=post)
    assert first.status_code == second.status_code == 200
    assert second.json()["replayed"] is True
    assert second.json()["events"] == first.json()["events"]
    assert client.get(f"/games/{table.game_id}").json()["version"] == first.json()["version"]
    other = dict(post, command=listing["moves"][1])
    _problem(
        client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=other),
        409,
        "command-id-reused",
    )


def test_malformed_unknown_oversized_and_unknown_game(client: TestClient, settings: Settings) -> None:
    table = create(client, 2, seed="bad-input")
    seat, listing = _turn(client, table)
    url = f"/games/{table.game_id}/commands"
    headers = {**table.auth(seat), "content-type": "application/json"}
    _problem(client.post(url, headers=headers, content=b"{not json"), 400, "malformed-json")
    body = {"command": listing["moves"][0], "expected_version": listing["version"], "command_id": "u"}
    _problem(client.post(url, headers=table.auth(seat), json={**body, "extra": 1}), 422, "invalid-request")
    _problem(
        client.post(url, headers=table.auth(seat), json={**body, "command": {"type": "Fly", "seat": seat}}),
        422,
        "malformed-command",
    )
    _problem(
        client.post(url, headers=table.auth(seat), json={**body, "command": {**body["command"], "x": 1}}),
        422,
        "malformed-command",
    )
    _problem(
        client.post(url, headers=table.auth(seat), json={**body, "expected_version": "seven"}),
        422,
        "invalid-request",
    )
    _problem(client.post(url, headers=table.auth(seat), json=[1, 2]), 422, "invalid-request")
    huge = b'{"command": {"text": "' + b"x" * (settings.max_body_bytes + 10) + b'"}}'
    _problem(client.post(url, headers=headers, content=huge), 413, "body-too-large")
    _problem(client.post("/games", json={"seats": [{"name": "A"}] * 5}), 422, "invalid-request")
    _problem(
        client.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}], "options": {"x": 1}}),
        422,
        "invalid-options",
    )
    # No seat: the schema says so (seats: 1 to 4; one seat is the solo game, SOLO-27).
    body422 = _problem(client.post("/games", json={"seats": []}), 422, "invalid-request")
    assert body422["errors"][0]["loc"] == ["body", "seats"]
    missing = str(uuid.uuid4())
    for path in ("", "/events", "/export", "/verify", "/at/1", "/stream"):
        _problem(client.get(f"/games/{missing}{path}"), 404, "game-not-found")
    _problem(client.get("/games/not-a-uuid"), 404, "game-not-found")
    _problem(client.get(f"/games/{table.game_id}/at/99999"), 404, "version-out-of-range")
    _problem(client.get("/nowhere"), 404, "not-found")
    _problem(client.delete("/games"), 405, "method-not-allowed")
    _problem(client.post(f"/games/{table.game_id}/fork", json={"at_version": 99999}), 422, "fork-refused")
    _problem(client.post("/games/import", content=b"garbage\n", headers=NDJSON), 422, "import-rejected")
    _problem(
        client.get(f"/games/{table.game_id}/stream", headers={"Last-Event-ID": "x"}), 422, "invalid-request"
    )
    _problem(client.get(f"/games/{table.game_id}/at/0"), 422, "invalid-request")  # versions start at 1
    assert client.delete("/games").headers["allow"] == "GET, POST"  # every method of the path
    assert client.get(f"/games/{table.game_id}").json()["version"] == listing["version"]


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GALILEO_DATABASE_URL", "sqlite:///x.db")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("GALILEO_STREAM_POLL_SECONDS", "0.5")
    monkeypatch.delenv("GALILEO_REDIS_TIMEOUT_SECONDS", raising=False)
    settings = Settings.from_env()
    assert settings.database_url == "sqlite:///x.db" and settings.redis_url == "redis://127.0.0.1:1/0"
    assert settings.stream_poll_seconds == 0.5
    assert settings.redis_timeout_seconds == Settings().redis_timeout_seconds
    assert isinstance(settings.max_body_bytes, int)
    monkeypatch.delenv("GALILEO_DATABASE_URL")
    monkeypatch.delenv("REDIS_URL")
    monkeypatch.delenv("GALILEO_STREAM_POLL_SECONDS")
    assert Settings.from_env().encryption_keys == (TEST_ENCRYPTION_KEY,)  # tests/conftest.py sets it
    monkeypatch.delenv("GALILEO_ENCRYPTION_KEYS")
    assert Settings.from_env() == Settings()
