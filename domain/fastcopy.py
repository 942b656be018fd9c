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
    """Copy every field through its slot descriptor's `__set__` (twice as fast as `object.__setattr__`,
    which looks the descriptor up on every call), then set the changed ones. An unknown name is not in
    `_setters`: the KeyError becomes the TypeError of `replace`."""
    names = [f.name for f in fields(cls)]
    lines = ["def copy(obj, kw):", "    new = _new(cls)"]
    lines += [f"    _set_{name}(new, obj.{name})" for name in names]
    lines += ["    for name, value in kw.items():", "        _setters[name](new, value)", "    return new"]
    setters = {name: _setter(cls, name) for name in names}
    scope: dict[str, Any] = {"_new": object.__new__, "cls": cls, "_setters": setters}
    scope.update({f"_set_{name}": setter for name, setter in setters.items()})
    exec("\n".join(lines), scope)  # generated from the class's own field names only
    fn: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return fn


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    slot = getattr(cls, name, None)
    if isinstance(slot, MemberDescriptorType):
        fn: Callable[[Any, Any], None] = slot.__set__  # a slotted class: its member descriptor
        return fn
    return lambda obj, value: object.__setattr__(obj, name, value)  # a class with a __dict__


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
