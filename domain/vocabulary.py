"""The wire vocabulary: every name a stored event, a command, a rule option, a state part or the deal is
read by, composed once from what each plug-in module declares (docs/engine.md, "Still process-wide").

A stored event must parse before its game's rules are known, so these tables are process-wide; but
nothing registers into them: each module declares its own as constants (`EVENTS`, ...), and this module,
above every plug-in, composes them here once, refusing a name used twice. Every table is read-only
(`MappingProxyType` or a tuple) and nothing changes it after import. The decoders that read a name
(`event_from_dict`, ...) live here too; `domain` re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, fields
from functools import lru_cache
from types import MappingProxyType
from typing import Any, TypeVar

from domain import characters
from domain import commands as cmd
from domain import events as ev
from domain.characters import commands as character_commands
from domain.characters import copernicus, cunitz, hevelius, kepler, newton, sophia
from domain.characters import events as character_events
from domain.commands import Command, Parser
from domain.events import _ATOMS, Event, GrantingEvent, _frozen, _no_grants, schema_version
from domain.expansions.luna import commands as luna_commands
from domain.expansions.luna import deal as luna_deal
from domain.expansions.luna import events as luna_events
from domain.expansions.luna import grand as luna_grand
from domain.expansions.luna import options as luna_options
from domain.expansions.luna import state as luna_state
from domain.expansions.solo import events as solo_events
from domain.expansions.solo import moon as solo_moon
from domain.expansions.solo import state as solo_state
from domain.options import _BASE_ATTRS, _BASE_NAMES, Options, OptionSpec
from domain.parts import FlatCodec, NestedCodec, PartCodec
from domain.setup import ExtraDeal
from domain.state import COLOURS, Die

# -- events ------------------------------------------------------------------------------------------


def compose_events(*declared: Iterable[type[Event]]) -> dict[str, type[Event]]:
    """Event name -> class, in the order declared; a name declared by two classes is refused, unless the
    second refines the first under its name (`Event.NAME`), both told apart by their marks (`variants`)."""
    table: dict[str, type[Event]] = {}
    for classes in declared:
        for cls in classes:
            first = table.setdefault(cls.NAME, cls)
            if first is not cls and not _refines(cls, first):
                raise ValueError(f"two event classes are named {cls.NAME}")
    return table


C = TypeVar("C", type[Event], type[Command])


def _refines(cls: C, first: C) -> bool:
    """Whether `cls` is a refinement of `first` written under its name: a subclass, both with marks of
    the same members (docs/events.md, "One name, two classes")."""
    members = [member for member, _, _ in first.MARKS]
    return (
        issubclass(cls, first)
        and cls is not first
        and bool(members)
        and [member for member, _, _ in cls.MARKS] == members
        and cls.MARKS != first.MARKS
    )


def variants(*declared: Iterable[C]) -> dict[str, tuple[C, ...]]:
    """Name -> its classes (the first declared first), for each name with marks."""
    table: dict[str, list[C]] = {}
    for classes in declared:
        for cls in classes:
            if cls.MARKS and cls not in table.setdefault(cls.NAME, []):
                table[cls.NAME].append(cls)
    return {name: tuple(classes) for name, classes in table.items() if classes}


def _marked(classes: tuple[C, ...], data: Mapping[str, Any]) -> tuple[C, int]:
    """The class of a name with marks that `data`'s marks select, and how many of its members are marks.
    A mark left out has the first class's value (the released default)."""
    present = sum(1 for member, _, _ in classes[0].MARKS if member in data)
    for cls in classes:
        for (member, value, _), (_, default, _) in zip(cls.MARKS, classes[0].MARKS, strict=True):
            got = data.get(member, default)
            if type(got) is not type(value) or got != value:
                break
        else:
            return cls, present
    given = ", ".join(f"{member}={data.get(member)!r}" for member, _, _ in classes[0].MARKS)
    kinds = " or ".join(", ".join(f"{m}={v!r}" for m, v, _ in cls.MARKS) for cls in classes)
    raise ValueError(f"{classes[0].NAME}: {given} is not one of its kinds ({kinds})")


# Event name -> class: the base game's, then each plug-in's. The name is what a store records
# (replays/store.py: topic `galileo:<name>`), so a class is never renamed.
_DECLARED_EVENTS = (
    ev.EVENTS,
    luna_events.EVENTS,
    luna_grand.EVENTS,
    solo_events.EVENTS,
    character_events.EVENTS,
    cunitz.EVENTS,
    hevelius.EVENTS,
    newton.EVENTS,
    sophia.EVENTS,
    solo_moon.EVENTS,
)
_EVENTS = compose_events(*_DECLARED_EVENTS)
EVENT_TYPES: Mapping[str, type[Event]] = MappingProxyType(_EVENTS)  # read-only (the decoders read _EVENTS)
# A name with marks -> its classes: the released class first, then its refinements (`Event.MARKS`).
_EVENT_VARIANTS = variants(*_DECLARED_EVENTS)
EVENT_VARIANTS: Mapping[str, tuple[type[Event], ...]] = MappingProxyType(_EVENT_VARIANTS)
# Every event class, a refinement written under another's name included.
EVENT_CLASSES: tuple[type[Event], ...] = (
    *_EVENTS.values(),
    *(cls for classes in _EVENT_VARIANTS.values() for cls in classes[1:]),
)

