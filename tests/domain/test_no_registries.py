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
from domain import _copy, dump_state, fork_events, load_state, vocabulary
from domain import events as ev
from domain.commands import Command, Move
from domain.effects import reward_tasks
from domain.expansions.luna import deal as luna_deal
from domain.expansions.luna import state as luna_state
from domain.expansions.plugins import every_plugin, plugins_for
from domain.options import Options
from domain.ruleset import Pins, Rules, Ruleset
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


_CONTAINERS = (dict, MappingProxyType, list, set, frozenset, tuple, Rules)


def _fingerprint(value: Any, depth: int = 0) -> Any:
    """What a module-level table holds, down to the containers inside it (by identity beneath them): a
    table mutated anywhere inside (a dict's list appended to, a set grown) changes its fingerprint."""
    if depth > 6:
        return id(value)
    if isinstance(value, dict | MappingProxyType):
        return (id(value), tuple((id(k), _fingerprint(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (id(value), tuple(_fingerprint(v, depth + 1) for v in value))
    if isinstance(value, set | frozenset):
        return (id(value), frozenset(id(v) for v in value))
    if isinstance(value, Rules):
        slots = (slot for slot in Rules.__slots__ if slot != "name")
        return (id(value), tuple(_fingerprint(getattr(value, slot), depth + 1) for slot in slots))
    return id(value)


def _tables() -> dict[str, Any]:
    """Every module-level dict, list, set (and tuple, and `Rules` table) of every domain module."""
    out: dict[str, Any] = {}
    for module in _modules():
        for name, value in vars(module).items():
            if isinstance(value, _CONTAINERS) and not name.startswith("__"):
                out[f"{module.__name__}.{name}"] = _fingerprint(value)
    return out


def _compose_rulesets() -> None:
    """Rulesets of several pins composed afresh (not from the cache): the composition reads the
    plug-ins' tables and writes none."""
    every = every_plugin()
    for luna in (False, True):
        for characters, sides in (
            (("galileo", "kepler"), ("basic", "basic")),
            (("kepler", "copernicus", "cunitz"), ("ability",) * 3),
            (("galileo",), ("basic",)),
        ):
            pins = Pins("0.4.0", "", Options.from_json({"luna": luna}), characters, sides)
            composed = Ruleset(pins, plugins_for(pins))
            assert set(composed.reward_codes) <= set(every.reward_codes)


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
    assert "domain.vocabulary.EVENT_TYPES" in before and "domain.options._BASE_NAMES" in before
    _compose_rulesets()
    _play_every_kind()
    after = _tables()
    changed = sorted(name for name in before if after.get(name) != before[name] and name not in MEMO_CACHES)
    assert changed == [], f"module-level tables changed after import: {changed}"
    assert sorted(set(after) - set(before)) == []


def _subclasses(cls: type) -> list[type]:
    return [cls, *(sub for direct in cls.__subclasses__() for sub in _subclasses(direct))]


def _state_classes() -> list[type]:
    """The state classes, every plug-in's state parts (each `Part`, and each codec's class in the
    vocabulary), and `Options` (whose `__init__` was once replaced at import)."""
    _modules()  # every plug-in imported
    tables = (
        vocabulary.GAME_PARTS,
        vocabulary.PLAYER_PARTS,
        vocabulary.FLAT_PLAYER_PARTS,
        vocabulary.FLAT_TURN_PARTS,
    )
    parts = {codec.cls for table in tables for codec in table.values()}
    classes = {GameState, PlayerState, TurnState, Task, Options, *_subclasses(Part), *parts}
    classes -= set(_copy._DRAFTS.values())  # the copier's assignable twins (MEMO_CACHES), made as it goes
    return sorted(classes, key=lambda cls: (cls.__module__, cls.__qualname__))


def test_no_state_class_gains_an_attribute_from_another_module() -> None:
    classes = _state_classes()
    assert {"LunaState", "LunaSeat", "TychoState", "Character"} <= {cls.__name__ for cls in classes}
    for cls in classes:
        for name, value in vars(cls).items():
            fn = value.fget if isinstance(value, property) else value
            qualname = getattr(fn, "__qualname__", None)
            if qualname is None or name in ("__class__", "__doc__"):
                continue
            module = getattr(fn, "__module__", cls.__module__)
            assert module in (cls.__module__, "dataclasses"), (cls.__name__, name, module)
            if module == "dataclasses":
                continue  # what @dataclass(slots=True) writes for pickling
            assert qualname.startswith(f"{cls.__qualname__}.") or qualname == cls.__qualname__, (
                f"{cls.__name__}.{name} is {qualname}: patched in from outside the class"
            )


def test_no_state_class_changes_when_games_are_played() -> None:
    classes = _state_classes()
    before = {cls: dict(vars(cls)) for cls in classes}
    _compose_rulesets()
    _play_every_kind()
    for cls in classes:
        assert dict(vars(cls)) == before[cls], f"{cls.__qualname__} changed after import"


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
