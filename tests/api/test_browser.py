"""The web pages in a real browser: Debian's chromium driven by playwright (no browser download).

One browser for the module and one `galileo serve` (on SQLite in a temporary folder) per test session (per
worker under pytest-xdist). Without chromium (or playwright) the tests are skipped with the reason, unless
GALILEO_REQUIRE_SERVICES=1 (CI), where they fail. Screenshots go to artefacts/browser/ (ignored by git).

- a game (one person and two bots) played by clicking the board's elements (and the turn controls beside
  it for the moves that involve no element), never the list of all moves: until the person has made every
  kind of decision (move, action, effect, Cleanup), the rest over HTTP; the whole game by clicking in
  `make soak`;
- at several versions of a seeded Luna game, every element kind the board draws agrees with the API's
  board view (telescopes, tile faces, dice, cellar, Book tokens, University, scores, display, ...);
- the replay page's scrubber, keyboard steps, history and view-as after the end; its analysis (the
  win-probability graph, mistake marks that jump to the move);
- /docs and /redoc render with every other origin blocked;
- 390 x 844: no horizontal overflow on any page; no console error or page error anywhere.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import Table, play_turns
from tests.api.servers import ServeProcess
from tests.fixtures import release_games

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ROOT / "artefacts" / "browser"
CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def _chromium() -> str | None:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return found or next((p for p in CHROMIUM_PATHS if Path(p).exists()), None)


def _unavailable(reason: str) -> None:
    if os.environ.get("GALILEO_REQUIRE_SERVICES") == "1":
        pytest.fail(f"GALILEO_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(f"browser unavailable: {reason}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One browser for the tests of this module (per worker). Module scope, not session: playwright's sync
    API marks an event loop as running in this thread while it is started, and tests of other modules
    that call asyncio.run() must not run meanwhile; pytest closes a module's fixtures before it moves on."""
    executable = _chromium()
    if executable is None:
        _unavailable("no chromium on this machine (apt-get install chromium; .ci/run does it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser-serve")
    # No rate limit on commands and reads: a test plays the rest of a clicked game over HTTP as fast as
    # it can, while its pages read the board after every event.
    env = {
        "GALILEO_DATABASE_URL": f"sqlite:///{folder}/games.db",
        "REDIS_URL": "",
        "GALILEO_RATE_COMMAND": "off",
        "GALILEO_RATE_READ": "off",
    }
    with ServeProcess(folder, env, "serve") as process:
        yield process.url


class Pages:
    """New pages with their console errors and page errors collected; each test asserts there are none."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.contexts: list[Any] = []

    def new(self, width: int = 1400, height: int = 1000, offline: str | None = None) -> Any:
        context = self.browser.new_context(viewport={"width": width, "height": height})
        self.contexts.append(context)
        if offline is not None:  # only this origin answers: a request anywhere else fails
            context.route(
                "**/*",
                lambda route: route.continue_() if route.request.url.startswith(offline) else route.abort(),
            )
        page = context.new_page()
        page.on(
            "console", lambda m: self.errors.append(f"{page.url}: {m.text}") if m.type == "error" else None
        )
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.errors, f"console or page errors: {opened.errors}"


def shot(page: Any, name: str, full: bool = False) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=full)


def wait_for(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def create(server: str, seats: list[dict[str, Any]], seed: str, luna: bool = False) -> dict[str, Any]:
    response = httpx.post(f"{server}/games", json={"seats": seats, "seed": seed, "options": {"luna": luna}})
    assert response.status_code == 201, response.text
    return dict(response.json())


def finished_game(server: str, seed: str, luna: bool) -> str:
    created = create(server, [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}], seed, luna)
    game_id = str(created["game_id"])
    wait_for(
        lambda: httpx.get(f"{server}/games/{game_id}").json()["status"] == "finished", 90, "the bots' game"
    )
    return game_id


def click(locator: Any) -> bool:
    """Click; False when the element went away meanwhile (the board was redrawn by a live update)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.click(timeout=5_000)
    except PlaywrightTimeout:
        return False
    return True


def no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"{page.url}: {width} px wide in a {viewport} px viewport"


# -- playing -----------------------------------------------------------------------------------------


# What the person decides, by the game's state when the board offers the choice: a telescope move, an
# action, an effect still to resolve (the agenda), a choice in Cleanup.
KINDS = ("movement", "actions", "effect", "cleanup")


def _decision_kind(server: str, game_id: str) -> str:
    state = httpx.get(f"{server}/games/{game_id}").json()["state"]
    return "effect" if state["agenda"] else str(state["turn"]["phase"])


def confirm_and_wait(page: Any, version: str | None) -> None:
    """Confirm the chosen move and wait until the board is redrawn past `version` (or the move panel shows a
    problem, which fails the test)."""
    page.locator("[data-confirm]").click()
    page.wait_for_function(
        "(v) => document.querySelector('#board').dataset.ready !== v"
        " || document.querySelector('#moves-problem').textContent",
        arg=version,
        timeout=30_000,
    )
    assert not page.locator("#moves-problem").inner_text(), page.locator("#moves-problem").inner_text()


def _play_by_clicking(
    page: Any, server: str, game_id: str, rng: random.Random, enough: Callable[[Counter[str]], bool]
) -> Counter[str]:
    """Click the board (and the turn controls beside it) as the person until the game ends or `enough`
    of the counts of clicks ("board", "control") and decision kinds (KINDS) has been made."""
    counts = Counter[str]()
    screenshot_taken = False
    deadline = time.monotonic() + 240
    while not enough(counts):
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_selector(
            ".board-svg .target.live, .turn-controls .move, .banner.finished",
            state="attached",
            timeout=60_000,
        )
        if page.locator(".banner.finished").count():
            break
        version = page.get_attribute("#board", "data-ready")
        live = page.locator(".board-svg .target.live")
        controls = page.locator(".turn-controls .move")
        choices = [("board", i) for i in range(live.count())] + [
            ("control", i) for i in range(controls.count())
        ]
        if not choices:  # the board is being redrawn (a live update): look again
            time.sleep(0.1)
            continue
        # Half the time a turn control when one is offered (ending the phase keeps the game short).
        controlled = [c for c in choices if c[0] == "control"]
        kind, index = rng.choice(controlled if controlled and rng.random() < 0.5 else choices)
        if kind == "board":
            element = live.nth(index)
            assert element.get_attribute("role") == "button" and element.get_attribute("tabindex") == "0"
            assert element.get_attribute("aria-label")
            if not click(element):
                continue
            options = page.locator(".selection .move")
            if not page.locator(".confirm:not([hidden])").count() and options.count():
                click(options.nth(rng.randrange(options.count())))
        elif not click(controls.nth(index)):
            continue
        if not page.locator(".confirm:not([hidden])").count():  # redrawn under the pointer: again
            continue
        decision = _decision_kind(server, game_id)  # the person is to act: no bot moves meanwhile
        assert page.locator(".confirm:not([hidden])").inner_text().strip()  # says what it will do
        confirm_and_wait(page, version)
        counts[kind] += 1
        counts[decision] += 1
        if (
            not screenshot_taken
            and counts["board"] + counts["control"] >= 20
            and page.locator(".banner.mine").count()
        ):
            shot(page, "play-in-progress")
            screenshot_taken = True
    return counts


