"""The table of a game (docs/async.md): take-backs, resignation, clocks, webhooks and the host's powers.

Who may call what: a seat's routes need that seat's token (401 without a valid token, 403 with another
game's token or the host's); the host's routes need the host token returned at creation (403 with a
seat's token); `GET /table` is open to anyone (a seat or the host sees its own part). Every refusal
names its rule: the service's ASYNC-n (docs/async.md) or the game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam
from starlette.concurrency import run_in_threadpool

from api import hooks, limits, play
from api.clocks import view_of
from api.contract import errors
from api.deps import GameId, RuntimeDep, presented_token
from api.notify import check_url
from api.problems import ApiError, unauthorized
from api.routers.play import guard
from api.runtime import Runtime
from api.schemas import (
    EventItem,
    Extend,
    HandOver,
    Notifications,
    SeatLink,
    TableCommand,
    TableResult,
    TableView,
    TakeBackAnswer,
    TakeBackRequest,
    WebhookIn,
    WebhookOut,
)
from api.seats import BOT, HUMAN, Seat
from api.service import SubmitResult
from api.tokens import looks_like_token, new_token, token_hash
from domain.opponents import opponent_at
from replays import table as rules
from replays.clock import ClockConfig, parse_duration
from replays.errors import TableRefused
from replays.records import StoredEvent

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


async def acting(request: Request, runtime: RuntimeDep) -> None:
    """A table write is a command for the client's rate limit (`GALILEO_RATE_COMMAND`)."""
    limits.rate(runtime, request, "command")


ACTS = [Depends(acting)]


@dataclass(frozen=True, slots=True)
class Caller:
    seat: Seat | None
    host: bool


async def _caller(request: Request, runtime: Runtime, game_id: str) -> Caller | None:
    token = presented_token(request)
    if token is None:
        return None
    if not looks_like_token(token):
        raise unauthorized("invalid-token", "the token is not valid")
    digest = token_hash(token)
    seat = runtime.cached_seat(digest) or await run_in_threadpool(runtime.seats.by_token, digest)
    if seat is not None:
        if seat.game_id != game_id:
            raise ApiError(403, "not-a-seat-of-this-game", "this seat token belongs to another game")
        return Caller(seat, False)
    hosted = await run_in_threadpool(runtime.tables.by_host, digest)
    if hosted is None:
        raise unauthorized("invalid-token", "the token is not valid")
    if hosted != game_id:
        raise ApiError(403, "not-the-host-of-this-game", "this host token belongs to another game")
    return Caller(None, True)


async def any_caller(request: Request, runtime: RuntimeDep, game_id: GameId) -> Caller | None:
    return await _caller(request, runtime, game_id)


async def seat_caller(request: Request, runtime: RuntimeDep, game_id: GameId) -> Seat:
    caller = await _caller(request, runtime, game_id)
    if caller is None:
        raise unauthorized("token-required", "this route needs the seat token: 'Authorization: Bearer ...'")
    if caller.seat is None:
        raise ApiError(403, "seat-only", "this route is a seat's: the host token cannot use it")
    return caller.seat


async def host_caller(request: Request, runtime: RuntimeDep, game_id: GameId) -> None:
    caller = await _caller(request, runtime, game_id)
    if caller is None:
        raise unauthorized("token-required", "this route needs the host token: 'Authorization: Bearer ...'")
    if not caller.host:
        raise ApiError(403, "host-only", "only the table's host may do this (the host token from creation)")


