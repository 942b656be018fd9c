"""Passkeys in a real browser (issue 29): Debian's chromium with its virtual authenticator (DevTools
`WebAuthn.addVirtualAuthenticator` through playwright's CDP session) registers an account on the account
page, signs out and in again with the discoverable credential, claims a seat on the play page; then a
second context (another device, the passkey synced to it: `WebAuthn.addCredential`) signs in, finds the
game under My games and opens the seat there (ACCT-2): the first device's token stops working.

One test: a browser start and a server cost seconds on this machine. The server runs in this process on
`localhost` (an IP address cannot be a relying party's ID). Skipped without chromium or playwright unless
GALILEO_REQUIRE_SERVICES=1, like tests/api/test_browser.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
import uvicorn

from api.app import create_app
from api.settings import Settings
from tests.api.helpers import free_port, wait_until
from tests.api.test_browser import browser  # noqa: F401  (the module's one browser: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.fixture
def site(settings: Settings) -> Iterator[str]:
    port = free_port()
    url = f"http://localhost:{port}"
    app = create_app(replace(settings, public_url=url, bots=False))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, 10, "the server to start")
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def device(browser: Any, errors: list[str]) -> tuple[Any, Any, Any, str]:  # noqa: F811
    """A new context (a device) with its page, the page's CDP session and its virtual authenticator."""
    context = browser.new_context()
    page = context.new_page()
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})[
        "authenticatorId"
    ]
    return context, page, cdp, authenticator


def test_passkey_registers_signs_in_claims_and_opens_the_seat_on_another_device(
    browser: Any,  # noqa: F811  (the fixture imported above)
    site: str,
) -> None:
    errors: list[str] = []
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    created = httpx.post(f"{site}/games", json={"seats": seats, "first_seat": 0}).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]

    context, page, cdp, authenticator = device(browser, errors)
    page.goto(f"{site}/account")
    page.fill("#name", "Ada")
    page.click("#register button[type=submit]")
    page.wait_for_selector("#signed-in:not([hidden])")
    assert page.text_content("#account-name") == "Ada"
    (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    cookie = next(c for c in context.cookies() if c["name"] == "galileo_session")
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # no script reads the session
    page.click("#sign-out")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.click("#sign-in")  # the discoverable credential: no name asked
    page.wait_for_selector("#signed-in:not([hidden])")

    page.goto(f"{site}/play/{game_id}#token={token}")
    page.wait_for_selector("#board[data-ready]")
    page.click("#claim-seat")
    page.wait_for_selector("#claimed-note")
    events = httpx.get(f"{site}/games/{game_id}/events").json()["events"]
    assert events[-1]["type"] == "SeatClaimed" and events[-1]["event"]["seat"] == 0

    # Another device: the passkey synced to it (as it is now: its signature counter too), no seat link.
    (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    context.close()  # the first device is put away (its open page would see its token revoked: a 401)
    other, page_b, cdp_b, authenticator_b = device(browser, errors)
    cdp_b.send("WebAuthn.addCredential", {"authenticatorId": authenticator_b, "credential": credential})
    page_b.goto(f"{site}/account")
    page_b.click("#sign-in")
    page_b.wait_for_selector("#my-games[data-ready]")
    row = page_b.locator(f"#my-games tr[data-game='{game_id}']")
    assert "yours" in row.inner_text()
    row.locator("a.open-seat").click()
    page_b.wait_for_selector("#board[data-ready]")
    wait_until(lambda: "playing seat 0" in (page_b.text_content("#who") or ""), 10, "the seat to open")
    assert (
        httpx.get(f"{site}/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}).status_code
        == 401
    )
    assert httpx.get(f"{site}/games/{game_id}/events").json()["events"][-1]["type"] == "SeatRecovered"
    other.close()
    assert errors == []
