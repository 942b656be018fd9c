"""Who holds each seat (the hashed seat tokens and the bot seats) and how each game's deal came about,
in the game store's own database.

Seats are credentials, not game events: they must never appear in a game's audit log, export or fork,
and a token may be revoked or rotated later without rewriting history. So they live in one small table,
`galileo_seats`, next to the event tables of the same database (the SQLite file or the PostgreSQL
database of `GALILEO_DATABASE_URL`): no second database, and both stores are covered by one module.
Next to it, `galileo_games` keeps what the API knows of a game beyond its events: who may know its deal
(`deal`, one of `DEALS`); `galileo_creations` who made it (a client key, for the per-client caps), how
(create, fork, import) and how many bytes its creation stored. All three are written in the transaction
of the game's first events (`creation_rows`, `replays.service.RowsFor`): a game never exists without
them. `galileo_abandoned` lists the games an older version stored without them (`repair`).
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from api.db import checked_pool
from api.tables import CREATE_TABLES, INSERT_TABLE, TABLE_COLUMNS, TableRecord
from replays.records import BOT as BOT  # the seat rows' kinds (as the log's meta.seat_kind)
from replays.records import HUMAN as HUMAN
from replays.store import Rows

SCHEMA_LOCK = 0x6761_6C69  # PostgreSQL advisory lock key for creating the table

# Who may know a game's deal (the order of every hidden stack):
SECRET: Final = "secret"  # nobody: the service drew a secret random seed and salt
CHOSEN_SEED: Final = "chosen-seed"  # whoever chose the seed at creation (practice, analysis): not a fair game
KNOWN: Final = "known"  # anyone who had the source: a fork of a finished game, an imported complete file
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
_CREATE_CREATIONS = """
CREATE TABLE IF NOT EXISTS galileo_creations (
    game_id TEXT PRIMARY KEY,
    client TEXT NOT NULL,
    kind TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    created_at TEXT NOT NULL
)
"""
_CREATE_CREATIONS_INDEX = "CREATE INDEX IF NOT EXISTS galileo_creations_client ON galileo_creations (client)"
_CREATE_ABANDONED = """
CREATE TABLE IF NOT EXISTS galileo_abandoned (
    game_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    found_at TEXT NOT NULL
)
"""
# Tokens that opened a seat once and no longer do: a link the host re-issued, a seat handed over
# (docs/async.md, ASYNC-9). Only the hash, like a live token; `version` is the event that revoked it, so
# the old token's holder is told what happened (401 `link-reissued`), which the log shows anyway.
_CREATE_REVOKED = """
CREATE TABLE IF NOT EXISTS galileo_revoked (
    token_hash TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    version INTEGER NOT NULL,
    reason TEXT NOT NULL,
    revoked_at TEXT NOT NULL
)
"""
REVOKED_COLUMNS = ("token_hash", "game_id", "seat", "version", "reason", "revoked_at")
SEAT_COLUMNS = ("game_id", "seat", "kind", "bot", "token_hash", "created_at")
REISSUED, HANDED_OVER, RECOVERED = "reissued", "handed-over", "recovered"  # why a token was revoked
# galileo_tables (api/tables.py) too: a created game's host record is written with its seats.
_SCHEMA = (
    _CREATE,
    _CREATE_REVOKED,
    _CREATE_GAMES,
    _CREATE_CREATIONS,
    _CREATE_CREATIONS_INDEX,
    _CREATE_ABANDONED,
    CREATE_TABLES,
)


GROW = "UPDATE galileo_creations SET bytes = bytes + ? WHERE game_id = ?"
INSERT_CREATION = (
    "INSERT INTO galileo_creations (game_id, client, kind, bytes, created_at) VALUES (?, ?, ?, ?, ?)"
)
REJECTED = "rejected:"  # the game ID prefix of a refused creation's row (no game has it: IDs are UUIDs)


def rejected_row(client: str, kind: str, size: int, at: str) -> tuple[str, str, str, int, str]:
    return (f"{REJECTED}{uuid.uuid4()}", client, kind, size, at)


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: str
    seat: int
    kind: str  # HUMAN or BOT
    bot: str | None = None  # the bot's kind: domain.bots.BOT_KINDS (greedy, random, mcts[:level])
    token_hash: str | None = None  # humans only


@dataclass(frozen=True, slots=True)
class Revocation:
    """Why a token that once opened a seat no longer does: `reason` (REISSUED, HANDED_OVER or RECOVERED)
    at the event `version` of the game."""

    game_id: str
    seat: int
    version: int
    reason: str


def rewritten_seat(
    game_id: str,
    seat: int,
    new_hash: str | None,
    old_hash: str | None,
    version: int,
    reason: str,
    at: str,
) -> list[Rows]:
    """The rows that give a person's seat a new token (or none: handed to the server) and revoke its old
    one, written in the transaction of the table batch that records it (`Games.table(rows=...)`): the
    event and the credential change are stored together or not at all."""
    seat_row = (game_id, seat, HUMAN, None, new_hash, at)
    rows = [Rows("galileo_seats", SEAT_COLUMNS, [seat_row], replace=("game_id", "seat"))]
    if old_hash is not None:
        revoked = (old_hash, game_id, seat, version, reason, at)
        rows.append(Rows("galileo_revoked", REVOKED_COLUMNS, [revoked]))
    return rows


@dataclass(frozen=True, slots=True)
class Usage:
    """What one client has stored: games created (forks and imports included) and their bytes."""

    games: int
    bytes: int


def creation_rows(
    game_id: str,
    seats: Sequence[Seat],
    deal: str,
    created_at: str,
    client: str,
    kind: str,
    size: int,
    table: TableRecord | None = None,
) -> list[Rows]:
    """The rows of a new game (`kind`: create, fork or import) made by `client`, stored in the
    transaction of its events (`replays.service.RowsFor`). Another record of a game joins here: a
    created game's `table` (its host record and clock, api/tables.py; forks and imports have none)."""
    rows = [
        Rows(
            "galileo_seats",
            SEAT_COLUMNS,
            [(s.game_id, s.seat, s.kind, s.bot, s.token_hash, created_at) for s in seats],
        ),
        Rows("galileo_games", ("game_id", "deal", "created_at"), [(game_id, deal, created_at)]),
        Rows(
            "galileo_creations",
            ("game_id", "client", "kind", "bytes", "created_at"),
            [(game_id, client, kind, size, created_at)],
        ),
    ]
    if table is not None:
        rows.append(Rows("galileo_tables", TABLE_COLUMNS, [table.row(created_at)]))
    return rows


