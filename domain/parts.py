"""How a plug-in's state is written to and read from a dumped position (docs/state.md).

An expansion keeps its state in a `Part` of the game (`GameState.parts`), a character or a non-player
opponent in a `Part` of its seat (`PlayerState.parts`). Each part class registers a `PartCodec` here: its
JSON member name (the part's `key`), how it is dumped (with `hide=True` for the public view, which must
leave out what players may not see) and how it is loaded. `domain/serialize.py` asks this registry and
knows no part by name.

`always=True` writes the member even when the part is absent (as `null`): a released state format that
always had the member (Luna's `"luna"`, format 1) keeps its shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.state import Part


@dataclass(frozen=True, slots=True)
class PartCodec:
    cls: type[Part]
    dump: Callable[[Any, bool], Any]  # (part, hide) -> JSON value
    load: Callable[[Any], Part]  # JSON value -> part
    always: bool = False


GAME_PARTS: dict[str, PartCodec] = {}
PLAYER_PARTS: dict[str, PartCodec] = {}


def register_game_part(codec: PartCodec) -> None:
    _register(GAME_PARTS, codec)


def register_player_part(codec: PartCodec) -> None:
    _register(PLAYER_PARTS, codec)


def _register(registry: dict[str, PartCodec], codec: PartCodec) -> None:
    key = codec.cls.key
    if key in registry and registry[key].cls is not codec.cls:
        raise ValueError(f"two state parts use the JSON member {key!r}")
    registry[key] = codec


def dump_parts(registry: dict[str, PartCodec], parts: tuple[Part, ...], hide: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    present = {type(p): p for p in parts}
    for key, codec in registry.items():
        part = present.pop(codec.cls, None)
        if part is not None:
            out[key] = codec.dump(part, hide)
        elif codec.always:
            out[key] = None
    if present:
        names = ", ".join(sorted(cls.__name__ for cls in present))
        raise ValueError(f"no codec registered for state part(s) {names} (domain/parts.py)")
    return out


def load_parts(registry: dict[str, PartCodec], data: Any) -> tuple[Part, ...]:
    return tuple(codec.load(data[key]) for key, codec in registry.items() if data.get(key) is not None)


def json_tuple(xs: Any) -> tuple[Any, ...]:
    """A JSON list as a tuple (a part's loader uses it; ValueError on anything else)."""
    if not isinstance(xs, list):
        raise ValueError(f"expected a list, got {type(xs).__name__}")
    return tuple(xs)
