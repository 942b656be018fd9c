"""Turn notifications by mail (issue 29, docs/notifications.md): a local SMTP server (aiosmtpd) receives
what the service sends; the tests parse the mails (headers, links, one-click unsubscribe), confirm
addresses (ACCT-5), refuse altered unsubscribe links, bounce an address, read the mail folder of a
service without SMTP, send a daily digest, and erase an account's address (ACCT-4)."""

from __future__ import annotations

import random
import re
import sqlite3
import ssl
from collections.abc import Iterator
from dataclasses import replace
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import trustme
from fastapi.testclient import TestClient

from api import messages
from api.app import create_app
from api.settings import Settings
from tests.api.async_helpers import Clock, bearer
from tests.api.authenticator import Authenticator
from tests.api.helpers import hidden_ids, runtime_of, wait_until
from tests.api.mailbox import Keeper, mailbox, serving
from tests.api.test_accounts import claim, register

ORIGIN = "https://testserver"
BEN = "ben@example.org"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
OUTBOX = "SELECT attempts, status FROM galileo_outbox"


@pytest.fixture
def smtp() -> Iterator[tuple[Keeper, int]]:
    yield from mailbox()


@pytest.fixture
def clock() -> Clock:
    return Clock()


def mail_settings(settings: Settings, port: int) -> Settings:
    return replace(
        settings,
        bots=False,
        public_url=ORIGIN,
        smtp_host="127.0.0.1",
        smtp_port=port,
        smtp_security="none",
        mail_from="Galileo <turns@example.org>",
        webhook_poll_seconds=0.1,
        webhook_backoff_seconds=0.2,
        clock_tick_seconds=0.2,
    )


@pytest.fixture
def client(settings: Settings, smtp: tuple[Keeper, int], clock: Clock) -> Iterator[TestClient]:
    app = create_app(mail_settings(settings, smtp[1]), clock=clock)
    with TestClient(app, base_url=ORIGIN) as test_client:
        yield test_client


def new_game(client: TestClient) -> tuple[str, list[str]]:
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    created = client.post("/games", json={"seats": seats, "first_seat": 0, "seed": "mail-1"}).json()
    return created["game_id"], [s["token"] for s in created["seats"]]


def end_turn(client: TestClient, game_id: str, token: str, rng: random.Random) -> None:
    """Play random moves as the token's seat (to act now) until the turn passes."""
    seat = None
    for n in range(200):
        listing = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()
        seat = listing["to_act"] if seat is None else seat
        if listing["to_act"] != seat:
            return
        move = rng.choice(listing["moves"])
        body = {"command": move, "expected_version": listing["version"], "command_id": f"{rng.random()}-{n}"}
        response = client.post(f"/games/{game_id}/commands", headers=bearer(token), json=body)
        assert response.status_code == 200, response.text
    raise AssertionError("the turn did not pass")


def mails(client: TestClient, game_id: str, token: str) -> list[dict[str, Any]]:
    """The seat's delivery log's mail rows."""
    log = client.get(f"/games/{game_id}/notifications", headers=bearer(token)).json()["deliveries"]
    return [d for d in log if d["kind"] == "mail:your-turn"]


def link_in(text: str, path: str) -> str:
    found = re.search(rf"https://testserver{re.escape(path)}\S*", text)
    assert found, f"no {path} link in {text!r}"
    return found.group(0)


def confirm(client: TestClient, message: EmailMessage) -> None:
    link = link_in(message.get_content(), "/mail/confirm")
    page = client.get(link)
    assert page.status_code == 200 and "id=confirm" in page.text  # a button: a GET confirms nothing
    token = parse_qs(urlsplit(link).query)["token"][0]
    done = client.post("/mail/confirm", content=f"token={token}", headers=FORM)
    assert done.status_code == 200, done.text
    again = client.post("/mail/confirm", content=f"token={token}", headers=FORM)
    assert again.status_code == 404 and again.json()["code"] == "unknown-confirmation"  # used once


