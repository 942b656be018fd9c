"""The languages people read (docs/i18n.md): gettext catalogs, CLDR plural rules, a pseudo-locale.

A catalog is one file, `locales/<locale>.po` (`ja.po`, `zh_Hans.po`; a German one would be `de.po`),
translating the English message ids of `locales/messages.pot`, which `python -m projections.i18n
extract` builds from the code (Python, the pages' JavaScript and HTML). English is the source and needs
no catalog. The `.po` files are the only source: they are compiled in memory when first used (no `.mo`
files to build or commit), for the server's words (describer, problems) and, as JSON, for the pages.

Every message is a template with named placeholders (`"Gained {n} Quadrants"`); `text` fills it in.
Plurals follow the CLDR rules of the locale (Babel writes them into each catalog's `Plural-Forms`).

`en-XA` is the pseudo-locale: every message accented and 40% longer, placeholders kept, to find text
that is not translated or that a layout clips. It is never negotiated from `Accept-Language`; a page
or client asks for it by name.

This module is pure (no I/O but reading its own catalog files, once).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel import Locale as BabelLocale
from babel.core import UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
TEMPLATE = LOCALES_DIR / "messages.pot"
DEFAULT = "en"
PSEUDO = "en-XA"
# The names of the languages in themselves, for the selector on every page.
NATIVE_NAMES: Mapping[str, str] = {"en": "English", "ja": "日本語", "zh-Hans": "简体中文", PSEUDO: "Ƥşéûðö"}

TRADITIONAL = frozenset({"TW", "HK", "MO"})  # where Chinese is written in Traditional characters
_PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")


def babel_id(locale: str) -> str:
    """ "zh-Hans" → "zh_Hans" (the catalog's file name and Babel's identifier)."""
    return locale.replace("-", "_")


def tag(babel_name: str) -> str:
    """ "zh_Hans" → "zh-Hans" (BCP 47, what HTTP, HTML and `Intl` use)."""
    return babel_name.replace("_", "-")


@lru_cache(maxsize=1)
def available() -> tuple[str, ...]:
    """English, then every language with a catalog file (sorted): adding `de.po` adds German."""
    found = sorted(tag(p.stem) for p in LOCALES_DIR.glob("*.po"))
    return (DEFAULT, *found)


def placeholders(message: str) -> set[str]:
    """The named placeholders of a template: `{n}`, `{tile!r}`, `{overflow:+d}`: n, tile, overflow."""
    return set(_PLACEHOLDER.findall(message))


def _read(path: Path, locale: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=babel_id(locale))


@lru_cache(maxsize=8)
def catalog(locale: str) -> Catalog:
    """The Babel catalog of `locale` (the pseudo-locale is made from the template)."""
    if locale == PSEUDO:
        return _pseudo_catalog()
    if locale not in available() or locale == DEFAULT:
        return Catalog(locale=DEFAULT)
    return _read(LOCALES_DIR / f"{babel_id(locale)}.po", locale)


@lru_cache(maxsize=8)
def translations(locale: str) -> NullTranslations:
    """`gettext` translations of `locale`, compiled from its `.po` in memory (English: the identity)."""
    if locale == DEFAULT or locale not in (*available(), PSEUDO):
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, catalog(locale))
    buffer.seek(0)
    return Translations(buffer)


def _fill(template: str, params: Mapping[str, Any]) -> str:
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template  # a catalog that lost a placeholder shows its words rather than fail


def text(locale: str, message: str, /, **params: Any) -> str:
    """`message` (an English template) in `locale`, filled in with `params`."""
    return _fill(translations(locale).gettext(message), params)


def ntext(locale: str, one: str, many: str, n: int, /, **params: Any) -> str:
    """The plural form of `n` in `locale` (CLDR rules), filled in with `n` and `params`."""
    return _fill(translations(locale).ngettext(one, many, n), {"n": n, **params})


class Words:
    """The words of one locale, as the describer and the problems use them: `w("...", x=1)`."""

    def __init__(self, locale: str) -> None:
        self.locale = locale if locale in (*available(), PSEUDO) else DEFAULT
        self._t = translations(self.locale)

    def __call__(self, message: str, /, **params: Any) -> str:
        return _fill(self._t.gettext(message), params)

    def n(self, one: str, many: str, count: int, /, **params: Any) -> str:
        return _fill(self._t.ngettext(one, many, count), {"n": count, **params})

    def list(self, items: Iterable[str]) -> str:
        """ "a, b and c" in the locale's own way (CLDR list patterns)."""
        from babel.lists import format_list

        words = list(items)
        return format_list(words, locale=babel_id(self.locale if self.locale != PSEUDO else DEFAULT))


