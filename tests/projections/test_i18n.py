"""The catalogs (projections/i18n, docs/i18n.md): complete in every language, in step with the code, with
the same placeholders; CLDR plurals; the pseudo-locale; negotiation; the describer in each language."""

from __future__ import annotations

import random
from typing import Any

import polib
import pytest

from domain import Options, command_to_dict, legal_moves, play_through, start
from domain.events import event_to_dict
from domain.selfplay import default_setup
from projections.describe import default_context, describe_command, describe_event
from projections.i18n import (
    LOCALES_DIR,
    PSEUDO,
    TEMPLATE,
    available,
    negotiate,
    ntext,
    page_messages,
    placeholders,
    pseudo,
    text,
)
from projections.i18n.__main__ import extracted, problems

LANGUAGES = ("ja", "zh-Hans")


def _catalog(locale: str) -> polib.POFile:
    return polib.pofile(str(LOCALES_DIR / f"{locale.replace('-', '_')}.po"))


def test_every_language_of_the_issue_is_offered() -> None:
    assert available() == ("en", "ja", "zh-Hans")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_message_id_is_translated_with_the_same_placeholders(locale: str) -> None:
    """Read with polib (not the code under test): every id of the template is in the catalog,
    translated, not fuzzy, and each translation has the placeholders of its id."""
    template = polib.pofile(str(TEMPLATE))
    catalog = {(e.msgid, e.msgid_plural): e for e in _catalog(locale)}
    assert len(template) > 900
    wrong = []
    for entry in template:
        found = catalog.get((entry.msgid, entry.msgid_plural))
        if found is None or "fuzzy" in found.flags:
            wrong.append(f"missing: {entry.msgid!r}")
            continue
        forms = list(found.msgstr_plural.values()) if entry.msgid_plural else [found.msgstr]
        if not all(forms):
            wrong.append(f"untranslated: {entry.msgid!r}")
        wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural or "")
        for form in forms:
            if placeholders(form) != wanted:
                wrong.append(
                    f"placeholders {sorted(placeholders(form))} != {sorted(wanted)}: {entry.msgid!r}"
                )
    assert not wrong, "\n".join(wrong[:20])
    assert list(problems()) == []  # the module's own check agrees


def test_the_template_holds_every_message_of_the_code() -> None:
    """messages.pot is what `python -m projections.i18n extract` makes from the code now: a new text in
    Python, a page's script or its HTML cannot miss its translations."""
    committed = {(e.msgid, e.msgid_plural or None) for e in polib.pofile(str(TEMPLATE))}
    now = {(m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1]) for m in extracted() if m.id}
    assert now - committed == set(), "run python -m projections.i18n extract and update"
    assert committed - now == set(), "the template has ids no code uses: extract again"


def test_CLDR_plurals_one_form_in_japanese_and_chinese_two_in_english() -> None:
    assert ntext("en", "{n} step", "{n} steps", 1) == "1 step"
    assert ntext("en", "{n} step", "{n} steps", 2) == "2 steps"
    assert ntext("ja", "{n} step", "{n} steps", 3) == "3マス"
    assert ntext("zh-Hans", "{n} step", "{n} steps", 1) == "1 格"
    assert page_messages("ja")["messages"]["{n} move"] == {"other": "{n}手"}
    assert page_messages("en")["messages"] == {}  # English: the ids themselves


def test_the_pseudo_locale_is_accented_40_percent_longer_and_keeps_placeholders() -> None:
    for message in ("Gained {n} Quadrants", "tile {tile!r} is already upgraded", "Confirm"):
        out = pseudo(message)
        assert placeholders(out) == placeholders(message)
        assert len(out) >= 1.4 * len(message)
        assert not any(c in out for c in "aeiouAEIOU" if c not in "".join(placeholders(message)))
    assert text(PSEUDO, "Confirm") == pseudo("Confirm")


@pytest.mark.parametrize(
    ("header", "locale"),
    [
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("zh-CN,zh;q=0.9", "zh-Hans"),
        ("zh-TW", "en"),  # Traditional Chinese: not spoken here
        ("zh-TW,zh;q=0.9,en;q=0.8", "zh-Hans"),
        ("zh-Hant-HK", "en"),
        ("zh-Hans-SG", "zh-Hans"),
        ("fr-FR, de;q=0.5", "en"),
        ("en;q=0.1, ja;q=0.5", "ja"),
        ("ja;q=0", "en"),
        ("", "en"),
        (None, "en"),
        ("en-XA", "en"),  # the pseudo-locale is asked for by name, never negotiated
    ],
)
def test_accept_language_negotiation(header: str | None, locale: str) -> None:
    assert negotiate(header) == locale


def _played(seed: str, steps: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The events and the offered commands of a seeded random game with Luna (JSON forms)."""
    rng = random.Random(seed)
    state, started = start(default_setup(3, seed, Options(luna=True)))
    events = [event_to_dict(e) for e in started]
    commands: list[dict[str, Any]] = []
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            break
        commands += [command_to_dict(m) for m in moves[:5]]
        state, happened = play_through(state, rng.choice(moves))
        events += [event_to_dict(e) for e in happened]
    return events, commands


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_describer_speaks_each_language(locale: str) -> None:
    """The history and the moves of a seeded game in `locale`: every text differs from the English one
    where the English has words, and none fails."""
    events, commands = _played("i18n-31", 400)
    assert len(events) > 300
    en, other = default_context(), default_context(locale=locale)
    assert len({e["type"] for e in events}) > 20
    same = []
    for e in events:
        english, said = describe_event(e, en), describe_event(e, other)
        if said == english and english != e.get("type"):
            same.append(english)
    for m in commands[:400]:
        english, said = describe_command(m, en), describe_command(m, other)
        if said == english:
            same.append(english)
    assert not same, same[:10]


def test_the_describer_names_the_components_in_the_rulebook_terms_of_each_language() -> None:
    """Card, constellation and character names in the history are the names glossary's
    (domain.catalog.names), not the English catalog's; whole sentences, not glued pieces."""
    ja, zh = default_context(locale="ja"), default_context(locale="zh-Hans")
    dealt = {"type": "CardDealt", "card": "D1-01", "space": 0, "from_reserve": True}
    assert describe_event(dealt, ja).startswith("月") and "予備から" in describe_event(dealt, ja)
    assert "Moon" not in describe_event(dealt, zh)
    started = {
        "type": "GameStarted",
        "seats": [["Ada", "galileo"]],
        "options": {"luna": True},
        "first_seat": 0,
    }
    assert describe_event(started, ja) == "ゲーム開始（ルナあり）: Ada (ガリレオ・ガリレイ)。席0が先手"  # noqa: RUF001
    observed = {"type": "ConstellationObserved", "seat": 0, "card": "D1-01", "index": 0, "dice": [["R", 5]]}
    assert "こぐま座" in describe_event(observed, ja) and "小熊座" in describe_event(observed, zh)
