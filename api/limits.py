"""Limits on what one client may send, read and store (docs/operations.md, "Limits").

- `BodyLimit`: request bodies are read to the end before the app sees them, and one over its limit
  gets 413 whether or not it declared a Content-Length (a chunked body too); one not all received
  within `body_timeout_seconds` gets 408 and its connection is closed (slow clients: api/connections.py).
- `RateLimiter`: a token bucket per client and kind of request (create, import, fork, command,
  analysis, read; and failed token attempts, `bad_token`, counted by api/deps.py): 429 with
  `Retry-After` when the bucket is empty. With Redis configured the buckets
  are Redis's (`RedisBuckets`), shared by every API replica; while Redis cannot be reached each replica
  falls back to its own buckets. `ReadLimit` counts every GET (but the probes and static files).
- `StreamSlots`: open event streams per client and in all (429 / 503 beyond).
- Caps on what a client has stored (`admit`): games made (created, forked, imported) and their bytes,
  counted from `galileo_creations`, which is written with each game's events; the bytes a game's later
  events take (moves, bots, table events) are added as they are written (`Growth`), and an import the
  store rejects counts as what it was (`reject`).

A client is the peer address of the connection, or with `GALILEO_TRUST_FORWARDED_FOR=1` (behind a
proxy that sets it) the first address of `X-Forwarded-For`; it is stored only as a keyed digest.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from fastapi import Request
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.i18n import locale_of_scope
from api.problems import ApiError, problem

if TYPE_CHECKING:
    from api.runtime import Runtime
    from api.service import Growth

logger = logging.getLogger(__name__)

KINDS = ("create", "import", "fork", "command", "analysis", "read", "bad_token")


class BodyLimit:
    """Pure ASGI middleware: `limit` bytes per request body, `import_limit` for POST /games/import.

    The body is buffered here up to its limit (what the app would read anyway), so that the refusal is
    a 413 before any route runs: raising from inside the app's body reading would reach FastAPI's body
    parser, which turns every error into a 400."""

    def __init__(self, app: ASGIApp, limit: int, import_limit: int, timeout: float = 60.0) -> None:
        self.app = app
        self.limit = limit
        self.import_limit = import_limit
        self.timeout = timeout  # seconds for the whole body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.import_limit if scope["path"].rstrip("/") == "/games/import" else self.limit
        headers = dict(scope.get("headers", ()))
        declared = headers.get(b"content-length")
        if declared is None and b"transfer-encoding" not in headers:
            # No body (RFC 9112, 6.3: a request without either header has none): nothing to bound.
            await self.app(scope, receive, send)
            return
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send, limit)
            return
        chunks: list[bytes] = []
        seen = 0
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            try:
                async with asyncio.timeout_at(deadline):  # a timer, not a task per chunk (wait_for)
                    message = await receive()
            except TimeoutError:
                await self._too_slow(scope, receive, send)
                return
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

    async def _too_slow(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problem(
            408,
            "body-too-slow",
            "the request body must arrive within {timeout:g} s",
            scope["path"],
            headers={"Connection": "close"},
            params={"timeout": self.timeout},
            locale=locale_of_scope(scope),
        )
        await response(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem(
            413,
            "body-too-large",
            "request bodies are limited to {limit} bytes",
            scope["path"],
            params={"limit": limit},
            locale=locale_of_scope(scope),
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
    """Token buckets per (kind, client): Redis's when `shared` is given (every replica takes from the
    same bucket), else this process's. While Redis fails, this process's buckets answer."""

    MAX_KEYS = 100_000  # buckets kept; full ones are dropped first when there are more

    def __init__(
        self,
        rates: dict[str, Rate],
        clock: Callable[[], float] = time.monotonic,
        shared: RedisBuckets | None = None,
    ) -> None:
        self.rates = rates
        self._clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # -> (tokens, at)
        self.shared = shared

    async def take(self, kind: str, client: str) -> float:
        """Take one token: 0.0 when allowed, else the seconds until one is available."""
        rate = self.rates.get(kind)
        if rate is None or not rate.enabled:
            return 0.0
        if self.shared is not None:
            wait = await self.shared.take(kind, client, rate)
            if wait is not None:
                return wait
        return self.take_local(kind, client)

    def take_local(self, kind: str, client: str) -> float:
        """`take` on this process's bucket."""
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


