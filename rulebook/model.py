"""Rules, chapters and the loaded reference, read from the TOML chapter files in `rulebook/data/`."""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

# Every rule-ID prefix, in the order of the chapters that define them.
PREFIXES: tuple[str, ...] = (
    "COMP", "SET", "TURN", "MOV", "ACT", "CLN", "SKY", "ROT", "DIE", "OBS", "GAIN", "LEC", "SPOT", "UPG",
    "ICON", "FREE", "RES", "LIB", "WRT", "BOC", "UNI", "OBJ", "SUBJ", "SCL", "INQ", "REP", "END", "SCO",
    "TIE", "CHAR", "LUNA", "SOLO", "EX", "CT", "DER", "DATA", "AMB", "ASYNC",
    "HOOK", "ACCT",
)  # fmt: skip

_PREFIX = "|".join(PREFIXES)
# MOV-1, CHAR-GAL-2, LUNA-BA-5, OBJ-P1, SUBJ-A3, LUNA-23.1 — as written in prose, code and errors.
RULE_ID = re.compile(rf"\b(?:{_PREFIX})(?:-[A-Z]{{2,3}})?-[A-Z]?\d+(?:\.\d+)?\b")
# The same IDs as they appear in test names: test_MOV_1_..., test_CHAR_GAL_2_..., test_LUNA_BA_5_...
TEST_NAME_RULE_ID = re.compile(rf"(?<![A-Za-z0-9])((?:{_PREFIX})(?:_[A-Z]{{2,3}})?_[A-Z]?\d+)(?![0-9])")

# What a rule's `kind` says about where it comes from.
KINDS: Mapping[str, str] = {
    "seed": "stated in a rule document",
    "derived": "not stated in so many words; follows from the documents (reasoning in chapter 19 or inline)",
    "provisional": "a value the documents do not print, chosen so the engine can play; kept in catalog data",
    "ruling": "a decision where the documents are unclear or disagree (chapter 21)",
    "example": "a worked example from a rule document, used as a test case",
    "constructed": "a test case built from the rules",
    "addendum": "from the publisher's rulebook (rules addendum), not in the other documents",
    "service": "a rule of this service's tables (clocks, take-backs, hosts), not of the board game",
}

# Editions that rule entries may name where a value differs between them.
EDITIONS: Mapping[str, str] = {
    "base-provisional-1": "the first catalog edition: the digest's provisional data, the retail box's counts",
    "base-2": (
        "the catalog edition that applies the corrections of the publisher's rulebook (rules addendum)"
    ),
    "base-3": (
        "base-2 with the ability sides of Galileo, Kepler, Copernicus and Bruno (CHAR-1, DATA-16/17/18); "
        "new games get it (docs/editions.md)"
    ),
}

URL_BASE = "/rules/"

# The languages of the reference: English is the source, the others are translations (rulebook/data/<tag>/).
LOCALES: tuple[str, ...] = ("en", "ja", "zh-Hans")


def locale_of(tag: str | None) -> str:
    """The reference's language for a language tag: "ja-JP" -> "ja", "zh-CN"/"zh-Hans-CN"/"zh" -> "zh-Hans";
    anything it has no translation for (including Traditional Chinese) -> "en"."""
    parts = (tag or "").strip().replace("_", "-").lower().split("-")
    if parts[0] == "ja":
        return "ja"
    if parts[0] == "zh" and not any(p in {"hant", "tw", "hk", "mo"} for p in parts[1:]):
        return "zh-Hans"
    return "en"


class UnknownRule(LookupError):
    """A rule ID the reference does not hold; `suggestions` are the closest known IDs."""

    def __init__(self, rule_id: str, suggestions: tuple[str, ...]) -> None:
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no rule {rule_id!r} in the rules reference{hint} (GET /rules lists every rule)")
        self.rule_id = rule_id
        self.suggestions = suggestions