def _every_kind_clicked(counts: Counter[str]) -> bool:
    return all(counts[k] for k in KINDS) and counts["board"] > counts["control"] > 0


def _check_the_finished_page(page: Any, server: str, game_id: str) -> None:
    page.wait_for_selector(".banner.finished", state="attached", timeout=60_000)
    board = httpx.get(f"{server}/games/{game_id}").json()
    assert board["status"] == "finished" and board["winners"]
    assert "ended" in page.locator("#banner").inner_text()
    assert page.title().startswith("Finished")
    # The history is in words and can be filtered by seat.
    page.select_option("#history select", "0")
    lines = page.locator("#history li").all_inner_texts()
    assert lines and all(" Ada " in f" {line} " for line in lines)
    shot(page, "play-finished", full=True)


def _open_game(server: str, pages: Pages) -> tuple[str, str, Any]:
    created = create(
        server,
        [{"name": "Ada"}, {"bot": "greedy", "name": "Bruno"}, {"bot": "greedy", "name": "Cleo"}],
        "browser-play",
    )
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = pages.new()
    page.goto(f"{server}/play/{game_id}#token={token}")
    assert "token=" not in page.url  # the secret left the address bar
    return game_id, token, page


def test_a_game_played_by_clicking_the_board_until_every_kind_of_decision(server: str, pages: Pages) -> None:
    """The person clicks the board until it has made every kind of decision a game asks for (a move, an
    action, an effect, a Cleanup choice) by clicking the board's elements and the turn controls, never the
    list of all moves; the rest of the game is played over HTTP while the page follows it to the end. The
    whole game by clicking: `test_a_whole_game_played_by_clicking_the_board` (`make soak`)."""
    game_id, token, page = _open_game(server, pages)
    counts = _play_by_clicking(page, server, game_id, random.Random(7), _every_kind_clicked)
    print(f"clicks: {dict(counts)}")
    assert _every_kind_clicked(counts), counts
    with httpx.Client(base_url=server, timeout=10) as http:
        table = Table(game_id, [token, None, None])
        play_turns(http, table, random.Random(8), timeout=120)
    _check_the_finished_page(page, server, game_id)


@pytest.mark.soak
def test_a_whole_game_played_by_clicking_the_board(server: str, pages: Pages) -> None:
    game_id, _, page = _open_game(server, pages)
    counts = _play_by_clicking(page, server, game_id, random.Random(7), lambda _: False)
    print(f"clicks: {dict(counts)}")
    assert _every_kind_clicked(counts), counts
    _check_the_finished_page(page, server, game_id)


def test_keyboard_reaches_every_move_of_an_element(server: str, pages: Pages) -> None:
    created = create(server, [{"name": "Kim"}, {"bot": "greedy"}], "browser-keys")
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = pages.new()
    page.goto(f"{server}/play/{game_id}#token={token}")
    page.wait_for_selector(".board-svg .target.live", timeout=60_000)
    version = page.get_attribute("#board", "data-ready")
    page.locator(".board-svg .target.live").first.focus()
    page.keyboard.press("Enter")
    if not page.locator(".confirm:not([hidden])").count():
        page.locator(".selection .move").first.focus()
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.confirm") == "yes"  # focus moved to Confirm
    page.keyboard.press("Escape")
    assert page.locator(".confirm").is_hidden()
    page.locator(".board-svg .target.live").first.focus()
    page.keyboard.press(" ")
    if not page.locator(".confirm:not([hidden])").count():
        page.locator(".selection .move").first.focus()
        page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.querySelector('#board').dataset.ready !== v", arg=version)


# -- the board against the board view ------------------------------------------------------------------

COLLECT = """() => {
  const all = (kind) =>
    Array.from(document.querySelectorAll(`#board [data-kind="${kind}"]`), (n) => n.dataset);
  const pick = (kind, ...keys) => all(kind).map((d) => keys.map((k) => d[k]).join("|")).sort();
  return {
    telescope: pick("telescope", "seat", "space"),
    tile: pick("tile", "seat", "space", "tile", "face"),
    die: pick("die", "seat", "colour", "value"),
    cellar: pick("cellar", "seat", "space", "count", "grand"),
    book: pick("book", "seat", "row", "position"),
    university: pick("university", "seat", "slot", "height"),
    score: pick("score", "seat", "score"),
    card: pick("card", "space", "card"),
    constellation: pick("constellation", "card", "index", "covered"),
    supply: pick("supply", "colour", "count"),
    comet: pick("comet", "seat", "index", "state"),
    token: pick("token-slot", "seat", "index", "present"),
    library: pick("library-card", "seat", "card", "dark"),
    reputation: pick("reputation", "seat", "value"),
    page: pick("page", "page", "covered"),
    objective: pick("objective", "objective", "claims"),
    scale: pick("scale", "slot", "face"),
    quadrants: pick("quadrants", "seat", "count"),
    moon: pick("moon", "tile", "scoring"),
    bonus: pick("bonus", "space", "seats"),
    deck: pick("deck", "deck", "reserve"),
  };
}"""


