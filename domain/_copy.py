"""A faster `dataclasses.replace` for the engine's frozen, slotted state classes: the private detail
of `domain.state.replace` and `domain.state.changer`, which rules code calls (only domain/state.py
imports this module).

`dataclasses.replace` re-validates and re-runs `__init__`; profiling showed it took two thirds of the
time of a decision. The state classes have no `__post_init__`, so copying the fields is equivalent.
Like `dataclasses.replace`, `replace` refuses a name that is not a field of the class (a typo would
otherwise be lost silently).

A frozen class refuses assignment (its `__setattr__` raises), and setting a slot through its
descriptor's `__set__` is a C call per field: for the 29 fields of a `GameState` that was most of an
event's cost. A copy instead fills a *draft*: a subclass generated per class that adds nothing (no
slots, no `__dict__`) but the ordinary `object.__setattr__`, so each field is one plain slot store.
Once filled, the draft's `__class__` becomes the frozen class itself (Python allows it: the two have the
same layout). The draft never leaves the copier: callers only ever see a finished, frozen value, of
exactly its class (`type(copy) is type(original)`; equality and hashing unchanged).

The copier is generated once per class and set of changed fields (the engine's call sites use a few
dozen): it reads each unchanged field from the original and each changed one from the keywords, and
never sets a field twice. Past `_SPECIALISED` such sets, a class's general copier serves the rest
(it also copies the classes with a `__dict__`, the events).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from types import MemberDescriptorType
from typing import Any, TypeVar, cast

T = TypeVar("T")
Copier = Callable[[Any, dict[str, Any]], Any]

_SPECIALISED = 2048  # copiers by (class, changed fields) kept at most
_BY_CHANGES: dict[tuple[Any, ...], Copier] = {}  # (class, *changed field names) -> its copier
_GENERAL: dict[type, Copier] = {}  # class -> the copier of any changes
_DRAFTS: dict[type, type] = {}


def _draft(cls: type) -> type:
    """The assignable twin of a frozen slotted class (see the module's docstring)."""
    draft = _DRAFTS.get(cls)
    if draft is None:
        draft = _DRAFTS[cls] = type(
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
    return draft


def _slotted(cls: type, names: list[str]) -> bool:
    return all(isinstance(getattr(cls, name, None), MemberDescriptorType) for name in names)


def _compile(cls: type, lines: list[str], **scope: Any) -> Copier:
    scope.update(_new=object.__new__, cls=cls)
    exec("\n".join(lines), scope)  # generated from the class's own field names only
    fn: Copier = scope["copy"]
    return fn


def _general(cls: type) -> Copier:
    """The copier of `cls` for any changes; an unknown name raises KeyError (a slotted class copies
    into its draft; a class with a `__dict__`, such as an event, copies that dict)."""
    names = [f.name for f in fields(cls)]
    lines = ["def copy(obj, kw):"]
    if not _slotted(cls, names):
        lines += [
            "    new = _new(cls)",
            "    if not kw.keys() <= _names:",
            "        raise KeyError",
            "    fields = new.__dict__",
            "    fields.update(obj.__dict__)",
            "    fields.update(kw)",
            "    return new",
        ]
        return _compile(cls, lines, _names=frozenset(names))
    lines.append("    new = _new(_draft)")
    lines += [f"    new.{name} = obj.{name}" for name in names]
    lines += [
        "    for name, value in kw.items():",
        "        if name not in _names:",
        "            raise KeyError(name)",
        "        _set(new, name, value)",
        "    new.__class__ = cls",
        "    return new",
    ]
    return _compile(cls, lines, _names=frozenset(names), _draft=_draft(cls), _set=object.__setattr__)


def _specialised(cls: type, changed: tuple[str, ...]) -> Copier | None:
    """The copier of `cls` for exactly the fields `changed`; None when they are not all fields of a
    slotted class (the general copier then refuses an unknown one, or copies the `__dict__`)."""
    names = [f.name for f in fields(cls)]
    if not set(changed) <= set(names) or not _slotted(cls, names):
        return None
    lines = ["def copy(obj, kw):", "    new = _new(_draft)"]
    lines += [
        f"    new.{name} = kw[{name!r}]" if name in changed else f"    new.{name} = obj.{name}"
        for name in names
    ]
    lines += ["    new.__class__ = cls", "    return new"]
    return _compile(cls, lines, _draft=_draft(cls))


def _copier(cls: type, changed: tuple[str, ...]) -> Copier:
    """The copier for these changes, kept by (class, changed fields) while fewer than `_SPECIALISED`."""
    if len(_BY_CHANGES) >= _SPECIALISED:
        return _general_of(cls)
    copier = _specialised(cls, changed) or _general_of(cls)
    _BY_CHANGES[(cls, *changed)] = copier
    return copier


def _general_of(cls: type) -> Copier:
    copier = _GENERAL.get(cls)
    if copier is None:
        copier = _GENERAL[cls] = _general(cls)
    return copier


def changer(cls: type[T], *names: str) -> Callable[..., T]:
    """A copier of the slotted class `cls` that changes exactly the fields `names`, their new values
    given positionally in that order: `changer(TurnState, "phase")(turn, "cleanup")` equals
    `replace(turn, phase="cleanup")`, without building keywords and finding the copier on each call
    (for the replay path's hottest copies)."""
    field_names = [f.name for f in fields(cast(Any, cls))]
    if not set(names) <= set(field_names):
        _unknown(cls, dict.fromkeys(names))
    if len(set(names)) != len(names) or not _slotted(cls, field_names):
        raise TypeError(f"a changer takes distinct fields of a slotted class, not {cls.__name__} {names}")
    values = {name: f"__v{i}" for i, name in enumerate(names)}
    lines = [f"def copy(__obj, {', '.join(values.values())}):", "    __copy = _new(_draft)"]
    lines += [f"    __copy.{name} = {values.get(name, f'__obj.{name}')}" for name in field_names]
    lines += ["    __copy.__class__ = cls", "    return __copy"]
    return cast(Callable[..., T], _compile(cls, lines, _draft=_draft(cls)))


def _unknown(cls: type, changes: dict[str, Any]) -> None:
    unknown = sorted(set(changes) - {f.name for f in fields(cls)})
    raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")


def replace(obj: T, **changes: Any) -> T:
    cls = type(obj)
    key = (cls, *changes)
    copier = _BY_CHANGES.get(key)
    if copier is None:
        copier = _copier(cls, tuple(changes))
    try:
        result: T = copier(obj, changes)
    except KeyError:
        _unknown(cls, changes)
        raise
    return result