def canonical_id(text: str) -> str:
    """The reference's spelling of a rule ID: upper case, "-" between parts (`mov_1` -> `MOV-1`)."""
    return text.strip().upper().replace("_", "-")


def rule_url(rule_id: str) -> str:
    """The path of a rule's page in the service (a relative URI reference)."""
    return URL_BASE + rule_id


@dataclass(frozen=True, slots=True)
class EditionValue:
    edition: str
    value: str


@dataclass(frozen=True, slots=True)
class RuleOption:
    """A rule option (docs/rules-options.md) that selects another reading of an ambiguous rule."""

    name: str
    default: str
    alternative: str


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    title: str
    kind: str
    source: str
    text: str
    chapter: str
    addendum: str | None = None
    project: str | None = None
    editions: tuple[EditionValue, ...] = ()
    options: tuple[RuleOption, ...] = ()

    @property
    def url(self) -> str:
        return rule_url(self.id)

    @property
    def prefix(self) -> str:
        return self.id.split("-", 1)[0]

    def mentions(self) -> tuple[str, ...]:
        """The rule IDs this rule's text, source and notes cite, in order of first mention, without itself."""
        parts = [self.text, self.source, self.addendum or "", self.project or ""]
        parts += [e.value for e in self.editions]
        found = dict.fromkeys(m for part in parts for m in RULE_ID.findall(part))
        found.pop(self.id, None)
        return tuple(found)

    def to_json(self, chapter: Chapter) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "text": self.text,
            "kind": self.kind,
            "kind_meaning": KINDS[self.kind],
            "source": self.source,
            "addendum": self.addendum,
            "project": self.project,
            "editions": [{"edition": e.edition, "value": e.value} for e in self.editions],
            "options": [
                {"name": o.name, "default": o.default, "alternative": o.alternative} for o in self.options
            ],
            "mentions": list(self.mentions()),
            "chapter": {"number": chapter.number, "slug": chapter.slug, "title": chapter.title},
            "url": self.url,
            "docs": f"docs/rules/{chapter.filename}#{self.id}",
        }


@dataclass(frozen=True, slots=True)
class Chapter:
    number: int
    slug: str
    title: str
    notes: str | None
    rules: tuple[Rule, ...]

    @property
    def filename(self) -> str:
        return f"{self.number:02d}-{self.slug}.md"


@dataclass(frozen=True)
class Reference:
    """Every chapter and rule of the reference, in order; look rules up by ID. `locale` is the language of
    the titles and texts ("en", "ja", "zh-Hans"); IDs, kinds, sources and links are the same in each."""

    chapters: tuple[Chapter, ...]
    locale: str = "en"
    _by_id: dict[str, Rule] = field(init=False, repr=False)
    _chapter_of: dict[str, Chapter] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Rule] = {}
        chapter_of: dict[str, Chapter] = {}
        for chapter in self.chapters:
            for rule in chapter.rules:
                if rule.id in by_id:
                    first = chapter_of[rule.id].slug
                    raise ValueError(f"rule {rule.id} is defined twice (chapters {first}, {chapter.slug})")
                by_id[rule.id] = rule
                chapter_of[rule.id] = chapter
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "_chapter_of", chapter_of)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, rule_id: object) -> bool:
        return isinstance(rule_id, str) and canonical_id(rule_id) in self._by_id

    def get(self, rule_id: str) -> Rule:
        """The rule with this ID (any case, "_" or "-"), or `UnknownRule` with the closest IDs."""
        key = canonical_id(rule_id)
        rule = self._by_id.get(key)
        if rule is None:
            close = difflib.get_close_matches(key, list(self._by_id), n=3, cutoff=0.75)
            raise UnknownRule(rule_id, tuple(close))
        return rule

    def chapter_of(self, rule: Rule) -> Chapter:
        return self._chapter_of[rule.id]

    def to_json(self, rule: Rule) -> dict[str, Any]:
        data = rule.to_json(self._chapter_of[rule.id])
        if self.locale != "en":
            from rulebook.labels import kind_meaning

            data["kind_meaning"] = kind_meaning(self.locale, rule.kind)
            data["docs"] = f"docs/rules/{self.locale}/{self._chapter_of[rule.id].filename}#{rule.id}"
        data["lang"] = self.locale
        return data

    def search(self, query: str) -> list[Rule]:
        """Rules whose ID, title, text, source or notes contain every word of `query` (any case)."""
        words = query.lower().split()
        found = []
        for rule in self:
            haystack = " ".join(
                (rule.id, rule.title, rule.text, rule.source, rule.addendum or "", rule.project or "")
            ).lower()
            if all(word in haystack for word in words):
                found.append(rule)
        return found

    def counts_by_prefix(self) -> dict[str, int]:
        counts = dict.fromkeys(PREFIXES, 0)
        for rule in self:
            counts[rule.prefix] += 1
        return counts


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: expected non-empty text, got {value!r}")
    return " ".join(value.split())  # TOML multi-line strings are wrapped prose: one paragraph


