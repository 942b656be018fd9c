"""The lobby: one row per game with its status, seats and characters, whose turn, version, times and
winners. The API's `GET /games` reads it (`LobbyView.list`), never the aggregates.

Whose turn is kept from the events as the engine keeps it (TURN-1, END-2): the first seat starts, each
`TurnEnded` passes to the next seat until the final round is over, and nobody acts after `GameEnded`.
Whether a seat is a bot or a person is read from the metadata of its commands (`Fact.seat_kind`);
it is None until the seat has moved.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from domain.events import (
    EndOfGameTriggered,
    GameCancelled,
    GameEnded,
    GameForked,
    TakenBack,
    TurnEnded,
    VictoryPointsScored,
)
from projections.documents import Document, PostgresDocuments, Schema, SQLiteDocuments
from projections.projection import GameProjection
from projections.source import HUMAN, Fact

ACTIVE, FINISHED, CANCELLED = "active", "finished", "cancelled"
STATUSES = (ACTIVE, FINISHED, CANCELLED)

SCHEMA = Schema(
    table="lobby_games",
    columns=(("status", "TEXT NOT NULL"), ("created_at", "TEXT NOT NULL"), ("version", "INTEGER NOT NULL")),
    indexes=(("created_at",), ("status", "created_at")),
)


def fold(doc: Document | None, fact: Fact) -> Document:
    """The lobby row of a game after one more of its events (updates `doc` in place)."""
    if doc is None:
        if fact.type != "GameStarted":
            raise ValueError(f"game {fact.game_id}: its first event is {fact.type}, not GameStarted")
        doc = _started(fact, fact.payload)
    doc["version"] = fact.version
    doc["last_move_at"] = fact.received_at
    kind = fact.seat_kind
    if kind is not None and kind[0] < len(doc["seats"]):
        seat = doc["seats"][kind[0]]
        if seat["kind"] != HUMAN:  # a person who once played the seat makes it a person's seat
            seat["kind"] = kind[1]
    if fact.type in _FOLLOWED:
        _follow(doc, fact)
    return doc


_FOLLOWED = {
    "OpponentDealt",
    "VictoryPointsScored",
    "TurnEnded",
    "EndOfGameTriggered",
    "GameForked",
    "GameEnded",
    "TakenBack",
    "GameCancelled",
}


def _follow(doc: Document, fact: Fact) -> None:
    event = fact.event
    if isinstance(event, VictoryPointsScored):
        doc["seats"][event.seat]["score"] += event.points
    elif isinstance(event, TurnEnded):
        doc["turns"] += 1
        if doc["last_turn"] is None or doc["number"] < doc["last_turn"]:  # END-2: else the scoring
            doc["to_act"] = (doc["to_act"] + 1) % len(doc["seats"])
            doc["number"] += 1
    elif isinstance(event, EndOfGameTriggered):
        doc["last_turn"] = event.last_turn
    elif isinstance(event, GameForked):
        doc["forked_from"] = {"game_id": event.source_game, "version": event.source_version}
        doc["created_at"] = fact.received_at  # a fork begins when it is made, not when its source began
    elif isinstance(event, GameEnded):
        doc["status"] = FINISHED
        doc["to_act"] = None
        doc["winners"] = list(event.winners)
    elif isinstance(event, TakenBack):  # within the turn (docs/async.md): only the scores go back
        for seat, score in zip(doc["seats"], event.scores, strict=False):
            seat["score"] = score
    elif isinstance(event, GameCancelled):
        doc["status"] = CANCELLED
        doc["to_act"] = None
    elif fact.type == "OpponentDealt":  # the solo game: Tycho's seat and the level (SOLO-2, SOLO-27)
        doc["solo"] = {
            "opponent": getattr(event, "opponent", ""),
            "seat": event.seat,
            "difficulty": getattr(event, "difficulty", "") or None,
        }


def _started(fact: Fact, started: Mapping[str, Any]) -> Document:
    # Read from the event's JSON form: decoding a whole GameStarted (the deal) costs more than the rest
    # of a new game's row.
    return {
        "game_id": fact.game_id,
        "status": ACTIVE,
        "created_at": fact.received_at,
        "last_move_at": fact.received_at,
        "version": fact.version,
        "seats": [
            {"seat": i, "name": name, "character": character, "side": side, "kind": None, "score": 0}
            for i, ((name, character), side) in enumerate(
                zip(started["seats"], started.get("sides") or ["basic"] * len(started["seats"]), strict=True)
            )
        ],
        "to_act": started["first_seat"],
        "first_seat": started["first_seat"],
        "number": 0,  # the engine's turn number: turns before the current one, frozen in the final scoring
        "turns": 0,  # turns completed
        "last_turn": None,
        "winners": None,
        "catalog_edition": started["catalog_edition"],
        "options": dict(started["options"]),
        "forked_from": None,
    }


class LobbyProjection(GameProjection[Any]):
    name = "lobby"
    topics = ()  # every event moves the version and the last-move time
    fold = staticmethod(fold)


class SQLiteLobbyTable(SQLiteDocuments):
    schema = SCHEMA


class PostgresLobbyTable(PostgresDocuments):
    schema = SCHEMA


@dataclass(frozen=True, slots=True)
class LobbySeat:
    seat: int
    name: str
    character: str
    kind: str | None  # "bot" | "human" | None (has not moved yet)
    score: int
    side: str = "basic"  # CHAR-1 (rows projected before the side was recorded: basic until rebuilt)


@dataclass(frozen=True, slots=True)
class LobbyGame:
    game_id: str
    status: str  # active | finished | cancelled
    seats: tuple[LobbySeat, ...]
    to_act: int | None
    version: int
    created_at: str
    last_move_at: str
    turns: int
    winners: tuple[int, ...] | None
    catalog_edition: str
    forked_from: dict[str, Any] | None
    solo: dict[str, Any] | None = None  # {"opponent", "seat", "difficulty"} of a solo game
    options: dict[str, Any] | None = None  # the game's options (GameStarted), e.g. {"luna": true}

    @classmethod
    def of(cls, doc: Document) -> LobbyGame:
        return cls(
            game_id=doc["game_id"],
            status=doc["status"],
            seats=tuple(LobbySeat(**s) for s in doc["seats"]),
            to_act=doc["to_act"],
            version=doc["version"],
            created_at=doc["created_at"],
            last_move_at=doc["last_move_at"],
            turns=doc["turns"],
            winners=None if doc["winners"] is None else tuple(doc["winners"]),
            catalog_edition=doc["catalog_edition"],
            forked_from=doc["forked_from"],
            solo=doc.get("solo"),
            options=doc.get("options"),
        )


class LobbyView:
    """Reads the lobby table (any process; the rows are written by the lobby projection's runner)."""

    def __init__(self, table: SQLiteLobbyTable | PostgresLobbyTable) -> None:
        self.table = table

    def list(
        self,
        status: str | None = None,
        games: Collection[str] | None = None,
        limit: int = 100,
        offset: int = 0,
        after: tuple[str, str] | None = None,
    ) -> list[LobbyGame]:
        """Games newest first; `status` is active or finished; `games` restricts to those IDs (e.g. the
        game of a seat token). `after` = (created_at, game_id) of the last game of the previous page
        (keyset pagination, `cursor_of`): a deep page costs what the first costs, unlike `offset`."""
        where, params = _filters(status, games)
        if games is not None and not games:
            return []
        if after is not None:
            created_at, game_id = after
            # The order is created_at DESC, game_id ASC: the games after the cursor's one.
            where.append("created_at <= ? AND (created_at < ? OR game_id > ?)")
            params += [created_at, created_at, game_id]
        docs = self.table.select(where, params, order="created_at DESC, game_id", limit=limit, offset=offset)
        return [LobbyGame.of(d) for d in docs]

    def count(self, status: str | None = None) -> int:
        where, params = _filters(status, None)
        return self.table.count(where, params)

    def get(self, game_id: str) -> LobbyGame | None:
        found = self.list(games=[game_id], limit=1)
        return found[0] if found else None

    def head(self) -> int:
        """The position in the store's notification log the lobby reflects."""
        return self.table.head()

    def close(self) -> None:
        self.table.datastore.close()


def cursor_of(game: LobbyGame) -> str:
    """The opaque cursor of the page after `game` (GET /games?cursor=...)."""
    return encode_cursor(game.created_at, game.game_id)


def encode_cursor(created_at: str, game_id: str) -> str:
    return base64.urlsafe_b64encode(orjson.dumps([created_at, game_id])).decode().rstrip("=")


def parse_cursor(cursor: str) -> tuple[str, str]:
    """(created_at, game_id) of a cursor from `cursor_of`; ValueError when it is not one."""
    try:
        created_at, game_id = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError, binascii.Error):
        raise ValueError("not a lobby cursor (use the next_cursor of the previous page)") from None
    if not isinstance(created_at, str) or not isinstance(game_id, str):
        raise ValueError("not a lobby cursor (use the next_cursor of the previous page)")
    return created_at, game_id


def _filters(status: str | None, games: Collection[str] | None) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    params: list[Any] = []
    if status is not None:
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        where.append("status = ?")
        params.append(status)
    if games:
        ids = list(games)
        where.append(f"game_id IN ({', '.join('?' for _ in ids)})")
        params += ids
    return where, params
