"""The character extension point: the turn engine consults `CharacterRules` (digest §17)."""

from __future__ import annotations

import pytest

from domain import characters
from domain.state import S1, Task
from tests.domain.scenario import actions_at, new_game, play, player, show


class ThreeConstellations(characters.CharacterRules):
    constellations_per_observe = 3  # like Galileo's ability (CHAR-GAL-2)

    def on_wrap(self, player):  # type: ignore[no-untyped-def, override]
        return [Task("Q", 1, "", "test")]


def test_SET_21_basic_side_changes_no_rule() -> None:
    s = new_game()
    rules = characters.rules_for(s.players[0])
    assert rules.constellations_per_observe == 2 and rules.personal_pages() == ()


def test_character_rules_change_the_observe_limit_and_react_to_wraps(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    for module in ("domain.characters", "domain.evolve", "domain.moves"):
        monkeypatch.setattr(sys.modules[module], "rules_for", lambda p: ThreeConstellations())
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
