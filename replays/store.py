"""The event store: each game is one `Game` aggregate, saved by the `GameStore` application.

A stored event is the engine's event as `event_to_dict` gives it (`payload`) plus its audit metadata
(`metadata`, docs/audit.md). There is one stored-event class per engine event type, with the explicit,
refactor-proof topic `galileo:<EventName>` (eventsourcing guide §1); loading an event gives back the
exact engine event through `event_from_dict`. Encoding is orjson (guide §4); snapshots every
`SNAPSHOT_INTERVAL` events carry the state in its documented JSON form (`dump_state`, guide §5).
"""

from __future__ import annotations

import hashlib
import logging
import lzma
import os
import sqlite3
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from copy import copy, deepcopy
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, cast
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

import orjson
import psycopg
from eventsourcing.application import Application, ProcessingEvent, ProjectorFunction
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    EventStore,
    JSONTranscoder,
    Mapper,
    Notification,
    Recording,
    StoredEvent,
    Transcoding,
)
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteApplicationRecorder,
    SQLiteCursor,
    SQLiteDatastore,
)
from eventsourcing.utils import Environment, get_topic, register_topic
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from domain import (
    EVENT_TYPES,
    EditionUnknown,
    EventDoesNotFit,
    GameState,
    dump_state,
    event_from_dict,
    evolve,
    load_state,
)
from domain import events as ev
from domain.events import Event as DomainEvent
from domain.events import GameForked
from replays.audit import BATCHED, CHAINED, ZERO_HASH, scheme_of
from replays.compact import StoredFormError, batch_of, compact, expand, head_fields, is_compact

logger = logging.getLogger(__name__)

DEFAULT_DATABASE_URL = "sqlite:///./data/galileo.db"
SNAPSHOT_INTERVAL = 100  # events; a rebuild replays at most this many (bench/bench_store.py)
LOAD_LOCK_STRIPES = 64  # locks that make a cached load atomic per game (games share a stripe rarely)
RECENT_COMMANDS = 64  # a game's own newer command IDs before they are folded into its shared index
CACHE_SIZE = 256  # games kept in memory between commands (fast-forwarded from the store on each read)
TOPIC_PREFIX = "galileo:"
CREATE_TABLES_LOCK = 0x47616C696C656F  # PostgreSQL advisory lock key ("Galileo") held while creating tables
PLAIN_KEYS = frozenset({"payload", "metadata"})  # stored-event fields that never hold tagged values
HEADS_CACHED = 4096  # batch heads kept by the mapper to expand the other events of their batches
HEADS_READ = 32  # events read when a head is missing from the cache (its batch and the next ones)
# Snapshots (not part of the audit trail) are raw LZMA2 after a first byte 0xFD: about 3 KB for a
# 19 KB state dump (zlib: 5.3 KB), 2 ms to write once per SNAPSHOT_INTERVAL events, 0.15 ms to read.
SNAPSHOT_MARK = b"\xfd"
SNAPSHOT_FILTERS = ({"id": lzma.FILTER_LZMA2, "preset": 6, "dict_size": 1 << 16},)  # frozen: rows need it
# Scheme-2 event rows are deflated with a preset dictionary, numbered by the row's first byte. A
# dictionary is never changed once released (the rows written with it need it): a new one gets a number.
DICTIONARIES = Path(__file__).resolve().parent / "dictionaries"
DICTIONARY_HASHES: Mapping[int, str] = {1: "6160b8bc593d988789c098293456e41f83b9be0af39a8746b4c678809cc13818"}
DICTIONARY = 1  # the dictionary of new rows
_SAVE_LISTENERS: list[Callable[[], None]] = []

# Bounded waits on PostgreSQL (docs/operations.md, "Outages"): connecting (libpq's connect_timeout and the
# pool's wait for a free connection), and each statement. Read from the environment once, at import.
DB_TIMEOUT_SECONDS = max(1, int(float(os.environ.get("GALILEO_DB_TIMEOUT_SECONDS") or 2)))
DB_STATEMENT_TIMEOUT_SECONDS = float(os.environ.get("GALILEO_DB_STATEMENT_TIMEOUT_SECONDS") or 30)
# psycopg_pool reconnects a lost connection with an exponential backoff (1 s, 2 s, 4 s... up to minutes):
# after a 30 s outage the pool would stay empty for up to 16 s more. A steady half-second retry brings
# every pool back within a second of the database (a refused connection costs nothing).
AttemptWithBackoff.INITIAL_DELAY = 0.5
AttemptWithBackoff.DELAY_BACKOFF = 1.0


@dataclass(frozen=True, slots=True)
class Rows:
    """Rows of another table written in the same transaction as a save's events (`GameStore.save(game,
    rows=[...])`): the seats, deal and owner of a new game are never stored without its events, nor the
    events without them. `table` is unqualified (PostgreSQL: the store's schema)."""

    table: str
    columns: tuple[str, ...]
    values: Sequence[tuple[Any, ...]]
    # Key columns of rows that replace earlier ones: the rows with the same values in them are deleted
    # first (a seat's row rewritten with the table batch that re-issues its link, api/tables.py).
    replace: tuple[str, ...] = ()

    def _name(self, schema: str | None) -> str:
        return self.table if schema is None else f'"{schema}".{self.table}'

    def statement(self, mark: str, schema: str | None = None) -> str:
        marks = ", ".join(mark for _ in self.columns)
        return f"INSERT INTO {self._name(schema)} ({', '.join(self.columns)}) VALUES ({marks})"

    def deletion(self, mark: str, schema: str | None = None) -> str:
        """The DELETE of the rows these replace (for `keys`)."""
        where = " AND ".join(f"{k} = {mark}" for k in self.replace)
        return f"DELETE FROM {self._name(schema)} WHERE {where}"

    def keys(self) -> list[tuple[Any, ...]]:
        at = [self.columns.index(k) for k in self.replace]
        return [tuple(v[i] for i in at) for v in self.values]

    def write(self, cursor: Any, mark: str, schema: str | None = None) -> None:
        """Write the rows with a DB-API cursor of the save's transaction."""
        if self.replace:
            cursor.executemany(self.deletion(mark, schema), self.keys())
        cursor.executemany(self.statement(mark, schema), list(self.values))


