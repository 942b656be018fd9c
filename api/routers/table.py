"""The table of a game (docs/async.md): take-backs, resignation, clocks, webhooks and the host's powers.

Who may call what: a seat's routes need that seat's token (401 without a valid token, 403 with another
game's token or the host's); the host's routes need the host token returned at creation (403 with a
seat's token); `GET /table` is open to anyone (a seat or the host sees its own part). Every refusal
names its rule: the service's ASYNC-n (docs/async.md) or the game's.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam
from starlette.concurrency import run_in_threadpool

from api import hooks, limits, play
from api.clocks import view_of
from api.contract import errors
from api.deps import GameId, RuntimeDep, presented_token, token_gate, token_refused
from api.problems import ApiError, unauthorized
from api.routers.play import guard
from api.runtime import Runtime
from api.schemas import (
    DeliveryOut,
    EventItem,
    Extend,
    HandOver,
    HandOverResult,
    HostAction,
    Notifications,
    SeatLink,
    TableCommand,
    TableResult,
    TableView,
    TakeBackAnswer,
    TakeBackRequest,
    WebhookIn,
    WebhookOut,
    WebhookSecret,
)
from api.seats import HANDED_OVER, REISSUED, Seat, rewritten_seat
from api.service import SubmitResult
from api.tables import stamp
from api.tokens import looks_like_token, new_token, token_hash
from replays import table as rules
from replays.clock import ClockConfig, parse_duration
from replays.errors import TableRefused
from replays.records import StoredEvent
from replays.store import Game, Rows, is_host_act

router = APIRouter(prefix="/games/{game_id}", tags=["table"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "No valid token."},
    403: {"description": "A token of another game, or of the wrong role (seat or host)."},
    404: {"description": "No such game."},
    409: {"description": "Refused by a table rule (the body has `rule_id`: ASYNC-n) or a stale version."},
}
WRITES: dict[int | str, dict[str, Any]] = {**REFUSALS, **errors(429)}  # a write counts as a command
SEAT = {"x-seat-token": "required"}
HOST = {"x-seat-token": "host"}
SEAT_OR_HOST = {"x-seat-token": "seat-or-host"}




@dataclass(frozen=True, slots=True)
class Caller:
    seat: Seat | None
    host: bool
    seen: int = 0  # the game's version just before the token was looked up (ASYNC-9, `rules.unrevoked`)


@dataclass(frozen=True, slots=True)
class Acting:
    """A seat's caller: its seat and the game's version before its token was looked up."""

    seat: int
    seen: int


async def _caller(request: Request, runtime: Runtime, game_id: str) -> Caller | None:
    token = presented_token(request)
    if token is None:
        return None
    client = token_gate(runtime, request)
    if not looks_like_token(token):
        raise await token_refused(runtime, client, None, "seat or host")
    digest = token_hash(token)
    # The version first, then the token: a re-issue stored after this lookup has a later version, which
    # the seat's write then refuses (`rules.unrevoked`); one stored before it fails the lookup.
    seen = (await run_in_threadpool(runtime.store.game, game_id)).version
    seat = await run_in_threadpool(runtime.seats.by_token, digest)
    if seat is not None:
        if seat.game_id != game_id:
            raise ApiError(403, "not-a-seat-of-this-game", "this seat token belongs to another game")
        return Caller(seat, False, seen)
    hosted = await run_in_threadpool(runtime.tables.by_host, digest)
    if hosted is None:
        raise await token_refused(runtime, client, digest, "seat or host")
    if hosted != game_id:
        raise ApiError(403, "not-the-host-of-this-game", "this host token belongs to another game")
    return Caller(None, True)


async def any_caller(request: Request, runtime: RuntimeDep, game_id: GameId) -> Caller | None:
    return await _caller(request, runtime, game_id)


async def seat_caller(request: Request, runtime: RuntimeDep, game_id: GameId) -> Acting:
    caller = await _caller(request, runtime, game_id)
    if caller is None:
        raise unauthorized("token-required", "this route needs the seat token: 'Authorization: Bearer ...'")
    if caller.seat is None:
        raise ApiError(403, "seat-only", "this route is a seat's: the host token cannot use it")
    return Acting(caller.seat.seat, caller.seen)


async def host_caller(request: Request, runtime: RuntimeDep, game_id: GameId) -> None:
    caller = await _caller(request, runtime, game_id)
    if caller is None:
        raise unauthorized("token-required", "this route needs the host token: 'Authorization: Bearer ...'")
    if not caller.host:
        raise ApiError(403, "host-only", "only the table's host may do this (the host token from creation)")


AnyCaller = Annotated[Caller | None, Depends(any_caller)]
SeatCaller = Annotated[Acting, Depends(seat_caller)]
HostCaller = Annotated[None, Depends(host_caller)]
SeatNumber = Annotated[int, PathParam(ge=0, le=3, description="The seat (0-based).")]


# A table write is a command for the client's rate limit (`GALILEO_RATE_COMMAND`), counted once the
# caller is known: a request without a valid token is answered 401 (or 403) whatever its rate, and costs
# nothing against it. Each depends on its route's caller (resolved once per request, FastAPI caches it).
async def seat_acting(request: Request, runtime: RuntimeDep, _: SeatCaller) -> None:
    await limits.rate(runtime, request, "command")


async def host_acting(request: Request, runtime: RuntimeDep, _: HostCaller) -> None:
    await limits.rate(runtime, request, "command")


async def caller_acting(request: Request, runtime: RuntimeDep, caller: AnyCaller) -> None:
    if caller is None:
        raise unauthorized("token-required", "this route needs a seat or host token")
    await limits.rate(runtime, request, "command")


SEAT_ACTS = [Depends(seat_acting)]
HOST_ACTS = [Depends(host_acting)]
CALLER_ACTS = [Depends(caller_acting)]


def _reader(runtime: Runtime, game_id: str) -> Any:
    def read(start: int) -> list[StoredEvent]:
        return runtime.store.events(game_id, max(0, start - 1), None)

    return read


async def _record(
    runtime: Runtime,
    game_id: str,
    request: dict[str, Any],
    build: rules.Build,
    body: TableCommand,
    actor: int | str,
    rows: Callable[[int], list[Rows]] | None = None,
    seen: int | None = None,
) -> TableResult:
    """Store a table batch; a seat's (`actor` a seat, `seen` the version before its token was looked up)
    is refused if the seat was taken from its token since (ASYNC-9)."""
    if isinstance(actor, int) and seen is not None:
        build = rules.unrevoked(build, actor, seen)
    result: SubmitResult = await run_in_threadpool(
        runtime.store.table, game_id, request, build, body.command_id, actor, body.expected_version, rows
    )
    if not result.replayed and result.events:
        await play.after_write(runtime, game_id, result.version, result.events)
    state, _ = await run_in_threadpool(runtime.store.current, game_id)
    viewer = actor if isinstance(actor, int) else None
    first = result.version - len(result.events) + 1
    return TableResult(
        game_id=game_id,
        version=result.version,
        replayed=result.replayed,
        events=[
            EventItem(**play.event_item(first + i, e, state.finished, viewer, play.names_of(state)))
            for i, e in enumerate(result.events)
        ],
    )


async def _person(runtime: Runtime, game_id: str, seat: int, in_time: bool = True) -> list[int]:
    """The people of the game; refuses a seat that is no longer a person's (ASYNC-3), and with
    `in_time` one whose time has run out (ASYNC-1)."""
    if in_time:
        await guard(runtime, game_id, seat)
    game = await run_in_threadpool(runtime.store.game, game_id)
    people = await runtime.people(game_id, game)
    if seat not in people:
        raise TableRefused("seat-handed-over", f"seat {seat} is no longer played by a person", "ASYNC-3", 403)
    return people


async def _clocked(runtime: Runtime, game_id: str) -> None:
    record = await runtime.table_of(game_id)
    if record is None or record.clock is None:
        raise TableRefused("no-clock", "this game has no clock", "ASYNC-4")


# -- reading ---------------------------------------------------------------------------------------------


@router.get(
    "/table",
    operation_id="getTable",
    response_model=TableView,
    responses=errors(401, 403, 404),
    openapi_extra={"x-seat-token": "optional-seat-or-host"},
)
async def table_view(game_id: GameId, runtime: RuntimeDep, caller: AnyCaller) -> TableView:
    """The table: each seat (person, bot, forfeited, resigned), the clocks, the open take-back request,
    the pause votes, the host's acts (`host_actions`: re-issued links, hand-overs, extensions...), and
    what the caller may do now (`you.takeback.allowed` with its reason)."""
    game = await run_in_threadpool(runtime.store.game, game_id)
    state = game.state
    assert state is not None
    record = await runtime.table_of(game_id)
    rows = {s.seat: s for s in await run_in_threadpool(runtime.seats.of_game, game_id)}
    now = runtime.clock()
    seats = []
    for i, p in enumerate(state.players):
        who = rules.player(game, i, rows.get(i))
        seats.append({"seat": i, "name": p.name, "played_by": who.by, "bot": who.bot})
    clock = None
    if record is not None and record.clock is not None:
        config = ClockConfig.from_json(record.clock)
        clock = {"config": record.clock, **view_of(config, game, now).to_json(now)}
    pending = None
    if game.pending is not None:
        lapsed = now >= datetime.fromisoformat(str(game.pending["expires_at"]))
        pending = {**game.pending, "lapsed": lapsed}
    you: dict[str, Any] = {"seat": None, "host": bool(caller and caller.host)}
    if caller is not None and caller.seat is not None:
        you["seat"] = caller.seat.seat
        you["takeback"] = await run_in_threadpool(_takeback_now, runtime, game_id, caller.seat.seat)
    status = "cancelled" if game.cancelled else "finished" if state.finished else "active"
    acts = await run_in_threadpool(_host_acts, runtime, game_id, game)
    return TableView(
        game_id=game_id,
        version=game.version,
        status=status,
        seats=seats,
        clock=clock,
        takeback=pending,
        pause_votes=list(game.pause_votes),
        host_actions=[HostAction(version=a[0], type=a[1], seat=a[2], at=a[3]) for a in acts],
        you=you,
    )


def _host_acts(runtime: Runtime, game_id: str, game: Game) -> Sequence[Sequence[Any]]:
    """The host's acts of the game (ASYNC-9), as the aggregate keeps them; read off the log for a game
    loaded from a snapshot older than that record."""
    if game.host_log is not None:
        return game.host_log
    return [
        [s.version, s.event.type, getattr(s.event, "seat", None), s.metadata.get("received_at")]
        for s in runtime.store.events(game_id, 0, None)
        if is_host_act(s.metadata)
    ]


def _takeback_now(runtime: Runtime, game_id: str, seat: int) -> dict[str, Any]:
    game = runtime.store.game(game_id)
    try:
        target = rules.check_takeback(_reader(runtime, game_id), game, seat, None)
    except TableRefused as refused:
        return {"allowed": False, "reason": refused.message, "code": refused.code, "rule_id": refused.rule}
    restart = rules.restart_target(_reader(runtime, game_id), game, seat)
    return {"allowed": True, "to_version": target, "restart_to": restart if restart != target else None}


# -- a seat's requests -------------------------------------------------------------------------------


@router.post(
    "/takeback",
    operation_id="requestTakeBack",
    response_model=TableResult,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def take_back(
    game_id: GameId, body: TakeBackRequest, runtime: RuntimeDep, seat: SeatCaller
) -> TableResult:
    """Take back your commands of this turn (ASYNC-7): at once when you are the only person, else a
    request the other people accept or decline (ASYNC-6) before it lapses."""
    people = await _person(runtime, game_id, seat.seat)
    record = await runtime.table_of(game_id)
    timeout = timedelta(seconds=record.takeback_seconds) if record else rules.TAKEBACK_TIMEOUT
    others = [p for p in people if p != seat.seat]
    build = rules.request_batch(_reader(runtime, game_id), seat.seat, body.to_version, others, timeout)
    request = {"type": "TakeBack", "seat": seat.seat, "to_version": body.to_version}
    return await _record(runtime, game_id, request, build, body, seat.seat, seen=seat.seen)


@router.post(
    "/takeback/answer",
    operation_id="answerTakeBack",
    response_model=TableResult,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def answer_take_back(
    game_id: GameId, body: TakeBackAnswer, runtime: RuntimeDep, seat: SeatCaller
) -> TableResult:
    """Accept or decline the open take-back request (ASYNC-6); the last acceptance takes back."""
    people = await _person(runtime, game_id, seat.seat)
    build = rules.answer_batch(_reader(runtime, game_id), seat.seat, body.accept, people)
    request = {"type": "TakeBackAnswer", "seat": seat.seat, "accept": body.accept}
    return await _record(runtime, game_id, request, build, body, seat.seat, seen=seat.seen)


@router.post(
    "/resign",
    operation_id="resign",
    response_model=TableResult,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def resign(game_id: GameId, body: TableCommand, runtime: RuntimeDep, seat: SeatCaller) -> TableResult:
    """Resign (ASYNC-2): by the game's `on_resign`, a bot takes the seat over or it forfeits (frozen)."""
    await _person(runtime, game_id, seat.seat, in_time=False)
    record = await runtime.table_of(game_id)
    policy, bot = (record.on_resign, record.resign_bot) if record else ("bot", "greedy")
    request = {"type": "Resign", "seat": seat.seat}
    build = rules.resign_batch(seat.seat, policy, bot)
    return await _record(runtime, game_id, request, build, body, seat.seat, seen=seat.seen)


