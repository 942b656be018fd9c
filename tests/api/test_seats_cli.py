"""`galileo seats GAME` and `galileo seats issue GAME --seat N`: a game made by `galileo new` gets seat
links on the command line and is then played over HTTP with them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from api.cli import app
from api.settings import Settings


def _run(db: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--db", db, *args])
    return result.exit_code, result.output


def test_a_game_made_by_galileo_new_is_played_with_issued_links(tmp_path: Path, settings: Settings) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"
    code, out = _run(
        db, "new", "--seat", "Ada:galileo", "--seat", "Ben:kepler", "--first-seat", "0", "--json"
    )
    assert code == 0, out
    game_id = json.loads(out)["game_id"]
    code, out = _run(db, "seats", game_id)
    assert code == 0 and "seat 0: Ada (galileo), nobody, no token" in out
    code, out = _run(db, "seats", "issue", game_id, "--seat", "0", "--json")
    assert code == 0, out
    issued = json.loads(out)
    assert issued["link"].endswith(f"/play/{game_id}#token={issued['token']}")
    code, again = _run(db, "seats", "issue", game_id, "--seat", "0", "--json")
    second = json.loads(again)["token"]
    assert _run(db, "seats", "issue", game_id, "--seat", "3")[0] == 1  # a two-seat game
    assert _run(db, "seats", "issue", game_id)[0] == 2  # --seat is required
    listing = json.loads(_run(db, "seats", game_id, "--json")[1])
    assert listing["seats"][0]["token_issued"] is True and listing["seats"][1]["played_by"] == "nobody"
    with TestClient(create_app(replace(settings, database_url=db))) as client:
        old = client.get(f"/games/{game_id}/moves", headers={"Authorization": f"Bearer {issued['token']}"})
        assert old.status_code == 401  # the second issue revoked the first token, and says so
        assert old.json()["code"] == "link-reissued"
        # The first issue gave the seat its first token; the second is a fact of the log (ASYNC-9).
        events = client.get(f"/games/{game_id}/events").json()["events"]
        assert [(e["type"], e["actor"]) for e in events if e["type"] == "SeatLinkReissued"] == [
            ("SeatLinkReissued", "operator")
        ]
        table = client.get(f"/games/{game_id}/table").json()
        assert [(a["type"], a["seat"]) for a in table["host_actions"]] == [("SeatLinkReissued", 0)]
        # Who plays each seat: the table view and `galileo seats` say the same (replays.table.player).
        played = [(s["played_by"], s["bot"]) for s in table["seats"]]
        assert played == [(s["played_by"], s["bot"]) for s in listing["seats"]]
        assert played == [("person", None), ("nobody", None)]
        headers = {"Authorization": f"Bearer {second}"}
        listing = client.get(f"/games/{game_id}/moves", headers=headers).json()
        assert listing["seat"] == 0 and listing["to_act"] == 0
        posted = client.post(
            f"/games/{game_id}/commands",
            headers=headers,
            json={
                "command": listing["moves"][0],
                "expected_version": listing["version"],
                "command_id": "cli-1",
            },
        )
        assert posted.status_code == 200, posted.text