# (event type, schema n) -> the function that turns the dict of a schema-n event into schema n + 1.
# Upcasters are never removed: every event a release has written must stay readable. A granting event's
# first schema did not record its grants (`events._no_grants`).
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: Mapping[tuple[str, int], Upcaster] = MappingProxyType(
    {(name, 1): _no_grants for name, cls in EVENT_TYPES.items() if issubclass(cls, GrantingEvent)}
)


def upcast(data: Mapping[str, Any], written_by: str | None) -> Mapping[str, Any]:
    """An event dict as written by engine `written_by`, in the shape of this build's event class."""
    name = data.get("type")
    cls = _EVENTS.get(name) if isinstance(name, str) else None
    if cls is None or written_by is None or len(cls.SCHEMAS) == 1:  # the one shape there ever was
        return data
    schema, current = schema_version(cls, written_by), len(cls.SCHEMAS)
    while schema < current:
        step = UPCASTERS.get((cls.__name__, schema))
        if step is None:
            raise ValueError(f"{cls.__name__}: no upcaster from schema {schema} to {schema + 1}")
        data, schema = step(dict(data)), schema + 1
    return data


def event_from_dict(data: Mapping[str, Any], written_by: str | None = None) -> Event:
    """Inverse of `event_to_dict`; raises ValueError on an unknown type or bad fields. `written_by` is
    the engine version that wrote `data` (its audit metadata): an older shape is upcast first.

    Every stored event is read through here (a rebuild reads about fifty per request), so an event in
    this build's shape is built field by field into its `__dict__`, as its dataclass `__init__` would
    (`_FIELDS`); an older shape, a bad field, or a class whose `__init__` does more, goes the checked
    way (`_event_by_init`)."""
    name = data.get("type")
    cls = _EVENTS.get(name) if isinstance(name, str) else None
    if cls is not None and (written_by is None or len(cls.SCHEMAS) == 1 or not _older(name, written_by)):
        given = 1  # "type"
        if cls.MARKS:  # one name, two classes: the marks say which
            cls, marks = _marked(_EVENT_VARIANTS[cls.NAME], data)
            given += marks
        plan = _FIELDS[cls]
        if plan:
            values: dict[str, Any] = {}
            for field_name, default in plan:
                value = data.get(field_name, MISSING)
                if value is MISSING:
                    if default is MISSING:
                        break  # a missing field: refused the checked way
                    value = default
                else:
                    given += 1
                    if type(value) not in _ATOMS:
                        value = _frozen(value)
                values[field_name] = value
            else:
                if given == len(data):  # else an unknown field: refused the checked way
                    event = object.__new__(cls)
                    object.__setattr__(event, "__dict__", values)
                    return event
    return _event_by_init(data, written_by)


def _field_plan(cls: type[Event]) -> tuple[tuple[str, Any], ...]:
    plain = "__slots__" not in vars(cls) and not hasattr(cls, "__post_init__")
    if not plain or any(not f.init or f.default_factory is not MISSING for f in fields(cls)):
        return ()
    return tuple((f.name, f.default) for f in fields(cls))


# Per event class, its fields and defaults in order when `event_from_dict` may fill its `__dict__`
# directly; () when its `__init__` does more (slots, `__post_init__`, a default factory, a field left
# out of `__init__`: no event class has one today, tests/domain/test_event_codec.py).
_FIELDS: dict[type[Event], tuple[tuple[str, Any], ...]] = {cls: _field_plan(cls) for cls in EVENT_CLASSES}


@lru_cache(maxsize=1024)
def _older(name: str, written_by: str) -> bool:
    """Whether event type `name` as engine `written_by` wrote it has an older shape than this build's."""
    cls = _EVENTS[name]
    return schema_version(cls, written_by) < len(cls.SCHEMAS)


def _event_by_init(data: Mapping[str, Any], written_by: str | None) -> Event:
    """`event_from_dict` through `upcast` and the class's `__init__`, with its checks and messages."""
    data = upcast(data, written_by)
    name = data.get("type")
    cls = _EVENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown event type {name!r}")
    if cls.MARKS:
        cls, _ = _marked(_EVENT_VARIANTS[cls.NAME], data)
        data = {k: v for k, v in data.items() if k not in {member for member, _, _ in cls.MARKS}}
    names = {f.name for f in fields(cls)}
    given = set(data) - {"type"}
    if given - names:
        raise ValueError(f"{name}: unknown field(s) {', '.join(sorted(given - names))}")
    kwargs = {k: _frozen(v) for k, v in data.items() if k != "type"}
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{name}: {exc}") from None


