"""What the API does while its store (PostgreSQL or the SQLite file) cannot be reached
(docs/operations.md, "Outages").

Every call to the store is bounded (`replays.store`: connect and statement timeouts, one attempt per
call). The first request that meets an unreachable store gets 503 `store-unavailable` with
`Retry-After`, and marks the store down: from then on the routes that need it answer 503 at once
instead of each waiting for a connection, and `/readyz` answers 503. A probe pings the store every
`store_probe_seconds` (each ping bounded) and marks it up again as soon as it answers: the pools check
their connections before use, so the first request after that is served on a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool

from api.service import StoreClosed

logger = logging.getLogger(__name__)

# The errors that mean "the store cannot be reached now" rather than "this request is wrong": the
# library's (it wraps psycopg's and sqlite3's), psycopg's own (the seat store; PoolTimeout and
# statement timeouts are OperationalErrors), a locked or unreadable SQLite file, a stopping process.
UNAVAILABLE: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    sqlite3.OperationalError,
    StoreClosed,
)


class StoreHealth:
    """Whether the store answered lately; a background probe clears an outage."""

    def __init__(self, ping: Callable[[], None], interval: float, timeout: float) -> None:
        self._ping = ping
        self.interval = interval
        self.timeout = timeout
        self.down_since: float | None = None
        self.reason = ""
        self._probe: asyncio.Task[None] | None = None

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, error: BaseException) -> None:
        """Mark the store down after `error` (from the event loop) and start probing it."""
        if self.down_since is None:
            self.down_since = time.monotonic()
            logger.warning("store unreachable (%s); answering 503 until it is back", type(error).__name__)
        self.reason = type(error).__name__
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._watch(), name="store-probe")

    async def check(self) -> None:
        """Ping the store once (bounded); mark it down on failure."""
        try:
            await asyncio.wait_for(run_in_threadpool(self._ping), self.timeout)
        except Exception as error:
            if isinstance(error, (TimeoutError, *UNAVAILABLE)):
                self.failed(error)
            raise

    async def _watch(self) -> None:
        while self.down_since is not None:
            try:
                await asyncio.wait_for(run_in_threadpool(self._ping), self.timeout)
            except Exception:
                await asyncio.sleep(self.interval)
                continue
            logger.warning("store reachable again after %.1f s", time.monotonic() - self.down_since)
            self.down_since = None

    async def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._probe
