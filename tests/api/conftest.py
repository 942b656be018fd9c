"""Fixtures of the API tests: an app on a fresh SQLite store per test, and live servers on free ports."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from api.app import create_app
from api.connections import uvicorn_options
from api.settings import NO_RATES, Settings
from tests.api.helpers import free_port, wait_until
from tests.conftest import TEST_ENCRYPTION_KEY

ClientFactory = Callable[..., TestClient]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # The lobby's projector is started only by the tests that read the lobby (`lobby_client`): it
    # competes for the two cores with long games played over HTTP.
    # No rate limits: tests create games faster than a person would (tests/api/test_limits.py has them).
    return Settings(
        database_url=f"sqlite:///{tmp_path}/games.db",
        stream_heartbeat_seconds=1.0,
        projections=False,
        rates=dict(NO_RATES),
        rate_key_prefix=f"test:rate:{uuid.uuid4().hex}",  # a test that turns rates on with Redis
        encryption_keys=(TEST_ENCRYPTION_KEY,),
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def lobby_client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(replace(settings, projections=True))) as test_client:
        yield test_client


class LiveServer:
    """An API server in a thread of this process, on a free port (for real SSE connections)."""

    def __init__(self, settings: Settings, log_level: str = "warning") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level=log_level,
            timeout_graceful_shutdown=1,
            **uvicorn_options(settings),  # as `galileo serve` runs it (slow clients closed)
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        wait_until(lambda: self.server.started, 10, "the server to start")
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server() -> Callable[[Settings], LiveServer]:
    return LiveServer
