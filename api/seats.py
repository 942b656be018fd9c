"""Who holds each seat (the hashed seat tokens and the bot seats) and how each game's deal came about,
in the game store's own database.

Seats are credentials, not game events: they must never appear in a game's audit log, export or fork,
and a token may be revoked or rotated later without rewriting history. So they live in one small table,
`galileo_seats`, next to the event tables of the same database (the SQLite file or the PostgreSQL
database of `GALILEO_DATABASE_URL`): no second database, and both stores are covered by one module.
Next to it, `galileo_games` keeps what the API knows of a game beyond its events: who may know its deal
(`deal`, one of `DEALS`), written with the seats in one transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from api.tables import CREATE_TABLES, INSERT_TABLE, TableRecord

SCHEMA_LOCK = 0x6761_6C69  # PostgreSQL advisory lock key for creating the table
HUMAN = "human"
BOT = "bot"

# Who may know a game's deal (the order of every hidden stack):
SECRET = "secret"  # nobody: the service drew a secret random seed and salt
CHOSEN_SEED = "chosen-seed"  # whoever chose the seed at creation (practice, analysis): not a fair game
KNOWN = "known"  # anyone who had the source: a fork of a finished game, an imported complete file
DEALS = (SECRET, CHOSEN_SEED, KNOWN)

_CREATE = """
CREATE TABLE IF NOT EXISTS galileo_seats (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT UNIQUE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
)
"""
_CREATE_GAMES = """
CREATE TABLE IF NOT EXISTS galileo_games (
    game_id TEXT PRIMARY KEY,
    deal TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: str
    seat: int
    kind: str  # HUMAN or BOT
    bot: str | None = None  # the bot's kind: greedy | random
    token_hash: str | None = None  # humans only


class SeatStore(Protocol):
    def add(
        self,
        game_id: str,
        seats: Sequence[Seat],
        deal: str,
        created_at: str,
        table: TableRecord | None = None,
    ) -> None:
        """Record a new game's seats, how its deal came about and its table (host, clock), together."""
        ...

    def by_token(self, token_hash: str) -> Seat | None: ...
    def of_game(self, game_id: str) -> list[Seat]: ...
    def deals(self, game_ids: Collection[str]) -> dict[str, str]:
        """The deal of each of these games that the API recorded (games made elsewhere have none)."""
        ...

    def ping(self) -> None: ...
    def close(self) -> None: ...


def _row(row: Sequence[Any]) -> Seat:
    return Seat(game_id=row[0], seat=int(row[1]), kind=row[2], bot=row[3], token_hash=row[4])


_COLUMNS = "game_id, seat, kind, bot, token_hash"


class SQLiteSeats:
    """The seats table in the SQLite file of the event store (one connection, serialised by a lock)."""

    def __init__(self, path: str) -> None:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=10, isolation_level=None)
        with self._lock:
            self._db.execute(_CREATE)
            self._db.execute(_CREATE_GAMES)
            self._db.execute(CREATE_TABLES)

    def add(
        self,
        game_id: str,
        seats: Sequence[Seat],
        deal: str,
        created_at: str,
        table: TableRecord | None = None,
    ) -> None:
        rows = [(s.game_id, s.seat, s.kind, s.bot, s.token_hash, created_at) for s in seats]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT INTO galileo_seats VALUES (?, ?, ?, ?, ?, ?)", rows)
                self._db.execute("INSERT INTO galileo_games VALUES (?, ?, ?)", (game_id, deal, created_at))
                if table is not None:
                    self._db.execute(INSERT_TABLE, table.row(created_at))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def by_token(self, token_hash: str) -> Seat | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM galileo_seats WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        return None if row is None else _row(row)

    def of_game(self, game_id: str) -> list[Seat]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM galileo_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
        return [_row(r) for r in rows]

    def deals(self, game_ids: Collection[str]) -> dict[str, str]:
        ids = list(game_ids)
        out: dict[str, str] = {}
        for k in range(0, len(ids), 500):  # within SQLite's limit on bound parameters
            chunk = ids[k : k + 500]
            marks = ", ".join("?" * len(chunk))
            with self._lock:
                rows = self._db.execute(
                    f"SELECT game_id, deal FROM galileo_games WHERE game_id IN ({marks})", chunk
                ).fetchall()
            out.update((str(r[0]), str(r[1])) for r in rows)
        return out

    def ping(self) -> None:
        with self._lock:
            self._db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresSeats:
    """The seats table in the PostgreSQL database of the event store (a small connection pool)."""

    def __init__(self, conninfo: str, schema: str | None) -> None:
        from psycopg_pool import ConnectionPool

        kwargs: dict[str, Any] = {"autocommit": True}
        if schema:
            kwargs["options"] = f"-c search_path={schema}"
        self._pool = ConnectionPool(conninfo, min_size=1, max_size=4, kwargs=kwargs, open=True, timeout=10)
        with self._pool.connection() as conn, conn.transaction():
            # Replicas starting together would race on CREATE TABLE IF NOT EXISTS (a catalog conflict).
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            conn.execute(_CREATE)
            conn.execute(_CREATE_GAMES)
            conn.execute(CREATE_TABLES)

    def add(
        self,
        game_id: str,
        seats: Sequence[Seat],
        deal: str,
        created_at: str,
        table: TableRecord | None = None,
    ) -> None:
        rows = [(s.game_id, s.seat, s.kind, s.bot, s.token_hash, created_at) for s in seats]
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany("INSERT INTO galileo_seats VALUES (%s, %s, %s, %s, %s, %s)", rows)
            cur.execute("INSERT INTO galileo_games VALUES (%s, %s, %s)", (game_id, deal, created_at))
            if table is not None:
                cur.execute(INSERT_TABLE.replace("?", "%s"), table.row(created_at))

    def by_token(self, token_hash: str) -> Seat | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM galileo_seats WHERE token_hash = %s", (token_hash,)
            ).fetchone()
        return None if row is None else _row(row)

    def of_game(self, game_id: str) -> list[Seat]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM galileo_seats WHERE game_id = %s ORDER BY seat", (game_id,)
            ).fetchall()
        return [_row(r) for r in rows]

    def deals(self, game_ids: Collection[str]) -> dict[str, str]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, deal FROM galileo_games WHERE game_id = ANY(%s)", (list(game_ids),)
            ).fetchall()
        return {str(r[0]): str(r[1]) for r in rows}

    def ping(self) -> None:
        with self._pool.connection(timeout=2) as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        self._pool.close()


def open_seats(database_url: str) -> SeatStore:
    """The seat store in the database of `GALILEO_DATABASE_URL` (same URL forms as the event store)."""
    parts = urlsplit(database_url)
    if parts.scheme == "sqlite":
        path = unquote(database_url[len("sqlite:///") :]) if database_url.startswith("sqlite:///") else ""
        if not path:
            raise ValueError(f"bad SQLite URL {database_url!r}: expected sqlite:///path/to/file.db")
        return SQLiteSeats(path)
    if parts.scheme in ("postgresql", "postgres"):
        query = parse_qs(parts.query)
        schema = query.pop("schema", [None])[0]
        rest = "&".join(f"{k}={v}" for k, values in query.items() for v in values)
        conninfo = urlunsplit(("postgresql", parts.netloc, parts.path, rest, ""))
        return PostgresSeats(conninfo, schema)
    raise ValueError(f"unsupported database URL {database_url!r}: use sqlite:///path.db or postgresql://...")


def humans(seats: Iterable[Seat]) -> list[int]:
    return [s.seat for s in seats if s.kind == HUMAN]