AnyCaller = Annotated[Caller | None, Depends(any_caller)]
SeatCaller = Annotated[Seat, Depends(seat_caller)]
HostCaller = Annotated[None, Depends(host_caller)]
SeatNumber = Annotated[int, PathParam(ge=0, le=3, description="The seat (0-based).")]


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
) -> TableResult:
    result: SubmitResult = await run_in_threadpool(
        runtime.store.table, game_id, request, build, body.command_id, actor, body.expected_version
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
    response_model=TableView,
    responses=errors(401, 403, 404),
    openapi_extra={"x-seat-token": "optional-seat-or-host"},
)
async def table_view(game_id: GameId, runtime: RuntimeDep, caller: AnyCaller) -> TableView:
    """The table: each seat (person, bot, forfeited, resigned), the clocks, the open take-back request,
    the pause votes, and what the caller may do now (`you.takeback.allowed` with its reason)."""
    game = await run_in_threadpool(runtime.store.game, game_id)
    state = game.state
    assert state is not None
    record = await runtime.table_of(game_id)
    rows = {s.seat: s for s in await run_in_threadpool(runtime.seats.of_game, game_id)}
    now = runtime.clock()
    seats = []
    for i, p in enumerate(state.players):
        handed = game.handed.get(str(i))
        row = rows.get(i)
        played = handed[0] if handed else (BOT if row is not None and row.kind == BOT else "person")
        if opponent_at(state, i) is not None:
            played = "opponent"  # the solo Tycho: his own rules play his seat (SOLO-27)
        seats.append({"seat": i, "name": p.name, "played_by": played, "bot": handed[1] if handed else None})
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
    return TableView(
        game_id=game_id,
        version=game.version,
        status=status,
        seats=seats,
        clock=clock,
        takeback=pending,
        pause_votes=list(game.pause_votes),
        you=you,
    )


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
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
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
    return await _record(runtime, game_id, request, build, body, seat.seat)


@router.post(
    "/takeback/answer",
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=SEAT,
)
async def answer_take_back(
    game_id: GameId, body: TakeBackAnswer, runtime: RuntimeDep, seat: SeatCaller
) -> TableResult:
    """Accept or decline the open take-back request (ASYNC-6); the last acceptance takes back."""
    people = await _person(runtime, game_id, seat.seat)
    build = rules.answer_batch(_reader(runtime, game_id), seat.seat, body.accept, people)
    request = {"type": "TakeBackAnswer", "seat": seat.seat, "accept": body.accept}
    return await _record(runtime, game_id, request, build, body, seat.seat)


@router.post(
    "/resign",
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=SEAT,
)
async def resign(game_id: GameId, body: TableCommand, runtime: RuntimeDep, seat: SeatCaller) -> TableResult:
    """Resign (ASYNC-2): by the game's `on_resign`, a bot takes the seat over or it forfeits (frozen)."""
    await _person(runtime, game_id, seat.seat, in_time=False)
    record = await runtime.table_of(game_id)
    policy, bot = (record.on_resign, record.resign_bot) if record else ("bot", "greedy")
    request = {"type": "Resign", "seat": seat.seat}
    return await _record(
        runtime, game_id, request, rules.resign_batch(seat.seat, policy, bot), body, seat.seat
    )


@router.post(
    "/clock/pause",
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=SEAT,
)
async def pause(game_id: GameId, body: TableCommand, runtime: RuntimeDep, seat: SeatCaller) -> TableResult:
    """Ask to pause the clocks (vacation, ASYNC-4); they stop when every person has asked."""
    await _clocked(runtime, game_id)
    people = await _person(runtime, game_id, seat.seat)
    request = {"type": "PauseClock", "seat": seat.seat}
    return await _record(runtime, game_id, request, rules.pause_batch(seat.seat, people), body, seat.seat)


