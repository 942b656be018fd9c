"""Luna's Grand Inquisitor as Luna's own command and event (issue 33), in the released wire form.

`PersuadeGrand` and `GrandInquisitorPersuaded` (domain/expansions/luna/grand.py) refine the base game's
`Persuade` and `InquisitorPersuaded`, which lost their `grand` flag; both kinds are written as the first
release wrote them: under the base names, with `"grand": true` / `false` (docs/events.md, "One name,
two classes"), and `G<n>` / `C<n>` in the notation. Reading the released form gives each class back.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, ClassVar

import pytest

from domain import (
    command_from_dict,
    command_to_dict,
    decide,
    event_from_dict,
    event_to_dict,
    legal_moves,
    parse_command,
    vocabulary,
)
from domain import commands as c
from domain import events as ev
from domain.characters.hevelius import icon_of_event
from domain.errors import IllegalMove
from domain.expansions.luna.grand import GrandInquisitorPersuaded, PersuadeGrand
from domain.moves import check
from domain.state import S2, Task
from domain.vocabulary import COMMAND_TYPES, EVENT_CLASSES, EVENT_TYPES, EVENT_VARIANTS
from tests.domain.scenario import actions_at, new_game, play, player, with_agenda
from tests.fixtures import release_games

GRAND = GrandInquisitorPersuaded(seat=1, start=0, end=1, grants=())
ORDINARY = ev.InquisitorPersuaded(seat=1, start=0, end=1, grants=())


def _released(mark: bool) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """The first release's InquisitorPersuaded events with `"grand": mark`, each with its command (if the
    batch's command was a Persuade), from its Luna fixture games."""
    out = []
    for name, data in release_games("release-1").items():
        if not name.startswith("luna"):
            continue
        for line in data.splitlines()[1:]:
            record = json.loads(line)
            event = record["event"]
            if event["type"] == "InquisitorPersuaded" and event["grand"] is mark:
                command = record["meta"].get("command")
                out.append((event, command if command and command.get("type") == "Persuade" else None))
    return out


def test_INQ_10_both_kinds_keep_the_released_event_form() -> None:
    """The released member order too (what a store's payloads and their compression dictionary hold)."""
    assert event_to_dict(GRAND) == {
        "type": "InquisitorPersuaded", "seat": 1, "grants": [], "start": 0, "end": 1, "grand": True,
        "rule": "INQ-10",
    }  # fmt: skip
    assert list(event_to_dict(ORDINARY)) == ["type", "seat", "grants", "start", "end", "grand", "rule"]
    assert event_to_dict(ORDINARY)["grand"] is False
    assert list(event_to_dict(GrandInquisitorPersuaded(seat=1, start=0, end=1))) == [
        "type",
        "seat",
        "start",
        "end",
        "grand",
        "rule",
    ]  # fmt: skip  (rules 0.1.0: no grants)


def test_LUNA_41_released_events_read_back_as_their_class_and_write_the_same_bytes() -> None:
    grand, ordinary = _released(True), _released(False)
    assert len(grand) >= 8 and len(ordinary) >= 8
    for events, cls in ((grand, GrandInquisitorPersuaded), (ordinary, ev.InquisitorPersuaded)):
        for stored, _ in events:
            event = event_from_dict(stored, "0.1.0")
            assert type(event) is cls and event.type == "InquisitorPersuaded"
            again = event_to_dict(event)
            assert json.dumps(again, sort_keys=True) == json.dumps(stored, sort_keys=True)


def test_INQ_10_released_commands_read_back_as_their_class_and_write_the_same_form() -> None:
    commands = [command for _, command in _released(True) + _released(False) if command is not None]
    assert {command["grand"] for command in commands} == {True, False}
    for stored in commands:
        cmd = command_from_dict(stored)
        assert type(cmd) is (PersuadeGrand if stored["grand"] else c.Persuade)
        assert command_to_dict(cmd) == stored
        assert parse_command(stored["text"]) == cmd


def test_INQ_10_the_notation_names_the_kind_of_inquisitor() -> None:
    grand, ordinary = parse_command("@0 persuade G3"), parse_command("@0 persuade C3")
    assert type(grand) is PersuadeGrand and grand.space == 2 and str(grand) == "@0 persuade G3"
    assert type(ordinary) is c.Persuade and ordinary.space == 2 and str(ordinary) == "@0 persuade C3"
    assert list(command_to_dict(grand)) == ["type", "seat", "space", "grand", "text"]
    assert command_to_dict(grand)["type"] == "Persuade" and command_to_dict(grand)["grand"] is True
    assert command_to_dict(ordinary)["grand"] is False
    with pytest.raises(ValueError, match=r"expected C1\.\.C4 or G1\.\.G4"):
        parse_command("@0 persuade X3")


