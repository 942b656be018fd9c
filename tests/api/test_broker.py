"""The fan-out's pieces: batches survive the Redis encoding, a slow listener is told to resync."""

from __future__ import annotations

import asyncio

from api.broker import RESYNC, Batch, InProcessFanout, LocalHub


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
