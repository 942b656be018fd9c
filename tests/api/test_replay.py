"""Replay routes after the end: the full board at any version, `as_seat`, export → import → verify, forks
continued by bots; and the board view's ETag and Redis cache."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.helpers import NDJSON, create, play_turns, runtime_of, wait_until


def test_after_the_end_every_version_is_public_and_as_seat_shows_a_seat(client: TestClient) -> None:
    table = create(client, 2, seed="replay", bots={1: "random"})
    play_turns(client, table, random.Random(11))
    game = table.game_id
    head = client.get(f"/games/{game}").json()["version"]

    full = client.get(f"/games/{game}/at/2").json()
    assert full["viewer"]["class"] == "full" and "deck" in full["state"]
    as_seat = client.get(f"/games/{game}/at/2", params={"as_seat": 1}).json()
    assert as_seat["viewer"] == {"class": "seat:1", "seat": 1} and "deck" not in as_seat["state"]
    assert client.get(f"/games/{game}/at/2", params={"as_seat": 3}).status_code == 422
    events = client.get(f"/games/{game}/events", params={"limit": 1}).json()["events"]
    assert "deck" in events[0]["event"] and "redacted" not in events[0]["event"]

    exported = client.get(f"/games/{game}/export")
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    imported = client.post("/games/import", content=exported.content, headers=NDJSON)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["version"] == head and all(s["token"] is None for s in copy["seats"])
    assert client.get(f"/games/{copy['game_id']}/verify").json()["ok"]

    fork = client.post(
        f"/games/{game}/fork", json={"at_version": head // 2, "seats": [{"bot": "random"}] * 2}
    )
    assert fork.status_code == 201, fork.text
    forked = fork.json()["game_id"]
    assert all(s["token"] is None for s in fork.json()["seats"])
    wait_until(
        lambda: client.get(f"/games/{forked}").json()["status"] == "finished", 30, "the bots' fork to end"
    )
    checks = {c["name"]: c["status"] for c in client.get(f"/games/{forked}/verify").json()["checks"]}
    report = client.get(f"/games/{forked}/verify").json()
    assert checks["chain"] == checks["adjudication"] == checks["fairness"] == "ok", report


def test_fork_of_a_running_game_issues_new_seats(client: TestClient) -> None:
    table = create(client, 2, seed="fork-running")
    play_turns(client, table, random.Random(12), max_decisions=10)
    fork = client.post(f"/games/{table.game_id}/fork", json={"at_version": 3}).json()
    tokens = [s["token"] for s in fork["seats"]]
    assert all(tokens) and not set(tokens) & set(table.tokens)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.get(f"/games/{fork['game_id']}/moves", headers=headers).status_code == 200
    assert client.get(f"/games/{table.game_id}/moves", headers=headers).status_code == 403
    bad = client.post(f"/games/{table.game_id}/fork", json={"at_version": 3, "seats": [{}]})
    assert bad.status_code == 422 and bad.json()["code"] == "bad-seats"


def test_board_etag_answers_304_when_unchanged(client: TestClient) -> None:
    table = create(client, 2, seed="etag")
    first = client.get(f"/games/{table.game_id}", headers=table.auth(0))
    etag = first.headers["etag"]
    again = client.get(f"/games/{table.game_id}", headers={**table.auth(0), "If-None-Match": etag})
    assert again.status_code == 304 and again.headers["etag"] == etag
    spectator = client.get(f"/games/{table.game_id}", headers={"If-None-Match": etag})
    assert spectator.status_code == 200  # another viewer class, another representation


def test_views_are_cached_in_redis_by_game_version_and_viewer_class(
    redis_url: str, settings: Settings
) -> None:
    config = Settings(database_url=settings.database_url, redis_url=redis_url)
    with TestClient(create_app(config)) as client:
        table = create(client, 2, seed="cache")
        cache = runtime_of(client).views
        for _ in range(3):
            assert client.get(f"/games/{table.game_id}").status_code == 200
            assert client.get(f"/games/{table.game_id}", headers=table.auth(0)).status_code == 200
        assert (cache.hits, cache.misses) == (4, 2)  # type: ignore[attr-defined]
        import redis

        version = client.get(f"/games/{table.game_id}").json()["version"]
        keys = {k.decode() for k in redis.Redis.from_url(redis_url).keys(f"galileo:view:{table.game_id}:*")}
        prefix = f"galileo:view:{table.game_id}:{version}:"
        assert keys == {prefix + "spectator", prefix + "seat:0"}
