"""A faster `dataclasses.replace` for the engine's frozen, slotted state classes.

`dataclasses.replace` re-validates and re-runs `__init__`; profiling showed it took two thirds of the
time of a decision. The state classes have no `__post_init__`, so copying the fields is equivalent.
A small copier is generated once per class (plain attribute reads instead of `getattr` calls). Like
`dataclasses.replace`, it refuses a name that is not a field of the class (a typo would otherwise be
lost silently).

A frozen class refuses assignment (its `__setattr__` raises), and setting a slot through its
descriptor's `__set__` is a C call per field: for the 29 fields of a `GameState` that was most of an
event's cost. The copier instead fills a *draft*: a subclass generated per class that adds nothing
(no slots, no `__dict__`) except the ordinary `object.__setattr__`, so each field is one plain slot store.
Once filled, the draft's `__class__` becomes the frozen class itself (Python allows it: the two have the
same layout). The draft never leaves the copier: callers only ever see a finished, frozen value, of
exactly its class (`type(copy) is type(original)`, equality and hashing unchanged).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from types import MemberDescriptorType
from typing import Any, TypeVar

T = TypeVar("T")
_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _draft(cls: type) -> type:
    """The assignable twin of a frozen slotted class (see the module's docstring)."""
    return type(
        f"{cls.__name__}Draft",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
            "__qualname__": f"{cls.__qualname__}Draft",
        },
    )


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A slotted class copies every field into its draft, sets the changed ones and becomes `cls`; an
    unknown name raises KeyError, which `replace` turns into the TypeError of `dataclasses.replace`. A
    class with a `__dict__` (the events) copies that dict."""
    names = [f.name for f in fields(cls)]
    slots = {name: getattr(cls, name, None) for name in names}
    scope: dict[str, Any] = {"_new": object.__new__, "cls": cls, "_names": frozenset(names)}
    lines = ["def copy(obj, kw):"]
    if all(isinstance(slot, MemberDescriptorType) for slot in slots.values()):
        scope["_draft"] = _draft(cls)
        scope["_set"] = object.__setattr__
        lines.append("    new = _new(_draft)")
        lines += [f"    new.{name} = obj.{name}" for name in names]
        lines += [
            "    for name, value in kw.items():",
            "        if name not in _names:",
            "            raise KeyError(name)",
            "        _set(new, name, value)",
            "    new.__class__ = cls",
        ]
    else:  # a class with a __dict__: one dict copy in C
        lines += [
            "    new = _new(cls)",
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
