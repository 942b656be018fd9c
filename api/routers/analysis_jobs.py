"""Game analysis as background jobs (replays/jobs.py, docs/analysis-api.md): ask for one, follow its
progress, read its result, cancel it.

Who may see what: anyone may analyse a finished game (everything is public once it has ended), as every
decision's acting seat could have seen it or as one seat could; a running game only from a seat's own view,
with that seat's token, so an analysis never uses nor shows what its reader could not see. A job of a
seat's view of a running game is readable only with that seat's token until the game ends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body, Path, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from api import limits
from api.contract import errors
from api.deps import GameId, OptionalSeat, RuntimeDep
from api.problems import ApiError, unauthorized
from api.runtime import Runtime
from api.schemas import AnalysisJob, AnalysisProgress, AnalysisRequest
from api.seats import Seat
from domain import GameState
from projections.describe import command_words
from replays.jobs import JobInfo, JobLimits, JobRefused, NotAsked, Task

logger = logging.getLogger(__name__)
T = TypeVar("T")
RETRY_SECONDS = 5
BUSY_RETRY_SECONDS = 30  # Retry-After of a full queue: an analysis takes seconds to minutes

router = APIRouter(prefix="/games/{game_id}/analysis", tags=["analysis"])

JobId = Annotated[
    str, Path(description="The analysis job's ID (from the Location of its POST).", max_length=64)
]
LOCATION = {"Location": {"description": "The job's resource.", "schema": {"type": "string"}}}


async def _queue(call: Callable[..., T], *args: Any) -> T:
    """A call to the job queue; 503 `analysis-unavailable` while its Redis cannot be reached (the game
    store and play are not affected)."""
    from redis.exceptions import RedisError

    try:
        return await run_in_threadpool(call, *args)
    except RedisError as error:
        logger.warning("analysis queue unreachable: %s", type(error).__name__)
        raise ApiError(
            503,
            "analysis-unavailable",
            "the analysis queue cannot be reached; retry shortly (nothing was queued)",
            headers={"Retry-After": str(RETRY_SECONDS)},
            retry_after=RETRY_SECONDS,
        ) from None


def job_url(game_id: str, job_id: str) -> str:
    return f"/games/{game_id}/analysis/{job_id}"


def _job(info: JobInfo) -> AnalysisJob:
    task = info.task
    return AnalysisJob(
        job_id=info.job_id,
        url=job_url(task.game_id, info.job_id),
        game_id=task.game_id,
        status=info.status,
        version=task.version,
        viewer=task.viewer,
        budget=task.budget,
        edition=task.edition,
        rules=task.rules,
        engine=task.engine,
        progress=AnalysisProgress(done=info.done, total=info.total),
        attempts=info.attempts,
        created_at=info.created_at,
        started_at=info.started_at,
        ended_at=info.ended_at,
        error=info.error,
        result=None if info.result is None else in_words(info.result),
    )


def in_words(result: Mapping[str, Any]) -> dict[str, Any]:
    """The analysis with each decision's move and best move also in words (`move_words`, `best_words`);
    a result without a list of decisions (a partial one) as it is."""
    decisions = result.get("decisions")
    if not isinstance(decisions, list):
        return dict(result)
    worded = [
        {
            **d,
            "move_words": command_words(str(d.get("move", ""))),
            "best_words": command_words(str(d.get("best", ""))),
        }
        if isinstance(d, Mapping)
        else d
        for d in decisions
    ]
    return {**result, "decisions": worded}


def _viewer(state: GameState, seat: Seat | None, wanted: int | None) -> int | None:
    """The viewer of an analysis the caller may ask for (raises the refusal otherwise)."""
    if state.finished:
        if wanted is not None and wanted >= len(state.players):
            raise ApiError(
                422,
                "bad-seat",
                "the game has seats 0..{n_players}",
                params={"n_players": len(state.players) - 1},
            )
        return wanted
    if seat is None:
        raise unauthorized(
            "token-required",
            "a running game is analysed only from a seat's own view: send that seat's token "
            "('Authorization: Bearer ...')",
        )
    if wanted is not None and wanted != seat.seat:
        raise ApiError(
            403, "not-your-view", "a seat may analyse a running game only from its own view (its seat)"
        )
    return seat.seat


def _task(
    runtime: Runtime, game_id: str, state: GameState, version: int, budget: str | None, viewer: int | None
) -> Task:
    analyser = runtime.analyses.analyser
    level = budget or analyser.default_budget
    if level not in analyser.budgets:
        raise ApiError(
            422,
            "unknown-budget",
            "the budget is one of {budgets}",
            budgets=list(analyser.budgets),
            params={"budgets": ", ".join(analyser.budgets)},
        )
    return Task(
        game_id=game_id,
        version=version,
        edition=state.catalog_edition,
        rules=state.engine_version,
        budget=level,
        viewer=viewer,
        engine=analyser.version,
    )


async def _readable(runtime: Runtime, game_id: str, job_id: str, seat: Seat | None) -> JobInfo:
    """The job, if it is this game's and the caller may read it."""
    info = await _queue(runtime.analyses.get, job_id)
    if info is None or info.task.game_id != game_id:
        raise ApiError(404, "analysis-not-found", "this game has no analysis job with this ID")
    if info.task.viewer is not None:
        state, _ = await run_in_threadpool(runtime.store.current, game_id)
        if not state.finished:  # one seat's view of a running game: that seat's only
            if seat is None:
                raise unauthorized("token-required", "this analysis is a seat's view: send that seat's token")
            if seat.seat != info.task.viewer:
                raise ApiError(403, "not-your-analysis", "this analysis is another seat's view of the game")
    return info


