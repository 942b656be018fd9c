"""Fixtures of the store tests: one store per test, on SQLite (a file in tmp_path) and on PostgreSQL
(a schema of its own, dropped afterwards, so runs repeat), plus raw SQL access for tampering."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from domain import event_to_dict
from domain.bots import make_bot
from domain.selfplay import default_setup
from replays.audit import CHAINED, COMPACT, ZERO_HASH, link, link_batch, scheme_of, secret_groups
from replays.compact import is_compact
from replays.playout import play_out
from replays.records import StoredEvent
from replays.service import Games
from replays.store import TOPICS_TABLE, pack, sqlite_layout, unpack

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
# For the long games whose store checks (replay, export, forks) run on SQLite in every run: PostgreSQL
# under `make soak` only (the store's code is the same; tests/replays/test_store.py keeps both in every run).
SQLITE_THEN_SOAK = pytest.mark.parametrize(
    "store_url",
    ["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.soak])],
    indirect=True,
)


class StepClock:
    """A service clock that moves one second per call, from a fixed start."""

    def __init__(self) -> None:
        self.now = datetime(2025, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@contextmanager
def pg_schema(base: str) -> Iterator[str]:
    """A store URL on a fresh schema of the test database, dropped afterwards."""
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{base}?schema={schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/games.db"
        return
    with pg_schema(request.getfixturevalue("postgres_url")) as url:
        yield url


class SecretCounter:
    """Deterministic secret seeds and salts."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"test-secret-{self.n}"


@pytest.fixture
def games(store_url: str) -> Iterator[Games]:
    service = Games(store_url, clock=StepClock(), secret=SecretCounter())
    yield service
    service.close()


@pytest.fixture
def games_v2(store_url: str) -> Iterator[Games]:
    """A service that writes new games in audit scheme 2 (bare-hash digests: the games stored before
    issue 26, which keep their scheme for their whole life; docs/audit.md)."""
    service = Games(store_url, clock=StepClock(), secret=SecretCounter(), scheme=COMPACT)
    yield service
    service.close()


@pytest.fixture
def games_v1(store_url: str) -> Iterator[Games]:
    """A service that writes new games in audit scheme 1 (the first releases' scheme, docs/audit.md)."""
    service = Games(store_url, clock=StepClock(), secret=SecretCounter(), scheme=CHAINED)
    yield service
    service.close()


def new_game(games: Games, seed: str, players: int = 2) -> str:
    game_id, _ = games.create(default_setup(players, seed))
    return game_id


def play(games: Games, game_id: str, seed: str, limit: int | None = None) -> int:
    """Random bots (fast, ~30 ms a game in memory) play the stored game."""
    state = games.state(game_id)
    assert state is not None
    bots = [make_bot("random", f"{seed}:{i}") for i in range(len(state.players))]
    return play_out(games, game_id, bots, limit)


