"""The Server-Sent Events stream of one game: every event once, in order, resumable by `Last-Event-ID`.

Each SSE message carries one event: `id` is its version, `data` the item {"version", "type", "event"}
(redacted for the stream's viewer until the game has ended: a seat sees its own private fields, such as
the front of a card it drew face down; a spectator and every other seat do not). A stream first reads
what the client missed from the store, then follows the fan-out. The version of the last event sent is
the only state: a batch that does not follow it (a gap: pub/sub lost a message, Redis was down, the
client was slow) makes the stream read the store instead, and duplicates are dropped.

The fan-out carries the spectator form only, so no seat's secret ever enters Redis and one publish
serves every viewer. A batch holding a field private to the stream's own seat (`withheld_from`; rare:
a face-down draw) is not sent from the fan-out: the stream reads those events from the store instead,
in that seat's form, exactly like a gap. Without a live fan-out (Redis unreachable) the stream polls the
store every `stream_poll_seconds`; with it, it still reads the store at each heartbeat, as a safety net.
When the game has ended and everything was sent, an `end` event closes the stream.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson
from starlette.concurrency import run_in_threadpool

from api.play import names_of, stored_items, withheld_from

if TYPE_CHECKING:
    from api.runtime import Runtime

RETRY_MS = 2000  # how long a browser waits before reconnecting
PAGE = 500


def sse_message(item: Mapping[str, Any]) -> bytes:
    return b"id: %d\ndata: %s\n\n" % (int(item["version"]), orjson.dumps(item))


def _read_after(
    runtime: Runtime, game_id: str, after: int, viewer: int | None
) -> tuple[list[dict[str, Any]], bool]:
    """Events after `after` as `viewer` may see them now, and whether the game has ended."""
    state, version = runtime.store.current(game_id)
    if version <= after:
        return [], state.finished
    stored = runtime.store.events(game_id, after=after, limit=min(PAGE, version - after))
    return stored_items(stored, state.finished, viewer, names_of(state)), state.finished


async def game_stream(
    runtime: Runtime, game_id: str, last_id: int, viewer: int | None = None
) -> AsyncIterator[bytes]:
    """The stream after version `last_id` (0: from the start) for `viewer` (a seat, None: a spectator)."""
    settings = runtime.settings
    listener = runtime.fanout.hub.listen(game_id)  # listen first, then read: nothing falls in between
    last = last_id
    finished = False

    def fresh(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        return [i for i in items if int(i["version"]) > last]

    try:
        yield b"retry: %d\n\n" % RETRY_MS
        while True:
            # Catch up from the store until nothing more is there.
            while True:
                items, finished = await run_in_threadpool(_read_after, runtime, game_id, last, viewer)
                for item in fresh(items):
                    yield sse_message(item)
                    last = int(item["version"])
                if len(items) < PAGE:
                    break
            if finished:
                yield b"event: end\ndata: {}\n\n"
                return
            # Follow the fan-out while batches are contiguous.
            while True:
                live = runtime.fanout.live
                wait = settings.stream_heartbeat_seconds if live else settings.stream_poll_seconds
                try:
                    batch = await asyncio.wait_for(listener.queue.get(), wait)
                except TimeoutError:
                    if live:
                        yield b": ping\n\n"
                    break  # read the store: a heartbeat's safety net, or polling while Redis is down
                if batch is None or batch.first > last + 1:
                    break  # a resync request or a gap
                if any(withheld_from(item, viewer) for item in fresh(batch.items)):
                    break  # this seat's own private field: read its form from the store
                for item in fresh(batch.items):
                    yield sse_message(item)
                    last = int(item["version"])
                if batch.finished:
                    yield b"event: end\ndata: {}\n\n"
                    return
    finally:
        runtime.fanout.hub.leave(listener)
