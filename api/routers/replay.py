"""Replays: the board at any version, forks, export, import and verification (hidden-info rules apply)."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Path, Query, Request, Response, status
from starlette.concurrency import run_in_threadpool

from api import boards, limits
from api.contract import errors
from api.deps import GameId, OptionalSeat, RuntimeDep
from api.problems import ApiError
from api.schemas import MAX_VERSION, BoardView, Deal, ForkGame, GameCreated, VerifyReport
from api.seating import Seating, deal_of, person_seats
from api.seats import KNOWN, SECRET
from domain.catalog.loader import ALIASES, editions
from projections.views import Viewer, viewer_for

router = APIRouter(prefix="/games/{game_id}", tags=["replay"])
# The editions this build can re-adjudicate under: its names of the current one, every shipped folder and id.
EDITIONS = sorted({*ALIASES, *editions(), *editions().values()})


@router.get(
    "/at/{version}",
    operation_id="getBoardAt",
    response_model=BoardView,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def board_at(
    game_id: GameId,
    version: Annotated[
        int,
        Path(ge=1, le=MAX_VERSION, description="A version of the game: 1 (its first event) to its head."),
    ],
    runtime: RuntimeDep,
    seat: OptionalSeat,
    as_seat: Annotated[int | None, Query(ge=0, le=3, description="Once the game has ended only.")] = None,
) -> Response:
    """The board after `version` events: the caller's view while the game runs; the full view once it
    has ended, or with `as_seat` what that seat could see at that moment."""
    current, _ = await run_in_threadpool(runtime.store.current, game_id)
    state = await run_in_threadpool(runtime.store.state_at, game_id, version)
    if as_seat is not None:
        if not current.finished:
            raise ApiError(403, "game-not-finished", "as_seat is open only once the game has ended")
        if as_seat >= len(state.players):
            raise ApiError(
                422,
                "bad-seat",
                "the game has seats 0..{n_players}",
                params={"n_players": len(state.players) - 1},
            )
        viewer = Viewer(seat=as_seat)
    else:
        viewer = viewer_for(None if seat is None else seat.seat, current.finished)
    key = boards.cache_key(game_id, version, viewer)
    body = await runtime.views.get(key)
    if body is None:
        deal = await deal_of(runtime, game_id)
        body = await run_in_threadpool(boards.render, state, version, viewer, deal)
        if deal is not None:  # else perhaps not recorded yet (a game being created): do not keep it
            await runtime.views.put(key, body)
    return Response(body, media_type="application/json", headers={"ETag": f'"{version}-{viewer.cls}"'})


@router.post(
    "/fork",
    operation_id="forkGame",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreated,
    responses=errors(400, 401, 403, 404, 422, 429),
    openapi_extra={"x-seat-token": "optional"},
)
async def fork(
    game_id: GameId, body: ForkGame, request: Request, runtime: RuntimeDep, seat: OptionalSeat
) -> GameCreated:
    """Fork a new game from the first `at_version` events (an unfinished game's unseen cards, face-down
    library cards included, are re-dealt); the answer holds the new game's seat tokens."""
    source, _ = await run_in_threadpool(runtime.store.current, game_id)
    names = [(source.players[i].name, source.players[i].character) for i in person_seats(source)]
    if body.seats is not None and len(body.seats) != len(names):
        raise ApiError(
            422,
            "bad-seats",
            "the game has {n_names} seats, the request lists {n_seats}",
            params={"n_names": len(names), "n_seats": len(body.seats)},
        )
    bots = [None if body.seats is None else body.seats[i].bot for i in range(len(names))]
    actor = "api" if seat is None else f"seat {seat.seat} of {game_id}"
    client = await limits.admit(runtime, request, "fork")
    # An unfinished game's fork is re-dealt with a new secret seed; a finished one's deal is public.
    deal: Deal = KNOWN if source.finished else SECRET
    seating = Seating(client, "fork", deal, bots)
    new_id = await run_in_threadpool(runtime.store.fork, game_id, body.at_version, actor, seating.rows)
    state, version = await run_in_threadpool(runtime.store.current, new_id)
    runtime.bots.kick(new_id)
    return GameCreated(
        game_id=new_id, version=version, deal=deal, seats=seating.answer(runtime, new_id, state)
    )


@router.get(
    "/export",
    operation_id="exportGame",
    response_class=Response,
    responses={
        200: {
            "content": {"application/x-ndjson": {"schema": {"type": "string", "format": "binary"}}},
            "description": "docs/export.md",
        },
        **errors(401, 403, 404, 422),
    },
    openapi_extra={"x-seat-token": "optional"},
)
async def export(
    game_id: GameId,
    runtime: RuntimeDep,
    seat: OptionalSeat,
    chat: Annotated[
        bool,
        Query(description="Also the table chat, as `{\"chat\": ...}` lines after the events (CHAT-1; the "
              "importer skips them). Without it the file holds no chat."),
    ] = False,
) -> Response:
    """The game as a JSON Lines file, redacted for the caller until the game has ended."""
    data = await run_in_threadpool(runtime.store.export, game_id, None if seat is None else seat.seat)
    if chat:
        said = await run_in_threadpool(runtime.chat.all, game_id)
        data += b"".join(orjson.dumps({"chat": m.public()}) + b"\n" for m in said)
    return Response(
        data,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'},
    )


@router.get(
    "/verify",
    operation_id="verifyGame",
    response_model=VerifyReport,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def verify(
    game_id: GameId,
    runtime: RuntimeDep,
    seat: OptionalSeat,
    edition: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=100,
            description="Also re-adjudicate under this rules edition ('current', or a catalog edition id): "
            "`edition` in the answer gives the first divergence, as information (docs/editions.md).",
            json_schema_extra={"enum": EDITIONS},  # checked by the catalog (422 unknown-edition)
        ),
    ] = None,
) -> VerifyReport:
    """Verify the stored game: format, hash chain, re-adjudication by the rules, fair deal."""
    report = await run_in_threadpool(runtime.store.verify, game_id, edition)
    return VerifyReport.model_validate(report.to_dict())
