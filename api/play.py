"""The command path shared by people and bots: submit, publish what changed, hand over to the bots.

Everything a client or a stream sees of an event goes through `event_item`: complete once the game has
ended; before, redacted for its viewer (`redact_event`: the hidden deal removed for everyone, and the
fields private to one seat, such as a face-down card's front, removed for everyone but that seat).
What is published to the fan-out is the spectator form (see `withheld_from` and api/stream.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.concurrency import run_in_threadpool

from api import clocks, notify
from api.broker import Batch
from domain import EVENT_TYPES, Command, Event, GameState, event_to_dict, redact_event
from domain.events import GameEnded, SeatHandedOver, owns_private_fields
from projections.describe import Context, default_context, describe_event, routine
from replays.clock import ClockConfig

logger = logging.getLogger(__name__)

T = TypeVar("T")

if TYPE_CHECKING:
    from api.runtime import Runtime
    from api.service import StoredEvent, SubmitResult
    from replays.store import Game


def event_body(event: Event, finished: bool, viewer: int | None = None) -> dict[str, Any]:
    """An event as `viewer` (a seat, None for a spectator) may see it: all of it once the game has ended."""
    return event_to_dict(event) if finished else redact_event(event, viewer)


def names_of(state: GameState) -> tuple[str, ...]:
    """The seats' names, for the words of the events that name several seats (the final scores)."""
    return tuple(p.name for p in state.players)


def event_item(
    version: int,
    event: Event,
    finished: bool,
    viewer: int | None = None,
    names: Sequence[str] = (),
    locale: str = "en",
) -> dict[str, Any]:
    """An event item; `text` says it in words (projections/describe.py), from the form `viewer` sees
    (seats by `names` where the words name several); `routine`: a step the rules take every turn,
    which the history folds away."""
    body = event_body(event, finished, viewer)
    name = event.type
    text = describe_event(body, _words(names, locale), name)
    return {"version": version, "type": name, "event": body, "text": text, "routine": routine(body, name)}


def _words(names: Sequence[str], locale: str) -> Context:
    context = default_context(locale=locale)
    return Context(context.catalog, names=tuple(names), locale=locale) if names else context


def stored_items(
    stored: Iterable[StoredEvent],
    finished: bool,
    viewer: int | None = None,
    names: Sequence[str] = (),
    locale: str = "en",
) -> list[dict[str, Any]]:
    return [event_item(s.version, s.event, finished, viewer, names, locale) for s in stored]


def localised(
    items: Sequence[Mapping[str, Any]], locale: str, names: Sequence[str] = ()
) -> list[Mapping[str, Any]]:
    """Items (made in English, as batches and caches keep them) with their `text` in `locale`: the
    words are made again from the item's own (already redacted) event, so they say no more."""
    if locale == "en":
        return list(items)
    context = _words(names, locale)
    return [{**i, "text": describe_event(i["event"], context, str(i["type"]))} for i in items]


def withheld_from(item: Mapping[str, Any], viewer: int | None) -> bool:
    """Whether `item`, in the spectator form, lacks a field that `viewer` may see (its own private field):
    such an item must be read again for that viewer."""
    if viewer is None:
        return False
    event = item["event"]
    cls = EVENT_TYPES.get(str(item["type"]))
    private = () if cls is None else cls.OWNER_ONLY
    return event.get("seat") == viewer and any(f in private for f in event.get("redacted", ()))


def ends_game(events: Sequence[Event]) -> bool:
    return any(isinstance(e, GameEnded) for e in events)


def batch_of(game_id: str, last_version: int, events: Sequence[Event], names: Sequence[str] = ()) -> Batch:
    """The batch of `events` in the spectator form, the last of which is the game's version `last_version`."""
    finished = ends_game(events)
    first = last_version - len(events) + 1
    items = [event_item(first + i, e, finished, None, names) for i, e in enumerate(events)]
    return Batch(game_id, items, finished)


def seat_items(batch: Batch, events: Sequence[Event], viewer: int | None) -> list[dict[str, Any]]:
    """The items of `batch` (the spectator form of `events`) as `viewer` may see them: the spectator's
    item where `redact_event` gives the viewer the same (the game ended, or the viewer owns no private
    field of the event: `owns_private_fields`), else the viewer's own (`event_item`)."""
    out: list[dict[str, Any]] = []
    for item, event in zip(batch.items, events, strict=True):
        same = batch.finished or not owns_private_fields(event, viewer)
        out.append(
            dict(item) if same else event_item(int(item["version"]), event, batch.finished, viewer, ())
        )
    return out


