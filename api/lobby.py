"""The lobby read model as the API uses it: games with status, seats, whose turn, version, last move.

SEAM: `projections/` will provide the materialised lobby (kept by a projection with tracking). Until then
`StoreLobby` computes each entry from the game service (`list_games()`, then each game's head), which
costs two reads per game: fine for one machine's worth of games, replaced by the projection beyond it.
Swap the class in `Runtime.build`; routes only see the `Lobby` protocol.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

from api.seats import BOT, Seat, SeatStore
from api.service import Store
from replays.errors import GameNotFound


@dataclass(frozen=True, slots=True)
class SeatEntry:
    seat: int
    name: str
    character: str
    bot: str | None


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    game_id: str
    status: str  # active | finished
    seats: tuple[SeatEntry, ...]
    to_act: int | None
    version: int
    created_at: str
    last_move_at: str


class Lobby(Protocol):
    def entries(self, status: str | None, games: Collection[str] | None, limit: int) -> list[LobbyEntry]:
        """Newest first; `games` restricts to those IDs (the games of a seat token)."""
        ...


class StoreLobby:
    def __init__(self, store: Store, seats: SeatStore) -> None:
        self._store = store
        self._seats = seats

    def entries(self, status: str | None, games: Collection[str] | None, limit: int) -> list[LobbyEntry]:
        out: list[LobbyEntry] = []
        for info in reversed(self._store.list_games()):
            if games is not None and info.game_id not in games:
                continue
            try:
                entry = self._entry(info.game_id, info.created_at, info.seats)
            except GameNotFound:
                continue
            if status is None or entry.status == status:
                out.append(entry)
            if len(out) >= limit:
                break
        return out

    def _entry(self, game_id: str, created_at: str, seats: tuple[tuple[str, str], ...]) -> LobbyEntry:
        state, version = self._store.current(game_id)
        last = self._store.events(game_id, after=version - 1, limit=1)
        bots = {s.seat: s.bot for s in self._seats.of_game(game_id) if _is_bot(s)}
        return LobbyEntry(
            game_id=game_id,
            status="finished" if state.finished else "active",
            seats=tuple(
                SeatEntry(seat=i, name=name, character=char, bot=bots.get(i))
                for i, (name, char) in enumerate(seats)
            ),
            to_act=None if state.finished else state.turn.seat,
            version=version,
            created_at=created_at,
            last_move_at=str(last[0].metadata.get("received_at", created_at)) if last else created_at,
        )


def _is_bot(seat: Seat) -> bool:
    return seat.kind == BOT
