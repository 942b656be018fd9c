"""`galileo rules` prints the rules reference, and `galileo explain` links each rule it cites to it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app
from projections.dispute import dispute_report, render
from replays.service import Games
from tests.replays.conftest import new_game, play

runner = CliRunner()


def test_galileo_rules_MOV_1() -> None:
    result = runner.invoke(app, ["rules", "MOV-1"])
    assert result.exit_code == 0, result.output
    assert "MOV-1" in result.stdout and "telescope" in result.stdout and "/rules/MOV-1" in result.stdout
    as_json = runner.invoke(app, ["rules", "mov_1", "--json"])
    body = json.loads(as_json.stdout)
    assert body["id"] == "MOV-1" and body["source"].startswith("S004") and body["url"] == "/rules/MOV-1"


def test_galileo_rules_MOV_1_in_japanese_and_chinese() -> None:
    from rulebook import reference

    for lang in ("ja", "zh-Hans"):
        result = runner.invoke(app, ["rules", "MOV-1", "--lang", lang])
        assert result.exit_code == 0, result.output
        assert reference(lang).get("MOV-1").title in result.stdout and "MOV-1" in result.stdout
        body = json.loads(runner.invoke(app, ["rules", "MOV-1", "--json", "--lang", lang]).stdout)
        assert body["lang"] == lang and body["source"].startswith("S004")
    listed = runner.invoke(app, ["rules", "--lang", "ja", "--search", "MOV-1"])
    assert listed.exit_code == 0 and "MOV-1" in listed.stdout
    assert runner.invoke(app, ["rules", "MOV-1", "--lang", "xx"]).exit_code == 1
    from_env = runner.invoke(app, ["rules", "MOV-1", "--json"], env={"LC_ALL": "", "LANG": "ja_JP.UTF-8"})
    assert json.loads(from_env.stdout)["lang"] == "ja"


def test_galileo_rules_unknown_id_fails_with_suggestions() -> None:
    result = runner.invoke(app, ["rules", "MOV-9"])
    assert result.exit_code == 1
    assert "no rule 'MOV-9'" in result.output and "MOV-5" in result.output


def test_galileo_rules_lists_and_searches() -> None:
    listed = json.loads(runner.invoke(app, ["rules", "--json"]).stdout)
    assert len(listed) > 500
    assert listed[0] == {"id": "COMP-1", "title": "The game board", "kind": "seed", "url": "/rules/COMP-1"}
    ids = [r["id"] for r in listed]
    assert "SOLO-20" in ids and "LUNA-BA-5" in ids and len(ids) == len(set(ids))
    found = runner.invoke(app, ["rules", "--search", "grand inquisitor double"])
    assert found.exit_code == 0 and "LUNA-44" in found.stdout
    assert runner.invoke(app, ["rules", "-s", "zzz-none"]).exit_code == 1


def test_explain_links_every_rule_to_the_reference(games: Games) -> None:
    game_id = new_game(games, "rules-explain", players=2)
    play(games, game_id, "rules-explain", limit=30)
    report = dispute_report(games, game_id, 1)
    refs = {ref["id"]: ref for ref in report["rule_refs"]}
    assert set(refs) == set(report["rules"]) and "MOV-1" in refs
    assert all(ref["title"] and ref["url"] == f"/rules/{rule}" for rule, ref in refs.items())
    events = [e for c in report["commands"] for e in c["events"] if e["rule"]]
    assert events and all(e["rule_url"] == f"/rules/{e['rule']}" for e in events)
    text = render(report)
    assert "see /rules/MOV-1" in text and "Move the telescope 1 to 3 steps" in text
