"""A faster `dataclasses.replace` for the engine's frozen, slotted state classes.

`dataclasses.replace` re-validates and re-runs `__init__`; profiling showed it took two thirds of the
time of a decision. The state classes have no `__post_init__`, so copying the fields is equivalent.
A small copier is generated once per class (plain attribute reads instead of `getattr` calls). Like
`dataclasses.replace`, it refuses a name that is not a field of the class (a typo would otherwise be
lost silently).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")
_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    names = [f.name for f in fields(cls)]
    lines = [
        "def copy(obj, kw):",
        "    if not kw.keys() <= _names:",
        "        _unknown(cls, kw)",
        "    new = _new(cls)",
    ]
    for name in names:
        lines.append(f"    _set(new, {name!r}, kw[{name!r}] if {name!r} in kw else obj.{name})")
    lines.append("    return new")
    scope: dict[str, Any] = {
        "_new": object.__new__,
        "_set": object.__setattr__,
        "cls": cls,
        "_names": frozenset(names),
        "_unknown": _unknown,
    }
    exec("\n".join(lines), scope)  # generated from the class's own field names only
    fn: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return fn


def _unknown(cls: type, changes: dict[str, Any]) -> None:
    unknown = sorted(set(changes) - {f.name for f in fields(cls)})
    raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")


def replace(obj: T, **changes: Any) -> T:
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    result: T = copier(obj, changes)
    return result
