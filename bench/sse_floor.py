"""The SSE figure's fair floor: a bare FastAPI POST on process A appends one event (eventsourcing, the
same store) and publishes its version to Redis; a bare SSE route on process B relays the channel.

    BENCH_DATABASE_URL=... BENCH_REDIS_URL=... uvicorn bench.sse_floor:app   (one per process)

`deliveries()` starts two such processes and times a POST on A until its version arrives on B's stream.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import httpx
from eventsourcing.application import Application
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

from bench.bench_api import StreamArrivals, Tally
from replays.store import store_env


class SseBare(Application[UUID]):
    name = "BenchSseBare"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {}


def create_app() -> FastAPI:
    import redis
    import redis.asyncio as aioredis

    url = os.environ["BENCH_DATABASE_URL"]
    env = store_env(url)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        env["SQLITE_DBNAME"] = env["SQLITE_DBNAME"] + ".sse-bare"
    events = SseBare(env=env)
    redis_url = os.environ.get("BENCH_REDIS_URL")
    publisher = redis.Redis.from_url(redis_url) if redis_url else None
    app = FastAPI()

    @app.get("/readyz")
    def ready() -> dict[str, bool]:
        return {"ok": True}

    @app.post("/tallies")
    def create() -> dict[str, str]:
        tally = Tally()
        events.save(tally)
        return {"id": str(tally.id)}

    @app.post("/tallies/{tally_id}/tick")
    def tick(tally_id: UUID) -> dict[str, int]:
        tally: Tally = events.repository.get(tally_id)
        tally.tick()
        events.save(tally)
        if publisher is not None:
            publisher.publish(f"bare:{tally_id}", str(tally.version))
        return {"version": tally.version}

    @app.get("/tallies/{tally_id}/stream")
    async def stream(tally_id: UUID) -> StreamingResponse:
        client = aioredis.Redis.from_url(redis_url or "")
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(f"bare:{tally_id}")

        async def relay() -> AsyncIterator[bytes]:
            try:
                yield b"id: 0\n\n"  # subscribed: the client may start
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        yield b"id: %s\n\n" % message["data"]
            finally:
                await pubsub.aclose()
                await client.aclose()

        return StreamingResponse(relay(), media_type="text/event-stream")

    return app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class BareProcess:
    def __init__(self, database_url: str, redis_url: str | None, log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "BENCH_DATABASE_URL": database_url}
        if redis_url:
            self.env["BENCH_REDIS_URL"] = redis_url
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.args = ["--port", str(self.port), "--log-level", "warning"]

    def __enter__(self) -> BareProcess:
        root = Path(__file__).resolve().parent.parent
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory", "bench.sse_floor:create_app", *self.args],
                cwd=root,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        from tests.api.servers import wait_ready  # the test harness's readiness wait (imports pytest)

        try:
            wait_ready(self.process, self.url, self.log, "the bare SSE server")
        except RuntimeError:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def deliveries(database_url: str, redis_url: str, count: int, workdir: Path) -> list[float]:
    """Seconds from a bare POST on process A to its version's arrival on process B's stream."""
    timings: list[float] = []
    with (
        BareProcess(database_url, redis_url, workdir / "bare-a.log") as a,
        BareProcess(database_url, redis_url, workdir / "bare-b.log") as b,
        httpx.Client(base_url=a.url, timeout=30) as http,
    ):
        tally = http.post("/tallies").json()["id"]
        with StreamArrivals(f"{b.url}/tallies/{tally}/stream") as arrivals:
            arrivals.wait(0)
            for _ in range(count):
                t0 = time.perf_counter()
                version = http.post(f"/tallies/{tally}/tick").json()["version"]
                timings.append(arrivals.wait(version) - t0)
    return timings
