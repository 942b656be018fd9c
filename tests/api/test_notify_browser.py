"""Issue 29's Must show, in Chromium (Debian's, driven by playwright): two browser contexts, two people.

A signs in with a passkey (Chromium's virtual authenticator), gives an email address (confirmed through
the link of the mail a local aiosmtpd receives) and a push subscription (its endpoint a local listener),
creates a game and claims seat 0; B opens seat 1 by its link; A's context is closed; B plays his turn by
clicking; B's move sends A a mail (received by aiosmtpd) and a push (decrypted at the local endpoint with
the subscription's keys, VAPID checked). A signs in from a new context (the passkey synced to it), finds
the game under My games, opens it and plays. There the service worker (/sw.js) shows the pushed message
when it is delivered through the DevTools protocol (`ServiceWorker.deliverPushMessage`).

One test: a browser, a server, an SMTP server and a push endpoint cost seconds on this machine.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
import uvicorn

from api import messages
from api.app import create_app
from api.settings import Settings
from tests.api.async_helpers import Listener
from tests.api.helpers import free_port, wait_until
from tests.api.mailbox import Keeper, mailbox
from tests.api.pushbox import Device, check_vapid
from tests.api.test_browser import _play_by_clicking, browser, shot  # noqa: F401  (the module's one browser)
from tests.api.test_passkeys_browser import device

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ADA, BEN = "ada@example.org", "ben@example.org"


@pytest.fixture
def smtp() -> Iterator[tuple[Keeper, int]]:
    yield from mailbox()


@pytest.fixture
def endpoint() -> Iterator[Listener]:
    listener = Listener().start()
    try:
        yield listener
    finally:
        listener.stop()


@pytest.fixture
def site(settings: Settings, smtp: tuple[Keeper, int]) -> Iterator[str]:
    port = free_port()
    url = f"http://localhost:{port}"
    config = replace(
        settings,
        public_url=url,
        bots=False,
        smtp_host="127.0.0.1",
        smtp_port=smtp[1],
        smtp_security="none",
        webhook_allow_networks=("127.0.0.1/32",),  # the local push endpoint
        webhook_poll_seconds=0.1,
    )
    server = uvicorn.Server(
        uvicorn.Config(create_app(config), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, 10, "the server to start")
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def to_act(site: str, game_id: str) -> Any:
    return httpx.get(f"{site}/games/{game_id}").json()["state"]["turn"]["seat"]


def write(page: Any, method: str, path: str, body: Any) -> Any:
    """A cookie-authenticated write from the page, with the session's CSRF token (ACCT-3)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const me = await (await fetch("/me")).json();
            const answer = await fetch(path, {method, body: JSON.stringify(body),
                headers: {"Content-Type": "application/json", "X-CSRF-Token": me.csrf_token}});
            return {status: answer.status, body: answer.status === 204 ? null : await answer.json()};
        }""",
        [method, path, body],
    )


def test_must_show_a_closed_tab_is_told_by_mail_and_push_and_plays_from_another_device(
    browser: Any,  # noqa: F811  (the fixture imported above)
    site: str,
    smtp: tuple[Keeper, int],
    endpoint: Listener,
) -> None:
    keeper = smtp[0]
    errors: list[str] = []
    rng = random.Random(2929)

    # A: a passkey account, an address confirmed by its mail's link, a push subscription.
    context_a, page_a, cdp_a, authenticator_a = device(browser, errors)
    page_a.goto(f"{site}/account")
    page_a.fill("#name", "Ada")
    page_a.click("#register button[type=submit]")
    page_a.wait_for_selector("#notifications-section:not([hidden])")
    page_a.fill("#email", ADA)
    page_a.click("#email-form button[type=submit]")
    page_a.wait_for_selector("#email-status[data-status=pending]")
    shot(page_a, "account-notifications")
    (confirmation,) = keeper.wait_for(ADA, 1)
    link = next(w for w in confirmation.get_content().split() if "/mail/confirm?" in w)
    page_a.goto(link)
    page_a.click("#confirm")
    page_a.wait_for_selector("text=" + messages.PAGE_CONFIRMED)
    phone = Device(endpoint.url + "/ada-phone")
    assert write(page_a, "PUT", "/me/push", phone.subscription)["status"] == 204

    # A creates a game (B moves first) and claims seat 0.
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    created = page_a.evaluate(
        """async (body) => (await (await fetch("/games", {method: "POST", body: JSON.stringify(body),
            headers: {"Content-Type": "application/json"}})).json())""",
        {"seats": seats, "first_seat": 1, "seed": "must-show-29"},
    )
    game_id = created["game_id"]
    token_a, token_b = (s["token"] for s in created["seats"])
    page_a.goto(f"{site}/play/{game_id}#token={token_a}")
    page_a.wait_for_selector("#board[data-ready]")
    page_a.click("#claim-seat")
    page_a.wait_for_selector("#claimed-note")
    (credential,) = cdp_a.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_a})["credentials"]
    context_a.close()  # A's tab is closed: only mail and push reach A now

    # B plays seat 1 by its link, by clicking, until the turn passes to A.
    context_b = browser.new_context()
    page_b = context_b.new_page()
    page_b.on("pageerror", lambda e: errors.append(f"{page_b.url}: {e}"))
    page_b.goto(f"{site}/play/{game_id}#token={token_b}")
    page_b.wait_for_selector("#board[data-ready]")
    page_b.fill("#seat-mail-address", BEN)  # B has no account: an address for his seat
    page_b.click("#seat-mail-form button[type=submit]")
    page_b.wait_for_selector("#seat-mail-status:has-text('confirmation mail')")
    assert keeper.wait_for(BEN, 1)[0]["Subject"] == messages.CONFIRM_SUBJECT
    shot(page_b, "play-seat-mail")
    _play_by_clicking(page_b, site, game_id, rng, lambda _: to_act(site, game_id) != 1)
    assert to_act(site, game_id) == 0

    # The mail and the push of A's turn.
    (_, turn) = keeper.wait_for(ADA, 2)
    assert turn["Subject"] == messages.TURN_SUBJECT.format(game="Ada and Ben")
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f"{site}/play/{game_id}#seat=0" in turn.get_content()
    wait_until(lambda: endpoint.calls, 10, "the push")
    (call,) = endpoint.calls
    key = httpx.get(f"{site}/push/key").json()["public_key"]
    check_vapid(call, key, phone.endpoint, "mailto:galileo@localhost")
    pushed = phone.open(call)
    assert pushed["url"] == f"{site}/play/{game_id}#seat=0" and "(Ada)" in pushed["body"]

    # A, on another device (the passkey synced to it): My games, open the seat, play.
    context_c, page_c, cdp_c, authenticator_c = device(browser, errors)
    cdp_c.send("WebAuthn.addCredential", {"authenticatorId": authenticator_c, "credential": credential})
    page_c.goto(f"{site}/account")
    page_c.click("#sign-in")
    page_c.wait_for_selector("#my-games[data-ready]")
    row = page_c.locator(f"#my-games tr[data-game='{game_id}']")
    assert "yours" in row.inner_text()
    row.locator("a.open-seat").click()
    page_c.wait_for_selector("#board[data-ready]")
    wait_until(lambda: "playing seat 0" in (page_c.text_content("#who") or ""), 10, "the seat to open")
    before = httpx.get(f"{site}/games/{game_id}").json()["version"]
    _play_by_clicking(page_c, site, game_id, rng, lambda counts: sum(counts.values()) > 0)
    events = httpx.get(f"{site}/games/{game_id}/events", params={"after": before}).json()["events"]
    assert events and all(e["actor"] == 0 for e in events), events  # A moved (as seat 0)

    # The service worker of this device shows the pushed turn (delivered through DevTools).
    context_c.grant_permissions(["notifications"], origin=site)
    registrations: list[dict[str, Any]] = []
    cdp_c.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp_c.send("ServiceWorker.enable")
    page_c.evaluate(
        "navigator.serviceWorker.register('/sw.js', {scope: '/'}).then(() => navigator.serviceWorker.ready)"
    )
    wait_until(lambda: any(r["scopeURL"] == f"{site}/" for r in registrations), 10, "the service worker")
    registration = next(r for r in registrations if r["scopeURL"] == f"{site}/")["registrationId"]
    cdp_c.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": site, "registrationId": registration, "data": json.dumps(pushed)},
    )
    shown = lambda: page_c.evaluate(  # noqa: E731
        "async () => (await (await navigator.serviceWorker.ready).getNotifications())"
        ".map(n => ({title: n.title, body: n.body, url: n.data.url}))"
    )
    wait_until(shown, 10, "the notification")
    assert shown() == [{"title": pushed["title"], "body": pushed["body"], "url": pushed["url"]}]
    context_b.close()
    context_c.close()
    assert errors == []
