"""The command path shared by people and bots: submit, publish what changed, hand over to the bots.

Everything a client or a stream sees of an event goes through `public_item`: redacted (the hidden deal
removed) until the game has ended, complete afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from api.broker import Batch
from domain import Command, Event, event_to_dict, redact_event
from domain.events import GameEnded

if TYPE_CHECKING:
    from api.runtime import Runtime
    from api.service import StoredEvent, SubmitResult


def event_body(event: Event, finished: bool) -> dict[str, Any]:
    """An event as any viewer may see it: everything is public once the game has ended."""
    return event_to_dict(event) if finished else redact_event(event)


def public_item(version: int, event: Event, finished: bool) -> dict[str, Any]:
    return {"version": version, "type": type(event).__name__, "event": event_body(event, finished)}


def stored_items(stored: Iterable[StoredEvent], finished: bool) -> list[dict[str, Any]]:
    return [public_item(s.version, s.event, finished) for s in stored]


def ends_game(events: Sequence[Event]) -> bool:
    return any(isinstance(e, GameEnded) for e in events)


def batch_of(game_id: str, last_version: int, events: Sequence[Event]) -> Batch:
    """The batch of `events`, the last of which is the game's version `last_version`."""
    finished = ends_game(events)
    first = last_version - len(events) + 1
    items = [public_item(first + i, e, finished) for i, e in enumerate(events)]
    return Batch(game_id, items, finished)


async def publish(runtime: Runtime, game_id: str, last_version: int, events: Sequence[Event]) -> None:
    if events:
        await runtime.fanout.publish(batch_of(game_id, last_version, events))


async def submit(
    runtime: Runtime,
    game_id: str,
    actor: int | str,
    command: Command,
    expected_version: int,
    command_id: str,
) -> SubmitResult:
    """Store a command, fan its events out and let the bots play if the turn passed to one."""
    result = await run_in_threadpool(
        runtime.store.submit, game_id, command, expected_version, command_id, actor
    )
    if not result.replayed:
        await publish(runtime, game_id, result.version, result.events)
    runtime.bots.kick(game_id)
    return result
