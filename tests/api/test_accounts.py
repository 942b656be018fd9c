"""Optional accounts (issue 29, docs/accounts.md): passkeys, sessions and their CSRF check (ACCT-3),
claiming a seat (ACCT-1), recovering it on another device (ACCT-2), and My games.

The passkeys are made and used by a software authenticator (tests/api/authenticator.py) that answers as a
browser would, so the server's WebAuthn verification runs for real; Chromium's virtual authenticator does
the same in tests/api/test_passkeys_browser.py.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.accounts import session_hash
from api.app import create_app
from api.limits import Rate
from api.sessions import COOKIE
from api.settings import Settings
from tests.api.async_helpers import Clock, bearer
from tests.api.authenticator import Authenticator, b64url
from tests.api.helpers import Table, finish_in_process, runtime_of

ORIGIN = "https://testserver"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app_settings(settings: Settings) -> Settings:
    return replace(settings, clocks=False, bots=False, public_url=ORIGIN)


@pytest.fixture
def client(app_settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings, clock=clock), base_url=ORIGIN) as test_client:
        yield test_client


def register(client: TestClient, authn: Authenticator, name: str = "Ada") -> httpx.Response:
    options = client.post("/passkeys/register/options", json={"name": name})
    assert options.status_code == 200, options.text
    ceremony = options.json()
    credential = authn.create(ceremony["public_key"])
    done = client.post(
        "/passkeys/register", json={"ceremony": ceremony["ceremony"], "credential": credential}
    )
    assert done.status_code == 201, done.text
    return done


def sign_in(client: TestClient, authn: Authenticator) -> dict[str, Any]:
    ceremony = client.post("/session/options", json={}).json()
    assert ceremony["public_key"].get("allowCredentials", []) == []  # discoverable: no credential named
    answer = authn.get(ceremony["public_key"])
    done = client.post("/session", json={"ceremony": ceremony["ceremony"], "credential": answer})
    assert done.status_code == 200, done.text
    account: dict[str, Any] = done.json()
    return account


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    response = client.post("/games", json={"seats": seats, "first_seat": 0, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def claim(
    client: TestClient, game_id: str, token: str, csrf: str | None, cid: str = "claim-1"
) -> httpx.Response:
    headers = {**bearer(token), **({"X-CSRF-Token": csrf} if csrf is not None else {})}
    return client.post(f"/games/{game_id}/claim", headers=headers, json={"command_id": cid})


def recover(client: TestClient, game_id: str, seat: int, csrf: str | None) -> httpx.Response:
    headers = {"X-CSRF-Token": csrf} if csrf is not None else {}
    return client.post(f"/games/{game_id}/seats/{seat}/recover", headers=headers)


def log(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(f"/games/{game_id}/events").json()["events"]
    return events


def version(client: TestClient, game_id: str) -> int:
    return int(client.get(f"/games/{game_id}/table").json()["version"])


def claims_index(settings: Settings) -> list[tuple[Any, ...]]:
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        return list(db.execute("SELECT game_id, seat, account_id FROM galileo_claims"))


# -- passkeys and sessions (ACCT-3) ----------------------------------------------------------------------


def test_ACCT_3_a_passkey_registers_signs_out_and_signs_in_again(
    client: TestClient, settings: Settings
) -> None:
    authn = Authenticator(ORIGIN)
    done = register(client, authn, "  Ada   Lovelace ")
    account = done.json()
    assert account["name"] == "Ada Lovelace" and account["passkeys"] == 1
    set_cookie = done.headers["set-cookie"]
    assert set_cookie.startswith(f"{COOKIE}=gs_")
    attributes = {part.strip().split("=")[0].lower() for part in set_cookie.split(";")[1:]}
    assert {"httponly", "secure", "samesite", "path", "max-age"} <= attributes
    assert "samesite=lax" in set_cookie.lower()
    token = client.cookies[COOKIE]
    me = client.get("/me").json()
    assert me["account_id"] == account["account_id"] and me["csrf_token"] == account["csrf_token"]
    assert client.get("/session").json()["account"] == me
    # Stored hashed: the database holds the token's SHA-256, never the token.
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        stored = [r[0] for r in db.execute("SELECT session_hash FROM galileo_sessions")]
        dump = "\n".join(db.iterdump())
    assert stored == [session_hash(token)] and token not in dump
    # Signing out is a cookie-authenticated write: it needs the CSRF token.
    refused = client.delete("/session")
    assert refused.status_code == 403 and refused.json()["code"] == "csrf-token-required"
    assert client.get("/me").status_code == 200  # still signed in
    assert client.delete("/session", headers={"X-CSRF-Token": me["csrf_token"]}).status_code == 204
    client.cookies.set(COOKIE, token)  # the signed-out token presented again
    gone = client.get("/me")
    assert gone.status_code == 401 and gone.json()["code"] == "invalid-session"
    client.cookies.clear()
    assert client.get("/me").json()["code"] == "sign-in-required"
    assert client.get("/session").json()["account"] is None  # the pages' question: never a 401
    again = sign_in(client, authn)
    assert again["account_id"] == account["account_id"] and again["csrf_token"] != account["csrf_token"]
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        assert [r[0] for r in db.execute("SELECT sign_count FROM galileo_passkeys")] == [1]


def test_ACCT_3_a_second_passkey_needs_the_session_and_its_csrf_token(client: TestClient) -> None:
    authn = Authenticator(ORIGIN)
    csrf = register(client, authn).json()["csrf_token"]
    refused = client.post("/passkeys/register/options", json={})
    assert refused.status_code == 403 and refused.json()["code"] == "csrf-token-required"
    options = client.post("/passkeys/register/options", json={}, headers={"X-CSRF-Token": csrf}).json()
    excluded = [c["id"] for c in options["public_key"]["excludeCredentials"]]
    assert excluded == [b64url(authn.credentials[0].credential_id)]  # not registered twice
    second = Authenticator(ORIGIN)
    answer = second.create(options["public_key"])
    body = {"ceremony": options["ceremony"], "credential": answer}
    done = client.post("/passkeys/register", json=body, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 201 and done.json()["passkeys"] == 2
    client.cookies.clear()
    assert sign_in(client, second)["account_id"] == done.json()["account_id"]


def test_ACCT_3_a_ceremony_is_answered_once_from_this_origin_with_a_good_signature(
    client: TestClient,
) -> None:
    authn = Authenticator(ORIGIN)
    register(client, authn)
    client.cookies.clear()
    # Another origin (a phishing site relaying the challenge): refused, no session.
    ceremony = client.post("/session/options", json={}).json()
    phished = authn.get(ceremony["public_key"], origin="https://evil.example")
    refused = client.post("/session", json={"ceremony": ceremony["ceremony"], "credential": phished})
    assert refused.status_code == 422 and refused.json()["code"] == "passkey-rejected"
    assert COOKIE not in client.cookies
    # The challenge is gone once answered, even when the answer was refused.
    retry = client.post(
        "/session", json={"ceremony": ceremony["ceremony"], "credential": authn.get(ceremony["public_key"])}
    )
    assert retry.status_code == 422 and retry.json()["code"] == "unknown-ceremony"
    # A forged signature: refused.
    ceremony = client.post("/session/options", json={}).json()
    answer = authn.get(ceremony["public_key"])
    answer["response"]["signature"] = answer["response"]["signature"][:-4] + "AAAA"
    forged = client.post("/session", json={"ceremony": ceremony["ceremony"], "credential": answer})
    assert forged.status_code == 422 and forged.json()["code"] == "passkey-rejected"
    # An unknown passkey: refused.
    ceremony = client.post("/session/options", json={}).json()
    stranger = Authenticator(ORIGIN)
    stranger.create({"rp": {"id": "testserver"}, "user": {"id": "AAAA"}, "challenge": "AAAA"})
    unknown = client.post(
        "/session",
        json={"ceremony": ceremony["ceremony"], "credential": stranger.get(ceremony["public_key"])},
    )
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown-passkey"
    assert COOKIE not in client.cookies
    # A new account needs a printable name.
    assert client.post("/passkeys/register/options", json={}).json()["code"] == "name-required"
    assert (
        client.post("/passkeys/register/options", json={"name": "a\u0007b"}).json()["code"] == "invalid-name"
    )


def test_ACCT_3_a_forged_session_cookie_is_refused_and_changes_nothing(
    client: TestClient, settings: Settings
) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    before = version(client, game_id)
    for forged in ("gs_" + "A" * 43, "not-a-session", "gs_" + "x" * 200):
        client.cookies.set(COOKIE, forged)
        me = client.get("/me")
        assert me.status_code == 401 and me.json()["code"] == "invalid-session"
        assert f"{COOKIE}=;" in me.headers["set-cookie"]  # told to drop it
        refused = claim(client, game_id, token, "anything")
        assert refused.status_code == 401 and refused.json()["code"] == "invalid-session"
        assert recover(client, game_id, 0, "anything").status_code == 401
    assert version(client, game_id) == before and claims_index(settings) == []
    # Seat tokens keep working as bearer tokens, whatever cookie comes along.
    moves = client.get(f"/games/{game_id}/moves", headers=bearer(token))
    assert moves.status_code == 200 and moves.json()["to_act"] == 0


def test_ACCT_3_a_claim_without_the_csrf_token_is_refused_and_changes_nothing(
    client: TestClient, settings: Settings
) -> None:
    register(client, Authenticator(ORIGIN))
    created = new_game(client)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    before = version(client, game_id)
    missing = claim(client, game_id, token, None)
    assert missing.status_code == 403 and missing.json()["code"] == "csrf-token-required"
    wrong = claim(client, game_id, token, "0" * 64)
    assert wrong.status_code == 403 and wrong.json()["code"] == "csrf-token-invalid"
    assert recover(client, game_id, 0, None).json()["code"] == "csrf-token-required"
    assert version(client, game_id) == before and claims_index(settings) == []
    assert "SeatClaimed" not in [e["type"] for e in log(client, game_id)]


# -- claiming and recovering a seat (ACCT-1, ACCT-2) -------------------------------------------------------


def test_ACCT_1_a_claim_is_a_fact_of_the_log_naming_a_pseudonym(
    client: TestClient, settings: Settings
) -> None:
    account = register(client, Authenticator(ORIGIN)).json()
    created = new_game(client)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    done = claim(client, game_id, token, account["csrf_token"])
    assert done.status_code == 200, done.text
    (item,) = done.json()["events"]
    assert item["type"] == "SeatClaimed" and item["event"]["seat"] == 0 and item["event"]["rule"] == "ACCT-1"
    holder = item["event"]["holder"]
    assert holder.startswith("p_") and account["account_id"] not in holder
    stored = log(client, game_id)[-1]
    assert stored["type"] == "SeatClaimed" and stored["actor"] == 0
    assert "Ada" not in str(stored["event"])  # no name in the fact
    # Claiming again records nothing; the seat token still works; the game still verifies.
    again = claim(client, game_id, token, account["csrf_token"], cid="claim-2")
    assert again.status_code == 200 and again.json()["events"] == []
    assert client.get(f"/games/{game_id}/moves", headers=bearer(token)).status_code == 200
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True
    assert claims_index(settings) == [(game_id, 0, account["account_id"])]
    # The pseudonym is per game: another game's claim by the same account names someone else.
    other = new_game(client)
    second = claim(client, other["game_id"], other["seats"][1]["token"], account["csrf_token"])
    assert second.json()["events"][0]["event"]["holder"] != holder


def test_ACCT_1_a_claimed_seat_stays_with_its_account(client: TestClient, settings: Settings) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    ada = register(client, Authenticator(ORIGIN), "Ada").json()
    assert claim(client, game_id, token, ada["csrf_token"]).status_code == 200
    client.cookies.clear()
    eve = register(client, Authenticator(ORIGIN), "Eve").json()
    before = version(client, game_id)
    taken = claim(client, game_id, token, eve["csrf_token"], cid="eve")
    assert (
        taken.status_code == 409
        and taken.json()["code"] == "seat-claimed"
        and taken.json()["rule_id"] == "ACCT-1"
    )
    assert version(client, game_id) == before
    assert claims_index(settings) == [(game_id, 0, ada["account_id"])]


def test_ACCT_1_a_claim_with_a_reissued_link_is_refused_and_changes_nothing(
    client: TestClient, settings: Settings
) -> None:
    account = register(client, Authenticator(ORIGIN)).json()
    created = new_game(client)
    game_id, stale = created["game_id"], created["seats"][0]["token"]
    reissued = client.post(f"/games/{game_id}/host/seats/0/link", headers=bearer(created["host_token"]))
    assert reissued.status_code == 200, reissued.text
    before = version(client, game_id)
    refused = claim(client, game_id, stale, account["csrf_token"])
    assert refused.status_code == 401 and refused.json()["code"] == "link-reissued"
    assert version(client, game_id) == before and claims_index(settings) == []
    # The re-issued link claims it.
    fresh = reissued.json()["token"]
    assert claim(client, game_id, fresh, account["csrf_token"]).json()["events"][0]["type"] == "SeatClaimed"


def test_ACCT_1_a_handed_over_seat_is_no_longer_claimed(client: TestClient) -> None:
    account = register(client, Authenticator(ORIGIN)).json()
    created = new_game(client)
    game_id = created["game_id"]
    assert claim(client, game_id, created["seats"][1]["token"], account["csrf_token"]).status_code == 200
    assert [g["seat"] for g in client.get("/me/games").json()["games"]] == [1]
    handed = client.post(
        f"/games/{game_id}/host/seats/1/handover",
        headers=bearer(created["host_token"]),
        json={"to": "bot", "bot": "greedy", "command_id": "h1"},
    )
    assert handed.status_code == 200, handed.text
    assert client.get("/me/games").json()["games"] == []
    refused = recover(client, game_id, 1, account["csrf_token"])
    assert refused.status_code == 403 and refused.json()["rule_id"] == "ASYNC-3"


def test_ACCT_2_a_claimed_seat_is_recovered_on_another_device(client: TestClient, settings: Settings) -> None:
    authn = Authenticator(ORIGIN)
    account = register(client, authn).json()
    created = new_game(client)
    game_id, old = created["game_id"], created["seats"][0]["token"]
    assert claim(client, game_id, old, account["csrf_token"]).status_code == 200
    # Another device: no seat token, a new session of the same account.
    client.cookies.clear()
    csrf = sign_in(client, authn)["csrf_token"]
    listed = client.get("/me/games").json()["games"]
    assert [(g["game_id"], g["seat"]) for g in listed] == [(game_id, 0)]
    before = version(client, game_id)
    done = recover(client, game_id, 0, csrf)
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["version"] == before + 1 and body["link"].endswith(f"/play/{game_id}#token={body['token']}")
    last = log(client, game_id)[-1]
    assert (
        last["type"] == "SeatRecovered" and last["event"]["rule"] == "ACCT-2" and last["event"]["seat"] == 0
    )
    assert client.get(f"/games/{game_id}/moves", headers=bearer(body["token"])).json()["to_act"] == 0
    stale = client.get(f"/games/{game_id}/moves", headers=bearer(old))  # the old device's
    assert stale.status_code == 401 and stale.json()["code"] == "seat-recovered"
    assert stale.json()["rule_id"] == "ACCT-2" and stale.json()["version"] == body["version"]
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True
    # Another account, or a seat not claimed, cannot be recovered; nothing is written.
    assert recover(client, game_id, 1, csrf).json()["code"] == "seat-not-yours"
    client.cookies.clear()
    eve = register(client, Authenticator(ORIGIN), "Eve").json()
    refused = recover(client, game_id, 0, eve["csrf_token"])
    assert refused.status_code == 403 and refused.json()["rule_id"] == "ACCT-2"
    assert version(client, game_id) == before + 1
    assert client.get(f"/games/{game_id}/moves", headers=bearer(body["token"])).status_code == 200


# -- My games ------------------------------------------------------------------------------------------------


def test_my_games_lists_whose_turn_time_left_and_links(client: TestClient, clock: Clock) -> None:
    account = register(client, Authenticator(ORIGIN)).json()
    csrf = account["csrf_token"]
    clocked = new_game(client, clock={"per_move": "PT1H", "reserve": "PT2H"})
    plain = new_game(client)
    assert claim(client, clocked["game_id"], clocked["seats"][1]["token"], csrf).status_code == 200
    assert claim(client, plain["game_id"], plain["seats"][0]["token"], csrf).status_code == 200
    finished = new_game(client)
    assert claim(client, finished["game_id"], finished["seats"][0]["token"], csrf).status_code == 200
    tokens = [s["token"] for s in finished["seats"]]
    finish_in_process(client, runtime_of(client), Table(finished["game_id"], tokens), random.Random(29))
    clock.advance(seconds=600)
    games = {g["game_id"]: g for g in client.get("/me/games").json()["games"]}
    assert set(games) == {clocked["game_id"], plain["game_id"], finished["game_id"]}
    over = games[finished["game_id"]]
    assert over["status"] == "finished" and over["to_act"] is None and over["your_turn"] is False
    assert over["replay_link"] == f"{ORIGIN}/replay/{finished['game_id']}"
    waiting = games[clocked["game_id"]]
    assert waiting["seat"] == 1 and waiting["seat_name"] == "Ben" and waiting["status"] == "active"
    assert waiting["to_act"] == 0 and waiting["to_act_name"] == "Ada" and waiting["your_turn"] is False
    assert waiting["clock"]["seconds_left"] == 3 * 3600 and waiting["clock"]["deadline"] is None
    assert waiting["link"] == f"{ORIGIN}/play/{clocked['game_id']}#seat=1"
    mine = games[plain["game_id"]]
    assert mine["your_turn"] is True and mine["clock"] is None
    # A cancelled game is listed as such; nobody's turn.
    cancel = client.post(
        f"/games/{plain['game_id']}/host/cancel",
        headers=bearer(plain["host_token"]),
        json={"command_id": "c"},
    )
    assert cancel.status_code == 200, cancel.text
    games = {g["game_id"]: g for g in client.get("/me/games").json()["games"]}
    assert games[plain["game_id"]]["status"] == "cancelled" and games[plain["game_id"]]["to_act"] is None
    client.cookies.clear()
    assert client.get("/me/games").status_code == 401


# -- deleting an account (docs/audit.md, "Personal data") ----------------------------------------------------


def test_deleting_an_account_erases_it_and_every_game_still_verifies(
    client: TestClient, settings: Settings
) -> None:
    authn = Authenticator(ORIGIN)
    account = register(client, authn, "Zelda Quux").json()
    created = new_game(client)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    claimed = claim(client, game_id, token, account["csrf_token"]).json()
    holder = claimed["events"][0]["event"]["holder"]
    refused = client.delete("/me")
    assert refused.status_code == 403 and client.get("/me").status_code == 200  # CSRF first
    assert client.delete("/me", headers={"X-CSRF-Token": account["csrf_token"]}).status_code == 204
    assert client.get("/session").json()["account"] is None  # the cookie is cleared
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        dump = "\n".join(db.iterdump())
    assert "Zelda Quux" not in dump and account["account_id"] not in dump
    # The log keeps the pseudonym, which no key opens any more; the game verifies; the seat still plays.
    assert [e["event"].get("holder") for e in log(client, game_id) if e["type"] == "SeatClaimed"] == [holder]
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True
    assert client.get(f"/games/{game_id}/moves", headers=bearer(token)).status_code == 200
    # Its passkey signs nobody in; the seat's link may be claimed by a new account.
    ceremony = client.post("/session/options", json={}).json()
    answer = authn.get(ceremony["public_key"])
    gone = client.post("/session", json={"ceremony": ceremony["ceremony"], "credential": answer})
    assert gone.status_code == 422 and gone.json()["code"] == "unknown-passkey"
    fresh = register(client, Authenticator(ORIGIN), "Zed").json()
    again = claim(client, game_id, token, fresh["csrf_token"], cid="claim-again")
    assert again.status_code == 200 and again.json()["events"][0]["event"]["holder"] not in (holder,)
    assert [g["game_id"] for g in client.get("/me/games").json()["games"]] == [game_id]


def test_ACCT_3_a_passkey_is_added_only_by_the_session_that_asked(client: TestClient) -> None:
    csrf = register(client, Authenticator(ORIGIN)).json()["csrf_token"]
    begun = client.post("/passkeys/register/options", json={}, headers={"X-CSRF-Token": csrf}).json()
    answer = Authenticator(ORIGIN).create(begun["public_key"])
    token = client.cookies[COOKIE]
    client.cookies.clear()  # someone else, who learnt the ceremony's ID, finishes it signed out
    refused = client.post("/passkeys/register", json={"ceremony": begun["ceremony"], "credential": answer})
    assert refused.status_code == 409 and refused.json()["code"] == "another-account"
    assert COOKIE not in client.cookies
    client.cookies.set(COOKIE, token)
    assert client.get("/me").json()["passkeys"] == 1


def test_ceremonies_count_against_the_rate_of_commands(settings: Settings, clock: Clock) -> None:
    limited = replace(settings, clocks=False, bots=False, public_url=ORIGIN, rates={"command": Rate(60, 3)})
    with TestClient(create_app(limited, clock=clock), base_url=ORIGIN) as test_client:
        answers = [test_client.post("/session/options", json={}).status_code for _ in range(5)]
    assert answers[:3] == [200, 200, 200] and answers[3:] == [429, 429]