class SeatStore(Protocol):
    def add(
        self,
        game_id: str,
        seats: Sequence[Seat],
        deal: str,
        created_at: str,
        table: TableRecord | None = None,
    ) -> None:
        """Record a game's seats, how its deal came about and its table (host, clock), together (games
        stored elsewhere; new games get theirs with their events: `creation_rows`)."""
        ...

    def usage(self, client: str) -> Usage:
        """What `client` has stored so far (for the per-client caps)."""
        ...

    def grow(self, sizes: Mapping[str, int]) -> None:
        """Add bytes written since a game's creation (moves, bots, table events) to what its maker has
        stored (`galileo_creations.bytes`)."""
        ...

    def reject(self, client: str, kind: str, size: int, at: str) -> None:
        """Count a refused creation (an import the store rejected) against `client`'s caps: its bytes
        were read and parsed all the same."""
        ...

    def recorded(self, game_ids: Collection[str]) -> set[str]:
        """Those of `game_ids` that have a `galileo_games` row or are already listed as abandoned."""
        ...

    def abandon(self, game_ids: Collection[str], reason: str, found_at: str) -> None:
        """List games as abandoned (stored without their seats by an older version)."""
        ...

    def abandoned(self) -> set[str]: ...

    def by_token(self, token_hash: str) -> Seat | None: ...
    def revocation(self, token_hash: str) -> Revocation | None:
        """Why a token that opened a seat once no longer does (None: it never opened one)."""
        ...

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
            for statement in _SCHEMA:
                self._db.execute(statement)

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

    def usage(self, client: str) -> Usage:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM galileo_creations WHERE client = ?", (client,)
            ).fetchone()
        return Usage(int(row[0]), int(row[1]))

    def grow(self, sizes: Mapping[str, int]) -> None:
        with self._lock:
            self._db.executemany(GROW, [(size, game_id) for game_id, size in sizes.items()])

    def reject(self, client: str, kind: str, size: int, at: str) -> None:
        with self._lock:
            self._db.execute(INSERT_CREATION, rejected_row(client, kind, size, at))

    def recorded(self, game_ids: Collection[str]) -> set[str]:
        ids = list(game_ids)
        out: set[str] = set()
        for k in range(0, len(ids), 500):
            chunk = ids[k : k + 500]
            marks = ", ".join("?" * len(chunk))
            with self._lock:
                rows = self._db.execute(
                    f"SELECT game_id FROM galileo_games WHERE game_id IN ({marks}) "
                    f"UNION SELECT game_id FROM galileo_abandoned WHERE game_id IN ({marks})",
                    chunk + chunk,
                ).fetchall()
            out.update(str(r[0]) for r in rows)
        return out

    def abandon(self, game_ids: Collection[str], reason: str, found_at: str) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT OR IGNORE INTO galileo_abandoned VALUES (?, ?, ?)",
                [(g, reason, found_at) for g in game_ids],
            )

    def abandoned(self) -> set[str]:
        with self._lock:
            return {str(r[0]) for r in self._db.execute("SELECT game_id FROM galileo_abandoned")}

    def by_token(self, token_hash: str) -> Seat | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM galileo_seats WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        return None if row is None else _row(row)

    def revocation(self, token_hash: str) -> Revocation | None:
        with self._lock:
            row = self._db.execute(
                "SELECT game_id, seat, version, reason FROM galileo_revoked WHERE token_hash = ?",
                (token_hash,),
            ).fetchone()
        return None if row is None else Revocation(str(row[0]), int(row[1]), int(row[2]), str(row[3]))

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
        self._pool = checked_pool(conninfo, schema)
        with self._pool.connection() as conn, conn.transaction():
            # Replicas starting together would race on CREATE TABLE IF NOT EXISTS (a catalog conflict).
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in _SCHEMA:
                conn.execute(statement)

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

    def usage(self, client: str) -> Usage:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM galileo_creations WHERE client = %s", (client,)
            ).fetchone()
        assert row is not None
        return Usage(int(row[0]), int(row[1]))

    def grow(self, sizes: Mapping[str, int]) -> None:
        with self._pool.connection() as conn, conn.cursor() as cur:
            cur.executemany(GROW.replace("?", "%s"), [(size, game_id) for game_id, size in sizes.items()])

    def reject(self, client: str, kind: str, size: int, at: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(INSERT_CREATION.replace("?", "%s"), rejected_row(client, kind, size, at))

    def recorded(self, game_ids: Collection[str]) -> set[str]:
        ids = list(game_ids)
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id FROM galileo_games WHERE game_id = ANY(%s) "
                "UNION SELECT game_id FROM galileo_abandoned WHERE game_id = ANY(%s)",
                (ids, ids),
            ).fetchall()
        return {str(r[0]) for r in rows}

    def abandon(self, game_ids: Collection[str], reason: str, found_at: str) -> None:
        with self._pool.connection() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO galileo_abandoned VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                [(g, reason, found_at) for g in game_ids],
            )

    def abandoned(self) -> set[str]:
        with self._pool.connection() as conn:
            return {str(r[0]) for r in conn.execute("SELECT game_id FROM galileo_abandoned").fetchall()}

    def by_token(self, token_hash: str) -> Seat | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM galileo_seats WHERE token_hash = %s", (token_hash,)
            ).fetchone()
        return None if row is None else _row(row)

    def revocation(self, token_hash: str) -> Revocation | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT game_id, seat, version, reason FROM galileo_revoked WHERE token_hash = %s",
                (token_hash,),
            ).fetchone()
        return None if row is None else Revocation(str(row[0]), int(row[1]), int(row[2]), str(row[3]))

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