def test_ACCT_5_a_seat_address_is_confirmed_first_then_told_once_per_turn(
    client: TestClient, smtp: tuple[Keeper, int]
) -> None:
    keeper = smtp[0]
    rng = random.Random(29)
    game_id, (ada, ben) = new_game(client)
    given = client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": BEN})
    assert given.status_code == 202 and given.json()["status"] == "pending"
    (confirmation,) = keeper.wait_for(BEN, 1)
    assert confirmation["Subject"] == messages.CONFIRM_SUBJECT and confirmation["List-Unsubscribe"] is None
    assert confirmation["From"] == "Galileo <turns@example.org>"

    end_turn(client, game_id, ada, rng)  # Ben's turn, but his address is not confirmed: no mail
    assert mails(client, game_id, ben) == []
    confirm(client, confirmation)
    assert client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()["email"]["status"] == "confirmed"

    # Confirmed while it is his turn: the turn is told now, once.
    _, turn = keeper.wait_for(BEN, 2)
    assert turn["Subject"] == messages.TURN_SUBJECT.format(game="Ada and Ben")
    assert turn["Auto-Submitted"] == "auto-generated"
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # RFC 8058
    unsubscribe = turn["List-Unsubscribe"].strip("<>")
    body = turn.get_content()
    assert link_in(body, f"/play/{game_id}") == f"{ORIGIN}/play/{game_id}#seat=1"
    assert unsubscribe in body and "It is your turn (Ben)" in body
    runtime = runtime_of(client)
    hidden = hidden_ids(runtime, game_id)
    assert hidden and not [card for card in hidden if card in body]  # no hidden information
    # Asking again for the same turn (a repeated address, a webhook's re-sync) queues no second mail.
    client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": BEN, "mode": "turn"})
    rows = mails(client, game_id, ben)
    assert len(rows) == 1 and rows[0]["status"] == "delivered" and rows[0]["result"] == "2xx"
    # The host's log does not say who gets mails.
    host = client.get(f"/games/{game_id}/notifications", headers=bearer(ada)).json()["deliveries"]
    assert all(d["kind"] != "mail:your-turn" for d in host)

    # An unsubscribe link with a bad signature, or another game's, changes nothing (403 bad-signature).
    parts = urlsplit(unsubscribe)
    query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    for forged in ({**query, "s": "A" * 22}, {**query, "g": "another-game"}, {**query, "a": "addr_x"}):
        refused = client.post(parts.path, params=forged, content="List-Unsubscribe=One-Click", headers=FORM)
        assert refused.status_code == 403 and refused.json()["code"] == "bad-signature", refused.text
        page = client.get(parts.path, params=forged)
        assert page.status_code == 200 and messages.PAGE_BAD_LINK in page.text and "<form" not in page.text
    assert client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()["email"]["status"] == "confirmed"
    # The one click: POST to the List-Unsubscribe URL; the mails of this address stop.
    page = client.get(unsubscribe)
    assert page.status_code == 200 and "id=unsubscribe" in page.text  # a GET changes nothing
    done = client.post(unsubscribe, content="List-Unsubscribe=One-Click", headers=FORM)
    assert done.status_code == 200
    reach = client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()
    assert reach["email"]["status"] == "unsubscribed"
    end_turn(client, game_id, ben, rng)
    end_turn(client, game_id, ada, rng)  # Ben's turn again: no mail row, no mail
    assert len(mails(client, game_id, ben)) == 1 and len(keeper.to(BEN)) == 2


def test_ACCT_5_a_seat_address_given_in_japanese_is_written_to_in_japanese(
    client: TestClient, smtp: tuple[Keeper, int]
) -> None:
    keeper = smtp[0]
    game_id, (ada, ben) = new_game(client)
    ja = {**bearer(ben), "Accept-Language": "ja"}
    assert client.put(f"/games/{game_id}/email", headers=ja, json={"address": BEN}).status_code == 202
    (confirmation,) = keeper.wait_for(BEN, 1)
    assert confirmation["Subject"] == "Galileo Galilei のメールアドレスの確認"
    assert "確認するには" in confirmation.get_content()
    link = link_in(confirmation.get_content(), "/mail/confirm")
    assert "lang=ja" in link and "<html lang=ja>" in client.get(link).text  # its page in Japanese too
    end_turn(client, game_id, ada, random.Random(31))
    confirm(client, confirmation)
    _, turn = keeper.wait_for(BEN, 2)
    game = messages.game_label(["Ada", "Ben"], "ja")
    assert turn["Subject"] == f"Galileo Galilei であなたの手番です（{game}）"  # noqa: RUF001
    body = turn.get_content()
    assert "あなたの手番です（Ben）" in body and "Your turn" not in body and "It is your" not in body  # noqa: RUF001
    assert link_in(body, f"/play/{game_id}") == f"{ORIGIN}/play/{game_id}?lang=ja#seat=1"


