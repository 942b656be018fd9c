"""The character extension point: the turn engine consults `CharacterRules` (digest §17)."""

from __future__ import annotations

import pytest

from domain import characters
from domain.state import S1, Task
from tests.domain.scenario import actions_at, new_game, play, player, show


class ThreeConstellations(characters.CharacterRules):
    def observe_more(self, s, player, first):  # type: ignore[no-untyped-def, override]
        return Task("OBSERVE", 2) if first == "C" else None  # like Galileo's ability (CHAR-GAL-2)

    def on_wrap(self, s, player):  # type: ignore[no-untyped-def, override]
        return [Task("Q", 1, "", "test")]


def test_SET_21_basic_side_changes_no_rule() -> None:
    s = new_game()
    rules = characters.rules_for(s, s.players[0])
    assert rules is characters.BASIC and rules.personal_pages(s.catalog) == ()
    assert rules.observe_more(s, s.players[0], "C") == Task("OBSERVE", 1)
    assert rules.observe_more(s, s.players[0], "MO") is None


def test_character_rules_change_the_observe_limit_and_react_to_wraps(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    for module in ("domain.characters", "domain.grants", "domain.moves"):
        monkeypatch.setattr(sys.modules[module], "rules_for", lambda s, p: ThreeConstellations())
    s = show(show(show(new_game(), 0, "D1-01"), 1, "D1-03"), 2, "D1-07")
    s = actions_at(player(s, 0, dice=(("R", 5), ("R", 4), ("R", 5), ("B", 1))), S1)
    s, _ = play(s, "observe C:D1-01:0 R5 c1=0 c2=0")
    s, _ = finish_effects_until_observe(s)
    assert s.agenda[-1].kind == "OBSERVE" and s.agenda[-1].n == 2  # two more constellations
    wrapped = player(new_game(), 0, telescope=6)
    wrapped, events = play(wrapped, "move 1")
    assert wrapped.players[0].quadrants == 1


def finish_effects_until_observe(s):  # type: ignore[no-untyped-def]
    from domain import legal_moves

    while s.agenda and s.agenda[-1].kind != "OBSERVE":
        s, _ = play(s, str(legal_moves(s)[0]))
    return s, []


@pytest.mark.parametrize("luna", [False, True])
def test_CHAR_2_all_eight_characters_play_their_basic_side_with_or_without_luna(luna: bool) -> None:
    from domain import Options, SeatSpec, Setup
    from domain.bots import make_bot
    from domain.selfplay import play_game
    from domain.setup import characters as all_characters

    CHARACTERS = all_characters()

    assert len(CHARACTERS) == 8
    for first in (0, 4):
        chosen = CHARACTERS[first : first + 4]
        setup = Setup(
            seats=tuple(SeatSpec(f"P{i}", c) for i, c in enumerate(chosen)),
            seed=f"char-2-{first}",
            options=Options(luna=luna),
        )
        record = play_game(setup, [make_bot("random", f"char-2:{i}") for i in range(4)])
        assert record.state.finished
        assert [p.character for p in record.state.players] == list(chosen)
        assert all(characters.rules_for(record.state, p) is characters.BASIC for p in record.state.players)


def test_SET_21_an_unknown_character_is_refused_with_the_list_of_eight() -> None:
    from domain import IllegalMove, SeatSpec, Setup, start

    with pytest.raises(IllegalMove) as refused:
        start(Setup(seats=(SeatSpec("A", "galileo"), SeatSpec("B", "tycho")), seed="x"))
    assert refused.value.code == "unknown-character" and refused.value.rule_id == "SET-21"
    assert "sophia" in refused.value.message and "newton" in refused.value.message


def test_CHAR_1_a_side_per_seat_and_editions_without_the_ability_side_refuse_it() -> None:
    import dataclasses

    from domain import IllegalMove, SeatSpec, Setup, start
    from domain import events as ev

    seats = (SeatSpec("A", "galileo"), SeatSpec("B", "newton", side="ability"))
    with pytest.raises(IllegalMove) as refused:
        start(Setup(seats=seats, seed="sides", catalog_edition="base-2"))  # no ability data in base-2
    assert refused.value.rule_id == "CHAR-1" and refused.value.code == "no-ability-side"
    with pytest.raises(IllegalMove) as refused:
        start(Setup(seats=(SeatSpec("A", "galileo", side="upside"), SeatSpec("B", "kepler")), seed="x"))
    assert refused.value.code == "bad-side"
    old = Setup(seats=(SeatSpec("A", "galileo", side="ability"), SeatSpec("B", "kepler")), seed="x")
    with pytest.raises(IllegalMove):
        start(dataclasses.replace(old, catalog_edition="base-2"))  # base-2 carries no ability data
    # a basic game writes GameStarted in its old shape: no sides, no layouts
    _, events = start(Setup(seats=(SeatSpec("A", "galileo"), SeatSpec("B", "kepler")), seed="x"))
    started = ev.event_to_dict(events[0])
    assert "sides" not in started and "layouts" not in started
