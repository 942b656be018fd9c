"""Slow clients (docs/operations.md, "Limits"): how `galileo serve` runs uvicorn so that a connection
cannot be held open by sending nothing, or a request's head or body a byte at a time (slow-loris).

uvicorn closes a keep-alive connection that stays idle after a response, but its timer restarts at
every byte received and is not armed at all before a connection's first request: a client that
connects and trickles its headers keeps a connection (and a file descriptor) for ever. Here the
protocol (uvicorn's own, httptools or h11) gets a deadline per request head: from the moment the
connection is made, or its previous response ends, it must send a complete request line and headers
within `header_timeout_seconds`, however it spreads the bytes, or it is closed. A request's body is
bounded by `BodyLimit` (api/limits.py): all of it within `body_timeout_seconds`, else 408.
"""

from __future__ import annotations

import asyncio
from typing import Any

from api.settings import Settings


def guarded(protocol: type[Any], header_timeout: float) -> type[Any]:
    """`protocol` (a uvicorn HTTP protocol class) with the request-head deadline."""

    class HeadDeadline(protocol):  # type: ignore[misc]
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm_head_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm_head_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

        def _arm_head_deadline(self) -> None:
            """Wait for the next request's head, unless one (pipelined) is already in hand."""
            if self.cycle is not None and not self.cycle.response_complete:
                return
            if self._head_timer is not None:
                self._head_timer.cancel()
            waiting_after = self.cycle  # a request whose head is complete replaces the cycle
            self._head_timer = self.loop.call_later(header_timeout, self._head_overdue, waiting_after)

        def _head_overdue(self, waiting_after: Any) -> None:
            self._head_timer = None
            if self.cycle is waiting_after and not self.transport.is_closing():
                self.transport.close()

    HeadDeadline.__name__ = f"HeadDeadline{protocol.__name__}"
    return HeadDeadline


def http_protocol(settings: Settings) -> type[Any]:
    """The HTTP protocol class uvicorn would choose (httptools when installed, else h11), guarded."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        chosen: type[Any] = HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] installs httptools
        from uvicorn.protocols.http.h11_impl import H11Protocol

        chosen = H11Protocol
    return guarded(chosen, settings.header_timeout_seconds)


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.Config`/`uvicorn.run` that bound slow clients."""
    return {"http": http_protocol(settings), "timeout_keep_alive": 5}
