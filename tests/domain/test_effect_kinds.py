"""Effect kinds are defined once, by their rules concept, and the turn loop looks them up (RES-1, RES-4)."""

from __future__ import annotations

import importlib.util
import re

import pytest

from domain.base import BaseGame
from domain.effect_kinds import EffectKind
from domain.expansions.plugins import every_plugin
from domain.options import Options
from domain.selfplay import selfplay
from domain.state import Task
from tests.domain.scenario import actions_at, new_game, play, player, with_agenda

RULE_ID = re.compile(r"^[A-Z]+(-[A-Z]+)*-\d+$")
EFFECTS = every_plugin().effects  # every plug-in's kinds: the base game's, Luna's, Tycho's, the characters'


def test_every_kind_names_its_concept_and_a_choice_has_commands_options_a_check_and_a_name() -> None:
    solo = {k.kind for k in EFFECTS.values() if k.expansion == "solo"}  # Tycho's (domain/expansions/solo/)
    characters = {k.kind for k in EFFECTS.values() if k.concept.startswith("domain.characters.")}
    assert len(EFFECTS) - len(solo) - len(characters) == 35
    assert all(
        EFFECTS[k].automatic and EFFECTS[k].concept.startswith("domain.expansions.solo.") for k in solo
    )
    luna = {k.kind for k in EFFECTS.values() if k.expansion == "luna"}
    for kind in EFFECTS.values():  # a rules concept's, Luna's, Tycho's, or a character ability's
        assert kind.concept.startswith("domain.concepts.") or kind.kind in luna | solo | characters, kind
        assert kind.name
        assert kind.automatic == (kind.options is None) == (not kind.commands) == (kind.resolve is not None)
        assert kind.automatic == (kind.check is None), kind
        if kind.lost is not None:
            assert not kind.automatic and RULE_ID.match(kind.lost[1]), kind
    assert all(EFFECTS[k].concept == "domain.expansions.luna.effects" for k in luna)
    for kind in EFFECTS.values():  # each names the module that defines it, and that module exists
        assert importlib.util.find_spec(kind.concept) is not None, kind
    assert {"PER", "FW", "INQ"} <= {k.kind for k in EFFECTS.values() if k.concept.endswith("inquisition")}


@pytest.mark.parametrize("luna", [False, True])
def test_every_effect_a_game_puts_on_the_agenda_is_registered(luna: bool) -> None:
    from domain import evolve

    seen: set[str] = set()
    for i in range(3):
        record = selfplay(3, f"kinds-{luna}-{i}", "random", Options(luna=luna))
        state = None
        for event in record.events:
            state = evolve(state, event)
            seen.update(task.kind for task in state.agenda)
    assert seen <= set(EFFECTS)
    assert {"PER", "WRITE", "VP", "REFILL"} <= seen


def test_RES_1_a_pending_choice_is_named_by_its_kind() -> None:
    from domain import IllegalMove

    s = player(new_game(), 0, cellar=(1, 1, 0, 0))  # two Inquisitors to choose from: a real choice
    s = with_agenda(actions_at(s, 3), Task("PER"))
    assert s.agenda[-1].kind == "PER"
    with pytest.raises(IllegalMove) as refused:
        play(s, "end")
    assert refused.value.code == "pending-decision" and refused.value.rule_id == "RES-1"
    assert s.rules.effect_kind("PER").name in refused.value.message


def test_a_kind_is_declared_once_and_a_choice_needs_its_options_and_its_check() -> None:
    from domain.ruleset import Plugin, Rules, Ruleset

    per = EFFECTS["PER"]
    twice = Rules("twice")
    twice.effect(EffectKind("PER", "again", "test", per.commands, per.options, per.check))

    class Twice(Plugin):
        rules = (twice,)

    game = new_game()
    with pytest.raises(ValueError, match="PER has an effect kind already"):
        Ruleset(game.rules.pins, (BaseGame, Twice))
    with pytest.raises(ValueError, match="needs its commands, its options and its check"):
        Rules("half").effect(EffectKind("NEW", "half a choice", "test", commands=(object,)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs its commands, its options and its check"):
        Rules("no-check").effect(EffectKind("NEW", "no check", "test", per.commands, per.options))
    assert "NEW" not in EFFECTS
    with pytest.raises(ValueError, match="unknown effect kind 'NOPE'"):
        game.rules.effect_kind("NOPE")
