"""Shared fixtures and collection rules of the whole suite.

Servers: a test that needs one takes the `postgres_url` or `redis_url` fixture, and is marked `postgres` or
`redis` automatically from the fixtures it uses (tests that reach them through `request.getfixturevalue`
carry the marker themselves). When the server is not reachable the test is skipped (and counted in the
summary), unless GALILEO_REQUIRE_SERVICES=1 (set by CI), in which case it fails.

Parallel runs (pytest-xdist, `make test` uses both cores): each worker gets a PostgreSQL database of its own
(`<database>_<worker>`, created on first use) and a Redis database number of its own, so no two workers
share tables or keys. Tests marked `slow` are collected first, so the long ones start early and the two
workers finish together.
"""

from __future__ import annotations

import contextlib
import os
import re

import pytest

DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
SERVICE_SKIP_PREFIX = "service unavailable: "
# The tests' one encryption key (api/crypto.py), in the environment of every server they start: the
# PostgreSQL test databases are shared by the runs of several checkouts, whose rows must all open. Tests of
# the key file and of rotation set their own.
TEST_ENCRYPTION_KEY = "Z2FsaWxlby10ZXN0cy1vbmx5LWtleS0zMi1ieXRlcyE="


def _services_required() -> bool:
    return os.environ.get("GALILEO_REQUIRE_SERVICES") == "1"


def _unavailable(what: str, url: str, env: str, error: Exception) -> None:
    message = f"{what} not reachable at {url}; set {env} ({type(error).__name__}: {error})"
    if _services_required():
        pytest.fail(f"GALILEO_REQUIRE_SERVICES=1 but {message}", pytrace=False)
    pytest.skip(SERVICE_SKIP_PREFIX + message)


def _worker() -> int | None:
    """The number of this pytest-xdist worker (gw0 -> 0), or None outside a parallel run."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else None


def _worker_postgres_url(base: str) -> str:
    """`base` with its database replaced by this worker's own, created if missing."""
    worker = _worker()
    if worker is None:
        return base
    import psycopg

    match = re.match(r"^(?P<head>[^?]*/)(?P<db>[^/?]+)(?P<tail>\?.*)?$", base)
    if match is None:
        return base
    database = f"{match['db']}_gw{worker}"
    with psycopg.connect(base, connect_timeout=2, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            # Two runs may race to create it: the loser finds it made.
            with contextlib.suppress(psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                conn.execute(f'CREATE DATABASE "{database}"')
    return f"{match['head']}{database}{match['tail'] or ''}"


def _worker_redis_url(base: str) -> str:
    """`base` with a Redis database number of this worker's own (base + 1 + worker, modulo 16)."""
    worker = _worker()
    match = re.match(r"^(?P<head>redis://[^/]+)(?:/(?P<db>\d+))?(?P<tail>\?.*)?$", base)
    if worker is None or match is None:
        return base
    number = (int(match["db"] or 0) + 1 + worker) % 16
    return f"{match['head']}/{number}{match['tail'] or ''}"


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of a reachable PostgreSQL database (GALILEO_TEST_POSTGRES_URL; a worker's own under xdist)."""
    url = os.environ.get("GALILEO_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        url = _worker_postgres_url(url)
    except Exception as error:
        _unavailable("PostgreSQL", url, "GALILEO_TEST_POSTGRES_URL", error)
    return url


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of a reachable Redis server (GALILEO_TEST_REDIS_URL; a worker's own database under xdist)."""
    url = _worker_redis_url(os.environ.get("GALILEO_TEST_REDIS_URL", DEFAULT_REDIS_URL))
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        _unavailable("Redis", url, "GALILEO_TEST_REDIS_URL", error)
    return url


def pytest_configure(config: pytest.Config) -> None:
    del config
    os.environ.setdefault("GALILEO_ENCRYPTION_KEYS", TEST_ENCRYPTION_KEY)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many tests were skipped because PostgreSQL or Redis was not reachable."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if SERVICE_SKIP_PREFIX in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} test(s) skipped for missing services (PostgreSQL/Redis); "
            "run `bash .ci/run` or set GALILEO_TEST_POSTGRES_URL / GALILEO_TEST_REDIS_URL",
            yellow=True,
        )
    else:
        terminalreporter.write_line("0 tests skipped for missing services")


SERVER_FIXTURES = {"postgres_url": "postgres", "redis_url": "redis"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by the servers its fixtures need, and run the `slow` ones first."""
    del config
    for item in items:
        for fixture, marker in SERVER_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None:
                item.add_marker(marker)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first
