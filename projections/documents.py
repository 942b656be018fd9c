"""Materialised views as tables of per-game JSON documents, with their tracking (guide §6).

A view keeps one row per game: the document (JSON) and copies of a few of its top-level fields as
columns to filter and sort on. It is an eventsourcing `TrackingRecorder`, so its rows and its position
in the store's notification log are written in one transaction (`GameProjection.flush`): after a crash
it resumes exactly where it stopped, and a batch is never applied twice.

`SQLiteDocuments` and `PostgresDocuments` are the two backends; a concrete view picks its `schema`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.sql import SQL, Composed

from projections.source import APP
from replays.store import bound_connections

Document = dict[str, Any]
CHUNK = 500  # ids per `IN (...)` on SQLite


@dataclass(frozen=True, slots=True)
class Schema:
    """A view's table: `columns` are (name, SQL type) copies of the document's top-level fields."""

    table: str
    columns: tuple[tuple[str, str], ...]
    indexes: tuple[tuple[str, ...], ...] = ()

    def create(self, qualified: str) -> list[str]:
        cols = ", ".join(f"{name} {kind}" for name, kind in self.columns)
        out = [
            f"CREATE TABLE IF NOT EXISTS {qualified} (game_id TEXT PRIMARY KEY, {cols}, doc TEXT NOT NULL)"
        ]
        for index in self.indexes:
            name = f"{self.table}_{'_'.join(index)}"
            out.append(f"CREATE INDEX IF NOT EXISTS {name} ON {qualified} ({', '.join(index)})")
        return out

    def upsert(self, qualified: str, mark: str) -> str:
        names = ["game_id", *(name for name, _ in self.columns), "doc"]
        updates = ", ".join(f"{n} = excluded.{n}" for n in names[1:])
        marks = ", ".join(mark for _ in names)
        return (
            f"INSERT INTO {qualified} ({', '.join(names)}) VALUES ({marks}) "
            f"ON CONFLICT (game_id) DO UPDATE SET {updates}"
        )

    def row(self, game_id: str, doc: Document) -> tuple[Any, ...]:
        values = (int(v) if isinstance(v, bool) else v for v in (doc.get(name) for name, _ in self.columns))
        return (game_id, *values, orjson.dumps(doc).decode())


class Moved(Exception):
    """The view's position is not where this runner left it: another runner (or a rebuild) moved it.
    The batch is dropped and the runner resumes from the stored position."""

    def __init__(self, expected: int, found: int) -> None:
        super().__init__(f"view moved: expected position {expected}, found {found}")
        self.found = found


class Documents(TrackingRecorder):
    """What projections and readers use of a view, whatever the backend (mixed into both below)."""

    schema: ClassVar[Schema]
    mark: ClassVar[str]
    lock_clause: ClassVar[str] = ""
    qualified: str
    tracking_qualified: str

    def transaction(self, commit: bool = True) -> Any:
        return self.datastore.transaction(commit=commit)  # type: ignore[attr-defined]

    def sql(self, statement: str) -> str:
        return statement.replace("?", self.mark)

    def position(self, c: Any) -> int:
        """The tracked position, locked until the end of the transaction where the backend can."""
        statement = f"SELECT notification_id FROM {self.tracking_qualified} WHERE application_name = ?"
        c.execute(self.sql(statement + self.lock_clause), (APP,))
        row = c.fetchone()
        return 0 if row is None else int(row["notification_id"])

    def load(self, c: Any, game_ids: Iterable[str]) -> dict[str, Document]:
        ids = list(game_ids)
        out: dict[str, Document] = {}
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            marks = ", ".join(self.mark for _ in part)
            c.execute(f"SELECT game_id, doc FROM {self.qualified} WHERE game_id IN ({marks})", part)
            for row in c.fetchall():
                out[row["game_id"]] = orjson.loads(row["doc"])
        return out

    def save(self, c: Any, docs: Mapping[str, Document]) -> None:
        c.executemany(
            self.schema.upsert(self.qualified, self.mark), [self.schema.row(k, d) for k, d in docs.items()]
        )

    def track(self, c: Any, tracking: Tracking) -> None:
        self._insert_tracking(c, tracking)  # type: ignore[attr-defined]

    def select(
        self,
        where: Sequence[str] = (),
        params: Sequence[Any] = (),
        order: str = "",
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Document]:
        """Documents matching every clause of `where` (SQL with `?` marks)."""
        statement = f"SELECT doc FROM {self.qualified}"
        values = list(params)
        if where:
            statement += " WHERE " + " AND ".join(f"({w})" for w in where)
        if order:
            statement += f" ORDER BY {order}"
        if limit is not None:
            statement += " LIMIT ? OFFSET ?"
            values += [limit, offset]
        with self.transaction(commit=False) as c:
            c.execute(self.sql(statement), values)
            return [orjson.loads(row["doc"]) for row in c.fetchall()]

    def count(self, where: Sequence[str] = (), params: Sequence[Any] = ()) -> int:
        statement = f"SELECT COUNT(*) AS n FROM {self.qualified}"
        if where:
            statement += " WHERE " + " AND ".join(f"({w})" for w in where)
        with self.transaction(commit=False) as c:
            c.execute(self.sql(statement), list(params))
            return int(c.fetchone()["n"])

    def dump(self) -> dict[str, Document]:
        """Every document by game (tests compare views with it)."""
        with self.transaction(commit=False) as c:
            c.execute(f"SELECT game_id, doc FROM {self.qualified} ORDER BY game_id")
            return {row["game_id"]: orjson.loads(row["doc"]) for row in c.fetchall()}

    def reset(self) -> None:
        """Drop the view's rows and forget its position, in one transaction (a rebuild starts from 1)."""
        with self.transaction() as c:
            c.execute(f"DROP TABLE IF EXISTS {self.qualified}")
            for statement in self.schema.create(self.qualified):
                c.execute(statement)
            c.execute(self.sql(f"DELETE FROM {self.tracking_qualified} WHERE application_name = ?"), (APP,))
            self.start_tracking(c)

    def start_tracking(self, c: Any) -> None:
        """Position 0 from the start, so that a runner always has a row to lock."""
        c.execute(
            self.sql(
                f"INSERT INTO {self.tracking_qualified} (application_name, notification_id) VALUES (?, 0) "
                "ON CONFLICT (application_name) DO NOTHING"
            ),
            (APP,),
        )

    def head(self) -> int:
        """The view's position in the notification log."""
        return self.max_tracking_id(APP) or 0


