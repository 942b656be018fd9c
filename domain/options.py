"""Rule options: every RULING of digest §23.1 that changes behaviour, with the ruling as default.

The base game's options are the fields of `Options`. An expansion registers its own with
`register_options` (an `OptionSpec` each: its JSON name, attribute, default and check); an `Options`
takes them as keywords (`Options(name=value)`), shows them as attributes (`options.name`) and reads and
writes them under their JSON names like its own. `Options.get(attr)` reads any option by attribute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
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
OPTION_NAMES: dict[str, str] = dict(_BASE_NAMES)  # with every registered expansion's options


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An expansion's rule option."""

    name: str  # its JSON name (documented to users)
    attr: str  # its attribute name
    default: Any
    check: Callable[[Any], str | None]  # the complaint about a JSON value ("must be ..."), None if valid


_EXTRA: dict[str, OptionSpec] = {}  # attribute -> an expansion's option


def register_options(*specs: OptionSpec) -> None:
    """Register an expansion's options; each becomes a read-only property of `Options` (a class-level
    `__getattr__` would make every option read take Python's slow attribute path)."""
    for spec in specs:
        if spec.name in OPTION_NAMES or spec.attr in _BASE_ATTRS or hasattr(Options, spec.attr):
            raise ValueError(f"rule option {spec.name} is defined twice")
        OPTION_NAMES[spec.name] = spec.attr
        _EXTRA[spec.attr] = spec
        setattr(Options, spec.attr, _option(spec.attr))


def _option(attr: str) -> property:
    def read(self: Options) -> Any:
        return self.get(attr)

    return property(read, doc=f"the rule option {attr} (an expansion's: `register_options`)")


def flag(value: Any) -> str | None:
    """The check of a true/false option."""
    return None if isinstance(value, bool) else "must be true or false"


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options. `None` for a number means "the catalog's value"."""

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

    def get(self, attr: str) -> Any:
        """Any option's value by its attribute name (an expansion's too)."""
        spec = _EXTRA.get(attr)
        if spec is None:
            return getattr(self, attr)
        for name, value in self.extra:
            if name == attr:
                return value
        return spec.default

    # An expansion's options are attributes too: properties `register_options` adds to the class.

    def to_json(self) -> dict[str, Any]:
        return {name: self.get(attr) for name, attr in OPTION_NAMES.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        unknown = set(data) - set(OPTION_NAMES)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        types = {f.name: f.type for f in fields(cls)}
        for name, value in data.items():
            attr = OPTION_NAMES[name]
            spec = _EXTRA.get(attr)
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


_BASE_ATTRS = frozenset(_BASE_NAMES.values()) | {"extra"}


def _init_with_extra(init: Any) -> Any:
    """`Options(...)` that also takes an expansion's options as keywords (kept in `extra`)."""

    def __init__(self: Options, *args: Any, **kwargs: Any) -> None:
        given = kwargs.keys() & _EXTRA.keys() if kwargs else ()
        if not given:
            init(self, *args, **kwargs)
            return
        values = {attr: kwargs.pop(attr) for attr in given}
        init(self, *args, **kwargs)
        extra = dict(self.extra)
        for attr, value in values.items():
            if value == _EXTRA[attr].default and type(value) is type(_EXTRA[attr].default):
                extra.pop(attr, None)
            else:
                extra[attr] = value
        object.__setattr__(self, "extra", tuple(sorted(extra.items())))

    return __init__


Options.__init__ = _init_with_extra(Options.__init__)  # type: ignore[method-assign]