@pytest.fixture(scope="session")
def finished_export(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A complete export of a finished random-bot game, played through a SQLite store."""
    folder = tmp_path_factory.mktemp("finished")
    with Games(f"sqlite:///{folder}/games.db", clock=StepClock()) as service:
        game_id = new_game(service, "finished-1")
        play(service, game_id, "finished-1")
        return service.export(game_id)


@pytest.fixture(scope="session")
def finished_export_v1(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The same game written in audit scheme 1 (the scheme of the first releases' games)."""
    folder = tmp_path_factory.mktemp("finished-v1")
    with Games(f"sqlite:///{folder}/games.db", clock=StepClock(), scheme=CHAINED) as service:
        game_id = new_game(service, "finished-1")
        play(service, game_id, "finished-1")
        return service.export(game_id)


def export_lines(data: bytes) -> list[dict[str, Any]]:
    """An export file's lines, decoded (line 0 the header, line n the event of version n)."""
    return [orjson.loads(line) for line in data.splitlines()]


def export_file(lines: list[dict[str, Any]]) -> bytes:
    """An export file of `lines` (as `export_lines` gives them, edited or not)."""
    return b"\n".join(orjson.dumps(line) for line in lines) + b"\n"


def scoring_version(lines: list[dict[str, Any]]) -> int:
    """The version of a VictoryPointsScored worth points, past the opening (the event a forger edits)."""
    return next(
        line["version"]
        for line in lines[1:]
        if line["event"]["type"] == "VictoryPointsScored"
        and line["event"]["points"] > 0
        and line["version"] > 50
    )


def rehash(lines: list[dict[str, Any]], start: int) -> None:
    """Recompute the chain of export lines (line 0 the header, line n event n) from event `start` on, as
    a forger would, in the file's audit scheme (scheme 2: from the batch holding event `start`), and the
    header's head hash."""
    if scheme_of(lines[1]["meta"]) == CHAINED:
        prev = lines[start - 1]["meta"]["hash"] if start > 1 else ZERO_HASH
        for line in lines[start:]:
            line["meta"] = link(line["version"], line["event"], line["meta"], prev)
            prev = line["meta"]["hash"]
    else:
        first = lines[start]["meta"]["batch"]
        prev = lines[first - 1]["meta"]["hash"] if first > 1 else ""
        i = first
        while i < len(lines):
            j = i + 1
            while j < len(lines) and lines[j]["meta"]["batch"] == lines[i]["meta"]["batch"]:
                j += 1
            group = lines[i:j]
            metas = link_batch(
                group[0]["meta"]["batch"], [g["event"] for g in group], [g["meta"] for g in group], prev
            )
            for line, meta in zip(group, metas, strict=True):
                line["meta"] = meta
            prev, i = metas[0]["hash"], j
    lines[0]["head_hash"] = prev


class RawRows:
    """SQL access to the stored events of a game, to tamper with them behind the service's back (on SQLite
    in the file's storage layout, docs/storage.md: layout 2 keys a game by its UUID's 16 bytes and codes
    its topics in `stored_topics`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.layout = 1
        if url.startswith("sqlite:///"):
            import sqlite3

            self.conn: Any = sqlite3.connect(url[len("sqlite:///") :], isolation_level=None)
            self.table, self.mark = "stored_events", "?"
            self.layout = sqlite_layout(self.conn.cursor(), self.table) or 1
        else:
            import psycopg

            base, _, query = url.partition("?schema=")
            self.conn = psycopg.connect(base, autocommit=True)
            self.table, self.mark = f'"{query}".games_events', "%s"

    def _id(self, game_id: str) -> Any:
        if self.mark == "%s":
            return game_id
        return uuid.UUID(game_id).bytes if self.layout == 2 else uuid.UUID(game_id).hex

    def _topic(self, topic: str) -> Any:
        """The stored form of a topic (layout 2: its code, given one if it is new)."""
        if self.layout != 2:
            return topic
        self.sql(f"INSERT INTO {TOPICS_TABLE} (topic) VALUES (?) ON CONFLICT (topic) DO NOTHING", topic)
        ((code,),) = self.sql(f"SELECT code FROM {TOPICS_TABLE} WHERE topic = ?", topic)
        return code

    def sql(self, statement: str, *args: Any) -> list[Any]:
        cursor = self.conn.execute(statement.replace("?", self.mark), args)
        return list(cursor.fetchall()) if cursor.description else []

    def row(self, game_id: str, version: int) -> tuple[str, dict[str, Any]]:
        topic_column = (
            f"(SELECT topic FROM {TOPICS_TABLE} WHERE code = e.topic)" if self.layout == 2 else "e.topic"
        )
        (topic, state), *_ = self.sql(
            f"SELECT {topic_column}, e.state FROM {self.table} AS e "
            "WHERE e.originator_id = ? AND e.originator_version = ?",
            self._id(game_id),
            version,
        )
        return topic, orjson.loads(unpack(bytes(state)))  # a scheme-2 row is packed (docs/audit.md)

    def write(self, game_id: str, version: int, topic: str, data: dict[str, Any]) -> None:
        self.sql(
            f"UPDATE {self.table} SET topic = ?, state = ? "
            "WHERE originator_id = ? AND originator_version = ?",
            self._topic(topic),
            pack(orjson.dumps(data)) if is_compact(data.get("metadata") or {}) else orjson.dumps(data),
            self._id(game_id),
            version,
        )

    def delete(self, game_id: str, version: int) -> None:
        self.sql(
            f"DELETE FROM {self.table} WHERE originator_id = ? AND originator_version = ?",
            self._id(game_id),
            version,
        )

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def raw(store_url: str) -> Iterator[RawRows]:
    rows = RawRows(store_url)
    yield rows
    rows.close()


def randomness(events: Sequence[StoredEvent]) -> tuple[set[str], set[str]]:
    """Every nonce and every key of a game's metadata."""
    nonces = {n for s in events for n in (s.metadata.get("nonces") or {}).values()}
    return nonces, {s.metadata["key"] for s in events if "key" in s.metadata}


def assert_fresh(source: Sequence[StoredEvent], copied: Sequence[StoredEvent]) -> None:
    """Every secret group of every copied event has a nonce, and none is one of the source's; the copy's
    key is its own (issue 26: a commitment's randomness is never reused)."""
    (old_nonces, old_keys), (new_nonces, new_keys) = randomness(source), randomness(copied)
    assert new_nonces and not new_nonces & old_nonces
    for s in copied:
        groups = secret_groups(event_to_dict(s.event)["type"])
        assert set(s.metadata.get("nonces") or {}) == set(groups), s
        assert ("key" in s.metadata) == bool(groups), s
    assert len(new_keys) == 1 and not new_keys & old_keys