# -- commands ----------------------------------------------------------------------------------------


def compose_commands(
    *declared: Iterable[tuple[type[Command], Parser]],
) -> tuple[dict[str, type[Command]], dict[str, type[Command]], dict[str, Parser]]:
    """Command name -> class, verb -> class and verb -> parser, in the order declared; a name or a verb
    declared by two classes is refused, unless the second refines the first under its name and verb
    (`Command.NAME`, told apart by their marks): its parser then reads every form of the verb."""
    by_name: dict[str, type[Command]] = {}
    by_verb: dict[str, type[Command]] = {}
    parsers: dict[str, Parser] = {}
    for commands in declared:
        for cls, parse in commands:
            name, verb = cls.NAME, cls.VERB
            first = by_name.setdefault(name, cls)
            refines = first is not cls and _refines(cls, first) and verb == first.VERB
            if not refines and (first is not cls or by_verb.setdefault(verb, cls) is not cls):
                raise ValueError(f"command {name} or its verb {verb!r} is taken")
            parsers[verb] = parse
    return by_name, by_verb, parsers


_DECLARED_COMMANDS = (
    cmd.COMMANDS,
    luna_commands.COMMANDS,
    luna_grand.COMMANDS,
    character_commands.COMMANDS,
    cunitz.COMMANDS,
    hevelius.COMMANDS,
    newton.COMMANDS,
)
_COMMANDS, _VERBS, _PARSERS = compose_commands(*_DECLARED_COMMANDS)
# A name with marks -> its classes: the released class first, then its refinements (`Command.MARKS`).
_COMMAND_VARIANTS = variants(*((cls for cls, _ in commands) for commands in _DECLARED_COMMANDS))
# Every command class, a refinement written under another's name included.
COMMAND_CLASSES: tuple[type[Command], ...] = tuple(
    cls for commands in _DECLARED_COMMANDS for cls, _ in commands
)
# Command name -> class (the JSON form's "type"), and verb -> class (the text notation's).
COMMAND_TYPES: Mapping[str, type[Command]] = MappingProxyType(_COMMANDS)
COMMAND_VERBS: Mapping[str, type[Command]] = MappingProxyType(_VERBS)


def parse_command(text: str) -> Command:
    """Parse the text notation; raises ValueError with what is wrong."""
    parts = text.split()
    if len(parts) < 2 or not parts[0].startswith("@") or not parts[0][1:].isdigit():
        raise ValueError(f"bad command {text!r}: expected '@<seat> <verb> [args]'")
    seat, verb, args = int(parts[0][1:]), parts[1], parts[2:]
    cls = _VERBS.get(verb)
    if cls is None:
        raise ValueError(f"unknown verb {verb!r}; known: {', '.join(sorted(_VERBS))}")
    try:
        return _build(cls, seat, args)
    except (IndexError, ValueError) as exc:
        raise ValueError(f"bad arguments for {verb!r} in {text!r}: {exc}") from None


def _build(cls: type[Command], seat: int, args: list[str]) -> Command:
    parse = _PARSERS.get(cls.VERB)
    if parse is None:  # pragma: no cover - every verb has a parser
        raise ValueError(f"no parser for {cls.__name__}")
    return parse(seat, args)


def command_from_dict(data: Mapping[str, Any]) -> Command:
    """Inverse of `command_to_dict` (the "text" key is optional and must agree if present)."""
    name = data.get("type")
    cls = _COMMANDS.get(name) if isinstance(name, str) else None
    if cls is None:
        if isinstance(data.get("text"), str) and name is None:
            return parse_command(data["text"])
        raise ValueError(f"unknown command type {name!r}; known: {', '.join(sorted(COMMAND_TYPES))}")
    marks: set[str] = set()
    if cls.MARKS:  # one name, two classes: the marks say which
        cls, _ = _marked(_COMMAND_VARIANTS[cls.NAME], data)
        marks = {member for member, _, _ in cls.MARKS}
    spec = {f.name: f for f in fields(cls)}
    extra = set(data) - set(spec) - {"type", "text"} - marks
    if extra:
        raise ValueError(f"{name}: unknown field(s) {', '.join(sorted(extra))}")
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("type", "text") or key in marks:
            continue
        if key in ("dice",):
            if not isinstance(value, list | tuple):
                raise ValueError(f"{name}.{key} must be a list of [colour, value] pairs")
            value = tuple(_die(v, f"{name}.{key}") for v in value)
        elif key in ("die", "returned") and value is not None:
            value = _die(value, f"{name}.{key}")
        kwargs[key] = value
    try:
        cmd = cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{name}: {exc}") from None
    for f in fields(cmd):
        _check_type(cmd, f.name, getattr(cmd, f.name))
    text = data.get("text")
    if text is not None and text != str(cmd):
        raise ValueError(f"{name}: text {text!r} does not match the fields ({str(cmd)!r})")
    return cmd


