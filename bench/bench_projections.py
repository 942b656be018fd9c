"""Projection benchmarks (projections issue), each figure against a baseline measured in the same run:

1. Rebuild rate: `galileo projections rebuild` of the lobby and of the statistics over a store of
   complete random-bot games, in events of the log per second, against the evolve-only replay rate of
   the same events (decoded already, in memory): the ratio prices reading, decoding and writing the view.
   A decode-only pass (read the log, decode each event, nothing else) splits that price.
2. `GET /games` with 10,000 games in the store: p50/p99 through the whole app (the lobby read model plus
   the API's seat table), against the lobby query alone (`LobbyView.list`).

SQLite always; the rebuild rates on PostgreSQL too when GALILEO_TEST_POSTGRES_URL is reachable.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from domain import evolve
from domain.events import Event
from projections import projector
from projections.source import fact_of, open_store
from tests.projections.corpus import Played, new_game, write

COMPLETE = 100  # complete games (2-4 random bots, every fourth with Luna)
TOTAL = 10_000  # games in the store for GET /games (the others just created)
REQUESTS = 300
POSTGRES_URL = os.environ.get("GALILEO_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def evolve_rate(games: list[list[Event]], repeat: int = 3) -> float:
    """Events per second of `evolve` alone over the games' events (best of `repeat`)."""
    count = sum(len(g) for g in games)
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        for events in games:
            state = None
            for event in events:
                state = evolve(state, event)
        best = min(best, time.perf_counter() - began)
    return count / best


def decode_rate(url: str) -> float:
    """Events per second of reading the whole log and decoding each event to an engine event."""
    app = open_store(url)
    try:
        began = time.perf_counter()
        position, count = 0, 0
        while True:
            batch = app.recorder.select_notifications(position, 500, inclusive_of_start=False)
            for n in batch:
                fact_of(app.mapper.to_domain_event(n)).event  # noqa: B018 (the decoding is the point)
            count += len(batch)
            if len(batch) < 500:
                return count / (time.perf_counter() - began)
            position = batch[-1].id
    finally:
        app.close()


def rebuild_rates(url: str) -> dict[str, tuple[float, int, float]]:
    """Per view: (log events per second, events processed, seconds) of a rebuild from event 1."""
    end = projector.head(url)
    out = {}
    for name in projector.SPECS:
        began = time.perf_counter()
        processed = projector.rebuild(url, name)
        seconds = time.perf_counter() - began
        out[name] = (end / seconds, processed, seconds)
    return out


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def timed(call: Callable[[], object], count: int = REQUESTS, warmup: int = 20) -> tuple[float, float]:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(count):
        began = time.perf_counter()
        call()
        samples.append(time.perf_counter() - began)
    return percentiles(samples)


def lobby_latency(url: str) -> dict[str, tuple[float, float]]:
    """p50/p99 in ms of the lobby query alone and of GET /games through the app."""
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.settings import Settings

    view = projector.open_lobby(url)
    out = {"LobbyView.list(limit=100)": timed(lambda: view.list(limit=100))}
    out["LobbyView.list(status=active, limit=100)"] = timed(lambda: view.list(status="active", limit=100))
    view.close()
    from tests.conftest import TEST_ENCRYPTION_KEY  # the bench shares the tests' PostgreSQL database

    app = create_app(Settings(database_url=url, bots=False, encryption_keys=(TEST_ENCRYPTION_KEY,)))
    with TestClient(app) as client:
        assert len(client.get("/games", params={"limit": 100}).json()["games"]) == 100

        def get(params: dict[str, object]) -> None:
            response = client.get("/games", params=params)
            assert response.status_code == 200

        out["GET /games?limit=100"] = timed(lambda: get({"limit": 100}))
        out["GET /games?status=active&limit=100"] = timed(lambda: get({"status": "active", "limit": 100}))
        out["GET /games?limit=10"] = timed(lambda: get({"limit": 10}))
    return out


def copy_to_postgres(sqlite_path: Path, base: str) -> str | None:
    """The SQLite store's rows copied into a new PostgreSQL schema (None when PostgreSQL is unreachable)."""
    try:
        import psycopg

        with psycopg.connect(base, connect_timeout=2, autocommit=True) as conn:
            schema = f"bench_proj_{uuid.uuid4().hex[:10]}"
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except Exception as error:
        print(f"PostgreSQL not reachable at {base} ({type(error).__name__}): rebuild rates on SQLite only")
        return None
    url = f"{base}?schema={schema}"
    open_store(url).close()
    source = open_store(f"sqlite:///{sqlite_path}")
    with psycopg.connect(base, autocommit=True) as conn, conn.cursor() as cursor:
        columns = "originator_id, originator_version, topic, state"
        with cursor.copy(f'COPY "{schema}".games_events ({columns}) FROM STDIN') as copy:
            start = None
            while True:  # through the store's recorder: either SQLite layout (docs/storage.md)
                page = source.recorder.select_notifications(start, 5000, inclusive_of_start=False)
                for n in page:
                    copy.write_row((n.originator_id, n.originator_version, n.topic, n.state))
                if len(page) < 5000:
                    break
                start = page[-1].id
    source.close()
    return url


def drop_schema(url: str) -> None:
    import psycopg

    base, _, schema = url.partition("?schema=")
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def report_rebuild(label: str, url: str, replay: float) -> None:
    decode = decode_rate(url)
    print(f"{label}: read + decode only: {decode:,.0f} events/s ({decode / replay:.2f} x evolve-only)")
    for name, (rate, processed, seconds) in rebuild_rates(url).items():
        print(
            f"{label}: rebuild {name}: {rate:,.0f} log events/s ({processed:,} of them processed, "
            f"{seconds:.2f} s); ratio to evolve-only replay {rate / replay:.2f}"
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        url = f"sqlite:///{path}"
        began = time.perf_counter()
        complete: list[Played] = [new_game(i) for i in range(COMPLETE)]
        created = [new_game(COMPLETE + i, limit=0) for i in range(TOTAL - COMPLETE)]
        store = open_store(url)
        write(store, complete)
        write(store, created)
        store.close()
        events = sum(len(g.entries) for g in complete) + len(created)
        seconds = time.perf_counter() - began
        print(f"store: {TOTAL:,} games ({COMPLETE} complete), {events:,} events, built in {seconds:.0f} s")
        replay = evolve_rate([g.events for g in complete])
        print(f"evolve-only replay of the complete games (baseline): {replay:,.0f} events/s")
        report_rebuild("SQLite", url, replay)
        for what, (p50, p99) in lobby_latency(url).items():
            print(f"SQLite, {TOTAL:,} games: {what}: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
        pg = copy_to_postgres(path, POSTGRES_URL)
        if pg is not None:
            try:
                report_rebuild("PostgreSQL", pg, replay)
            finally:
                drop_schema(pg)


if __name__ == "__main__":
    main()
