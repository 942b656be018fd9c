"""Tamper evidence: the canonical encoding and the hash chain of a game's events (docs/audit.md).

Two schemes, chosen per game by its first event and kept for its whole life: scheme 2 ("compact", every
game written since it exists) chains *batches*, scheme 1 (the first releases' games) chains events.

Scheme 2: a batch's `hash` is SHA-256 (base64url, no padding) over the canonical encoding of

    {"scheme": 2, "batch": b, "prev": <the previous batch's hash, "" for the first>,
     "audit": <the batch's audit fields: kind, actor, command_id, command, received_at, engine_version,
               seat_kind>,
     "events": [{"event": <public fields>, "sealed": {<group>: <digest>}}, ...]}

so the audit metadata of a command is hashed (and stored) once per command, not once per event, and the
per-game constants (catalog, options) are the GameStarted event's own fields. `batch_hash` below.

Scheme 1: every stored event carries audit metadata and two hashes: `prev_hash` (the previous event's `hash`,
64 zeros for the first event) and `hash`, SHA-256 over the canonical encoding of

    {"version": n, "event": <public fields>, "meta": <metadata>, "sealed": {<group>: <digest>}}

where `meta` is the metadata without `hash` and `nonces` (it includes `prev_hash`). The secret
fields of an event enter the hash only through the digest of their group: "hidden" (secret from
everyone until the game ends) and "private" (seen only by the event's seat). A group's digest covers
its fields and a random nonce kept in the metadata, so a redacted copy (fields and nonce left out,
digest given) still verifies, and a digest of a single card cannot be reversed by trying every card.

Scheme 3 ("keyed", every game created or forked since issue 26) is scheme 2 with keyed group digests:
every game has its own secret key (128 bits, `key` in the metadata of each of its events with secret
groups), and a group's digest is HMAC-SHA256 under that key instead of a bare SHA-256, so that a nonce
that leaks reveals nothing without the key. Before the end of the game no viewer gets a nonce or the key:
every group is sealed, and a seat sees its own private fields beside their seal (`redact`). A new game
and every fork draw a new key and fresh nonces for every secret group (`Games`, replays/service.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from domain import ENGINE_VERSION, EVENT_TYPES, Options, SeatSpec, Setup

ZERO_HASH = "0" * 64
CHAINED, COMPACT, KEYED = 1, 2, 3  # the audit schemes (docs/audit.md, "Schemes")
SCHEME = KEYED  # the scheme of new games and forks
SCHEMES = (CHAINED, COMPACT, KEYED)
BATCHED = (COMPACT, KEYED)  # the schemes that chain batches and store them compactly
# The audit fields of a batch in scheme 2: the same on every event of the batch, hashed once.
AUDIT_FIELDS = ("kind", "actor", "command_id", "command", "received_at", "engine_version", "seat_kind")
SYSTEM = "system"  # the actor of batches no seat caused (setup, fork)
KINDS = ("setup", "command", "fork", "table")  # what caused a batch (table: docs/async.md)
GROUPS = ("hidden", "private")  # secret field groups: Event.HIDDEN and Event.OWNER_ONLY

Actor = int | str


def canonical(value: Any) -> bytes:
    """Canonical JSON: keys sorted by code point, no whitespace, UTF-8, integers only (no floats)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def b64(digest: bytes) -> str:
    """A digest in base64url without padding (43 characters for SHA-256): scheme 2's hashes."""
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def scheme_of(meta: Mapping[str, Any]) -> int:
    """The audit scheme of an event's metadata: its `scheme` (scheme 2 on), else 1."""
    value = meta.get("scheme", CHAINED)
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def new_nonce() -> str:
    return secrets.token_hex(16)


def new_key() -> str:
    """A game's secret key for its group digests (scheme 3): 128 random bits in hex, like a nonce."""
    return secrets.token_hex(16)