# SQLite storage layouts (docs/storage.md). A file keeps the layout it was created with: each table is read
# and written in the layout its declared schema shows, and new files are created in SQLITE_LAYOUT.
#   1: the library's own tables: a game's UUID as 32 hex characters and the topic as text on every row.
#   2: a game's UUID as a 16-byte BLOB (in the table and in its primary-key index), the topic as a small
#      integer code of the file's `stored_topics` table, snapshots in a rowid table (no half-empty
#      overflow pages). Everything above the recorders sees UUIDs and topics as in layout 1.
SQLITE_LAYOUT = 2
TOPICS_TABLE = "stored_topics"


def sqlite_layout(c: SQLiteCursor | sqlite3.Cursor, table: str) -> int | None:
    """The storage layout of a SQLite table, from its declared schema (None: no such table)."""
    c.execute(f"PRAGMA table_info({table})")
    types = {row[1]: str(row[2]).upper() for row in c.fetchall()}
    if not types:
        return None
    return 2 if types.get("originator_id") == "BLOB" else 1


def _id_bytes(originator_id: UUID | str) -> bytes:
    return (originator_id if isinstance(originator_id, UUID) else UUID(originator_id)).bytes


class TopicCodes:
    """The topic codes of one SQLite file (layout 2): `stored_topics (code, topic)`, a code per topic,
    given in the transaction of the first event of the topic and never changed or deleted, so a code
    once committed stays valid (cached here: a code is cached only once its transaction committed,
    since a rolled-back one may give it to another topic)."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore
        self.code_of: dict[str, int] = {}
        self.topic_of: dict[int, str] = {}
        self._lock = threading.Lock()

    def codes(self, c: SQLiteCursor, topics: Sequence[str], fresh: dict[str, int]) -> list[int]:
        """The codes of `topics` in transaction `c`: a topic the file does not have yet is given its code
        in `c`. The codes not cached yet are put in `fresh`, to `remember` once `c` committed."""
        code_of = self.code_of
        try:
            return [code_of[t] for t in topics]
        except KeyError:
            pass
        # Writing first: the transaction takes the file's write lock before it reads (a read first could
        # not be upgraded to a write once another process committed meanwhile).
        for topic in sorted({t for t in topics if t not in code_of}):
            c.execute(
                f"INSERT INTO {TOPICS_TABLE} (topic) VALUES (?) ON CONFLICT (topic) DO NOTHING", (topic,)
            )
        c.execute(f"SELECT code, topic FROM {TOPICS_TABLE}")
        found = {str(topic): int(code) for code, topic in c.fetchall()}
        fresh.update((t, found[t]) for t in topics if t not in code_of)
        return [found[t] for t in topics]

    def remember(self, fresh: Mapping[str, int]) -> None:
        """Cache the codes of a committed transaction."""
        if fresh:
            with self._lock:
                for topic, code in fresh.items():
                    self.code_of[topic] = code
                    self.topic_of[code] = topic

    def topic(self, code: int) -> str:
        """The topic of a code read from a row (a code given by another process is read once)."""
        topic = self.topic_of.get(code)
        if topic is None:
            self._load()
            topic = self.topic_of.get(code)
            if topic is None:
                raise ValueError(f"unknown topic code {code} in {TOPICS_TABLE}")
        return topic

    def _load(self) -> None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT code, topic FROM {TOPICS_TABLE}")
            self.remember({str(topic): int(code) for code, topic in c.fetchall()})


def _create_statements(table: str) -> list[str]:
    """The CREATE statements of a layout-2 event or snapshot table (layout 1: the library's own)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {TOPICS_TABLE} (code INTEGER PRIMARY KEY, topic TEXT NOT NULL UNIQUE)",
        f"CREATE TABLE IF NOT EXISTS {table} (originator_id BLOB, originator_version INTEGER, "
        "topic INTEGER, state BLOB, PRIMARY KEY (originator_id, originator_version), "
        # A release that knows only layout 1 finds the table and would write hex IDs and topic texts
        # into it: the file refuses them (no mixed rows; there is no downgrade, docs/storage.md).
        "CHECK (typeof(originator_id) = 'blob' AND length(originator_id) = 16 "
        "AND typeof(topic) = 'integer'))",
    ]


def _file_layout(datastore: SQLiteDatastore, table: str, default: int | None = None) -> int:
    """The layout of `table` in the file, or of new tables (`default`, else SQLITE_LAYOUT; layout 2 keeps
    UUIDs, so a store of text originator IDs stays in layout 1)."""
    with datastore.transaction(commit=False) as c:
        found = sqlite_layout(c, table)
    if found is not None:
        return found
    if datastore.originator_id_type != "uuid":
        return 1
    return default or SQLITE_LAYOUT


class LayoutRecorder(SQLiteAggregateRecorder):
    """A SQLite table of stored events in the file's storage layout (docs/storage.md): layout 1 is the
    library's own code; layout 2 binds a game's UUID as its 16 bytes and a topic as its code, and gives
    back UUIDs and topics as layout 1 does, so nothing above the recorder sees the difference."""

    def __init__(
        self,
        datastore: SQLiteDatastore,
        events_table_name: str = "stored_events",
        *,
        layout: int | None = None,
        topic_codes: TopicCodes | None = None,
    ) -> None:
        self.layout = _file_layout(datastore, events_table_name, layout)
        self.topic_codes = topic_codes or TopicCodes(datastore)
        super().__init__(datastore, events_table_name)

    def construct_create_table_statements(self) -> list[str]:
        if self.layout == 1:
            return super().construct_create_table_statements()
        return _create_statements(self.events_table_name)

    def create_table(self) -> None:
        super().create_table()
        self.layout = _file_layout(self.datastore, self.events_table_name)  # as stored

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if self.layout == 1:
            return super().insert_events(stored_events, **kwargs)
        fresh: dict[str, int] = {}  # the topic codes this transaction gives or reads first
        with self.datastore.transaction(commit=True) as c:
            ids = self._insert_events(c, stored_events, fresh_codes=fresh, **kwargs)
        self.topic_codes.remember(fresh)  # committed
        return ids

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if self.layout == 1:
            return super()._insert_events(c, stored_events, **kwargs)
        codes = self.topic_codes.codes(c, [s.topic for s in stored_events], kwargs.get("fresh_codes", {}))
        ids = []
        for s, code in zip(stored_events, codes, strict=True):
            c.execute(
                self.insert_events_statement,
                (_id_bytes(s.originator_id), s.originator_version, code, s.state),
            )
            ids.append(c.lastrowid)
        return ids  # the rowids: the notification IDs of an events table

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        if self.layout == 1:
            return super().select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        # The library's query, the ID bound as its 16 bytes.
        uid = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
        statement = self.select_events_statement
        params: list[Any] = [uid.bytes]
        if gt is not None:
            statement += "AND originator_version>? "
            params.append(gt)
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += "ORDER BY originator_version DESC " if desc else "ORDER BY originator_version ASC "
        if limit is not None:
            statement += "LIMIT ? "
            params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            rows = c.fetchall()
        topic_of, topic = self.topic_codes.topic_of, self.topic_codes.topic
        return [StoredEvent(uid, row[1], topic_of.get(row[2]) or topic(row[2]), row[3]) for row in rows]


