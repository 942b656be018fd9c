"""The Server-Sent Events stream of one game: every event once, in order, resumable by `Last-Event-ID`.

Each SSE message carries one event: `id` is its version, `data` the item {"version", "type", "event"}
(redacted for the stream's viewer until the game has ended: a seat sees its own private fields, such as
the front of a card it drew face down; a spectator and every other seat do not). A stream first reads
what the client missed from the store, then follows the fan-out. The version of the last event sent is
the only state (a new stream without it starts at the game's head unless it asks for more with `after`:
api/routers/events.py): a batch that does not follow it (a gap: pub/sub lost a message, Redis was down,
the client was slow) makes the stream read the store instead, and duplicates are dropped.

The fan-out carries the spectator form only, so no seat's secret ever enters Redis and one publish
serves every viewer. A batch holding a field private to the stream's own seat (`withheld_from`; rare:
a face-down draw) is not sent from the fan-out: the stream reads those events from the store instead,
in that seat's form, exactly like a gap. Store reads come in pages of `PAGE` events, at most
`stream_reads` at once across the process's streams. Without a live fan-out (Redis unreachable) the
stream polls the store every `stream_poll_seconds`; with it, it still reads the store at each
heartbeat, as a safety net. Table chat (docs/chat.md) rides on the same stream as `chat` events (no
`id`: chat is not part of the log and never moves Last-Event-ID): a stream sends the messages written
after it opened, read from the chat table whenever it reads the store (a message wakes the game's
streams in every process through the fan-out: `Fanout.nudge`; without it, at the next heartbeat). When the
game has ended and everything was sent, an `end` event closes the
stream. A seat's stream ends with a `revoked` event after the event that took the seat from its token
(`revokes`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

import orjson
from fastapi import Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from api.limits import client_of
from api.lru import Lru
from api.play import localised, names_of, stored_items, withheld_from

if TYPE_CHECKING:
    from api.runtime import Runtime

RETRY_MS = 2000  # how long a browser waits before reconnecting
PAGE = 100  # events per store read while catching up: a long log is sent a page at a time, each page
# read only once the client has taken the previous one (a client that does not read stops the reads)
PAGE_CACHE = 256  # pages kept encoded (PageCache)


REVOKED = b"event: revoked\ndata: {}\n\n"  # the token no longer opens the seat: reconnecting gets 401


def chat_message(item: Mapping[str, Any]) -> bytes:
    """A chat message (or a deletion's tombstone) as an SSE message of its own type, without an id."""
    return b"event: chat\ndata: %s\n\n" % orjson.dumps(item)


def _chat_after(runtime: Runtime, game_id: str, after: int, viewer: int | None) -> list[dict[str, Any]]:
    hidden = runtime.chat.hidden_by(game_id, viewer)
    return [m.public() for m in runtime.chat.after(game_id, after, hidden)]


def revokes(item: Mapping[str, Any], viewer: int | None) -> bool:
    """Whether the event `item` takes the stream's seat from its token (ASYNC-9: a re-issued link; ASYNC-3:
    the host handed the seat over): the stream ends right after it, so nothing later, such as the seat's
    next face-down card, reaches a revoked token that was connected before."""
    if viewer is None or item.get("event", {}).get("seat") != viewer:
        return False
    kind = item.get("type")
    if kind in ("SeatLinkReissued", "SeatRecovered"):  # SeatRecovered: ACCT-2, the seat opened elsewhere
        return True
    return kind == "SeatHandedOver" and item["event"].get("reason") == "host"


def sse_message(item: Mapping[str, Any]) -> bytes:
    return b"id: %d\ndata: %s\n\n" % (int(item["version"]), orjson.dumps(item))


Page = list[tuple[int, bytes, bool]]  # (version, its SSE message, whether it `revokes` the viewer)


PageKey = tuple[str, int, int, bool, int | None, str]  # (game, after, last version, ended, viewer, locale)


def page_cache() -> Lru[PageKey, Page]:
    """Pages of SSE messages already read and encoded: a page never changes, so many streams catching up
    on one game read and redact it once."""
    return Lru(PAGE_CACHE)


def _read_after(
    runtime: Runtime, game_id: str, after: int, viewer: int | None, locale: str = "en"
) -> tuple[Page, bool]:
    """The page of events after `after` as `viewer` may see them now, and whether the game has ended."""
    state, version = runtime.store.current(game_id)
    if version <= after:
        return [], state.finished
    end = min(version, after + PAGE)
    key = (game_id, after, end, state.finished, viewer, locale)
    page = runtime.stream_pages.get(key)
    if page is None:
        stored = runtime.store.events(game_id, after=after, limit=end - after)
        items = stored_items(stored, state.finished, viewer, names_of(state), locale)
        page = [(int(item["version"]), sse_message(item), revokes(item, viewer)) for item in items]
        runtime.stream_pages.put(key, page)
    return page, state.finished


async def game_stream(
    runtime: Runtime, game_id: str, last_id: int, viewer: int | None = None, locale: str = "en"
) -> AsyncIterator[bytes]:
    """The stream after version `last_id` (0: from the start) for `viewer` (a seat, None: a spectator),
    its words in `locale`."""
    settings = runtime.settings
    listener = runtime.fanout.hub.listen(game_id)  # listen first, then read: nothing falls in between
    last = last_id
    finished = False

    def fresh(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        return [i for i in items if int(i["version"]) > last]

    chat_last = await run_in_threadpool(runtime.chat.head, game_id)
    try:
        yield b"retry: %d\n\n" % RETRY_MS
        while True:
            # Catch up from the store until nothing more is there.
            while True:
                async with runtime.stream_reads:  # streams never hold more than a few worker threads
                    page, finished = await run_in_threadpool(
                        _read_after, runtime, game_id, last, viewer, locale
                    )
                for version, message, revoking in page:
                    if version > last:
                        yield message
                        last = version
                        if revoking:
                            yield REVOKED
                            return
                if len(page) < PAGE:
                    break
            for said in await run_in_threadpool(_chat_after, runtime, game_id, chat_last, viewer):
                yield chat_message(said)
                chat_last = max(chat_last, int(said["seq"]))
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
                for item in localised(fresh(batch.items), locale):
                    yield sse_message(item)
                    last = int(item["version"])
                    if revokes(item, viewer):
                        yield REVOKED
                        return
                if batch.finished:
                    yield b"event: end\ndata: {}\n\n"
                    return
    finally:
        runtime.fanout.hub.leave(listener)


class HeldStream(StreamingResponse):
    """A streaming response that holds one of the runtime's stream slots until it has ended (however
    it ends: the client going away included)."""

    def __init__(self, content: AsyncIterator[bytes], slot: ExitStack, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._slot = slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._slot.close()


def held_stream(runtime: Runtime, request: Request, content: AsyncIterator[bytes]) -> HeldStream:
    """`content` as an event stream, in one of the client's stream slots (429 `too-many-streams` when
    it has them all, 503 `streams-full` when the process has; docs/operations.md, "Limits")."""
    slot = ExitStack()
    slot.enter_context(runtime.streams.hold(client_of(request, runtime.settings.trust_forwarded_for)))
    return HeldStream(
        content,
        slot,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
