"""What a seat's page reads (issue 28): its board view, cached per (game, version, viewer class), and
its legal moves, computed once per (game, version, seat, language). `GET /games/{id}?include=moves`
gives both at one version; `POST /commands?include=board` gives them after the move."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
from starlette.concurrency import run_in_threadpool

from api import boards
from api.clocks import view_of
from api.runtime import Listing, Runtime
from api.seating import deal_of
from api.seats import Seat
from domain import GameState, command_to_dict, legal_moves, public_state
from projections.describe import Context, default_context, describe_command
from projections.preview import believed_positions, preview
from projections.views import Viewer, viewer_for
from replays.clock import ClockConfig


async def board_body(
    runtime: Runtime,
    game_id: str,
    state: GameState,
    version: int,
    viewer: Viewer,
    seat: Seat | None,
    with_moves: bool = False,
    listed: tuple[int | None, Listing | None] | None = None,
) -> bytes:
    """The board view of `state` (the game's `version`) as `viewer` sees it, as JSON bytes; with
    `with_moves`, one more member `moves`: `seat`'s listing `listed` (`listing_at`), null for a
    spectator."""
    key = boards.cache_key(game_id, version, viewer)
    body = await runtime.views.get(key)
    if body is None:
        deal = await deal_of(runtime, game_id)
        clock, same = await clock_of(runtime, game_id, version)
        # Rendered here, not in a worker thread: a view is a few tens of microseconds of pure work, less
        # than the thread hop would cost (issue 28).
        body = boards.render(state, version, viewer, deal, clock)
        if deal is not None and same:  # else perhaps not recorded yet (a game being created), or the
            await runtime.views.put(key, body)  # game moved on meanwhile: do not keep it
    if not with_moves:
        return body
    # The view's object with one more member (its bytes are kept as they are).
    moves = None if seat is None or listed is None else moves_body(game_id, version, seat.seat, *listed)
    return body[:-1] + b',"moves":' + orjson.dumps(moves) + b"}"


async def seat_board(
    runtime: Runtime, game_id: str, seat: Seat, locale: str = "en", read: SeatRead | None = None
) -> bytes:
    """The seat's board with its moves now, as `GET /games/{id}?include=moves` answers the seat: what a
    command's answer carries with `include=board`, so the page draws the next decision at once. `read`:
    `seat_read`'s answer when the caller made it already (in the command's own worker-thread call)."""
    if read is None:
        read = await run_in_threadpool(seat_read, runtime, game_id, seat, locale)
    state, version, listed = read
    viewer = viewer_for(seat.seat, state.finished)
    return await board_body(runtime, game_id, state, version, viewer, seat, True, listed)


# A seat's game now: its state, its version and the seat's listing (`listing_at`).
SeatRead = tuple[GameState, int, tuple[int | None, Listing | None]]


def seat_read(runtime: Runtime, game_id: str, seat: Seat, locale: str = "en") -> SeatRead:
    """(Blocking.) What `seat_board` shows: the game now and `seat`'s listing at its version."""
    state, version = runtime.store.current(game_id)
    return state, version, listing_at(runtime, game_id, state, version, seat.seat, locale)


async def clock_of(runtime: Runtime, game_id: str, version: int) -> tuple[dict[str, Any] | None, bool]:
    """The game's clock as the log fixes it at `version` (docs/async.md), and whether it is that
    version's: the board view is cached per version, so it holds the deadline, not the time left."""
    record = await runtime.table_of(game_id)
    if record is None or record.clock is None:
        return None, True
    game = await run_in_threadpool(runtime.store.game, game_id)
    view = view_of(ClockConfig.from_json(record.clock), game, runtime.clock())
    return {
        "config": record.clock,
        "seat": view.seat,
        "since": None if view.since is None else view.since.isoformat(),
        "deadline": None if view.deadline is None else view.deadline.isoformat(),
        "paused": view.paused,
    }, game.version == version


def moves_body(
    game_id: str, version: int, seat: int, to_act: int | None, listing: Listing | None
) -> dict[str, Any]:
    """A `MovesOut` as JSON, built in its shape (its field order; the previews are `MovePreview`s'
    `to_json`): validating the listing's dicts into models only to dump them again cost more than
    building it. The board view's `moves` (`GET /games/{id}?include=moves`) is the same."""
    moves, descriptions, previews = listing or ([], [], [])
    return {
        "game_id": game_id,
        "version": version,
        "seat": seat,
        "to_act": to_act,
        "moves": moves,
        "descriptions": descriptions,
        "previews": previews,
    }


def listing_now(
    runtime: Runtime, game_id: str, seat: Seat | None, locale: str = "en"
) -> tuple[int, int | None, Listing | None]:
    """(Blocking.) The game's version, the seat to act, and `seat`'s move listing when it is the one
    to act (None otherwise), in `locale`."""
    assert seat is not None  # `RequiredPresented`
    state, version = runtime.store.current(game_id)
    return (version, *listing_at(runtime, game_id, state, version, seat.seat, locale))


def listing_at(
    runtime: Runtime, game_id: str, state: GameState, version: int, seat: int, locale: str = "en"
) -> tuple[int | None, Listing | None]:
    """The seat to act at `state` (the game's `version`) and `seat`'s move listing when it is the one
    to act (None otherwise), in `locale`: computed once per version, seat and language
    (`Runtime.move_listings`)."""
    to_act = None if state.finished else state.turn.seat
    if to_act != seat:
        return to_act, None
    key = (game_id, version, seat, locale)
    listing = runtime.move_listings.get(key)
    if listing is None:
        listing = moves_listing(state, seat, locale)
        runtime.move_listings.put(key, listing)
    return to_act, listing


def moves_listing(state: GameState, seat: int, locale: str = "en") -> Listing:
    """The seat's legal moves at `state`: each as JSON, in words (of `locale`), and what it will do."""
    listed = legal_moves(state)
    moves = [command_to_dict(m) for m in listed]
    position = default_context(public_state(state, seat), locale)
    # events in the words of the history: no position (api/play.py)
    events = Context(position.catalog, locale=locale)
    believed = believed_positions(state, seat)
    previews = [preview(state, m, events, believed).to_json() for m in listed]
    # A move in words tells what it grants and where it lands from its own told events (its preview's).
    descriptions = [
        describe_command(m, replace(position, told=tuple(p["events"])))
        for m, p in zip(moves, previews, strict=True)
    ]
    return moves, descriptions, previews
