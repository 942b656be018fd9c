"""Games as a resource: create one, list them (the lobby), show one's board to the caller, import one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Header, Query, Request, Response, status
from starlette.concurrency import run_in_threadpool

from api import hooks, limits, play
from api.contract import errors
from api.deps import AnySeat, GameId, OptionalPresented, RuntimeDep, read_as, settled
from api.i18n import locale_of
from api.notify import check_form
from api.problems import ApiError, unauthorized
from api.runtime import Listing
from api.schemas import BoardView, CreateGame, Deal, GameCreated, Lobby, LobbyGame, LobbySeat, as_deal
from api.seating import Seating
from api.seats import CHOSEN_SEED, KNOWN, SECRET, Seat
from api.tables import TableRecord
from api.tokens import new_token, token_hash
from api.viewing import board_body, listing_at
from domain import GameState, IllegalMove, Options, SeatSpec, Setup
from domain.setup import characters
from projections.views import viewer_for
from replays.clock import ClockConfig, parse_duration
from replays.errors import ImportRejected

router = APIRouter(prefix="/games", tags=["games"])

IMPORT_MEDIA = "application/x-ndjson"
FILE = {"type": "string", "format": "binary"}  # an export file (docs/export.md): bytes, for generated clients
# A lobby cursor is the ID of the last game of the previous page (opaque to clients: docs/api.md).
CURSOR_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
IMPORT_MEDIA_TYPES = (IMPORT_MEDIA, "application/jsonl", "application/json-lines")


def _setup(body: CreateGame, secret: Callable[[], str]) -> tuple[Setup, list[str | None]]:
    """The setup `body` asks for; without a chosen seed, `secret()` draws the game's secret seed."""
    taken = {s.character for s in body.seats if s.character}
    free = [c for c in characters() if c not in taken]
    seats: list[SeatSpec] = []
    if len(body.seats) == 1 and "side" in body.seats[0].model_fields_set and body.seats[0].side == "basic":
        raise IllegalMove(
            "solo-ability-side",
            "in the solo game the person always plays the character's ability side (CN p.16): leave "
            "`side` out or give `ability`",
            "SOLO-26",
        )
    for i, spec in enumerate(body.seats):
        character = spec.character or (free.pop(0) if free else "")
        name = spec.name or (f"{spec.bot} bot {i + 1}" if spec.bot else f"Player {i + 1}")
        seats.append(SeatSpec(name=name, character=character, side=spec.side, aside=spec.aside))
    try:
        options = Options.from_json(body.options)
    except ValueError as error:
        raise ApiError(422, "invalid-options", str(error)) from None
    orders = None if body.tile_orders is None else tuple(tuple(o) for o in body.tile_orders)
    # Without a chosen seed the deal is secret: a random seed here, and `Games.create` draws a random
    # salt for the commitment (Setup.salt is None), so the seed cannot be checked against it either.
    setup = Setup(
        seats=tuple(seats),
        seed=body.seed or secret(),
        first_seat=body.first_seat,
        options=options,
        tile_orders=orders,
        difficulty=body.difficulty,
    )
    return setup, [s.bot for s in body.seats]


@router.post(
    "",
    operation_id="createGame",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreated,
    responses=errors(400, 403, 422, 429),
)
async def create_game(body: CreateGame, request: Request, runtime: RuntimeDep) -> GameCreated:
    """Create a game; the answer holds each person's secret seat token and the host token, shown this
    once only (and each webhook's signing secret)."""
    setup, bots = _setup(body, runtime.store.secret)
    table, host_token = table_rules(body, runtime.settings.takeback_timeout)
    deal: Deal = SECRET if body.seed is None else CHOSEN_SEED
    client = await limits.admit(runtime, request, "create")
    await hooks.check_creation(runtime, body)  # where each webhook leads, before anything is written
    # The seats, deal, creation record and table host record are stored with the game's first events.
    seating = Seating(client, "create", deal, bots, table)
    game_id, version = await run_in_threadpool(runtime.store.create, setup, "api", seating.rows)
    state, _ = await run_in_threadpool(runtime.store.current, game_id)
    seats = await hooks.register_at_creation(runtime, game_id, body, seating.answer(runtime, game_id, state))
    await play.after_create(runtime, game_id, version)
    return GameCreated(game_id=game_id, version=version, deal=deal, seats=seats, host_token=host_token)


def table_rules(body: CreateGame, default_takeback: str) -> tuple[TableRecord, str]:
    """The game's table (clock, take-back timeout, resignation policy) and a new host token, checked
    before anything is written (422 invalid-table)."""
    try:
        clock = None
        if body.clock is not None:
            clock = ClockConfig.from_json(body.clock.model_dump(exclude_none=True)).to_json()
        takeback = parse_duration(body.takeback_timeout or default_takeback, "takeback_timeout")
    except ValueError as error:
        raise ApiError(422, "invalid-table", str(error)) from None
    for spec in body.seats:
        problem = None if spec.webhook is None else check_form(spec.webhook)
        if spec.webhook is not None and spec.bot is not None:
            problem = "a bot seat has no webhook"
        if problem:
            raise hooks.refused(problem)
    host_token = new_token()
    seconds = max(1, int(takeback.total_seconds()))
    record = TableRecord("", token_hash(host_token), clock, seconds, body.on_resign, "greedy")
    return record, host_token


