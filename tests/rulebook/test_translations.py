"""The rules reference in Japanese and Simplified Chinese (rulebook/data/ja/, rulebook/data/zh-Hans/): every
rule ID resolves in each language, each translation cites the same rule IDs and keeps the same notation as
the English text, and no English prose is left in it."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulebook import LOCALES, RULE_ID, Rule, locale_of, reference
from rulebook.html import index_page, rule_page
from rulebook.labels import kind_meaning, label
from rulebook.markdown import render
from rulebook.translations import join_lines, missing

TRANSLATED = [locale for locale in LOCALES if locale != "en"]
DOCS_RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"

# Words that only English prose has: one of them standing alone in a translation is an untranslated phrase.
ENGLISH_WORDS = re.compile(
    r"\b(?:the|and|of|is|are|with|from|which|when|that|this|their|every|each|may|must|not|you|your|"
    r"player|players|card|cards|token|tokens|turn|rule|rules|game|gains?|moves?|takes?)\b",
    re.IGNORECASE,
)
# Notation a translation must keep as it is: `code`, board spaces and positions (X1, S4, C1, R2, q0, h=2).
CODE = re.compile(r"`[^`]+`")
SPACE = re.compile(r"\b(?:[XSCRU]\d|q\d|R\d|C\d)\b")
# Numbers a translation must keep (digits, not words: "phase 1" stays 1, not 一): not parts of IDs or spaces.
NUMBER = re.compile(r"(?<![A-Za-z0-9.])\d+(?:\.\d+)?")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
ASCII_LETTER = re.compile(r"[A-Za-z]")
# What may stay in Latin letters: rule IDs, code, option and edition names, file paths, seed and page
# citations, dotted names (card.moon), quoted values, colour letters, reward notation (1D+2, INC:R, 3VP).
KEEP = re.compile(
    r"`[^`]+`|\b[\w.-]+\.(?:md|toml|json|py)\b|\bS00\d\b|\bCN p\.\d+|[A-Za-z]+[-_:+]?\w*\d\w*|"
    r"\b[A-Z]{1,5}\b|\b[a-z]+[A-Z]\w*\b|\b[a-z]+\.[a-z_]+\b|\"[^\"]*\"|https?://\S+|\b(?:base|luna|solo|docs|api)\b"
)


def _fields(rule: Rule) -> dict[str, str]:
    """The translatable text of a rule, by field: title, text, notes, edition values, option readings."""
    out = {"title": rule.title, "text": rule.text}
    if rule.addendum:
        out["addendum"] = rule.addendum
    if rule.project:
        out["project"] = rule.project
    for edition in rule.editions:
        out[f"editions.{edition.edition}"] = edition.value
    for option in rule.options:
        out[f"options.{option.name}.default"] = option.default
        out[f"options.{option.name}.alternative"] = option.alternative
    return out


def _bare(text: str) -> str:
    """`text` without rule IDs and board spaces (whose digits are not numbers of their own)."""
    return SPACE.sub(" ", RULE_ID.sub(" ", text))


def _has_words(text: str) -> bool:
    """Whether `text` has words to translate: not only `true`, `false`, `null`, numbers or quoted values."""
    return re.search(r"[A-Za-z]{3}", re.sub(r"\b(?:true|false|null)\b|\"[^\"]*\"", "", text)) is not None


def test_locale_tags_map_to_the_reference_languages() -> None:
    assert [locale_of(t) for t in ("ja", "ja-JP", "JA_jp", "zh", "zh-CN", "zh-Hans-CN", "zh-SG")] == [
        "ja", "ja", "ja", "zh-Hans", "zh-Hans", "zh-Hans", "zh-Hans",
    ]  # fmt: skip
    assert [locale_of(t) for t in ("zh-TW", "zh-Hant", "zh-HK", "de", "", None, "en-GB")] == ["en"] * 7
    assert reference("de") is reference("en") and reference("ja-JP") is reference("ja")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_rule_id_resolves_in_each_language(locale: str) -> None:
    english, translated = reference("en"), reference(locale)
    assert translated.locale == locale and len(translated) == len(english) > 500
    assert [r.id for r in translated] == [r.id for r in english]
    assert missing(locale) == [], f"{locale}: not translated: {missing(locale)}"
    for rule in english:
        other = translated.get(rule.id)
        assert (other.kind, other.source, other.chapter) == (rule.kind, rule.source, rule.chapter)
        assert [e.edition for e in other.editions] == [e.edition for e in rule.editions]
        assert [o.name for o in other.options] == [o.name for o in rule.options]
        assert translated.chapter_of(other).number == english.chapter_of(rule).number


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_cite_the_same_rule_ids_and_keep_the_notation(locale: str) -> None:
    english, translated = reference("en"), reference(locale)
    wrong = []
    for rule in english:
        other = translated.get(rule.id)
        theirs = _fields(other)
        for field, text in _fields(rule).items():
            mine = theirs.get(field, "")
            where = f"{rule.id}.{field}"
            if sorted(set(RULE_ID.findall(text))) != sorted(set(RULE_ID.findall(mine))):
                wrong.append(f"{where}: rule IDs {RULE_ID.findall(text)} vs {RULE_ID.findall(mine)}")
            for pattern in (CODE, SPACE):
                lost = set(pattern.findall(text)) - set(pattern.findall(mine))
                if lost:
                    wrong.append(f"{where}: notation {sorted(lost)} missing")
            lost = set(NUMBER.findall(_bare(text))) - set(NUMBER.findall(_bare(mine)))
            if lost:
                wrong.append(f"{where}: numbers {sorted(lost)} missing")
        assert other.mentions() == rule.mentions() or set(other.mentions()) == set(rule.mentions())
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_no_english_prose_is_left(locale: str) -> None:
    english, translated = reference("en"), reference(locale)
    left = []
    for rule in translated:
        for field, text in _fields(rule).items():
            if not _has_words(text):
                continue
            if text == _fields(english.get(rule.id)).get(field) and CJK.search(text) is None:
                left.append(f"{rule.id}.{field}: the English text")
                continue
            prose = KEEP.sub(" ", text)
            words = ENGLISH_WORDS.findall(prose)
            letters = len(ASCII_LETTER.findall(prose))
            if words or (letters > 12 and letters > len(CJK.findall(text))):
                left.append(f"{rule.id}.{field}: {words or letters} in {text[:80]!r}")
    for chapter in translated.chapters:
        for part in (chapter.title, chapter.notes or ""):
            if ENGLISH_WORDS.search(KEEP.sub(" ", part)):
                left.append(f"chapter {chapter.number}: {part[:80]!r}")
    assert not left, f"{locale}: English left in {len(left)} places:\n" + "\n".join(left)


def test_wrapped_cjk_lines_join_without_spaces() -> None:
    assert join_lines("望遠鏡を\n  動かす。MOV-1\nを見よ") == "望遠鏡を動かす。MOV-1を見よ"
    assert join_lines("see\nMOV-1 and\n  it") == "see MOV-1 and it"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_pages_are_in_the_language_and_keep_it_in_links(locale: str) -> None:
    ref = reference(locale)
    rule = ref.get("MOV-3")
    page = rule_page(rule, ref)
    assert f'<html lang="{locale}">' in page and rule.title in page and label(locale, "source") in page
    assert f'href="/rules/MOV-1?lang={locale}"' in page or "MOV-1" not in rule.text
    assert kind_meaning(locale, rule.kind) in page and 'hreflang="en"' in page
    index = index_page(ref)
    assert f'<input type="hidden" name="lang" value="{locale}">' in index
    assert ref.chapters[1].title in index and label(locale, "reference") in index
    assert ref.search(rule.title.split()[0])  # search works on the translated words


@pytest.mark.parametrize("locale", TRANSLATED)
def test_docs_rules_in_each_language_match_the_data(locale: str) -> None:
    """docs/rules/<locale>/ is generated with the English folder by `python -m rulebook docs/rules`."""
    expected = render(reference(locale))
    folder = DOCS_RULES / locale
    present = {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.md")}
    assert sorted(present) == sorted(expected), "run `python -m rulebook docs/rules`"
    stale = [name for name, text in expected.items() if present[name] != text]
    assert not stale, f"docs/rules/{locale}/ is out of date ({', '.join(stale)}): run python -m rulebook"
    rule = reference(locale).get("MOV-1")
    assert f"### MOV-1 — {rule.title}" in present["02-turn.md"]
    assert reference(locale).to_json(rule)["docs"] == f"docs/rules/{locale}/02-turn.md#MOV-1"
    assert "(../README.md)" in present["README.md"] and f"({locale}/README.md)" in (
        DOCS_RULES / "README.md"
    ).read_text(encoding="utf-8")


class _TextNodes(HTMLParser):
    """The text a reader sees on a page, without code and what is marked English or not to translate."""

    SKIP = frozenset({"code", "title", "style", "script"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []  # per open element: is its text exempt?
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marked = dict(attrs).get("lang") == "en" or dict(attrs).get("translate") == "no"
        exempt = tag in self.SKIP or marked or bool(self.stack and self.stack[-1])
        if tag not in {"meta", "link", "input", "br"}:
            self.stack.append(exempt)

    def handle_endtag(self, tag: str) -> None:
        if tag not in {"meta", "link", "input", "br"} and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip() and not (self.stack and self.stack[-1]):
            self.texts.append(data.strip())


@pytest.mark.parametrize("locale", TRANSLATED)
def test_no_english_on_any_rules_page(locale: str) -> None:
    """Every rule's page and the index, as served to a reader of `locale`: no English word in a text node
    (the site name, rule IDs and notation aside; source citations are marked translate="no")."""
    ref = reference(locale)
    pages = {"index": index_page(ref)} | {rule.id: rule_page(rule, ref) for rule in ref}
    left = []
    for name, page in pages.items():
        parser = _TextNodes()
        parser.feed(page)
        for text in parser.texts:
            words = ENGLISH_WORDS.findall(KEEP.sub(" ", text.replace("Galileo Galilei", "")))
            if words:
                left.append(f"{name}: {words} in {text[:80]!r}")
    assert not left, f"{locale}: English on {len(left)} text nodes:\n" + "\n".join(left[:40])