@lru_cache(maxsize=8)
def words(locale: str) -> Words:
    return Words(locale)


def negotiate(accept_language: str | None, offered: Iterable[str] | None = None) -> str:
    """The best of the offered locales for an `Accept-Language` header (RFC 9110 §12.5.4), else English.

    "ja-JP" finds "ja"; Simplified Chinese ("zh", "zh-CN", "zh-SG", "zh-Hans-HK") finds "zh-Hans";
    Traditional ("zh-TW", "zh-HK", "zh-Hant") finds nothing here (the next language asked for is tried).
    The pseudo-locale is never negotiated."""
    choices = tuple(offered or available())
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name and q > 0:
            ranked.append((-q, i, name.strip()))
    for _, _, name in sorted(ranked):
        found = match(name, choices)
        if found is not None:
            return found
    return DEFAULT


def match(name: str, offered: Iterable[str] | None = None) -> str | None:
    """The offered locale a language tag names ("ja-JP" → "ja", "zh-CN" → "zh-Hans"), or None."""
    choices = tuple(offered or available())
    lowered = {c.lower(): c for c in choices}
    wanted = name.strip().replace("_", "-").lower()
    if wanted in lowered:
        return lowered[wanted]
    try:
        parsed = BabelLocale.parse(wanted, sep="-")
    except (ValueError, UnknownLocaleError):
        return None
    if parsed.language == "zh":  # written Chinese here is Simplified: not for a Traditional tag
        traditional = parsed.script == "Hant" or (parsed.script is None and parsed.territory in TRADITIONAL)
        return None if traditional else lowered.get("zh-hans")
    return lowered.get(parsed.language)


def is_offered(locale: str) -> bool:
    return locale in (*available(), PSEUDO)


def plural_categories(locale: str) -> tuple[str, ...]:
    """The CLDR plural categories of a locale, in gettext's order (the index of each form)."""
    rule = BabelLocale.parse(babel_id(DEFAULT if locale == PSEUDO else locale)).plural_form
    order = ("zero", "one", "two", "few", "many", "other")
    return tuple(t for t in order if t in rule.tags or t == "other")


@lru_cache(maxsize=1)
def _page_ids() -> frozenset[str]:
    """The ids that the pages' scripts use (their locations in the template are under api/static/)."""
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    return frozenset(
        m.id if isinstance(m.id, str) else m.id[0]
        for m in template
        if m.id
        and any(str(where).startswith("api/static/") and where.endswith(".js") for where, _ in m.locations)
    )


@lru_cache(maxsize=8)
def page_messages(locale: str) -> dict[str, Any]:
    """The catalog as the pages' scripts read it (GET /i18n/{locale}.json, and inside every page): each
    message id the scripts use to its text, a plural one (keyed by its singular id) to its forms by CLDR
    category for `Intl.PluralRules`. The server's own words (describer, problems) stay on the server."""
    messages: dict[str, Any] = {}
    categories = plural_categories(locale)
    used = _page_ids()
    for message in catalog(locale):
        if not message.id or not message.string:
            continue
        if (message.id if isinstance(message.id, str) else message.id[0]) not in used:
            continue
        if isinstance(message.id, tuple | list):
            forms = list(message.string)
            if any(forms):
                messages[message.id[0]] = {c: forms[min(i, len(forms) - 1)] for i, c in enumerate(categories)}
        else:
            messages[str(message.id)] = message.string
    return {"locale": locale, "intl": DEFAULT if locale == PSEUDO else locale, "messages": messages}


# -- the pseudo-locale ------------------------------------------------------------------------------

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçðéƒĝĥîĵķļɱñöþǫŕşţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŞŢÛṼŴẊÝŽ",
)


def pseudo(message: str) -> str:
    """Accented, 40% longer, placeholders untouched: "Gained {n}" → "Ĝàîñéð {n} ·····"."""
    pieces = re.split(r"(\{[^{}]*\})", message)
    accented = "".join(p if p.startswith("{") else p.translate(_ACCENTS) for p in pieces)
    pad = max(1, round(len(message) * 0.4))
    return f"{accented} {'·' * pad}"


def _pseudo_catalog() -> Catalog:
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    out = Catalog(locale="en")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            out.add(message.id, tuple(pseudo(str(m)) for m in message.id))
        else:
            out.add(message.id, pseudo(str(message.id)))
    return out


def N_(message: str) -> str:
    """Marks a message id for the catalogs where it is written (a table of words) and returns it as it
    is: whoever shows it translates it then (`words(locale)(message)`)."""
    return message
