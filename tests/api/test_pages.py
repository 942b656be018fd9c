"""The web pages: HTML with a strict content policy, whose stylesheets and scripts exist and whose scripts
call only routes the app serves; a seat token never goes into a query string but the stream's
documented `access_token`. (The pages were also checked in headless Chromium; CI needs no browser.)"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from fastapi.testclient import TestClient
from starlette.routing import Match

from api.routers.pages import STATIC
from tests.api.helpers import create

LITERAL = re.compile(r"[`\"'](/[A-Za-z][^`\"'\s]*)")
PLACEHOLDER = re.compile(r"(\$\{[^{}]*\})+")
CALLED = {
    "/games",
    "/games/x/moves",
    "/games/x/commands",
    "/games/x/stream",
    "/games/x/events",
    "/games/x/at/x",
    "/games/x/fork",
    "/games/x/timeline",
    "/stats",
    "/games/x/table",
    "/games/x/takeback",
    "/games/x/host/seats/x/link",
    "/games/x/host/cancel",
    "/catalog/x",
    "/session",
    "/me/games",
    "/session/options",
    "/passkeys/register",
    "/passkeys/register/options",
    "/games/x/claim",
    "/games/x/seats/x/recover",
}


class References(HTMLParser):
    """The `src` and `href` of a page, and its scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self.scripts.append(found)
        self.refs += [v for k, v in attrs if k in ("src", "href") and v]


def paths_called(source: str) -> set[str]:
    """Every absolute path a script writes as a literal, with `${...}` as `x`, without query or fragment.
    A script's `const path = `...`` is substituted where it is used."""
    defined = re.search(r"const path = `([^`]*)`;", source)
    if defined:
        source = source.replace("${path}", defined.group(1))
    paths = {PLACEHOLDER.sub("x", m.group(1)) for m in LITERAL.finditer(source)}
    return {re.split(r"[?#$]", p)[0] for p in paths}


def test_pages_are_html_and_reference_only_what_exists(client: TestClient) -> None:
    game = create(client, 2, seed="pages").game_id
    for page in ("/", f"/play/{game}", f"/replay/{game}", "/account"):
        response = client.get(page)
        assert response.status_code == 200, page
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        policy = response.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "unsafe-inline" not in policy
        assert response.headers["referrer-policy"] == "no-referrer"
        parsed = References()
        parsed.feed(response.text)
        # Every script is a module from this origin; the one inline element is the page's catalog, a JSON
        # data block that is never run (api/static/i18n.js).
        code = [s for s in parsed.scripts if s.get("type") != "application/json"]
        assert code and all(s.get("src") and s.get("type") == "module" for s in code)
        assert [s.get("id") for s in parsed.scripts if s not in code] == ["i18n-catalog"]
        for ref in parsed.refs:
            if ref.startswith("data:"):
                continue
            assert ref.startswith("/"), f"{page} refers to another origin: {ref}"
            assert client.get(ref).status_code == 200, f"{page} refers to {ref}, which is not served"
    assert client.get("/static/no-such.js").headers["content-type"] == "application/problem+json"


def served(client: TestClient, path: str) -> bool:
    """Whether some route of the app matches `path` (for any method)."""
    scope = {"type": "http", "path": path, "method": "GET", "root_path": ""}
    return any(r.matches(scope)[0] != Match.NONE for r in client.app.routes)  # type: ignore[attr-defined]


def test_scripts_call_only_routes_the_app_serves(client: TestClient) -> None:
    assert not served(client, "/games/x/no-such-route")
    scripts = sorted(STATIC.glob("*.js"))
    called: set[str] = set()
    for script in scripts:
        for path in paths_called(script.read_text()):
            called.add(path)
            assert served(client, path), f"{script.name} calls {path}: no such route"
            if path.startswith("/static/"):
                assert (STATIC / Path(path).name).is_file(), f"{script.name} imports {path}: no such file"
    assert called >= CALLED, f"the check missed calls: {CALLED - called}"


def test_seat_tokens_stay_out_of_query_strings() -> None:
    for script in STATIC.glob("*.js"):
        source = re.sub(r"//.*", "", script.read_text())  # the code, without its comments
        assert not re.search(r"[?&]token=", source), script.name
        if "access_token" in source:  # only for the stream: EventSource cannot send a header
            assert script.name == "play.js" and source.count("access_token") == 1
            assert "/stream?${query}" in source
    links = (STATIC / "common.js").read_text()
    assert "#token=${token}" in links and "history.replaceState" in links  # a fragment, then cleared


class _Nesting(HTMLParser):
    """The elements left open or closed out of order in a page (void elements have no end tag)."""

    VOID = frozenset(
        [
            "area",
            "base",
            "br",
            "col",
            "embed",
            "hr",
            "img",
            "input",
            "link",
            "meta",
            "param",
            "source",
            "track",
            "wbr",
        ]
    )

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, tuple[int, int]]] = []
        self.wrong: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append((tag, self.getpos()))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.open and self.open[-1][0] == tag:
            self.open.pop()
        else:
            inner = self.open[-1] if self.open else None
            self.wrong.append(f"</{tag}> at line {self.getpos()[0]} closes {inner}")


def test_every_page_closes_its_elements_in_order() -> None:
    """A section left open swallows the ones after it (the account page's My games once sat, hidden,
    inside an unclosed profile section)."""
    for page in sorted(Path(STATIC).glob("*.html")):
        nesting = _Nesting()
        nesting.feed(page.read_text(encoding="utf-8"))
        assert not nesting.wrong and not nesting.open, (page.name, nesting.wrong, nesting.open)
