"""Nothing in `domain/` is registered after import, and no state class is patched (issue 33).

A game's rules are its `Ruleset` (domain/ruleset.py), composed from the plug-ins its `GameStarted` pins;
the module-level tables a module declares are filled while it is defined and never after. The wire
vocabulary (event, command, option, state-part and deal names) is declared by each module and composed
once in `domain/vocabulary.py`: no function registers into it, and its tables are read-only. This test
imports every module of `domain`, takes a fingerprint of every module-level dict, list, set and `Rules`
table, plays games of every kind (base, Luna, characters on their ability side, the solo game, a fork,
a loaded state), and checks that no fingerprint changed; and that the state classes hold only what
`domain/state.py` defines for them.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar

import pytest

import domain
from domain import dump_state, fork_events, load_state, vocabulary
from domain import events as ev
from domain.commands import Command, Move
from domain.effects import reward_tasks
from domain.expansions.luna import deal as luna_deal
from domain.expansions.luna import state as luna_state
from domain.options import Options
from domain.ruleset import Rules
from domain.selfplay import default_setup, selfplay
from domain.state import GameState, Part, PlayerState, Task, TurnState
from tests.domain.abilities import ability_game

# Memo caches that the state's copier fills as it goes: not registries and not rules. What they hold
# is generated code that is a function of its key alone (a state class, and the set of fields a call
# site changes), so no game's rules or outcome depend on what was copied before; the set of keys is
# the call sites' (a few dozen), and bounded (`_SPECIALISED`). They are the private detail of
# `domain.state.replace` (domain/_copy.py), which rules code calls; no rules module reads them.
MEMO_CACHES = {
    "domain._copy._BY_CHANGES",
    "domain._copy._GENERAL",
    "domain._copy._DRAFTS",
}


def _modules() -> list[ModuleType]:
    names = [info.name for info in pkgutil.walk_packages(domain.__path__, "domain.")]
    return [importlib.import_module(name) for name in sorted(names)]


def _fingerprint(value: Any) -> Any:
    if isinstance(value, dict | MappingProxyType):
        return tuple((id(k), id(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(id(v) for v in value)
    if isinstance(value, set):
        return frozenset(id(v) for v in value)
    if isinstance(value, Rules):
        return tuple(_fingerprint(getattr(value, slot)) for slot in Rules.__slots__ if slot != "name")
    return id(value)


def _tables() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for module in _modules():
        for name, value in vars(module).items():
            if isinstance(value, dict | MappingProxyType | list | set | Rules) and not name.startswith("__"):
                out[f"{module.__name__}.{name}"] = _fingerprint(value)
    return out


def _play_every_kind() -> None:
    for i, options in enumerate((Options(), Options.from_json({"luna": True}))):
        record = selfplay(3, f"registries-{i}", "random", options)
        state = domain.fold(record.events)
        assert load_state(dump_state(state)) == state
        fork_events(record.events, len(record.events) // 2, "source", f"registries-fork-{i}")
    state = ability_game(4, "registries-ability")
    while not state.finished:
        state = domain.play_through(state, domain.legal_moves(state)[0])[0]
    solo = selfplay(1, "registries-solo", "random", Options.from_json({"luna": True}), side="ability")
    assert domain.fold(solo.events).finished


def test_no_module_level_table_of_domain_changes_after_import() -> None:
    before = _tables()
    assert any(name.endswith(".RULES") for name in before)  # the modules' own rule tables are looked at
    _play_every_kind()
    after = _tables()
    changed = sorted(name for name in before if after.get(name) != before[name] and name not in MEMO_CACHES)
    assert changed == [], f"module-level tables changed after import: {changed}"
    assert sorted(set(after) - set(before)) == []


def test_no_state_class_gains_an_attribute_from_another_module() -> None:
    _modules()  # every plug-in imported
    for cls in (GameState, PlayerState, TurnState, Task, Part):
        for name, value in vars(cls).items():
            fn = value.fget if isinstance(value, property) else value
            qualname = getattr(fn, "__qualname__", None)
            if qualname is None or name in ("__class__", "__doc__"):
                continue
            module = getattr(fn, "__module__", "domain.state")
            assert module in ("domain.state", "dataclasses"), (cls.__name__, name, module)
            if module == "dataclasses":
                continue  # what @dataclass(slots=True) writes for pickling
            assert qualname.startswith(f"{cls.__qualname__}.") or qualname == cls.__qualname__, (
                f"{cls.__name__}.{name} is {qualname}: patched in from outside the class"
            )


def test_nothing_registers_into_the_wire_vocabulary() -> None:
    """No module of `domain` has a registration function, and the names a decoder reads are composed in
    `domain.vocabulary` only (the modules that once held them as registries declare their own part)."""
    registering = [
        f"{module.__name__}.{name}"
        for module in _modules()
        for name, value in vars(module).items()
        if name.startswith("register") and callable(value)
    ]
    assert registering == []
    for module, name in (
        ("events", "EVENT_TYPES"),
        ("events", "UPCASTERS"),
        ("commands", "COMMAND_TYPES"),
        ("options", "OPTION_NAMES"),
        ("parts", "PLAYER_PARTS"),
        ("setup", "EXTRA_DEALS"),
    ):
        assert not hasattr(importlib.import_module(f"domain.{module}"), name), (module, name)
    assert domain.EVENT_TYPES is vocabulary.EVENT_TYPES
    assert domain.event_from_dict is vocabulary.event_from_dict
    assert domain.command_from_dict is vocabulary.command_from_dict
    assert domain.parse_command is vocabulary.parse_command


def test_every_public_table_of_the_vocabulary_is_read_only() -> None:
    tables = {
        name: value
        for name, value in vars(vocabulary).items()
        if name.isupper() and not name.startswith("_") and isinstance(value, Mapping | tuple | list | set)
    }
    assert set(tables) >= {"EVENT_TYPES", "UPCASTERS", "COMMAND_TYPES", "COMMAND_VERBS", "OPTION_NAMES"}
    assert set(tables) >= {"OPTION_SPECS", "GAME_PARTS", "PLAYER_PARTS", "FLAT_PLAYER_PARTS"}
    assert set(tables) >= {"FLAT_TURN_PARTS", "EXTRA_DEALS"}
    for name, table in tables.items():
        assert isinstance(table, MappingProxyType | tuple | frozenset), f"vocabulary.{name} can be changed"
        if isinstance(table, MappingProxyType):
            with pytest.raises(TypeError):
                table["new"] = None  # type: ignore[index]


def test_a_name_declared_twice_is_refused_when_the_vocabulary_is_composed() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class GameStarted(ev.Event):  # another class of a released event's name
        pass

    with pytest.raises(ValueError, match="two event classes are named GameStarted"):
        vocabulary.compose_events(ev.EVENTS, (GameStarted,))
    assert list(vocabulary.compose_events(ev.EVENTS, ev.EVENTS)) == list(vocabulary.compose_events(ev.EVENTS))

    @dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
    class Walk(Command):
        VERB: ClassVar[str] = "move"  # the base game's verb

    parse = vocabulary._PARSERS["move"]
    with pytest.raises(ValueError, match="command Walk or its verb 'move' is taken"):
        vocabulary.compose_commands(((Move, parse),), ((Walk, parse),))
    seat_codec = luna_state.FLAT_PLAYER_PARTS[0]
    clash = dataclasses.replace(luna_state.FLAT_TURN_PARTS[0], cls=type("Other", (seat_codec.cls,), {}))
    with pytest.raises(ValueError, match="two state parts use the JSON member 'luna-seat'"):
        vocabulary.compose_parts((seat_codec,), (clash,))
    with pytest.raises(ValueError, match="a second ExtraDeal has no slot"):
        vocabulary.compose_deals(luna_deal.DEALS, (dataclasses.replace(luna_deal.DEALS[0], label="sun"),))


def test_CHAR_KEP_2_keplers_reward_codes_are_his_rulesets_only() -> None:
    """A character's or an expansion's reward codes (digest §17-18) are read from the game's ruleset: a
    code of Kepler's ability side stands for its task in a game with it, and is unknown in a base game."""
    base = domain.start(default_setup(2, "codes-base"))[0]
    kepler = ability_game(4, "codes-kepler")
    assert "KSWAP:board" not in base.rules.reward_codes and "DIE@2" not in base.rules.reward_codes
    with pytest.raises(ValueError, match="unknown reward code 'KSWAP:board'"):
        reward_tasks(("KSWAP:board",), "tile", base.rules.reward_codes)
    assert reward_tasks(("2VP", "KSWAP:board"), "tile", kepler.rules.reward_codes) == [
        Task("VP", 2, "", "tile"),
        Task("KSWAP", 1, "board", "tile"),
    ]
    table = Rules("tests.codes")
    with pytest.raises(ValueError, match="a base game's reward code"):
        table.reward_code({"3VP": Task("VP", 3)})  # a base code cannot be redefined
