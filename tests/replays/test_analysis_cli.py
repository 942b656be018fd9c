"""`galileo analyse` and `galileo explain --evaluate` on stored games and export files (issue 18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app
from domain.analysis import analyse_game
from domain.bots import GreedyBot
from domain.search import Budget
from domain.selfplay import default_setup
from replays.jobs import store_loader
from replays.playout import play_out
from replays.service import Games

BUDGET = "i=4/d=1"  # the CLI's smallest sensible budget: these tests check plumbing, not strength


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/games.db"


def _finished(store: str) -> tuple[str, int]:
    """A finished 3-player game in the store: (game id, decisions)."""
    result = CliRunner().invoke(app, ["--db", store, "selfplay", "-p", "3", "-n", "1", "--store", "--json"])
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    return game["game_id"], game["decisions"]


def _running(store: str, moves: int = 25) -> str:
    with Games(store) as games:
        game_id, _ = games.create(default_setup(2, "running"))
        play_out(games, game_id, [GreedyBot("a"), GreedyBot("b")], limit=moves)
    return game_id


def test_analyse_json_gives_an_evaluation_for_every_decision_of_a_finished_game(store: str) -> None:
    game_id, decisions = _finished(store)
    result = CliRunner().invoke(app, ["--db", store, "analyse", game_id, "--budget", BUDGET, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["finished"] and doc["viewer"] is None and len(doc["seats"]) == 3
    assert len(doc["decisions"]) == decisions
    assert all("win" in d["after"] and "margin" in d["before"] for d in doc["decisions"])
    assert doc["budget"]["iterations"] == 4 and doc["budget"]["determinisations"] == 1
    with Games(store) as games:
        head = games.head(game_id)
    events = store_loader(store)(game_id, head)  # the job worker's events of the game at its head
    direct = analyse_game(events, viewer=None, budget=Budget(4, 1), seed="analysis")
    assert direct.as_dict() == doc  # the CLI and the job worker's path agree


def test_analyse_tables_and_bad_arguments(store: str) -> None:
    game_id, _ = _finished(store)
    runner = CliRunner()
    ok = runner.invoke(app, ["--db", store, "analyse", game_id, "--budget", BUDGET])
    assert ok.exit_code == 0, ok.output
    assert "accuracy" in ok.output and "Turning points" in ok.output
    bad = runner.invoke(app, ["--db", store, "analyse", game_id, "--budget", "lots"])
    assert bad.exit_code != 0 and "bad budget" in bad.output
    missing = runner.invoke(app, ["--db", store, "analyse", "00000000-0000-0000-0000-000000000000"])
    assert missing.exit_code == 1


def test_a_running_game_is_analysed_only_for_a_seats_view(store: str) -> None:
    game_id = _running(store)
    runner = CliRunner()
    refused = runner.invoke(app, ["--db", store, "analyse", game_id, "--budget", BUDGET, "--json"])
    assert refused.exit_code == 1 and "one seat's view" in refused.output
    mine = runner.invoke(
        app, ["--db", store, "analyse", game_id, "--viewer", "1", "--budget", BUDGET, "--json"]
    )
    assert mine.exit_code == 0, mine.output
    doc = json.loads(mine.stdout)
    assert not doc["finished"] and doc["viewer"] == 1 and len(doc["decisions"]) == 25


def test_analyse_an_export_file_like_the_stored_game(store: str, tmp_path: Path) -> None:
    game_id, _ = _finished(store)
    runner = CliRunner()
    path = tmp_path / "game.jsonl"
    assert runner.invoke(app, ["--db", store, "export", game_id, "-o", str(path)]).exit_code == 0
    stored = runner.invoke(app, ["--db", store, "analyse", game_id, "--budget", BUDGET, "--json"])
    exported = runner.invoke(app, ["--db", store, "analyse", str(path), "--budget", BUDGET, "--json"])
    assert exported.exit_code == 0, exported.output
    assert json.loads(exported.stdout) == json.loads(stored.stdout)
    redacted = tmp_path / "redacted.jsonl"
    running = _running(store)
    assert (
        runner.invoke(app, ["--db", store, "export", running, "-o", str(redacted), "--viewer", "0"]).exit_code
        == 0
    )
    refused = runner.invoke(app, ["--db", store, "analyse", str(redacted), "--viewer", "0"])
    assert refused.exit_code == 1 and "redacted" in refused.output


def test_explain_can_include_the_evaluation_of_the_disputed_turn(store: str) -> None:
    game_id, _ = _finished(store)
    runner = CliRunner()
    args = ["--db", store, "explain", game_id, "--turn", "5", "--evaluate", "--budget", BUDGET]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    decided = [block for block in report["commands"] if "legal_moves" in block]
    assert decided and all("evaluation" in block for block in decided)
    analysis = json.loads(
        runner.invoke(app, ["--db", store, "analyse", game_id, "--budget", BUDGET, "--json"]).stdout
    )
    by_version = {d["version"] + 1: d for d in analysis["decisions"]}
    for block in decided:  # the same evaluation as the whole game's analysis
        assert block["evaluation"] == by_version[block["version"]]
    text = runner.invoke(app, args)
    assert text.exit_code == 0 and "evaluation: win" in text.output
    plain = json.loads(
        runner.invoke(app, ["--db", store, "explain", game_id, "--turn", "5", "--json"]).stdout
    )
    assert all("evaluation" not in block for block in plain["commands"])
    running = _running(store)
    refused = runner.invoke(app, ["--db", store, "explain", running, "--turn", "1", "--evaluate"])
    assert refused.exit_code == 1 and "one seat's view" in refused.output
    mine = runner.invoke(
        app,
        ["--db", store, "explain", running, "--turn", "1", "--evaluate", "--viewer", "0", "--budget", BUDGET],
    )
    assert mine.exit_code == 0 and "evaluation: win" in mine.output
