"""Chat, ratings, profiles and tournaments on PostgreSQL (their tables live in the store's database):
the same statements as on SQLite, run once against a real server."""

from __future__ import annotations

import secrets
from dataclasses import replace

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.async_helpers import Clock, bearer
from tests.api.community_helpers import MixedBot, play_out
from tests.api.helpers import runtime_of
from tests.api.people import person


def test_chat_ratings_and_tournaments_on_postgres(settings: Settings, postgres_url: str) -> None:
    app = create_app(replace(settings, database_url=postgres_url, clocks=False, bots=False), clock=Clock())
    with TestClient(app) as client:
        runtime = runtime_of(client)
        # The test database is shared by every run on the machine, and a public name belongs to one account
        # (docs/ratings.md, 409 profile-name-taken):
        # this run's name is its own.
        name = f"Ada-{secrets.token_hex(4)}"
        ada, ben = person(runtime, name), person(runtime, "Ben")
        game = client.post("/games", json={"seats": [{"name": "Ada"}, {"name": "Ben"}]}).json()
        gid = game["game_id"]
        for i, who in enumerate((ada, ben)):
            headers = {**bearer(game["seats"][i]["token"]), **who.headers()}
            assert (
                client.post(f"/games/{gid}/claim", json={"command_id": f"c{i}"}, headers=headers).status_code
                == 200
            )
        said = client.post(
            f"/games/{gid}/chat", json={"text": "hi"}, headers=bearer(game["seats"][0]["token"])
        )
        assert said.status_code == 201, said.text
        spectator = person(runtime, "Cleo")
        seen = client.post(
            f"/games/{gid}/chat", json={"text": "watching"}, headers=spectator.headers()
        ).json()
        muted = client.post(
            f"/games/{gid}/chat/mutes",
            json={"message_id": seen["message_id"]},
            headers=bearer(game["seats"][1]["token"]),
        )
        assert muted.status_code == 200
        assert (
            client.post(f"/games/{gid}/chat", json={"text": "x"}, headers=spectator.headers()).status_code
            == 403
        )
        gone = client.delete(
            f"/games/{gid}/chat/{said.json()['message_id']}", headers=bearer(game["seats"][0]["token"])
        )
        assert gone.json()["deleted"] is True
        hidden = client.put(
            f"/games/{gid}/chat/hidden", json={"seat": 0}, headers=bearer(game["seats"][1]["token"])
        )
        assert hidden.json()["hidden"] == [0]
        play_out(runtime, gid, [MixedBot(1.0, "a"), MixedBot(0.0, "b")], "pg")
        assert client.get(f"/games/{gid}/rating").status_code == 200
        assert client.put("/me/profile", json={"public": True}, headers=ada.headers()).status_code == 200
        assert client.get(f"/players/{name}").json()["modes"]["2"]["finished"] == 1
        made = client.post(
            "/tournaments",
            json={"name": "pg", "format": "swiss", "seats": 2, "rounds": 1, "clock": {"per_move": "P1D"}},
            headers=ada.headers(),
        )
        tid = made.json()["tournament_id"]
        assert client.post(f"/tournaments/{tid}/entries", headers=ada.headers()).status_code == 200
        assert (
            client.post(f"/tournaments/{tid}/start", headers=ada.headers()).json()["code"]
            == "too-few-entrants"
        )