class SQLiteRecorder(LayoutRecorder, SQLiteApplicationRecorder):
    """The library's SQLite recorder in the file's storage layout (`LayoutRecorder`), writing a save's
    `rows` inside the transaction of its events."""

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        for rows in kwargs.get("rows") or ():
            rows.write(c, "?")
        return ids

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        if self.layout == 1:
            return super().select_notifications(
                start, limit, stop, topics, inclusive_of_start=inclusive_of_start
            )
        # The library's query, the topics bound as their codes.
        conditions: list[str] = []
        params: list[Any] = []
        if start is not None:
            conditions.append("rowid>=?" if inclusive_of_start else "rowid>?")
            params.append(start)
        if stop is not None:
            conditions.append("rowid<=?")
            params.append(stop)
        if topics:
            # The codes are looked up in the same statement as the rows (one snapshot of the file): a
            # code read in an earlier transaction could miss the first row of a topic committed between
            # the two reads while a later row is read, and the reader's position would pass it for good.
            marks = ",".join("?" * len(topics))
            conditions.append(f"topic IN (SELECT code FROM {TOPICS_TABLE} WHERE topic IN ({marks}))")
            params += list(topics)
        where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
        statement = f"SELECT rowid, * FROM {self.events_table_name} {where}ORDER BY rowid LIMIT ?"
        params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            rows = c.fetchall()
        topic_of, topic = self.topic_codes.topic_of, self.topic_codes.topic
        return [
            Notification(
                id=row[0],
                originator_id=UUID(bytes=row[1]),
                originator_version=row[2],
                topic=topic_of.get(row[3]) or topic(row[3]),
                state=row[4],
            )
            for row in rows
        ]


class SQLiteSnapshotRecorder(LayoutRecorder):
    """The snapshots' recorder of a SQLite store, in the layout of its table, or of the file's events
    when the table is new. In layout 2 it is a rowid table: a snapshot (about 3 KB) fits in a table page,
    where the index pages of a table WITHOUT ROWID (layout 1) keep at most about 1 KB of a row and spill
    the rest into a page of its own."""

    def __init__(
        self,
        datastore: SQLiteDatastore,
        events_table_name: str = "stored_snapshots",
        *,
        layout: int | None = None,
        topic_codes: TopicCodes | None = None,
    ) -> None:
        super().__init__(datastore, events_table_name, layout=layout, topic_codes=topic_codes)


def _single_attempt(name: str) -> Callable[..., Any]:
    wrapped = getattr(PostgresApplicationRecorder, name).__wrapped__

    def call(self: PostgresApplicationRecorder, *args: Any, **kwargs: Any) -> Any:
        return wrapped(self, *args, **kwargs)

    call.__name__ = name
    return call


