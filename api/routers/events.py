"""The event log of a game: pages of past events, and the live stream (Server-Sent Events)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api import play
from api.contract import errors
from api.deps import GameId, OptionalSeat, RuntimeDep, StreamSeat
from api.i18n import locale_of
from api.schemas import MAX_VERSION, EventItem, EventsPage
from api.stream import game_stream, held_stream

router = APIRouter(prefix="/games/{game_id}", tags=["events"])


@router.get(
    "/events",
    operation_id="listEvents",
    response_model=EventsPage,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def events(
    game_id: GameId,
    request: Request,
    runtime: RuntimeDep,
    seat: OptionalSeat,
    after: Annotated[int, Query(ge=0, le=MAX_VERSION, description="Events after this version.")] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EventsPage:
    """The event log after `after`, redacted for the caller (everything is public once the game ends)."""
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    stored = await run_in_threadpool(runtime.store.events, game_id, after, limit) if after < version else []
    items = [
        EventItem(
            **play.event_item(
                s.version,
                s.event,
                state.finished,
                None if seat is None else seat.seat,
                play.names_of(state),
                locale_of(request),
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


def _last_event_id(header: str, after: int | None, head: int) -> int:
    """The version to resume after: Last-Event-ID (digits only, by its schema), else `after`, else the
    game's head (a new stream follows what comes next; the past is read from /events, a page at a time,
    or replayed on the stream with `after=0`)."""
    if header.strip():
        return int(header)
    return head if after is None else after


@router.get(
    "/stream",
    operation_id="streamEvents",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {}},
            "description": "One SSE message per event; id = version.",
        },
        204: {"description": "The game has ended and the client has every event: stop reconnecting."},
        **errors(401, 403, 404, 422, 429),
    },
    openapi_extra={"x-seat-token": "optional"},
)
async def stream(
    game_id: GameId,
    request: Request,
    runtime: RuntimeDep,
    seat: StreamSeat,
    last_event_id: Annotated[
        str,
        Header(pattern=r"^\s*[0-9]{0,18}\s*$", description="The version of the last event received."),
    ] = "",
    after: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_VERSION,
            description="Like Last-Event-ID, for a first connection: the events after this version "
            "(0: from the first). Without either the stream starts at the game's head.",
        ),
    ] = None,
) -> Response:
    """Live events (SSE) as the caller may see them, each once and in order; resume with Last-Event-ID.
    A new stream without Last-Event-ID starts at the game's head (what happens next); `after=N` replays
    from version N first (`after=0`: the whole log, a page at a time). A client may hold a few streams at
    once (429 `too-many-streams` beyond; docs/operations.md, "Limits"). A browser's EventSource cannot send an
    Authorization header: it may pass the seat token as the `access_token` query parameter instead
    (accepted on this route only, and scrubbed from the logs)."""
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    last = _last_event_id(last_event_id, after, version)
    if state.finished and last >= version:
        return Response(status_code=204)
    runtime.bots.kick(game_id)
    content = game_stream(runtime, game_id, last, None if seat is None else seat.seat, locale_of(request))
    return held_stream(runtime, request, content)
