"""`galileo clocks run` as its own process (compose's `clocks` service): an API process with
GALILEO_CLOCKS=off, and the clocks process records the timeout and plays the seat it handed to a bot."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from api.settings import Settings
from tests.api.helpers import StreamReader, wait_until


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres+redis", marks=[pytest.mark.postgres, pytest.mark.redis])]
)
def test_galileo_clocks_run_records_the_timeout_and_plays_the_seat(  # type: ignore[no-untyped-def]
    backend: str, settings: Settings, live_server, request: pytest.FixtureRequest
) -> None:
    if backend != "sqlite":  # compose's shape: PostgreSQL, and Redis carrying the events to the replicas
        settings = replace(
            settings,
            database_url=request.getfixturevalue("postgres_url"),
            redis_url=request.getfixturevalue("redis_url"),
        )
    api_only = replace(settings, clocks=False)
    env = {
        **os.environ,
        "GALILEO_DATABASE_URL": settings.database_url,
        "GALILEO_CLOCK_TICK_SECONDS": "0.2",
        "GALILEO_CLOCK_RESYNC_SECONDS": "1",
    }
    env.pop("REDIS_URL", None)
    if settings.redis_url:
        env["REDIS_URL"] = settings.redis_url
    with live_server(api_only) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        seats = [{"name": "Ada"}, {"name": "Ben"}]
        created = client.post("/games", json={"seats": seats, "first_seat": 0, "clock": {"per_move": "PT2S"}})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        stream = StreamReader(f"{server.url}/games/{game_id}/stream?after=0").start()  # on the API process
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "galileo"), "clocks", "run"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:

            def expired_and_played() -> bool:
                found = client.get(f"/games/{game_id}/events").json()["events"]
                kinds = [e["type"] for e in found]
                if "TimeExpired" not in kinds:
                    return False
                at = kinds.index("TimeExpired")
                assert found[at]["actor"] == "clock"
                return any(e["actor"] == 0 and e["type"] == "TelescopeMoved" for e in found[at:])

            wait_until(expired_and_played, 30, "the clocks process to expire seat 0 and play it", 0.2)
            seen: list[str] = []
            while "TimeExpired" not in seen:  # the API process's stream carries what the other recorded
                seen.append(stream.take(1, timeout=20)[0].get("data", {}).get("type", ""))
        finally:
            stream.stop()
            process.send_signal(signal.SIGTERM)
            _, err = process.communicate(timeout=20)
        assert process.returncode == 0, err.decode()[-2000:]
