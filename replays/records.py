"""Values the service hands out, and the raw form of a stored event that verification reads."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from domain import EVENT_TYPES, Event
from replays.audit import CHAINED, KEYED, KINDS, SCHEMES, scheme_of, secret_groups

HASH_PATTERN = re.compile(r"[0-9a-f]{64}")
B64_HASH_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")  # scheme 2: SHA-256 in base64url, no padding
NONCE_PATTERN = re.compile(r"[0-9a-f]{32}")  # a nonce, and a game's key (scheme 3)
MAX_TEXT = 200  # characters of a command ID or an actor label


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An engine event as stored: its number in the game (1-based) and its audit metadata."""

    version: int
    event: Event
    metadata: Mapping[str, Any]

    @property
    def hash(self) -> str:
        return str(self.metadata["hash"])


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The game's version after a command, and the events the command caused."""

    version: int
    events: tuple[Event, ...]
    replayed: bool = False  # True when a retried command ID returned the first result
    actor: int | str | None = None  # the audit metadata of the batch (as /events shows it)
    received_at: str | None = None
    stored_bytes: int = 0  # the size of the events this call wrote (0 for a replayed result)


@dataclass(frozen=True, slots=True)
class GameInfo:
    game_id: str
    created_at: str  # when this store wrote the game (a fork or an import: then, not its source's time)
    seats: tuple[tuple[str, str], ...]
    status: str = "active"  # active | finished
    winners: tuple[int, ...] = ()  # the winning seats of a finished game


@dataclass(frozen=True, slots=True)
class Record:
    """A stored event as data, exactly as read from the store or a file, not yet trusted.

    A redacted `event` lacks the fields of some secret groups; `sealed` gives those groups' digests.
    `line` is the line of an export file, `topic` the stored topic of a database row.
    """

    version: Any
    event: Mapping[str, Any]
    meta: Mapping[str, Any]
    sealed: Mapping[str, str] | None = None
    line: int | None = None
    topic: str | None = None

    @property
    def where(self) -> str:
        return f"line {self.line}" if self.line is not None else f"event {self.version}"


