"""`galileo projections rebuild|status`, `galileo stats` and `galileo plot`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from api.cli import app
from tests.projections.corpus import Played


def test_rebuild_status_stats_and_plot(small_url: str, small_games: list[Played], tmp_path: Path) -> None:
    runner = CliRunner()
    rebuilt = runner.invoke(app, ["--db", small_url, "projections", "rebuild"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "lobby:" in rebuilt.output and "stats:" in rebuilt.output

    status = runner.invoke(app, ["--db", small_url, "projections", "status", "--json"])
    assert status.exit_code == 0, status.output
    views = json.loads(status.stdout)
    assert {v["name"] for v in views} == {"lobby", "stats"}
    lobby = next(v for v in views if v["name"] == "lobby")
    assert lobby["position"] == lobby["log_end"] > 0

    stats = runner.invoke(app, ["--db", small_url, "stats", "--json", "--forks"])
    assert stats.exit_code == 0, stats.output
    result = json.loads(stats.stdout)
    assert result["games"] == sum(p.finished for p in small_games)
    assert result["in_progress"] == sum(not p.finished for p in small_games)

    tables = runner.invoke(app, ["--db", small_url, "stats", "--players", "3", "--no-update"])
    assert tables.exit_code == 0, tables.output
    assert "characters" in tables.output and "first seat" in tables.output

    bad = runner.invoke(app, ["--db", small_url, "stats", "--seats", "robots"])
    assert bad.exit_code != 0 and "bots, humans, mixed" in bad.output

    game = str(small_games[1].game_id)
    out = tmp_path / "timeline.svg"
    plotted = runner.invoke(app, ["--db", small_url, "plot", game, "-o", str(out)])
    assert plotted.exit_code == 0, plotted.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert len(root.findall(".//{http://www.w3.org/2000/svg}polyline")) == small_games[1].players

    missing = runner.invoke(app, ["--db", small_url, "plot", "no-such-game", "-o", str(out)])
    assert missing.exit_code == 1


def test_rebuild_refuses_an_unknown_view(small_url: str) -> None:
    result = CliRunner().invoke(app, ["--db", small_url, "projections", "rebuild", "boards"])
    assert result.exit_code != 0 and "lobby, stats" in result.output
