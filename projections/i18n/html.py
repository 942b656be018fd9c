"""The words of a static page (api/static/*.html): its text nodes and the attributes a person reads
(`title`, `aria-label`, `placeholder`, `alt`). One scanner serves both the extraction of message ids and
the translation of the page when it is served, so the two cannot disagree."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import IO, Any

# Text between two tags (never inside a tag: no `<` or `>` in it), and the read attributes.
_TEXT = re.compile(r">([^<>]+)<")
_ATTRIBUTE = re.compile(r'\b(title|aria-label|placeholder|alt)="([^"]*)"')
_WORDS = re.compile(r"[A-Za-z]{2,}")


def readable(text: str) -> bool:
    """Whether a piece of page text has words to translate (not only notation, numbers or space)."""
    return bool(_WORDS.search(text))


def messages(page: str) -> Iterator[tuple[int, str]]:
    """(line, message id) of every piece of readable text of `page`, in order."""
    for pattern, group in ((_TEXT, 1), (_ATTRIBUTE, 2)):
        for m in pattern.finditer(page):
            words = " ".join(m[group].split())
            if readable(words):
                yield page.count("\n", 0, m.start()) + 1, words


def translate(page: str, say: Callable[[str], str], lang: str) -> str:
    """`page` with each readable piece said by `say` (its surrounding space kept) and `lang` set."""

    def text(m: re.Match[str]) -> str:
        raw = m[1]
        words = " ".join(raw.split())
        if not readable(words):
            return m[0]
        lead = raw[: len(raw) - len(raw.lstrip())]
        trail = raw[len(raw.rstrip()) :]
        return f">{lead}{_escape(say(words))}{trail}<"

    def attribute(m: re.Match[str]) -> str:
        words = " ".join(m[2].split())
        if not readable(words):
            return m[0]
        return f'{m[1]}="{_escape(say(words), quote=True)}"'

    out = _ATTRIBUTE.sub(attribute, _TEXT.sub(text, page))
    return re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', out, count=1)


def _escape(words: str, quote: bool = False) -> str:
    out = words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return out.replace('"', "&quot;") if quote else out


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extraction method for the pages (projections/i18n/__main__.py)."""
    for line, words in messages(fileobj.read().decode("utf-8")):
        yield line, None, words, []