@router.post(
    "/clock/pause",
    operation_id="pauseClock",
    response_model=TableResult,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def pause(game_id: GameId, body: TableCommand, runtime: RuntimeDep, seat: SeatCaller) -> TableResult:
    """Ask to pause the clocks (vacation, ASYNC-4); they stop when every person has asked."""
    await _clocked(runtime, game_id)
    people = await _person(runtime, game_id, seat.seat)
    request = {"type": "PauseClock", "seat": seat.seat}
    build = rules.pause_batch(seat.seat, people)
    return await _record(runtime, game_id, request, build, body, seat.seat, seen=seat.seen)


@router.post(
    "/clock/resume",
    operation_id="resumeClock",
    response_model=TableResult,
    responses=WRITES,
    dependencies=CALLER_ACTS,
    openapi_extra=SEAT_OR_HOST,
)
async def resume(game_id: GameId, body: TableCommand, runtime: RuntimeDep, caller: AnyCaller) -> TableResult:
    """Start the paused clocks again (ASYNC-4): any person of the game, or the host."""
    if caller is None:
        raise unauthorized("token-required", "this route needs a seat or host token")
    by = "host" if caller.host else str(caller.seat.seat if caller.seat else "")
    await _clocked(runtime, game_id)
    if caller.seat is not None:
        await _person(runtime, game_id, caller.seat.seat, in_time=False)
    actor: int | str = "host" if caller.seat is None else caller.seat.seat
    request = {"type": "ResumeClock", "by": by}
    return await _record(runtime, game_id, request, rules.resume_batch(by), body, actor, seen=caller.seen)


@router.put(
    "/webhook",
    operation_id="setWebhook",
    response_model=WebhookOut,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def set_webhook(game_id: GameId, body: WebhookIn, runtime: RuntimeDep, seat: SeatCaller) -> WebhookOut:
    """Register (or replace) your seat's webhook; the answer holds its new signing secret, once. The URL
    is refused (422 `invalid-webhook`, HOOK-1) unless its host resolves only to public addresses (or the
    operator's `GALILEO_WEBHOOK_ALLOW_NETWORKS`); notifications still pending for a replaced webhook are
    dropped, and what the game's present calls for is queued for the new one."""
    hook = await hooks.register_later(runtime, game_id, seat.seat, body.url)
    return WebhookOut(seat=seat.seat, url=hook.url, secret=hook.secret)


@router.post(
    "/webhook/secret",
    operation_id="rotateWebhookSecret",
    response_model=WebhookSecret,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def rotate_webhook_secret(game_id: GameId, runtime: RuntimeDep, seat: SeatCaller) -> WebhookSecret:
    """Rotate your webhook's signing secret: the answer holds the new one, once; until
    `previous_valid_until` every delivery carries two `v1` signatures in `webhook-signature`, one under
    each secret, so a receiver can switch without losing any. 404 `no-webhook` without a webhook."""
    rotated = await hooks.rotate(runtime, game_id, seat.seat)
    if rotated is None:
        raise ApiError(404, "no-webhook", "this seat has no webhook: register one first (PUT /webhook)")
    hook, until = rotated
    return WebhookSecret(seat=seat.seat, url=hook.url, secret=hook.secret, previous_valid_until=until)


@router.delete(
    "/webhook",
    operation_id="deleteWebhook",
    status_code=204,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT,
)
async def delete_webhook(game_id: GameId, runtime: RuntimeDep, seat: SeatCaller) -> Response:
    """Remove your seat's webhook (queued notifications to it are not sent)."""
    await run_in_threadpool(runtime.tables.delete_hook, game_id, seat.seat)
    return Response(status_code=204)


@router.get(
    "/notifications",
    operation_id="listNotifications",
    response_model=Notifications,
    responses=REFUSALS,
    openapi_extra=SEAT_OR_HOST,
)
async def notifications(game_id: GameId, runtime: RuntimeDep, caller: AnyCaller) -> Notifications:
    """The delivery log: a seat sees its own notifications, the host every seat's (newest first). Each
    row says `delivered` or `failed` and the class of its last attempt (`result`: `2xx` … `5xx`,
    `no-response`, `refused`, `superseded`), never a raw error or status code."""
    if caller is None:
        raise unauthorized("token-required", "this route needs a seat or host token")
    seat = None if caller.host else caller.seat.seat if caller.seat else None
    log = await run_in_threadpool(runtime.tables.log, game_id, seat)
    return Notifications(game_id=game_id, deliveries=[DeliveryOut(**d.to_json()) for d in log])


# -- the host --------------------------------------------------------------------------------------------


def _link(runtime: Runtime, game_id: str, seat: int, token: str) -> SeatLink:
    return SeatLink(
        seat=seat, token=token, link=f"{runtime.settings.public_url.rstrip('/')}/play/{game_id}#token={token}"
    )


async def seat_rows(
    runtime: Runtime, game_id: str, seat: int, token: str | None, reason: str
) -> Callable[[int], list[Rows]]:
    """The rows that give the seat `token` (None: no person's token) and revoke its old token, written
    with the batch's events (`Games.table(rows=...)`)."""
    old = {s.seat: s for s in await run_in_threadpool(runtime.seats.of_game, game_id)}.get(seat)
    old_hash = old.token_hash if old else None
    new_hash = None if token is None else token_hash(token)
    at = stamp(runtime.clock())
    return lambda version: rewritten_seat(game_id, seat, new_hash, old_hash, version, reason, at)


@router.post(
    "/host/seats/{seat}/link",
    operation_id="reissueSeatLink",
    response_model=SeatLink,
    responses=WRITES,
    dependencies=HOST_ACTS,
    openapi_extra=HOST,
)
async def reissue_link(game_id: GameId, seat: SeatNumber, runtime: RuntimeDep, _: HostCaller) -> SeatLink:
    """Re-issue a person's lost seat link (ASYNC-9): a new token; the old one stops working at once on
    every process (401 `link-reissued`). The re-issue is an event of the game's log (`SeatLinkReissued`),
    shown on the table and in the history, and the seat's webhook is told (`seat-link-reissued`)."""
    game = await run_in_threadpool(runtime.store.game, game_id)
    assert game.state is not None
    if seat >= len(game.state.players):
        raise TableRefused("no-such-seat", f"the game has no seat {seat}", "ASYNC-3", 422)
    if seat not in await runtime.people(game_id, game):
        raise TableRefused("seat-not-a-person", f"seat {seat} is played by the server", "ASYNC-3")
    token = new_token()
    rows = await seat_rows(runtime, game_id, seat, token, REISSUED)
    # Each call is a re-issue of its own (a new token every time): the command ID is the server's.
    body = TableCommand(command_id=f"reissue:{uuid.uuid4().hex}", expected_version=None)
    request = {"type": "ReissueLink", "seat": seat}
    await _record(runtime, game_id, request, rules.reissue_batch(seat), body, "host", rows)
    runtime.bots.forget(game_id)
    return _link(runtime, game_id, seat, token)


@router.post(
    "/host/seats/{seat}/handover",
    operation_id="handOverSeat",
    response_model=HandOverResult,
    responses=WRITES,
    dependencies=HOST_ACTS,
    openapi_extra=HOST,
)
async def hand_over(
    game_id: GameId, seat: SeatNumber, body: HandOver, runtime: RuntimeDep, _: HostCaller
) -> HandOverResult:
    """Hand a seat to a bot, or to a new person (the answer holds the new seat link); the seat's old
    token stops working either way (ASYNC-3), on every process at once, with the event."""
    request = {"type": "HandOver", "seat": seat, "to": body.to, "bot": body.bot}
    build = rules.handover_batch(seat, body.to, body.bot)
    token = new_token() if body.to == "person" else None
    rows = await seat_rows(runtime, game_id, seat, token, HANDED_OVER)
    result = await _record(runtime, game_id, request, build, body, "host", rows)
    out = HandOverResult(**result.model_dump())
    if not result.replayed:
        # The seat's webhook was its previous holder's: removed with what is pending for it (ASYNC-3).
        await run_in_threadpool(runtime.tables.delete_hook, game_id, seat)
        if token is not None:
            out.link = _link(runtime, game_id, seat, token)
    return out


@router.post(
    "/host/clock/extend",
    operation_id="extendClock",
    response_model=TableResult,
    responses=WRITES,
    dependencies=HOST_ACTS,
    openapi_extra=HOST,
)
async def extend(game_id: GameId, body: Extend, runtime: RuntimeDep, _: HostCaller) -> TableResult:
    """Give a seat more time (ASYNC-5)."""
    await _clocked(runtime, game_id)
    try:
        seconds = int(parse_duration(body.by, "by").total_seconds())
    except ValueError as error:
        raise ApiError(422, "invalid-duration", str(error)) from None
    request = {"type": "ExtendClock", "seat": body.seat, "seconds": seconds}
    return await _record(runtime, game_id, request, rules.extend_batch(body.seat, seconds), body, "host")


@router.post(
    "/host/cancel",
    operation_id="cancelGame",
    response_model=TableResult,
    responses=WRITES,
    dependencies=HOST_ACTS,
    openapi_extra=HOST,
)
async def cancel(game_id: GameId, body: TableCommand, runtime: RuntimeDep, _: HostCaller) -> TableResult:
    """Cancel the game (ASYNC-8): nobody acts any more; its log stays."""
    return await _record(runtime, game_id, {"type": "Cancel"}, rules.cancel_batch(), body, "host")