async def publish(
    runtime: Runtime, game_id: str, last_version: int, events: Sequence[Event], batch: Batch | None = None
) -> None:
    """Fan out a stored batch (`batch`: its spectator form, when the caller has it already)."""
    if events:
        await runtime.fanout.publish(batch or batch_of(game_id, last_version, events))


async def submit(
    runtime: Runtime,
    game_id: str,
    actor: int | str,
    command: Command,
    expected_version: int,
    command_id: str,
    seat_kind: str,
    received_at: datetime | None = None,
    check: Callable[[Game, datetime], None] | None = None,
) -> tuple[SubmitResult, Batch | None]:
    """Store a command (`seat_kind`: "human" or "bot", recorded in its metadata), fan its events out and
    let the bots play if the turn passed to one. `received_at` and `check`: see `Games.submit`. Gives
    the result and the batch it published (None for a replayed command ID, which publishes nothing): its
    spectator items serve the response too (`seat_items`)."""
    result, batch, _ = await submit_then(
        runtime, game_id, actor, command, expected_version, command_id, seat_kind, received_at, check, None
    )
    return result, batch


async def submit_then(
    runtime: Runtime,
    game_id: str,
    actor: int | str,
    command: Command,
    expected_version: int,
    command_id: str,
    seat_kind: str,
    received_at: datetime | None,
    check: Callable[[Game, datetime], None] | None,
    then: Callable[[], T] | None,
) -> tuple[SubmitResult, Batch | None, T | None]:
    """`submit`, and `then()` (blocking: what the caller reads of the game after its command) in the
    same worker-thread call, right after the write: one thread hop instead of two (issue 28). Its
    result is None when `then` is None or failed: the command is stored and published all the same (the
    caller reads again, and meets the failure there)."""

    def write() -> tuple[SubmitResult, T | None]:
        result = runtime.store.submit(
            game_id, command, expected_version, command_id, actor, seat_kind, received_at, check
        )
        if then is None:
            return result, None
        try:
            return result, then()
        except Exception:  # not this call's to answer: the write must still be published below
            return result, None

    result, after = await run_in_threadpool(write)
    batch = None
    if not result.replayed:
        names: tuple[str, ...] = ()
        if ends_game(result.events):  # the final scores name the seats
            names = names_of((await run_in_threadpool(runtime.store.current, game_id))[0])
        batch = batch_of(game_id, result.version, result.events, names)
        await after_write(runtime, game_id, result.version, result.events, batch)
    runtime.bots.kick(game_id)
    return result, batch, after


async def after_write(
    runtime: Runtime, game_id: str, last_version: int, events: Sequence[Event], batch: Batch | None = None
) -> None:
    """Everything that follows a stored batch: fan it out, queue its notifications, refresh the game's
    clock deadline, and let the bots play if the turn passed to one (docs/async.md). `batch`: the
    spectator form of `events`, when the caller has it already."""
    await publish(runtime, game_id, last_version, events, batch)
    if any(isinstance(e, SeatHandedOver) for e in events):
        runtime.bots.forget(game_id)
    try:
        await notify.queue(runtime, game_id, last_version, events)
        record = await runtime.table_of(game_id)
        if record is not None and record.clock is not None:
            game = await run_in_threadpool(runtime.store.game, game_id)
            people = await runtime.people(game_id, game)
            await clocks.refresh(runtime, game_id, ClockConfig.from_json(record.clock), game, people)
    except Exception:
        # The events are stored: a lost notification or deadline is found again by the scheduler's
        # periodic re-check; the move itself must not look failed.
        logger.exception("after the write to game %s at version %s", game_id, last_version)
    runtime.bots.kick(game_id)


async def after_create(runtime: Runtime, game_id: str, version: int) -> None:
    """A new game's first notification (the seat to act) and clock deadline; then its bots play."""
    events = [s.event for s in await run_in_threadpool(runtime.store.events, game_id, 0, None)]
    try:
        await notify.queue(runtime, game_id, version, events)
        record = await runtime.table_of(game_id)
        if record is not None and record.clock is not None:
            game = await run_in_threadpool(runtime.store.game, game_id)
            people = await runtime.people(game_id, game)
            await clocks.refresh(runtime, game_id, ClockConfig.from_json(record.clock), game, people)
    except Exception:
        logger.exception("after creating game %s", game_id)
    runtime.bots.kick(game_id)
