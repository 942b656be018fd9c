"""Fixtures of the projection tests: stores on SQLite (a file in tmp_path) and on PostgreSQL (a schema of
its own, dropped afterwards, so runs repeat), empty or holding a corpus of complete bot games.

The corpus (games of 2-4 random bots, every fourth with Luna, a fifth people only, a fifth mixed, plus 3
played-out forks) is played and written to a SQLite file through the store's mapper and recorder once,
and kept in pytest's cache until the engine or the stored format changes. It has CORPUS_SAMPLE games in
the default suite and CORPUS_GAMES (at least 200, the projections issue's brute-force check) under the
`soak` marker. The small store (the first SMALL_GAMES games, a fork and 3 unfinished games) is built on
its own, so the tests that use only it never wait for a corpus. A test store copies a SQLite file; on
PostgreSQL its rows are copied with COPY, in notification order (the same stored events, much faster
than re-encoding them).
"""

from __future__ import annotations

import hashlib
import pickle
import shutil
import uuid
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

import tests.projections.corpus as corpus_module
from projections.source import open_store
from tests.projections.corpus import Played, corpus, fork, new_game, write

CORPUS_SAMPLE = 41  # spans 2-4 players, Luna on and off, every seat mix and their combinations
CORPUS_GAMES = 201
SMALL_GAMES = 12
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


CACHE_INPUTS = (
    "domain/**/*.py",
    "domain/catalog/**/*.json",
    "replays/store.py",
    "replays/audit.py",
    "replays/compact.py",
)


def _corpus_key() -> str:
    """A digest of everything the corpus depends on: the engine, its catalog, the stored format."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256(f"{SMALL_GAMES}:{version('eventsourcing')}".encode())
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


def _cached(request: pytest.FixtureRequest, name: str, build: Callable[[], list[Played]]) -> Path:
    """A folder of pytest's cache holding `games.db` (the games `build` plays) and `games.pickle`, built
    once under a digest of the engine, catalog and storage code: any change to them builds it again.
    Parallel workers share the cache: the first builds a folder, the others wait for it."""
    key = _corpus_key()
    folder = Path(request.config.cache.mkdir(f"projections-{name}-{key}"))
    with FileLock(str(folder.parent / f"projections-{name}.lock")):
        if not (folder / "complete").exists():
            for stale in folder.parent.glob(f"projections-{name}-*"):
                if stale.is_dir() and stale != folder:
                    shutil.rmtree(stale, ignore_errors=True)
            for leftover in folder.glob("games.db*"):
                leftover.unlink()
            games = build()
            _sqlite_store(folder / "games.db", games)
            (folder / "games.pickle").write_bytes(pickle.dumps(games))
            (folder / "complete").write_text(key)
    return folder


def _games(folder: Path) -> list[Played]:
    games: list[Played] = pickle.loads((folder / "games.pickle").read_bytes())
    return games


@pytest.fixture(
    scope="session",
    params=[
        pytest.param(CORPUS_SAMPLE, id=f"corpus-{CORPUS_SAMPLE}"),
        pytest.param(CORPUS_GAMES, id=f"corpus-{CORPUS_GAMES}", marks=pytest.mark.soak),
    ],
)
def corpus_size(request: pytest.FixtureRequest) -> int:
    """How many games the corpus has: a sample by default, more than 200 in `make soak`."""
    return int(request.param)


@pytest.fixture(scope="session")
def corpus_folder(request: pytest.FixtureRequest, corpus_size: int) -> Path:
    """The corpus: `corpus_size` complete games and 3 played-out forks (~6 s per 40 games to build)."""
    return _cached(request, f"corpus-{corpus_size}", lambda: corpus(corpus_size))


@pytest.fixture(scope="session")
def small_folder(request: pytest.FixtureRequest) -> Path:
    """The small store: the first SMALL_GAMES games of the corpus (the same seeds), a played-out fork of
    the first, and 3 unfinished games."""

    def build() -> list[Played]:
        games = [new_game(i) for i in range(SMALL_GAMES)]
        return [
            *games,
            fork(games[0], len(games[0].entries) // 2, CORPUS_GAMES),
            *(new_game(1000 + k, limit=25) for k in range(3)),
        ]

    return _cached(request, "small", build)


@pytest.fixture(scope="session")
def corpus_games(corpus_folder: Path) -> list[Played]:
    return _games(corpus_folder)


@pytest.fixture(scope="session")
def small_games(small_folder: Path) -> list[Played]:
    """The games of `small_url`: the first of the corpus, a fork of the first, 3 unfinished games."""
    return _games(small_folder)


@pytest.fixture(scope="session")
def corpus_file(corpus_folder: Path) -> Path:
    return corpus_folder / "games.db"


@pytest.fixture(scope="session")
def small_file(small_folder: Path) -> Path:
    """The store of `small_games`."""
    return small_folder / "games.db"


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
    with psycopg.connect(base, autocommit=True) as conn, conn.cursor() as cursor:
        statement = (
            f'COPY "{schema}".games_events (originator_id, originator_version, topic, state) FROM STDIN'
        )
        with cursor.copy(statement) as copy:
            for n in all_notifications(sqlite_path):
                copy.write_row((n.originator_id, n.originator_version, n.topic, n.state))


def all_notifications(sqlite_path: Path) -> Iterator[Any]:
    """Every stored event of a SQLite store in order, as its recorder gives them (in either layout)."""
    source = open_store(f"sqlite:///{sqlite_path}")
    try:
        start = None
        while True:
            page = source.recorder.select_notifications(start, 5000, inclusive_of_start=False)
            yield from page
            if len(page) < 5000:
                return
            start = page[-1].id
    finally:
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


@pytest.fixture
def fresh_schema(postgres_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL schema of the test's own (dropped after it)."""
    schemas = PostgresSchemas(postgres_url)
    try:
        yield schemas.new()
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
