"""Async tournaments (docs/tournaments.md, TOUR-n): create, enter, start, withdraw, standings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Response, status
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api import play
from api.contract import errors
from api.deps import RuntimeDep
from api.negotiation import prefers
from api.problems import ApiError
from api.routers.pages import STATIC
from api.runtime import Runtime
from api.schemas import ClockRequest
from api.sessions import OptionalSession, WritingSession
from api.tournaments import TournamentRefused
from rulebook import rule_url

VARY = {"Vary": "Accept"}

router = APIRouter(prefix="/tournaments", tags=["tournaments"])

TournamentId = Annotated[str, Path(max_length=40, description="The tournament's ID (`tour_...`).")]
SESSION = {"x-seat-token": "session"}


class CreateTournament(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    format: Literal["swiss", "round-robin"] = Field(description="Swiss, or round robin (TOUR-3).")
    seats: int = Field(ge=2, le=4, description="Seats at each table (2 to 4).")
    rounds: int | None = Field(None, ge=1, le=20, description="Swiss: the number of rounds.")
    clock: ClockRequest = Field(description="Required (TOUR-1); a timeout forfeits the seat (TOUR-4).")


def _refused(error: TournamentRefused) -> ApiError:
    return ApiError(
        error.status,
        error.code,
        error.message,
        rule_id=error.rule,
        rule_url=rule_url(error.rule),
        **error.extra,
    )


async def _call(runtime: Runtime, fn: Any, *args: Any) -> Any:
    try:
        return await run_in_threadpool(fn, *args)
    except TournamentRefused as error:
        raise _refused(error) from None


async def started(runtime: Runtime, game_ids: list[str]) -> None:
    """New games' first notifications and clock deadlines (as after POST /games)."""
    for game_id in game_ids:
        _, version = await run_in_threadpool(runtime.store.current, game_id)
        await play.after_create(runtime, game_id, version)


async def advance(runtime: Runtime, tournament_id: str) -> None:
    await started(runtime, await _call(runtime, runtime.tournaments.advance, tournament_id))


@router.post(
    "",
    operation_id="createTournament",
    status_code=status.HTTP_201_CREATED,
    responses=errors(401, 403, 422),
    openapi_extra=SESSION,
)
async def create(body: CreateTournament, runtime: RuntimeDep, session: WritingSession) -> dict[str, Any]:
    """Create a tournament you host (TOUR-1); people enter with their accounts until you start it."""
    clock = body.clock.model_dump(exclude_none=True)
    t = await _call(
        runtime,
        runtime.tournaments.create,
        session.account,
        body.name,
        body.format,
        body.seats,
        body.rounds,
        clock,
    )
    view: dict[str, Any] = await _call(runtime, runtime.tournaments.view, t.tournament_id)
    return view


@router.get(
    "",
    operation_id="listTournaments",
    responses={200: {"content": {"text/html": {}}}, **errors(422)},
)
async def listing(
    runtime: RuntimeDep,
    response: Response,
    session: OptionalSession,
    status: Annotated[
        Literal["entry", "running", "finished"] | None,
        Query(description="Only these: `entry` (open for entries), `running` or `finished`."),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200, description="At most this many, newest first.")] = 50,
    accept: Annotated[str | None, Header()] = None,
) -> Any:
    """The newest tournaments: name, format, seats a table, rounds, the current round, status, clock
    and the number of entrants; signed in, `you` says whether you host it, entered it, withdrew (else
    null). HTML (the tournaments page: the list, a form to create one, enter and withdraw) for a
    browser (`Accept: text/html`)."""
    if prefers(accept, "text/html", "application/json"):
        return FileResponse(STATIC / "tournaments.html", headers=VARY)
    response.headers["Vary"] = "Accept, Cookie"
    response.headers["Cache-Control"] = "private, no-store"  # `you` is the reader's
    account_id = session.account.account_id if session is not None else None
    items = await run_in_threadpool(runtime.tournaments.listing, status, account_id, limit)
    return {"tournaments": items}


@router.get(
    "/{tournament_id}",
    operation_id="getTournament",
    responses={200: {"content": {"text/html": {}}}, **errors(404, 422)},
)
async def get(
    tournament_id: TournamentId,
    runtime: RuntimeDep,
    response: Response,
    accept: Annotated[str | None, Header()] = None,
) -> Any:
    """The tournament: entrants, each round's tables and games, byes, and the standings with their
    tie-breaks (TOUR-5). Reading it also starts the next round when every game of this one has ended.
    HTML (the tournament page) for a browser (`Accept: text/html`)."""
    if prefers(accept, "text/html", "application/json"):
        return FileResponse(STATIC / "tournament.html", headers=VARY)  # one URL, two forms: caches keep both
    response.headers["Vary"] = "Accept"
    await advance(runtime, tournament_id)
    view: dict[str, Any] = await _call(runtime, runtime.tournaments.view, tournament_id)
    return view


@router.post(
    "/{tournament_id}/entries",
    operation_id="enterTournament",
    responses=errors(401, 403, 404, 409, 422),
    openapi_extra=SESSION,
)
async def enter(tournament_id: TournamentId, runtime: RuntimeDep, session: WritingSession) -> dict[str, Any]:
    """Enter with your account (once; until the tournament starts: 409 `tournament-started`)."""
    await _call(runtime, runtime.tournaments.enter, tournament_id, session.account)
    view: dict[str, Any] = await _call(runtime, runtime.tournaments.view, tournament_id)
    return view


@router.post(
    "/{tournament_id}/start",
    operation_id="startTournament",
    responses=errors(401, 403, 404, 409, 422),
    openapi_extra=SESSION,
)
async def start(tournament_id: TournamentId, runtime: RuntimeDep, session: WritingSession) -> dict[str, Any]:
    """The host starts it: the first round is paired and its games created, each seat claimed by its
    entrant's account (find them under My games). Too few entrants: 422 `too-few-entrants` (TOUR-2)."""
    await started(runtime, await _call(runtime, runtime.tournaments.start, tournament_id, session.account))
    view: dict[str, Any] = await _call(runtime, runtime.tournaments.view, tournament_id)
    return view


@router.post(
    "/{tournament_id}/withdraw",
    operation_id="withdrawFromTournament",
    responses=errors(401, 403, 404, 409, 422),
    openapi_extra=SESSION,
)
async def withdraw(
    tournament_id: TournamentId, runtime: RuntimeDep, session: WritingSession
) -> dict[str, Any]:
    """Withdraw (TOUR-6): a game of yours still running is resigned for you (a forfeit: last at its
    table); you are not paired again; your finished games stand."""
    resigned = await _call(runtime, runtime.tournaments.withdraw, tournament_id, session.account)
    for game_id in resigned:
        _, version = await run_in_threadpool(runtime.store.current, game_id)
        await play.after_write(runtime, game_id, version, [])
    await advance(runtime, tournament_id)
    view: dict[str, Any] = await _call(runtime, runtime.tournaments.view, tournament_id)
    return view