def expected_from(view: dict[str, Any], catalog: dict[str, Any]) -> dict[str, list[str]]:
    st = view["state"]
    players = st["players"]

    def rows(items: Any) -> list[str]:
        return sorted("|".join(str(x) for x in item) for item in items)

    def low(value: bool) -> str:
        return "true" if value else "false"

    out = {
        "telescope": rows((p["seat"], p["telescope"]) for p in players),
        "tile": rows(
            (p["seat"], i, t, "upgraded" if t in p["upgraded"] else "basic")
            for p in players
            for i, t in enumerate(p["queue"])
        ),
        "die": rows((p["seat"], c, v) for p in players for c, v in p["dice"]),
        "cellar": rows((p["seat"], i, n, p["grand"][i]) for p in players for i, n in enumerate(p["cellar"])),
        "book": rows((p["seat"], r, b) for p in players for r, b in enumerate(p["books"])),
        "university": rows((p["seat"], i, h) for p in players for i, h in enumerate(p["university"])),
        "score": rows((s["seat"], s["score"]) for s in view["seats"]),
        "card": rows((i, c or "") for i, c in enumerate(st["display"])),
        "constellation": rows(
            (c, k, by) for i, c in enumerate(st["display"]) if c for k, by in enumerate(st["covers"][i])
        ),
        "supply": rows(zip("RYB", st["supply"], strict=True)),
        "comet": rows((p["seat"], i, c) for p in players for i, c in enumerate(p["comets"])),
        "token": rows(
            (p["seat"], i, low(i >= p["tokens_used"]))
            for p in players
            for i in range(len(catalog["constellation_slots"]))
        ),
        "library": rows((p["seat"], c, low(d)) for p in players for c, d in p["library"]),
        "reputation": rows((p["seat"], p["reputation"]) for p in players),
        "page": rows((page["id"], st["pages"][i]) for i, page in enumerate(catalog["book_pages"])),
        "objective": rows(
            (o, ",".join(str(s) for s in st["claims"][i])) for i, o in enumerate(st["objectives"])
        ),
        "scale": rows(enumerate(st["scale"])),
        "quadrants": rows((p["seat"], p["quadrants"]) for p in players),
        "deck": rows(
            [
                (
                    st.get("deck_size", len(st.get("deck", []))),
                    st.get("reserve_size", len(st.get("reserve", []))),
                )
            ]
        ),
    }
    luna = st.get("luna")
    out["moon"] = (
        rows((t["id"], luna["scoring"][i]) for i, t in enumerate(catalog["luna"]["moon_tiles"]))
        if luna
        else []
    )
    out["bonus"] = (
        rows((i + 1, ",".join(str(s) for s in seats)) for i, seats in enumerate(luna["bonus"]))
        if luna
        else []
    )
    return out


def _board_agrees(page: Any, view: dict[str, Any], catalog: dict[str, Any], where: str) -> None:
    """The board drawn on `page` (telescopes, tiles, dice, cellar, ...) agrees with the board view `view`."""
    drawn = page.evaluate(COLLECT)
    for kind, want in expected_from(view, catalog).items():
        assert drawn[kind] == want, f"{where}: {kind} differs"
    assert drawn["die"] or view["version"] == 1 or not any(p["dice"] for p in view["state"]["players"])


