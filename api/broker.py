"""Live fan-out of new events to the SSE streams of every API process (design.md, "api/").

A `Batch` is what one command (or setup, fork, bot move) appended, already in the spectator form
(redacted unless the batch ended the game): nothing secret, not even one seat's private field, ever
enters Redis. A stream whose seat owns a private field of a batch reads that batch from the store.

- `LocalHub` holds this process's listeners (one asyncio queue per open stream) and delivers to them.
- `InProcessFanout` (no `REDIS_URL`): a publish is delivered to the local hub only: one process.
- `RedisFanout`: a publish goes to the local hub at once *and* to the Redis channel of the game; one
  listener task per process pattern-subscribes to all game channels and feeds its hub. Pub/sub delivers at
  most once, so streams also detect gaps and read the store (see api/stream.py). When Redis is down,
  publishing fails fast and quietly, `live` turns false, streams poll the store, and the listener keeps
  reconnecting; on reconnection every stream is woken to catch up from the store.
  A publish does not wait for Redis: the batch is queued to the process's one publisher task, which
  sends the batches to Redis one after the other in the order this process published them (the
  batches of one game written by two processes may reach a third out of order: its streams see a gap
  and read the store). The queue is bounded: past `PUBLISH_BACKLOG` batches (Redis far behind) a batch
  is not sent; a send that fails at once (a refused connection, an error reply) costs nothing and the
  next batch is tried, while after a send that timed out (a silent Redis would hold every batch for the
  timeout) the batches queued meanwhile are dropped. A batch not sent, or still queued when the process
  dies, is found in the store by the streams elsewhere (at a gap or their heartbeat read), as after any
  lost message. Stopping sends what is queued, within the Redis timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "galileo:game:"
PUBLISH_BACKLOG = 10_000  # batches queued for Redis before new ones are dropped (read from the store)
RESYNC = None  # queued to a listener: "read the store, something may have been missed"


@dataclass(frozen=True, slots=True)
class Batch:
    """Consecutive events of one game: `items` are {"version", "event", ...} dicts, versions ascending.
    No items: a nudge (`Fanout.nudge`), which the hubs deliver as a wake-up, never as a batch."""

    game_id: str
    items: Sequence[Mapping[str, Any]]
    finished: bool = False

    @property
    def first(self) -> int:
        return int(self.items[0]["version"])

    @property
    def last(self) -> int:
        return int(self.items[-1]["version"])

    def encode(self) -> bytes:
        return orjson.dumps({"game_id": self.game_id, "items": list(self.items), "finished": self.finished})

    @classmethod
    def decode(cls, data: bytes | str) -> Batch:
        raw = orjson.loads(data)
        return cls(game_id=str(raw["game_id"]), items=list(raw["items"]), finished=bool(raw["finished"]))


@dataclass(eq=False)
class Listener:
    game_id: str
    queue: asyncio.Queue[Batch | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))

    def offer(self, item: Batch | None) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # a slow client: drop the batch, it will read the store instead
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(RESYNC)


class LocalHub:
    """The open streams of this process, by game. All methods run on the event loop."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = {}

    def listen(self, game_id: str) -> Listener:
        listener = Listener(game_id)
        self._listeners.setdefault(game_id, set()).add(listener)
        return listener

    def leave(self, listener: Listener) -> None:
        group = self._listeners.get(listener.game_id)
        if group is not None:
            group.discard(listener)
            if not group:
                del self._listeners[listener.game_id]

    def deliver(self, batch: Batch) -> None:
        if not batch.items:  # a nudge (`Fanout.nudge`): read the store and the chat
            self.nudge(batch.game_id)
            return
        for listener in list(self._listeners.get(batch.game_id, ())):
            listener.offer(batch)

    def nudge(self, game_id: str) -> None:
        """Wake the game's streams to read the store (and the chat: api/stream.py) without a batch."""
        for listener in list(self._listeners.get(game_id, ())):
            listener.offer(RESYNC)

    def resync_all(self) -> None:
        for group in list(self._listeners.values()):
            for listener in list(group):
                listener.offer(RESYNC)

    @property
    def streams(self) -> int:
        return sum(len(g) for g in self._listeners.values())


class Fanout(Protocol):
    hub: LocalHub

    @property
    def live(self) -> bool:
        """True when a publish from any process reaches this process's streams without polling."""
        ...

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def publish(self, batch: Batch) -> None: ...
    async def nudge(self, game_id: str) -> None:
        """Wake the game's streams in every process without a batch (new table chat: docs/chat.md)."""
        ...

    async def ping(self) -> str | None:
        """None when healthy, else what is wrong."""
        ...