# One token bucket in Redis, atomically: refill from the time elapsed (Redis's clock, the same for
# every replica), take one token if there is one. Returns the milliseconds to wait (0: taken).
_BUCKET = """
local per_ms = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tokens = tonumber(redis.call('HGET', KEYS[1], 't') or burst)
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or now)
tokens = math.min(burst, tokens + math.max(0, now - at) * per_ms)
local wait = 0
if tokens < 1 then
  wait = math.ceil((1 - tokens) / per_ms)
else
  tokens = tokens - 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / per_ms) + 1000)
return wait
"""


class RedisBuckets:
    """The token buckets in Redis, shared by the API replicas (keys `<prefix>:<kind>:<client>`, each
    expiring once it would be full again). Every call is bounded by `timeout`; a failure answers None
    (the caller uses its own bucket) and is logged once per outage."""

    def __init__(self, url: str, timeout: float, prefix: str = "galileo:rate") -> None:
        from redis.asyncio import Redis

        self.prefix = prefix
        self._redis = Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self._script = self._redis.register_script(_BUCKET)
        self._timeout = timeout
        self._failing = False

    async def take(self, kind: str, client: str, rate: Rate) -> float | None:
        key = f"{self.prefix}:{kind}:{client}"
        try:
            wait_ms = await asyncio.wait_for(
                self._script(keys=[key], args=[rate.per_minute / 60_000, rate.burst]), self._timeout
            )
        except Exception as error:  # Redis unreachable or slow: this replica's own bucket decides
            if not self._failing:
                logger.warning(
                    "rate-limit buckets in Redis unavailable (%s): local ones", type(error).__name__
                )
            self._failing = True
            return None
        self._failing = False
        return int(wait_ms) / 1000

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._redis.aclose()


@functools.lru_cache(maxsize=4096)  # a digest per request otherwise, for the same few addresses
def client_key(address: str) -> str:
    """The client's key: a digest of its address (never the address itself)."""
    return hashlib.sha256(b"galileo-client:" + address.encode()).hexdigest()[:32]


def _address(peer: str | None, headers: Callable[[str], str | None], trust_forwarded: bool) -> str:
    address = peer or "unknown"
    if trust_forwarded:
        forwarded = (headers("x-forwarded-for") or "").split(",")[0].strip()
        address = forwarded or address
    return address


def client_of(request: Request, trust_forwarded: bool) -> str:
    """The key of the request's client."""
    peer = request.client.host if request.client else None
    return client_key(_address(peer, request.headers.get, trust_forwarded))


def client_of_scope(scope: Scope, trust_forwarded: bool) -> str:
    """The key of an ASGI connection's client (for middleware, before a Request exists)."""
    peer = scope.get("client")
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
    return client_key(_address(peer[0] if peer else None, headers.get, trust_forwarded))


def too_many(kind: str, wait: float, code: str = "rate-limited", what: str = "") -> ApiError:
    """The 429 for a client whose `kind` bucket is empty for `wait` s (`what`: the detail's noun)."""
    seconds = max(1, math.ceil(wait))
    return ApiError(
        429,
        code,
        "too many {what} from this client; retry in {seconds} s",
        headers={"Retry-After": str(seconds)},
        retry_after=seconds,
        params={"what": what or kind + " requests", "seconds": seconds},
    )


async def rate(runtime: Runtime, request: Request, kind: str) -> str:
    """Count one request of `kind` against its client's bucket; 429 with Retry-After when empty.
    Returns the client's key."""
    client = client_of(request, runtime.settings.trust_forwarded_for)
    wait = await runtime.limiter.take(kind, client)
    if wait > 0:
        raise too_many(kind, wait)
    return client


# GETs not counted as reads: the probes (a load balancer's), static files and the offline docs.
UNCOUNTED_READS = ("/healthz", "/readyz", "/static/", "/docs", "/openapi.json", "/favicon")


