"""Turn notifications (docs/async.md): each seat may register a webhook; when the seat must act, when
a take-back asks it, when its time runs out and when the game ends, the service POSTs a JSON body signed
with HMAC-SHA256 under the seat's secret (`X-Galileo-Signature: sha256=<hex>`).

Notifications go through an outbox in the database (`galileo_outbox`, api/tables.py): a write queues
them right after the game's events are stored, and a delivery worker (in `galileo serve` and in
`galileo clocks run`) sends them in the background, so a slow endpoint never delays a move, a failed
delivery is retried with exponential backoff, and a restart loses nothing that was queued. The outbox
rows are also the delivery log (`GET /games/{id}/notifications`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import logging
import socket
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx
import orjson
from starlette.concurrency import run_in_threadpool

from api.tables import Delivery, Hook
from domain import Event
from domain import events as ev
from replays.store import Game

if TYPE_CHECKING:
    from api.runtime import Runtime

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Galileo-Signature"
YOUR_TURN, TAKE_BACK, TIME_EXPIRED, GAME_ENDED, GAME_CANCELLED = (
    "your-turn",
    "take-back-requested",
    "time-expired",
    "game-ended",
    "game-cancelled",
)
# The host's acts on a seat, told to that seat (ASYNC-9: the host's powers are facts, never silent).
LINK_REISSUED, HANDED_OVER = "seat-link-reissued", "seat-handed-over"
# Events after which the seat to act is told it must act (the turn passed, or the game began).
PASSING: tuple[type[Event], ...] = (
    ev.GameStarted,
    ev.GameForked,
    ev.TurnEnded,
    ev.TakenBack,
    ev.SeatHandedOver,
)
# A batch without any of these calls for no notification (`plan`), so queueing it reads nothing.
CALLING: tuple[type[Event], ...] = (
    ev.GameEnded,
    ev.GameCancelled,
    *PASSING,
    ev.TakeBackRequested,
    ev.TimeExpired,
    ev.SeatLinkReissued,
)
MAX_BACKOFF = timedelta(hours=1)
LEASE = timedelta(minutes=2)  # a claimed delivery is retried by any worker after this


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: `sha256=` and the hex HMAC-SHA256 of the exact body bytes."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify_signature(secret: str, body: bytes, header: str) -> bool:
    """What a receiver does: recompute the signature and compare in constant time."""
    return hmac.compare_digest(sign(secret, body), header)


def check_url(url: str) -> str | None:
    """Why `url` cannot be a webhook (scheme, host), or None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "a webhook is an http:// or https:// URL with a host"
    if parts.username or parts.password:
        return "a webhook URL carries no credentials (verify the signature instead)"
    return None


def _private_target(url: str) -> bool:
    """Whether the URL's host resolves to a loopback, private, link-local or reserved address."""
    host = urlsplit(url).hostname or ""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False  # the delivery fails on its own
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if address.is_private or address.is_loopback or address.is_link_local or address.is_reserved:
            return True
    return False


def plan(
    game_id: str,
    game: Game,
    events: Sequence[Event],
    people: Sequence[int],
    hooks: dict[int, Hook],
    public_url: str,
    resync: bool = False,
) -> list[tuple[str, str, int, str, int, str, str]]:
    """The outbox rows (id, game, seat, kind, version, url, body) that a batch of `events` just stored
    calls for, `game` being the game after it; with `resync`, the rows the game's present calls for
    (the scheduler's sweep, which re-queues what a crash between a write and its queueing lost).

    A row's `version` is its identity: for `your-turn` the version at which the turn began, for the end
    the version of the end, else the batch's last version; the outbox keeps one row per (game, seat,
    kind, version), so re-queueing is harmless."""
    state = game.state
    assert state is not None
    over = state.finished or game.cancelled
    to_act = None if over else state.turn.seat
    marks = [m for m in game.clock_log if m[0] in ("turn", "end")]
    mark = int(marks[-1][1]) if marks else game.version
    wanted: list[tuple[int, str, int]] = []
    ended = state.finished if resync else any(isinstance(e, ev.GameEnded) for e in events)
    cancelled = game.cancelled if resync else any(isinstance(e, ev.GameCancelled) for e in events)
    if ended or cancelled:
        kind = GAME_ENDED if ended else GAME_CANCELLED
        wanted += [(seat, kind, mark) for seat in hooks]
    else:
        turn_passed = resync or any(isinstance(e, PASSING) for e in events)
        if turn_passed and to_act is not None and to_act in people:
            wanted.append((to_act, YOUR_TURN, mark))
        for e in events:
            if isinstance(e, ev.TakeBackRequested):
                wanted += [(seat, TAKE_BACK, game.version) for seat in people if seat != e.seat]
            elif isinstance(e, ev.TimeExpired):
                wanted.append((e.seat, TIME_EXPIRED, game.version))
            elif isinstance(e, ev.SeatLinkReissued):
                wanted.append((e.seat, LINK_REISSUED, game.version))
            elif isinstance(e, ev.SeatHandedOver) and e.reason == "host":
                wanted.append((e.seat, HANDED_OVER, game.version))
    happened = [type(e).__name__ for e in events]
    rows = []
    seen: set[tuple[int, str]] = set()
    for seat, kind, key in wanted:
        hook = hooks.get(seat)
        if hook is None or (seat, kind) in seen:
            continue
        seen.add((seat, kind))
        delivery = uuid.uuid4().hex
        body = {
            "id": delivery,
            "game_id": game_id,
            "version": game.version,
            "seat": seat,
            "event": kind,
            "happened": happened,
            "to_act": to_act,
            "page": f"{public_url.rstrip('/')}/play/{game_id}",
        }
        rows.append((delivery, game_id, seat, kind, key, hook.url, orjson.dumps(body).decode()))
    return rows


