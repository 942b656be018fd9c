"""Clients nobody here wrote play whole games against a real `galileo serve` on loopback (issue 32).

- A Python client generated from docs/openapi.json by `openapi-python-client` (generated into a
  temporary folder at test time, in about 4 s; nothing generated is committed) creates a 3-seat game
  with one bot, plays both people's seats to the end by reading `/moves` and posting one back, forks,
  exports, imports and verifies it, through the generated models and calls only.
- A TypeScript client (clients/ts: `openapi-typescript` types, `openapi-fetch` calls, the `eventsource`
  package) type-checks with `tsc --noEmit`, plays a game and follows its live stream, drops the stream
  mid-game and resumes it with `Last-Event-ID`: every event once, in order.
- `httpx-sse` reads a game's stream and resumes it by `Last-Event-ID` across a server restart, on
  SQLite (and on PostgreSQL under `make soak`).
"""

from __future__ import annotations

import importlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import psycopg
import pytest
from httpx_sse import connect_sse

from tests.api.helpers import create, play_turns, wait_until
from tests.api.servers import SHUTDOWN_GRACE_SECONDS, ServeProcess

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "openapi.json"
TS_CLIENT = ROOT / "clients" / "ts"
# The clients play whole games as fast as the machine lets them: no rate limit (reads included) is in the way.
NO_LIMITS = {
    f"GALILEO_RATE_{kind}": "off" for kind in ("CREATE", "FORK", "IMPORT", "COMMAND", "ANALYSIS", "READ")
}
# openapi-python-client's own settings: the import and export bodies are JSON Lines files, and a rating
# history is an SVG image, which it handles as the binary bodies they are (a `File`); its post-generation
# formatting is not needed here.
GENERATOR_CONFIG = """\
content_type_overrides:
  application/x-ndjson: application/octet-stream
  image/svg+xml: application/octet-stream
post_hooks: []
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One `galileo serve` (SQLite, bots on, no rate limits) shared by the client tests of this module."""
    folder = tmp_path_factory.mktemp("clients-serve")
    env = {
        "GALILEO_DATABASE_URL": f"sqlite:///{folder}/games.db",
        "GALILEO_PROJECTIONS": "off",
        **NO_LIMITS,
    }
    with ServeProcess(folder, env, "serve") as process:
        yield process