class ReadLimit:
    """Pure ASGI middleware: every GET or HEAD (but `UNCOUNTED_READS`) takes a token of the client's
    `read` bucket; an empty bucket answers 429 before any route runs (the limiter is the runtime's,
    found on the app once it has started)."""

    def __init__(self, app: ASGIApp, trust_forwarded: bool) -> None:
        self.app = app
        self.trust_forwarded = trust_forwarded

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            path: str = scope["path"]
            runtime = getattr(scope["app"].state, "runtime", None)
            rate = None if runtime is None else runtime.limiter.rates.get("read")
            counted = rate is not None and rate.enabled and not path.startswith(UNCOUNTED_READS)
            if runtime is not None and counted:  # the client's key only when its reads are counted
                client = client_of_scope(scope, self.trust_forwarded)
                wait = await runtime.limiter.take("read", client)
                if wait > 0:
                    error = too_many("read", wait)
                    response = problem(
                        429, error.code, error.detail, path, headers=error.headers, **error.extra
                    )
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class StreamSlots:
    """The event streams open in this process, per client and in all: a new one beyond
    `per_client` gets 429 `too-many-streams`, beyond `total` 503 `streams-full`."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self._open: dict[str, int] = {}
        self.count = 0

    @contextlib.contextmanager
    def hold(self, client: str) -> Iterator[None]:
        """Hold a slot for `client` (raises ApiError when there is none) until the block ends."""
        mine = self._open.get(client, 0)
        if 0 < self.per_client <= mine:
            raise ApiError(
                429,
                "too-many-streams",
                "this client has {mine} streams open, the most one client may have; close one first",
                headers={"Retry-After": "5"},
                retry_after=5,
                limit=self.per_client,
                params={"mine": mine},
            )
        if 0 < self.total <= self.count:
            raise ApiError(
                503,
                "streams-full",
                "the server has as many streams open as it takes; retry shortly",
                headers={"Retry-After": "5"},
                retry_after=5,
                limit=self.total,
            )
        self._open[client] = mine + 1
        self.count += 1
        try:
            yield
        finally:
            self.count -= 1
            left = self._open[client] - 1
            if left:
                self._open[client] = left
            else:
                del self._open[client]


def flush_growth(growth: Growth, grow: Callable[[Mapping[str, int]], None]) -> None:
    """Add what `growth` holds to the makers' usage (blocking); kept for the next flush on failure."""
    sizes = growth.drain()
    if not sizes:
        return
    try:
        grow(sizes)
    except Exception:
        growth.restore(sizes)
        raise


async def admit(runtime: Runtime, request: Request, kind: str, size: int = 0) -> str:
    """Admit the creation of a game (`kind`: create, fork, import; `size`: bytes known in advance):
    the client's rate limit, then its caps on games and bytes stored. Returns the client's key."""
    client = await rate(runtime, request, kind)
    settings = runtime.settings
    if settings.max_games_per_client <= 0 and settings.max_bytes_per_client <= 0:
        return client
    await run_in_threadpool(flush_growth, runtime.store.growth, runtime.seats.grow)
    usage = await run_in_threadpool(runtime.seats.usage, client)
    if 0 < settings.max_games_per_client <= usage.games:
        raise ApiError(
            403,
            "quota-exceeded",
            "this client has made {games} games, the most one client may store",
            limit=settings.max_games_per_client,
            params={"games": usage.games},
        )
    if 0 < settings.max_bytes_per_client < usage.bytes + size:
        raise ApiError(
            403,
            "quota-exceeded",
            "this client has stored {bytes} bytes of games; with this one it would pass the"
            " {max_bytes_per_client} bytes one client may store",
            limit=settings.max_bytes_per_client,
            params={"bytes": usage.bytes, "max_bytes_per_client": settings.max_bytes_per_client},
        )
    return client


async def rejected(runtime: Runtime, client: str, kind: str, size: int) -> None:
    """Count a creation the store refused (an import that does not verify) against `client`'s caps."""
    if runtime.settings.max_games_per_client <= 0 and runtime.settings.max_bytes_per_client <= 0:
        return
    at = datetime.now(UTC).isoformat()
    await run_in_threadpool(runtime.seats.reject, client, kind, size, at)