def secret_groups(event_type: object) -> dict[str, tuple[str, ...]]:
    """The secret field groups of an event type (only the non-empty ones)."""
    cls = EVENT_TYPES.get(event_type) if isinstance(event_type, str) else None
    if cls is None:
        return {}
    groups = {"hidden": cls.HIDDEN, "private": cls.OWNER_ONLY}
    return {name: fields for name, fields in groups.items() if fields}


def public_fields(event: Mapping[str, Any]) -> dict[str, Any]:
    """The event without any secret field."""
    secret = {f for fields in secret_groups(event.get("type")).values() for f in fields}
    return {k: v for k, v in event.items() if k not in secret}


def is_redacted(event: Mapping[str, Any]) -> bool:
    """True when an event dict lacks the fields of one of its secret groups (a field left out when None,
    such as `character_deals` of a game without characters' hidden orders, may be absent)."""
    optional = _optional(event)
    return any(
        f not in event and f not in optional
        for fields in secret_groups(event.get("type")).values()
        for f in fields
    )


def _optional(event: Mapping[str, Any]) -> set[str]:
    """Secret fields left out of the event's JSON when None (a field added after a release, such as
    `character_deals`): absent, they are not part of the group, so released games keep their hashes."""
    name = event.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    return set(cls.OMITTED_WHEN_NONE) if cls is not None else set()


def group_digest(
    nonce: str, event: Mapping[str, Any], fields: tuple[str, ...], key: str | None = None
) -> str:
    """The digest of a secret group: SHA-256 (schemes 1 and 2) or, given the game's `key` (scheme 3),
    HMAC-SHA256 under the key's 16 bytes, of {"nonce", "fields"} canonically encoded. (A key that is not
    hexadecimal, which verification reports as malformed, is taken as its text: it never raises.)"""
    optional = _optional(event)
    present = {f: event.get(f) for f in fields if f in event or f not in optional}
    body = canonical({"nonce": nonce, "fields": present})
    if key is None:
        return sha256(body)
    try:
        secret = bytes.fromhex(key)
    except ValueError:
        secret = key.encode()
    return hmac.new(secret, body, hashlib.sha256).hexdigest()


def nonces_for(event_type: str, make: Callable[[], str] = new_nonce) -> dict[str, str]:
    """Fresh nonces for the secret groups of an event type ({} for an event without secrets)."""
    return {group: make() for group in secret_groups(event_type)}


def event_hash(
    version: int, event: Mapping[str, Any], meta: Mapping[str, Any], sealed: Mapping[str, str] | None = None
) -> str:
    """The `hash` of an event. `sealed` gives the digest of each secret group left out of `event`."""
    body: dict[str, Any] = {
        "version": version,
        "event": public_fields(event),
        "meta": {k: v for k, v in meta.items() if k not in ("hash", "nonces")},
    }
    digests = _sealed(event, meta, sealed)
    if digests is not None:
        body["sealed"] = digests
    return sha256(canonical(body))


def _sealed(
    event: Mapping[str, Any], meta: Mapping[str, Any], sealed: Mapping[str, str] | None
) -> dict[str, str] | None:
    """The digest of each secret group of an event (None for an event without secret groups)."""
    groups = secret_groups(event.get("type"))
    if not groups:
        return None
    nonces = meta.get("nonces")
    nonces = nonces if isinstance(nonces, Mapping) else {}
    key = _key(meta)
    return {
        group: sealed[group]
        if sealed and group in sealed
        else group_digest(str(nonces.get(group, "")), event, f, key)
        for group, f in groups.items()
    }


def _key(meta: Mapping[str, Any]) -> str | None:
    """The key of an event's group digests: its game's (scheme 3, "" where it is left out), else None."""
    return str(meta.get("key", "")) if scheme_of(meta) == KEYED else None