def calls_for_notification(events: Sequence[Event]) -> bool:
    """Whether `plan` may call for a notification after a stored batch of `events` (it calls for none
    without one of the `CALLING` events, whatever the webhooks and the game)."""
    return any(isinstance(e, CALLING) for e in events)


async def queue(runtime: Runtime, game_id: str, version: int, events: Sequence[Event]) -> None:
    """Queue the notifications of a batch just stored (nothing when no seat has a webhook). Most moves
    stay inside the turn and call for none: those read nothing (`CALLING`)."""
    if not calls_for_notification(events):
        return
    hooks = await run_in_threadpool(runtime.tables.hooks, game_id)
    if not hooks:
        return
    game = await run_in_threadpool(runtime.store.game, game_id)
    people = await runtime.people(game_id, game)
    rows = plan(game_id, game, events, people, hooks, runtime.settings.public_url)
    if rows:
        await run_in_threadpool(runtime.tables.enqueue, rows, runtime.clock())
        runtime.notifier.wake()


async def sweep(runtime: Runtime) -> int:
    """Queue whatever the present of each game with a webhook calls for that is not queued yet (a
    process that died between storing a batch and queueing its notifications); returns the rows added."""
    added = 0
    for game_id in await run_in_threadpool(runtime.tables.hooked_games):
        hooks = await run_in_threadpool(runtime.tables.hooks, game_id)
        game = await run_in_threadpool(runtime.store.game, game_id)
        people = await runtime.people(game_id, game)
        rows = plan(game_id, game, [], people, hooks, runtime.settings.public_url, resync=True)
        if rows:
            added += await run_in_threadpool(runtime.tables.enqueue, rows, runtime.clock())
    if added:
        runtime.notifier.wake()
    return added


class Notifier:
    """The delivery worker: sends due outbox rows, several at a time, each in its own task."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._client: httpx.AsyncClient | None = None

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        settings = self._runtime.settings
        self._client = httpx.AsyncClient(timeout=settings.webhook_timeout_seconds, follow_redirects=False)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="webhooks")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._sending) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._client is not None:
            await self._client.aclose()

    async def _run(self) -> None:
        poll = self._runtime.settings.webhook_poll_seconds
        while True:
            try:
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("the webhook worker failed a round (it goes on)")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), poll)
            self._wake.clear()

    async def send_due(self) -> int:
        """Claim the due deliveries and start sending them; returns how many were claimed."""
        now = self._runtime.clock()
        claimed = await run_in_threadpool(self._runtime.tables.claim, now, now + LEASE)
        for delivery in claimed:
            task = asyncio.get_running_loop().create_task(self._send(delivery))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        return len(claimed)

    async def _send(self, d: Delivery) -> None:
        try:
            await self._attempt(d)
        except asyncio.CancelledError:
            # The process is stopping: give the delivery back at once rather than after its lease.
            self._runtime.tables.release(d.id)
            raise

    async def _attempt(self, d: Delivery) -> None:
        runtime = self._runtime
        settings = runtime.settings
        tables = runtime.tables
        hook = (await run_in_threadpool(tables.hooks, d.game_id)).get(d.seat)
        if hook is None:
            await run_in_threadpool(tables.attempt_failed, d.id, None, "the webhook was removed", None)
            return
        if not settings.webhook_allow_private and await run_in_threadpool(_private_target, d.url):
            message = "the webhook's host is a private or loopback address (GALILEO_WEBHOOK_ALLOW_PRIVATE)"
            await run_in_threadpool(tables.attempt_failed, d.id, None, message, None)
            return
        body = d.body.encode()
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "galileo-service",
            SIGNATURE_HEADER: sign(hook.secret, body),
            "X-Galileo-Event": d.kind,
            "X-Galileo-Delivery": d.id,
        }
        code: int | None = None
        try:
            assert self._client is not None
            response = await self._client.post(d.url, content=body, headers=headers)
            code = response.status_code
            if 200 <= code < 300:
                await run_in_threadpool(tables.delivered, d.id, code, runtime.clock())
                return
            error = f"HTTP {code}"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"[:300]
        attempts = d.attempts + 1
        retry = None
        if attempts < settings.webhook_max_attempts:
            delay = timedelta(seconds=settings.webhook_backoff_seconds * 2 ** (attempts - 1))
            retry = runtime.clock() + min(delay, MAX_BACKOFF)
        # The worker polls the outbox every `webhook_poll_seconds` and finds the retry when it is due.
        await run_in_threadpool(tables.attempt_failed, d.id, code, error, retry)
