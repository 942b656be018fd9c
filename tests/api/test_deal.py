"""Deal secrecy: without a client seed the service draws a secret random seed and salt (`deal: "secret"`);
a chosen seed is accepted (analysts reproduce deals) and said (`deal: "chosen-seed"`) in the answer, the
board view and the lobby entry; forks and imports say who may know their deal."""

from __future__ import annotations

import random
import re

from fastapi.testclient import TestClient

from domain.events import GameStarted
from domain.rng import digest
from tests.api.helpers import NDJSON, create, finish_in_process, play_turns, runtime_of, wait_until

HEX = re.compile(r"[0-9a-f]{32}")
TWO = {"seats": [{"name": "A"}, {"name": "B"}]}


def _started(client: TestClient, game_id: str) -> GameStarted:
    event = runtime_of(client).store.events(game_id, 0, 1)[0].event
    assert isinstance(event, GameStarted)
    return event


def test_without_a_seed_the_service_draws_a_secret_random_seed_and_salt(client: TestClient) -> None:
    created = [client.post("/games", json=TWO) for _ in range(2)]
    assert [c.status_code for c in created] == [201, 201]
    assert [c.json()["deal"] for c in created] == ["secret", "secret"]
    started = [_started(client, c.json()["game_id"]) for c in created]
    for s in started:
        assert HEX.fullmatch(s.seed) and HEX.fullmatch(s.salt)
        assert s.salt != digest("salt", s.seed)  # not the salt the engine derives from a seed
    assert len({s.seed for s in started} | {s.salt for s in started}) == 4
    assert started[0].commitment != started[1].commitment
    for c, s in zip(created, started, strict=True):
        game = c.json()["game_id"]
        board = client.get(f"/games/{game}")
        assert board.json()["deal"] == "secret"
        for body in (board.text, c.text, client.get(f"/games/{game}/events").text):
            assert s.seed not in body and s.salt not in body


def test_a_chosen_seed_is_marked_and_reproduces_its_deal(lobby_client: TestClient) -> None:
    client = lobby_client
    body = {**TWO, "seed": "analyst-deal", "first_seat": 0}
    created = [client.post("/games", json=body).json() for _ in range(2)]
    secret = client.post("/games", json=TWO).json()
    assert [c["deal"] for c in created] == ["chosen-seed", "chosen-seed"]
    games = [c["game_id"] for c in created]
    for game in games:
        assert client.get(f"/games/{game}").json()["deal"] == "chosen-seed"
        assert client.get(f"/games/{game}/at/1").json()["deal"] == "chosen-seed"
    # The same seed deals the same cards (that is what analysts want), under a fresh secret salt.
    states = [runtime_of(client).store.current(g)[0] for g in games]
    assert states[0].deck == states[1].deck and states[0].reserve == states[1].reserve
    salts = [_started(client, g).salt for g in games]
    assert salts[0] != salts[1] and all(HEX.fullmatch(s) for s in salts)

    def lobby() -> dict[str, str | None] | None:
        entries = {g["game_id"]: g["deal"] for g in client.get("/games").json()["games"]}
        return entries if len(entries) == 3 else None

    deals = wait_until(lobby, 10, "the lobby to list the games")
    assert deals == {games[0]: "chosen-seed", games[1]: "chosen-seed", secret["game_id"]: "secret"}

    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert "chosen-seed" in schemas["CreateGame"]["properties"]["seed"]["description"]
    assert "chosen-seed" in schemas["GameCreated"]["properties"]["deal"]["description"]


def test_forks_and_imports_say_who_may_know_their_deal(client: TestClient) -> None:
    running = create(client, 2, seed="deal-running")
    play_turns(client, running, random.Random(31), max_decisions=4)
    fork = client.post(f"/games/{running.game_id}/fork", json={"at_version": 3}).json()
    assert fork["deal"] == "secret"  # the unseen cards are re-dealt with a new secret seed
    assert client.get(f"/games/{fork['game_id']}").json()["deal"] == "secret"

    done = create(client, 2, seed="deal-done", bots={1: "random"})
    finish_in_process(client, runtime_of(client), done, random.Random(32))  # only its end matters
    head = client.get(f"/games/{done.game_id}").json()["version"]
    known = client.post(f"/games/{done.game_id}/fork", json={"at_version": head // 2}).json()
    assert known["deal"] == "known"  # a finished game's deal is public: its fork keeps it
    export = client.get(f"/games/{done.game_id}/export").content
    imported = client.post("/games/import", content=export, headers=NDJSON)
    assert imported.status_code == 201 and imported.json()["deal"] == "known"
    assert client.get(f"/games/{imported.json()['game_id']}").json()["deal"] == "known"
