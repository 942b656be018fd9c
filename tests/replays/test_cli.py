"""The `galileo` game commands: new, games, show, log, fork, export, import, verify, selfplay --store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app
from replays.service import Games


def _run(db: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--db", db, *args])
    return result.exit_code, result.output


def test_game_commands_from_new_to_import(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"
    code, out = _run(db, "new", "--seat", "Ada:galileo", "--seat", "Bo:kepler", "--seed", "cli-1", "--json")
    assert code == 0, out
    game_id = json.loads(out)["game_id"]
    code, out = _run(
        db, "selfplay", "-p", "2", "-n", "1", "--bot", "random", "--seed", "cli", "--store", "--json"
    )
    assert code == 0, out
    stored = json.loads(out)["games"][0]["game_id"]
    code, out = _run(db, "games", "--json")
    assert [g["game_id"] for g in json.loads(out)] == [game_id, stored]

    code, out = _run(db, "show", stored, "--at", "40")
    assert code == 0 and "version 40" in out, out
    code, out = _run(db, "show", game_id, "--json")
    doc = json.loads(out)
    assert "deck" not in doc["state"] and doc["state"]["deck_size"] > 0  # unfinished: no secrets
    code, out = _run(db, "show", stored, "--json")
    assert "deck" in json.loads(out)["state"]  # finished: everything is public
    code, out = _run(db, "log", stored, "--limit", "3", "--json")
    assert [e["version"] for e in json.loads(out)] == [1, 2, 3]
    code, out = _run(db, "log", stored, "--after", "10", "--limit", "5")
    assert code == 0 and "rule" in out

    code, out = _run(db, "fork", stored, "--at", "30")
    assert code == 0 and "forked" in out, out
    code, out = _run(db, "fork", stored, "--at", "0")
    assert code == 1 and "error" in out

    complete, redacted = tmp_path / "done.jsonl", tmp_path / "open.jsonl"
    assert _run(db, "export", stored, "-o", str(complete))[0] == 0
    assert _run(db, "export", game_id, "-o", str(redacted), "--viewer", "1")[0] == 0
    assert _run(db, "verify", stored)[0] == 0
    assert _run(db, "verify", str(complete))[0] == 0
    code, out = _run(db, "verify", str(redacted), "--json")
    assert code == 2 and json.loads(out)["complete"] is False
    code, out = _run(db, "import", str(complete))
    assert code == 0 and "imported" in out
    code, out = _run(db, "import", str(redacted))
    assert code == 1 and "redacted" in out

    tampered = tmp_path / "bad.jsonl"
    tampered.write_bytes(complete.read_bytes().replace(b'"points":2', b'"points":3', 1))
    code, out = _run(db, "verify", str(tampered))
    assert code == 1 and "altered" in out
    assert "expected: None" not in out and "stored:   None" not in out  # a chain finding has no events
    code, out = _run(db, "games")
    assert "finished, won by" in out and "active" in out  # status and winners
    assert _run(db, "verify", "no-such-game")[0] == 1
    with Games(db) as games:
        assert len(games.list_games()) == 4  # new, selfplay, fork, import


def test_new_refuses_bad_setups_with_the_rule(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"
    code, out = _run(db, "new", "--seat", "A:galileo", "--seat", "B:galileo")
    assert code == 1 and "SET-21" in out
    code, out = _run(db, "new", "-o", "noSuchOption=1")
    assert code == 1 and "noSuchOption" in out


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["new"], "[default: random]"),
        (["show"], "[default: now]"),
        (["projections", "rebuild"], "[default: every view]"),
    ],
)
def test_help_keeps_its_defaults(command: list[str], shown: str) -> None:
    """Rich would read "[default: ...]" in a help text as markup and drop it; it is escaped."""
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert shown in result.output


def test_selfplay_solo_reports_the_bots_win_rate_against_tycho(tmp_path: Path) -> None:
    """`galileo selfplay --solo [--luna --difficulty LEVEL]` (issue 13): one bot against Tycho Brahe."""
    db = f"sqlite:///{tmp_path}/solo.db"
    code, out = _run(db, "selfplay", "--solo", "-n", "1", "--bot", "random", "--seed", "cli-solo", "--json")
    assert code == 0, out
    solo = json.loads(out)["totals"]["solo"]
    assert solo["games"] == 1 and solo["difficulty"] == ["base"] and 0 <= solo["person_win_rate"] <= 1
    args = ("selfplay", "--solo", "--luna", "--difficulty", "flaming", "-n", "1", "--bot", "random", "--json")
    code, out = _run(db, *args)
    assert code == 0, out
    assert json.loads(out)["totals"]["solo"]["difficulty"] == ["flaming"]
    code, out = _run(db, "selfplay", "--difficulty", "hard", "-n", "1")
    assert code != 0 and "SOLO-2" in out


def test_CHAR_1_new_and_selfplay_take_the_side(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli-sides.db"
    code, out = _run(
        db, "new", "--seat", "Ada:kepler:ability:A2", "--seat", "Bo:galileo", "--seed", "s", "--json"
    )
    assert code == 0, out
    assert json.loads(out)["seats"] == [["Ada", "kepler", "ability"], ["Bo", "galileo"]]
    code, out = _run(db, "new", "-p", "2", "--side", "mixed", "--seed", "t", "--json")
    assert code == 0 and json.loads(out)["seats"] == [["P1", "galileo", "ability"], ["P2", "kepler"]], out
    code, out = _run(db, "new", "--seat", "Ada:newton:advanced", "--seat", "Bo:galileo")
    assert code != 0 and "CHAR-1" in out
    code, out = _run(db, "selfplay", "-p", "2", "-n", "1", "--bot", "random", "--side", "ability", "--json")
    assert code == 0, out
    code, out = _run(db, "selfplay", "-p", "2", "--side", "upside")
    assert code != 0