def batch_audit(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The audit fields of a batch (scheme 2) from the metadata of one of its events."""
    return {k: meta[k] for k in AUDIT_FIELDS if k in meta}


def batch_hash(
    batch: int,
    prev: str,
    audit: Mapping[str, Any],
    events: Sequence[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, str] | None]],
    scheme: int = COMPACT,
) -> str:
    """Schemes 2 and 3: the hash of a batch numbered `batch` (its first event's version) following
    `prev`, with its audit fields and its events, each (event, metadata with its nonces, sealed digests)."""
    items = []
    for event, meta, sealed in events:
        item: dict[str, Any] = {"event": public_fields(event)}
        digests = _sealed(event, meta, sealed)
        if digests is not None:
            item["sealed"] = digests
        items.append(item)
    body = {"scheme": scheme, "batch": batch, "prev": prev, "audit": dict(audit), "events": items}
    return b64(hashlib.sha256(canonical(body)).digest())


def link_batch(
    first: int, payloads: Sequence[Mapping[str, Any]], metas: Sequence[Mapping[str, Any]], prev: str
) -> list[dict[str, Any]]:
    """Schemes 2 and 3: the metadata of one batch's events (versions `first`, first + 1...) completed
    with the batch's `hash`, following `prev` ("" for the first batch of a game)."""
    head = metas[0]
    events = [(p, m, None) for p, m in zip(payloads, metas, strict=True)]
    digest = batch_hash(first, prev, batch_audit(head), events, scheme_of(head))
    return [{**{k: v for k, v in m.items() if k not in ("prev_hash", "hash")}, "hash": digest} for m in metas]


def chain(
    payloads: Sequence[Mapping[str, Any]], metas: Sequence[Mapping[str, Any]], version: int, prev: str
) -> list[dict[str, Any]]:
    """The metadata of events `version + 1`, `version + 2`... hash-linked after `prev` in their scheme
    (the first metadata's): event by event in scheme 1, batch by batch in scheme 2."""
    if not metas:
        return []
    out: list[dict[str, Any]] = []
    if scheme_of(metas[0]) == CHAINED:
        for i, (payload, meta) in enumerate(zip(payloads, metas, strict=True), start=version + 1):
            out.append(link(i, payload, meta, prev))
            prev = out[-1]["hash"]
        return out
    start = 0
    while start < len(metas):
        batch = metas[start]["batch"]
        end = start + 1
        while end < len(metas) and metas[end]["batch"] == batch:
            end += 1
        out += link_batch(batch, payloads[start:end], metas[start:end], prev)
        prev, start = out[-1]["hash"], end
    return out


def first_prev(scheme: int) -> str:
    """What the first event (scheme 1) or batch (scheme 2) of a game links to."""
    return ZERO_HASH if scheme == CHAINED else ""


def redact(
    event: Mapping[str, Any], meta: Mapping[str, Any], viewer: int | None
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """What `viewer` (a seat, None for a spectator) may see of a complete event before the game ends:
    the event and metadata without the groups it may not see, and those groups' digests.

    In scheme 3 no viewer gets a nonce or the key before the end: every group is sealed, and the
    event's seat sees its private fields beside their seal (it cannot recompute the keyed digest)."""
    groups = secret_groups(event.get("type"))
    removed = [g for g in groups if g == "hidden" or viewer is None or viewer != event.get("seat")]
    keyed = scheme_of(meta) == KEYED
    if not removed and not keyed:
        return dict(event), dict(meta), {}
    nonces = dict(meta.get("nonces") or {})
    key = _key(meta)
    sealed = {
        g: group_digest(str(nonces.get(g, "")), event, groups[g], key) for g in (groups if keyed else removed)
    }
    hidden = {f for g in removed for f in groups[g]}
    kept = {} if keyed else {g: n for g, n in nonces.items() if g not in removed}
    out_meta = {k: v for k, v in meta.items() if k not in ("nonces", "key")}
    if kept:
        out_meta["nonces"] = kept
    return {k: v for k, v in event.items() if k not in hidden}, out_meta, sealed


@dataclass(frozen=True, slots=True)
class Cause:
    """What caused one batch of events: the part of the audit metadata shared by the batch."""

    kind: str  # one of KINDS
    actor: Actor
    command: Mapping[str, Any]  # the command dict, the setup (without its seed) or the fork request
    command_id: str | None
    received_at: str  # ISO 8601, the service's clock when the request arrived
    catalog_edition: str
    catalog_hash: str
    options: Mapping[str, Any]
    engine_version: str = ENGINE_VERSION
    seat_kind: str | None = None  # a seat's command: "human" or "bot" (who played it), as the caller says

    def metadata(self, batch: int, scheme: int = SCHEME) -> dict[str, Any]:
        """The metadata of an event of this batch (without its hashes) in audit `scheme`: scheme 1 names
        the game's catalog and options on every event, scheme 2 leaves them to GameStarted."""
        meta: dict[str, Any] = {
            "kind": self.kind,
            "actor": self.actor,
            "command_id": self.command_id,
            "command": dict(self.command),
            "batch": batch,
            "received_at": self.received_at,
            "engine_version": self.engine_version,
        }
        if scheme == CHAINED:
            meta["catalog"] = {"edition": self.catalog_edition, "hash": self.catalog_hash}
            meta["options_hash"] = options_hash(self.options)
        else:
            meta["scheme"] = scheme
        if self.seat_kind is not None:
            meta["seat_kind"] = self.seat_kind
        return meta


def options_hash(options: Mapping[str, Any]) -> str:
    """The rule options of a game by digest: the options themselves are in its GameStarted event."""
    return sha256(canonical(dict(options)))


def link(version: int, event: Mapping[str, Any], meta: Mapping[str, Any], prev_hash: str) -> dict[str, Any]:
    """`meta` completed with `prev_hash` and `hash`: the next link of the chain."""
    out = {k: v for k, v in meta.items() if k not in ("prev_hash", "hash")}
    out["prev_hash"] = prev_hash
    out["hash"] = event_hash(version, event, out)
    return out


def _seat(s: SeatSpec) -> list[Any]:
    """A seat of the setup command: [name, character], plus [side, aside] on the ability side (CHAR-1;
    a basic seat keeps the released two-member shape)."""
    return [s.name, s.character] if s.side == "basic" else [s.name, s.character, s.side, s.aside]


def _seat_spec(entry: Any) -> SeatSpec:
    name, char, *rest = entry
    side = str(rest[0]) if rest else "basic"
    aside = rest[1] if len(rest) > 1 and rest[1] is not None else None
    return SeatSpec(
        name=str(name), character=str(char), side=side, aside=None if aside is None else str(aside)
    )


def setup_command(setup: Setup) -> dict[str, Any]:
    """The setup as the `command` of the setup batch: everything but the secret seed and salt."""
    command: dict[str, Any] = {
        "type": "Setup",
        "seats": [_seat(s) for s in setup.seats],
        "first_seat": setup.first_seat,
        "options": setup.options.to_json(),
        "catalog_edition": setup.catalog_edition,
        "tile_orders": None if setup.tile_orders is None else [list(o) for o in setup.tile_orders],
        **({"difficulty": setup.difficulty} if setup.difficulty is not None else {}),  # SOLO-2
    }
    return command


def setup_from_command(command: Mapping[str, Any], seed: str, salt: str) -> Setup:
    """Inverse of `setup_command` given the seed and salt; raises ValueError on a malformed command."""
    if command.get("type") != "Setup":
        raise ValueError(f"the setup batch's command must be a Setup, not {command.get('type')!r}")
    try:
        seats = tuple(_seat_spec(entry) for entry in command["seats"])
        orders = command["tile_orders"]
        return Setup(
            seats=seats,
            seed=seed,
            first_seat=command["first_seat"],
            options=Options.from_json(command["options"]),
            catalog_edition=str(command["catalog_edition"]),
            tile_orders=None if orders is None else tuple(tuple(o) for o in orders),
            salt=salt,
            difficulty=None if command.get("difficulty") is None else str(command["difficulty"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed Setup command: {type(exc).__name__}: {exc}") from None