@router.post(
    "/clock/resume",
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
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
    return await _record(
        runtime, game_id, {"type": "ResumeClock", "by": by}, rules.resume_batch(by), body, actor
    )


@router.put(
    "/webhook",
    response_model=WebhookOut,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=SEAT,
)
async def set_webhook(game_id: GameId, body: WebhookIn, runtime: RuntimeDep, seat: SeatCaller) -> WebhookOut:
    """Register (or replace) your seat's webhook; the answer holds its new signing secret, once."""
    problem = check_url(body.url)
    if problem:
        raise ApiError(422, "invalid-webhook", problem)
    hook = await hooks.register(runtime, game_id, seat.seat, body.url)
    return WebhookOut(seat=seat.seat, url=hook.url, secret=hook.secret)


@router.delete(
    "/webhook",
    status_code=204,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=SEAT,
)
async def delete_webhook(game_id: GameId, runtime: RuntimeDep, seat: SeatCaller) -> Response:
    """Remove your seat's webhook (queued notifications to it are not sent)."""
    await run_in_threadpool(runtime.tables.delete_hook, game_id, seat.seat)
    return Response(status_code=204)


@router.get("/notifications", response_model=Notifications, responses=REFUSALS, openapi_extra=SEAT_OR_HOST)
async def notifications(game_id: GameId, runtime: RuntimeDep, caller: AnyCaller) -> Notifications:
    """The delivery log: a seat sees its own notifications, the host every seat's (newest first)."""
    if caller is None:
        raise unauthorized("token-required", "this route needs a seat or host token")
    seat = None if caller.host else caller.seat.seat if caller.seat else None
    log = await run_in_threadpool(runtime.tables.log, game_id, seat)
    return Notifications(game_id=game_id, deliveries=[d.to_json() for d in log])


# -- the host --------------------------------------------------------------------------------------------


def _link(runtime: Runtime, game_id: str, seat: int, token: str) -> SeatLink:
    return SeatLink(
        seat=seat, token=token, link=f"{runtime.settings.public_url.rstrip('/')}/play/{game_id}#token={token}"
    )


async def _reissue(runtime: Runtime, game_id: str, seat: int) -> SeatLink:
    old = {s.seat: s for s in await run_in_threadpool(runtime.seats.of_game, game_id)}.get(seat)
    token = new_token()
    await run_in_threadpool(runtime.tables.set_seat, game_id, seat, HUMAN, None, token_hash(token))
    runtime.forget_token(old.token_hash if old else None)
    runtime.bots.forget(game_id)
    return _link(runtime, game_id, seat, token)


@router.post(
    "/host/seats/{seat}/link",
    response_model=SeatLink,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=HOST,
)
async def reissue_link(game_id: GameId, seat: SeatNumber, runtime: RuntimeDep, _: HostCaller) -> SeatLink:
    """Re-issue a person's lost seat link: a new token; the old one stops working."""
    game = await run_in_threadpool(runtime.store.game, game_id)
    assert game.state is not None
    if seat >= len(game.state.players):
        raise TableRefused("no-such-seat", f"the game has no seat {seat}", "ASYNC-3", 422)
    if seat not in await runtime.people(game_id, game):
        raise TableRefused("seat-not-a-person", f"seat {seat} is played by the server", "ASYNC-3")
    return await _reissue(runtime, game_id, seat)


@router.post(
    "/host/seats/{seat}/handover",
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=HOST,
)
async def hand_over(
    game_id: GameId, seat: SeatNumber, body: HandOver, runtime: RuntimeDep, _: HostCaller
) -> dict[str, Any]:
    """Hand a seat to a bot, or to a new person (the answer holds the new seat link); the seat's old
    token stops working either way (ASYNC-3)."""
    request = {"type": "HandOver", "seat": seat, "to": body.to, "bot": body.bot}
    build = rules.handover_batch(seat, body.to, body.bot)
    result = await _record(runtime, game_id, request, build, body, "host")
    out: dict[str, Any] = result.model_dump()
    if not result.replayed:
        if body.to == "person":
            out["link"] = (await _reissue(runtime, game_id, seat)).model_dump()
        else:
            old = {s.seat: s for s in await run_in_threadpool(runtime.seats.of_game, game_id)}.get(seat)
            await run_in_threadpool(runtime.tables.set_seat, game_id, seat, HUMAN, None, None)
            runtime.forget_token(old.token_hash if old else None)
    return out


@router.post(
    "/host/clock/extend",
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
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
    response_model=TableResult,
    responses=WRITES,
    dependencies=ACTS,
    openapi_extra=HOST,
)
async def cancel(game_id: GameId, body: TableCommand, runtime: RuntimeDep, _: HostCaller) -> TableResult:
    """Cancel the game (ASYNC-8): nobody acts any more; its log stays."""
    return await _record(runtime, game_id, {"type": "Cancel"}, rules.cancel_batch(), body, "host")
