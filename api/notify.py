"""Turn notifications (docs/async.md): each seat may register a webhook; when the seat must act, when
a take-back asks it, when its time runs out and when the game ends, the service POSTs a JSON body signed
the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
`id.timestamp.body`), and for one more release also with the deprecated `X-Galileo-Signature`.
Where a webhook may point, and how it is reached, is api/egress.py's (it fails closed).

Notifications go through an outbox in the database (`galileo_outbox`, api/tables.py): a write queues
them right after the game's events are stored, and a delivery worker (in `galileo serve` and in
`galileo clocks run`) sends them in the background, so a slow endpoint never delays a move, a failed
delivery is retried with exponential backoff, and a restart loses nothing that was queued. The outbox
rows are also the delivery log (`GET /games/{id}/notifications`).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import hmac
import logging
import secrets
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import httpx
import orjson
from starlette.concurrency import run_in_threadpool

from api import egress, tell
from api.tables import NO_RESPONSE, REFUSED, SUPERSEDED, Delivery, Hook, status_class
from domain import Event
from domain import events as ev
from replays.errors import GameNotFound
from replays.store import Game

if TYPE_CHECKING:
    from api.runtime import Runtime

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Galileo-Signature"  # deprecated: sent for one more release (docs/async.md)
SECRET_PREFIX = "whsec_"
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


Row = tuple[str, str, int, str, int, str, str, str | None]  # an outbox row (TableStore.enqueue)


def new_secret() -> str:
    """A webhook secret: `whsec_` and 32 random bytes in standard base64 (what Standard Webhooks
    libraries decode)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def secret_key(secret: str) -> bytes:
    """The HMAC key of a secret: the bytes its base64 stands for. Secrets issued before Standard
    Webhooks signing were URL-safe base64 without padding; they are decoded as such (a Standard
    Webhooks library cannot: rotate or re-register to get a standard one)."""
    text = secret.removeprefix(SECRET_PREFIX)
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def standard_signature(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """One Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`."""
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(secret_key(secret), signed, hashlib.sha256).digest()).decode()


