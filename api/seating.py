"""The seats of a new game (created, forked or imported): one secret token per person, stored with the
game's events in one transaction together with how its deal came about and who made it
(`api.seats.creation_rows`); and reading the deal back (`deal_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool

from api.runtime import Runtime
from api.schemas import Deal, SeatOut
from api.seats import BOT, HUMAN, Seat, creation_rows
from api.tables import TableRecord
from api.tokens import new_token, token_hash
from domain import GameState
from domain.characters import side_of
from domain.opponents import opponent_at
from replays.store import Rows


class Seating:
    """The seats, deal and owner of a game about to be stored: pass `rows` to `Store.create`, `fork` or
    `import_` (it runs inside the store's write), then read the answer's seats with `answer`.

    `bots` is a bot kind or None (a person) per seat; None gives every seat to a person. A finished game
    (an imported complete file) gets no seats: nobody plays it. The tokens exist only in the answer; the
    store keeps their hashes. `table` is a created game's host record (host token hash, clock; its
    `game_id` is filled in here), stored in the same transaction (docs/async.md); forks and imports
    have none."""

    def __init__(
        self,
        client: str,
        kind: str,
        deal: Deal,
        bots: Sequence[str | None] | None = None,
        table: TableRecord | None = None,
    ) -> None:
        self.client = client
        self.kind = kind  # create | fork | import
        self.deal = deal
        self.bots = None if bots is None else list(bots)
        self.table = table
        self.tokens: list[str | None] = []

    def rows(self, game_id: str, state: GameState, size: int) -> list[Rows]:
        seated = person_seats(state)
        count = len(seated)
        bots: list[str | None] = self.bots if self.bots is not None else [None] * count
        if len(bots) != count:
            raise ValueError(f"{len(bots)} seat kinds for a game of {count} seats")
        self.bots = bots
        self.tokens = [None if bot or state.finished else new_token() for bot in bots]
        seats = (
            []
            if state.finished
            else [
                Seat(game_id, i, BOT if bot else HUMAN, bot, None if token is None else token_hash(token))
                for i, bot, token in zip(seated, bots, self.tokens, strict=True)
            ]
        )
        now = datetime.now(UTC).isoformat()
        table = None if self.table is None else replace(self.table, game_id=game_id)
        return creation_rows(game_id, seats, self.deal, now, self.client, self.kind, size, table)

    def answer(self, runtime: Runtime, game_id: str, state: GameState) -> list[SeatOut]:
        """The new game's seats with their tokens (call once the game is stored)."""
        runtime.deal_cache[game_id] = self.deal
        seated = person_seats(state)
        bots: list[str | None] = self.bots or [None] * len(seated)
        return [
            SeatOut(
                seat=i,
                name=state.players[i].name,
                character=state.players[i].character,
                side="ability" if side_of(state.players[i]) == "ability" else "basic",
                bot=bot,
                token=token,
            )
            for i, bot, token in zip(seated, bots, self.tokens, strict=True)
        ]


def person_seats(state: GameState) -> list[int]:
    """The seats a person or a bot plays: not a non-player opponent's (the solo Tycho, SOLO-27)."""
    return [p.seat for p in state.players if opponent_at(state, p.seat) is None]


async def deal_of(runtime: Runtime, game_id: str) -> str | None:
    """How the game's deal came about; None for a game the API did not create (e.g. `galileo new`)."""
    deal = runtime.deal_cache.get(game_id)
    if deal is None:
        deal = (await run_in_threadpool(runtime.seats.deals, [game_id])).get(game_id)
        if deal is not None:  # recorded once, never changed
            runtime.deal_cache[game_id] = deal
    return deal
