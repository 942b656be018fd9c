"""Component names in each language: Discovery cards (by card id, named by their Major Object), Major
Objects and constellations (by English name), characters, Action tiles, objectives, Subject tiles, Luna's
Scoring tiles, Tycho's solo tiles (by id) and the component kinds themselves (`term`: "quadrant",
"book_of_comets", ...).

The words are those of the published rulebook of the language where there is one: the Japanese rules
(S004, the digest's glossary) for `ja`, the publisher's Chinese rulebook (the rules addendum) for
`zh-Hans`. The data are `names/<locale>.toml`, read lazily once per language through importlib.resources
(no I/O at import time).

    component_name("card", "D1-01", "ja")          # '月'
    component_name("constellation", "Ursa Minor", "zh-Hans")   # '小熊座'
    component_name("term", "quadrant", "ja")       # '四分儀トークン'

An unknown locale reads as English; a name a locale lacks is given in English; an id no file knows is
returned as it is (so a new catalog entry shows its id rather than failing).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources

NAME_LOCALES: tuple[str, ...] = ("en", "ja", "zh-Hans")
KINDS: tuple[str, ...] = (
    "term", "card", "major", "constellation", "character", "action_tile", "objective", "subject",
    "scoring_tile", "solo_tile",
)  # fmt: skip


def name_locale(tag: str | None) -> str:
    """The names' language for a tag: "ja-JP" -> "ja", "zh"/"zh-CN"/"zh-Hans-CN" -> "zh-Hans", anything else
    (Traditional Chinese too) -> "en"."""
    parts = (tag or "").strip().replace("_", "-").lower().split("-")
    if parts[0] == "ja":
        return "ja"
    if parts[0] == "zh" and not any(p in {"hant", "tw", "hk", "mo"} for p in parts[1:]):
        return "zh-Hans"
    return "en"


@cache
def names(locale: str) -> Mapping[str, Mapping[str, str]]:
    """Every table of `names/<locale>.toml` (kind -> id -> name); {} for a locale without a file."""
    if locale not in NAME_LOCALES:
        return {}
    file = resources.files("domain.catalog") / "names" / f"{locale}.toml"
    raw = tomllib.loads(file.read_text(encoding="utf-8"))
    unknown = set(raw) - set(KINDS)
    if unknown:
        raise ValueError(f"names/{locale}.toml: unknown kinds {sorted(unknown)}")
    return {kind: dict(table) for kind, table in raw.items()}


def component_name(kind: str, id: str, locale: str = "en") -> str:
    """The printed name of a component in `locale` ("en", "ja", "zh-Hans"; other tags: see `name_locale`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown component kind {kind!r}; one of {', '.join(KINDS)}")
    chosen = name_locale(locale)
    english = names("en")
    if kind == "card":
        major = english.get("card", {}).get(id)
        return id if major is None else component_name("major", major, chosen)
    found = names(chosen).get(kind, {}).get(id) if chosen != "en" else None
    return found or english.get(kind, {}).get(id, id)
