"""The fan-out's pieces: batches survive the Redis encoding, a slow listener is told to resync, and a
Redis publish is queued (not waited for) and sent in publish order."""

from __future__ import annotations

import asyncio
import socket
import time

from api.broker import RESYNC, Batch, InProcessFanout, LocalHub, RedisFanout


def test_batch_round_trips_through_its_encoding() -> None:
    batch = Batch(
        "g", [{"version": 3, "type": "T", "event": {"a": [1]}}, {"version": 4, "type": "U", "event": {}}]
    )
    again = Batch.decode(batch.encode())
    assert again == Batch("g", list(batch.items), False)
    assert (again.first, again.last) == (3, 4)


def test_a_full_listener_drops_to_a_resync_and_others_are_unaffected() -> None:
    async def scenario() -> None:
        hub = LocalHub()
        slow, other = hub.listen("g"), hub.listen("h")
        for version in range(1, 300):
            hub.deliver(Batch("g", [{"version": version}]))
        items = []
        while not slow.queue.empty():
            items.append(slow.queue.get_nowait())
        assert RESYNC in items  # the stream will read the store instead of missing events
        assert other.queue.empty()
        hub.leave(slow)
        hub.leave(other)
        assert hub.streams == 0

    asyncio.run(scenario())


def test_in_process_fanout_delivers_to_the_game_listeners_only() -> None:
    async def scenario() -> None:
        fanout = InProcessFanout()
        mine, theirs = fanout.hub.listen("g"), fanout.hub.listen("h")
        await fanout.publish(Batch("g", [{"version": 1}]))
        assert (await mine.queue.get()).last == 1
        assert theirs.queue.empty() and fanout.live

    asyncio.run(scenario())


def test_redis_publishes_reach_another_process_in_publish_order(redis_url: str) -> None:
    """Two fan-outs as two processes: what A publishes, quickly and without waiting for Redis, reaches
    B's streams batch by batch in the order published."""

    async def scenario() -> None:
        a, b = RedisFanout(redis_url, 2.0, 0.2), RedisFanout(redis_url, 2.0, 0.2)
        await a.start()
        await b.start()
        try:
            async with asyncio.timeout(10):
                while not b.live:
                    await asyncio.sleep(0.01)
            game = f"order-{time.time_ns()}"
            listener = b.hub.listen(game)
            for version in range(1, 201):
                await a.publish(Batch(game, [{"version": version}]))
            got: list[int] = []
            async with asyncio.timeout(10):
                while len(got) < 200:
                    batch = await listener.queue.get()
                    assert batch is not None
                    got.append(batch.last)
            assert got == list(range(1, 201))
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


def test_a_publish_does_not_wait_for_a_redis_that_does_not_answer() -> None:
    """A Redis that accepts connections but never answers: each publish returns at once (this process's
    streams have the batch), and stopping waits at most the Redis timeout for the queued batches."""

    async def scenario() -> None:
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(16)  # connections complete in the backlog; nothing is ever read or answered
            port = silent.getsockname()[1]
            fanout = RedisFanout(f"redis://127.0.0.1:{port}/0", 0.5, 0.2)
            await fanout.start()
            mine = fanout.hub.listen("g")
            started = time.monotonic()
            for version in range(1, 21):
                await fanout.publish(Batch("g", [{"version": version}]))
            assert time.monotonic() - started < 0.25  # not 20 waits of the 0.5 s timeout
            assert [(await mine.queue.get()).last for _ in range(20)] == list(range(1, 21))  # type: ignore[union-attr]
            started = time.monotonic()
            await fanout.stop()
            assert time.monotonic() - started < 2.0

    asyncio.run(scenario())


class _FlakyClient:
    """A Redis client whose first publish fails at once (`fail`) or never answers (`hang`); later ones
    succeed. Records the versions it sent."""

    def __init__(self, first: str) -> None:
        self.first = first
        self.calls = 0
        self.sent: list[int] = []

    async def publish(self, channel: str, data: bytes) -> int:
        self.calls += 1
        if self.calls == 1:
            if self.first == "fail":
                raise ConnectionError("connection reset by peer")
            await asyncio.sleep(3600)
        self.sent.append(Batch.decode(data).last)
        return 1

    async def aclose(self) -> None:
        return None


def _publish_through(first: str) -> list[int]:
    """Versions 1-10 published while the first send fails (or hangs): the versions Redis received."""

    async def scenario() -> list[int]:
        fanout = RedisFanout("redis://127.0.0.1:1/0", 0.3, 0.2)
        client = _FlakyClient(first)
        fanout._client = client  # type: ignore[assignment]
        await fanout.start()
        try:
            for version in range(1, 11):
                await fanout.publish(Batch("g", [{"version": version}]))
            async with asyncio.timeout(5):
                assert fanout._outbox is not None
                await fanout._outbox.join()
        finally:
            await fanout.stop()
        return client.sent

    return asyncio.run(scenario())


def test_a_send_that_fails_at_once_does_not_drop_the_batches_queued_behind_it() -> None:
    assert _publish_through("fail") == list(range(2, 11))


def test_a_send_that_times_out_drops_the_batches_queued_meanwhile() -> None:
    """A silent Redis would hold each batch for the timeout: the streams elsewhere read the store."""
    assert _publish_through("hang") == []