class SQLiteDocuments(Documents, SQLiteTrackingRecorder):
    mark = "?"

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        self.qualified = self.schema.table
        self.tracking_qualified = "tracking"
        super().__init__(datastore, **kwargs)

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *self.schema.create(self.qualified)]

    def create_table(self) -> None:
        # Created in one write transaction, safe against another process doing the same; the library's
        # migration marker is written too, so that its own recorders take the table as current.
        with self.transaction() as c:
            for statement in self.create_table_statements:
                c.execute(statement)
            c.execute(
                "INSERT INTO tracking (application_name, notification_id) VALUES (?, 1) "
                "ON CONFLICT (application_name) DO NOTHING",
                (self.table_migration_identifier,),
            )
            self.start_tracking(c)

    @contextmanager
    def transaction(self, commit: bool = True) -> Iterator[Any]:
        """A write transaction takes the write lock first (BEGIN IMMEDIATE) and waits for it: a deferred
        one that read before writing would fail at once if another connection wrote in between."""
        if not commit:
            with self.datastore.transaction(commit=False) as c:
                yield c
            return
        with self.datastore.get_connection(commit=True) as conn:
            c = conn.cursor()
            c.execute("BEGIN IMMEDIATE")
            try:
                yield c
            except BaseException:
                conn.rollback()
                raise
            conn.commit()


class PostgresDocuments(Documents, PostgresTrackingRecorder):
    mark = "%s"
    lock_clause = " FOR UPDATE"  # concurrent runners queue here, then see the moved position

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        # bounded connect and statement times (docs/operations.md, "Outages")
        bound_connections(self.datastore)
        schema = _quote(self.datastore.schema)
        self.qualified = f"{schema}.{_quote(self.schema.table)}"
        self.tracking_qualified = f"{schema}.{_quote(self.tracking_table_name)}"
        self.sql_create_statements += [Composed([SQL(s)]) for s in self.schema.create(self.qualified)]

    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        self.start_tracking(curs)

    def load(self, c: Any, game_ids: Iterable[str]) -> dict[str, Document]:
        c.execute(f"SELECT game_id, doc FROM {self.qualified} WHERE game_id = ANY(%s)", (list(game_ids),))
        return {row["game_id"]: orjson.loads(row["doc"]) for row in c.fetchall()}


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'