class InProcessFanout:
    """One process, no Redis: the hub is the whole fan-out."""

    def __init__(self) -> None:
        self.hub = LocalHub()

    @property
    def live(self) -> bool:
        return True

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, batch: Batch) -> None:
        self.hub.deliver(batch)

    async def nudge(self, game_id: str) -> None:
        self.hub.nudge(game_id)

    async def ping(self) -> str | None:
        return None


class RedisFanout:
    """Fan-out through Redis pub/sub, tolerant of Redis outages (see the module docstring)."""

    def __init__(self, url: str, timeout: float, retry: float) -> None:
        import redis.asyncio as aioredis

        self.hub = LocalHub()
        self._timeout = timeout
        self._retry = retry
        self._client = aioredis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, retry_on_timeout=False
        )
        self._sub_client = aioredis.Redis.from_url(url, socket_connect_timeout=timeout)
        self._subscribed = False
        self._task: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[Batch] | None = None  # batches for Redis, in publish order
        self._publisher: asyncio.Task[None] | None = None
        self._timed_out = False  # the last send failed for want of an answer in time
        self._last_warning = 0.0

    @property
    def live(self) -> bool:
        return self._subscribed

    async def start(self) -> None:
        self._outbox = asyncio.Queue(maxsize=PUBLISH_BACKLOG)
        self._publisher = asyncio.create_task(self._send_queued(), name="redis-fanout-publisher")
        self._task = asyncio.create_task(self._listen(), name="redis-fanout-listener")

    async def stop(self) -> None:
        if self._outbox is not None:  # send what is queued, within the Redis timeout
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._outbox.join(), self._timeout)
        for task in (self._publisher, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for client in (self._client, self._sub_client):
            with contextlib.suppress(Exception):
                await client.aclose()

    async def publish(self, batch: Batch) -> None:
        """Deliver to this process's streams at once and queue the batch for Redis (not waited for)."""
        self.hub.deliver(batch)  # this process's streams never wait for Redis
        if self._outbox is None:  # not started: nothing sends the queue, send it now
            await self._send(batch)
            return
        try:
            self._outbox.put_nowait(batch)
        except asyncio.QueueFull as error:  # Redis far behind: the other processes read the store
            self._warn("publish", error)

    async def nudge(self, game_id: str) -> None:
        """An empty batch: each process's hub turns it into a wake-up of the game's streams."""
        await self.publish(Batch(game_id, []))

    async def _send_queued(self) -> None:
        outbox = self._outbox
        assert outbox is not None
        while True:
            batch = await outbox.get()
            try:
                timed_out = not await self._send(batch) and self._timed_out
            finally:
                outbox.task_done()
            if timed_out:  # a silent Redis: what queued meanwhile is read from the store elsewhere
                while not outbox.empty():
                    outbox.get_nowait()
                    outbox.task_done()

    async def _send(self, batch: Batch) -> bool:
        """Publish one batch; False when it was not sent (`_timed_out`: for want of an answer in time)."""
        self._timed_out = False
        try:
            await asyncio.wait_for(
                self._client.publish(CHANNEL_PREFIX + batch.game_id, batch.encode()), self._timeout
            )
        except Exception as error:  # an outage must not fail the command that was already stored
            self._timed_out = isinstance(error, TimeoutError)
            self._warn("publish", error)
            return False
        return True

    async def ping(self) -> str | None:
        try:
            await asyncio.wait_for(self._client.ping(), self._timeout)
        except Exception as error:
            return f"{type(error).__name__}: {error}"
        return None if self._subscribed else "not subscribed yet (reconnecting)"

    def _warn(self, what: str, error: Exception) -> None:
        now = time.monotonic()
        if now - self._last_warning > 10:  # one line per outage, not one per event
            self._last_warning = now
            logger.warning(
                "redis %s failed (%s: %s); streams read the store until it is back",
                what,
                type(error).__name__,
                error,
            )

    async def _listen(self) -> None:
        while True:
            pubsub = self._sub_client.pubsub(ignore_subscribe_messages=True)
            try:
                await asyncio.wait_for(pubsub.psubscribe(CHANNEL_PREFIX + "*"), self._timeout * 4)
                self._subscribed = True
                self.hub.resync_all()  # anything published while we were away is read from the store
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is None:
                        await asyncio.wait_for(pubsub.ping(), self._timeout * 4)
                        continue
                    if message.get("type") == "pmessage":
                        try:
                            self.hub.deliver(Batch.decode(message["data"]))
                        except Exception as error:
                            logger.warning("ignored a malformed fan-out message: %s", error)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self._subscribed:
                    self.hub.resync_all()
                self._subscribed = False
                self._warn("subscription", error)
                await asyncio.sleep(self._retry)
            finally:
                self._subscribed = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]


def make_fanout(redis_url: str | None, timeout: float, retry: float) -> Fanout:
    if redis_url:
        return RedisFanout(redis_url, timeout, retry)
    return InProcessFanout()
