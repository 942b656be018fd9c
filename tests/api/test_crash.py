"""`kill -9` of the API while games are being created, forked and imported leaves no game without its
seats and deal, nor a created game without its table host record: all are written in one transaction
with the game's events (api/seats.py `creation_rows`). Every acknowledged game is stored with its seats,
and the restarted server serves it."""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg
import pytest

from api.crypto import Keyring
from api.repair import find_orphans
from api.seats import open_seats
from api.tables import TableStore
from api.tokens import token_hash
from domain import SeatSpec, Setup
from replays.service import Games
from tests.api.servers import ServeProcess
from tests.conftest import TEST_ENCRYPTION_KEY

NDJSON = "application/x-ndjson"
ACKNOWLEDGED = 24  # creations answered 201 before the kill


def _backup(tmp_path: Path) -> bytes:
    with Games(f"sqlite:///{tmp_path}/backup.db") as games:
        game_id, _ = games.create(Setup(seats=(SeatSpec("A", "galileo"), SeatSpec("B", "kepler")), seed="b"))
        return games.export(game_id, reveal=True)


def _url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path}/games.db"
    base: str = request.getfixturevalue("postgres_url")
    schema = f"crash_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    request.addfinalizer(lambda: _drop(base, schema))
    return f"{base}?schema={schema}"


def _drop(base: str, schema: str) -> None:
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_kill_9_during_create_fork_and_import_leaves_no_orphan(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = _url(backend, tmp_path, request)
    env = {
        "GALILEO_DATABASE_URL": url,
        "GALILEO_PROJECTIONS": "off",
        "GALILEO_BOTS": "0",
        **{f"GALILEO_RATE_{k}": "off" for k in ("CREATE", "FORK", "IMPORT", "COMMAND", "READ")},
    }
    backup = _backup(tmp_path)
    acknowledged: list[dict] = []
    lock = threading.Lock()
    stop = threading.Event()
    with ServeProcess(tmp_path, env, "crash") as server:
        source = httpx.post(f"{server.url}/games", json={"seats": [{"name": "A"}, {"name": "B"}]}).json()

        def keep_making(make: Callable[[httpx.Client], httpx.Response]) -> None:
            with httpx.Client(base_url=server.url, timeout=10) as client:
                while not stop.is_set():
                    try:
                        response = make(client)
                    except httpx.HTTPError:
                        return  # the server is gone
                    if response.status_code == 201:
                        with lock:
                            acknowledged.append(response.json())

        makers = [
            lambda c: c.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}),
            lambda c: c.post(f"/games/{source['game_id']}/fork", json={"at_version": 1}),
            lambda c: c.post("/games/import", content=backup, headers={"Content-Type": NDJSON}),
        ]
        threads = [threading.Thread(target=keep_making, args=(m,), daemon=True) for m in makers]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while len(acknowledged) < ACKNOWLEDGED:
            assert time.monotonic() < deadline, f"only {len(acknowledged)} creations answered"
            time.sleep(0.01)
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)  # in the middle of the creations still in flight
        server.process.wait(10)
        stop.set()
        for t in threads:
            t.join(15)

    with Games(url) as games:
        seats = open_seats(url)
        try:
            assert find_orphans(games, seats) == []
            stored = {g.game_id for g in games.list_games()}
            answered = {a["game_id"] for a in acknowledged}
            assert answered <= stored  # nothing acknowledged was lost
            assert seats.recorded(stored) == stored  # every stored game has its deal row (no orphan at all)
            for game in acknowledged:
                assert len(seats.of_game(game["game_id"])) == len(game["seats"])
        finally:
            seats.close()
        tables = TableStore(url, Keyring.of([TEST_ENCRYPTION_KEY], "the tests' key"))
        try:
            created = {
                str(r[0])
                for r in tables.db.query("SELECT game_id FROM galileo_creations WHERE kind = 'create'")
            }
            hosted = {str(r[0]) for r in tables.db.query("SELECT game_id FROM galileo_tables")}
            assert created and hosted == created  # a created game's host record came with it, or neither
            assert hosted <= stored
            for game in acknowledged:
                record = tables.of_game(game["game_id"])
                if game.get("host_token"):  # POST /games
                    assert record is not None and record.host_hash == token_hash(game["host_token"])
                else:  # forks and imports have no table host
                    assert record is None
        finally:
            tables.close()

    with ServeProcess(tmp_path, env, "restarted") as server:  # the store opens; the start-up repair runs
        game = next(a for a in acknowledged if all(s["token"] for s in a["seats"]))
        token = game["seats"][0]["token"]
        moves = httpx.get(
            f"{server.url}/games/{game['game_id']}/moves", headers={"Authorization": f"Bearer {token}"}
        )
        assert moves.status_code == 200, moves.text
