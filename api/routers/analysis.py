"""Read models for analysts: statistics across games and the score timeline of one game (projections/)."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Header, Query, Response
from starlette.concurrency import run_in_threadpool

from api.contract import errors
from api.deps import GameId, RuntimeDep
from api.negotiation import SVG, prefers
from api.problems import ApiError
from api.schemas import Stats, StatsFilters, Timeline
from domain.events import GameEnded
from projections.stats import Filters
from projections.svg import render_timeline
from projections.timeline import public_events, timeline

router = APIRouter(tags=["analysis"])

JSON = "application/json"


@router.get("/stats", operation_id="getStats", response_model=Stats, responses=errors(422))
async def stats(runtime: RuntimeDep, query: Annotated[StatsFilters, Query()]) -> Response:
    """Statistics across finished games, filtered by players, Luna, seats, edition and forks."""
    try:
        filters = Filters(**query.model_dump())
    except ValueError as error:
        raise ApiError(422, "invalid-filters", str(error)) from None
    body = await run_in_threadpool(runtime.stats.compute, filters)
    return Response(orjson.dumps(body), media_type=JSON)


@router.get(
    "/games/{game_id}/timeline",
    operation_id="getTimeline",
    response_model=Timeline,
    responses={
        200: {
            "content": {SVG: {"schema": {"type": "string"}}},
            "description": "JSON (docs/projections.md), or the SVG chart if Accept prefers image/svg+xml.",
        },
        **errors(404, 422),
    },
)
async def game_timeline(
    game_id: GameId, runtime: RuntimeDep, accept: Annotated[str | None, Header()] = None
) -> Response:
    """Each seat's score after every turn and points by source: JSON, or SVG if Accept prefers it."""
    stored = await run_in_threadpool(runtime.store.events, game_id, 0, None)
    events = [s.event for s in stored]
    finished = isinstance(events[-1], GameEnded)
    # Built from public facts only; emptying the secret fields first keeps it so whatever it reads.
    data = await run_in_threadpool(timeline, events if finished else public_events(events))
    headers = {"Vary": "Accept", "Cache-Control": "no-cache"}
    if prefers(accept, SVG, JSON):
        names = ", ".join(s["name"] for s in data["seats"])
        title = f"{names}: {'final' if finished else 'so far, turn ' + str(data['turns'])}"
        return Response(render_timeline(data, title), media_type=SVG, headers=headers)
    return Response(orjson.dumps(data), media_type=JSON, headers=headers)
