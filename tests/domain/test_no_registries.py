"""Nothing in `domain/` is registered after import, and no state class is patched (issue 33).

A game's rules are its `Ruleset` (domain/ruleset.py), composed from the plug-ins its `GameStarted` pins;
the module-level tables a module declares are filled while it is defined and never after. This test
imports every module of `domain`, takes a fingerprint of every module-level dict, list, set and `Rules`
table, plays games of every kind (base, Luna, characters on their ability side, the solo game, a fork,
a loaded state), and checks that no fingerprint changed; and that the state classes hold only what
`domain/state.py` defines for them.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

import pytest

import domain
from domain import dump_state, fork_events, load_state
from domain.effects import reward_tasks
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
    if isinstance(value, dict):
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
            if isinstance(value, dict | list | set | Rules) and not name.startswith("__"):
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