class PostgresRecorder(PostgresApplicationRecorder):
    """The library's PostgreSQL recorder with bounded waits, writing a save's `rows` inside the
    transaction of its events.

    The library retries a failed connection ten times per call (each waiting up to the pool timeout),
    which turns an outage into half a minute of hanging requests. Here each call makes one attempt:
    pooled connections are checked before use (`POSTGRES_PRE_PING`), so a connection broken by a restart
    is replaced, not failed with; an outage fails within `DB_TIMEOUT_SECONDS` and the API answers 503."""

    insert_events = _single_attempt("insert_events")
    select_events = _single_attempt("select_events")
    select_notifications = _single_attempt("select_notifications")
    max_notification_id = _single_attempt("max_notification_id")

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        bound_connections(datastore)

    def _insert_events(self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        super()._insert_events(curs, stored_events, **kwargs)
        for rows in kwargs.get("rows") or ():
            rows.write(curs, "%s", self.datastore.schema)


def connection_options() -> dict[str, Any]:
    """libpq settings of every PostgreSQL connection: bounded connect and statement times, and TCP
    keepalives so that a vanished server is noticed."""
    return {
        "connect_timeout": DB_TIMEOUT_SECONDS,
        "options": f"-c statement_timeout={int(DB_STATEMENT_TIMEOUT_SECONDS * 1000)}",
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 2,
        "keepalives_count": 3,
    }


# How long a call waits for a pooled connection (psycopg_pool's `timeout`), under DB_TIMEOUT_SECONDS: a
# request makes a few store calls, and the first that meets an outage opens the pool's breaker.
POOL_WAIT_SECONDS = float(os.environ.get("GALILEO_DB_POOL_WAIT_SECONDS") or 1.5)
BREAKER_RETRY_SECONDS = 0.25  # while open, one caller per interval tries the database for real


class Breaker:
    """A pool's circuit breaker (docs/operations.md, "Outages"): after a failure to get a connection, every
    call fails at once (PoolTimeout, a 503) instead of waiting out its own timeout, except one caller per
    `BREAKER_RETRY_SECONDS` that tries for real (the store probe, or a request): its success closes
    the breaker. No request then waits more than one pool wait for its 503."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open_until = 0.0  # 0: closed
        self.tripped = False

    def enter(self) -> None:
        if not self.tripped:
            return
        with self._lock:
            now = time.monotonic()
            if now < self._open_until:
                raise PoolTimeout("the database was unreachable a moment ago; not waiting for it")
            self._open_until = now + BREAKER_RETRY_SECONDS  # this caller is the trial

    def failed(self) -> None:
        with self._lock:
            self.tripped = True
            self._open_until = time.monotonic() + BREAKER_RETRY_SECONDS

    def succeeded(self) -> None:
        if self.tripped:
            with self._lock:
                self.tripped, self._open_until = False, 0.0


_BREAKERS: dict[tuple[str, str, str], Breaker] = {}
_BREAKERS_LOCK = threading.Lock()


def breaker_of(pool: ConnectionPool[Any]) -> Breaker:
    """The breaker of the database server `pool` connects to: one per (host, port, database) in this
    process, so the first failure in any pool (the event store's, the seats', the tables') spares
    every other pool its own wait."""
    found = pool.__dict__.get("breaker")
    if found is None:
        conninfo = pool.conninfo if isinstance(pool.conninfo, str) else ""
        kwargs = pool.kwargs if isinstance(pool.kwargs, dict) else {}
        info = psycopg.conninfo.conninfo_to_dict(conninfo, **kwargs)
        key = (str(info.get("host", "")), str(info.get("port", "")), str(info.get("dbname", "")))
        with _BREAKERS_LOCK:
            found = _BREAKERS.setdefault(key, Breaker())
        pool.__dict__["breaker"] = found
    return found


class GatedPool(ConnectionPool[Any]):
    """A psycopg pool with its server's `Breaker` in front of `getconn`."""

    def getconn(self, timeout: float | None = None) -> Any:
        breaker = breaker_of(self)
        breaker.enter()
        errors = self._stats[self._CONNECTIONS_ERRORS]
        try:
            conn = super().getconn(timeout)
        except psycopg.OperationalError as error:
            # A timeout while connections failed to open is the server's outage; one while every
            # connection was merely busy (a burst of work) is not, and must not stop the other pools.
            if self._stats[self._CONNECTIONS_ERRORS] > errors or not isinstance(error, PoolTimeout):
                breaker.failed()
            raise
        breaker.succeeded()
        return conn


def gate(pool: Any) -> None:
    """Put a breaker in front of an existing pool (the library's own) and bound its wait."""
    pool.__class__ = GatedPool
    pool.timeout = POOL_WAIT_SECONDS


def bound_connections(datastore: PostgresDatastore) -> None:
    """Give a library datastore's pool the bounded connection settings (before its first connection)
    and a breaker (`GatedPool`)."""
    kwargs = datastore.pool.kwargs
    assert isinstance(kwargs, dict)  # the library passes a dict
    kwargs.update(connection_options())
    gate(datastore.pool)


@contextmanager
def schema_lock(env: Mapping[str, str]) -> Iterator[None]:
    """Hold the PostgreSQL advisory lock that serialises table creation (nothing on SQLite).

    Processes starting together (API replicas, the projector) would otherwise fail with "tuple
    concurrently updated" when they create tables or replace the library's functions at once."""
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        yield
        return
    import psycopg

    with psycopg.connect(
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        dbname=env["POSTGRES_DBNAME"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"],
        autocommit=True,
        connect_timeout=DB_TIMEOUT_SECONDS,
    ) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (CREATE_TABLES_LOCK,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (CREATE_TABLES_LOCK,))


def on_save(listener: Callable[[], None]) -> Callable[[], None]:
    """Call `listener` after every save by any GameStore of this process (projections poll SQLite and
    are woken by it); returns the function that removes it. A listener must be quick and not raise."""
    _SAVE_LISTENERS.append(listener)
    return lambda: _SAVE_LISTENERS.remove(listener)


class Game(Aggregate):
    """One game: its state, the hash of its last event and the index of the command IDs it accepted."""

    TOPIC = "galileo:Game"

    class Event(Aggregate.Event):
        payload: dict[str, Any]  # event_to_dict(engine event)
        metadata: dict[str, Any]  # audit metadata, docs/audit.md

        def apply(self, aggregate: Game) -> None:
            aggregate.absorb(self.originator_version, self.payload, self.metadata)

    class Created(Aggregate.Created):  # the stored GameStarted: every game begins with it
        TOPIC = "galileo:GameStarted"

    # The table (docs/async.md), read off the events as they are absorbed. Class-level defaults keep
    # snapshots taken before these fields existed loadable; each game gets its own copies on first use.
    # (Annotated for type checkers only: the aggregate is a dataclass, and these are not its fields.)
    if TYPE_CHECKING:
        clock_log: Sequence[Sequence[Any]]
        pending: Mapping[str, Any] | None
        pause_votes: Sequence[int]
        last_batch: Sequence[Any]
        handed: Mapping[str, Sequence[str]]
        host_log: Sequence[Sequence[Any]] | None
        revoked: Mapping[str, int]
        claims: Mapping[str, str]
    clock_log = ()  # [kind, version, received_at, ...] facts: see replays/clock.py
    pending = None  # the open take-back request: {"seat", "to_version", "expires_at", "version", "answers"}
    pause_votes = ()  # seats that asked to pause the clocks
    cancelled = False
    last_batch = ()  # [first version, kind, actor] of the last batch
    handed = MappingProxyType({})  # seat (as text) -> [to, bot]: who plays it since SeatHandedOver
    # The host's acts (docs/async.md, ASYNC-9): [version, event type, seat or None, received_at] of each
    # event of a table batch the host caused. None: not known (a game loaded from a snapshot taken before
    # this field existed), read off the log instead (`host_acts`).
    host_log = None
    # seat (as text) -> the version of the last event that took the seat from its token (a re-issued
    # link, a host's hand-over: ASYNC-9). A snapshot older than this field misses only revocations older
    # than itself, which every request since has seen (`replays.table.unrevoked`).
    revoked = MappingProxyType({})
    # seat (as text) -> the holder of SeatClaimed (ACCT-1) or SeatInvited (ACCT-7), until handed over
    claims = MappingProxyType({})

    # The command-ID index is two dicts: `commands`, shared by the copies of a cached game and never
    # changed in place (a copy per load costs nothing), and `recent_commands`, this copy's own newer
    # entries (at most RECENT_COMMANDS, folded into a new `commands` when full). Both map a command ID
    # to [version of the first, version of the last event of its batch]; snapshots store both as they
    # are (a snapshot written before the split has `commands` only).
    if TYPE_CHECKING:
        recent_commands: Mapping[str, list[int]]
        _known: tuple[DomainEvent, GameState | None] | None
    recent_commands = MappingProxyType({})
    # The engine event and the state after it, when the caller already has them (`record`): absorbing
    # it then neither decodes the payload nor evolves the state again. Never stored.
    _known = None

    scheme = CHAINED  # the audit scheme of the game (its first event's; docs/audit.md)
    key: str | None = None  # the game's key of its group digests (scheme 3; its first event's)

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.last_hash = ZERO_HASH
        # A fork starts a fresh index: the IDs of the copied events belong to the source game.
        self.commands: Mapping[str, list[int]] = {}

    def command_span(self, command_id: str) -> list[int] | None:
        """[first, last] version of the batch of an accepted command ID (None if unknown)."""
        span = self.recent_commands.get(command_id)
        return span if span is not None else self.commands.get(command_id)

    def absorb(self, version: int, payload: Mapping[str, Any], metadata: Mapping[str, Any]) -> None:
        before = self.state
        known = self._known
        if known is not None:
            del self._known  # back to the class default: one event only
            event, after = known
            self.state = evolve(before, event) if after is None else after
        else:
            try:
                # upcast from the writer's shape
                event = event_from_dict(payload, metadata.get("engine_version"))
                self.state = evolve(before, event)
            except EventDoesNotFit as exc:
                raise exc.at(version) from exc
            except EditionUnknown:
                raise
            except ValueError as exc:  # a stored event this build cannot read
                raise EventDoesNotFit(str(payload.get("type")), str(exc), version) from exc
        self.last_hash = metadata["hash"]
        if before is None:
            self.scheme = scheme_of(metadata)
            self.key = metadata.get("key")
        if isinstance(event, GameForked):
            self.commands, self.recent_commands = {}, {}
        command_id = metadata.get("command_id")
        kind = metadata.get("kind")
        if command_id is not None and kind in ("command", "table"):
            self._index(command_id, version)
        self._table(version, event, before, metadata)

    def _index(self, command_id: str, version: int) -> None:
        recent = self.recent_commands
        if type(recent) is not dict:
            recent = self.recent_commands = {}
        span = recent.get(command_id)
        if span is not None:
            span[1] = version
            return
        shared = self.commands.get(command_id)
        recent[command_id] = [shared[0] if shared is not None else version, version]
        if len(recent) > RECENT_COMMANDS:
            self.commands, self.recent_commands = {**self.commands, **recent}, {}

    def _table(
        self, version: int, event: DomainEvent, before: GameState | None, metadata: Mapping[str, Any]
    ) -> None:
        """Keep the clock facts, the open take-back request, the pause votes and the cancellation."""
        at = str(metadata.get("received_at"))
        state = self.state
        assert state is not None
        if metadata.get("batch") == version:
            self.last_batch = [version, metadata.get("kind"), metadata.get("actor")]
            if metadata.get("kind") != "table":
                self.pending = None  # any move ends an open take-back request
        if before is None or isinstance(event, GameForked):
            self.clock_log = [["turn", version, at, state.turn.seat]]
            self.pending, self.pause_votes, self.cancelled, self.handed = None, [], False, {}
            self.host_log, self.revoked, self.claims = [], {}, {}
        else:
            fact = TABLE_FACTS.get(type(event))
            if fact is not None:
                fact(self, version, event, at)
        if self.host_log is not None and is_host_act(metadata):
            seat = getattr(event, "seat", None)
            self.host_log = [*self.host_log, [version, event.type, seat, at]]

    def record(
        self,
        event: DomainEvent,
        payload: dict[str, Any],
        metadata: dict[str, Any],
        state: GameState | None = None,
        **kw: Any,
    ) -> None:
        """Trigger the stored event of `event` (its payload and complete metadata given). `state`, when
        given, is the state after `event` as the engine computed it (`decide`): it is taken as is, not
        recomputed (each event is evolved once on the command path)."""
        self._known = (event, state)
        try:
            self.trigger_event(STORED_CLASSES[event.type], payload=payload, metadata=metadata, **kw)
        finally:
            self.__dict__.pop("_known", None)
        if self.version % SNAPSHOT_INTERVAL == 0:
            # The snapshot due at this version, taken from memory now (the store saves it after the
            # batch is committed: GameStore._take_snapshots), not rebuilt from the store.
            self.__dict__.setdefault("_snapshots_due", []).append((self.version, self.snapshot_state()))

    def snapshot_state(self) -> dict[str, Any]:
        """The aggregate's attributes as a snapshot stores them (eventsourcing's `Snapshot.take`)."""
        state = dict(vars(self))
        for key in ("_id", "_version", "_pending_events", "_snapshots_due", "_known"):
            state.pop(key, None)
        recent = state.get("recent_commands")
        if type(recent) is dict:  # its spans still grow: copy them
            state["recent_commands"] = {k: list(v) for k, v in recent.items()}
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # The state is immutable: a copy from the repository's cache only needs its own recent
        # command IDs and list of pending events (a real deep copy would also copy the whole component
        # catalog). `commands` is never changed in place: shared.
        clone = copy(self)
        recent = self.recent_commands
        if type(recent) is dict:
            clone.recent_commands = {k: list(v) for k, v in recent.items()}
        # clock_log, pause_votes, pending and last_batch are replaced, never mutated: shared safely.
        clone._pending_events = []
        clone.__dict__.pop("_snapshots_due", None)
        return clone


HOSTS = ("host", "operator")  # who acts as a table's host: its host token, or `galileo seats issue`


def is_host_act(metadata: Mapping[str, Any]) -> bool:
    """Whether an event's batch is one of the table's host (docs/async.md: a table batch, actor "host",
    or "operator" for `galileo seats issue` of a game without a host)."""
    return metadata.get("kind") == "table" and metadata.get("actor") in HOSTS


def _stored_class(name: str) -> type[Any]:
    if name == "GameStarted":
        return Game.Created
    topic = TOPIC_PREFIX + name
    cls = type(name, (Game.Event,), {"TOPIC": topic, "__module__": __name__})
    cls.__qualname__ = f"Game.{name}"
    register_topic(topic, cls)
    setattr(Game, name, cls)
    return cls


STORED_CLASSES: Mapping[str, type[Any]] = {name: _stored_class(name) for name in EVENT_TYPES}


def mutate_all(aggregate: Game | None, events: Iterable[Any]) -> Game | None:
    """The projector: `project_aggregate` without its slow runtime Protocol check (guide §8)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class OrjsonTranscoder(JSONTranscoder):
    """orjson with the library's tagged format for custom types, so it reads what JSON wrote (guide §4)."""

    OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj, default=self._encode_obj, option=self.OPTIONS)

    def decode(self, data: bytes) -> Any:
        obj = orjson.loads(data)
        if b'"_type_"' in data:
            # An event's payload and metadata are plain JSON by construction: not walking them
            # halves the time to rebuild a game.
            self._untag(obj, PLAIN_KEYS)
        return obj

    def _untag(self, obj: Any, skip: frozenset[str] = frozenset()) -> None:
        items = obj.items() if type(obj) is dict else enumerate(obj)
        for key, value in items:
            if key in skip:
                continue
            if type(value) is dict:
                self._untag(value)
                if len(value) == 2 and "_type_" in value:
                    obj[key] = self._decode_obj(value)
            elif type(value) is list:
                self._untag(value)


class GameStateAsDict(Transcoding):
    """A snapshot's state in its documented JSON form (docs: `dump_state`)."""

    type = GameState
    name = "galileo_state"  # stored in snapshots: never rename

    def encode(self, obj: GameState) -> dict[str, Any]:
        return dump_state(obj)

    def decode(self, data: dict[str, Any]) -> GameState:
        return load_state(data)


@cache
def _dictionary(number: int) -> bytes:
    """A preset dictionary of scheme-2 event rows (replays/dictionaries/, frozen: rows need it to be read)."""
    data = (DICTIONARIES / f"events-{number}.bin").read_bytes()
    if hashlib.sha256(data).hexdigest() != DICTIONARY_HASHES[number]:
        raise RuntimeError(f"replays/dictionaries/events-{number}.bin is not the released dictionary")
    return data


@cache
def _packer(number: int) -> Any:
    return zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _dictionary(number))


def pack(state: bytes) -> bytes:
    """A scheme-2 event row: a marker byte (the dictionary's number) and the JSON deflated with that
    preset dictionary (about a fifth of the JSON: most of an event is words every event has)."""
    packer = _packer(DICTIONARY).copy()  # the dictionary is primed once
    packed: bytes = packer.compress(state) + packer.flush()
    return bytes([DICTIONARY]) + packed


def unpack(state: bytes) -> bytes:
    """A row's JSON: a packed event row inflated, a snapshot decompressed, a plain JSON row as it is."""
    first = state[:1]
    if first == b"{":
        return state
    if first == SNAPSHOT_MARK:
        plain_snapshot: bytes = lzma.decompress(state[1:], format=lzma.FORMAT_RAW, filters=SNAPSHOT_FILTERS)
        return plain_snapshot
    if first and first[0] in DICTIONARY_HASHES:
        inflater = zlib.decompressobj(-15, _dictionary(first[0]))
        plain: bytes = inflater.decompress(state[1:]) + inflater.flush()
        return plain
    raise ValueError(f"unknown stored row encoding (first byte {first!r})")


class GameMapper(Mapper[UUID]):
    """The library's mapper, storing a game's events in their scheme's stored form and snapshots
    compressed (docs/audit.md, "Stored form").

    A scheme-2 event is stored with its metadata compacted (`replays.compact`: the batch's audit fields
    once, in its first event) and without the library's `timestamp` when that equals the batch's
    `received_at` (it is the time the service wrote the batch, which is when it received it; an import
    keeps its own). Reading expands it again: an event after the first of its batch takes the batch's
    fields from the mapper's cache of heads, or reads its head from the store. Snapshots are
    LZMA-compressed; a row written before (plain JSON) is read as it is."""

    recorder: Any = None  # set by the store: where a head missing from the cache is read

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._heads: OrderedDict[tuple[Any, int], dict[str, Any]] = OrderedDict()
        self._missed: OrderedDict[Any, int] = OrderedDict()  # per game: the batch of its last miss
        self._heads_lock = threading.Lock()
        self.snapshot_topic = get_topic(Game.Snapshot)

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = vars(domain_event)
        meta = state.get("metadata")
        if isinstance(meta, dict) and meta.get("scheme") in BATCHED:
            version = state["originator_version"]
            out = {k: v for k, v in state.items() if k not in ("originator_id", "originator_version")}
            out["metadata"] = compact(meta, version)
            stamp = out.get("timestamp")
            if isinstance(stamp, datetime) and stamp.isoformat() == meta.get("received_at"):
                del out["timestamp"]
            return StoredEvent(
                originator_id=state["originator_id"],
                originator_version=version,
                topic=get_topic(type(domain_event)),
                state=pack(self.transcoder.encode(out)),
            )
        stored = super().to_stored_event(domain_event)
        if stored.topic == self.snapshot_topic:
            return StoredEvent(
                stored.originator_id,
                stored.originator_version,
                stored.topic,
                SNAPSHOT_MARK + lzma.compress(stored.state, format=lzma.FORMAT_RAW, filters=SNAPSHOT_FILTERS),
            )
        return stored

    def decode_state(self, state: bytes) -> Any:
        """A stored row's state as data: its JSON, unpacked first if need be (verification reads rows
        this way, before trusting them)."""
        return self.transcoder.decode(unpack(state))

    def to_domain_event(self, stored_event: Any) -> Any:
        if stored_event.state[:1] != b"{":
            stored_event = StoredEvent(
                stored_event.originator_id,
                stored_event.originator_version,
                stored_event.topic,
                unpack(stored_event.state),
            )
        domain_event = super().to_domain_event(stored_event)
        state = domain_event.__dict__
        meta = state.get("metadata")
        if isinstance(meta, dict) and is_compact(meta):
            version = stored_event.originator_version
            batch = batch_of(meta, version)
            head = None if batch == version else self._head(stored_event.originator_id, batch)
            expanded = expand(meta, version, head)
            if batch == version:
                self._remember(
                    stored_event.originator_id,
                    version,
                    {k: v for k, v in expanded.items() if k not in ("batch", "nonces", "key")},
                )
            state["metadata"] = expanded
            if "timestamp" not in state:
                state["timestamp"] = datetime.fromisoformat(expanded["received_at"])
        return domain_event

    def _remember(self, game_id: Any, batch: int, fields: dict[str, Any]) -> None:
        with self._heads_lock:
            self._heads[(game_id, batch)] = fields
            self._heads.move_to_end((game_id, batch))
            while len(self._heads) > HEADS_CACHED:
                self._heads.popitem(last=False)

    def _head(self, game_id: Any, batch: int) -> dict[str, Any]:
        with self._heads_lock:
            fields = self._heads.get((game_id, batch))
        if fields is not None:
            return fields
        # A second miss in the same game: a reader of a few event types (the statistics) follows the game
        # in order and misses the heads of the batches it reads; then one read serves the next ones too.
        # A first miss (a rebuild from a snapshot inside a batch) reads the head alone.
        with self._heads_lock:
            again = self._missed.get(game_id, batch) < batch
            self._missed[game_id] = batch
            self._missed.move_to_end(game_id)
            while len(self._missed) > HEADS_CACHED:
                self._missed.popitem(last=False)
        limit = HEADS_READ if again else 1
        rows = self.recorder.select_events(game_id, gt=batch - 1, limit=limit) if self.recorder else []
        if not rows or rows[0].originator_version != batch:
            raise StoredFormError(f"game {game_id}: the first event of batch {batch} is not stored")
        fields = head_fields(self.decode_state(rows[0].state).get("metadata"), batch)
        self._remember(game_id, batch, fields)
        for row in rows[1:]:
            try:
                meta = self.decode_state(row.state).get("metadata")
                if isinstance(meta, dict) and "s" in meta:
                    self._remember(game_id, row.originator_version, head_fields(meta, row.originator_version))
            except (StoredFormError, ValueError):  # read when asked for (verification reports it)
                continue
        return fields



# -- the table's facts (`Game._table`): one step per kind of event that changes them -----------------


def _turn_ended(game: Game, version: int, event: ev.TurnEnded, at: str) -> None:
    assert game.state is not None
    if not game.state.finished:
        game.clock_log = [*game.clock_log, ["turn", version, at, game.state.turn.seat]]


def _ended(game: Game, version: int, event: ev.GameEnded | ev.GameCancelled, at: str) -> None:
    game.clock_log = [*game.clock_log, ["end", version, at]]
    game.pending = None
    game.cancelled = game.cancelled or isinstance(event, ev.GameCancelled)


def _pause_requested(game: Game, version: int, event: ev.ClockPauseRequested, at: str) -> None:
    game.pause_votes = sorted({*game.pause_votes, event.seat})


def _paused(game: Game, version: int, event: ev.ClockPaused, at: str) -> None:
    game.clock_log = [*game.clock_log, ["pause", version, at]]
    game.pause_votes = []


def _resumed(game: Game, version: int, event: ev.ClockResumed, at: str) -> None:
    game.clock_log = [*game.clock_log, ["resume", version, at]]
    game.pause_votes = []


def _extended(game: Game, version: int, event: ev.ClockExtended, at: str) -> None:
    game.clock_log = [*game.clock_log, ["extend", version, at, event.seat, event.seconds]]


def _expired(game: Game, version: int, event: ev.TimeExpired, at: str) -> None:
    game.clock_log = [*game.clock_log, ["expired", version, at, event.seat]]


def _takeback_requested(game: Game, version: int, event: ev.TakeBackRequested, at: str) -> None:
    game.pending = {
        "seat": event.seat,
        "to_version": event.to_version,
        "expires_at": event.expires_at,
        "version": version,
        "answers": {},
    }


def _takeback_answered(game: Game, version: int, event: ev.TakeBackAnswered, at: str) -> None:
    if game.pending is not None:
        answers = {**dict(game.pending["answers"]), str(event.seat): event.accepted}
        game.pending = None if not event.accepted else {**game.pending, "answers": answers}


def _takeback_over(game: Game, version: int, event: ev.TakenBack | ev.TakeBackClosed, at: str) -> None:
    game.pending = None


def _handed_over(game: Game, version: int, event: ev.SeatHandedOver, at: str) -> None:
    game.handed = {**game.handed, str(event.seat): [event.to, event.bot]}
    game.claims = {k: v for k, v in game.claims.items() if k != str(event.seat)}
    if event.reason == "host":
        game.revoked = {**game.revoked, str(event.seat): version}


def _link_taken(game: Game, version: int, event: ev.SeatLinkReissued | ev.SeatRecovered, at: str) -> None:
    # Both take the seat from its old token (ASYNC-9, ACCT-2).
    game.revoked = {**game.revoked, str(event.seat): version}


def _attached(game: Game, version: int, event: ev.SeatClaimed | ev.SeatInvited, at: str) -> None:
    # ACCT-1, ACCT-7: the seat is attached to an account
    game.claims = {**game.claims, str(event.seat): event.holder}


# Event type -> how it changes the table's facts (exact types: none of these has a subclass, which
# tests/replays/test_store_table_facts.py checks); every other event leaves them as they are.
TABLE_FACTS: Mapping[type, Callable[[Game, int, Any, str], None]] = MappingProxyType(
    {
        ev.TurnEnded: _turn_ended,
        ev.GameEnded: _ended,
        ev.GameCancelled: _ended,
        ev.ClockPauseRequested: _pause_requested,
        ev.ClockPaused: _paused,
        ev.ClockResumed: _resumed,
        ev.ClockExtended: _extended,
        ev.TimeExpired: _expired,
        ev.TakeBackRequested: _takeback_requested,
        ev.TakeBackAnswered: _takeback_answered,
        ev.TakenBack: _takeback_over,
        ev.TakeBackClosed: _takeback_over,
        ev.SeatHandedOver: _handed_over,
        ev.SeatLinkReissued: _link_taken,
        ev.SeatRecovered: _link_taken,
        ev.SeatClaimed: _attached,
        ev.SeatInvited: _attached,
    }
)

class GameStore(Application[UUID]):
    """The eventsourcing application that saves and loads games (used through `replays.service.Games`)."""

    name = "Games"  # Postgres tables games_events and games_snapshots
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Game: SNAPSHOT_INTERVAL}
    snapshotting_projectors: ClassVar[dict[type[Any], ProjectorFunction[Any, Any]]] = {Game: mutate_all}

    if TYPE_CHECKING:
        mapper: GameMapper

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self.mapper.recorder = self.recorder
        self._load_locks = [threading.Lock() for _ in range(LOAD_LOCK_STRIPES)]

    def construct_env(self, name: str, env: Mapping[str, str] | None = None) -> Environment:
        # The store is configured by its URL only: the process environment is not consulted, so a
        # stray POSTGRES_* or GAMES_* variable cannot redirect it.
        values = dict(type(self).env)
        if type(self).snapshotting_intervals:
            values["IS_SNAPSHOTTING_ENABLED"] = "y"
        values.update(env or {})
        return Environment(name, values)

    def construct_snapshot_store(self) -> EventStore[UUID]:
        # On SQLite, the snapshots' recorder of the file's layout (docs/storage.md).
        recorder = self.recorder
        if not isinstance(recorder, SQLiteRecorder):
            return super().construct_snapshot_store()
        snapshots = SQLiteSnapshotRecorder(
            recorder.datastore, layout=recorder.layout, topic_codes=recorder.topic_codes
        )
        if self.factory.env_create_table():  # type: ignore[attr-defined]
            snapshots.create_table()
        return self.factory.event_store(mapper=self.mapper, recorder=snapshots)

    def construct_mapper(self) -> GameMapper:
        return GameMapper(transcoder=self.construct_transcoder())

    def construct_transcoder(self) -> OrjsonTranscoder:
        transcoder = OrjsonTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(GameStateAsDict())

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        recordings = super()._record(processing_event)
        # The game just saved is the newest state of it: cache a copy of it, so that the next load does
        # not read its events back and evolve them again (the cache is still fast-forwarded from the
        # store on each load: another process's writes are caught up with).
        cache = self.repository.cache
        if cache is not None:
            for game_id, game in processing_event.aggregates.items():
                if isinstance(game, Game):
                    with self._load_locks[game_id.int % LOAD_LOCK_STRIPES]:
                        try:
                            cached = cache.get(game_id)
                        except KeyError:
                            cached = None
                        if cached is None or cached.version < game.version:
                            cache.put(game_id, deepcopy(game))
        return recordings

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        # From memory: the states recorded when the saved batches reached a multiple of the interval
        # (`Game.record`). The library would rebuild each from the store instead.
        if self.snapshots is None:
            return
        for game_id, game in processing_event.aggregates.items():
            due = game.__dict__.pop("_snapshots_due", None) if isinstance(game, Game) else None
            for version, state in due or ():
                try:
                    snapshot = Game.Snapshot(
                        originator_id=game_id,
                        originator_version=version,
                        timestamp=Game.Snapshot.create_timestamp(),
                        topic=get_topic(Game),
                        state=state,
                    )
                    self.snapshots.put([snapshot])
                except Exception:
                    logger.exception(
                        "snapshot of game %s at version %s failed (the events are stored)", game_id, version
                    )

    def take_snapshot(
        self,
        aggregate_id: UUID,
        version: int | None = None,
        projector_func: ProjectorFunction[Any, Any] = mutate_all,
    ) -> None:
        # Snapshots are taken after the events were committed: a failure must not make a stored
        # move look failed. Reads fall back to the previous snapshot and the events.
        try:
            super().take_snapshot(aggregate_id, version, projector_func)
        except Exception:
            logger.exception(
                "snapshot of game %s at version %s failed (the events are stored)", aggregate_id, version
            )

    def _notify(self, recordings: list[Any]) -> None:
        # Called by Application.save after the events were committed: wake in-process projections.
        for listener in tuple(_SAVE_LISTENERS):
            try:
                listener()
            except Exception:
                logger.exception("a save listener failed (the events are stored)")

    def cached(self, game_id: UUID) -> Game | None:
        """A copy of the game as this process last loaded or saved it, without reading the store (None
        when it is not cached). It may be behind the store when another process wrote since: a save of
        new events from it then fails on the store's unique (game, version) key with IntegrityError, so
        a writer that decides on it learns of the other write before anything is stored."""
        cache = self.repository.cache
        if cache is None:
            return None
        with self._load_locks[game_id.int % LOAD_LOCK_STRIPES]:
            try:
                game = cache.get(game_id)
            except KeyError:
                return None
            return cast(Game, deepcopy(game))

    def load(self, game_id: UUID, version: int | None = None) -> Game:
        """The game now (from the cache, fast-forwarded from the store) or at `version` (rebuilt)."""
        if version is not None:
            game: Game = self.repository.get(game_id, version=version, projector_func=mutate_all)
            return game
        # The repository fast-forwards the one cached aggregate of a game under its own lock but copies
        # it after releasing that lock: a copy taken while another thread fast-forwards it could pair
        # one version with another's state. The stripe lock makes fast-forward and copy one step.
        with self._load_locks[game_id.int % LOAD_LOCK_STRIPES]:
            game = self.repository.get(game_id, projector_func=mutate_all)
        return game


