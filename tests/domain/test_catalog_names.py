"""Component names in English, Japanese and Simplified Chinese (domain/catalog/names/): every name any
catalog edition prints has an entry in every language, in the rulebook's terms."""

from __future__ import annotations

import re

import pytest

from domain.catalog.loader import editions, load_catalog
from domain.catalog.names import KINDS, NAME_LOCALES, component_name, names
from domain.expansions.solo.data import solo_data

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _printed_names() -> dict[str, dict[str, str]]:
    """kind -> id -> English name, from every edition of the catalog."""
    found: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}
    for edition in editions():
        catalog = load_catalog(edition)
        for card in catalog.cards.values():
            found["card"][card.id] = card.major.name
            found["major"][card.major.name] = card.major.name
            for constellation in card.constellations:
                found["constellation"][constellation.name] = constellation.name
        for tile in catalog.action_tiles:
            found["action_tile"][tile.id] = tile.name
        for character in catalog.characters:
            found["character"][character.id] = character.name
        for objective in catalog.objectives.values():
            found["objective"][objective.id] = objective.text
        for subject in catalog.subject_tiles:
            found["subject"][subject.id] = subject.theme
        for scoring in catalog.luna.scoring_tiles:
            found["scoring_tile"][scoring.id] = scoring.name
        if catalog.luna_characters is not None:
            for own in (*catalog.luna_characters.newton_tiles, *catalog.luna_characters.cunitz_tiles):
                found["action_tile"][own.id] = own.name
        for character in catalog.characters:
            if character.ability is not None and character.ability.tile is not None:
                found["action_tile"][character.ability.tile.id] = character.ability.tile.name
    for solo in solo_data().tiles.values():
        found["solo_tile"][solo.id] = solo.name
    return found


def test_the_english_names_are_the_catalogs() -> None:
    english = names("en")
    for kind, table in _printed_names().items():
        for key, name in table.items():
            assert english[kind].get(key) == name, f"{kind} {key}: {english[kind].get(key)!r} != {name!r}"


@pytest.mark.parametrize("locale", [loc for loc in NAME_LOCALES if loc != "en"])
def test_every_name_has_a_translation_in_the_rulebooks_terms(locale: str) -> None:
    english, translated = names("en"), names(locale)
    for kind in KINDS:
        if kind == "card":
            continue  # a card is named by its Major Object
        lacking = sorted(set(english[kind]) - set(translated.get(kind, {})))
        assert not lacking, f"{locale} [{kind}] lacks {lacking}"
        strays = sorted(set(translated.get(kind, {})) - set(english[kind]))
        assert not strays, f"{locale} [{kind}] has names no catalog prints: {strays}"
        for key, name in translated[kind].items():
            assert CJK.search(name), f"{locale} [{kind}] {key}: {name!r} is not translated"
    for card, major in english["card"].items():
        assert component_name("card", card, locale) == translated["major"][major]


def test_the_rulebooks_terms() -> None:
    assert component_name("term", "quadrant", "ja") == "四分儀トークン"
    assert component_name("term", "cellar", "ja") == "地下室"
    assert component_name("term", "discovery_card", "ja-JP") == "ディスカバリーカード"
    assert component_name("term", "discovery_card", "zh-CN") == "探索卡"
    assert component_name("term", "inquisitor", "zh-Hans") == "审问者指示物"
    assert component_name("character", "tycho", "zh-Hans") == "第谷·布拉赫"
    assert component_name("card", "D1-01", "ja") == "月" and component_name("card", "D1-01", "en") == "Moon"


def test_unknown_locales_and_ids() -> None:
    assert component_name("constellation", "Ursa Minor", "de") == "Ursa Minor"
    assert component_name("constellation", "Ursa Minor", "zh-TW") == "Ursa Minor"
    assert component_name("card", "D9-99", "ja") == "D9-99"
    with pytest.raises(ValueError, match="unknown component kind"):
        component_name("dice", "R", "ja")
