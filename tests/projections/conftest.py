"""Fixtures of the projection tests: stores on SQLite (a file in tmp_path) and on PostgreSQL (a schema of
its own, dropped afterwards, so runs repeat), empty or holding a corpus of complete bot games.

The corpus (201 games of 2-4 random bots, every fourth with Luna, a fifth people only, a fifth mixed,
plus 3 played-out forks) is played and written to a SQLite file through the store's mapper and
recorder once, and kept in pytest's cache until the engine or the stored format changes. A test store
copies that file; on PostgreSQL its rows are copied with COPY, in notification order (the same stored
events, much faster than re-encoding them).
"""

from __future__ import annotations

import hashlib
import pickle
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest
from filelock import FileLock

import tests.projections.corpus as corpus_module
from projections.source import open_store
from tests.projections.corpus import Played, corpus, new_game, write

CORPUS_GAMES = 201
SMALL_GAMES = 12
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


CACHE_INPUTS = ("domain/**/*.py", "domain/catalog/**/*.json", "replays/store.py", "replays/audit.py")


def _corpus_key() -> str:
    """A digest of everything the corpus depends on: the engine, its catalog, the stored format."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256(f"{CORPUS_GAMES}:{SMALL_GAMES}:{version('eventsourcing')}".encode())
    files = sorted(
        {p for pattern in CACHE_INPUTS for p in root.glob(pattern)} | {Path(corpus_module.__file__)}
    )
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _sqlite_store(path: Path, games: list[Played]) -> None:
    store = open_store(f"sqlite:///{path}")
    try:
        write(store, games)
    finally:
        store.close()


@pytest.fixture(scope="session")
def corpus_folder(request: pytest.FixtureRequest) -> Path:
    """The corpus as SQLite stores (`games.db`, and `small.db` with the first games and a fork) and its
    games (`games.pickle`). Building it takes ~20-30 s, so it is kept in pytest's cache under a digest
    of the engine, catalog and storage code: any change to them builds it again."""
    key = _corpus_key()
    folder = Path(request.config.cache.mkdir(f"projections-corpus-{key}"))
    # Parallel workers share the cache: the first builds the corpus, the others wait for it.
    with FileLock(str(folder.parent / "projections-corpus.lock")):
        _build_corpus(folder, key)
    return folder


def _build_corpus(folder: Path, key: str) -> None:
    if not (folder / "complete").exists():
        for stale in folder.parent.glob("projections-corpus-*"):
            if stale != folder:
                shutil.rmtree(stale, ignore_errors=True)
        for name in ("games.db", "small.db"):
            for leftover in folder.glob(name + "*"):
                leftover.unlink()
        games = corpus(CORPUS_GAMES)
        small = [*games[:SMALL_GAMES], games[CORPUS_GAMES], *(new_game(1000 + k, limit=25) for k in range(3))]
        _sqlite_store(folder / "games.db", games)
        _sqlite_store(folder / "small.db", small)
        (folder / "games.pickle").write_bytes(pickle.dumps({"corpus": games, "small": small}))
        (folder / "complete").write_text(key)


@pytest.fixture(scope="session")
def played(corpus_folder: Path) -> dict[str, list[Played]]:
    games: dict[str, list[Played]] = pickle.loads((corpus_folder / "games.pickle").read_bytes())
    return games


@pytest.fixture(scope="session")
def corpus_games(played: dict[str, list[Played]]) -> list[Played]:
    return played["corpus"]


@pytest.fixture(scope="session")
def small_games(played: dict[str, list[Played]]) -> list[Played]:
    """The games of `small_url`: the first of the corpus, a fork of the first, 3 unfinished games."""
    return played["small"]


@pytest.fixture(scope="session")
def corpus_file(corpus_folder: Path) -> Path:
    return corpus_folder / "games.db"


@pytest.fixture(scope="session")
def small_file(corpus_folder: Path) -> Path:
    """The store of `small_games`."""
    return corpus_folder / "small.db"


class PostgresSchemas:
    """New schemas in the test database, dropped at the end."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.names: list[str] = []

    def new(self) -> str:
        import psycopg

        name = f"test_proj_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.base, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        self.names.append(name)
        return f"{self.base}?schema={name}"

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as conn:
            for name in self.names:
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def copy_rows(sqlite_path: Path, url: str) -> None:
    """Copy the stored events of a SQLite store into the (new) PostgreSQL store at `url`, in order."""
    import psycopg

    open_store(url).close()  # creates the tables
    base, _, schema = url.partition("?schema=")
    source = sqlite3.connect(sqlite_path)
    rows = source.execute(
        "SELECT originator_id, originator_version, topic, state FROM stored_events ORDER BY rowid"
    )
    with psycopg.connect(base, autocommit=True) as conn, conn.cursor() as cursor:
        statement = (
            f'COPY "{schema}".games_events (originator_id, originator_version, topic, state) FROM STDIN'
        )
        with cursor.copy(statement) as copy:
            for originator_id, version, topic, state in rows:
                copy.write_row((uuid.UUID(str(originator_id)), version, topic, state))
    source.close()


def _store_url(request: pytest.FixtureRequest, folder: Path, source: Path | None) -> Iterator[str]:
    if request.param == "sqlite":
        path = folder / "games.db"
        if source is not None:
            shutil.copy(source, path)
        yield f"sqlite:///{path}"
        return
    schemas = PostgresSchemas(request.getfixturevalue("postgres_url"))
    try:
        url = schemas.new()
        if source is not None:
            copy_rows(source, url)
        yield url
    finally:
        schemas.drop()


@pytest.fixture(params=BACKENDS)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty store."""
    yield from _store_url(request, tmp_path, None)


@pytest.fixture(scope="module", params=BACKENDS)
def corpus_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, corpus_file: Path
) -> Iterator[str]:
    """A store holding the whole corpus (shared by a module's tests: they rebuild the views they use)."""
    yield from _store_url(request, tmp_path_factory.mktemp("corpus-store"), corpus_file)


@pytest.fixture(params=BACKENDS)
def small_url(request: pytest.FixtureRequest, tmp_path: Path, small_file: Path) -> Iterator[str]:
    """A new store holding `small_games`."""
    yield from _store_url(request, tmp_path, small_file)