def open_store(url: str) -> GameStore:
    """The store of a database URL, its tables created if need be (on PostgreSQL under the advisory
    lock of `schema_lock`)."""
    env = store_env(url)
    with schema_lock(env):
        return GameStore(env=env)


def store_env(url: str) -> dict[str, str]:
    """The eventsourcing environment of a database URL (`GALILEO_DATABASE_URL`).

    `sqlite:///relative/path.db`, `sqlite:////absolute/path.db` (the folder is created), or
    `postgresql://user[:password]@host[:port]/dbname[?schema=name]` (the schema must exist).
    """
    parts = urlsplit(url)
    common = {"AGGREGATE_CACHE_MAXSIZE": str(CACHE_SIZE)}
    if parts.scheme == "sqlite":
        path = unquote(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else ""
        if not path:
            raise ValueError(f"bad SQLite URL {url!r}: expected sqlite:///path/to/file.db")
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return {
            **common,
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": path,
            "APPLICATION_RECORDER_TOPIC": get_topic(SQLiteRecorder),
        }
    if parts.scheme in ("postgresql", "postgres"):
        dbname = unquote(parts.path.lstrip("/"))
        if not parts.hostname or not dbname:
            raise ValueError(f"bad PostgreSQL URL {url!r}: expected postgresql://user@host:port/dbname")
        env = {
            **common,
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": parts.hostname,
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            # Bounded waits and checked connections (docs/operations.md, "Outages"; `PostgresRecorder`).
            "POSTGRES_CONNECT_TIMEOUT": str(DB_TIMEOUT_SECONDS),
            "POSTGRES_PRE_PING": "y",
            "APPLICATION_RECORDER_TOPIC": get_topic(PostgresRecorder),
        }
        schema = parse_qs(parts.query).get("schema")
        if schema:
            env["POSTGRES_SCHEMA"] = schema[0]
        return env
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///path.db or postgresql://...")