HUMAN, BOT = "human", "bot"  # a seat's kind: its row at creation (api/seats.py), meta.seat_kind
SEAT_KINDS = (HUMAN, BOT)  # meta.seat_kind: who played a seat's command (docs/audit.md)
OPTIONAL_META = frozenset({"nonces", "seat_kind", "key"})
_META_TYPES: Mapping[str, tuple[type, ...]] = {
    "kind": (str,),
    "actor": (int, str),
    "command_id": (str, type(None)),
    "command": (dict,),
    "batch": (int,),
    "received_at": (str,),
    "engine_version": (str,),
    "catalog": (dict,),
    "options_hash": (str,),
    "prev_hash": (str,),
    "hash": (str,),
}
# Schemes 2 and 3 (docs/audit.md): no per-event catalog, options or previous hash; `hash` is the batch's.
_META2_TYPES: Mapping[str, tuple[type, ...]] = {
    **{k: v for k, v in _META_TYPES.items() if k not in ("catalog", "options_hash", "prev_hash")},
    "scheme": (int,),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_record(record: Record) -> str | None:
    """What is structurally wrong with a record (types, names, shapes), or None: the first problem, in
    the order version, metadata object, scheme, event and its secrets, metadata keys and values, hashes,
    stored topic."""
    if not _is_int(record.version) or record.version < 1:
        return f"version must be a positive integer, not {record.version!r}"
    meta = record.meta
    if not isinstance(meta, Mapping):
        return "meta must be an object"
    scheme = scheme_of(meta)
    return (
        _check_scheme(meta, scheme)
        or _check_secrets(record, scheme)
        or _check_meta(meta, scheme)
        or _check_topic(record)
    )


def _check_scheme(meta: Mapping[str, Any], scheme: int) -> str | None:
    """The metadata names a known audit scheme, and carries a key only under scheme 3."""
    if scheme not in SCHEMES:
        named = ", ".join(str(s) for s in SCHEMES if s != CHAINED)
        return f"meta.scheme must be one of {named} (or absent: scheme {CHAINED}), not {meta.get('scheme')!r}"
    if scheme != KEYED and "key" in meta:
        return f"meta.key belongs to audit scheme {KEYED} only, not {scheme}"
    return None


def _check_secrets(record: Record, scheme: int) -> str | None:
    """The event's fields, and its secret groups shown or sealed as its scheme has them."""
    if scheme == KEYED:
        return _check_keyed(record.event, record.meta, record.sealed)
    return _check_event(record.event, record.meta.get("nonces"), record.sealed)


def _check_meta(meta: Mapping[str, Any], scheme: int) -> str | None:
    """The scheme's metadata keys with their types, their values, and the form of its hashes."""
    types_of = _META_TYPES if scheme == CHAINED else _META2_TYPES
    return _check_meta_keys(meta, types_of) or _check_meta_values(meta) or _check_hashes(meta, scheme)


def _check_meta_keys(meta: Mapping[str, Any], types_of: Mapping[str, tuple[type, ...]]) -> str | None:
    """Every key of the scheme's metadata there, with its type (a bool is no int), and no other."""
    missing = [k for k in types_of if k not in meta]
    if missing:
        return f"meta lacks {', '.join(missing)}"
    extra = sorted(set(meta) - set(types_of) - OPTIONAL_META)
    if extra:
        return f"meta has unknown key(s) {', '.join(extra)}"
    for key, types in types_of.items():
        value = meta[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            return f"meta.{key} has the wrong type ({type(value).__name__})"
    return None


def _check_meta_values(meta: Mapping[str, Any]) -> str | None:
    """The seat kind and the batch kind among their names; the actor and the command ID in bounds."""
    if "seat_kind" in meta and meta["seat_kind"] not in SEAT_KINDS:
        return f"meta.seat_kind must be one of {', '.join(SEAT_KINDS)}, not {meta['seat_kind']!r}"
    if meta["kind"] not in KINDS:
        return f"meta.kind must be one of {', '.join(KINDS)}, not {meta['kind']!r}"
    return _check_actor(meta["actor"]) or _check_command_id(meta)


def _check_actor(actor: int | str) -> str | None:
    """A seat number (not negative) or a label of 1 to `MAX_TEXT` characters."""
    if (isinstance(actor, int) and actor < 0) or (isinstance(actor, str) and not 0 < len(actor) <= MAX_TEXT):
        return f"meta.actor must be a seat number or a short label, not {actor!r}"
    return None


def _check_command_id(meta: Mapping[str, Any]) -> str | None:
    """A command's batch has a command ID; any command ID has 1 to `MAX_TEXT` characters."""
    if meta["kind"] == "command" and meta["command_id"] is None:
        return "meta.command_id is required for a command"
    if isinstance(meta["command_id"], str) and not 0 < len(meta["command_id"]) <= MAX_TEXT:
        return f"meta.command_id must have 1 to {MAX_TEXT} characters"
    return None


def _check_hashes(meta: Mapping[str, Any], scheme: int) -> str | None:
    """Scheme 1: three hex SHA-256 digests (options, previous, own); schemes 2 and 3: one base64url."""
    if scheme == CHAINED:
        for key in ("options_hash", "prev_hash", "hash"):
            if not HASH_PATTERN.fullmatch(meta[key]):
                return f"meta.{key} must be 64 lowercase hexadecimal digits"
        return None
    if not B64_HASH_PATTERN.fullmatch(meta["hash"]):
        return f"meta.hash must be 43 base64url characters (scheme {scheme})"
    return None


def _check_topic(record: Record) -> str | None:
    """A database row's stored topic names its event's type."""
    if record.topic is not None and record.topic != f"galileo:{record.event['type']}":
        return f"stored topic {record.topic!r} does not match the event type {record.event['type']!r}"
    return None


def _check_fields(event: Any, nonces: Any, sealed: Any) -> str | None:
    """What is wrong with an event's type and fields, and the shape of its nonces and seals, or None."""
    if not isinstance(event, Mapping):
        return "event must be an object"
    name = event.get("type")
    if not isinstance(name, str) or (cls := EVENT_TYPES.get(name)) is None:
        return f"unknown event type {name!r}"
    groups = secret_groups(name)
    return (
        _check_names(event, name, cls, groups)
        or _check_group_names(name, groups, nonces, sealed)
        or _check_groups_whole(event, name, cls, groups)
    )


def _check_names(
    event: Mapping[str, Any], name: str, cls: type[Event], groups: Mapping[str, Sequence[str]]
) -> str | None:
    """No field the event type lacks; every public field there (but those omitted when None, e.g.
    grants: rules 0.1.0). A name's marks (`Event.MARKS`: which of its classes it is) are members too."""
    names = {f.name for f in fields(cls)}
    marks = {member for member, _, _ in cls.MARKS}
    unknown = sorted(set(event) - names - marks - {"type"})
    if unknown:
        return f"{name} has unknown field(s) {', '.join(unknown)}"
    secret = {f for group in groups.values() for f in group}
    public_missing = sorted(names - secret - set(event) - set(cls.OMITTED_WHEN_NONE))
    if public_missing:
        return f"{name} lacks field(s) {', '.join(public_missing)}"
    return None


def _check_group_names(
    name: str, groups: Mapping[str, Sequence[str]], nonces: Any, sealed: Any
) -> str | None:
    """Nonces and seals are objects that name only the event type's secret groups."""
    if not isinstance(nonces, Mapping) or not isinstance(sealed, Mapping):
        return "nonces and sealed must be objects"
    if set(nonces) - set(groups) or set(sealed) - set(groups):
        return f"{name} has no secret group(s) {', '.join(sorted((set(nonces) | set(sealed)) - set(groups)))}"
    return None


def _check_groups_whole(
    event: Mapping[str, Any], name: str, cls: type[Event], groups: Mapping[str, Sequence[str]]
) -> str | None:
    """A secret group is shown whole or not at all (a field omitted when None may be absent, e.g.
    character_deals)."""
    for group, group_fields in groups.items():
        present = [f for f in group_fields if f in event]
        required = [f for f in group_fields if f not in cls.OMITTED_WHEN_NONE]
        if present and not set(required) <= set(present):
            return f"{name} shows only part of its {group} fields ({', '.join(present)})"
    return None


def _shown(event: Mapping[str, Any], group: str) -> bool:
    return any(f in event for f in secret_groups(event["type"])[group])


def _check_keyed(event: Any, meta: Mapping[str, Any], sealed: Any) -> str | None:
    """Scheme 3: each secret group is complete (its fields and nonce, and the game's key beside the
    nonces), or sealed (its digest, no nonce): left out, or for the private group perhaps shown (its
    seat's own view before the end, which cannot recompute the keyed digest)."""
    nonces = {} if meta.get("nonces") is None else meta["nonces"]
    sealed = {} if sealed is None else sealed
    problem = _check_fields(event, nonces, sealed)
    if problem:
        return problem
    for group in secret_groups(event["type"]):
        problem = _check_keyed_group(event, group, nonces, sealed)
        if problem:
            return problem
    return _check_key(event["type"], meta, nonces)


def _check_keyed_group(
    event: Mapping[str, Any], group: str, nonces: Mapping[str, Any], sealed: Mapping[str, Any]
) -> str | None:
    """Scheme 3, one secret group: sealed (a digest, no nonce, shown only if private), or shown with
    its nonce."""
    name = event["type"]
    if group in sealed:
        if group in nonces or not HASH_PATTERN.fullmatch(str(sealed[group])):
            return f"{name} seals its {group} fields: it needs their digest and no nonce"
        if group != "private" and _shown(event, group):
            return f"{name} seals its {group} fields: only a seat's private fields are shown with a seal"
    elif not (_shown(event, group) and NONCE_PATTERN.fullmatch(str(nonces.get(group, "")))):
        return f"{name} shows its {group} fields: it needs them and their nonce (32 hex digits) or a seal"
    return None


def _check_key(name: str, meta: Mapping[str, Any], nonces: Mapping[str, Any]) -> str | None:
    """Scheme 3: the game's key is shown with the nonces, and only with them."""
    if nonces and not NONCE_PATTERN.fullmatch(str(meta.get("key", ""))):
        return f"{name} shows nonces: its metadata needs the game's key (32 hex digits, scheme {KEYED})"
    if not nonces and "key" in meta:
        return f"{name} has the game's key without any nonce: the key is shown only with the nonces"
    return None


def _check_event(event: Any, nonces: Any, sealed: Any) -> str | None:
    nonces = {} if nonces is None else nonces
    sealed = {} if sealed is None else sealed
    problem = _check_fields(event, nonces, sealed)
    if problem:
        return problem
    for group, group_fields in secret_groups(event["type"]).items():
        problem = _check_chained_group(event, group, group_fields, nonces, sealed)
        if problem:
            return problem
    return None


def _check_chained_group(
    event: Mapping[str, Any],
    group: str,
    group_fields: Sequence[str],
    nonces: Mapping[str, Any],
    sealed: Mapping[str, Any],
) -> str | None:
    """Schemes 1 and 2, one secret group: shown with its nonce and no digest, or left out and sealed."""
    name = event["type"]
    present = [f for f in group_fields if f in event]
    if present and (group in sealed or not NONCE_PATTERN.fullmatch(str(nonces.get(group, "")))):
        return f"{name} shows its {group} fields: it needs their nonce (32 hex digits) and no sealed digest"
    if not present and (group in nonces or not HASH_PATTERN.fullmatch(str(sealed.get(group, "")))):
        return f"{name} leaves out its {group} fields: it needs their sealed digest and no nonce"
    return None
