"""The rules reference (rulebook/, docs/rules/): complete, consistent with its Markdown, and every rule ID
that the code, the events, the docs and the tests cite resolves in it."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from domain.vocabulary import EVENT_TYPES
from rulebook import EDITIONS, PREFIXES, RULE_ID, TEST_NAME_RULE_ID, UnknownRule, canonical_id, reference
from rulebook.html import index_page, rule_page
from rulebook.markdown import GENERATED, render, write

ROOT = Path(__file__).resolve().parents[2]
DOCS_RULES = ROOT / "docs" / "rules"

# Where rule IDs are cited: source (string literals, comments, docstrings), docs and the web pages.
CITING = [
    *[(package, "*.py") for package in ("domain", "api", "replays", "projections", "bench")],
    ("docs", "*.md"),
    ("api/static", "*.js"),
    ("api/static", "*.html"),
]


def _cited_in_files() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    files = [path for folder, pattern in CITING for path in sorted((ROOT / folder).rglob(pattern))]
    files += [ROOT / "README.md", ROOT / "bench" / "README.md"]
    for path in files:
        for rule_id in RULE_ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return cited


def _cited_in_test_names() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                for raw in TEST_NAME_RULE_ID.findall(node.name):
                    cited.setdefault(canonical_id(raw), set()).add(f"{path.relative_to(ROOT)}::{node.name}")
    return cited


def _unresolved(cited: dict[str, set[str]]) -> list[str]:
    ref = reference()
    return [
        f"{rule_id} (in {', '.join(sorted(where))})"
        for rule_id, where in sorted(cited.items())
        if rule_id not in ref
    ]


def test_the_reference_covers_every_prefix_and_each_id_once() -> None:
    ref = reference()
    counts = ref.counts_by_prefix()
    assert all(counts[prefix] > 0 for prefix in PREFIXES), counts
    assert len(ref) == sum(counts.values()) == len({rule.id for rule in ref})
    for rule in ref:
        assert RULE_ID.fullmatch(rule.id) and rule.title and rule.text and rule.source
        assert all(edition.edition in EDITIONS for edition in rule.editions)


def test_docs_rules_markdown_matches_the_data() -> None:
    """docs/rules/ is generated from rulebook/data/: regenerate with `python -m rulebook docs/rules`."""
    expected = render(reference())
    present = {path.name: path.read_text(encoding="utf-8") for path in DOCS_RULES.glob("*.md")}
    assert sorted(present) == sorted(expected), "run `python -m rulebook docs/rules`"
    stale = [name for name, text in expected.items() if present[name] != text]
    assert not stale, f"docs/rules/ is out of date ({', '.join(stale)}): run `python -m rulebook docs/rules`"
    unlinked = {name: re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text) for name, text in present.items()}
    for rule in reference():
        chapter = reference().chapter_of(rule)
        assert f'<a id="{rule.id}"></a>\n### {rule.id} — {rule.title}' in present[chapter.filename]
        assert rule.text in unlinked[chapter.filename]


def test_python_m_rulebook_writes_the_folder_and_keeps_foreign_files(tmp_path: Path) -> None:
    (tmp_path / "old.md").write_text(GENERATED + "\nstale chapter\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("written by hand\n", encoding="utf-8")
    write(reference(), tmp_path)
    names = {path.name for path in tmp_path.glob("*.md")}
    assert names == set(render(reference())) | {"notes.md"}


def test_every_rule_id_the_reference_cites_resolves() -> None:
    ref = reference()
    dangling = [f"{rule.id} -> {m}" for rule in ref for m in rule.mentions() if m not in ref]
    assert not dangling


def test_every_rule_id_of_an_event_class_resolves() -> None:
    ref = reference()
    rules = {
        field.default
        for cls in EVENT_TYPES.values()
        for field in dataclasses.fields(cls)
        if field.name == "rule" and isinstance(field.default, str)
    }
    assert len(rules) > 20
    assert sorted(r for r in rules if r not in ref) == []


def test_every_rule_id_cited_in_source_docs_and_pages_resolves() -> None:
    """Covers every IllegalMove raised in domain/ and every rule an event is given at runtime: both are
    string literals in domain/."""
    cited = _cited_in_files()
    assert {"MOV-1", "INQ-20", "SET-21"} <= set(cited)
    assert not _unresolved(cited)


def test_every_rule_id_in_a_test_name_resolves() -> None:
    cited = _cited_in_test_names()
    assert len(cited) > 50
    assert not _unresolved(cited)


def test_lookup_forgives_case_and_underscores_and_unknown_ids_get_suggestions() -> None:
    ref = reference()
    assert ref.get("mov_1").id == "MOV-1" and "char-gal-2" in ref and "LUNA-23.4" in ref
    with pytest.raises(UnknownRule) as caught:
        ref.get("MOV-9")
    assert "MOV-9" in str(caught.value) and caught.value.suggestions
    assert "NOPE-1" not in ref and 42 not in ref


def test_search_finds_rules_by_every_word() -> None:
    found = [rule.id for rule in reference().search("grand inquisitor double")]
    assert "LUNA-44" in found and "MOV-1" not in found
    assert reference().search("zzz-no-such-word") == []


def test_publisher_corrections_keep_both_edition_values() -> None:
    ref = reference()
    deck = {e.edition: e.value for e in ref.get("DATA-2").editions}
    assert "8 / 5 / 4" in deck["base-provisional-1"] and "9 / 5 / 4" in deck["base-2"]
    arch = {e.edition: e.value for e in ref.get("INQ-22").editions}
    assert "C1 -3" in arch["base-provisional-1"] and "C1 -4" in arch["base-2"]
    assert "CN p.20" in (ref.get("DATA-6").addendum or "")


def test_the_solo_game_of_the_publishers_rulebook_has_rule_ids() -> None:
    ref = reference()
    solo = [rule for rule in ref if rule.prefix == "SOLO" and int(rule.id.split("-")[1]) >= 20]
    assert len(solo) >= 30
    assert all("CN p." in rule.source and rule.kind == "addendum" for rule in solo)
    assert ref.get("EX-30").source.startswith("CN p.17")


def test_html_pages_link_every_cited_rule_and_escape_text() -> None:
    ref = reference()
    page = rule_page(ref.get("MOV-5"), ref)
    assert '<a href="/rules/CHAR-SOP-2">CHAR-SOP-2</a>' in page and "<script" not in page
    index = index_page(ref, ref.search("<b>"), "<b>")
    assert "&lt;b&gt;" in index and "<b>" not in index


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"[-+]?\d+", text)]


def _edition_value(rule_id: str, edition: str) -> str:
    values = {e.edition: e.value for e in reference().get(rule_id).editions}
    return values[edition]


def test_first_edition_values_in_the_reference_are_the_catalogs() -> None:
    """What the reference says of edition base-provisional-1 is what that catalog edition holds."""
    from domain.catalog import load_catalog

    catalog = load_catalog("base-provisional-1")
    first = "base-provisional-1"
    deck = _edition_value("DATA-2", first)  # "1 and 2 players 8 / 5 / 4 (17 cards); 3 players ..."
    for players, counts in catalog.deck_composition.items():
        assert f"{' / '.join(map(str, counts))}" in deck, (players, counts, deck)
    assert _numbers(_edition_value("DATA-6", first)) == list(catalog.cellar_arch)
    assert _numbers(_edition_value("DATA-7", first)) == list(catalog.cellar_bottom)
    assert _numbers(_edition_value("DATA-12", first))[0] == catalog.dice_per_colour
    assert _numbers(_edition_value("DATA-1", first))[0] == len(catalog.cards)
    assert _numbers(_edition_value("DATA-10", first).replace("Six", "6"))[0] == len(catalog.scale_tiles)