def test_ACCT_5_a_bouncing_address_is_marked_and_nothing_else_changes(
    client: TestClient, smtp: tuple[Keeper, int]
) -> None:
    keeper = smtp[0]
    game_id, (ada, ben) = new_game(client)
    given = client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": "bounce@example.org"})
    assert given.status_code == 202
    reach = lambda: client.get(f"/games/{game_id}/reach", headers=bearer(ben)).json()["email"]  # noqa: E731
    wait_until(lambda: reach()["status"] == "bounced", 10, "the address to bounce")
    assert reach()["error"] == "550" and keeper.refused == ["bounce@example.org"]
    # The game plays on; the seat, its token and the log are as they were.
    end_turn(client, game_id, ada, random.Random(5))
    assert client.get(f"/games/{game_id}/moves", headers=bearer(ben)).json()["to_act"] == 1
    assert mails(client, game_id, ben) == []
    # Bad input: an address that is none is refused and nothing is stored.
    bad = client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": "ben at example"})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid-address"
    assert reach()["status"] == "bounced"


def test_without_smtp_mails_are_written_to_the_mail_folder(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "outbox"
    local = replace(settings, bots=False, public_url=ORIGIN, mail_dir=str(folder), webhook_poll_seconds=0.1)
    with TestClient(create_app(local), base_url=ORIGIN) as client:
        game_id, (ada, ben) = new_game(client)
        client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": BEN})
        wait_until(lambda: len(list(folder.glob("*.eml"))) == 1, 10, "the confirmation in the folder")
        (path,) = folder.glob("*.eml")
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(message, EmailMessage) and message["To"] == BEN
        confirm(client, message)
        end_turn(client, game_id, ada, random.Random(3))
        wait_until(lambda: len(list(folder.glob("*.eml"))) == 2, 10, "the turn mail in the folder")
        written = [message_from_bytes(p.read_bytes()) for p in folder.glob("*.eml")]
        turn = [m for m in written if m["List-Unsubscribe"]]
        assert len(turn) == 1 and turn[0]["Subject"] == messages.TURN_SUBJECT.format(game="Ada and Ben")


def test_ACCT_4_an_accounts_address_follows_its_choice_per_game_and_is_erased_with_it(
    client: TestClient, smtp: tuple[Keeper, int], settings: Settings, clock: Clock
) -> None:
    keeper = smtp[0]
    rng = random.Random(4)
    authn = Authenticator(ORIGIN)
    csrf = register(client, authn, "Ben").json()["csrf_token"]
    write = {"X-CSRF-Token": csrf}
    assert client.put("/me/email", json={"address": BEN}).status_code == 403  # CSRF (ACCT-3)
    digest = client.put("/me/email", headers=write, json={"address": BEN, "mode": "digest"})
    assert digest.status_code == 202
    confirm(client, keeper.wait_for(BEN, 1)[0])
    games = [new_game(client) for _ in range(3)]
    for game_id, (_, ben) in games:
        assert claim(client, game_id, ben, csrf).status_code == 200
    quiet = games[2][0]
    choice = client.put(f"/me/games/{quiet}/notifications", headers=write, json={"email": "off"})
    assert choice.status_code == 200
    assert client.get(f"/me/games/{quiet}/notifications").json() == {"email": "off", "push": True}
    assert client.get(f"/me/games/{games[0][0]}/notifications").json() == {"email": None, "push": True}
    for game_id, (ada, _) in games:
        end_turn(client, game_id, ada, rng)
    # The digest leaves at its hour (18:00 UTC), one mail for the two games that want it.
    clock.advance(hours=6, minutes=1)
    (_, day) = keeper.wait_for(BEN, 2)
    assert day["Subject"] == messages.digest_subject("en", 2)
    text = day.get_content()
    assert all(f"/play/{g}#seat=1" in text for g, _ in games[:2]) and quiet not in text
    assert day["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Stored sealed: the database never holds the address in clear.
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        assert BEN not in "\n".join(db.iterdump())
        assert db.execute("SELECT count(*) FROM galileo_mail").fetchone() == (1,)
    assert client.delete("/me", headers=write).status_code == 204
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        assert db.execute("SELECT count(*) FROM galileo_mail").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM galileo_notify_prefs").fetchone() == (0,)


def test_mail_goes_over_starttls_with_the_settings_credentials(settings: Settings, tmp_path: Path) -> None:
    ca, stranger = trustme.CA(), trustme.CA()
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(server_tls)
    for name, authority in (("ca", ca), ("stranger", stranger)):
        authority.cert_pem.write_to_path(str(tmp_path / f"{name}.pem"))
    # The server's certificate is checked: under another CA nothing is sent, and the mail is retried.
    for name, delivered in (("ca", True), ("stranger", False)):
        with serving(tls=server_tls, login=("galileo", "s3cret")) as (keeper, port):
            config = replace(
                mail_settings(settings, port),
                smtp_security="starttls",
                smtp_username="galileo",
                smtp_password="s3cret",
                smtp_ca_file=str(tmp_path / f"{name}.pem"),
                database_url=f"sqlite:///{tmp_path}/{name}.db",
            )
            with TestClient(create_app(config), base_url=ORIGIN) as client:
                game_id, (_, ben) = new_game(client)
                client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": BEN})
                db = runtime_of(client).tables.db
                wait_until(lambda db=db: db.query(OUTBOX) and db.query(OUTBOX)[0][0] >= 1, 10, "an attempt")
                assert (len(keeper.to(BEN)) == 1) is delivered
                assert db.query(OUTBOX)[0][1] == ("delivered" if delivered else "pending")


def test_ACCT_4_a_seat_handed_over_loses_the_address_given_for_it(
    client: TestClient, smtp: tuple[Keeper, int]
) -> None:
    keeper = smtp[0]
    created = client.post(
        "/games", json={"seats": [{"name": "Ada"}, {"name": "Ben"}], "first_seat": 0}
    ).json()
    game_id, ben, host = created["game_id"], created["seats"][1]["token"], created["host_token"]
    client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": BEN})
    confirm(client, keeper.wait_for(BEN, 1)[0])
    handed = client.post(
        f"/games/{game_id}/host/seats/1/handover",
        headers=bearer(host),
        json={"to": "person", "command_id": "h"},
    )
    assert handed.status_code == 200, handed.text
    token = handed.json()["link"]["token"]
    assert client.get(f"/games/{game_id}/reach", headers=bearer(token)).json()["email"] is None
    end_turn(client, game_id, created["seats"][0]["token"], random.Random(8))  # the new person's turn
    assert mails(client, game_id, token) == [] and len(keeper.to(BEN)) == 1


def test_a_turn_mail_lost_between_a_write_and_its_queueing_is_queued_by_the_sweep(
    client: TestClient, smtp: tuple[Keeper, int]
) -> None:
    """A process that dies after storing the move that passed the turn and before queueing its mail: the
    scheduler's periodic re-check queues it (once), as it does for webhooks; a game that is over is no
    longer swept."""
    keeper = smtp[0]
    rng = random.Random(31)
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    created = client.post("/games", json={"seats": seats, "first_seat": 0, "seed": "mail-2"}).json()
    game_id, host = created["game_id"], created["host_token"]
    ada, ben = (s["token"] for s in created["seats"])
    client.put(f"/games/{game_id}/email", headers=bearer(ben), json={"address": BEN})
    (confirmation,) = keeper.wait_for(BEN, 1)
    confirm(client, confirmation)
    runtime = runtime_of(client)
    assert runtime.reach.reached_games() == [game_id]
    end_turn(client, game_id, ada, rng)  # Ben's turn
    keeper.wait_for(BEN, 2)
    runtime.tables.db.execute("DELETE FROM galileo_outbox")  # as if the process died before queueing
    assert mails(client, game_id, ben) == []
    scheduler = runtime.scheduler
    assert scheduler is not None
    client.portal.call(scheduler.tick, True)
    wait_until(
        lambda: [m["status"] for m in mails(client, game_id, ben)] == ["delivered"], 10, "the mail re-sent"
    )
    client.portal.call(scheduler.tick, True)
    assert len(mails(client, game_id, ben)) == 1  # one row per seat, kind and turn
    assert len(keeper.wait_for(BEN, 3)) == 3
    cancelled = client.post(f"/games/{game_id}/host/cancel", headers=bearer(host), json={"command_id": "end"})
    assert cancelled.status_code == 200, cancelled.text
    client.portal.call(scheduler.tick, True)
    assert runtime.reach.reached_games() == []  # over: the sweep reads it no more