@router.get(
    "",
    operation_id="listGames",
    response_model=Lobby,
    responses=errors(401, 404, 422),
    openapi_extra={"x-seat-token": "optional"},
)
async def lobby(
    runtime: RuntimeDep,
    seat: AnySeat,
    status_: Annotated[Literal["active", "finished", "cancelled"] | None, Query(alias="status")] = None,
    mine: Annotated[bool, Query(description="Only the game of the presented seat token.")] = False,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[
        str | None,
        Query(pattern=CURSOR_PATTERN, description="The `next_cursor` of the previous page (opaque)."),
    ] = None,
) -> Lobby:
    """The lobby: games (newest first) with status, seats, whose turn, version and last move time, a
    page at a time (`next_cursor`)."""
    if mine and seat is None:
        raise unauthorized("token-required", "mine=true needs the seat token: 'Authorization: Bearer ...'")
    games = {seat.game_id} if mine and seat is not None else None
    after = None
    if cursor is not None:  # the last game of the previous page: the page after it (keyset pagination)
        last = await run_in_threadpool(runtime.lobby.entries, None, {cursor}, 1)
        if not last:
            raise ApiError(404, "cursor-not-found", "no game of the lobby has this cursor (use next_cursor)")
        after = (last[0].created_at, last[0].game_id)
    entries = await run_in_threadpool(runtime.lobby.entries, status_, games, limit, after)
    return Lobby(
        next_cursor=entries[-1].game_id if len(entries) == limit else None,
        games=[
            LobbyGame(
                game_id=e.game_id,
                status="finished"
                if e.status == "finished"
                else "cancelled"
                if e.status == "cancelled"
                else "active",
                seats=[
                    LobbySeat(
                        seat=s.seat,
                        name=s.name,
                        character=s.character,
                        side="ability" if s.side == "ability" else "basic",
                        bot=s.bot,
                    )
                    for s in e.seats
                ],
                to_act=e.to_act,
                version=e.version,
                created_at=e.created_at,
                last_move_at=e.last_move_at,
                deal=as_deal(e.deal),
                clock=e.clock,
                solo=e.solo,
                options=e.options or {},
            )
            for e in entries
        ],
    )


@router.post(
    "/import",
    operation_id="importGame",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreated,
    responses=errors(403, 415, 422, 429),
    openapi_extra={
        "requestBody": {"required": True, "content": {IMPORT_MEDIA: {"schema": FILE}}},
    },
)
async def import_game(request: Request, runtime: RuntimeDep) -> GameCreated:
    """Import an export file (JSON Lines, sent as `Content-Type: application/x-ndjson`: 415 otherwise)
    as a new game; seats of an unfinished game get new tokens. A file the store rejects counts against
    the client's caps all the same (docs/operations.md, "Limits")."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media not in IMPORT_MEDIA_TYPES:
        # A cross-site form can post only text/plain, form or multipart bodies without asking first
        # (CORS): requiring the export's own type keeps other sites from importing in a visitor's name.
        raise ApiError(
            415,
            "unsupported-media-type",
            "an import is sent as Content-Type: {IMPORT_MEDIA} (the export's type), not {media}",
            params={"IMPORT_MEDIA": IMPORT_MEDIA, "media": media or "none"},
        )
    data = await request.body()
    client = await limits.admit(runtime, request, "import", len(data))
    # A complete file holds the whole deal: whoever had it knows it. A finished game gets no seats.
    seating = Seating(client, "import", KNOWN)
    try:
        game_id = await run_in_threadpool(runtime.store.import_, data, seating.rows)
    except ImportRejected:
        await limits.rejected(runtime, client, "import", len(data))
        raise
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    return GameCreated(
        game_id=game_id, version=version, deal=KNOWN, seats=seating.answer(runtime, game_id, state)
    )


@router.get(
    "/{game_id}",
    operation_id="getBoard",
    response_model=BoardView,
    responses={
        304: {"description": "Not modified (If-None-Match matched the ETag)."},
        **errors(401, 403, 404, 422),
    },
    openapi_extra={"x-seat-token": "optional"},
)
async def board(
    game_id: GameId,
    request: Request,
    runtime: RuntimeDep,
    caller: OptionalPresented,
    include: Annotated[
        Literal["moves"] | None,
        Query(
            description="`moves`: the board and, in `moves`, the caller's legal moves at the same version"
            " (what `GET /games/{game_id}/moves` answers; null for a spectator): what a page draws, in one"
            " request."
        ),
    ] = None,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """The board as the caller may see it: a seat's view with its token, the spectator view without."""
    locale = locale_of(request) if include else "en"

    def read(seat: Seat | None) -> tuple[GameState, int, tuple[int | None, Listing | None] | None]:
        state, version = runtime.store.current(game_id)
        if include is None or seat is None:
            return state, version, None
        return state, version, listing_at(runtime, game_id, state, version, seat.seat, locale)

    # One worker-thread call: the token, the game and, when asked, the listing (api/deps.py, `read_as`).
    found, current = await run_in_threadpool(read_as, caller, read)
    seat = await settled(caller, found)
    assert current is not None  # read whenever the token opens a seat of this game (or there is none)
    state, version, listed = current
    runtime.bots.kick(game_id)  # a bot that has not moved yet (e.g. after a restart) moves now
    viewer = viewer_for(None if seat is None else seat.seat, state.finished)
    etag = f'"{version}-{viewer.cls}"' if include is None else f'"{version}-{viewer.cls}-moves-{locale}"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if include is not None:
        headers["Vary"] = "Accept-Language"  # the moves' words
    if if_none_match is not None and etag in [t.strip() for t in if_none_match.split(",")]:
        return Response(status_code=304, headers=headers)
    body = await board_body(runtime, game_id, state, version, viewer, seat, include is not None, listed)
    return Response(body, media_type="application/json", headers=headers)


