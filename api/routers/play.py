"""Playing: the caller's legal moves and submitting a command."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from api import limits, play
from api.clocks import may_act
from api.contract import errors
from api.deps import CommandSeat, GameId, RequiredPresented, RuntimeDep, read_as
from api.i18n import locale_of
from api.problems import ApiError
from api.runtime import Runtime
from api.schemas import CommandResult, MovesOut, SubmitCommand
from api.seats import HUMAN
from api.viewing import listing_now, moves_body, seat_board, seat_read
from domain import command_from_dict
from replays.clock import ClockConfig
from replays.errors import TableRefused
from replays.store import Game

router = APIRouter(prefix="/games/{game_id}", tags=["play"])


@router.get(
    "/moves",
    operation_id="listMoves",
    response_model=MovesOut,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "required"},
)
async def moves(
    game_id: GameId, request: Request, runtime: RuntimeDep, caller: RequiredPresented
) -> Response:
    """The caller's legal moves now, each a complete command to post back unchanged (empty when it is
    not the caller's turn)."""
    # One worker-thread call: the token, the game, the listing (api/deps.py, `read_as`).
    locale = locale_of(request)
    found, read = await run_in_threadpool(read_as, caller, lambda s: listing_now(runtime, game_id, s, locale))
    seat = await caller.settle(found)
    assert read is not None  # read whenever the token opens a seat of this game
    version, to_act, listing = read
    runtime.bots.kick(game_id)
    return Response(
        orjson.dumps(moves_body(game_id, version, seat.seat, to_act, listing)), media_type="application/json"
    )


@router.post(
    "/commands",
    operation_id="submitCommand",
    response_model=CommandResult,
    openapi_extra={"x-seat-token": "required"},
    responses={
        **errors(400, 404, 429),
        401: {"description": "No valid seat token."},
        403: {"description": "The seat may not act now, or the command is for another seat."},
        409: {
            "description": "Stale `expected_version` (the body has `current_version`), or the seat's time"
            " ran out before the command was received (`time-expired`, ASYNC-1)."
        },
        422: {"description": "Illegal move (the body has `reason` and `rule_id`) or malformed command."},
    },
)
async def submit(
    game_id: GameId,
    body: SubmitCommand,
    request: Request,
    caller: CommandSeat,
    include: Annotated[
        Literal["board"] | None,
        Query(
            description="`board`: the answer also holds, in `board`, the seat's board view and legal moves"
            " after the command (as `GET /games/{game_id}?include=moves` answers then): the next decision"
            " without another request."
        ),
    ] = None,
) -> Response:
    """Submit a command at the version the caller saw; a retry with the same command ID is safe."""
    assert caller is not None  # None only for a game ID the route refuses, and then it does not run
    runtime: Runtime = request.app.state.runtime
    seat = caller
    received = runtime.clock()  # ASYNC-1: a command is judged by the time it was received
    await limits.rate(runtime, request, "command")
    try:
        command = command_from_dict(body.command)
    except ValueError as error:
        raise ApiError(422, "malformed-command", str(error)) from None
    if command.seat != seat.seat:
        raise ApiError(
            403,
            "wrong-seat",
            "this token is seat {seat}'s, the command is for seat {seat2}",
            params={"seat": seat.seat, "seat2": command.seat},
        )
    check = await guard(runtime, game_id, seat.seat, body.expected_version, received, now=False)
    locale = locale_of(request)
    # With `include=board` the board is read in the command's own worker-thread call, right after it.
    then = None if include is None else functools.partial(seat_read, runtime, game_id, seat, locale)
    try:
        result, batch, read = await play.submit_then(
            runtime,
            game_id,
            seat.seat,
            command,
            body.expected_version,
            body.command_id,
            HUMAN,
            received,
            check,
            then,
        )
    except TableRefused as refused:
        await expired(runtime, game_id, received, refused)
        raise
    if batch is not None:  # what was just published: the seat sees the same unless a field is its own
        items = play.seat_items(batch, result.events, seat.seat)
    else:  # a replayed command ID: the events as the seat may see them now
        finished = play.ends_game(result.events)
        if not finished:
            if read is not None:
                finished = read[0].finished
            else:
                finished = (await run_in_threadpool(runtime.store.current, game_id))[0].finished
        first = result.version - len(result.events) + 1
        items = [play.event_item(first + i, e, finished, seat.seat) for i, e in enumerate(result.events)]
    # Encoded here in `CommandResult`'s shape (`EventItem`'s field order), as `moves` is.
    extra = {"actor": result.actor, "received_at": result.received_at}
    answer = {
        "game_id": game_id,
        "version": result.version,
        "replayed": result.replayed,
        "events": [{**item, **extra} for item in play.localised(items, locale)],
    }
    encoded = orjson.dumps(answer)
    if include is not None:  # the answer's object with one more member: the board after the command
        board = await seat_board(runtime, game_id, seat, locale, read)
        encoded = encoded[:-1] + b',"board":' + board + b"}"
    return Response(encoded, media_type="application/json")


async def guard(
    runtime: Runtime,
    game_id: str,
    seat: int,
    expected_version: int | None = None,
    received: datetime | None = None,
    now: bool = True,
) -> Callable[[Game, datetime], None]:
    """The check a person's request passes (`clocks.may_act`: received before the seat's deadline,
    ASYNC-1, and the seat still theirs, ASYNC-3). With `now` it is run at once against the game as it
    is (a table request); a command passes it as it is written. A request that came too late records
    the expiry at once (no grace)."""
    received = runtime.clock() if received is None else received
    record = await runtime.table_of(game_id)
    config = None if record is None or record.clock is None else ClockConfig.from_json(record.clock)
    game = await run_in_threadpool(runtime.store.game, game_id) if now or expected_version is None else None
    version = expected_version if expected_version is not None else game.version if game else 0
    check = may_act(config, seat, version)
    if game is not None:
        try:
            check(game, received)
        except TableRefused as refused:
            await expired(runtime, game_id, received, refused)
            raise
    return check


async def expired(runtime: Runtime, game_id: str, received: datetime, refused: TableRefused) -> None:
    """ASYNC-1: a request refused as too late records the seat's expiry at once (no grace)."""
    if refused.code == "time-expired":
        await runtime.scheduler.check(game_id, received, grace=timedelta(0))
