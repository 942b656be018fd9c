"""The event log of a game: pages of past events, and the live stream (Server-Sent Events)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api import play
from api.contract import errors
from api.deps import GameId, OptionalSeat, RuntimeDep, StreamSeat
from api.schemas import EventItem, EventsPage
from api.stream import game_stream

router = APIRouter(prefix="/games/{game_id}", tags=["events"])


@router.get(
    "/events",
    response_model=EventsPage,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def events(
    game_id: GameId,
    runtime: RuntimeDep,
    seat: OptionalSeat,
    after: Annotated[int, Query(ge=0, description="Events after this version.")] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EventsPage:
    """The event log after `after`, redacted for the caller (everything is public once the game ends)."""
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    stored = await run_in_threadpool(runtime.store.events, game_id, after, limit) if after < version else []
    items = [
        EventItem(
            **play.event_item(
                s.version, s.event, state.finished, None if seat is None else seat.seat, play.names_of(state)
            ),
            actor=s.metadata.get("actor"),
            received_at=s.metadata.get("received_at"),
        )
        for s in stored
    ]
    last = items[-1].version if items else after
    return EventsPage(
        game_id=game_id,
        version=version,
        after=after,
        events=items,
        next_after=last if last < version else None,
    )


def _last_event_id(header: str, after: int | None) -> int:
    """The version to resume after: Last-Event-ID (digits only, by its schema), else `after`, else 0."""
    if header.strip():
        return int(header)
    return 0 if after is None else after


@router.get(
    "/stream",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {}},
            "description": "One SSE message per event; id = version.",
        },
        204: {"description": "The game has ended and the client has every event: stop reconnecting."},
        **errors(401, 403, 404, 422),
    },
    openapi_extra={"x-seat-token": "optional"},
)
async def stream(
    game_id: GameId,
    runtime: RuntimeDep,
    seat: StreamSeat,
    last_event_id: Annotated[
        str,
        Header(pattern=r"^\s*[0-9]{0,18}\s*$", description="The version of the last event received."),
    ] = "",
    after: Annotated[
        int | None, Query(ge=0, description="Like Last-Event-ID, for a first connection.")
    ] = None,
) -> Response:
    """Live events (SSE) as the caller may see them, each once and in order; resume with Last-Event-ID.
    A browser's EventSource cannot send an Authorization header: it may pass the seat token as the
    `access_token` query parameter instead (accepted on this route only, and scrubbed from the logs)."""
    last = _last_event_id(last_event_id, after)
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    if state.finished and last >= version:
        return Response(status_code=204)
    runtime.bots.kick(game_id)
    return StreamingResponse(
        game_stream(runtime, game_id, last, None if seat is None else seat.seat),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
