"""Limits on what one client may send and store (README, "Limits").

- `BodyLimit`: request bodies are read to the end before the app sees them, and one over its limit
  gets 413 whether or not it declared a Content-Length (a chunked body too).
- `RateLimiter`: a token bucket per client and kind of request (create, import, fork, command,
  analysis; and failed token attempts, `bad_token`, counted by api/deps.py): 429
  with `Retry-After` when the bucket is empty.
- Caps on what a client has stored (`admit`): games made (created, forked, imported) and their bytes,
  counted from `galileo_creations`, which is written with each game's events.

A client is the peer address of the connection, or with `GALILEO_TRUST_FORWARDED_FOR=1` (behind a
proxy that sets it) the first address of `X-Forwarded-For`; it is stored only as a keyed digest.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import Request
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import ApiError, problem

if TYPE_CHECKING:
    from api.runtime import Runtime

KINDS = ("create", "import", "fork", "command", "analysis", "bad_token")


class BodyLimit:
    """Pure ASGI middleware: `limit` bytes per request body, `import_limit` for POST /games/import.

    The body is buffered here up to its limit (what the app would read anyway), so that the refusal is
    a 413 before any route runs: raising from inside the app's body reading would reach FastAPI's body
    parser, which turns every error into a 400."""

    def __init__(self, app: ASGIApp, limit: int, import_limit: int) -> None:
        self.app = app
        self.limit = limit
        self.import_limit = import_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.import_limit if scope["path"].rstrip("/") == "/games/import" else self.limit
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send, limit)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                await self._refuse(scope, receive, send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem(
            413, "body-too-large", f"request bodies are limited to {limit} bytes", scope["path"]
        )
        await response(scope, receive, send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A receive that gives `messages` first, then the connection's own (e.g. the disconnect)."""
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


@dataclass(frozen=True, slots=True)
class Rate:
    """A token bucket: `per_minute` requests a minute on average, up to `burst` at once (0: no limit)."""

    per_minute: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """`"30/10"`: 30 a minute, bursts of 10; `"0"` or `"off"`: unlimited."""
        raw = text.strip().lower()
        if raw in ("0", "off", "none", ""):
            return cls(0, 0)
        rate, _, burst = raw.partition("/")
        per_minute = float(rate)
        size = int(burst) if burst else max(1, math.ceil(per_minute / 6))
        if per_minute <= 0 or size < 1:
            raise ValueError(f"bad rate {text!r}: expected '<per minute>/<burst>', e.g. '30/10', or 'off'")
        return cls(per_minute, size)

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0


class RateLimiter:
    """Token buckets per (kind, client) in this process (each API replica keeps its own)."""

    MAX_KEYS = 100_000  # buckets kept; full ones are dropped first when there are more

    def __init__(self, rates: dict[str, Rate], clock: Callable[[], float] = time.monotonic) -> None:
        self.rates = rates
        self._clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # -> (tokens, at)

    def take(self, kind: str, client: str) -> float:
        """Take one token: 0.0 when allowed, else the seconds until one is available."""
        rate = self.rates.get(kind)
        if rate is None or not rate.enabled:
            return 0.0
        now = self._clock()
        per_second = rate.per_minute / 60
        tokens, at = self._buckets.get((kind, client), (float(rate.burst), now))
        tokens = min(float(rate.burst), tokens + (now - at) * per_second)
        if tokens < 1:
            self._buckets[(kind, client)] = (tokens, now)
            return (1 - tokens) / per_second
        self._buckets[(kind, client)] = (tokens - 1, now)
        if len(self._buckets) > self.MAX_KEYS:
            self._prune(now)
        return 0.0

    def wait(self, kind: str, client: str) -> float:
        """The seconds until `client` may take a token of `kind` again (0.0: now); takes nothing."""
        rate = self.rates.get(kind)
        if rate is None or not rate.enabled:
            return 0.0
        entry = self._buckets.get((kind, client))
        if entry is None:
            return 0.0
        per_second = rate.per_minute / 60
        tokens = min(float(rate.burst), entry[0] + (self._clock() - entry[1]) * per_second)
        return 0.0 if tokens >= 1 else (1 - tokens) / per_second

    def _prune(self, now: float) -> None:
        for key, (tokens, at) in list(self._buckets.items()):
            rate = self.rates[key[0]]
            if tokens + (now - at) * rate.per_minute / 60 >= rate.burst:
                del self._buckets[key]


def client_of(request: Request, trust_forwarded: bool) -> str:
    """The client's key: a digest of its address (never the address itself)."""
    address = request.client.host if request.client else "unknown"
    if trust_forwarded:
        forwarded = request.headers.get("x-forwarded-for", "").split(",")[0].strip()
        address = forwarded or address
    return hashlib.sha256(b"galileo-client:" + address.encode()).hexdigest()[:32]


def rate(runtime: Runtime, request: Request, kind: str) -> str:
    """Count one request of `kind` against its client's bucket; 429 with Retry-After when empty.
    Returns the client's key."""
    client = client_of(request, runtime.settings.trust_forwarded_for)
    wait = runtime.limiter.take(kind, client)
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            "rate-limited",
            f"too many {kind} requests from this client; retry in {seconds} s",
            headers={"Retry-After": str(seconds)},
            retry_after=seconds,
        )
    return client


async def admit(runtime: Runtime, request: Request, kind: str, size: int = 0) -> str:
    """Admit the creation of a game (`kind`: create, fork, import; `size`: bytes known in advance):
    the client's rate limit, then its caps on games and bytes stored. Returns the client's key."""
    client = rate(runtime, request, kind)
    settings = runtime.settings
    if settings.max_games_per_client <= 0 and settings.max_bytes_per_client <= 0:
        return client
    usage = await run_in_threadpool(runtime.seats.usage, client)
    if 0 < settings.max_games_per_client <= usage.games:
        raise ApiError(
            403,
            "quota-exceeded",
            f"this client has made {usage.games} games, the most one client may store",
            limit=settings.max_games_per_client,
        )
    if 0 < settings.max_bytes_per_client < usage.bytes + size:
        raise ApiError(
            403,
            "quota-exceeded",
            f"this client has stored {usage.bytes} bytes of games; with this one it would pass "
            f"the {settings.max_bytes_per_client} bytes one client may store",
            limit=settings.max_bytes_per_client,
        )
    return client
