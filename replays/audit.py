"""Tamper evidence: the canonical encoding and the hash chain of a game's events (docs/audit.md).

Every stored event carries audit metadata and two hashes: `prev_hash` (the previous event's `hash`,
64 zeros for the first event) and `hash`, SHA-256 over the canonical encoding of

    {"version": n, "event": <public fields>, "hidden": <digest of the hidden fields>, "meta": <metadata>}

where `meta` is the metadata without `hash` (so it includes `prev_hash`). Hidden fields (secret until
the game ends) enter the hash only through their digest, so a redacted export still verifies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from domain import ENGINE_VERSION, EVENT_TYPES, Options, SeatSpec, Setup

ZERO_HASH = "0" * 64
SYSTEM = "system"  # the actor of batches no seat caused (setup, fork)
KINDS = ("setup", "command", "fork")  # what caused a batch of events

Actor = int | str


def canonical(value: Any) -> bytes:
    """Canonical JSON: keys sorted by code point, no whitespace, UTF-8, integers only (no floats)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hidden_fields(event_type: object) -> tuple[str, ...]:
    """The fields of an event type that stay secret until the game ends."""
    cls = EVENT_TYPES.get(event_type) if isinstance(event_type, str) else None
    return cls.HIDDEN if cls is not None else ()


def hidden_digest(event: Mapping[str, Any]) -> str | None:
    """SHA-256 of the hidden fields of a complete event dict (None for an event without secrets)."""
    names = hidden_fields(event.get("type"))
    if not names:
        return None
    return sha256(canonical({name: event.get(name) for name in names}))


def is_redacted(event: Mapping[str, Any]) -> bool:
    """True when an event dict lacks every one of its hidden fields."""
    names = hidden_fields(event.get("type"))
    return bool(names) and not any(name in event for name in names)


def public_fields(event: Mapping[str, Any]) -> dict[str, Any]:
    names = hidden_fields(event.get("type"))
    return {k: v for k, v in event.items() if k not in names}


def event_hash(
    version: int, event: Mapping[str, Any], meta: Mapping[str, Any], digest: str | None = None
) -> str:
    """The `hash` of an event. `digest` stands for the hidden fields when they are redacted."""
    body: dict[str, Any] = {
        "version": version,
        "event": public_fields(event),
        "meta": {k: v for k, v in meta.items() if k != "hash"},
    }
    if hidden_fields(event.get("type")):
        body["hidden"] = digest if is_redacted(event) else hidden_digest(event)
    return sha256(canonical(body))


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

    def metadata(self, batch: int) -> dict[str, Any]:
        """The metadata of an event of this batch (without `prev_hash` and `hash`)."""
        return {
            "kind": self.kind,
            "actor": self.actor,
            "command_id": self.command_id,
            "command": dict(self.command),
            "batch": batch,
            "received_at": self.received_at,
            "engine_version": self.engine_version,
            "catalog": {"edition": self.catalog_edition, "hash": self.catalog_hash},
            "options": dict(self.options),
        }


def link(version: int, event: Mapping[str, Any], meta: Mapping[str, Any], prev_hash: str) -> dict[str, Any]:
    """`meta` completed with `prev_hash` and `hash`: the next link of the chain."""
    out = {k: v for k, v in meta.items() if k not in ("prev_hash", "hash")}
    out["prev_hash"] = prev_hash
    out["hash"] = event_hash(version, event, out)
    return out


def setup_command(setup: Setup) -> dict[str, Any]:
    """The setup as the `command` of the setup batch: everything but the secret seed."""
    return {
        "type": "Setup",
        "seats": [[s.name, s.character] for s in setup.seats],
        "first_seat": setup.first_seat,
        "options": setup.options.to_json(),
        "catalog_edition": setup.catalog_edition,
        "tile_orders": None if setup.tile_orders is None else [list(o) for o in setup.tile_orders],
    }


def setup_from_command(command: Mapping[str, Any], seed: str) -> Setup:
    """Inverse of `setup_command` given the seed; raises ValueError on a malformed command."""
    if command.get("type") != "Setup":
        raise ValueError(f"the setup batch's command must be a Setup, not {command.get('type')!r}")
    try:
        seats = tuple(SeatSpec(name=str(name), character=str(char)) for name, char in command["seats"])
        orders = command["tile_orders"]
        return Setup(
            seats=seats,
            seed=seed,
            first_seat=command["first_seat"],
            options=Options.from_json(command["options"]),
            catalog_edition=str(command["catalog_edition"]),
            tile_orders=None if orders is None else tuple(tuple(o) for o in orders),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed Setup command: {type(exc).__name__}: {exc}") from None
