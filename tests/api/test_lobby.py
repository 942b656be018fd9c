"""The lobby: games with status, seats (bots named), whose turn, version and last move; filters."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.api.helpers import create, finish_in_process, play_turns, runtime_of, wait_until


def test_lobby_lists_games_with_status_seats_turn_and_filters(lobby_client: TestClient) -> None:
    client = lobby_client
    done = create(client, 2, seed="lobby-done", bots={1: "random"})
    finish_in_process(client, runtime_of(client), done, random.Random(1))  # only its end matters
    running = create(client, 3, seed="lobby-running", bots={2: "greedy"})
    play_turns(client, running, random.Random(2), max_decisions=3)
    head = client.get(f"/games/{running.game_id}").json()

    def caught_up() -> list[dict] | None:
        games = client.get("/games").json()["games"]
        versions = {g["game_id"]: g["version"] for g in games}
        return games if versions.get(running.game_id) == head["version"] and len(games) == 2 else None

    games = wait_until(caught_up, 10, "the lobby to catch up")
    assert [g["game_id"] for g in games] == [running.game_id, done.game_id]  # newest first
    entry = games[0]
    assert entry["status"] == "active" and entry["to_act"] == head["to_act"]
    assert [s["bot"] for s in entry["seats"]] == [None, None, "greedy"]
    assert [s["name"] for s in entry["seats"]][:2] == ["P1", "P2"]
    assert entry["last_move_at"] >= entry["created_at"]
    active = client.get("/games", params={"status": "active"}).json()["games"]
    assert [g["game_id"] for g in active] == [running.game_id]
    finished = client.get("/games", params={"status": "finished"}).json()["games"]
    assert [g["game_id"] for g in finished] == [done.game_id]
    mine = client.get("/games", params={"mine": "true"}, headers=done.auth(0)).json()["games"]
    assert [g["game_id"] for g in mine] == [done.game_id]
    assert client.get("/games", params={"status": "paused"}).status_code == 422
    assert len(client.get("/games", params={"limit": 1}).json()["games"]) == 1


def test_lobby_pages_by_cursor_give_every_game_once_newest_first(lobby_client: TestClient) -> None:
    """GET /games?cursor=... (issue 17: keyset pagination, a deep page costs what the first costs)."""
    client = lobby_client
    made = [create(client, 2, seed=f"lobby-page-{i}").game_id for i in range(5)]

    def listed() -> list[str] | None:
        ids = [g["game_id"] for g in client.get("/games", params={"limit": 50}).json()["games"]]
        return ids if len(ids) == 5 else None

    everything = wait_until(listed, 10, "the lobby to list the games")
    assert set(everything) == set(made)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, object] = {"limit": 2} if cursor is None else {"limit": 2, "cursor": cursor}
        page = client.get("/games", params=params).json()
        seen += [g["game_id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == everything
    assert client.get("/games", params={"limit": 50}).json()["next_cursor"] is None
    bad = client.get("/games", params={"cursor": "not-a-cursor"})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid-request"
    unknown = client.get("/games", params={"cursor": "00000000-0000-4000-8000-000000000000"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "cursor-not-found"


def test_CHAR_1_each_seat_answers_its_side_at_creation_in_the_board_view_and_in_the_lobby(
    lobby_client: TestClient,
) -> None:
    """`side` (CHAR-1) is part of every seat the API returns: the creation answer (SeatOut), the board
    view's seats, the lobby's seats and a fork's answer."""
    client = lobby_client
    seats = [
        {"name": "Ada", "character": "kepler", "side": "ability"},
        {"name": "Ben", "character": "galileo"},
        {"bot": "random", "character": "cunitz", "side": "ability"},
    ]
    created = client.post("/games", json={"seats": seats, "seed": "char-1-side"})
    assert created.status_code == 201, created.text
    body = created.json()
    sides = ["ability", "basic", "ability"]
    assert [s["side"] for s in body["seats"]] == sides
    game_id = body["game_id"]
    board = client.get(f"/games/{game_id}").json()
    assert [s["side"] for s in board["seats"]] == sides
    listed = wait_until(
        lambda: next((g for g in client.get("/games").json()["games"] if g["game_id"] == game_id), None),
        10,
        "the lobby to list the game",
    )
    assert [s["side"] for s in listed["seats"]] == sides
    fork = client.post(f"/games/{game_id}/fork", json={"at_version": 1, "seats": [{}, {}, {"bot": "random"}]})
    assert fork.status_code == 201, fork.text
    assert [s["side"] for s in fork.json()["seats"]] == sides
