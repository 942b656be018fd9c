"""The clock scheduler (docs/async.md, ASYNC-1): records `TimeExpired` when a person's time runs out and
applies the game's policy (a bot takes the seat over, or the seat forfeits: frozen).

It runs in `galileo serve` and as `galileo clocks run` (compose's `clocks` service). Every write to a
clocked game refreshes its next deadline in `galileo_tables`; each tick reads the games whose deadline
has come (and, every `clock_resync_seconds`, every clocked game, in case a refresh was lost), recomputes
the clock from the game's recorded receive times, and records the expiry as a table batch whose command
ID is derived from the clock state (`timeout:<seat>:<version the turn began>`): two processes racing
the same timeout write it once (the store's optimistic concurrency and command-ID index).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from api import notify
from replays.clock import ClockConfig, ClockView, compute
from replays.errors import GameNotFound, TableRefused, VersionConflict
from replays.store import Game
from replays.table import expiry_batch

if TYPE_CHECKING:
    from api.runtime import Runtime

logger = logging.getLogger(__name__)

CLOCK_ACTOR = "clock"


def view_of(config: ClockConfig, game: Game, now: datetime) -> ClockView:
    state = game.state
    assert state is not None
    return compute(config, game.clock_log, len(state.players), now)


def may_act(config: ClockConfig | None, seat: int, expected_version: int) -> Callable[[Game, datetime], None]:
    """The check a person's request passes against the game as it is (for a command: as it is written,
    `Games.submit`, after a retry's first result). ASYNC-1 judges it by its receive time: refused with
    `time-expired` when received at or after the seat's deadline, or when the seat's expiry was
    recorded after the version the request was sent at (the scheduler stored it first: the command
    lost the race and says so). Then ASYNC-3: the seat must still be its person's."""

    def check(game: Game, received: datetime) -> None:
        log = game.clock_log
        lost = [m for m in log if m[0] == "expired" and int(m[3]) == seat and int(m[1]) > expected_version]
        if config is not None and lost:
            raise TableRefused(
                "time-expired",
                f"seat {seat}'s time ran out: the expiry was recorded at {lost[-1][2]} (event {lost[-1][1]}) "
                f"before this command, received at {received.isoformat()}, could be stored",
                "ASYNC-1",
                409,
            )
        view = None if config is None else view_of(config, game, received)
        if view is not None and view.seat == seat and view.deadline is not None and received >= view.deadline:
            raise TableRefused(
                "time-expired",
                f"seat {seat}'s time ran out at {view.deadline.isoformat()}; this was received at "
                f"{received.isoformat()}",
                "ASYNC-1",
                409,
            )
        handed = game.handed.get(str(seat))
        if handed and handed[0] != "person":
            raise TableRefused("seat-handed-over", f"seat {seat} is played by the server now", "ASYNC-3", 403)

    return check


class Scheduler:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._task: asyncio.Task[None] | None = None
        self._last_resync = float("-inf")

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="clocks")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("the clock scheduler failed a round (it goes on)")
            await asyncio.sleep(self._runtime.settings.clock_tick_seconds)

    async def tick(self, resync: bool | None = None) -> int:
        """One round: check the games whose deadline has come (all clocked games on a resync).
        Returns how many expiries this process recorded."""
        runtime = self._runtime
        now = runtime.clock()
        if resync is None:
            resync = time.monotonic() - self._last_resync >= runtime.settings.clock_resync_seconds
        if resync:
            self._last_resync = time.monotonic()
            games = await run_in_threadpool(runtime.tables.clocked)
            await notify.sweep(runtime)
        else:
            games = await run_in_threadpool(runtime.tables.due, now - self.grace)
        fired = 0
        for game_id in games:
            try:
                fired += await self.check(game_id, now)
            except GameNotFound:
                await run_in_threadpool(runtime.tables.set_deadline, game_id, None, False)
        return fired

    @property
    def grace(self) -> timedelta:
        """How long after a deadline the scheduler records an idle seat's expiry: a command received
        before the deadline is stored by then (ASYNC-1 judges a command by its receive time)."""
        return timedelta(seconds=self._runtime.settings.clock_grace_seconds)

    async def check(self, game_id: str, now: datetime, grace: timedelta | None = None) -> int:
        """Record the expiry of the game's seat to act if its time is out (`grace` after its deadline:
        the scheduler's by default; a command that came too late passes none); refresh its deadline."""
        from api import play

        runtime = self._runtime
        record = await runtime.table_of(game_id)
        if record is None or record.clock is None:
            return 0
        config = ClockConfig.from_json(record.clock)
        game = await run_in_threadpool(runtime.store.game, game_id)
        view = view_of(config, game, now)
        people = await runtime.people(game_id, game)
        fired = 0
        grace = self.grace if grace is None else grace
        due = view.deadline is not None and now >= view.deadline + grace
        if due and view.seat is not None and view.seat in people:
            request = {"type": "TimeExpired", "seat": view.seat, "turn": view.turn_version}
            build = expiry_batch(config, view.seat, view.turn_version, people)
            command_id = f"timeout:{view.seat}:{view.turn_version}"
            try:
                result = await run_in_threadpool(
                    runtime.store.table, game_id, request, build, command_id, CLOCK_ACTOR
                )
            except VersionConflict:
                result = None  # a move or another process's expiry landed first: looked at next tick
            if result is not None and result.events and not result.replayed:
                fired = 1
                await play.after_write(runtime, game_id, result.version, result.events)
                return fired
        await refresh(runtime, game_id, config, game, people)
        return fired


async def refresh(runtime: Runtime, game_id: str, config: ClockConfig, game: Game, people: list[int]) -> None:
    """Store the game's next deadline (None while paused, over, or a bot's turn) for the scheduler."""
    state = game.state
    assert state is not None
    over = state.finished or game.cancelled
    view = view_of(config, game, runtime.clock())
    deadline = view.deadline if view.seat in people else None
    await run_in_threadpool(runtime.tables.set_deadline, game_id, deadline, not over)
