"""How a plug-in's state is written to and read from a dumped position (docs/state.md).

An expansion keeps its state in a `Part` of the game (`GameState.parts`), a character or a non-player
opponent in a `Part` of its seat (`PlayerState.parts`). Each part class has a `PartCodec`, declared by
its module (`GAME_PARTS`, `PLAYER_PARTS`, ...) and composed in `domain.vocabulary`: its JSON member name
(the part's `key`), how it is dumped (with `hide=True` for the public view, which must leave out what
players may not see) and how it is loaded. `domain/serialize.py` reads the composed tables and knows no
part by name.

`always=True` writes the member even when the part is absent (as `null`): a released state format that
always had the member (format 1) keeps its shape.

A `FlatCodec` writes a part as members of its owner's own JSON object rather than under its key: a
released format that had those members as the owner's own fields keeps its shape (format 1's player and
turn members that became a plug-in's part). It writes them for an absent part too (its fields at rest),
and reads an absent part (None) from members at rest.

A `NestedCodec` writes a part as members of another part's JSON object (the member named `into`): a
released format that had those members in that part keeps its shape (the seat's `ability` member holds
Kepler's `aside` and Copernicus' `library` and `placed`, each now a part of its own character). It writes
them whenever the host member is written, an absent part's at rest, and reads an absent part (None) from
members at rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from domain.state import Part


@dataclass(frozen=True, slots=True)
class PartCodec:
    cls: type[Part]
    dump: Callable[[Any, bool], Any]  # (part, hide) -> JSON value
    load: Callable[[Any], Part]  # JSON value -> part
    always: bool = False


@dataclass(frozen=True, slots=True)
class FlatCodec:
    cls: type[Part]
    dump: Callable[[Any, Any, bool], dict[str, Any]]  # (owner, part or None, hide) -> its members
    load: Callable[[Mapping[str, Any]], Part | None]  # the owner's JSON -> the part (None: absent)


@dataclass(frozen=True, slots=True)
class NestedCodec:
    cls: type[Part]
    into: str  # the JSON member (a part's key) whose object holds this part's members
    dump: Callable[[Any, bool], dict[str, Any]]  # (part or None, hide) -> its members
    load: Callable[[Mapping[str, Any]], Part | None]  # the host's JSON object -> the part (None: absent)


_NO_FLAT: Mapping[str, FlatCodec] = MappingProxyType({})
_NO_NESTED: Mapping[str, NestedCodec] = MappingProxyType({})


def dump_parts(
    registry: Mapping[str, PartCodec],
    parts: tuple[Part, ...],
    hide: bool,
    owner: Any = None,
    flat: Mapping[str, FlatCodec] = _NO_FLAT,
    nested: Mapping[str, NestedCodec] = _NO_NESTED,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    present = {type(p): p for p in parts}
    for key, codec in registry.items():
        part = present.pop(codec.cls, None)
        if part is not None:
            out[key] = codec.dump(part, hide)
        elif codec.always:
            out[key] = None
    for nested_codec in nested.values():
        inner = present.pop(nested_codec.cls, None)
        host = out.get(nested_codec.into)
        if host is not None:
            out[nested_codec.into] = {**host, **nested_codec.dump(inner, hide)}
        elif inner is not None:
            name = type(inner).__name__
            raise ValueError(f"state part {name} is written inside {nested_codec.into!r}, which is absent")
    for flat_codec in flat.values():
        out.update(flat_codec.dump(owner, present.pop(flat_codec.cls, None), hide))
    if present:
        names = ", ".join(sorted(cls.__name__ for cls in present))
        raise ValueError(f"no codec declared for state part(s) {names} (domain/vocabulary.py)")
    return out


def load_parts(
    registry: Mapping[str, PartCodec],
    data: Any,
    flat: Mapping[str, FlatCodec] = _NO_FLAT,
    nested: Mapping[str, NestedCodec] = _NO_NESTED,
) -> tuple[Part, ...]:
    """The parts of a dumped owner, in the order of their keys (as `state.put_part` keeps them)."""
    parts = [codec.load(data[key]) for key, codec in registry.items() if data.get(key) is not None]
    for nested_codec in nested.values():
        host = data.get(nested_codec.into)
        inner = nested_codec.load(host) if host is not None else None
        if inner is not None:
            parts.append(inner)
    for flat_codec in flat.values():
        part = flat_codec.load(data)
        if part is not None:
            parts.append(part)
    return tuple(sorted(parts, key=lambda part: part.key))


def json_tuple(xs: Any) -> tuple[Any, ...]:
    """A JSON list as a tuple (a part's loader uses it; ValueError on anything else)."""
    if not isinstance(xs, list):
        raise ValueError(f"expected a list, got {type(xs).__name__}")
    return tuple(xs)
