"""Shared fixtures: URLs of the PostgreSQL and Redis servers used by integration tests.

A test that needs a server takes the `postgres_url` or `redis_url` fixture. When the server is not
reachable the test is skipped (and counted in the summary), unless GALILEO_REQUIRE_SERVICES=1 (set by CI),
in which case it fails.
"""

from __future__ import annotations

import os

import pytest

DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
SERVICE_SKIP_PREFIX = "service unavailable: "


def _services_required() -> bool:
    return os.environ.get("GALILEO_REQUIRE_SERVICES") == "1"


def _unavailable(what: str, url: str, env: str, error: Exception) -> None:
    message = f"{what} not reachable at {url}; set {env} ({type(error).__name__}: {error})"
    if _services_required():
        pytest.fail(f"GALILEO_REQUIRE_SERVICES=1 but {message}", pytrace=False)
    pytest.skip(SERVICE_SKIP_PREFIX + message)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of a reachable PostgreSQL database (GALILEO_TEST_POSTGRES_URL)."""
    url = os.environ.get("GALILEO_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
    except Exception as error:
        _unavailable("PostgreSQL", url, "GALILEO_TEST_POSTGRES_URL", error)
    return url


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of a reachable Redis server (GALILEO_TEST_REDIS_URL)."""
    url = os.environ.get("GALILEO_TEST_REDIS_URL", DEFAULT_REDIS_URL)
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
