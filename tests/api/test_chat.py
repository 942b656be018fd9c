"""Table chat (issue 30, docs/chat.md): channels, limits, deletion, mutes, hiding, and chat kept out of
the game's log, export, forks and verification (CHAT-1..6). The browser test is test_chat_browser.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replays.export import parse
from tests.api.async_helpers import Clock, bearer
from tests.api.helpers import iter_sse, runtime_of
from tests.api.people import Person, person


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    app = create_app(replace(settings, clocks=False, bots=False), clock=clock)
    with TestClient(app) as test_client:
        yield test_client


def new_game(client: TestClient) -> dict[str, Any]:
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    created = client.post("/games", json={"seats": seats, "first_seat": 0})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body


def token(game: dict[str, Any], seat: int) -> str:
    return str(game["seats"][seat]["token"])


def say(client: TestClient, game_id: str, text: str, headers: dict[str, str]) -> Any:
    return client.post(f"/games/{game_id}/chat", json={"text": text}, headers=headers)


def watcher(client: TestClient, name: str = "Cleo") -> Person:
    return person(runtime_of(client), name)


def test_CHAT_1_seats_write_the_seats_channel_and_spectators_theirs(client: TestClient) -> None:
    game = new_game(client)
    gid = game["game_id"]
    ada = say(client, gid, "good luck!", bearer(token(game, 0)))
    assert ada.status_code == 201, ada.text
    assert ada.json()["channel"] == "seats" and ada.json()["author"] == "Ada" and ada.json()["seat"] == 0
    cleo = watcher(client)
    seen = say(client, gid, "nice opening", cleo.headers())
    assert seen.status_code == 201, seen.text
    assert seen.json()["channel"] == "spectators" and seen.json()["seat"] is None
    assert "account_id" not in seen.json()
    listed = client.get(f"/games/{gid}/chat").json()["messages"]
    assert [(m["channel"], m["text"]) for m in listed] == [
        ("seats", "good luck!"),
        ("spectators", "nice opening"),
    ]
    # a spectator must be signed in; the session's writes need the CSRF token (ACCT-3)
    anonymous = say(client, gid, "hi", {})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "sign-in-required"
    no_csrf = say(client, gid, "hi", {"Cookie": cleo.headers()["Cookie"]})
    assert no_csrf.status_code == 403 and no_csrf.json()["code"] == "csrf-token-required"
    # a seat token of another game is refused
    other = new_game(client)
    wrong = say(client, gid, "hi", bearer(token(other, 0)))
    assert wrong.status_code == 403 and wrong.json()["code"] == "not-a-seat-of-this-game"
    missing = say(client, "00000000-0000-0000-0000-000000000000", "hi", bearer(token(game, 0)))
    assert missing.status_code in (403, 404)
    assert len(client.get(f"/games/{gid}/chat").json()["messages"]) == 2  # nothing refused was stored


def test_CHAT_1_chat_is_never_in_the_log_the_export_a_fork_or_the_verification(client: TestClient) -> None:
    game = new_game(client)
    gid = game["game_id"]
    before = client.get(f"/games/{gid}/export").content
    assert say(client, gid, "secret plan: observe Jupiter", bearer(token(game, 0))).status_code == 201
    events = client.get(f"/games/{gid}/events").json()["events"]
    assert all("Jupiter" not in str(e) for e in events)
    plain = client.get(f"/games/{gid}/export").content
    assert plain == before and b"Jupiter" not in plain
    with_chat = client.get(f"/games/{gid}/export?chat=1").content
    assert with_chat.startswith(plain) and b"secret plan" in with_chat
    assert client.get(f"/games/{gid}/verify").json()["ok"] is True
    fork = client.post(f"/games/{gid}/fork", json={"at_version": 1})
    assert fork.status_code == 201, fork.text
    assert client.get(f"/games/{fork.json()['game_id']}/chat").json()["messages"] == []
    # the importer reads a file with chat lines as the same log, and skips them (CHAT-1)
    assert parse(with_chat) == parse(plain)


def test_CHAT_2_too_long_and_too_fast_are_refused_and_write_nothing(client: TestClient, clock: Clock) -> None:
    game = new_game(client)
    gid = game["game_id"]
    long = say(client, gid, "x" * 501, bearer(token(game, 0)))
    assert long.status_code == 422 and long.json()["code"] == "chat-too-long"
    assert long.json()["rule_id"] == "CHAT-2"
    for i in range(5):
        assert say(client, gid, f"m{i}", bearer(token(game, 0))).status_code == 201
    fast = say(client, gid, "one more", bearer(token(game, 0)))
    assert fast.status_code == 429 and fast.json()["code"] == "chat-too-fast"
    assert int(fast.headers["Retry-After"]) >= 1
    assert say(client, gid, "Ben may", bearer(token(game, 1))).status_code == 201  # per writer
    clock.advance(seconds=11)
    assert say(client, gid, "later", bearer(token(game, 0))).status_code == 201
    texts = [m["text"] for m in client.get(f"/games/{gid}/chat").json()["messages"]]
    assert "one more" not in texts and "x" * 501 not in texts and len(texts) == 7


def test_CHAT_3_only_the_writer_deletes_and_a_tombstone_follows(client: TestClient) -> None:
    game = new_game(client)
    gid = game["game_id"]
    first = say(client, gid, "oops", bearer(token(game, 0))).json()
    other = client.delete(f"/games/{gid}/chat/{first['message_id']}", headers=bearer(token(game, 1)))
    assert other.status_code == 403 and other.json()["code"] == "chat-not-yours"
    gone = client.delete(f"/games/{gid}/chat/{first['message_id']}", headers=bearer(token(game, 0)))
    assert gone.status_code == 200 and gone.json()["deleted"] is True and gone.json()["text"] == ""
    assert gone.json()["seq"] > first["seq"]
    after = client.get(f"/games/{gid}/chat?after={first['seq']}").json()["messages"]
    assert [m["deleted"] for m in after] == [True]


def test_CHAT_4_a_seat_or_the_host_mutes_a_spectator(client: TestClient) -> None:
    game = new_game(client)
    gid = game["game_id"]
    cleo = watcher(client)
    said = say(client, gid, "first", cleo.headers()).json()
    muted = client.post(
        f"/games/{gid}/chat/mutes", json={"message_id": said["message_id"]}, headers=bearer(token(game, 1))
    )
    assert muted.status_code == 200, muted.text
    refused = say(client, gid, "second", cleo.headers())
    assert refused.status_code == 403 and refused.json()["code"] == "chat-muted"
    assert refused.json()["rule_id"] == "CHAT-4"
    assert client.get(f"/games/{gid}/chat", cookies=cleo.cookies).json()["you"]["muted"] is True
    host = {"Authorization": f"Bearer {game['host_token']}"}
    for who in (host, bearer(token(game, 0))):  # those who may mute see whom they muted (the page's button)
        assert client.get(f"/games/{gid}/chat", headers=who).json()["muted_messages"] == [said["message_id"]]
    assert client.get(f"/games/{gid}/chat", cookies=cleo.cookies).json()["muted_messages"] == []
    unmuted = client.post(
        f"/games/{gid}/chat/mutes", json={"message_id": said["message_id"], "muted": False}, headers=host
    )
    assert unmuted.status_code == 200
    assert say(client, gid, "third", cleo.headers()).status_code == 201
    assert client.get(f"/games/{gid}/chat", headers=host).json()["muted_messages"] == []
    seat_message = say(client, gid, "a seat", bearer(token(game, 0))).json()
    not_spectator = client.post(
        f"/games/{gid}/chat/mutes", json={"message_id": seat_message["message_id"]}, headers=host
    )
    assert not_spectator.status_code == 422 and not_spectator.json()["code"] == "chat-not-a-spectator"
    nobody = client.post(f"/games/{gid}/chat/mutes", json={"message_id": said["message_id"]})
    assert nobody.status_code == 401


def test_CHAT_5_a_seat_hides_another_for_itself_only(client: TestClient) -> None:
    game = new_game(client)
    gid = game["game_id"]
    say(client, gid, "from Ada", bearer(token(game, 0)))
    hidden = client.put(f"/games/{gid}/chat/hidden", json={"seat": 0}, headers=bearer(token(game, 1)))
    assert hidden.status_code == 200 and hidden.json()["hidden"] == [0]
    assert client.get(f"/games/{gid}/chat", headers=bearer(token(game, 1))).json()["messages"] == []
    assert len(client.get(f"/games/{gid}/chat").json()["messages"]) == 1  # others still see it
    self_hide = client.put(f"/games/{gid}/chat/hidden", json={"seat": 1}, headers=bearer(token(game, 1)))
    assert self_hide.status_code == 422
    client.put(f"/games/{gid}/chat/hidden", json={"seat": 0, "hidden": False}, headers=bearer(token(game, 1)))
    assert len(client.get(f"/games/{gid}/chat", headers=bearer(token(game, 1))).json()["messages"]) == 1


def test_CHAT_6_each_message_records_the_version_it_was_written_at(client: TestClient) -> None:
    game = new_game(client)
    gid = game["game_id"]
    head = client.get(f"/games/{gid}/table").json()["version"]
    said = say(client, gid, "at the start", bearer(token(game, 0))).json()
    assert said["version"] == head


def test_CHAT_1_the_stream_carries_chat_as_its_own_event_type(settings: Settings, live_server: Any) -> None:
    import httpx

    with (
        live_server(replace(settings, clocks=False, bots=False)) as server,
        httpx.Client(base_url=server.url, timeout=10) as http,
    ):
        seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
        game = http.post("/games", json={"seats": seats, "first_seat": 0}).json()
        gid = game["game_id"]
        with http.stream("GET", f"/games/{gid}/stream") as stream:
            said = http.post(f"/games/{gid}/chat", json={"text": "hello"}, headers=bearer(token(game, 0)))
            assert said.status_code == 201
            for message in iter_sse(stream.iter_lines()):
                if message.get("event") == "chat":
                    assert "id" not in message  # chat never moves Last-Event-ID
                    assert message["data"]["text"] == "hello"
                    break


def test_chat_lives_in_its_own_table(client: TestClient, settings: Settings) -> None:
    game = new_game(client)
    say(client, game["game_id"], "stored apart", bearer(token(game, 0)))
    path = settings.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT body FROM galileo_chat").fetchall()
    assert rows == [("stored apart",)]


def test_CHAT_1_a_message_reaches_the_streams_of_another_process_through_redis(
    settings: Settings, live_server: Any, redis_url: str
) -> None:
    import time

    import httpx

    # A long heartbeat: the message must come by the fan-out's nudge, not by a periodic store read.
    shared = replace(settings, clocks=False, bots=False, redis_url=redis_url, stream_heartbeat_seconds=30.0)
    with live_server(shared) as a, live_server(shared) as b, httpx.Client(timeout=10) as http:
        seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
        game = http.post(f"{a.url}/games", json={"seats": seats, "first_seat": 0}).json()
        gid = game["game_id"]
        with http.stream("GET", f"{b.url}/games/{gid}/stream") as stream:
            time.sleep(0.5)  # the stream on b is open and listening
            started = time.monotonic()
            said = http.post(
                f"{a.url}/games/{gid}/chat", json={"text": "via redis"}, headers=bearer(token(game, 0))
            )
            assert said.status_code == 201
            for message in iter_sse(stream.iter_lines()):
                if message.get("event") == "chat":
                    assert message["data"]["text"] == "via redis"
                    break
            assert time.monotonic() - started < 10
