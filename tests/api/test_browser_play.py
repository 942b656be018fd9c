"""The play page at the speed of a board (issue 28), in a real browser (the harness of test_browser.py):

- the desk at 1440 x 900: the main board and the player's own board on one screen; an element with
  several moves opens its choices next to it, the confirm is in the fixed action bar, and nothing moves
  the page; the same decision on a 390 x 844 phone in the bottom sheet (both screenshots are the ones
  committed under docs/images/);
- a whole game clicked with "confirm each move" off: the clicks per step and the time from a click to
  the redrawn board are printed, and the clicks stay at or under 1.3 per step; on the way the player
  undoes twice in a row and restarts the turn from the action bar.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import httpx
import pytest

from tests.api.test_browser import Pages, browser, create, pages, server, shot  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ADA_AND_BOTS = [{"name": "Ada"}, {"bot": "greedy", "name": "Bruno"}, {"bot": "greedy", "name": "Cleo"}]
# In the page: the time from the last click to the board redrawn after it (its `data-ready`), in ms.
FEEDBACK = """
window.clicked = 0; window.drawn = 0;
document.addEventListener('click', () => { window.clicked = performance.now(); }, true);
document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => {
  if (window.drawn < window.clicked) window.drawn = performance.now(); })
  .observe(document.querySelector('#board'), {attributes: true, attributeFilter: ['data-ready']}));
window.feedback = () => window.drawn - window.clicked;
"""
ANY_CHOICE = ".board-svg .target.live, .turn-controls .move, .banner.finished"
BOX = """(selector) => {
  const n = document.querySelector(selector);
  if (!n) return null;
  const r = n.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, hidden: n.hidden};
}"""


def _box(page: Any, selector: str) -> dict[str, Any]:
    found = page.evaluate(BOX, selector)
    assert found is not None, selector
    return dict(found)


def _on_screen(page: Any, box: dict[str, Any], what: str) -> None:
    width, height = page.evaluate("[window.innerWidth, window.innerHeight]")
    assert box["top"] >= 0 and box["left"] >= 0, (what, box)
    assert box["bottom"] <= height + 0.5 and box["right"] <= width + 0.5, (what, box, width, height)


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def _click_js(page: Any, selector: str) -> None:
    """A click as a player's, without the automatic scroll into view of playwright's click: a test
    that the page itself does not move."""
    page.evaluate(
        "(s) => document.querySelector(s).dispatchEvent(new MouseEvent('click', {bubbles: true}))", selector
    )


def _ready(page: Any, version: str | None) -> str:
    page.wait_for_function(
        "(v) => { const r = document.querySelector('#board').dataset.ready; return r && r !== v; }",
        arg=version,
        timeout=30_000,
    )
    return str(page.get_attribute("#board", "data-ready"))


def _to_actions(page: Any) -> str:
    """Move the telescope (the one move of a sky space, confirmed) so that the telescope's space offers
    several moves: its fixed action and its tile's options."""
    page.wait_for_selector(".board-svg .target.live", timeout=60_000)
    version = page.get_attribute("#board", "data-ready")
    _click_js(page, ".board-svg .target.live[data-target^='sky:0:']")
    page.locator("[data-confirm]").click()
    return _ready(page, version)


def _decision_in_progress(page: Any, name: str) -> None:
    """Click the element with the most moves, choose its first move: the element, its choices and
    Confirm are on the screen together, and the page has not moved."""
    key = page.evaluate(
        "() => Array.from(document.querySelectorAll('.board-svg .target.live'))"
        ".sort((a, b) => b.dataset.moves - a.dataset.moves)[0].dataset.target"
    )
    element = f".board-svg [data-target='{key}']"
    # On a phone the player scrolls to the element (on the desk it is on the screen already).
    page.evaluate(
        "(s) => { const n = document.querySelector(s), r = n.getBoundingClientRect();"
        " const bar = document.querySelector('#action-bar').getBoundingClientRect();"
        " if (r.top < 0 || r.bottom > bar.top) n.scrollIntoView({block: 'start'}); }",
        element,
    )
    before = page.evaluate("window.scrollY")
    assert int(page.get_attribute(element, "data-moves") or 0) >= 2
    _click_js(page, element)
    page.wait_for_selector(".selection:not([hidden]) .move", timeout=5_000)
    page.locator(".selection .move").first.click(no_wait_after=True)
    page.wait_for_selector(".confirm:not([hidden]) [data-confirm]", timeout=5_000)
    assert page.evaluate("window.scrollY") == before  # nothing moved the page
    _on_screen(page, _box(page, element), "the clicked element")
    assert _box(page, element)["top"] < _box(page, "#action-bar")["top"]  # not under the bar
    _on_screen(page, _box(page, ".selection"), "its choices")
    if page.locator(".selection.pop").count():  # next to the element: over neither it nor the main board
        choices = _box(page, ".selection")
        assert not _overlap(choices, _box(page, element)), (choices, element)
        if page.evaluate("(s) => !!document.querySelector(s).closest('.board-own')", element):
            assert not _overlap(choices, _box(page, ".board-main .board-svg")), choices
    _on_screen(page, _box(page, "[data-confirm]"), "Confirm")
    words = page.locator(".confirm").inner_text()
    assert "take this back" in words or "cannot be taken back" in words
    shot(page, name)


