"""POST /commands resolves the caller in one dependency (issue 17, HTTP move) with the checks of
`RuntimeDep` and `RequiredSeat` in their order: the store's outage, then the seat token, then the
request's own validation; a game ID the route refuses is not looked at (422 before any token check)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.api.helpers import create

BAD_BODY = {"command": "not a command", "expected_version": "x"}


def _code(response: object) -> tuple[int, str | None]:
    status = response.status_code  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    return status, body.get("code") if isinstance(body, dict) else None


def test_the_seat_is_checked_before_the_body(client: TestClient) -> None:
    table = create(client, 2, seed="checks-1")
    url = f"/games/{table.game_id}/commands"
    assert _code(client.post(url, json=BAD_BODY))[0] == 401  # no token
    assert _code(client.post(url, json=BAD_BODY, headers={"Authorization": "Bearer gg_nope"})) == (
        401,
        "invalid-token",
    )
    other = create(client, 2, seed="checks-2")
    assert _code(client.post(url, json=BAD_BODY, headers=other.auth(0))) == (403, "not-a-seat-of-this-game")
    assert _code(client.post(url, json=BAD_BODY, headers=table.auth(0)))[0] == 422  # then the body


def test_a_game_id_the_route_refuses_is_422_before_any_token_check(client: TestClient) -> None:
    long_id = "a" * 65
    response = client.post(f"/games/{long_id}/commands", json=BAD_BODY)
    assert response.status_code == 422


def test_the_store_outage_comes_first(client: TestClient) -> None:
    table = create(client, 2, seed="checks-3")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    runtime.health.down_since = time.monotonic()  # marked down, as after a failed store call
    try:
        for headers in ({}, table.auth(0)):
            response = client.post(f"/games/{table.game_id}/commands", json=BAD_BODY, headers=headers)
            assert _code(response) == (503, "store-unavailable")
        assert client.post(f"/games/{'a' * 65}/commands", json=BAD_BODY).status_code == 503
    finally:
        runtime.health.down_since = None
