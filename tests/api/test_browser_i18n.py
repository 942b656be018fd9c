"""The pages in Japanese and Chinese (docs/i18n.md), in Debian's chromium: no English word left on the
lobby, play and replay pages (every rules page: tests/rulebook/test_translations.py), the pseudo-locale
(accented, 40% longer) without clipping or overflow at 1440 px and 390 px, and the history followed live in
Chinese. The game clicked in Japanese: tests/api/test_browser_play.py (`_clicked_with_confirm_off`: its
first 40 steps in every run, the whole game under `make soak`)."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from tests.api.helpers import Table, play_turns
from tests.api.test_browser import Pages, browser, create, no_overflow, pages, server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Ada", "Bruno", "Cleo", "Galileo", "Galilei"]  # the people's names, the game's
# Every text node a reader sees (and the read attributes), as [text, where] pairs; not the language
# selector (each language in its own name) and not code (tokens, IDs).
TEXTS = """() => {
  const out = [];
  // Not what is marked as another language (a language's own name in a selector or a link).
  const other = `[lang]:not([lang="${document.documentElement.lang}"])`;
  const skip = (n) => n.closest && n.closest(`script, style, code, #lang, [translate="no"], ${other}`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !n.textContent.trim()) continue;
    out.push([n.textContent.trim(), el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')]);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (skip(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push([v.trim(), el.tagName.toLowerCase() + '@' + a]);
    }
  }
  out.push([document.title, 'title']);
  return out;
}"""
# Notation and names: rule IDs, space and tile codes (S1, R2, C3, D1-05, SC6-B, OBJ-P1), VP and Q, the
# command notation, and what people named.
NOTATION = re.compile(
    r"^(?:[A-Z]{1,5}(?:-[A-Z0-9]{1,4})*\d*[a-z]?|[A-Z]?\d+[A-Za-z]?|VP|Q|OK|API|JSON|URL|CSRF|OpenID|"
    r"Bearer|Authorization|gg|luna|vp|quadrants|focus|end|yes|no|ability|side)$"
)


def _component_ids(origin: str) -> list[str]:
    """The catalog's ids (cards, tiles, pages, objectives, subjects: notation, the same in every
    language). The component names and texts are not among them: the page shows them in its own
    language (GET /catalog/{edition} in the request's language, domain.catalog.names)."""
    catalog = httpx.get(f"{origin}/catalog/base").json()
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in ("id", "arch", "niche") and isinstance(inner, str):
                    found.append(inner)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(catalog)
    return [f for f in found if f]


def english_words(texts: list[list[str]], allowed: list[str]) -> list[str]:
    """The ASCII words of `texts` that are neither notation nor names nor the catalog's ids."""
    found = []
    for text, where in texts:
        if text.startswith("@") or any(text in component for component in allowed):
            continue  # command notation ("@0 move 1"), or an id
        rest = text
        for name in sorted(allowed, key=len, reverse=True):
            if len(name) > 2 and name in rest:
                rest = rest.replace(name, " ")
        for word in re.findall(r"[A-Za-z][A-Za-z'\u2019-]*[A-Za-z]|[A-Za-z]", rest):
            if len(word) > 1 and not NOTATION.match(word) and word not in NAMES:
                found.append(f"{word!r} in {text!r} ({where})")
    return found


def _finished_or_running(origin: str) -> tuple[str, str]:
    created = create(origin, [{"name": "Ada"}, {"bot": "greedy", "name": "Bruno"}], "i18n-words")
    return created["game_id"], created["seats"][0]["token"]


@pytest.mark.parametrize("lang", ["ja", "zh-Hans"])
def test_no_english_word_on_lobby_play_and_replay(server: str, pages: Pages, lang: str) -> None:  # noqa: F811
    game_id, token = _finished_or_running(server)
    allowed = _component_ids(server) + [game_id[:8]]
    found: list[str] = []
    page = pages.new(1440, 900)
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#games a", timeout=15_000)
    found += english_words(page.evaluate(TEXTS), allowed)
    page.goto(f"{server}/play/{game_id}?lang={lang}#token={token}")
    page.wait_for_selector("#move-panel .move, #move-panel button", timeout=15_000)
    page.wait_for_selector("#history li", timeout=15_000)
    found += english_words(page.evaluate(TEXTS), allowed)
    page.goto(f"{server}/replay/{game_id}?lang={lang}")
    page.wait_for_selector("#board svg", timeout=15_000)
    found += english_words(page.evaluate(TEXTS), allowed)
    assert not found, f"{len(found)} English words in {lang}:\n" + "\n".join(sorted(set(found))[:60])


CLIPPED = """() => {
  const out = [];
  const read = 'button, label, h1, h2, h3, th, td, a, .banner, .badge, summary';
  for (const el of document.querySelectorAll(read)) {
    const r = el.getBoundingClientRect();
    if (!r.width || el.closest('[hidden]')) continue;
    const style = getComputedStyle(el);
    const clips = style.overflow !== 'visible' || style.textOverflow === 'ellipsis'
      || style.whiteSpace === 'nowrap';
    if (clips && el.scrollWidth > el.clientWidth + 1) out.push(el.outerHTML.slice(0, 120));
    const scrolls = (n) => n && n !== document.body
      && (['auto', 'scroll'].includes(getComputedStyle(n).overflowX) || scrolls(n.parentElement));
    if (r.right > window.innerWidth + 1 && !scrolls(el.parentElement))
      out.push('past the right edge: ' + el.outerHTML.slice(0, 120));
  }
  return out;
}"""


@pytest.mark.parametrize("width", [1440, 390])
def test_the_pseudo_locale_is_not_clipped(server: str, pages: Pages, width: int) -> None:  # noqa: F811
    game_id, token = _finished_or_running(server)
    page = pages.new(width, 900 if width > 400 else 844)
    page.goto(f"{server}/play/{game_id}?lang=en-XA#token={token}")
    page.wait_for_selector("#move-panel .move, #move-panel button", timeout=15_000)
    assert page.get_attribute("html", "lang") == "en-XA"
    assert "·····" in page.locator("#banner").inner_text()  # the pseudo words are shown
    no_overflow(page)
    assert page.evaluate(CLIPPED) == [], "the play page"
    page.goto(f"{server}/?lang=en-XA")
    page.wait_for_selector("#games a", timeout=15_000)
    no_overflow(page)
    assert page.evaluate(CLIPPED) == [], "the lobby"


def test_the_history_follows_the_game_in_chinese(server: str, pages: Pages) -> None:  # noqa: F811
    created = create(server, [{"name": "Ada"}, {"name": "Bo"}], "i18n-follow")
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    page = pages.new(390, 844)
    page.goto(f"{server}/play/{game_id}?lang=zh-Hans")
    page.wait_for_selector("#history li", timeout=15_000)
    with httpx.Client(base_url=server, timeout=10) as http:
        play_turns(http, Table(game_id, tokens), random.Random(3), max_decisions=12, timeout=60)
    page.wait_for_function("() => document.querySelectorAll('#history li').length > 3", timeout=20_000)
    assert all(re.search(r"[\u4e00-\u9fff]", t) for t in page.locator("#history li").all_inner_texts())
