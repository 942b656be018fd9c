"""The reference in other languages: `rulebook/data/<locale>/NN-slug.toml` holds, per chapter, the
translated chapter title and notes and, per rule ID, the translated title, text and notes.

    [chapter]
    number = 2
    title = "手番の流れ"

    [rule.MOV-1]
    title = "望遠鏡を1〜3マス動かす"
    text = \"\"\"...\"\"\"
    addendum = "..."            # optional, as are project, editions.<edition> and options.<name>

Only words change: IDs, kinds, sources (citations of the documents), edition and option names stay the
English reference's, and every rule ID a text cites must be cited by its translation too (the test checks
that, and that every rule of every chapter is translated). A field a translation lacks is shown in English,
so a half-done language still serves every rule.

Adding a language: a folder `rulebook/data/<tag>/` with one file per chapter, its tag in
`rulebook.model.LOCALES` and in `locale_of`, and its words in `rulebook.labels`.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from rulebook.model import LOCALES, Chapter, EditionValue, Reference, Rule, RuleOption

RULE_KEYS = frozenset({"title", "text", "addendum", "project", "editions", "options"})


def _wide(char: str) -> bool:
    """A character written without spaces around it (CJK ideographs, kana, full-width punctuation)."""
    return ord(char) >= 0x2E80


def join_lines(value: str) -> str:
    """Wrapped prose as one paragraph: lines joined by a space, except where a line break falls between
    CJK characters (which are written without spaces)."""
    lines = [line.strip() for line in value.strip().splitlines() if line.strip()]
    out = ""
    for line in lines:
        if out and not (_wide(out[-1]) or _wide(line[0])):
            out += " "
        out += " ".join(line.split())
    return out


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: expected non-empty text, got {value!r}")
    return join_lines(value)


@dataclasses.dataclass(frozen=True, slots=True)
class ChapterText:
    title: str | None
    notes: str | None
    rules: Mapping[str, Mapping[str, Any]]


@cache
def chapter_texts(locale: str) -> dict[str, ChapterText]:
    """The translation files of `locale` by file name; a file is for the chapter its name's number gives
    (the same name as the English chapter's file)."""
    if locale not in LOCALES or locale == "en":
        raise ValueError(f"no translation folder for locale {locale!r}")
    folder = resources.files("rulebook") / "data" / locale
    found: dict[str, ChapterText] = {}
    if not folder.is_dir():
        return found
    for file in sorted(folder.iterdir(), key=lambda f: f.name):
        if not file.name.endswith(".toml") or file.name.startswith("_"):
            continue
        raw = tomllib.loads(file.read_text(encoding="utf-8"))
        head = raw.get("chapter", {})
        rules = raw.get("rule", {})
        where = f"{locale}/{file.name}"
        for rule_id, fields in rules.items():
            unknown = set(fields) - RULE_KEYS
            if unknown:
                raise ValueError(f"{where} ({rule_id}): unknown keys {sorted(unknown)}")
        found[file.name] = ChapterText(
            title=_text(head["title"], where) if "title" in head else None,
            notes=_text(head["notes"], where) if "notes" in head else None,
            rules=rules,
        )
    return found


def _rule(rule: Rule, fields: Mapping[str, Any], where: str) -> Rule:
    def text(key: str, english: str | None) -> str | None:
        return _text(fields[key], f"{where}.{key}") if key in fields and english is not None else english

    editions = dict(fields.get("editions", {}))
    options = dict(fields.get("options", {}))
    for edition in editions:
        if edition not in {e.edition for e in rule.editions}:
            raise ValueError(f"{where}: edition {edition!r} is not one of the English rule's")
    for name in options:
        if name not in {o.name for o in rule.options}:
            raise ValueError(f"{where}: option {name!r} is not one of the English rule's")
    return dataclasses.replace(
        rule,
        title=text("title", rule.title) or rule.title,
        text=text("text", rule.text) or rule.text,
        addendum=text("addendum", rule.addendum),
        project=text("project", rule.project),
        editions=tuple(
            EditionValue(e.edition, _text(editions[e.edition], where) if e.edition in editions else e.value)
            for e in rule.editions
        ),
        options=tuple(
            RuleOption(
                o.name,
                _text(options[o.name].get("default", o.default), where),
                _text(options[o.name].get("alternative", o.alternative), where),
            )
            if o.name in options
            else o
            for o in rule.options
        ),
    )


def _number(name: str) -> int:
    """The chapter number a translation file is for: the digits its name starts with ("02-turn.toml")."""
    digits = name.split("-", 1)[0]
    if not digits.isdigit():
        raise ValueError(f"translation file {name!r} does not start with its chapter number")
    return int(digits)


def translate(english: Reference, locale: str) -> Reference:
    """`english` with the titles and texts of `locale` where its files have them."""
    texts = chapter_texts(locale)
    known = {c.number for c in english.chapters}
    strays = {name for name in texts if _number(name) not in known}
    if strays:
        raise ValueError(f"{locale}: translation files without an English chapter: {sorted(strays)}")
    by_number = {_number(name): (name, text) for name, text in texts.items()}
    chapters = []
    for chapter in english.chapters:
        name, done = by_number.get(chapter.number, (f"{chapter.number:02d}", ChapterText(None, None, {})))
        ids = {r.id for r in chapter.rules}
        extra = set(done.rules) - ids
        if extra:
            raise ValueError(f"{locale}/{name}: rules not in the English chapter: {sorted(extra)}")
        rules = tuple(
            _rule(r, done.rules[r.id], f"{locale}/{name} ({r.id})") if r.id in done.rules else r
            for r in chapter.rules
        )
        chapters.append(
            Chapter(
                number=chapter.number,
                slug=chapter.slug,
                title=done.title or chapter.title,
                notes=(done.notes or chapter.notes) if chapter.notes else None,
                rules=rules,
            )
        )
    return Reference(tuple(chapters), locale=locale)


def missing(locale: str) -> list[str]:
    """Rule IDs (and "chapter N" entries) whose title or text `locale` has no translation for."""
    english = reference_en()
    texts = chapter_texts(locale)
    out = []
    for chapter in english.chapters:
        done = next((t for name, t in texts.items() if _number(name) == chapter.number), None)
        if done is None or done.title is None or (chapter.notes and done.notes is None):
            out.append(f"chapter {chapter.number}")
        for rule in chapter.rules:
            fields = {} if done is None else done.rules.get(rule.id, {})
            if "title" not in fields or "text" not in fields:
                out.append(rule.id)
    return out


def reference_en() -> Reference:
    from rulebook.model import reference

    return reference("en")
