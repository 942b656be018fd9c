"""The SSE stream: live delivery, and reconnection with Last-Event-ID gets exactly what was missed."""

from __future__ import annotations

import random

import httpx

from api.settings import Settings
from tests.api.conftest import LiveServer
from tests.api.helpers import StreamReader, Table, parse_sse, play_turns


def _versions(messages: list[dict]) -> list[int]:
    return [int(m["id"]) for m in messages if "id" in m]


def _read(url: str, count: int, headers: dict[str, str] | None = None, timeout: float = 10.0) -> list[dict]:
    with httpx.Client(timeout=httpx.Timeout(timeout)) as http, http.stream("GET", url, headers=headers) as r:
        assert r.status_code == 200, r.read()
        return parse_sse(r.iter_lines(), count=count)


def test_reconnect_with_last_event_id_receives_exactly_the_missed_events(settings: Settings) -> None:
    with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        created = http.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": "reconnect"})
        table = Table(created.json()["game_id"], [s["token"] for s in created.json()["seats"]])
        play_turns(http, table, random.Random(1), max_decisions=10)
        head = http.get(f"/games/{table.game_id}").json()["version"]
        url = f"{server.url}/games/{table.game_id}/stream"

        first = _read(f"{url}?after=0", count=head)  # a first connection asks for the whole log
        assert _versions(first) == list(range(1, head + 1))
        seen = int(first[-1]["id"])
        # while disconnected, the game goes on
        play_turns(http, table, random.Random(2), max_decisions=15)
        new_head = http.get(f"/games/{table.game_id}").json()["version"]
        assert new_head > seen
        again = _read(url, count=new_head - seen, headers={"Last-Event-ID": str(seen)})
        assert _versions(again) == list(range(seen + 1, new_head + 1))  # exactly the missed ones, in order
        # and nothing more arrives unless a move is made
        page = http.get(f"/games/{table.game_id}/events", params={"after": seen, "limit": 500}).json()
        assert [m["data"] for m in again] == [
            {k: e[k] for k in ("version", "type", "event", "text", "routine")}
            for e in page["events"]
        ]


def test_live_events_arrive_once_in_order_while_connected(settings: Settings) -> None:
    with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        created = http.post("/games", json={"seats": [{"name": "A"}, {"bot": "random"}], "seed": "live"})
        table = Table(created.json()["game_id"], [s["token"] for s in created.json()["seats"]])
        reader = StreamReader(f"{server.url}/games/{table.game_id}/stream?after=0").start()
        try:
            play_turns(http, table, random.Random(3), max_decisions=20)
            head = http.get(f"/games/{table.game_id}").json()["version"]
            messages = reader.take(head)
            assert _versions(messages) == list(range(1, head + 1))
        finally:
            reader.stop()


def test_a_finished_game_streams_to_the_end_then_says_stop(settings: Settings) -> None:
    with LiveServer(settings) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/games", json={"seats": [{"name": "A"}, {"bot": "random"}], "seed": "end"})
        table = Table(created.json()["game_id"], [s["token"] for s in created.json()["seats"]])
        play_turns(http, table, random.Random(4))
        head = http.get(f"/games/{table.game_id}").json()["version"]
        url = f"{server.url}/games/{table.game_id}/stream"
        tail = _read(url, count=10_000, headers={"Last-Event-ID": str(head - 3)})
        assert _versions(tail) == [head - 2, head - 1, head]
        assert tail[-1]["event"] == "end"
        assert tail[-2]["data"]["type"] == "GameEnded"
        done = http.get(url, headers={"Last-Event-ID": str(head)})
        assert done.status_code == 204  # EventSource stops reconnecting
