"""Rules editions (docs/editions.md): a game is pinned to its engine rules version, catalog edition and
options; the publisher's corrections (rules addendum) are the second edition, which new games get."""

from __future__ import annotations

import dataclasses

import pytest

from domain import (
    ENGINE_VERSION,
    RULES_VERSIONS,
    EditionUnknown,
    IllegalMove,
    SeatSpec,
    Setup,
    dump_state,
    evolve,
    load_state,
    start,
)
from domain import events as ev
from domain.selfplay import default_setup
from tests.domain.scenario import actions_at, new_game, of_type, play, player, turn

S2 = 3


def test_DATA_2_a_new_two_player_game_deals_from_18_cards() -> None:
    state, events = start(default_setup(2, "data-2"))
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    assert started.catalog_edition == "base-4" and started.engine_version == ENGINE_VERSION
    assert len(started.display) + len(started.deck) == 18  # 9/5/4 [CN p.3]
    tiers = [state.catalog.cards[c].tier for c in (*started.display, *started.deck)]
    assert (tiers.count(1), tiers.count(2), tiers.count(3)) == (9, 5, 4)
    old, _ = start(dataclasses.replace(default_setup(2, "data-2"), catalog_edition="base-provisional-1"))
    assert len(old.display) + len(old.deck) == 17  # the first edition keeps its 8/5/4


def test_DATA_6_INQ_21_interrogation_uses_minus_four_on_C1_in_the_second_edition() -> None:
    for edition, c1 in (("base-provisional-1", -3), ("base-2", -4)):
        s = player(new_game(edition=edition), 0, cellar=(1, 1, 1, 1), reputation=0)
        s = turn(actions_at(s, S2), inquisitor_moved=True)
        s, events = play(s, "end")
        held = of_type(events, ev.InterrogationHeld)[0]
        assert held.total == c1 - 2 - 1 + 1, edition


def test_DATA_7_EX_14_end_game_cellar_row_of_the_second_edition() -> None:
    from domain.scoring import cellar_points

    s = new_game(edition="base-2")
    # CN p.13: two unpersuaded Inquisitors cost 4 and 2, three fully persuaded ones give 3
    p = dataclasses.replace(s.players[0], cellar=(1, 1, 0, 3))
    assert cellar_points(s, p) == -4 - 2 + 3


def test_a_game_keeps_its_edition_and_a_position_records_its_rules_version() -> None:
    s = new_game(edition="base-provisional-1")
    assert s.catalog_edition == "base-provisional-1" and s.engine_version == ENGINE_VERSION
    data = dump_state(s)
    assert data["format"] == 2 and data["engine_version"] == ENGINE_VERSION
    assert dump_state(load_state(data)) == data
    old = {k: v for k, v in data.items() if k != "engine_version"} | {"format": 1}
    # a first-release position is upgraded: it was played under the first release's rules, 0.1.0
    assert dump_state(load_state(old)) == data | {"engine_version": "0.1.0"}


def test_an_unknown_rules_version_is_refused_naming_it() -> None:
    assert ENGINE_VERSION in RULES_VERSIONS
    with pytest.raises(EditionUnknown) as refused:
        start(dataclasses.replace(default_setup(2, "x"), engine_version="9.9.9"))
    assert "unknown rules version '9.9.9'" in str(refused.value) and "0.1.0" in str(refused.value)
    _, events = start(default_setup(2, "x"))
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    with pytest.raises(EditionUnknown, match=r"rules version '9\.9\.9'"):
        evolve(None, dataclasses.replace(started, engine_version="9.9.9"))
    with pytest.raises(EditionUnknown, match=r"catalog edition 'base-9'.*editions/base-9/"):
        evolve(None, dataclasses.replace(started, catalog_edition="base-9"))
    data = dump_state(start(default_setup(2, "x"))[0]) | {"engine_version": "9.9.9"}
    with pytest.raises(EditionUnknown):
        load_state(data)


def test_a_changed_released_edition_is_refused() -> None:
    _, events = start(default_setup(2, "x"))
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    with pytest.raises(ValueError, match="released edition's data were changed"):
        evolve(None, dataclasses.replace(started, catalog_hash="0" * 64))


def test_SET_21_setup_still_refuses_bad_seats_under_every_edition() -> None:
    for edition in ("base-provisional-1", "base-2"):
        with pytest.raises(IllegalMove):
            start(Setup(seats=(SeatSpec("A", "galileo"),) * 2, seed="x", catalog_edition=edition))