def test_the_desk_and_the_bottom_sheet_show_a_decision_on_one_screen(server: str, pages: Pages) -> None:  # noqa: F811
    for width, height, name in ((1440, 900, "play-decision-1440x900"), (390, 844, "play-decision-390x844")):
        created = create(server, ADA_AND_BOTS, name)
        page = pages.new(width, height)
        page.goto(f"{server}/play/{created['game_id']}#token={created['seats'][0]['token']}")
        _to_actions(page)
        if width >= 1280:  # the main board and your own board, whole, between the header and the bar
            bar = _box(page, "#action-bar")
            for selector in (".board-main .board-svg", ".board-own .board-svg"):
                board = _box(page, selector)
                _on_screen(page, board, selector)
                assert board["bottom"] <= bar["top"] + 1, (selector, board, bar)
        _decision_in_progress(page, name)
        bar = _box(page, "#action-bar")
        assert abs(bar["bottom"] - height) < 1  # fixed to the bottom: a sheet on the phone
        if width < 900:  # on the phone the choices are in the sheet, not over the board
            assert page.evaluate("document.querySelector('.selection').closest('.action-bar') !== null")
            assert not page.locator(".selection.pop").count()
        else:
            assert page.locator(".selection.pop").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def _step(page: Any, rng: random.Random) -> int:
    """One step with "confirm each move" off: a live element (or a turn control), then its choice
    when it has several, then Confirm only where the page still asks (a wasted reward). The clicks."""
    live = page.locator(".board-svg .target.live")
    controls = page.locator(".turn-controls .move")
    choices = [("board", i) for i in range(live.count())] + [("control", i) for i in range(controls.count())]
    if not choices:
        return 0
    controlled = [c for c in choices if c[0] == "control"]
    kind, index = rng.choice(controlled if controlled and rng.random() < 0.5 else choices)
    clicks = 1
    (live if kind == "board" else controls).nth(index).click(timeout=5_000, no_wait_after=True)
    if page.locator(".selection:not([hidden]) .move").count():
        options = page.locator(".selection .move")
        options.nth(rng.randrange(options.count())).click(timeout=5_000)
        clicks += 1
    if page.locator(".confirm:not([hidden]) [data-confirm]").count():
        page.locator("[data-confirm]").click(timeout=5_000)
        clicks += 1
    return clicks


def _undo(page: Any, label: str) -> None:
    version = page.get_attribute("#board", "data-ready")
    page.locator("#bar-undo button", has_text=label).click(timeout=10_000)
    _ready(page, version)


def test_clicked_with_confirm_off_at_most_1_3_clicks_a_step(server: str, pages: Pages) -> None:  # noqa: F811
    """The first CLICKED_STEPS steps of a game (and two undos); the whole game: the soak test below."""
    _clicked_with_confirm_off(server, pages, CLICKED_STEPS)


@pytest.mark.soak
def test_a_whole_game_clicked_with_confirm_off_at_most_1_3_clicks_a_step(server: str, pages: Pages) -> None:  # noqa: F811
    _clicked_with_confirm_off(server, pages, None)


CLICKED_STEPS = 40  # Ada's steps: several turns of every phase, and the undos of one of them