def _answer(info: JobInfo, created: bool) -> Response:
    status = 200 if info.status == "finished" and not created else 202
    body = _job(info).model_dump_json()
    return Response(
        body,
        status_code=status,
        media_type="application/json",
        headers={"Location": job_url(info.task.game_id, info.job_id)},
    )


@router.post(
    "",
    operation_id="requestAnalysis",
    status_code=202,
    response_model=AnalysisJob,
    responses={
        202: {
            "description": "A job was queued (or one for the same analysis is under way).",
            "headers": LOCATION,
        },
        200: {
            "description": "The same analysis had been done: its finished job, with the result.",
            "model": AnalysisJob,
            "headers": LOCATION,
        },
        **errors(401, 403, 404, 422, 429),
    },
    openapi_extra={"x-seat-token": "optional"},
)
async def request_analysis(
    game_id: GameId,
    http: Request,
    runtime: RuntimeDep,
    seat: OptionalSeat,
    body: Annotated[AnalysisRequest | None, Body()] = None,
) -> Response:
    """Analyse the game as it stands (its head version): every decision's evaluation (win probability
    and expected margin) before and after the move played, the best alternative, mistakes, accuracy per
    seat. Answers at once with the job (`Location`); poll it. The same analysis asked again (same game,
    version, rules edition, budget, viewer, engine) is the same job, and its result is cached. A running
    game needs a seat's token and is analysed from that seat's view only; a finished one is open to all."""
    request = body or AnalysisRequest(budget=None, viewer=None)
    client = await limits.rate(runtime, http, "analysis")
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    viewer = _viewer(state, seat, request.viewer)
    task = _task(runtime, game_id, state, version, request.budget, viewer)
    settings = runtime.settings
    bounds = JobLimits(per_asker=settings.analysis_per_client, queued=settings.analysis_queue_limit)
    try:
        info, created = await _queue(runtime.analyses.submit, task, client, bounds)
    except JobRefused as refused:
        raise _refusal(refused) from None
    return _answer(info, created)


def _refusal(refused: JobRefused) -> ApiError:
    """429 when this client has its share of analyses under way, 503 when the queue is full."""
    headers = {"Retry-After": str(BUSY_RETRY_SECONDS)}
    if refused.scope == "client":
        return ApiError(
            429,
            "analysis-limit",
            "this client has {limit} analyses queued or running, the most one client may have; wait for"
            " one to end (or cancel one)",
            headers=headers,
            retry_after=BUSY_RETRY_SECONDS,
            limit=refused.limit,
            params={"limit": refused.limit},
        )
    return ApiError(
        503,
        "analysis-busy",
        "the analysis queue is full ({limit} analyses queued or running); retry later (nothing was queued)",
        headers=headers,
        retry_after=BUSY_RETRY_SECONDS,
        limit=refused.limit,
        params={"limit": refused.limit},
    )


@router.get(
    "",
    operation_id="getCurrentAnalysis",
    response_model=AnalysisJob,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def current_analysis(
    game_id: GameId,
    runtime: RuntimeDep,
    seat: OptionalSeat,
    budget: Annotated[
        str | None, Query(max_length=32, description="As in the POST (default normal).")
    ] = None,
    viewer: Annotated[int | None, Query(ge=0, le=3, description="As in the POST.")] = None,
) -> AnalysisJob:
    """The analysis of the game as it stands, as the POST with the same options would give it: its
    progress, then its result. 404 `analysis-not-found` until one is asked for (or after the game moved
    on: POST again)."""
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    task = _task(runtime, game_id, state, version, budget, _viewer(state, seat, viewer))
    info = await _queue(runtime.analyses.find, task)
    if info is None:
        raise ApiError(
            404, "analysis-not-found", "no analysis of the game as it stands with these options: POST one"
        )
    return _job(info)


@router.get(
    "/{job_id}",
    operation_id="getAnalysisJob",
    response_model=AnalysisJob,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def analysis_job(
    game_id: GameId, job_id: JobId, runtime: RuntimeDep, seat: OptionalSeat
) -> AnalysisJob:
    """One analysis job: its progress, then its result (`status: finished`). A seat's view of a running
    game needs that seat's token."""
    return _job(await _readable(runtime, game_id, job_id, seat))


@router.delete(
    "/{job_id}",
    operation_id="cancelAnalysis",
    response_model=AnalysisJob,
    responses=errors(401, 403, 404, 422, 429),
    openapi_extra={"x-seat-token": "optional"},
)
async def cancel_analysis(
    game_id: GameId, job_id: JobId, http: Request, runtime: RuntimeDep, seat: OptionalSeat
) -> AnalysisJob:
    """Cancel a queued or running job: a queued one at once (`cancelled`), a running one at its next
    decision (`cancelling`, then `cancelled`); a finished one is left as it is. Whoever may read a job
    may withdraw it; the same analysis asked by several clients is one job, cancelled once none of them
    still wants it (403 `not-your-analysis` for a client that did not ask); ask again to restart it."""
    client = await limits.rate(runtime, http, "analysis")
    await _readable(runtime, game_id, job_id, seat)
    try:
        info = await _queue(runtime.analyses.cancel, job_id, client)
    except NotAsked:
        raise ApiError(
            403, "not-your-analysis", "only a client that asked for this analysis may cancel it"
        ) from None
    if info is None:
        raise ApiError(404, "analysis-not-found", "this game has no analysis job with this ID")
    return _job(info)
