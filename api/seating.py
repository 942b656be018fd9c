"""Issuing the seats of a new game (created, forked or imported): one secret token per person, recorded
with how the game's deal came about; and reading that back (`deal_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool

from api.runtime import Runtime
from api.schemas import SeatOut
from api.seats import BOT, HUMAN, Seat
from api.tables import TableRecord
from api.tokens import new_token, token_hash


async def issue(
    runtime: Runtime,
    game_id: str,
    seats: Sequence[tuple[str, str]],
    bots: Sequence[str | None],
    deal: str,
    table: TableRecord | None = None,
) -> list[SeatOut]:
    """Record the seats of `game_id` (a bot kind or None for a person per seat) and its `deal` (one of
    `api.seats.DEALS`), and return the seats with the new tokens. The tokens exist only in this answer;
    the store keeps their hashes. `table` is the game's host record (host token hash, clock), written
    in the same transaction (docs/async.md)."""
    tokens = [None if bot else new_token() for bot in bots]
    rows = [
        Seat(game_id, i, BOT if bot else HUMAN, bot, None if token is None else token_hash(token))
        for i, (bot, token) in enumerate(zip(bots, tokens, strict=True))
    ]
    await run_in_threadpool(runtime.seats.add, game_id, rows, deal, datetime.now(UTC).isoformat(), table)
    runtime.deal_cache[game_id] = deal
    return [
        SeatOut(seat=i, name=name, character=character, bot=bot, token=token)
        for i, ((name, character), bot, token) in enumerate(zip(seats, bots, tokens, strict=True))
    ]


async def deal_of(runtime: Runtime, game_id: str) -> str | None:
    """How the game's deal came about; None for a game the API did not create (e.g. `galileo new`)."""
    deal = runtime.deal_cache.get(game_id)
    if deal is None:
        deal = (await run_in_threadpool(runtime.seats.deals, [game_id])).get(game_id)
        if deal is not None:  # recorded once, never changed
            runtime.deal_cache[game_id] = deal
    return deal
