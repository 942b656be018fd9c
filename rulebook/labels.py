"""The words around the rules in each language of the reference: the headings of the HTML pages, the
terminal panels and the Markdown, and the meanings of kinds and editions. The rule texts themselves are in
`rulebook/data/<locale>/` (rulebook.translations); the words of a language other than English are in
`rulebook/data/<locale>/_labels.toml`."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources

from rulebook.model import EDITIONS, KINDS

_EN: Mapping[str, str] = {
    "reference": "Rules reference",
    "site": "Galileo Galilei rules reference",
    "index": "Index",
    "search": "Search",
    "matches": "{count} rule(s) match {query}.",
    "source": "Source",
    "kind": "Kind",
    "chapter": "Chapter",
    "addendum": "Publisher's rulebook",
    "project": "In this project",
    "editions": "By edition",
    "edition": "Edition",
    "options": "Rule options",
    "option": "Option",
    "default": "default",
    "alternative": "alternative",
    "see_also": "See also",
    "online": "Online",
    "json": "JSON: {request} with {accept}.",
    "rule": "Rule",
    "title": "Title",
    "rules_count": "{count} rule(s)",
    "matching": " matching {query}",
    "languages": "Languages",
    "md_chapter_rules": "{count} rules: ",
    "md_intro": (
        "Every rule ID that the engine's errors and events, `galileo explain` and the web pages cite,\n"
        "in the project's own words: its text, its source (a section of a rule document, or a page of the\n"
        "publisher's rulebook) and, where an edition of the catalog changed a value, both values. The same\n"
        "entries are served at `GET /rules/{rule_id}` (JSON or HTML) and printed by `galileo rules RULE_ID`."
    ),
    "md_sources": (
        "Sources: S000 (Luna rulebook), S001 (gameplay and player board), S003 (library, comets,\n"
        "university), S004 (Japanese base rules summary), and CN p.N, the publisher's Chinese rulebook as\n"
        "summarised in the rules addendum. Where the rule documents overrule the digest's reading, the "
        "entry\nsays so under *In this project* ([seed-differences.md]({up}seed-differences.md))."
    ),
    "md_chapters": "Chapters",
    "md_rules": "Rules",
    "md_ids": "IDs",
    "md_per_prefix": "Rules per prefix",
    "md_prefix": "Prefix",
    "md_all": "all",
    "md_kinds": "Kinds",
    "md_editions": "Editions",
}


@cache
def _words(locale: str) -> Mapping[str, Mapping[str, str]]:
    """`rulebook/data/<locale>/_labels.toml`: its [labels], [kinds] and [editions] tables."""
    if locale == "en":
        return {"labels": _EN, "kinds": KINDS, "editions": EDITIONS}
    file = resources.files("rulebook") / "data" / locale / "_labels.toml"
    if not file.is_file():
        return {"labels": {}, "kinds": {}, "editions": {}}
    raw = tomllib.loads(file.read_text(encoding="utf-8"))
    return {key: dict(raw.get(key, {})) for key in ("labels", "kinds", "editions")}


# The value of the HTML lang attribute for each locale.
HTML_LANG: Mapping[str, str] = {"en": "en", "ja": "ja", "zh-Hans": "zh-Hans"}
# Each language named in itself, for the language links of the pages.
NATIVE_NAMES: Mapping[str, str] = {"en": "English", "ja": "日本語", "zh-Hans": "简体中文"}


def label(locale: str, key: str, **values: object) -> str:
    """The word `key` in `locale` (English where the locale lacks it), with `values` filled in."""
    text = _words(locale)["labels"].get(key, _EN[key])
    return text.format(**values) if values else text


def kind_meaning(locale: str, kind: str) -> str:
    return _words(locale)["kinds"].get(kind, KINDS[kind])


def edition_meaning(locale: str, edition: str) -> str:
    return _words(locale)["editions"].get(edition, EDITIONS[edition])
