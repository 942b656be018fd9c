"""The lobby as the API serves it: the lobby read model of `projections/` (kept by the projector, in this
process or a separate one) with the seats' bot kinds and the games' deals from the seat tables.

The read model is eventually consistent: a game appears, and its row moves, once the projector has
processed its events (in-process, it is woken by every save; see `projections.projector`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from api.seats import BOT, SeatStore
from api.tables import TableStore
from projections.lobby import LobbyView


@dataclass(frozen=True, slots=True)
class SeatEntry:
    seat: int
    name: str
    character: str
    bot: str | None
    side: str = "basic"  # CHAR-1


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    game_id: str
    status: str  # active | finished | cancelled
    seats: tuple[SeatEntry, ...]
    to_act: int | None
    version: int
    created_at: str
    last_move_at: str
    deal: str | None  # api.seats.DEALS; None for a game not created through the API
    clock: dict[str, Any] | None = None  # {"config", "deadline"} of a clocked game (docs/async.md)
    solo: dict[str, Any] | None = None  # a solo game: {"opponent", "seat", "difficulty"} (SOLO-2)
    options: dict[str, Any] | None = None  # the game's options, e.g. {"luna": true} (docs/rules-options.md)


class Lobby(Protocol):
    def entries(
        self,
        status: str | None,
        games: Collection[str] | None,
        limit: int,
        after: tuple[str, str] | None = None,
    ) -> list[LobbyEntry]:
        """Newest first; `games` restricts to those IDs (the game of a seat token); `after` is the
        (created_at, game_id) of the last game of the previous page (keyset pagination)."""
        ...

    def close(self) -> None: ...


class ProjectedLobby:
    def __init__(self, view: LobbyView, seats: SeatStore, tables: TableStore | None = None) -> None:
        self._view = view
        self._seats = seats
        self._tables = tables

    def entries(
        self,
        status: str | None,
        games: Collection[str] | None,
        limit: int,
        after: tuple[str, str] | None = None,
    ) -> list[LobbyEntry]:
        out: list[LobbyEntry] = []
        abandoned = self._seats.abandoned()  # stored without seats by an older version (api/repair.py)
        rows = [
            g
            for g in self._view.list(status=status, games=games, limit=limit + len(abandoned), after=after)
            if g.game_id not in abandoned
        ][:limit]
        deals = self._seats.deals([g.game_id for g in rows])
        clocks = {} if self._tables is None else self._tables.clocks([g.game_id for g in rows])
        for game in rows:
            bots = {s.seat: s.bot for s in self._seats.of_game(game.game_id) if s.kind == BOT}
            out.append(
                LobbyEntry(
                    game_id=game.game_id,
                    status=game.status,
                    seats=tuple(
                        SeatEntry(s.seat, s.name, s.character, bots.get(s.seat), s.side) for s in game.seats
                    ),
                    to_act=game.to_act,
                    version=game.version,
                    created_at=game.created_at,
                    last_move_at=game.last_move_at,
                    deal=deals.get(game.game_id),
                    clock=clocks.get(game.game_id),
                    solo=game.solo,
                    options=game.options,
                )
            )
        return out

    def close(self) -> None:
        self._view.close()
