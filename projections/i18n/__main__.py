"""Keep the catalogs in step with the code (docs/i18n.md).

python -m projections.i18n extract   # messages.pot from the code (Python, the pages' JS and HTML)
python -m projections.i18n update    # merge it into every <locale>.po (new ids empty, old ones kept)
python -m projections.i18n init de   # a new language: de.po with every id, to translate
python -m projections.i18n check     # every id in every catalog, translated, same placeholders
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from projections.i18n import LOCALES_DIR, TEMPLATE, available, babel_id, placeholders

ROOT = Path(__file__).resolve().parents[2]
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

# Where message ids are written, and the calls that carry them (Babel keyword specs: argument numbers).
PYTHON_KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "IllegalMove": (2,),  # domain: the refusal's English template (domain/errors.py)
    "CleanupChoice": (5,),
    "ApiError": (3,),  # api: a problem's detail (api/problems.py)
    "unauthorized": (2,),
    "problem": (3,),
    "_invalid": (1,),
    "refused": (1,),
    "w": (1,),  # the describer: c.w("...") and c.w.n("one", "many", n)
    "n": (1, 2),
    "N_": (1,),  # a table of words, translated where it is shown
    "text": (2,),
}
SOURCES: tuple[tuple[str, list[tuple[str, str]], dict[str, tuple[int, ...] | None]], ...] = (
    ("replays", [("errors.py", "python")], {"N_": (1,), "_say": (1,)}),
    ("domain", [("**.py", "python")], PYTHON_KEYWORDS),
    ("api", [("**.py", "python")], PYTHON_KEYWORDS),
    ("projections", [("describe.py", "python"), ("preview.py", "python")], PYTHON_KEYWORDS),
    ("projections", [("render.py", "python")], {"N_": (1,)}),
    ("api/static", [("*.js", "projections.i18n.js:extract")], {"t": None, "tn": (1, 2)}),
    ("api/static", [("*.html", "projections.i18n.html:extract")], {}),
)
TITLES = (
    "Bad request",
    "Unauthorized",
    "Forbidden",
    "Not found",
    "Method not allowed",
    "Conflict",
    "Content too large",
    "Unsupported media type",
    "Unprocessable content",
    "Too many requests",
    "Internal server error",
    "Service unavailable",
    "Error",
)  # api/problems.py TITLES (a table)


def extracted() -> Catalog:
    """Every message id the code holds, with where it is."""
    # A fixed date: the template changes only when a message does (git keeps the history).
    out = Catalog(project="galileo-service", msgid_bugs_address="", fuzzy=False, creation_date=EPOCH)
    for folder, method_map, keywords in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / folder, method_map, keywords=keywords, comment_tags=("i18n:",), strip_comment_tags=True
        ):
            if not message or (isinstance(message, tuple) and not all(message)):
                continue
            first = message if isinstance(message, str) else message[0]
            if "${" in first or re.fullmatch(r"[a-z]+(-[a-z]+)+", first):
                continue  # a template literal's own text (translated where it is built) or a code
            out.add(
                message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments, context=context
            )
    for title in TITLES:
        out.add(title, None, [("api/problems.py", 0)])
    return out


def _write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as f:
        write_po(f, catalog, width=110, sort_output=True, omit_header=False, include_lineno=False)


def _load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def problems() -> Iterator[str]:
    """What is wrong with the catalogs: an id missing, untranslated or fuzzy, placeholders that differ."""
    template = _load(TEMPLATE)
    for locale in available()[1:]:
        catalog = _load(LOCALES_DIR / f"{babel_id(locale)}.po", babel_id(locale))
        for message in template:
            if not message.id:
                continue
            found = catalog.get(message.id)
            key = message.id if isinstance(message.id, str) else message.id[0]
            if (
                found is None
                or not found.string
                or (isinstance(found.string, tuple) and not all(found.string))
            ):
                yield f"{locale}: not translated: {key!r}"
                continue
            wanted = set().union(*(placeholders(i) for i in _ids(message.id)))
            for form in _ids(found.string):
                got = placeholders(form)
                if got - wanted or (len(_ids(message.id)) == 1 and got != wanted):
                    yield f"{locale}: placeholders {sorted(got)} != {sorted(wanted)} in {key!r}"


def _ids(value: str | tuple[str, ...] | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m projections.i18n",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("action", choices=("extract", "update", "init", "check"))
    parser.add_argument("locale", nargs="?", help="for init: the new language (BCP 47: de, cs, es...)")
    args = parser.parse_args(argv)
    if args.action == "extract":
        _write(extracted(), TEMPLATE)
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(_load(TEMPLATE))} messages")
    elif args.action in ("update", "init"):
        template = _load(TEMPLATE)
        targets = [args.locale] if args.action == "init" else list(available()[1:])
        for locale in targets:
            path = LOCALES_DIR / f"{babel_id(locale)}.po"
            catalog = _load(path, babel_id(locale)) if path.exists() else Catalog(locale=babel_id(locale))
            catalog.update(template, update_header_comment=False, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            _write(catalog, path)
            print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")
    else:
        found = list(problems())
        for line in found:
            print(line)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