def signature_headers(keys: Sequence[str], msg_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The signing headers of a delivery under the seat's secrets (`Hook.secrets`: the current one first,
    and during a rotation's overlap the previous one): one `v1` signature each, space-separated, and the
    deprecated body-only `X-Galileo-Signature` under the current secret."""
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(standard_signature(k, msg_id, timestamp, body) for k in keys),
        SIGNATURE_HEADER: sign(keys[0], body),
    }


def sign(secret: str, body: bytes) -> str:
    """The deprecated `X-Galileo-Signature`: `sha256=` and the hex HMAC-SHA256 of the body bytes alone
    under the secret's text (it can be replayed: verify `webhook-signature` instead)."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify_signature(secret: str, body: bytes, header: str) -> bool:
    """What a receiver of the deprecated header does: recompute it and compare in constant time."""
    return hmac.compare_digest(sign(secret, body), header)


def check_form(url: str) -> str | None:
    """Why `url` cannot be a webhook by its form alone (egress.parse), or None."""
    try:
        egress.parse(url)
    except egress.Refused as refused:
        return str(refused)
    return None


Wanted = tuple[int, str, int]  # a seat, the kind of its notification, the notification's version


def plan(
    game_id: str,
    game: Game,
    events: Sequence[Event],
    people: Sequence[int],
    hooks: dict[int, Hook],
    public_url: str,
    resync: bool = False,
) -> list[Row]:
    """The outbox rows (id, game, seat, kind, version, url, body, hook_id) that a batch of `events` just
    stored calls for, `game` being the game after it; with `resync`, the rows the game's present calls
    for (the scheduler's sweep, which re-queues what a crash between a write and its queueing lost).

    A row's `version` is its identity: for `your-turn` the version at which the turn began, for the end
    the version of the end, else the batch's last version; the outbox keeps one row per (game, seat,
    kind, version), so re-queueing is harmless. A row is bound to the registration (`hook_id`) it was
    made for. A seat handed over in the batch gets none: its webhook was its previous holder's (ASYNC-3;
    the hand-over removes it)."""
    state = game.state
    assert state is not None
    to_act = None if state.finished or game.cancelled else state.turn.seat
    wanted = _wanted(game, events, people, hooks, to_act, resync)
    happened = [e.type for e in events]
    return [
        _row(game_id, game, seat, kind, key, hook, happened, to_act, public_url)
        for seat, kind, key, hook in _deliverable(wanted, hooks, events)
    ]


def _deliverable(
    wanted: Sequence[Wanted], hooks: dict[int, Hook], events: Sequence[Event]
) -> list[tuple[int, str, int, Hook]]:
    """The wanted notifications that are sent, with their seat's webhook: the first of each seat and
    kind, to a seat with a webhook that was not handed over in the batch."""
    handed = {e.seat for e in events if isinstance(e, ev.SeatHandedOver)}
    out: list[tuple[int, str, int, Hook]] = []
    seen: set[tuple[int, str]] = set()
    for seat, kind, key in wanted:
        hook = hooks.get(seat)
        if hook is None or (seat, kind) in seen or seat in handed:
            continue
        seen.add((seat, kind))
        out.append((seat, kind, key, hook))
    return out


def _wanted(
    game: Game,
    events: Sequence[Event],
    people: Sequence[int],
    hooks: dict[int, Hook],
    to_act: int | None,
    resync: bool,
) -> list[Wanted]:
    """What the batch (or with `resync`, the game's present) calls for, in order, before any seat's
    webhook is looked up: the end to every seat with a webhook, else the turn and each event's notice."""
    mark = turn_mark(game)
    ending = _ending(game, events, resync)
    if ending is not None:
        return [(seat, ending, mark) for seat in hooks]
    wanted: list[Wanted] = []
    turn_passed = resync or any(isinstance(e, PASSING) for e in events)
    if turn_passed and to_act is not None and to_act in people:
        wanted.append((to_act, YOUR_TURN, mark))
    for e in events:
        wanted += _notices(e, people, game.version)
    return wanted


def _ending(game: Game, events: Sequence[Event], resync: bool) -> str | None:
    """`game-ended` or `game-cancelled` if the batch (with `resync`, the game) ended, else None."""
    state = game.state
    assert state is not None
    ended = state.finished if resync else any(isinstance(e, ev.GameEnded) for e in events)
    cancelled = game.cancelled if resync else any(isinstance(e, ev.GameCancelled) for e in events)
    if ended or cancelled:
        return GAME_ENDED if ended else GAME_CANCELLED
    return None


def _notices(e: Event, people: Sequence[int], version: int) -> list[Wanted]:
    """The notifications one event of the batch calls for (a take-back asks every other person; a lapse
    of time and the host's acts on a seat tell that seat)."""
    if isinstance(e, ev.TakeBackRequested):
        return [(seat, TAKE_BACK, version) for seat in people if seat != e.seat]
    if isinstance(e, ev.TimeExpired):
        return [(e.seat, TIME_EXPIRED, version)]
    if isinstance(e, ev.SeatLinkReissued):
        return [(e.seat, LINK_REISSUED, version)]
    if isinstance(e, ev.SeatHandedOver) and e.reason == "host":
        return [(e.seat, HANDED_OVER, version)]
    return []


def _row(
    game_id: str,
    game: Game,
    seat: int,
    kind: str,
    key: int,
    hook: Hook,
    happened: list[str],
    to_act: int | None,
    public_url: str,
) -> Row:
    """One outbox row: a fresh delivery ID and the JSON body the seat's webhook is sent."""
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
    return (delivery, game_id, seat, kind, key, hook.url, orjson.dumps(body).decode(), hook.hook_id)


def turn_mark(game: Game) -> int:
    """The version at which the present turn began (or the game ended): a turn's notifications' key."""
    marks = [m for m in game.clock_log if m[0] in ("turn", "end")]
    return int(marks[-1][1]) if marks else game.version


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
    game = await run_in_threadpool(runtime.store.game, game_id)
    people = await runtime.people(game_id, game)
    told = await tell.queue(runtime, game_id, game, events, people, turn_mark(game))
    rows = plan(game_id, game, events, people, hooks, runtime.settings.public_url) if hooks else []
    if rows:
        await run_in_threadpool(runtime.tables.enqueue, rows, runtime.clock())
    if rows or told:
        runtime.notifier.wake()


async def sweep(runtime: Runtime) -> int:
    """Queue whatever the present of each game with a webhook, an address or a device calls for that is
    not queued yet (a process that died between storing a batch and queueing its notifications); returns
    the webhook rows added (mails and pushes are counted by whether any was new)."""
    added = 0
    told = False
    hooked = set(await run_in_threadpool(runtime.tables.hooked_games))
    reached = set(await run_in_threadpool(runtime.reach.reached_games))
    for game_id in sorted(hooked | reached):
        try:
            game = await run_in_threadpool(runtime.store.game, game_id)
        except GameNotFound:
            continue
        people = await runtime.people(game_id, game)
        if game_id in hooked:
            hooks = await run_in_threadpool(runtime.tables.hooks, game_id)
            rows = plan(game_id, game, [], people, hooks, runtime.settings.public_url, resync=True)
            if rows:
                added += await run_in_threadpool(runtime.tables.enqueue, rows, runtime.clock())
        if game_id in reached:
            state = game.state
            if state is None or state.finished or game.cancelled:
                await run_in_threadpool(runtime.reach.mark_over, game_id)
                continue
            told = await tell.queue(runtime, game_id, game, [], people, turn_mark(game), resync=True) or told
    if added or told:
        runtime.notifier.wake()
    return added


async def queue_present(runtime: Runtime, game_id: str) -> None:
    """Queue what the present of one game calls for that is not queued yet (a webhook just registered, or
    a seat's address just confirmed, gets the turn it missed)."""
    hooks = await run_in_threadpool(runtime.tables.hooks, game_id)
    game = await run_in_threadpool(runtime.store.game, game_id)
    people = await runtime.people(game_id, game)
    told = await tell.queue(runtime, game_id, game, [], people, turn_mark(game), resync=True)
    rows = plan(game_id, game, [], people, hooks, runtime.settings.public_url, resync=True)
    added: int = await run_in_threadpool(runtime.tables.enqueue, rows, runtime.clock()) if rows else 0
    if added or told:
        runtime.notifier.wake()


class Notifier:
    """The delivery worker: sends due outbox rows, several at a time, each in its own task."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._client: httpx.AsyncClient | None = None
        self._teller: tell.Teller | None = None

    def wake(self) -> None:
        self._wake.set()

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            settings = self._runtime.settings
            self._client = egress.client(settings.webhook_timeout_seconds, settings.webhook_ca_file)
        return self._client

    def start(self) -> None:
        self._http()
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

    async def send_due(self, wait: bool = False) -> int:
        """Claim the due deliveries and start sending them (with `wait`, until each attempt is over);
        returns how many were claimed."""
        now = self._runtime.clock()
        claimed = await run_in_threadpool(self._runtime.tables.claim, now, now + LEASE)
        started = []
        for rows in tell.group(claimed):
            task = asyncio.get_running_loop().create_task(self._send(rows))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
            started.append(task)
        if wait and started:
            await asyncio.gather(*started)
        return len(claimed)

    async def _send(self, rows: list[Delivery]) -> None:
        try:
            if tell.is_personal(rows[0]):
                if self._teller is None:
                    self._teller = tell.Teller(self._runtime, self._http())
                await self._teller.attempt(rows, self._retry_at(rows[0]))
            else:
                await self.attempt(rows[0])
        except asyncio.CancelledError:
            # The process is stopping: give the deliveries back at once rather than after their lease.
            for d in rows:
                self._runtime.tables.release(d.id)
            raise

    async def attempt(self, d: Delivery) -> None:
        """One attempt at a claimed delivery, recorded in the outbox."""
        runtime = self._runtime
        settings = runtime.settings
        tables = runtime.tables
        hook = (await run_in_threadpool(tables.hooks, d.game_id)).get(d.seat)
        if hook is None or hook.hook_id != d.hook_id:
            # Made for a registration that was removed or replaced (or the seat handed over): never sent
            # to another URL, nor signed with another registration's secret.
            await run_in_threadpool(tables.attempt_failed, d.id, None, SUPERSEDED, None)
            return
        code: int | None = None
        try:
            target = await egress.check(
                hook.url, settings.webhook_networks, runtime.resolve, settings.webhook_timeout_seconds
            )
        except egress.Refused:
            result = REFUSED  # checked again at each attempt: the name may point elsewhere now
        else:
            body = d.body.encode()
            now = runtime.clock()
            headers = {
                "Content-Type": "application/json",
                "User-Agent": "galileo-service",
                **signature_headers(hook.secrets(now), d.id, int(now.timestamp()), body),
                "X-Galileo-Event": d.kind,
                "X-Galileo-Delivery": d.id,
            }
            try:
                code = await egress.post(self._http(), target, body, headers)
            except (httpx.HTTPError, OSError) as error:
                # The operator's log names the failure's kind only; the delivery log, not even that.
                logger.info("webhook delivery %s: no answer (%s)", d.id, type(error).__name__)
                result = NO_RESPONSE
            else:
                if 200 <= code < 300:
                    await run_in_threadpool(tables.delivered, d.id, code, runtime.clock())
                    return
                result = status_class(code)
        await run_in_threadpool(tables.attempt_failed, d.id, code, result, self._retry_at(d))

    def _retry_at(self, d: Delivery) -> datetime | None:
        """When to try `d` again after a failed attempt (None: it failed for good). The worker polls the
        outbox every `webhook_poll_seconds` and finds the retry when it is due."""
        settings = self._runtime.settings
        attempts = d.attempts + 1
        if attempts >= settings.webhook_max_attempts:
            return None
        delay = timedelta(seconds=settings.webhook_backoff_seconds * 2 ** (attempts - 1))
        return self._runtime.clock() + min(delay, MAX_BACKOFF)
