"""The host invites an account to a seat by its name (ACCT-7, docs/accounts.md "Invitations"): a fact of the
game's log naming the invitee's pseudonym; the invitee finds the game under My games and opens the seat
there (ACCT-2). Unknown or ambiguous names, other people's tokens and seats attached to another account are
refused and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.accounts import pseudonym
from api.app import create_app
from api.settings import Settings
from tests.api.async_helpers import Clock, bearer
from tests.api.authenticator import Authenticator
from tests.api.helpers import runtime_of
from tests.api.test_accounts import ORIGIN, claim, log, new_game, recover, register, version


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(replace(settings, clocks=False, bots=False, public_url=ORIGIN), clock=Clock())
    with TestClient(app, base_url=ORIGIN) as test_client:
        yield test_client


def invite(client: TestClient, game_id: str, seat: int, token: str, name: str, cid: str = "i-1") -> Any:
    return client.post(
        f"/games/{game_id}/host/seats/{seat}/invite",
        headers=bearer(token),
        json={"name": name, "command_id": cid},
    )


def test_ACCT_7_an_invitation_is_a_seat_fact_and_the_invitee_finds_the_game(client: TestClient) -> None:
    ben = register(client, Authenticator(ORIGIN), "Ben").json()
    client.cookies.clear()
    created = new_game(client)
    game_id, host = created["game_id"], created["host_token"]
    before = version(client, game_id)
    done = invite(client, game_id, 1, host, " ben ")  # a name as typed: case and outer spaces do not matter
    assert done.status_code == 200, done.text
    last = log(client, game_id)[-1]
    key = runtime_of(client).accounts.account(ben["account_id"]).pseudonym_key
    assert last["type"] == "SeatInvited" and last["actor"] == "host" and last["event"]["rule"] == "ACCT-7"
    assert last["event"]["holder"] == pseudonym(key, game_id) and "Ben" not in str(last["event"])
    assert invite(client, game_id, 1, host, "Ben", "invite-2").json()["events"] == []  # again: nothing new
    assert version(client, game_id) == before + 1
    # Another account does not see it, nor may it open the seat.
    csrf = register(client, Authenticator(ORIGIN), "Cleo").json()["csrf_token"]
    assert client.get("/me/games").json()["games"] == []
    assert recover(client, game_id, 1, csrf).json()["code"] == "seat-not-yours"
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True


def test_ACCT_7_the_invitee_opens_the_seat_from_my_games(client: TestClient) -> None:
    authn = Authenticator(ORIGIN)
    csrf = register(client, authn, "Ben").json()["csrf_token"]
    created = new_game(client)
    game_id, host = created["game_id"], created["host_token"]
    assert invite(client, game_id, 1, host, "Ben").status_code == 200
    (listed,) = client.get("/me/games").json()["games"]
    assert (listed["game_id"], listed["seat"], listed["seat_name"]) == (game_id, 1, "Ben")
    opened = recover(client, game_id, 1, csrf)
    assert opened.status_code == 200, opened.text
    token = opened.json()["token"]
    assert client.get(f"/games/{game_id}/moves", headers=bearer(token)).status_code == 200
    stale = client.get(f"/games/{game_id}/moves", headers=bearer(created["seats"][1]["token"]))
    assert stale.status_code == 401  # the link the host had for the seat stopped working


def test_ACCT_7_bad_invitations_are_refused_and_change_nothing(client: TestClient) -> None:
    for name in ("Cleo", "cleo", "Ada"):
        register(client, Authenticator(ORIGIN), name)
        client.cookies.clear()
    created = new_game(client)
    game_id, host = created["game_id"], created["host_token"]
    ada_token = created["seats"][0]["token"]
    before = version(client, game_id)
    unknown = invite(client, game_id, 1, host, "Nobody")
    assert unknown.status_code == 404 and unknown.json()["code"] == "no-such-account"
    ambiguous = invite(client, game_id, 1, host, "Cleo")
    assert ambiguous.status_code == 409 and ambiguous.json()["code"] == "name-ambiguous"
    assert invite(client, game_id, 1, ada_token, "Ada").status_code in (
        401,
        403,
    )  # a seat token: not the host
    assert invite(client, game_id, 1, host, "").status_code == 422
    # A seat attached to another account stays theirs (ACCT-1).
    csrf = register(client, Authenticator(ORIGIN), "Dora").json()["csrf_token"]
    assert claim(client, game_id, created["seats"][1]["token"], csrf).status_code == 200
    claimed = version(client, game_id)
    taken = invite(client, game_id, 1, host, "Ada")
    assert taken.status_code == 409 and taken.json()["code"] == "seat-claimed"
    assert version(client, game_id) == claimed == before + 1
