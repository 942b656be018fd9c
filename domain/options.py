"""Rule options: every RULING of digest §23.1 that changes behaviour, with the ruling as default.

The base game's options are the fields of `Options`. An expansion declares its own (an `OptionSpec`
each: its JSON name, attribute, default and check), composed in `domain.vocabulary.OPTION_SPECS`; an
`Options` takes them as keywords (`Options(name=value)`) and reads and writes them under their JSON
names like its own. `Options.get(attr)` reads any option by attribute (an expansion's too).

`Options` is defined beneath the plug-ins that declare options (they import `OptionSpec` from here, and
every rules module reads options), so the composed tables above them are imported where an expansion's
option is read (`_spec`, `_names`), not at the top of this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

# JSON name (digest §23.1) -> attribute name. The JSON names are the ones documented to users.
_BASE_NAMES: dict[str, str] = {
    "diceSupplyPerColour": "dice_supply_per_colour",
    "rotateWhenMovingActionSkipped": "rotate_when_moving_action_skipped",
    "bookRewardsImmediate": "book_rewards_immediate",
    "reputationOverflowPartial": "reputation_overflow_partial",
    "partialWritingExact": "partial_writing_exact",
    "endTriggerOnFaceDownDraw": "end_trigger_on_face_down_draw",
    "inquisitorObjectiveUsesTurnMaximum": "inquisitor_objective_uses_turn_maximum",
    "freeActionsInAllPhases": "free_actions_in_all_phases",
    "dieMax": "die_max",
    "randomActionTiles": "random_action_tiles",
}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An expansion's rule option."""

    name: str  # its JSON name (documented to users)
    attr: str  # its attribute name
    default: Any
    check: Callable[[Any], str | None]  # the complaint about a JSON value ("must be ..."), None if valid


def flag(value: Any) -> str | None:
    """The check of a true/false option."""
    return None if isinstance(value, bool) else "must be true or false"


@dataclass(frozen=True, slots=True, init=False)
class Options:
    """Rule options. `None` for a number means "the catalog's value". `Options(name=value)` takes the
    base game's options by attribute and an expansion's too (kept in `extra`, only where not at its
    default), so its own `__init__` (written here, not generated)."""

    dice_supply_per_colour: int | None = None  # AMB-2 (catalog: box figure)
    rotate_when_moving_action_skipped: bool = False  # AMB-5
    book_rewards_immediate: bool = False  # AMB-6
    reputation_overflow_partial: bool = True  # AMB-7
    partial_writing_exact: bool = True  # AMB-8 overruled by S003/S004: exactly N (docs/seed-differences.md)
    end_trigger_on_face_down_draw: bool = True  # AMB-10
    inquisitor_objective_uses_turn_maximum: bool = False  # AMB-16
    free_actions_in_all_phases: bool = True  # AMB-24 overruled by S001/S004: any point of your turn
    die_max: int | None = None  # AMB-25 (catalog: 6)
    random_action_tiles: bool = True  # SET-23: random order (else each seat's given order)
    extra: tuple[tuple[str, Any], ...] = ()  # an expansion's options not at their default, by attribute

    def __init__(self, **values: Any) -> None:
        extra = dict(values.pop("extra", ()))
        for field in fields(Options):
            if field.name != "extra":
                object.__setattr__(self, field.name, values.pop(field.name, field.default))
        for attr, value in values.items():
            spec = _spec(attr)
            if spec is None:
                raise TypeError(f"Options.__init__() got an unexpected keyword argument {attr!r}")
            if value == spec.default and type(value) is type(spec.default):
                extra.pop(attr, None)
            else:
                extra[attr] = value
        object.__setattr__(self, "extra", tuple(sorted(extra.items())))

    def get(self, attr: str) -> Any:
        """Any option's value by its attribute name (an expansion's too)."""
        if attr in _BASE_ATTRS:
            return getattr(self, attr)
        for name, value in self.extra:
            if name == attr:
                return value
        spec = _spec(attr)
        if spec is None:
            return getattr(self, attr)  # AttributeError, as for any unknown attribute
        return spec.default

    def to_json(self) -> dict[str, Any]:
        return {name: self.get(attr) for name, attr in _names().items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        """The options of their JSON form (raises ValueError naming a bad one). The same JSON gives the
        same (immutable) options: each snapshot and GameStarted read names the game's options again."""
        if cls is Options:
            try:
                return _options_of(tuple((name, type(value), value) for name, value in data.items()))
            except TypeError:  # an unhashable value: read as it is (and refused)
                pass
        return cls._read_json(data)

    @classmethod
    def _read_json(cls, data: Mapping[str, Any]) -> Options:
        names = _names()
        unknown = set(data) - set(names)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        types = {f.name: f.type for f in fields(cls)}
        for name, value in data.items():
            attr = names[name]
            spec = _spec(attr)
            if spec is not None:
                complaint = spec.check(value)
                if complaint is not None:
                    raise ValueError(f"rule option {name} {complaint}")
                kwargs[attr] = value
                continue
            expected = str(types[attr])
            if "bool" in expected:
                if not isinstance(value, bool):
                    raise ValueError(f"rule option {name} must be true or false")
            elif value is None and "None" not in expected:
                raise ValueError(f"rule option {name} must be a positive integer")
            elif value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"rule option {name} must be a positive integer or null")
            kwargs[attr] = value
        return cls(**kwargs)


@lru_cache(maxsize=256)
def _options_of(key: tuple[tuple[str, type, Any], ...]) -> Options:
    """`Options._read_json` memoised by the JSON's names, value types and values (1 and True differ)."""
    return Options._read_json({name: value for name, _, value in key})


_BASE_ATTRS = frozenset(_BASE_NAMES.values()) | {"extra"}


def _spec(attr: str) -> OptionSpec | None:
    """An expansion's option by its attribute (None: no expansion's)."""
    from domain.vocabulary import OPTION_SPECS  # above the plug-ins (module docstring)

    return OPTION_SPECS.get(attr)


def _names() -> Mapping[str, str]:
    """JSON name -> attribute of every option: the base game's, then each expansion's."""
    from domain.vocabulary import OPTION_NAMES  # above the plug-ins (module docstring)

    return OPTION_NAMES
