"""Dispute reports: a turn explained event by event with commands, legal moves and rules."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from api.cli import app
from projections.dispute import dispute_report, render
from replays.service import Games
from tests.replays.conftest import new_game, play


def test_a_turn_is_explained_with_its_commands_legal_moves_and_rules(games: Games) -> None:
    game_id = new_game(games, "dispute-1", players=3)
    play(games, game_id, "dispute-1", limit=60)
    report = dispute_report(games, game_id, 2)
    assert report["ok"] and set(report["verified"].values()) == {"ok"}
    commands = [c for c in report["commands"] if "legal_moves" in c]
    assert commands and all(c["was_legal"] and c["legal_moves"] >= 2 for c in commands)
    first = games.state(game_id, 1)
    assert first is not None
    third = (first.first_seat + 2) % 3
    assert commands[0]["command"].startswith(f"@{third} move")  # the third seat's first turn
    types = [e["type"] for c in report["commands"] for e in c["events"]]
    assert types[0] == "TelescopeMoved" and types[-1] == "TurnEnded"
    assert "MOV-1" in report["rules"] and "TURN-1" in report["rules"]
    words = [e["description"] for c in report["commands"] for e in c["events"]]
    assert all(w and w not in types for w in words)  # every event in words (projections/describe.py)
    assert words[0].startswith("Moved the telescope") and commands[0]["description"].startswith("Move the")
    text = render(report)
    assert "turn 2" in text and "this was one of them" in text and words[0] in text
    state = games.state(game_id)
    assert state is not None
    for secret in (*state.deck, state.seed):
        assert f'"{secret}"' not in json.dumps(report) or secret in state.display


def test_a_turn_that_does_not_exist_is_refused(games: Games) -> None:
    game_id = new_game(games, "dispute-2")
    with pytest.raises(ValueError, match="no turn 5"):
        dispute_report(games, game_id, 5)


def test_galileo_explain(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path}/g.db"
    with Games(url) as games:
        game_id = new_game(games, "dispute-3")
        play(games, game_id, "dispute-3", limit=20)
    runner = CliRunner()
    result = runner.invoke(app, ["--db", url, "explain", game_id, "--turn", "1", "--json"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert json.loads(result.stdout)["turn"] == 1
    text = runner.invoke(app, ["--db", url, "explain", game_id, "--turn", "0"])
    assert text.exit_code == 0 and "Dispute report" in text.stdout
    missing = runner.invoke(app, ["--db", url, "explain", game_id, "--turn", "99"])
    assert missing.exit_code != 0
