"""Table chat in a real browser (issue 30, "Must show"): two signed-in people chat at a game from its play
page, a signed-in spectator's message appears only in the spectators' channel, and the game's export holds
no chat (CHAT-1); a seat mutes the spectator and the table host unmutes them from the panel (CHAT-4); a
message written after the game ended reaches the page though its stream has closed. The people are
signed in with a session cookie put in their browser contexts (the passkey ceremony itself runs in
test_passkeys_browser.py). One test: a browser start and a server cost
seconds on this machine. Skipped without chromium or playwright unless GALILEO_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from api.app import create_app
from api.sessions import COOKIE
from api.settings import Settings
from tests.api.community_helpers import MixedBot, play_out
from tests.api.helpers import free_port, wait_until
from tests.api.people import Person, person
from tests.api.test_browser import browser, shot  # noqa: F401  (the module's one browser: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def site(settings: Settings) -> Iterator[tuple[str, FastAPI]]:
    port = free_port()
    url = f"http://localhost:{port}"
    app = create_app(replace(settings, public_url=url, bots=False, clocks=False))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, 10, "the server to start")
        yield url, app
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def open_page(browser: Any, url: str, who: Person, errors: list[str]) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    context.add_cookies([{"name": COOKIE, "value": who.token, "url": url}])
    page = context.new_page()
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    return page


def write(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


def test_two_people_chat_and_a_spectator_writes_only_in_the_spectators_channel(
    browser: Any,  # noqa: F811  (the fixture imported above)
    site: tuple[str, FastAPI],
) -> None:
    url, app = site
    runtime = app.state.runtime
    ada, ben, cleo = (person(runtime, name) for name in ("Ada", "Ben", "Cleo"))
    seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
    created = httpx.post(f"{url}/games", json={"seats": seats, "first_seat": 0}).json()
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    for who, token in zip((ada, ben), tokens, strict=True):  # each attaches their seat (ACCT-1)
        claimed = httpx.post(
            f"{url}/games/{game_id}/claim",
            json={"command_id": f"claim-{who.account.name}"},
            headers={"Authorization": f"Bearer {token}", **who.headers()},
        )
        assert claimed.status_code == 200, claimed.text

    errors: list[str] = []
    pages = []
    for who, token in ((ada, tokens[0]), (ben, tokens[1]), (cleo, None)):
        page = open_page(browser, url, who, errors)
        page.goto(f"{url}/play/{game_id}" + (f"#token={token}" if token else ""))
        pages.append(page)
    ada_page, ben_page, cleo_page = pages
    for page in pages:
        page.wait_for_selector("#chat-form:not([hidden])")
    seats_of = lambda page: page.locator("#chat-seats .chat-text").all_inner_texts()  # noqa: E731
    spectators_of = lambda page: page.locator("#chat-spectators .chat-text").all_inner_texts()  # noqa: E731

    write(ada_page, "Good luck, Ben!")
    wait_until(lambda: seats_of(ben_page) == ["Good luck, Ben!"], 10, "Ada's message on Ben's page")
    write(ben_page, "Thanks, you too")
    wait_until(lambda: seats_of(ada_page) == ["Good luck, Ben!", "Thanks, you too"], 10, "Ben's reply")
    assert "spectators' channel" in cleo_page.inner_text("#chat-where")
    assert "seats' channel" in ada_page.inner_text("#chat-where")
    write(cleo_page, "What an opening")
    for page in pages:
        wait_until(lambda p=page: spectators_of(p) == ["What an opening"], 10, "the spectator's message")
        assert "What an opening" not in seats_of(page)
    assert seats_of(cleo_page) == ["Good luck, Ben!", "Thanks, you too"]

    ada_page.click("#chat-spectators .chat-mute")  # a seat mutes the spectator (CHAT-4)
    ada_page.wait_for_selector("#chat-spectators .chat-unmute")
    write(cleo_page, "Boo")
    wait_until(lambda: "chat-muted" in cleo_page.inner_text("#chat-problem"), 10, "the muted one refused")
    errors.remove(next(e for e in errors if "status of 403" in e))  # the browser logs that refused write
    assert spectators_of(ada_page) == ["What an opening"]
    host_page = browser.new_context().new_page()  # the table host, no seat: its pasted token mutes too
    host_page.goto(f"{url}/play/{game_id}")
    host_page.fill("#host-token", created["host_token"])
    host_page.locator("#host-form button[type=submit]").click()
    host_page.click("#chat-spectators .chat-unmute")
    host_page.wait_for_selector("#chat-spectators .chat-mute")
    host_page.context.close()
    write(cleo_page, "Sorry")
    wait_until(lambda: spectators_of(ada_page) == ["What an opening", "Sorry"], 10, "the unmuted spectator")

    play_out(runtime, game_id, [MixedBot(0.0, "a"), MixedBot(0.0, "b")], "chat")  # the game ends
    wait_until(lambda: "ended" in ada_page.inner_text("#live"), 15, "the stream's end on Ada's page")
    said = httpx.post(
        f"{url}/games/{game_id}/chat",
        json={"text": "Well played"},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert said.status_code == 201, said.text
    # the stream has closed at the end: the panel looks for new messages every few seconds
    wait_until(lambda: "Well played" in seats_of(ada_page), 15, "a message written after the end")
    ada_page.locator("#chat-panel").scroll_into_view_if_needed()
    shot(ada_page, "chat-play")

    export = httpx.get(f"{url}/games/{game_id}/export").text
    for text in ("Good luck", "Thanks, you too", "What an opening", "Well played"):
        assert text not in export
    assert "What an opening" in httpx.get(f"{url}/games/{game_id}/export?chat=1").text
    assert not errors, errors
