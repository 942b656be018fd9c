"""Events describe themselves (docs/events.md, "Grants"): the decider writes what each event grants into
the event, and `evolve` only applies it; an event that does not fit the state is refused, naming it."""

from __future__ import annotations

import dataclasses

import pytest

from domain import EventDoesNotFit, evolve, fold, legal_moves, play_through, start
from domain import events as ev
from domain.bots import make_bot
from domain.editions import ENGINE_VERSION
from domain.grants import as_tasks, records_grants
from domain.selfplay import default_setup
from domain.state import S2, Task
from tests.domain.scenario import actions_at, new_game, play


def _game(rules: str, seed: str = "grants") -> list[ev.Event]:
    setup = dataclasses.replace(default_setup(3, seed), engine_version=rules)
    state, events = start(setup)
    bots = [make_bot("random", f"{seed}{i}") for i in range(3)]
    while not state.finished:
        state, more = play_through(state, bots[state.turn.seat].choose(state, legal_moves(state)))
        events += more
    return events


def test_RES_2_every_granting_event_of_the_current_rules_records_its_grants() -> None:
    events = _game(ENGINE_VERSION)
    granting = [e for e in events if isinstance(e, ev.GrantingEvent)]
    assert granting and all(e.grants is not None for e in granting)
    assert any(e.grants for e in granting)
    assert all(ev.event_to_dict(e)["grants"] == [list(g) for g in e.grants or ()] for e in granting)


def test_rules_0_1_0_events_keep_their_first_release_shape_and_replay_the_same() -> None:
    old = _game("0.1.0")
    assert all(e.grants is None for e in old if isinstance(e, ev.GrantingEvent))
    assert all("grants" not in ev.event_to_dict(e) for e in old)
    new = _game(ENGINE_VERSION)
    # The same game under both rules versions: the same facts, only the grants are now written down.
    strip = [
        {k: v for k, v in ev.event_to_dict(e).items() if k not in ("grants", "engine_version")} for e in new
    ]
    assert strip == [{k: v for k, v in ev.event_to_dict(e).items() if k != "engine_version"} for e in old]
    assert fold(old).players == fold(new).players


def test_RES_2_evolve_applies_the_recorded_grants_and_decides_nothing() -> None:
    s = actions_at(new_game(edition="base-2"), S2)  # Die or Lecture
    assert records_grants(s)
    s2, events = play(s, "fixed die")
    taken = next(e for e in events if isinstance(e, ev.FixedActionTaken))
    assert taken.grants == (("DIE", 1, "", ""),)
    # Replay applies what the event says, whatever the catalog or the rules would grant now.
    rewritten = dataclasses.replace(taken, grants=(("Q", 2, "", "test"),))
    applied = evolve(s, rewritten)
    assert applied.agenda[-1] == Task("Q", 2, "", "test")
    assert as_tasks(rewritten.grants or ()) == [Task("Q", 2, "", "test")]


def test_an_event_of_the_current_rules_without_its_grants_does_not_fit() -> None:
    s = actions_at(new_game(edition="base-2"), S2)
    _, events = play(s, "fixed die")
    taken = next(e for e in events if isinstance(e, ev.FixedActionTaken))
    with pytest.raises(EventDoesNotFit, match=r"FixedActionTaken .*records what it grants"):
        evolve(s, dataclasses.replace(taken, grants=None))


def test_RES_2_an_event_that_resolves_an_effect_that_is_not_pending_does_not_fit() -> None:
    s = actions_at(new_game(edition="base-2"), S2)
    with pytest.raises(EventDoesNotFit) as refused:
        evolve(s, ev.DieGained(seat=0, colour="B", value=1, returned=None))
    assert "expected a pending DIE effect on top of the agenda, found nothing" in str(refused.value)
    assert "event 12 (DieGained)" in str(refused.value.at(12))


def test_every_granting_event_has_its_grant_rule_and_every_command_its_handler() -> None:
    from domain.expansions.plugins import every_plugin
    from domain.grants import missing_rules
    from domain.resolve import unhandled_commands

    assert missing_rules(every_plugin()) == []
    assert unhandled_commands(every_plugin()) == []


def test_no_base_turn_handler_names_the_luna_expansion() -> None:
    """Luna plugs in (domain/expansions/luna/): no base module (domain/*.py, domain/concepts/*.py) names
    it, its effect kinds, its state or its options, in code, comments or docstrings. The only exceptions
    are the names of released formats that base types carry: the fields of GameStarted / GameForked /
    GameEnded that hold an expansion's deal, and the released `grand` mark of Persuade /
    InquisitorPersuaded (its base value: `false`)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "domain"
    kinds = "FIXEDAT|FREEOBS|OPTINQ|ADVANCE|BOOKVP|DEPART|MOONOBJ|SCORING|REREAD|ANYTILE|RELOCATE|SWAP"
    luna_words = re.compile(rf"(?i:luna|moon|bonus|grand)|\b({kinds})\b")
    released = re.compile(
        r"\b(luna_side|moon_revealed|moon_hidden)\b"  # GameStarted, GameForked: an expansion's deal
        r"|\bmoon(?=: tuple\[str, \.\.\.\] = \(\)|=)"  # GameEnded.moon: that deal revealed
        r'|\("grand", False, "(space|end)"\)'  # Persuade(d): the released mark of the base kind
    )
    modules = sorted(root.glob("*.py")) + sorted((root / "concepts").glob("*.py"))
    modules.remove(root / "vocabulary.py")  # the wire vocabulary's composition names every plug-in
    assert len(modules) > 30
    found = [
        f"{path.relative_to(root.parent)}:{number}: {line.strip()}"
        for path in modules
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if luna_words.search(released.sub("", line))
    ]
    assert found == [], "base modules name Luna:\n" + "\n".join(found)


def test_recorded_grants_become_equal_tasks_shared_by_equal_grants() -> None:
    """`as_tasks` shares one task per distinct grant (tasks are immutable values) and still tells a
    grant's 1 from True and builds an unhashable grant afresh."""
    first = as_tasks((("VP", 2, "", "lecture"), ("DIE", 1, "", "")))
    again = as_tasks((("VP", 2, "", "lecture"),))
    assert first == [Task("VP", 2, "", "lecture"), Task("DIE", 1, "", "")]
    assert again[0] is first[0]
    flagged = as_tasks((("DIE", True, "", ""),))[0]  # type: ignore[arg-type]
    assert flagged.n is True and as_tasks((("DIE", 1, "", ""),))[0].n is not True
    odd = as_tasks((("WRITE", 1, ["x"], ""),))  # type: ignore[arg-type]
    assert odd == [Task("WRITE", 1, ["x"], "")]  # type: ignore[arg-type]