def test_LUNA_41_a_grand_persuade_is_a_persuade_and_its_event_an_inquisitor_persuaded() -> None:
    assert isinstance(GRAND, ev.InquisitorPersuaded) and isinstance(GRAND, ev.GrantingEvent)
    assert not isinstance(ORDINARY, GrandInquisitorPersuaded)
    assert isinstance(PersuadeGrand(seat=0, space=1), c.Persuade)
    assert GRAND.type == ORDINARY.type == "InquisitorPersuaded" and GRAND != ORDINARY
    assert not hasattr(ORDINARY, "grand") and not hasattr(c.Persuade(seat=0, space=0), "grand")
    assert EVENT_TYPES["InquisitorPersuaded"] is ev.InquisitorPersuaded  # the name's released class
    assert COMMAND_TYPES["Persuade"] is c.Persuade
    assert EVENT_VARIANTS["InquisitorPersuaded"] == (ev.InquisitorPersuaded, GrandInquisitorPersuaded)
    assert GrandInquisitorPersuaded in EVENT_CLASSES
    assert icon_of_event(GRAND) == icon_of_event(ORDINARY) == "PER"  # CHAR-HEV-3: any Inquisitor moved


def test_a_subclass_under_a_released_name_needs_marks_of_its_own() -> None:
    """A class may share a released name only as a refinement told apart by its marks."""

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Unmarked(ev.InquisitorPersuaded):
        NAME: ClassVar[str] = "InquisitorPersuaded"
        MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = ()

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Same(ev.InquisitorPersuaded):
        NAME: ClassVar[str] = "InquisitorPersuaded"  # the base's marks: not told apart

    for cls in (Unmarked, Same):
        with pytest.raises(ValueError, match="two event classes are named InquisitorPersuaded"):
            vocabulary.compose_events(ev.EVENTS, (cls,))
    assert vocabulary.compose_events(ev.EVENTS, (GrandInquisitorPersuaded,))["InquisitorPersuaded"] is (
        ev.InquisitorPersuaded
    )


def test_INQ_10_a_missing_mark_is_the_released_default_and_a_bad_one_is_refused() -> None:
    older = {"type": "InquisitorPersuaded", "seat": 0, "start": 0, "end": 1, "rule": "INQ-10"}
    assert type(event_from_dict(older)) is ev.InquisitorPersuaded
    for bad in (1, "yes", None):
        with pytest.raises(ValueError, match="is not one of its kinds"):
            event_from_dict({**older, "grand": bad})
    with pytest.raises(ValueError, match="is not one of its kinds"):
        command_from_dict({"type": "Persuade", "seat": 0, "space": 1, "grand": 1})
    mismatch = {"type": "Persuade", "seat": 0, "space": 1, "grand": True, "text": "@0 persuade C2"}
    with pytest.raises(ValueError, match="does not match"):
        command_from_dict(mismatch)
    assert type(command_from_dict({"type": "Persuade", "seat": 0, "space": 1})) is c.Persuade


def test_INQ_10_a_grand_persuade_in_a_base_game_is_refused() -> None:
    s = with_agenda(actions_at(player(new_game(3, "wire-base"), 0, cellar=(1, 1, 0, 0)), S2), Task("PER"))
    assert s.agenda[-1].kind == "PER"  # two options: the seat chooses
    refusal = check(s, PersuadeGrand(seat=0, space=0))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("no-inquisitor", "INQ-10")
    assert all(type(m) is not PersuadeGrand for m in legal_moves(s))


def test_LUNA_41_a_grand_persuade_emits_luna_s_event_and_resolves_what_a_persuade_resolves() -> None:
    s = player(new_game(3, "wire-luna", luna=True), 0, cellar=(1, 0, 0, 0), grand=(1, 0, 0, 0))
    s = with_agenda(actions_at(s, S2), Task("PER"))
    assert {str(m) for m in legal_moves(s)} >= {"@0 persuade C1", "@0 persuade G1"}
    assert s.rules.resolves[GrandInquisitorPersuaded] >= s.rules.resolves[ev.InquisitorPersuaded]
    events = decide(s, PersuadeGrand(seat=0, space=0))
    assert [type(e) for e in events][:1] == [GrandInquisitorPersuaded]
    after, _ = play(s, "persuade G1")
    assert after.players[0].cellar == (1, 0, 0, 0) and after.turn.inquisitor_moved


def test_LUNA_BB_5_the_bonus_b5_advance_emits_luna_s_event_for_a_grand_inquisitor() -> None:
    s = player(new_game(3, "wire-advance", luna=True), 0, cellar=(1, 0, 0, 0), grand=(1, 0, 0, 0))
    s = with_agenda(actions_at(s, S2), Task("ADVANCE"))
    assert s.agenda[-1].kind == "ADVANCE"  # two options: C1 and G1
    events = decide(s, PersuadeGrand(seat=0, space=0))
    moved = [e for e in events if isinstance(e, ev.InquisitorPersuaded)]
    assert type(moved[0]) is GrandInquisitorPersuaded and (moved[0].end, moved[0].rule) == (3, "LUNA-BB-5")
    assert moved[0].grants == (("DEPART", 1, "", ""),)  # LUNA-41: it leaves at once
    with pytest.raises(IllegalMove, match="no Grand Inquisitor of yours on C2"):
        decide(s, PersuadeGrand(seat=0, space=1))
