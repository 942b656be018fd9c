"""Claiming a seat for an account and recovering it on another device (ACCT-1, ACCT-2; docs/accounts.md).

Both are facts of the game's log (table batches: `SeatClaimed`, `SeatRecovered`) naming the account by its
pseudonym in the game. A claim needs both the seat's token (the link: proof of holding the seat) and the
session with its CSRF token; a recovery needs only the session of the account the seat is attached to.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool

from api import limits, play
from api.account_schemas import InviteIn, RecoveredSeat
from api.accounts import clean_name
from api.contract import errors
from api.deps import GameId, RuntimeDep
from api.problems import ApiError
from api.routers.table import HOST_ACTS, SEAT_ACTS, HostCaller, SeatCaller, SeatNumber, seat_rows
from api.runtime import Runtime
from api.schemas import EventItem, TableCommand, TableResult
from api.seats import RECOVERED
from api.service import SubmitResult
from api.sessions import WritingSession
from api.tokens import new_token
from replays.claims import claim_batch, invite_batch, recover_batch
from replays.errors import TableRefused
from replays.store import Rows
from replays.table import Build

router = APIRouter(prefix="/games/{game_id}", tags=["accounts"])

WRITES: dict[int | str, dict[str, Any]] = {
    **errors(401, 403, 404, 409, 422, 429),
}


async def session_acting(request: Request, runtime: RuntimeDep, _: WritingSession) -> None:
    """A session's table write counts against the client's command rate once the session is known."""
    await limits.rate(runtime, request, "command")


async def _record(
    runtime: Runtime,
    game_id: str,
    request: dict[str, Any],
    build: Build,
    command_id: str,
    seat: int | str,
    rows: Callable[[int], list[Rows]] | None = None,
) -> TableResult:
    result: SubmitResult = await run_in_threadpool(
        runtime.store.table, game_id, request, build, command_id, seat, None, rows
    )
    if not result.replayed and result.events:
        await play.after_write(runtime, game_id, result.version, result.events)
    first = result.version - len(result.events) + 1
    return TableResult(
        game_id=game_id,
        version=result.version,
        replayed=result.replayed,
        events=[
            EventItem(**play.event_item(first + i, e, False, seat if isinstance(seat, int) else None))
            for i, e in enumerate(result.events)
        ],
    )


@router.post(
    "/claim",
    operation_id="claimSeat",
    response_model=TableResult,
    responses=WRITES,
    dependencies=SEAT_ACTS,
    openapi_extra={"x-seat-token": "seat-and-session"},
)
async def claim_seat(
    game_id: GameId, body: TableCommand, runtime: RuntimeDep, seat: SeatCaller, session: WritingSession
) -> TableResult:
    """Attach your seat (the seat token's) to your signed-in account (ACCT-1), so that you find the game
    under My games and can open the seat on any device. Recorded in the game's log as `SeatClaimed`;
    claiming your own seat again records nothing."""
    holder = session.account.pseudonym(game_id)
    request = {"type": "ClaimSeat", "seat": seat.seat}
    # A claim whose account was deleted holds the seat no longer: the link's holder may claim it.
    released = await run_in_threadpool(runtime.accounts.claimant, game_id, seat.seat) is None
    result = await _record(
        runtime, game_id, request, claim_batch(seat.seat, holder, released), body.command_id, seat.seat
    )
    await run_in_threadpool(
        runtime.accounts.record_claim, game_id, seat.seat, session.account.account_id, runtime.clock()
    )
    return result


@router.post(
    "/host/seats/{seat}/invite",
    operation_id="inviteAccount",
    response_model=TableResult,
    responses=WRITES,
    dependencies=HOST_ACTS,
    openapi_extra={"x-seat-token": "host"},
)
async def invite(
    game_id: GameId, seat: SeatNumber, body: InviteIn, runtime: RuntimeDep, _: HostCaller
) -> TableResult:
    """Invite an account to a seat by its name (ACCT-7): the seat is attached to that account as by a
    claim, recorded in the game's log as `SeatInvited` (naming the account only by its pseudonym); the
    invitee finds the game under My games and opens the seat there (ACCT-2). 404 `no-such-account` for a
    name no account has, 409 `name-ambiguous` when several accounts have it, 409 `seat-claimed` for a
    seat attached to another account."""
    try:
        name = clean_name(body.name)
    except ValueError as error:
        raise ApiError(422, "invalid-name", str(error)) from None
    found = await run_in_threadpool(runtime.accounts.named, name)
    if not found:
        raise ApiError(
            404,
            "no-such-account",
            "no account is named {name}",
            params={"name": repr(name)},
            rule_id="ACCT-7",
        )
    if len(found) > 1:
        raise ApiError(409, "name-ambiguous", "several accounts are named {name}: ask the person to "
                       "claim the seat with its link instead", params={"name": repr(name)},
                       rule_id="ACCT-7")  # fmt: skip
    invitee = found[0]
    game = await run_in_threadpool(runtime.store.game, game_id)
    assert game.state is not None
    if seat not in await runtime.people(game_id, game) and seat < len(game.state.players):
        raise TableRefused("seat-not-a-person", f"seat {seat} is played by the server", "ACCT-7")
    holder = invitee.pseudonym(game_id)
    released = await run_in_threadpool(runtime.accounts.claimant, game_id, seat) is None
    request = {"type": "InviteAccount", "seat": seat}
    result = await _record(
        runtime, game_id, request, invite_batch(seat, holder, released), body.command_id, "host"
    )
    if result.events or game.claims.get(str(seat)) == holder:
        await run_in_threadpool(
            runtime.accounts.record_claim, game_id, seat, invitee.account_id, runtime.clock()
        )
    return result


@router.post(
    "/seats/{seat}/recover",
    operation_id="recoverSeat",
    response_model=RecoveredSeat,
    responses=WRITES,
    dependencies=[Depends(session_acting)],
    openapi_extra={"x-seat-token": "session"},
)
async def recover_seat(
    game_id: GameId, seat: SeatNumber, runtime: RuntimeDep, session: WritingSession
) -> RecoveredSeat:
    """Open a seat attached to your account on this device (ACCT-2): a new seat token for it, and the
    token before stops working. Recorded in the game's log as `SeatRecovered`."""
    holder = session.account.pseudonym(game_id)
    request = {"type": "RecoverSeat", "seat": seat}
    # Each recovery is a new fact (a new device): its command ID is drawn here, never a retry's.
    command_id = "recover:" + secrets.token_hex(12)
    token = new_token()
    # The new token and the old one's revocation are written with the event (ASYNC-9's way): every
    # process refuses the old token from that version on.
    rows = await seat_rows(runtime, game_id, seat, token, RECOVERED)
    result = await _record(runtime, game_id, request, recover_batch(seat, holder), command_id, seat, rows)
    runtime.bots.forget(game_id)
    link = f"{runtime.settings.public_url.rstrip('/')}/play/{game_id}#token={token}"
    return RecoveredSeat(game_id=game_id, seat=seat, version=result.version, token=token, link=link)