# -- the generated Python client -------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The package `openapi-python-client` generates from the committed contract, imported."""
    folder = tmp_path_factory.mktemp("python-client")
    config = folder / "config.yaml"
    config.write_text(GENERATOR_CONFIG, encoding="utf-8")
    generator = Path(sys.executable).parent / "openapi-python-client"
    result = subprocess.run(
        [str(generator), "generate", "--path", str(SPEC), "--meta", "none", "--config", str(config)]
        + ["--output-path", str(folder / "galileo_client")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr  # nothing skipped
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("galileo_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "galileo_client" or m.startswith("galileo_client.")]:
            del sys.modules[name]


def _module(name: str) -> Any:
    return importlib.import_module(f"galileo_client.{name}")


def test_a_generated_python_client_plays_forks_exports_imports_and_verifies_a_game(
    server: ServeProcess, generated: ModuleType
) -> None:
    client_module, models = _module("client"), _module("models")
    create_game, import_game = _module("api.games.create_game"), _module("api.games.import_game")
    list_moves, submit_command = _module("api.play.list_moves"), _module("api.play.submit_command")
    fork_game, export_game = _module("api.replay.fork_game"), _module("api.replay.export_game")
    verify_game, get_board = _module("api.replay.verify_game"), _module("api.games.get_board")
    File = _module("types").File

    anonymous = client_module.Client(base_url=server.url, raise_on_unexpected_status=True)
    body = models.CreateGame(
        seats=[
            models.SeatRequest(name="Ada"),
            models.SeatRequest(name="Ben"),
            models.SeatRequest(bot=models.SeatRequestBotType0.GREEDY),
        ],
        seed="generated-python-client",
    )
    created = create_game.sync(client=anonymous, body=body)
    assert isinstance(created, models.GameCreated), created
    assert created.deal == models.GameCreatedDeal.CHOSEN_SEED and len(created.seats) == 3
    game_id = created.game_id
    seats = {
        s.seat: client_module.AuthenticatedClient(
            base_url=server.url, token=s.token, raise_on_unexpected_status=True
        )
        for s in created.seats
        if isinstance(s.token, str)
    }
    assert sorted(seats) == [0, 1]  # the bot's seat has no token

    rng = random.Random(32)
    started = time.monotonic()
    decisions = 0
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        listing = list_moves.sync(game_id, client=seats[0])
        assert isinstance(listing, models.MovesOut), listing
        if listing.to_act is None:
            break
        if listing.to_act not in seats:  # the bot's turn: the server plays it
            time.sleep(0.01)
            continue
        if listing.to_act != 0:
            listing = list_moves.sync(game_id, client=seats[listing.to_act])
            if listing.to_act not in seats or not listing.moves:
                continue
        move = rng.choice(listing.moves)
        answer = submit_command.sync_detailed(
            game_id,
            client=seats[listing.seat],
            body=models.SubmitCommand(
                command=models.SubmitCommandCommand.from_dict(move.to_dict()),
                expected_version=listing.version,
                command_id=f"python-{listing.seat}-{listing.version}",
            ),
        )
        assert answer.status_code == 200, answer.content
        assert isinstance(answer.parsed, models.CommandResult) and answer.parsed.events
        decisions += 1
    assert decisions > 20
    print(f"python client: {decisions} decisions in {time.monotonic() - started:.1f} s")

    board = get_board.sync(game_id, client=anonymous)
    assert isinstance(board, models.BoardView) and board.status == "finished", board
    fork = fork_game.sync(game_id, client=seats[0], body=models.ForkGame(at_version=board.version // 2))
    assert isinstance(fork, models.GameCreated) and fork.game_id != game_id, fork
    assert fork.deal == models.GameCreatedDeal.KNOWN  # a finished game's deal is public
    exported = export_game.sync(game_id, client=seats[0])
    assert isinstance(exported, File), exported
    lines = exported.payload.read().splitlines()
    assert len(lines) > board.version  # a header, then one line per event
    imported = import_game.sync(
        client=anonymous, body=File(payload=io.BytesIO(b"\n".join(lines) + b"\n"), file_name="game.jsonl")
    )
    assert isinstance(imported, models.GameCreated), imported
    # Verification is open to anyone. The generator types every call whose operation lists a security
    # requirement as needing an AuthenticatedClient, even where the contract makes the token optional
    # (`security: [{}, {seatToken: []}]`); its calls take the anonymous Client all the same.
    for checked in (game_id, fork.game_id, imported.game_id):
        report = verify_game.sync(checked, client=anonymous)
        assert isinstance(report, models.VerifyReport), report
        assert report.ok and not report.findings, report.to_dict()
        assert [c.name.value for c in report.checks] == ["format", "chain", "adjudication", "fairness"]


# -- the generated TypeScript client (clients/ts) ---------------------------------------------------


def _tool(name: str) -> str:
    """The path of `name` (node, npm); the test is skipped on a machine without Node, never in CI."""
    found = shutil.which(name)
    if found is None:
        if os.environ.get("GALILEO_REQUIRE_SERVICES") == "1":
            pytest.fail(f"{name} is not installed (.ci/run needs Node 20 and npm)")
        pytest.skip(f"{name} is not installed: the TypeScript client needs Node 20 and npm")
    return found


@pytest.mark.slow
def test_a_generated_typescript_client_plays_and_resumes_its_stream_by_last_event_id(
    server: ServeProcess,
) -> None:
    """clients/ts/src/play.ts: types generated from docs/openapi.json, a full type check (`tsc`, which
    emits nothing on any error), then a whole game in Node with the stream dropped after 40 events."""
    npm, node = _tool("npm"), _tool("node")
    if not (TS_CLIENT / "node_modules" / "typescript").is_dir():
        if os.environ.get("GALILEO_REQUIRE_SERVICES") == "1":
            pytest.fail("clients/ts has no node_modules: .ci/run runs `npm ci` there")
        pytest.skip("run `npm ci` in clients/ts first")
    build = subprocess.run(
        [npm, "run", "-s", "build"], cwd=TS_CLIENT, capture_output=True, text=True, timeout=300, check=False
    )
    assert build.returncode == 0, build.stdout + build.stderr  # a type error fails here
    played = subprocess.run(
        [node, "dist/src/play.js", server.url],
        cwd=TS_CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    summary = json.loads(played.stdout.strip().splitlines()[-1])
    # play.ts itself checks that the events were 1..head, each once and in order, and that the game
    # verifies; here: the stream was resumed once, from the last event received, while the game moved on.
    assert summary["received"] == summary["head"] > 100
    first, resumed = summary["connections"]
    assert first["lastEventId"] is None and resumed["lastEventId"] == "40"
    assert resumed["versionWhenOpened"] > 40  # events were missed while disconnected, then caught up


# -- httpx-sse across a server restart ----------------------------------------------------------------


def _store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path}/games.db"
    base: str = request.getfixturevalue("postgres_url")
    schema = f"sse_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")

    def drop() -> None:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

    request.addfinalizer(drop)
    return f"{base}?schema={schema}"


class SseReader:
    """httpx-sse reading a game's stream in a thread: the event IDs, until the server closes it."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.ids: list[int] = []
        self.closed = threading.Event()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(url, headers), daemon=True)
        self._thread.start()

    def _run(self, url: str, headers: dict[str, str]) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10.0, read=60.0)) as http,
                connect_sse(http, "GET", url, headers=headers) as source,
            ):
                assert source.response.status_code == 200
                for message in source.iter_sse():
                    if message.event == "message" and message.id:
                        assert json.loads(message.data)["version"] == int(message.id)
                        self.ids.append(int(message.id))
        except httpx.RemoteProtocolError:
            pass  # the server went away mid-stream: what a restart does to its open streams
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            self.closed.set()

    def wait_for(self, version: int) -> None:
        wait_until(lambda: bool(self.ids) and self.ids[-1] >= version, 30, f"event {version} on the stream")


# On PostgreSQL under `make soak` only: the stream reads the store through the same code on both, and
# tests/api/test_scale.py streams from PostgreSQL across two processes in every run.
@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.soak])]
)
def test_httpx_sse_resumes_a_stream_by_last_event_id_across_a_server_restart(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The stream is open while `galileo serve` is stopped (SIGTERM): the server closes it within its
    shutdown grace and exits; a new process on the same store and address serves the resumed stream."""
    env = {
        "GALILEO_DATABASE_URL": _store(backend, tmp_path, request),
        "GALILEO_PROJECTIONS": "off",
        "GALILEO_BOTS": "0",
        **NO_LIMITS,
    }
    rng = random.Random(26)
    before = ServeProcess(tmp_path, env, "before")
    with before, httpx.Client(base_url=before.url, timeout=10) as client:
        table = create(client, 2, seed=f"httpx-sse-{backend}")
        play_turns(client, table, rng, max_decisions=6)
        stream = f"{before.url}/games/{table.game_id}/stream?after=0"  # the whole log, then live
        reader = SseReader(stream, table.auth(0))
        play_turns(client, table, rng, max_decisions=6)  # followed live
        reader.wait_for(client.get(f"/games/{table.game_id}").json()["version"])
        assert before.process is not None
        stopping = time.monotonic()
        before.process.terminate()  # with the stream open
        # it exited by itself (uvicorn ends by re-raising the signal it handled), not killed
        assert before.process.wait(timeout=SHUTDOWN_GRACE_SECONDS + 5) in (0, -signal.SIGTERM)
        assert reader.closed.wait(5) and reader.error is None, reader.error
        stopped = time.monotonic() - stopping
    received = reader.ids
    after = ServeProcess(tmp_path, env, "after")
    after.port, after.url = before.port, before.url  # the same address, a new process on the same store
    with after, httpx.Client(base_url=after.url, timeout=10) as client:
        play_turns(client, table, rng, max_decisions=6)  # events the reader missed while it was down
        head = client.get(f"/games/{table.game_id}").json()["version"]
        resumed = SseReader(stream, {**table.auth(0), "Last-Event-ID": str(received[-1])})
        resumed.wait_for(head)
    assert resumed.closed.wait(SHUTDOWN_GRACE_SECONDS + 5) and resumed.error is None, resumed.error
    assert received + resumed.ids == list(range(1, head + 1))  # every event once, in order
    assert stopped < SHUTDOWN_GRACE_SECONDS + 3