def _rule(raw: Mapping[str, Any], chapter: str, where: str) -> Rule:
    known = {"id", "title", "kind", "source", "text", "addendum", "project", "editions", "options"}
    unknown = set(raw) - known
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    rule_id = _text(raw.get("id"), where)
    where = f"{where} ({rule_id})"
    if not RULE_ID.fullmatch(rule_id):
        raise ValueError(f"{where}: not a rule ID of the form PREFIX-n")
    kind = _text(raw.get("kind"), where)
    if kind not in KINDS:
        raise ValueError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    editions = []
    for edition, value in dict(raw.get("editions", {})).items():
        if edition not in EDITIONS:
            raise ValueError(f"{where}: unknown edition {edition!r}")
        editions.append(EditionValue(edition, _text(value, where)))
    options = tuple(
        RuleOption(
            _text(o.get("name"), where), _text(o.get("default"), where), _text(o.get("alternative"), where)
        )
        for o in raw.get("options", [])
    )
    return Rule(
        id=rule_id,
        title=_text(raw.get("title"), where),
        kind=kind,
        source=_text(raw.get("source"), where),
        text=_text(raw.get("text"), where),
        chapter=chapter,
        addendum=_text(raw["addendum"], where) if "addendum" in raw else None,
        project=_text(raw["project"], where) if "project" in raw else None,
        editions=tuple(editions),
        options=options,
    )


def _chapter(name: str, raw: Mapping[str, Any]) -> Chapter:
    head = raw.get("chapter")
    if not isinstance(head, Mapping):
        raise ValueError(f"{name}: missing [chapter] table")
    slug = _text(head.get("slug"), name)
    rules = tuple(_rule(r, slug, f"{name} rule {i + 1}") for i, r in enumerate(raw.get("rule", [])))
    if not rules:
        raise ValueError(f"{name}: no rules")
    return Chapter(
        number=int(head["number"]),
        slug=slug,
        title=_text(head.get("title"), name),
        notes=_text(head["notes"], name) if "notes" in head else None,
        rules=rules,
    )


def reference(locale: str = "en") -> Reference:
    """The reference as shipped with the package (read and validated once per language).

    `locale` is "en", "ja" or "zh-Hans" (any spelling `locale_of` accepts; others give English). A translated
    reference has the English one's chapters, rules, IDs, kinds, sources and edition names, with the titles
    and texts of `rulebook/data/<locale>/` (rulebook.translations)."""
    return _reference(locale_of(locale))


@cache
def _reference(locale: str) -> Reference:
    if locale != "en":
        from rulebook.translations import translate

        return translate(_reference("en"), locale)
    folder = resources.files("rulebook") / "data"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
    chapters = tuple(_chapter(f.name, tomllib.loads(f.read_text(encoding="utf-8"))) for f in files)
    numbers = [c.number for c in chapters]
    if numbers != sorted(set(numbers)):
        raise ValueError(f"chapter numbers must be unique and in file order: {numbers}")
    return Reference(chapters)
