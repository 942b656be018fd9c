"""A faster `dataclasses.replace` for the engine's frozen, slotted state classes.

`dataclasses.replace` re-validates and re-runs `__init__`; profiling showed it took two thirds of the
time of a decision. The state classes have no `__post_init__`, so copying the fields is equivalent.
A small copier is generated once per class (plain attribute reads instead of `getattr` calls, and
the slot descriptors' own setters). Like `dataclasses.replace`, it refuses a name that is not a field
of the class (a typo would otherwise be lost silently).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from types import MemberDescriptorType
from typing import Any, TypeVar

T = TypeVar("T")
_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A slotted class copies every field through its slot descriptor's `__set__` (twice as fast as
    `object.__setattr__`, which looks the descriptor up on every call), then sets the changed ones; an
    unknown name is not in `_setters`, and the KeyError becomes the TypeError of `replace`. A class with
    a `__dict__` (the events) copies that dict."""
    names = [f.name for f in fields(cls)]
    slots = {name: getattr(cls, name, None) for name in names}
    scope: dict[str, Any] = {"_new": object.__new__, "cls": cls, "_set": object.__setattr__}
    lines = ["def copy(obj, kw):", "    new = _new(cls)"]
    if all(isinstance(slot, MemberDescriptorType) for slot in slots.values()):
        setters = {name: slot.__set__ for name, slot in slots.items()}  # type: ignore[union-attr]
        scope["_setters"] = setters
        scope.update({f"_set_{name}": setter for name, setter in setters.items()})
        lines += [f"    _set_{name}(new, obj.{name})" for name in names]
        lines += ["    for name, value in kw.items():", "        _setters[name](new, value)"]
    else:  # a class with a __dict__: one dict copy in C
        scope["_names"] = frozenset(names)
        lines += [
            "    if not kw.keys() <= _names:",
            "        raise KeyError",
            "    fields = new.__dict__",
            "    fields.update(obj.__dict__)",
            "    fields.update(kw)",
        ]
    lines.append("    return new")
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
    try:
        result: T = copier(obj, changes)
    except KeyError:
        _unknown(cls, changes)
        raise
    return result
