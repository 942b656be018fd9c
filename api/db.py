"""A small SQL helper over the store's own database (SQLite file or PostgreSQL), for the API's tables
that are not game events (the table host, webhooks and their outbox, clock deadlines: api/tables.py).

Statements are written with `?` placeholders; on PostgreSQL they become `%s`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from replays.store import POOL_WAIT_SECONDS, GatedPool, connection_options

SCHEMA_LOCK = 0x6761_6C6A  # PostgreSQL advisory lock key for creating the tables


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...


class Db(Protocol):
    postgres: bool

    def transaction(self) -> Any: ...
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...
    def close(self) -> None: ...


class SQLiteDb:
    postgres = False

    def __init__(self, path: str) -> None:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=10, isolation_level=None)

    @contextmanager
    def transaction(self) -> Iterator[_SQLiteTx]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _SQLiteTx(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return [tuple(r) for r in self._db.execute(sql, tuple(params)).fetchall()]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            return int(self._db.execute(sql, tuple(params)).rowcount)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _SQLiteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._db.execute(sql, tuple(params)).fetchall()]


def checked_pool(conninfo: str, schema: str | None) -> Any:
    """A small autocommit connection pool on `schema` with bounded waits and a breaker (`GatedPool`),
    every connection checked before use: after a database restart the first request gets a fresh
    connection, not a broken one (docs/operations.md, "Outages")."""
    kwargs: dict[str, Any] = {"autocommit": True, **connection_options()}
    if schema:
        kwargs["options"] += f" -c search_path={schema}"
    return GatedPool(
        conninfo,
        min_size=1,
        max_size=4,
        kwargs=kwargs,
        open=True,
        timeout=POOL_WAIT_SECONDS,
        check=GatedPool.check_connection,
    )


class PostgresDb:
    postgres = True

    def __init__(self, conninfo: str, schema: str | None) -> None:
        self._pool = checked_pool(conninfo, schema)

    @contextmanager
    def transaction(self) -> Iterator[_PgTx]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield _PgTx(cur)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._pool.connection() as conn:
            return [tuple(r) for r in conn.execute(_pg(sql), tuple(params)).fetchall()]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._pool.connection() as conn:
            return int(conn.execute(_pg(sql), tuple(params)).rowcount)

    def close(self) -> None:
        self._pool.close()


class _PgTx:
    def __init__(self, cur: Any) -> None:
        self._cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self._cur.execute(_pg(sql), tuple(params))
        return [tuple(r) for r in self._cur.fetchall()] if self._cur.description else []


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


def open_db(database_url: str) -> SQLiteDb | PostgresDb:
    """The database of `GALILEO_DATABASE_URL` (same URL forms as the event store)."""
    parts = urlsplit(database_url)
    if parts.scheme == "sqlite":
        path = unquote(database_url[len("sqlite:///") :]) if database_url.startswith("sqlite:///") else ""
        if not path:
            raise ValueError(f"bad SQLite URL {database_url!r}: expected sqlite:///path/to/file.db")
        return SQLiteDb(path)
    if parts.scheme in ("postgresql", "postgres"):
        query = parse_qs(parts.query)
        schema = query.pop("schema", [None])[0]
        rest = "&".join(f"{k}={v}" for k, values in query.items() for v in values)
        return PostgresDb(urlunsplit(("postgresql", parts.netloc, parts.path, rest, "")), schema)
    raise ValueError(f"unsupported database URL {database_url!r}: use sqlite:///path.db or postgresql://...")


def create(db: SQLiteDb | PostgresDb, statements: Sequence[str]) -> None:
    """Run CREATE ... IF NOT EXISTS statements (serialised across PostgreSQL processes)."""
    with db.transaction() as tx:
        if db.postgres:
            tx.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
        for statement in statements:
            tx.execute(statement)