def _clicked_with_confirm_off(server: str, pages: Pages, most: int | None) -> None:  # noqa: F811
    """Ada plays by clicking with confirm off until the game ends (or `most` steps, once the undos are
    done); each step takes at most 1.3 clicks on average."""
    created = create(server, ADA_AND_BOTS, "clicks")
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = pages.new(1440, 900)
    page.add_init_script("localStorage.setItem('galileo:confirm-each-move', '0')")
    page.add_init_script(FEEDBACK)
    page.goto(f"{server}/play/{game_id}#token={token}")
    rng = random.Random(28)
    clicks = steps = 0
    waits: list[float] = []
    undone = False
    deadline = time.monotonic() + 420
    while most is None or steps < most or not undone:
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_selector(ANY_CHOICE, state="attached", timeout=60_000)
        if page.locator(".banner.finished").count():
            break
        version = page.get_attribute("#board", "data-ready")
        made = _step(page, rng)
        if not made:
            time.sleep(0.05)
            continue
        try:
            _ready(page, version)
        except Exception:  # the click landed while the board was redrawn: nothing was sent
            continue
        waits.append(page.evaluate("window.feedback()"))
        clicks += made
        steps += 1
        if not undone and page.locator("#bar-undo button", has_text="Restart my turn").count():
            # Two steps of this turn stand: undo twice in a row, then play on (take-backs repeat).
            _undo(page, "Undo")
            page.wait_for_selector("#bar-undo button", timeout=10_000)
            _undo(page, "Undo")
            undone = True
    assert undone, "no turn with two steps to undo"
    board = httpx.get(f"{server}/games/{game_id}").json()
    if most is None:
        assert board["status"] == "finished"
    else:
        assert steps >= most, steps  # the game went on for all of them
    per_step = clicks / steps
    p50 = statistics.median(waits)
    p90 = statistics.quantiles(waits, n=10)[-1]
    print(f"confirm off: {clicks} clicks for {steps} steps = {per_step:.2f} clicks a step; ", end="")
    print(f"click to board p50 {p50:.0f} ms, p90 {p90:.0f} ms")
    assert per_step <= 1.3, per_step
    # Issue 28: from the click that sends a move to the board redrawn, p50 <= 150 ms on loopback. The
    # whole game (soak, a quiet machine) holds the target; the 40 steps of every run share two cores with
    # the rest of the suite (CI machines differ ~3x), so they hold a bound that only a regression breaks.
    assert p50 <= (150 if most is None else 450), p50


# -- the smaller defects (each check fails on the page before issue 28) ------------------------------


