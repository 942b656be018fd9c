"""How a scheme-2 or scheme-3 event's audit metadata is stored (docs/audit.md, "Scheme 2: stored form").

The service and every reader see the metadata of an event *expanded*: the audit fields of its batch,
its `batch`, the batch's `hash`, its `nonces`, `scheme: 2`. The store keeps the batch's audit fields and
hash once, in the batch's first event (the *head*), under short keys; every other event of the batch
keeps only the number of its batch (`b`) and its own nonces. The hash covers the expanded fields, so the
stored form is an encoding only: `compact` and `expand` are exact inverses (tests/replays/test_compact.py).

    head:     {"s": 2, "k": kind, "a": actor, "i": command_id, "c": command, "t": received_at,
               "e": engine_version, "h": hash, ["sk": seat_kind], ["n": nonces], ["y": key]}
                                                                            ("i" left out when null)
    the rest: {"b": batch, ["n": nonces], ["y": key]}

`s` is the scheme (2 or 3); `y`, the game's key (scheme 3), is stored beside the nonces of an event with
secret groups, like them an event's own, not its batch's.

Scheme-1 metadata is stored as it is (it has no `scheme`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replays.audit import BATCHED, scheme_of

HEAD_KEYS = {
    "scheme": "s",
    "kind": "k",
    "actor": "a",
    "command_id": "i",
    "command": "c",
    "received_at": "t",
    "engine_version": "e",
    "hash": "h",
    "seat_kind": "sk",
}
LONG_KEYS = {short: long for long, short in HEAD_KEYS.items()}
REQUIRED = ("s", "k", "a", "c", "t", "e", "h")
OWN_KEYS = {"nonces": "n", "key": "y"}  # an event's own fields, not its batch's
OWN_STORED = frozenset(OWN_KEYS.values())


class StoredFormError(ValueError):
    """Stored metadata that is not a scheme-2 stored form, or a non-head event without its head."""


def is_compact(stored: Mapping[str, Any]) -> bool:
    """Whether stored metadata is scheme 2's stored form (a head has `s`, any other event `b`)."""
    return "s" in stored or "b" in stored


def compact(meta: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The stored form of the expanded metadata of event `version` (schemes 2 and 3 only)."""
    if scheme_of(meta) not in BATCHED:
        raise StoredFormError(f"only scheme-2 or -3 metadata has a stored form, not {meta.get('scheme')!r}")
    batch = meta["batch"]
    if batch == version:
        out = {
            HEAD_KEYS[k]: v
            for k, v in meta.items()
            if k in HEAD_KEYS and not (k == "command_id" and v is None)
        }
    else:
        out = {"b": batch}
    nonces = meta.get("nonces")
    if nonces:
        out["n"] = nonces
    if "key" in meta:
        out["y"] = meta["key"]
    return out


def head_fields(stored: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The expanded fields a head gives every event of its batch (its audit fields, scheme and hash)."""
    if not isinstance(stored, Mapping) or "b" in stored:
        raise StoredFormError(f"event {version} is not the first event of a batch")
    missing = [LONG_KEYS[k] for k in REQUIRED if k not in stored]
    if missing:
        raise StoredFormError(f"event {version}'s stored metadata lacks {', '.join(missing)}")
    unknown = sorted(set(stored) - set(LONG_KEYS) - OWN_STORED)
    if unknown:
        raise StoredFormError(f"event {version}'s stored metadata has unknown key(s) {', '.join(unknown)}")
    fields = {LONG_KEYS[k]: v for k, v in stored.items() if k not in OWN_STORED}
    fields.setdefault("command_id", None)
    return fields


def batch_of(stored: Mapping[str, Any], version: int) -> int:
    """The batch (its first event's version) of a stored event."""
    if "b" not in stored:
        return version
    batch = stored["b"]
    if not isinstance(batch, int) or isinstance(batch, bool) or not 1 <= batch < version:
        raise StoredFormError(f"event {version}'s batch must be an earlier event, not {batch!r}")
    unknown = sorted(set(stored) - {"b"} - OWN_STORED)
    if unknown:
        raise StoredFormError(f"event {version}'s stored metadata has unknown key(s) {', '.join(unknown)}")
    return batch


def expand(stored: Mapping[str, Any], version: int, head: Mapping[str, Any] | None) -> dict[str, Any]:
    """The expanded metadata of stored event `version`; `head` is its batch's `head_fields` (not needed
    for a head itself)."""
    batch = batch_of(stored, version)
    if batch == version:
        head = head_fields(stored, version)
    elif head is None:
        raise StoredFormError(f"event {version} needs the first event of its batch {batch}")
    meta = {**head, "batch": batch}
    for long, short in OWN_KEYS.items():
        if short in stored:
            meta[long] = stored[short]
    return meta


class Expander:
    """Expands the stored metadata of one game's events read in order (verification reads raw rows so):
    an event after the first of its batch must belong to the batch being read."""

    def __init__(self) -> None:
        self._batch = 0
        self._head: dict[str, Any] | None = None

    def __call__(self, stored: Any, version: int) -> Any:
        if not isinstance(stored, Mapping) or not is_compact(stored):
            return stored  # scheme 1: stored as it is
        batch = batch_of(stored, version)
        if batch == version:
            self._batch, self._head = batch, head_fields(stored, version)
        elif batch != self._batch:
            raise StoredFormError(
                f"event {version} names batch {batch}, but follows the events of batch {self._batch}"
            )
        return expand(stored, version, self._head)