def _die(value: Any, where: str) -> Die:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and value[0] in COLOURS
        and isinstance(value[1], int)
        and not isinstance(value[1], bool)
    ):
        return (value[0], value[1])
    raise ValueError(f'{where} must be a [colour, value] pair such as ["R", 3]')


def _check_type(cmd: Command, name: str, value: Any) -> None:
    expected = {
        "seat": int,
        "steps": int,
        "comets1": int,
        "comets2": int,
        "option": int,
        "space": int,
        "tile": str,
        "row": int,
        "accept": bool,
        "target": str,
        "action": str,
        "colour": str,
        "page": str,
    }.get(name)
    expected = cmd.FIELD_TYPES.get(name, expected)
    if expected is None:
        return
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"{type(cmd).__name__}.{name} must be an integer")
    if not isinstance(value, expected):
        raise ValueError(f"{type(cmd).__name__}.{name} must be a {expected.__name__}")


# -- rule options ------------------------------------------------------------------------------------


def compose_options(*declared: Iterable[OptionSpec]) -> tuple[dict[str, str], dict[str, OptionSpec]]:
    """JSON name -> attribute of every option (the base game's first) and attribute -> an expansion's
    option, in the order declared; a JSON name or an attribute used twice (or an `Options` method's
    name) is refused."""
    names = dict(_BASE_NAMES)
    specs: dict[str, OptionSpec] = {}
    for options in declared:
        for spec in options:
            taken = spec.attr in _BASE_ATTRS or spec.attr in specs or hasattr(Options, spec.attr)
            if spec.name in names or taken:
                raise ValueError(f"rule option {spec.name} is defined twice")
            names[spec.name] = spec.attr
            specs[spec.attr] = spec
    return names, specs


_OPTION_NAMES, _OPTION_SPECS = compose_options(luna_options.OPTIONS)
OPTION_NAMES: Mapping[str, str] = MappingProxyType(_OPTION_NAMES)  # JSON name -> attribute
OPTION_SPECS: Mapping[str, OptionSpec] = MappingProxyType(_OPTION_SPECS)  # attribute -> an expansion's


# -- state parts -------------------------------------------------------------------------------------

Codec = TypeVar("Codec", PartCodec, FlatCodec, NestedCodec)


def compose_parts(*declared: Iterable[Codec]) -> Mapping[str, Codec]:
    """JSON member -> a state part's codec, in the order declared (the order a dumped state writes them);
    a member used by two part classes is refused."""
    table: dict[str, Codec] = {}
    for codecs in declared:
        for codec in codecs:
            if table.setdefault(codec.cls.key, codec).cls is not codec.cls:
                raise ValueError(f"two state parts use the JSON member {codec.cls.key!r}")
    return MappingProxyType(table)


GAME_PARTS: Mapping[str, PartCodec] = compose_parts(luna_state.GAME_PARTS)  # an expansion's, of the game
PLAYER_PARTS: Mapping[str, PartCodec] = compose_parts(  # a character's or an opponent's, of its seat
    characters.PLAYER_PARTS,
    cunitz.PLAYER_PARTS,
    hevelius.PLAYER_PARTS,
    sophia.PLAYER_PARTS,
    solo_state.PLAYER_PARTS,
)
# A character's own part written inside another's member (the "ability" member: its released keys, in order).
NESTED_PLAYER_PARTS: Mapping[str, NestedCodec] = compose_parts(kepler.NESTED_PARTS, copernicus.NESTED_PARTS)
FLAT_PLAYER_PARTS: Mapping[str, FlatCodec] = compose_parts(luna_state.FLAT_PLAYER_PARTS)  # a player's members
FLAT_TURN_PARTS: Mapping[str, FlatCodec] = compose_parts(luna_state.FLAT_TURN_PARTS)  # the turn's members


# -- the deal ----------------------------------------------------------------------------------------


def compose_deals(*declared: Iterable[ExtraDeal]) -> tuple[ExtraDeal, ...]:
    """The expansions' own deals beside the cards. The events have one slot for an expansion's hidden
    order (released in that shape): a second deal is refused."""
    deals = tuple(deal for deals in declared for deal in deals)
    if len(deals) > 1:
        raise ValueError("the events hold one expansion's hidden order: a second ExtraDeal has no slot")
    return deals


EXTRA_DEALS: tuple[ExtraDeal, ...] = compose_deals(luna_deal.DEALS)