def _ada(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _drive_until(
    url: str, game_id: str, token: str, found: Any, rng: random.Random, seconds: float = 90
) -> dict[str, Any]:
    """Play Ada's moves over HTTP (the bots play theirs) until `found(listing)` says the listing of her
    moves is the one wanted; that listing."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        listing = httpx.get(f"{url}/games/{game_id}/moves", headers=_ada(token)).json()
        if listing["to_act"] != listing["seat"] or not listing["moves"]:
            assert httpx.get(f"{url}/games/{game_id}").json()["status"] != "finished", "the game ended"
            time.sleep(0.05)
            continue
        if found(listing):
            return dict(listing)
        move = rng.choice(listing["moves"])
        body = {
            "command": move,
            "expected_version": listing["version"],
            "command_id": f"d{listing['version']}",
        }
        httpx.post(f"{url}/games/{game_id}/commands", headers=_ada(token), json=body)
    raise AssertionError("the position looked for did not come")


def _ask(page: Any, text: str) -> str:
    """Choose a move from the list of every legal move; the confirm's words."""
    page.locator("#move-list details.all").evaluate("(d) => d.open = true")
    page.locator(f'#move-list .move[data-move="{text}"]').click()
    page.wait_for_selector(".confirm:not([hidden])", timeout=5_000)
    return str(page.locator(".confirm").inner_text())


def test_true_texts_the_moon_passing_u_take_backs_and_wasted_rewards(server: str, pages: Pages) -> None:  # noqa: F811
    """LUNA-22: the Moon shows one cost, the top Observation tile's, never a cost per tile; MOV-3: a move
    past U claims no Quadrant; the confirm warns of a reward that will be wasted and why, and says
    "cannot be taken back" only for a step the take-back horizon (ASYNC-7) indeed closes."""
    created = create(server, ADA_AND_BOTS, "true-texts", luna=True)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    rng = random.Random(5)

    def wraps(listing: dict[str, Any]) -> bool:
        return any(
            e["type"] == "TelescopeMoved" and e["wrapped"] for p in listing["previews"] for e in p["events"]
        )

    listing = _drive_until(server, game_id, token, wraps, rng)
    page = pages.new(1440, 900)
    page.goto(f"{server}/play/{game_id}#token={token}")
    page.wait_for_selector(f'#board[data-ready="{listing["version"]}"]', timeout=30_000)
    board = httpx.get(f"{server}/games/{game_id}").json()
    moon_texts = page.locator('.board-svg g[data-kind="moon"]').all_text_contents()
    assert moon_texts and not any("cost" in t for t in moon_texts), moon_texts  # no cost per tile
    labels = page.eval_on_selector_all('.board-svg g[data-kind="moon"]', "(ns) => ns.map((n) => n.ariaLabel)")
    assert not any("cost" in str(label) for label in labels)
    assert page.get_attribute('[data-kind="moon-cost"]', "data-cost") == str(
        board["state"]["luna"]["costs"][0]
    )
    index = next(
        i
        for i, p in enumerate(listing["previews"])
        if any(e["type"] == "TelescopeMoved" and e["wrapped"] for e in p["events"])
    )
    words = _ask(page, listing["moves"][index]["text"])
    assert "round past U" in words and "Quadrant" not in words, words  # MOV-3 grants nothing
    assert "You can take this back" in words
    page.locator("[data-confirm]").click()
    page.wait_for_function(
        "(v) => document.querySelector('#board').dataset.ready !== v", arg=str(listing["version"])
    )
    history = page.locator("#history").inner_text()
    assert "round past U" in history and "passing U" not in history

    def wastes(listing: dict[str, Any]) -> bool:
        return any(p["warnings"] for p in listing["previews"]) and any(
            not p["undoable"] for p in listing["previews"]
        )

    listing = _drive_until(server, game_id, token, wastes, rng, 240)
    page.wait_for_selector(f'#board[data-ready="{listing["version"]}"]', timeout=30_000)
    for move, preview in zip(listing["moves"], listing["previews"], strict=True):
        if not preview["warnings"] and preview["undoable"]:
            continue
        words = _ask(page, move["text"])
        for warning in preview["warnings"]:
            assert f"Wasted: {warning}" in words, words
        assert ("cannot be taken back" in words) == (not preview["undoable"]), words
        page.keyboard.press("Escape")


def test_lobby_columns_rules_links_luna_and_a_bad_link(server: str, pages: Pages) -> None:  # noqa: F811
    """The lobby at 1440 px shows every column of the new-game seats; a Luna game is marked; every page
    links the rules; a wrong or re-issued seat link shows the board as a spectator sees it, saying the
    link is no longer valid (not a blank board and "Unauthorized")."""
    created = create(server, ADA_AND_BOTS, "lobby-luna", luna=True)
    game_id = created["game_id"]
    lobby = pages.new(1440, 900)
    lobby.goto(f"{server}/")
    lobby.wait_for_selector(f'#games code[title="{game_id}"]', timeout=30_000)
    form = _box(lobby, "#create")
    for selector in ("#seats select[name=character]", "#seats select[name=side]"):
        for box in lobby.eval_on_selector_all(
            selector, "(ns) => ns.map((n) => n.getBoundingClientRect().toJSON())"
        ):
            assert box["right"] <= form["right"] + 1 and box["width"] > 40, (selector, box, form)
    assert lobby.evaluate(
        "(() => { const t = document.querySelector('#create .table-scroll');"
        " return t.scrollWidth <= t.clientWidth; })()"
    )
    row = lobby.locator("#games tr", has=lobby.locator(f'code[title="{game_id}"]'))
    assert row.locator(".badge.luna").inner_text() == "Luna"
    assert "with or without Luna" in lobby.locator("#create").inner_text()
    # The clock (docs/async.md): 3 hours a turn with a day's reserve, the seat forfeiting at the end.
    lobby.select_option("#clock-kind", "per_move")
    lobby.fill("#clock-per-move", "3")
    lobby.select_option("#clock-per-move-unit", "H")
    lobby.fill("#clock-reserve", "1")
    assert lobby.locator("[data-clock=base]").is_hidden()
    lobby.select_option("#clock-timeout", "forfeit")
    lobby.locator('#create [type="submit"]').click()
    link = lobby.wait_for_selector("#created a[href*='/play/']", timeout=30_000).get_attribute("href")
    clocked = link.split("/play/")[1].split("#")[0]
    config = httpx.get(f"{server}/games/{clocked}/table").json()["clock"]["config"]
    assert config == {"per_move": "PT10800S", "reserve": "PT86400S", "on_timeout": "forfeit", "bot": "greedy"}
    page = pages.new(1440, 900)
    page.goto(f"{server}/play/{game_id}#token=gg_not-a-seat-token")
    page.wait_for_selector(".board-svg", timeout=30_000)
    page.wait_for_selector(".link-invalid", timeout=10_000)
    assert "no longer valid" in page.locator(".link-invalid").inner_text()
    assert "spectator" in page.locator("#who").inner_text()
    page.wait_for_function("() => !document.querySelector('#table-problem').textContent", timeout=15_000)
    assert "Unauthorized" not in page.locator("body").inner_text()
    assert "Seat 0" not in page.locator("body").inner_text()
    pages.errors[:] = [e for e in pages.errors if "401" not in e]  # the refused token's requests
    for where in (lobby, page):
        assert where.locator('header a[href="/rules"]').count() == 1
    replay = pages.new(1440, 900)
    replay.goto(f"{server}/replay/{game_id}")
    assert replay.locator('header a[href="/rules"]').count() == 1
    rules = httpx.get(f"{server}/rules", headers={"Accept": "text/html"}).text
    assert 'href="/"' in rules and 'href="/rules"' in rules
