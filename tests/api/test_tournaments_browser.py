"""The tournaments page in a real browser (issue 30): a signed-in person creates a Swiss tournament from
the form, it appears in the list, they enter and withdraw from it; a second person enters too (GET
/tournaments, POST /tournaments and its entries with the session's CSRF token). One test: a browser start
and a server cost seconds on this machine. Skipped without chromium or playwright unless
GALILEO_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.helpers import wait_until
from tests.api.people import person
from tests.api.test_browser import browser, shot  # noqa: F401  (the module's one browser: a fixture)
from tests.api.test_chat_browser import open_page, site  # noqa: F401  (a live server: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_signed_in_person_creates_enters_and_withdraws_from_a_tournament(
    browser: Any,  # noqa: F811  (the fixture imported above)
    site: tuple[str, FastAPI],  # noqa: F811
) -> None:
    url, app = site
    runtime = app.state.runtime
    ada, ben = person(runtime, "Ada"), person(runtime, "Ben")
    errors: list[str] = []
    page = open_page(browser, url, ada, errors)
    page.goto(f"{url}/")
    page.click("header a[href='/tournaments']")  # linked from the lobby
    page.wait_for_selector("#tournament-create:not([hidden])")
    assert not page.is_visible("#clock [data-clock=base]")  # the clock kind shows its own fields
    page.select_option("#tournament-format", "round-robin")
    assert not page.is_visible("#tournament-rounds")  # round robin: the schedule's number of rounds
    page.select_option("#tournament-format", "swiss")
    page.fill("#tournament-name", "Winter cup")
    page.select_option("#tournament-seats", "2")
    page.fill("#tournament-rounds", "2")
    page.select_option("#clock-per-move-unit", "H")
    page.click("#tournament-create button[type=submit]")
    row = page.locator("#tournaments-list tr", has_text="Winter cup")
    row.wait_for()
    listed = httpx.get(f"{url}/tournaments").json()["tournaments"]
    assert [(t["name"], t["format"], t["seats"], t["rounds"]) for t in listed] == [
        ("Winter cup", "swiss", 2, 2)
    ]
    assert listed[0]["clock"]["per_move"] == "PT7200S" and listed[0]["clock"]["on_timeout"] == "forfeit"
    tid = listed[0]["tournament_id"]
    assert httpx.post(f"{url}/tournaments/{tid}/entries", headers=ben.headers()).status_code == 200
    page.reload()
    row.get_by_role("button", name="Enter").click()
    wait_until(lambda: "(you are in)" in row.inner_text(), 10, "Ada's entry")
    assert row.locator("td").nth(5).inner_text().startswith("2")
    assert row.get_by_role("button", name="Start").count() == 1 and "2 hours a turn" in row.inner_text()
    shot(page, "tournaments")
    row.get_by_role("button", name="Withdraw").click()
    wait_until(lambda: "(you are in)" not in row.inner_text(), 10, "Ada's withdrawal")
    assert row.locator("td").nth(5).inner_text().startswith("1")
    anonymous = browser.new_context().new_page()
    anonymous.goto(f"{url}/tournaments")
    anonymous.wait_for_selector("#tournament-create-signed-out:not([hidden])")
    assert anonymous.locator("#tournaments-list tr", has_text="Winter cup").get_by_role("button").count() == 0
    anonymous.context.close()
    assert not errors, errors
