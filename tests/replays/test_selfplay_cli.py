"""`galileo selfplay` plays complete games and reports results and totals (engine issue CLI)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app


def test_selfplay_json_reports_each_game_and_totals() -> None:
    result = CliRunner().invoke(
        app, ["selfplay", "--players", "2", "--games", "2", "--seed", "cli", "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["totals"]["games"] == 2 and len(doc["games"]) == 2
    for game in doc["games"]:
        assert game["winners"] and game["turns"] > 0 and game["events"] > 0
        for seat in game["scores"].values():
            assert sum(seat["by_source"].values()) == seat["score"]


def test_selfplay_tables_and_bad_bot() -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["selfplay", "-p", "3", "-n", "1", "--bot", "random"])
    assert ok.exit_code == 0 and "totals" in ok.output
    bad = runner.invoke(app, ["selfplay", "--bot", "smart"])
    assert bad.exit_code != 0 and "greedy or random" in bad.output


def test_selfplay_luna_plays_the_moon() -> None:
    result = CliRunner().invoke(
        app, ["selfplay", "-p", "3", "-n", "3", "--seed", "cli-luna", "--bot", "random", "--luna", "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    sources = {src for game in doc["games"] for seat in game["scores"].values() for src in seat["by_source"]}
    assert "moon" in sources or "scoring-tile" in sources
