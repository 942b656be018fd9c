"""Seat tokens: the auth matrix of every route, tokens never shown again nor logged nor stored in clear.

Callers: the seat to act ("correct"), another seat of the same game ("other"), a spectator holding a valid
seat token of another game ("spectator"), a well-formed token nobody was given ("forged"), and nobody.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from fastapi.testclient import TestClient

from api.settings import Settings
from api.tokens import TokenFilter
from tests.api.conftest import LiveServer
from tests.api.helpers import create, wait_until

CALLERS = ("correct", "other", "spectator", "forged", "none")

# route -> status per caller (in CALLERS order)
MATRIX: dict[str, tuple[int, ...]] = {
    "view": (200, 200, 403, 401, 200),
    "moves": (200, 200, 403, 401, 401),
    "command": (200, 403, 403, 401, 401),
    "events": (200, 200, 403, 401, 200),
    "stream": (200, 200, 403, 401, 200),
    "at": (200, 200, 403, 401, 200),
    "fork": (201, 201, 403, 401, 201),
    "export": (200, 200, 403, 401, 200),
    "verify": (200, 200, 403, 401, 200),
    "lobby-mine": (200, 200, 200, 401, 401),
}


class Callers:
    def __init__(self, client: TestClient) -> None:
        self.table = create(client, 2, seed="auth")
        self.elsewhere = create(client, 2, seed="auth-elsewhere")
        listing = client.get(f"/games/{self.table.game_id}/moves", headers=self.table.auth(0)).json()
        self.to_act: int = listing["to_act"]
        self.other = 1 - self.to_act
        self.headers: dict[str, dict[str, str]] = {
            "correct": self.table.auth(self.to_act),
            "other": self.table.auth(self.other),
            "spectator": self.elsewhere.auth(0),
            "forged": {"Authorization": "Bearer gg_" + secrets.token_urlsafe(32)},
            "none": {},
        }


def _call(client: TestClient, callers: Callers, route: str, caller: str) -> httpx.Response:
    game = callers.table.game_id
    headers = callers.headers[caller]
    if route == "view":
        return client.get(f"/games/{game}", headers=headers)
    if route == "moves":
        return client.get(f"/games/{game}/moves", headers=headers)
    if route == "command":
        listing = client.get(f"/games/{game}/moves", headers=callers.headers["correct"]).json()
        body = {"command": listing["moves"][0], "expected_version": listing["version"], "command_id": caller}
        return client.post(f"/games/{game}/commands", headers=headers, json=body)
    if route == "events":
        return client.get(f"/games/{game}/events", headers=headers)
    if route == "stream":
        with client.stream("GET", f"/games/{game}/stream?after=0", headers=headers) as response:
            first = next(response.iter_lines()) if response.status_code == 200 else response.read()
            assert first is not None
            return response
    if route == "at":
        return client.get(f"/games/{game}/at/1", headers=headers)
    if route == "fork":
        return client.post(f"/games/{game}/fork", headers=headers, json={"at_version": 1})
    if route == "export":
        return client.get(f"/games/{game}/export", headers=headers)
    if route == "verify":
        return client.get(f"/games/{game}/verify", headers=headers)
    if route == "lobby-mine":
        return client.get("/games", params={"mine": "true"}, headers=headers)
    raise AssertionError(route)


def test_auth_matrix_and_tokens_never_shown_again(lobby_client: TestClient) -> None:
    client = lobby_client
    callers = Callers(client)
    tokens = [t for t in callers.table.tokens + callers.elsewhere.tokens if t]
    seen: list[str] = []
    for route, expected in MATRIX.items():
        for caller, status in zip(CALLERS, expected, strict=True):
            response = _call(client, callers, route, caller)
            assert response.status_code == status, (route, caller, response.text)
            if status == 401:
                assert response.headers["www-authenticate"].startswith("Bearer")
                assert response.json()["code"] in ("invalid-token", "token-required")
            if route != "stream" or status != 200:
                seen.append(response.text)
            seen.append(str(response.headers))
    # what an allowed caller gets is their own: moves only for the seat to act, a lobby of one game
    game = callers.table.game_id
    assert client.get(f"/games/{game}/moves", headers=callers.headers["other"]).json()["moves"] == []
    assert (
        client.get(f"/games/{game}", headers=callers.headers["other"]).json()["viewer"]["seat"]
        == callers.other
    )
    mine = wait_until(
        lambda: client.get("/games", params={"mine": "true"}, headers=callers.headers["spectator"]).json()[
            "games"
        ],
        10,
        "the lobby",
    )
    assert [g["game_id"] for g in mine] == [callers.elsewhere.game_id]
    assert len(client.get("/games").json()["games"]) >= 2
    # a fork's answer issues tokens for the new game only
    for body in seen:
        for token in tokens:
            assert token not in body


def test_a_command_for_another_seat_or_out_of_turn_is_403(client: TestClient) -> None:
    callers = Callers(client)
    game = callers.table.game_id
    listing = client.get(f"/games/{game}/moves", headers=callers.headers["correct"]).json()
    own = dict(
        listing["moves"][0],
        seat=callers.other,
        text=listing["moves"][0]["text"].replace(f"@{callers.to_act}", f"@{callers.other}"),
    )
    body = {"command": own, "expected_version": listing["version"], "command_id": "z"}
    response = client.post(f"/games/{game}/commands", headers=callers.headers["other"], json=body)
    assert response.status_code == 403 and response.json()["code"] == "not-your-turn"
    assert response.json()["rule_id"] == "TURN-1"
    body["command"] = listing["moves"][0]
    response = client.post(f"/games/{game}/commands", headers=callers.headers["other"], json=body)
    assert response.status_code == 403 and response.json()["code"] == "wrong-seat"
    bad_scheme = client.get(f"/games/{game}/moves", headers={"Authorization": "Basic abc"})
    assert bad_scheme.status_code == 401


def test_tokens_are_stored_only_hashed(client: TestClient, settings: Settings) -> None:
    table = create(client, 3, seed="hashed", bots={2: "random"})
    data = Path(settings.database_url.removeprefix("sqlite:///")).read_bytes()
    for path in Path(settings.database_url.removeprefix("sqlite:///")).parent.iterdir():
        data += path.read_bytes()
    for token in table.tokens:
        if token:
            assert token.encode() not in data
            assert token.removeprefix("gg_").encode() not in data


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_tokens_never_reach_the_logs(settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    collect = Collect()
    access = logging.getLogger("uvicorn.access")
    try:
        with LiveServer(settings, log_level="info") as server, httpx.Client(base_url=server.url) as http:
            access.addHandler(collect)  # after uvicorn configured its loggers
            logging.getLogger().addHandler(collect)
            seats = [{"name": "A"}, {"name": "B"}]
            created = http.post("/games", json={"seats": seats, "seed": "logs"}).json()
            game = created["game_id"]
            tokens = [s["token"] for s in created["seats"]]
            for token in tokens:
                http.get(f"/games/{game}/moves", headers={"Authorization": f"Bearer {token}"})
                http.get(f"/games/{game}/events?access_token={token}")  # a token in a URL is logged...
                with http.stream("GET", f"/games/{game}/stream?access_token={token}&after=1") as response:
                    assert response.status_code == 200
                # ...as the client spelled it: percent-encoded in part or in whole, any parameter name.
                for spelled in _encodings(token):
                    with http.stream(
                        "GET", f"/games/{game}/stream?access_token={spelled}&after=1"
                    ) as response:
                        assert response.status_code == 200  # the stream accepts it (EventSource)
                    http.get(f"/games/{game}?ACCESS%5FTOKEN={spelled}&t={spelled}")
                http.get("/games", headers={"Authorization": f"Bearer {token}x"})
            logging.getLogger("api").warning("a client sent %s", tokens[0])  # ...and scrubbed
    finally:
        access.removeHandler(collect)
        logging.getLogger().removeHandler(collect)
    text = "\n".join(collect.lines + [r.getMessage() for r in caplog.records])
    assert "GET /games/" in text, "the access log was not captured"
    decoded = unquote(unquote(text))
    for token in tokens:
        assert token not in text and token[3:] not in decoded
        for spelled in _encodings(token):
            assert spelled not in text
    assert "access_token=gg_[redacted]" in text  # the access log line, scrubbed


def _encodings(token: str) -> list[str]:
    """A token as a URL may carry it: its `_` encoded (upper and lower case hex), every character
    encoded, and its secret part mixed."""
    secret = token[3:]
    mixed = "".join(f"%{ord(c):02x}" if i % 3 == 0 else c for i, c in enumerate(secret))
    return [
        "gg%5F" + secret,
        "gg%5f" + secret,
        "".join(f"%{ord(c):02X}" for c in token),
        "%67g_" + mixed,
    ]


def test_token_filter_scrubs_messages_and_arguments() -> None:
    token = "gg_" + secrets.token_urlsafe(32)
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "%s %s", (f"GET /s?access_token={token}", 1), None
    )
    TokenFilter().filter(record)
    assert token not in record.getMessage()
    record = logging.LogRecord("x", logging.INFO, __file__, 1, f"bearer {token}", None, None)
    TokenFilter().filter(record)
    assert token not in record.getMessage()