@pytest.mark.soak  # the same check runs on an ability-side Luna game in CHAR_1 (components agree) below
def test_the_board_agrees_with_the_board_view_at_several_versions(server: str, pages: Pages) -> None:
    game_id = finished_game(server, "browser-agree", luna=True)
    head = httpx.get(f"{server}/games/{game_id}").json()["version"]
    catalog = httpx.get(f"{server}/catalog/base").json()
    page = pages.new()
    for version in sorted({1, head // 4, head // 2, (3 * head) // 4, head}):
        page.goto(f"{server}/replay/{game_id}?v={version}")
        page.wait_for_selector(f'#board[data-version="{version}"] .board-svg', timeout=30_000)
        view = httpx.get(f"{server}/games/{game_id}/at/{version}").json()
        _board_agrees(page, view, catalog, f"version {version}")
    shot(page, "replay-luna-end", full=True)


# -- the characters' abilities and the solo game on the board (issues 11, 12, 13) -----------------------


def _open_seat(server: str, pages: Pages, body: dict[str, Any]) -> tuple[str, str, Any]:
    """Create a game (POST /games `body`), open seat 0's page and wait until its board and moves are drawn."""
    response = httpx.post(f"{server}/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = pages.new()
    page.goto(f"{server}/play/{game_id}#token={token}")
    page.wait_for_selector("#board[data-ready] .board-svg .target.live", state="attached", timeout=30_000)
    return game_id, token, page


def _choose(page: Any, target: str, move: str) -> str:
    """Click the board element `target`, pick `move` (its text notation) among the element's moves when
    there are several, check the confirmation names it, confirm, and wait for the board to be redrawn.
    Returns the confirmation's words."""
    version = page.get_attribute("#board", "data-ready")
    page.locator(f'.board-svg .target.live[data-target="{target}"]').click()
    if not page.locator(".confirm:not([hidden])").count():
        page.locator(f'.selection .move[data-move="{move}"]').click()
    confirm = page.locator(".confirm:not([hidden])")
    assert confirm.locator(".mono").inner_text() == move
    words = str(confirm.inner_text())
    confirm_and_wait(page, version)
    return words


def _data(page: Any, selector: str) -> list[dict[str, str]]:
    """The data attributes of the board's elements matching `selector`, without those of the move panel
    (`target`, `moves`)."""
    found = page.eval_on_selector_all(f"#board {selector}", "(nodes) => nodes.map((n) => ({...n.dataset}))")
    return [{k: v for k, v in d.items() if k not in ("target", "moves")} for d in found]


def test_CHAR_COP_2_base_abilities_drawn_and_a_library_tile_placed_from_the_board(
    server: str, pages: Pages
) -> None:
    """Issue 11 on the board: Kepler's set-aside tile and special tile, Bruno's 5-space cellar tile with its
    rewards, the personal Book-of-Comets pages, Copernicus' four library tiles; Copernicus places one by
    clicking it (CHAR-COP-2..4): the move is confirmed in words and the covered space shows the tile."""
    seats = [
        {"name": "Nico", "character": "copernicus", "side": "ability"},
        {"bot": "greedy", "character": "kepler", "side": "ability", "aside": "A2"},
        {"bot": "greedy", "character": "bruno", "side": "ability"},
        {"bot": "greedy", "character": "galileo", "side": "ability"},
    ]
    body = {"seats": seats, "seed": "browser-abilities", "first_seat": 0}
    game_id, token, page = _open_seat(server, pages, body)
    assert [d["character"] for d in _data(page, '[data-kind="ability-side"]')] == [
        "copernicus",
        "kepler",
        "bruno",
        "galileo",
    ]
    assert _data(page, '[data-kind="aside"]') == [
        {"kind": "aside", "seat": "1", "tile": "A2", "face": "basic"}
    ]
    kepler = [d for d in _data(page, '[data-kind="tile"][data-seat="1"]') if d["tile"] == "K1"]
    assert [(d["space"], d.get("special")) for d in kepler] == [("5", "true")]  # CHAR-KEP-1: on S4
    bruno = _data(page, '[data-kind="cellar"][data-seat="2"]')
    assert [d["reward"] for d in bruno] == ["", "Q", "DIE", "3VP", "4VP Q"]  # CHAR-BRU-2 (DATA-18)
    personal = {(d["seat"], d["page"], d["covered"]) for d in _data(page, '[data-kind="personal-page"]')}
    assert personal == {
        ("0", "COP-P1", "false"),
        ("2", "BRU-P1", "false"),
        ("2", "BRU-P2", "false"),
        ("3", "GAL-P1", "false"),
    }
    assert [(d["tile"], d["placed"]) for d in _data(page, '[data-kind="library-tile"]')] == [
        ("CP1", ""),
        ("CP2", ""),
        ("CP3", ""),
        ("CP4", ""),
    ]
    # CHAR-COP-3, AMB-29 (rules 0.4.0): the tiles go only on his cards' spaces, so play him (over HTTP) on
    # until his library holds a card and a library tile is offered
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random("browser-abilities")
    with httpx.Client(base_url=server, timeout=10) as http:
        for made in range(400):
            listing = http.get(f"/games/{game_id}/moves", headers=auth).json()
            if listing["to_act"] != 0:
                time.sleep(0.01)  # the bots' turns
                continue
            tiles = [m for m in listing["moves"] if m["type"] == "PlaceLibraryTile" and m["tile"] == "CP1"]
            if tiles:
                break
            move = rng.choice(listing["moves"])
            body = {"command": move, "expected_version": listing["version"], "command_id": f"cop-{made}"}
            assert http.post(f"/games/{game_id}/commands", headers=auth, json=body).status_code == 200
    assert tiles, "Copernicus was never offered a library tile"
    tile = tiles[0]
    page.reload()
    page.wait_for_selector("#board[data-ready] .board-svg .target.live", state="attached", timeout=30_000)
    words = _choose(page, "libtile:0:CP1", tile["text"])
    assert (
        f"R{tile['row'] + 1} gives " in words
    )  # the describer says what the covered space gives from now on
    placed = f"{tile['face']}:{tile['column']}:{tile['row']}"
    page.wait_for_selector(f'#board [data-kind="library-tile"][data-tile="CP1"][data-placed="{placed}"]')
    cover = _data(page, '[data-kind="library-cover"]')
    assert cover == [
        {
            "kind": "library-cover",
            "seat": "0",
            "tile": "CP1",
            "row": str(tile["row"]),
            "column": str(tile["column"]),
        }
    ]
    assert tile["column"] >= 2  # a card's column, never the printed one
    view = httpx.get(f"{server}/games/{game_id}").json()
    assert view["state"]["players"][0]["ability"]["library"] == [
        ["CP1", tile["face"], tile["column"], tile["row"]]
    ]
    # once per turn (CHAR-COP-2): the other library tiles are no longer offered this turn
    assert not page.locator('.board-svg .target.live[data-target^="libtile:"]').count()
    shot(page, "abilities-base")


def test_CHAR_CUN_2_luna_characters_drawn_without_hidden_information_and_a_focus_from_the_board(
    server: str, pages: Pages
) -> None:
    """Issue 12 on the board: Newton's mirrors on X1/X2 with their multipliers, Hevelius' offer of three and
    her deck as a count only, Cunitz' Urania Propitia board with only the first Note face up, Sophia's Sun
    with Venus covering; Cunitz uses a tile's Focus from the board (CHAR-CUN-2): the round token moves."""
    seats = [
        {"name": "Maria", "character": "cunitz", "side": "ability"},
        {"bot": "greedy", "character": "newton", "side": "ability"},
        {"bot": "greedy", "character": "hevelius", "side": "ability"},
        {"bot": "greedy", "character": "sophia", "side": "ability"},
    ]
    body = {"seats": seats, "seed": "browser-luna-chars-2", "first_seat": 0}
    game_id, token, page = _open_seat(server, pages, body)
    view = httpx.get(f"{server}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
    players = view["state"]["players"]
    # Newton (CHAR-NEW-1/2, AMB-34): the two special tiles on X1 and X2, each giving its bonus x 0 there
    mirrors = _data(page, '[data-kind="mirror-times"]')
    assert [d["times"] for d in mirrors] == ["0", "0"]
    newton = {d["space"]: d["tile"] for d in _data(page, '[data-kind="tile"][data-seat="1"]')}
    assert (newton["0"], newton["1"]) == ("N1", "N2")
    # Hevelius (CHAR-HEV-1): three face up, the deck's order hidden: only its size is drawn
    heavens = players[2]["hevelius"]
    assert heavens["deck"] == ["?"] * 13
    offer = [d["tile"] for d in _data(page, '[data-kind="hevelius-offer"]')]
    assert offer == heavens["offer"] and len(offer) == 3
    assert _data(page, '[data-kind="hevelius-deck"]')[0]["deck"] == "13"
    shown_ids = set(re.findall(r"\bH\d\d\b", page.locator("#board").inner_html()))
    assert shown_ids == set(offer)  # no tile of her deck appears anywhere on the page
    # Cunitz (CHAR-CUN-1): 14 track spaces; only the first Note space's Note is face up
    notes = [d["note"] for d in _data(page, '[data-kind="urania-space"]') if d["note"]]
    assert notes == [players[0]["urania"]["notes"][0], "?", "?", "?", "?", "?"]
    # Sophia (CHAR-SOP-1): Venus at its first position covers the Sun's first two spaces
    assert [d["covered"] for d in _data(page, '[data-kind="sun-space"]')] == [
        "true",
        "true",
        "false",
        "false",
    ]
    # Cunitz's turn: to S1 (her C1 tile), option 1 (all red +1 and Focus), then the Focus on the board
    assert players[0]["queue"][2] == "C1"
    _choose(page, "sky:0:2", "@0 move 1")
    _choose(page, "sky:0:2", "@0 tile 1")
    assert page.locator('.board-svg .target.live[data-target="round:0:R"]').count() == 1
    words = _choose(page, "round:0:R", "@0 focus R")
    assert "Focus on red" in words
    page.wait_for_selector(
        '#board [data-kind="round-space"][data-seat="0"][data-colour="R"][data-token="true"]'
    )
    after = httpx.get(f"{server}/games/{game_id}").json()["state"]["players"][0]["urania"]
    assert after["round"] == "R"
    shot(page, "abilities-luna")


def test_SOLO_27_a_solo_game_shows_tycho_and_is_played_from_the_board(server: str, pages: Pages) -> None:
    """Issue 13 on the board: one person seat makes a solo game against Tycho Brahe; the page draws his
    solo Action tiles with their rows and marker, and his holdings; the person moves from the board and,
    once the turn is over, Tycho's revealed Movement tile and smaller stack show on the page."""
    body = {"seats": [{"name": "Ada"}], "seed": "browser-solo"}
    game_id, token, page = _open_seat(server, pages, body)
    view = httpx.get(f"{server}/games/{game_id}").json()
    tycho = view["tycho"]
    tiles = _data(page, '[data-kind="tycho-tile"]')
    assert [d["tile"] for d in tiles] == [t["id"] for t in tycho["line"]]
    summary = _data(page, '[data-kind="tycho-summary"]')
    assert [(d["seat"], d["stack"]) for d in summary] == [(str(tycho["seat"]), str(tycho["stack_size"]))]
    assert "Tycho" in page.locator(f'details.player-board[data-seat="{tycho["seat"]}"] summary').inner_text()
    _choose(page, "sky:0:2", "@0 move 1")  # a move from the board
    # the rest of the person's turn over HTTP (the fewest moves that end it), then Tycho's turn follows
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(13)
    with httpx.Client(base_url=server, timeout=10) as http:
        for made in range(200):
            board = http.get(f"/games/{game_id}").json()
            if board["tycho"]["shown"]:
                break
            listing = http.get(f"/games/{game_id}/moves", headers=auth).json()
            ends = [m for m in listing["moves"] if m["type"] in ("EndActions", "EndFreeActions")]
            move = ends[0] if ends else rng.choice(listing["moves"])
            post = {"command": move, "expected_version": listing["version"], "command_id": f"solo-{made}"}
            assert http.post(f"/games/{game_id}/commands", headers=auth, json=post).status_code == 200
    stack = board["tycho"]["stack_size"]
    assert board["tycho"]["shown"] and stack == tycho["stack_size"] - len(board["tycho"]["shown"])
    page.wait_for_selector(f'#board [data-kind="tycho-summary"][data-stack="{stack}"]', timeout=30_000)
    shot(page, "solo")


ABILITY_COLLECT = """() => {
  const pick = (kind, ...keys) =>
    Array.from(document.querySelectorAll(`#board [data-kind="${kind}"]`), (n) =>
      keys.map((k) => n.dataset[k]).join("|")).sort();
  return {
    side: pick("ability-side", "seat", "character"),
    aside: pick("aside", "seat", "tile"),
    cover: pick("library-cover", "seat", "tile", "row", "column"),
    personal: pick("personal-page", "seat", "page", "covered"),
    offer: pick("hevelius-offer", "seat", "tile"),
    deck: pick("hevelius-deck", "seat", "deck", "discard"),
    group: pick("hevelius-constellation", "seat", "index", "tiles"),
    square: pick("urania-space", "seat", "index", "note", "square"),
    round: pick("round-space", "seat", "colour", "token"),
    venus: pick("venus", "seat", "position"),
    mirror: pick("mirror-times", "times"),
    cellar: pick("cellar", "seat", "space", "reward"),
  };
}"""


def ability_expected(view: dict[str, Any], catalog: dict[str, Any]) -> dict[str, list[str]]:
    """What the board must draw of the ability sides, from the board view and the catalog alone."""
    players = view["state"]["players"]
    boards = {c["id"]: c for c in catalog["characters"]}
    luna = catalog["luna_characters"]

    def rows(items: Any) -> list[str]:
        return sorted("|".join(str(x) for x in item) for item in items)

    able = [p for p in players if (p.get("ability") or {}).get("side") == "ability"]
    library = {t["id"]: t for t in boards["copernicus"]["ability"]["library_tiles"]}
    covers = [
        (p["seat"], tile, row + k, column)
        for p in able
        for tile, face, column, row in p["ability"]["library"]
        for k in range(len(library[tile]["faces"][face]))
    ]
    tracks = []
    for p in able:
        if "urania" not in p:
            continue
        notes = iter(p["urania"]["notes"])
        for i, space in enumerate(luna["track"]):
            note = next(notes) if space is None else ""
            tracks.append((p["seat"], i, note, str(p["urania"]["square"] == i).lower()))
    newton = {t["id"]: t for t in luna["newton_tiles"]}
    mirrors = [
        (luna["multipliers"][i] + (newton[t]["upgrade_bonus"] if t in p["upgraded"] else 0),)
        for p in able
        if p["character"] == "newton"
        for i, t in enumerate(p["queue"])
        if t in newton and newton[t]["mirror"]
    ]
    bruno = boards["bruno"]["ability"]["cellar"]
    return {
        "side": rows((p["seat"], p["character"]) for p in able),
        "aside": rows((p["seat"], p["ability"]["aside"]) for p in able if p["ability"]["aside"]),
        "cover": rows(covers),
        "personal": rows(
            (p["seat"], page["id"], str(page["id"] in p["ability"]["pages"]).lower())
            for p in able
            for page in boards[p["character"]]["ability"]["pages"]
        ),
        "offer": rows((p["seat"], t) for p in able if "hevelius" in p for t in p["hevelius"]["offer"]),
        "deck": rows(
            (p["seat"], len(p["hevelius"]["deck"]), len(p["hevelius"]["discard"]))
            for p in able
            if "hevelius" in p
        ),
        "group": rows(
            (p["seat"], k, ",".join(ids))
            for p in able
            if "hevelius" in p
            for k, ids in enumerate([[], *p["hevelius"]["constellations"]])
        ),
        "square": rows(tracks),
        "round": rows(
            (p["seat"], c or "arrow", str(p["urania"]["round"] == c).lower())
            for p in able
            if "urania" in p
            for c in ("", "R", "Y", "B")
        ),
        "venus": rows((p["seat"], p["venus"]["position"]) for p in able if "venus" in p),
        "mirror": rows(mirrors),
        "cellar": rows(
            (p["seat"], i, " ".join(bruno["rewards"][i]) if p["character"] == "bruno" and p in able else "")
            for p in players
            for i in range(len(p["cellar"]))
        ),
    }


@pytest.mark.parametrize(
    ("characters", "luna"),
    [
        (("galileo", "kepler", "copernicus", "bruno"), False),
        (("newton", "hevelius", "cunitz", "sophia"), True),
    ],
    ids=["base", "luna"],
)
def test_CHAR_1_the_ability_components_agree_with_the_board_view_at_several_versions(
    server: str, pages: Pages, characters: tuple[str, ...], luna: bool
) -> None:
    """Bots play a game on the ability side to its end; at several versions from the first (and as a seat,
    whose view hides Hevelius' deck and Cunitz' Notes until the end) every ability component the board
    draws agrees with the board view, and so does the rest of the board (telescopes, tiles, dice...)."""
    seats = [{"bot": "greedy", "character": c, "side": "ability"} for c in characters]
    body = {
        "seats": seats,
        "seed": f"browser-ability-{'luna' if luna else 'base'}",
        "options": {"luna": luna},
    }
    response = httpx.post(f"{server}/games", json=body)
    assert response.status_code == 201, response.text
    game_id = response.json()["game_id"]
    wait_for(
        lambda: httpx.get(f"{server}/games/{game_id}").json()["status"] == "finished", 120, "the bots' game"
    )
    head = httpx.get(f"{server}/games/{game_id}").json()["version"]
    catalog = httpx.get(f"{server}/catalog/base").json()
    page = pages.new()
    for version, seat in ((1, None), (head // 4, 1), (head // 2, None), ((3 * head) // 4, 2), (head, None)):
        query = "" if seat is None else f"&as_seat={seat}"
        page.goto(f"{server}/replay/{game_id}?v={version}")
        if seat is not None:
            page.wait_for_selector("#as-seat-label:not([hidden])", timeout=30_000)
            page.select_option("#as-seat", str(seat))
            page.wait_for_selector(f'#board[data-viewer="seat:{seat}"][data-version="{version}"] .board-svg')
        else:
            page.wait_for_selector(f'#board[data-version="{version}"] .board-svg', timeout=30_000)
        drawn = page.evaluate(ABILITY_COLLECT)
        view = httpx.get(f"{server}/games/{game_id}/at/{version}?{query.lstrip('&')}").json()
        expected = ability_expected(view, catalog)
        for kind, want in expected.items():
            assert drawn[kind] == want, f"version {version} as {seat}: {kind} differs"
        assert drawn["side"] and (drawn["aside"] or luna or version == 1) and (drawn["offer"] or not luna)
        _board_agrees(page, view, catalog, f"version {version} as {seat}")
    shot(page, f"abilities-replay-{'luna' if luna else 'base'}", full=True)


CHECK_TARGETS = """async ([board, listing]) => {
  const { loadCatalog, renderBoard } = await import("/static/board.js");
  const { targetsOf } = await import("/static/moves.js");
  const catalog = await loadCatalog(board.state.catalog.edition);
  const box = document.createElement("div");
  document.body.append(box);
  renderBoard(box, board, catalog);
  const missing = [];
  listing.moves.forEach((move, i) => {
    const preview = listing.previews[i];
    const keys = targetsOf(move, board, preview, catalog);
    for (const key of keys) {
      if (!box.querySelector(`[data-target="${CSS.escape(key)}"]`)) missing.push(`${move.text} -> ${key}`);
    }
    // The sky space of a fixed action or a tile is the one the engine's told event names.
    const told = (type) => preview.events.find((e) => e.type === type);
    const wrong = (space, why) => {
      if (keys[0] !== `sky:${move.seat}:${space}`) missing.push(`${move.text} -> ${keys[0]}, not ${why}`);
    };
    const used = move.type === "UseTile" ? told("MovingActionTaken") : null;
    const seat = `[data-kind="tile"][data-seat="${move.seat}"]`;
    const tile = used && used.tile ? box.querySelector(`${seat}[data-tile="${used.tile}"]`) : null;
    if (tile) wrong(tile.dataset.space, used.tile);
    // no tile at U: the Movement phase's space (UPG-2, AMB-21)
    if (used && !used.tile) wrong(board.state.turn.space, "the turn's space");
    const fixed = move.type === "TakeFixed" ? told("FixedActionTaken") : null;
    if (fixed) wrong(catalog.starry_sky.findIndex((s) => s.id === fixed.space), fixed.space);
  });
  box.remove();
  return missing;
}"""
ABILITY_MOVES = ("KeplerSwap", "PlaceLibraryTile", "ClaimTile", "DiscardOffer", "Focus", "ShiftMirror")


@pytest.mark.parametrize(
    ("characters", "wanted"),
    [
        (
            ("kepler", "copernicus", "hevelius", "cunitz"),
            {"KeplerSwap", "PlaceLibraryTile", "ClaimTile", "Focus", "UpgradeAside"},
        ),
        (("newton", "bruno", "sophia", "galileo"), {"ShiftMirror", "PlaceComet", "Persuade"}),
    ],
    ids=["kepler-copernicus-hevelius-cunitz", "newton-bruno-sophia-galileo"],
)
def test_CHAR_1_every_ability_move_points_at_an_element_the_board_draws(
    server: str, pages: Pages, characters: tuple[str, ...], wanted: set[str]
) -> None:
    """Four people on the ability side play over HTTP (ability moves preferred); at each decision that
    offers an ability move (or a comet for a personal page, or a Persuade into Bruno's fifth space), the
    page's own code draws the board view and checks that every element each legal move involves
    (moves.js `targetsOf`) is drawn (board.js), so each such move can be chosen on the board, and that
    a fixed action or a tile is found on the sky space the engine's told event names."""
    seats = [{"name": c.title(), "character": c, "side": "ability"} for c in characters]
    body = {"seats": seats, "seed": f"browser-targets-{characters[0]}", "first_seat": 0}
    response = httpx.post(f"{server}/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    page = pages.new()
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector("#board .board-svg", timeout=30_000)
    rng = random.Random(characters[0])
    seen: set[str] = set()
    with httpx.Client(base_url=server, timeout=10) as http:
        for made in range(1500):
            if wanted <= seen:
                break
            listing = http.get(f"/games/{game_id}/moves", headers={"Authorization": f"Bearer {tokens[0]}"})
            to_act = listing.json()["to_act"]
            if to_act is None:
                break
            auth = {"Authorization": f"Bearer {tokens[to_act]}"}
            listing = http.get(f"/games/{game_id}/moves", headers=auth).json()
            moves = listing["moves"]
            special = [
                m
                for m in moves
                if m["type"] in ABILITY_MOVES
                or (m["type"] == "PlaceComet" and "-P" in m["page"])  # a personal page (CHAR-3)
                or (
                    m["type"] in ("Persuade", "Farewell", "Upgrade")
                    and characters[to_act] in ("bruno", "kepler")
                )
            ]
            if special:
                board = http.get(f"/games/{game_id}", headers=auth).json()
                missing = page.evaluate(CHECK_TARGETS, [board, listing])
                assert not missing, f"moves whose element is not drawn: {missing}"
                seen |= {m["type"] for m in special}
                aside = board["state"]["players"][to_act]["ability"]["aside"]
                upgrades = [m for m in special if m["type"] == "Upgrade" and m["tile"] == aside]
                if upgrades:  # Kepler's set-aside tile can be upgraded (CHAR-KEP-5): on his character board
                    seen.add("UpgradeAside")
                    special = upgrades
            move = rng.choice(special) if special and rng.random() < 0.8 else rng.choice(moves)
            post = {"command": move, "expected_version": listing["version"], "command_id": f"t-{made}"}
            answer = http.post(f"/games/{game_id}/commands", headers=auth, json=post)
            assert answer.status_code == 200, answer.text
    assert wanted <= seen, f"not reached: {wanted - seen}"


# -- replay, docs, small screens ------------------------------------------------------------------------


def test_replay_scrubber_history_and_view_as(server: str, pages: Pages) -> None:
    """The replay page of a finished game of more than 2,000 events (a released fixture game, imported:
    the same game every run): every event is listed, the first ones too, and each can be gone to.
    (A bots' game's length depends on its random game ID; the replay list once kept only the newest 2,000
    events, so the rare bots' game longer than that had no event 25 to click.)"""
    imported = httpx.post(
        f"{server}/games/import",
        content=release_games("release-1")["luna-3p-finished"],
        headers={"content-type": "application/x-ndjson"},
    )
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["game_id"]
    page = pages.new()
    page.goto(f"{server}/replay/{game_id}")
    head = httpx.get(f"{server}/games/{game_id}").json()["version"]
    assert head > 2000
    page.wait_for_selector(f'#board[data-version="{head}"] .board-svg', timeout=30_000)
    assert page.locator("#events li").count() == head  # every event, in order from the first
    assert page.locator("#events li").first.get_attribute("data-version") == "1"
    page.click("#first")
    page.wait_for_selector('#board[data-version="1"] .board-svg')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#board[data-version="2"] .board-svg')
    page.locator("#slider").focus()  # with the slider focused a key is still one event, not two
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#board[data-version="3"] .board-svg')
    time.sleep(0.3)
    assert page.get_attribute("#board", "data-version") == "3"
    page.locator("#slider").fill("40")
    page.wait_for_selector('#board[data-version="40"] .board-svg')
    assert "Event 40" in page.locator("#event").inner_text()
    page.locator('#events li[data-version="25"] button').click()
    page.wait_for_selector('#board[data-version="25"] .board-svg')
    assert page.locator('#events li.current[data-version="25"]').count() == 1
    page.select_option("#as-seat", "1")
    page.wait_for_selector('#board[data-viewer="seat:1"][data-version="25"] .board-svg')
    first = page.locator("details.player-board").first.get_attribute("data-seat")
    assert first == "1"  # the seat viewed from comes first
    page.select_option("#events select", "2")
    name = httpx.get(f"{server}/games/{game_id}").json()["seats"][2]["name"]
    texts = page.locator("#events li").all_inner_texts()
    assert texts and all(f" {name} " in f" {t} " for t in texts)  # only seat 2's events, in words
    # The score timeline spans the page at its drawing's own width, its 12 px text readable.
    page.wait_for_function("() => document.querySelector('#timeline').naturalWidth > 0", timeout=30_000)
    natural, shown = page.evaluate(
        "() => [document.querySelector('#timeline').naturalWidth,"
        " document.querySelector('#timeline').getBoundingClientRect().width]"
    )
    assert shown >= 0.9 * natural, (shown, natural)
    shot(page, "replay")


def test_replay_analysis_graph_and_mistake_marks(server: str, pages: Pages) -> None:
    """The replay page asks for an analysis of a finished game (docs/analysis-api.md), shows its
    progress, then the win-probability graph under the board and the mistakes on the strip under the
    scrubber; a mark jumps to its move."""
    game_id = finished_game(server, "browser-analysis", luna=False)
    head = httpx.get(f"{server}/games/{game_id}").json()["version"]
    page = pages.new()
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector(f'#board[data-version="{head}"] .board-svg', timeout=30_000)
    page.select_option("#budget", "fast")
    page.click("#analyse-button")
    running = '#analysis[data-status="running"] #analysis-progress:not([hidden])'
    page.wait_for_selector(running, timeout=60_000)
    assert "Analysing" in page.locator("#analysis-status").inner_text()
    page.wait_for_selector('#analysis[data-status="finished"]', timeout=300_000)
    assert page.locator("#analysis-progress").is_hidden()
    assert page.locator(".win-graph svg polyline.win-line").count() == 3  # one line per seat
    marks = page.locator("#mistake-strip .mistake-mark")
    assert marks.count() >= 1 and page.locator(".win-graph .mistake-dot").count() == marks.count()
    target = marks.last.get_attribute("data-version")  # the last is drawn on top of its neighbours
    marks.last.click()
    page.wait_for_selector(f'#board[data-version="{target}"] .board-svg', timeout=30_000)
    assert page.locator(f'#events li.current[data-version="{target}"]').count() == 1
    assert page.locator("#events .mistake-badge").count() == marks.count()  # the history marks them too
    listed = page.locator("#mistakes li button").all_inner_texts()
    assert listed and not any("@" in t for t in listed), listed  # in words, not in notation
    page.locator("#mistakes li button").last.click()
    last = page.locator("#mistakes li button").last.get_attribute("data-version")
    page.wait_for_selector(f'#board[data-version="{last}"] .board-svg', timeout=30_000)
    shot(page, "replay-analysis", full=True)
    page.locator("#analysis").screenshot(path=str(ARTEFACTS / "replay-analysis-graph.png"))
    # The job is remembered: a reload shows the finished analysis without asking again.
    page.reload()
    page.select_option("#budget", "fast")
    page.wait_for_selector('#analysis[data-status="finished"] .win-graph svg', timeout=30_000)


def test_docs_and_redoc_work_offline(server: str, pages: Pages) -> None:
    spec = httpx.get(f"{server}/openapi.json").json()
    page = pages.new(offline=server)
    page.goto(f"{server}/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    assert "Galileo" in page.locator(".swagger-ui .info .title").inner_text()
    page.wait_for_selector(".opblock", timeout=30_000)
    schemes = spec.get("components", {}).get("securitySchemes")
    assert bool(page.locator(".btn.authorize").count()) == bool(schemes)  # "Authorize" with a scheme
    shot(page, "docs")
    page.goto(f"{server}/redoc")
    page.wait_for_selector(".api-content h1", timeout=30_000)
    assert "Galileo" in page.locator(".api-content h1").first.inner_text()


def test_390_px_wide_no_horizontal_scroll_on_any_page(server: str, pages: Pages) -> None:
    created = create(
        server, [{"name": "Ada"}, {"bot": "greedy"}, {"bot": "random"}], "browser-small", luna=True
    )
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = pages.new(390, 844)
    page.goto(f"{server}/play/{game_id}#token={token}")
    page.wait_for_selector("#board .board-svg", timeout=30_000)
    assert page.get_attribute("#board", "data-layout") == "narrow"
    page.wait_for_selector("#history li", timeout=30_000)
    no_overflow(page)
    shot(page, "play-390")
    page.goto(f"{server}/")
    page.wait_for_selector("#mine li", timeout=30_000)  # this browser holds a seat link: "your games"
    no_overflow(page)
    shot(page, "lobby-390")
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector("#board .board-svg", timeout=30_000)
    no_overflow(page)
    page.goto(f"{server}/play/{game_id}")  # the token kept in this browser: still the seat
    page.wait_for_selector("#board .board-svg", timeout=30_000)
    assert "seat 0" in page.locator("#who").inner_text()
    no_overflow(page)


def test_SOLO_26_the_lobby_offers_no_basic_side_for_one_seat(server: str, pages: Pages) -> None:
    """CN p.16: in the solo game the person always plays the ability side: the lobby's one-seat form offers
    no basic side (nothing is switched silently), and the game it creates is on the ability side."""
    page = pages.new()
    page.goto(f"{server}/")
    page.wait_for_selector("#seats tr")
    page.click("#remove-seat")
    side = page.locator("#seats [name=side]")
    assert side.count() == 1 and side.is_disabled() and side.input_value() == "ability"
    page.click("#add-seat")
    assert not page.locator("#seats [name=side]").first.is_disabled()  # two seats: the side is a choice
    page.click("#remove-seat")
    page.locator('#create [type="submit"]').click()
    page.wait_for_selector("#created .ok", timeout=30_000)
    assert "ability side" in page.locator("#created").inner_text()


# -- the table controls (docs/async.md): take-back, resignation, the host's powers -----------------------


def two_people(server: str, seed: str) -> dict[str, Any]:
    body = {"seats": [{"name": "Ada"}, {"name": "Ben"}], "seed": seed, "first_seat": 0}
    response = httpx.post(f"{server}/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def table_page(pages: Pages, server: str, game_id: str, token: str | None = None) -> Any:
    """A game's page (a seat's with `token`), its confirm() dialogs accepted, the table drawn."""
    page = pages.new()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{server}/play/{game_id}" + (f"#token={token}" if token else ""))
    page.wait_for_selector("#table-clock li", timeout=30_000)
    return page


def logged(server: str, game_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = httpx.get(f"{server}/games/{game_id}/events", params={"limit": 500}).json()[
        "events"
    ]
    return found


def test_take_back_requested_on_one_page_and_accepted_on_the_others(server: str, pages: Pages) -> None:
    created = two_people(server, "browser-takeback")
    game_id = created["game_id"]
    ada_token, ben_token = (s["token"] for s in created["seats"])
    start = httpx.get(f"{server}/games/{game_id}/moves", headers={"Authorization": f"Bearer {ada_token}"})
    moved = httpx.post(
        f"{server}/games/{game_id}/commands",
        headers={"Authorization": f"Bearer {ada_token}"},
        json={
            "command": {"text": "@0 move 2"},
            "expected_version": start.json()["version"],
            "command_id": "m",
        },
    )
    assert moved.status_code == 200, moved.text
    ada = table_page(pages, server, game_id, ada_token)
    ben = table_page(pages, server, game_id, ben_token)
    assert ben.locator("#bar-undo button").count() == 0  # not Ben's command
    ada.locator("#bar-undo button", has_text="Ask the others: undo").click()
    ada.locator("#bar-undo button", has_text="Take back").click()  # asked first: "confirm each move" is on
    ada.wait_for_selector("#table-actions >> text=waits for the others", timeout=10_000)
    assert ada.locator("#bar-undo button").count() == 0
    # Ben's page follows the request on the live stream (no reload) and offers the answer.
    ben.locator("#table-actions button", has_text="Accept").click(timeout=10_000)
    taken = wait_for(
        lambda: [e for e in logged(server, game_id) if e["type"] == "TakenBack"], 10, "the take-back"
    )
    kinds = [e["type"] for e in logged(server, game_id)]
    assert kinds[-3:] == ["TakeBackRequested", "TakeBackAnswered", "TakenBack"]
    assert taken[0]["event"]["to_version"] == start.json()["version"]
    version = str(httpx.get(f"{server}/games/{game_id}").json()["version"])
    for page in (ada, ben):  # both pages show the game as it was before Ada's move, with no open request
        page.wait_for_function(
            "(v) => document.querySelector('#board').dataset.ready === v", arg=version, timeout=10_000
        )
        page.wait_for_function(
            "() => !document.querySelector('#table-actions').textContent.includes('take back to version')"
            " && !document.querySelector('#table-actions').textContent.includes('waits for')",
            timeout=10_000,
        )
    assert ada.locator("#bar-undo button").count() == 0  # nothing left to take back
    moves = httpx.get(f"{server}/games/{game_id}/moves", headers={"Authorization": f"Bearer {ada_token}"})
    assert moves.json()["moves"] == start.json()["moves"]  # Ada moves again from where she began
    shot(ada, "table-take-back")


def test_resign_from_the_page(server: str, pages: Pages) -> None:
    created = two_people(server, "browser-resign")
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = table_page(pages, server, game_id, token)
    page.locator("#table-actions button", has_text="Resign").click()  # the confirm() is accepted
    page.wait_for_selector("#table-seat-gone", timeout=10_000)
    assert "bot" in page.locator("#table-seat-gone").inner_text()
    assert page.locator("#table-actions button").count() == 0  # nothing a resigned seat may do
    page.wait_for_selector("#table-clock li[data-seat='0'][data-played-by='bot']", timeout=10_000)
    kinds = [e["type"] for e in logged(server, game_id)]
    assert "SeatResigned" in kinds and "SeatHandedOver" in kinds
    handed = next(e for e in logged(server, game_id) if e["type"] == "SeatHandedOver")
    assert handed["event"]["to"] == "bot" and handed["event"]["reason"] == "resigned"


def test_the_host_reissues_a_seat_link_and_hands_a_seat_to_a_bot(server: str, pages: Pages) -> None:
    created = two_people(server, "browser-host")
    game_id, host_token = created["game_id"], created["host_token"]
    old_token = created["seats"][1]["token"]
    host = table_page(pages, server, game_id)
    host.fill("#host-token", host_token)
    host.locator("#host-form button[type=submit]").click()
    host.wait_for_selector("#table-host li", timeout=10_000)
    assert host.locator("#table-host li").count() == 2
    seat_1 = host.locator("#table-host li").nth(1)
    seat_1.locator("button", has_text="New link").click()
    host.wait_for_selector("#table-link code", timeout=10_000)
    link = host.locator("#table-link code").inner_text()
    assert f"/play/{game_id}#token=" in link
    new_token = link.split("#token=", 1)[1]
    assert new_token != old_token
    refused = httpx.get(f"{server}/games/{game_id}/moves", headers={"Authorization": f"Bearer {old_token}"})
    assert refused.status_code == 401  # the old link stopped working, and says why (ASYNC-9)
    assert refused.json()["code"] == "link-reissued"
    # The re-issue is a fact: on the table panel and in the history, for everyone.
    host.wait_for_selector("#table-host-acts li[data-type='SeatLinkReissued']", timeout=10_000)
    host.wait_for_selector("#history li:has-text('re-issued the seat')", timeout=10_000)
    ben = table_page(pages, server, game_id, new_token)  # the new link is Ben's seat
    ben.wait_for_selector("#table-actions button:has-text('Resign')", timeout=10_000)
    ben.context.close()  # (its token stops working below: its page would log the 401s)
    seat_1.locator("button", has_text="Hand to bot").click()
    host.wait_for_selector("#table-host li:nth-child(2):has-text('bot')", timeout=10_000)
    host.wait_for_selector("#table-clock li[data-seat='1'][data-played-by='bot']", timeout=10_000)
    handed = [e for e in logged(server, game_id) if e["type"] == "SeatHandedOver"]
    assert [(e["event"]["seat"], e["event"]["to"], e["event"]["reason"]) for e in handed] == [
        (1, "bot", "host")
    ]
    gone = httpx.get(f"{server}/games/{game_id}/moves", headers={"Authorization": f"Bearer {new_token}"})
    assert gone.status_code in (401, 403)
    shot(host, "table-host")
