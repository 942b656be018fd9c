"""The solo game against Tycho Brahe over the API (issue 13): `POST /games` with one person seat, played
to the end through /moves and /commands, his hidden Movement stack never shown before the end, then
verify, export -> import -> verify, and fork."""

from __future__ import annotations

import json
import random

from fastapi.testclient import TestClient

from tests.api.helpers import NDJSON, Table, play_turns


def _solo(client: TestClient, seed: str = "api-solo", **body: object) -> Table:
    response = client.post("/games", json={"seats": [{"name": "Ada"}], "seed": seed, **body})
    assert response.status_code == 201, response.text
    created = response.json()
    assert [s["seat"] for s in created["seats"]] == [0]  # Tycho's seat has no token: nobody plays it
    return Table(created["game_id"], [s["token"] for s in created["seats"]], created)


def test_a_solo_game_over_the_api_is_played_to_the_end_and_verifies(client: TestClient) -> None:
    table = _solo(client, options={"luna": True}, difficulty="hard")
    game = table.game_id
    board = client.get(f"/games/{game}", headers=table.auth(0)).json()
    assert [p["character"] for p in board["state"]["players"]] == [
        board["state"]["players"][0]["character"],
        "tycho",
    ]
    tycho = board["state"]["players"][1]["tycho"]
    assert tycho["difficulty"] == "hard" and tycho["stack_size"] == 60 and "stack" not in tycho
    shown = board["tycho"]  # SOLO-21..24: his board, tiles and rows for the board page
    assert shown["seat"] == 1 and len(shown["line"]) == 6 and shown["stack_size"] == 60 - len(shown["shown"])
    assert all(tile["rows"] and not tile["rows"][-1]["condition"] for tile in shown["line"])
    rows = [row for tile in shown["line"] for row in tile["rows"]]  # the rows in words (SOLO-40..50)
    assert all(code not in row["text"] for row in rows for code in row["effects"] if ":" in code)
    assert any("VP" in row["text"] for row in rows) and any("Book marker +" in row["text"] for row in rows)
    # the person always plays the ability side in solo; Tycho has no character side (recorded as basic)
    assert [s["side"] for s in board["seats"]] == ["ability", "basic"]
    assert [s["side"] for s in table.created["seats"]] == ["ability"]
    assert "stack" not in shown and "dealt" not in shown
    events = client.get(f"/games/{game}/events", headers=table.auth(0)).json()
    dealt = next(e["event"] for e in events["events"] if e["type"] == "OpponentDealt")
    assert "stack" not in dealt and "stack" in dealt["redacted"]  # SOLO-24: hidden until the end
    made = play_turns(client, table, random.Random(7), timeout=240)
    assert made > 0
    board = client.get(f"/games/{game}").json()
    assert board["status"] == "finished"
    events = []
    page = {"next_after": 0}
    while page["next_after"] is not None:
        page = client.get(f"/games/{game}/events", params={"after": page["next_after"], "limit": 500}).json()
        events += page["events"]
    dealt = next(e["event"] for e in events if e["type"] == "OpponentDealt")
    revealed = next(e["event"] for e in events if e["type"] == "MovementStackRevealed")
    assert dealt["stack"] == revealed["stack"] and len(dealt["stack"]) == 60
    assert client.get(f"/games/{game}/verify").json()["ok"]
    exported = client.get(f"/games/{game}/export")
    imported = client.post("/games/import", content=exported.content, headers=NDJSON)
    assert imported.status_code == 201, imported.text
    assert client.get(f"/games/{imported.json()['game_id']}/verify").json()["ok"]
    forked = client.post(f"/games/{game}/fork", json={"at_version": 40})
    assert forked.status_code == 201, forked.text
    report = client.get(f"/games/{forked.json()['game_id']}/verify").json()
    assert report["ok"], json.dumps(report)[:2000]


def test_a_solo_game_refuses_a_difficulty_without_luna(client: TestClient) -> None:
    response = client.post("/games", json={"seats": [{"name": "Ada"}], "difficulty": "easy"})
    assert response.status_code in (400, 422), response.text
    assert "SOLO-2" in response.text


def test_the_lobby_and_the_statistics_know_solo_games_and_their_difficulty(lobby_client: TestClient) -> None:
    from tests.api.helpers import finish_in_process, runtime_of, wait_until

    client = lobby_client
    easy = _solo(client, options={"luna": True}, difficulty="easy", seed="stats-easy")
    base = _solo(client, seed="stats-base")
    for table in (easy, base):
        finish_in_process(client, runtime_of(client), table, random.Random(3), timeout=120)

    def caught_up() -> list[dict] | None:
        games = client.get("/games", params={"status": "finished"}).json()["games"]
        return games if len(games) == 2 else None

    games = {g["game_id"]: g for g in wait_until(caught_up, 20, "the lobby to catch up")}
    assert games[easy.game_id]["solo"] == {"opponent": "tycho", "seat": 1, "difficulty": "easy"}
    assert games[base.game_id]["solo"]["difficulty"] is None
    assert [s["character"] for s in games[easy.game_id]["seats"]][1] == "tycho"

    def stats_caught_up() -> dict | None:
        stats = client.get("/stats", params={"solo": "true"}).json()
        return stats if stats["games"] == 2 else None

    stats = wait_until(stats_caught_up, 20, "the statistics to catch up")
    levels = {level["difficulty"]: level for level in stats["solo"]["by_difficulty"]}
    assert set(levels) == {"base", "easy"} and levels["easy"]["games"] == 1
    only_easy = client.get("/stats", params={"difficulty": "easy"}).json()
    assert only_easy["games"] == 1 and only_easy["solo"]["by_difficulty"][0]["difficulty"] == "easy"
    assert client.get("/stats", params={"solo": "false"}).json()["games"] == 0
    assert client.get("/stats", params={"difficulty": "impossible"}).status_code == 422


def test_SOLO_24_a_fork_of_a_running_solo_game_shows_his_re_dealt_stack_to_nobody_and_verifies(
    client: TestClient,
) -> None:
    """A fork of a running solo game re-deals the Movement tiles he has not revealed; before the fork's end
    no view, event page, export, position or timeline shows their order, nor the source's; it verifies."""
    from domain.expansions.solo.events import MovementTileRevealed, OpponentDealt
    from tests.api.helpers import runtime_of

    table = _solo(client, "api-solo-fork", options={"luna": True}, difficulty="flaming")
    game = table.game_id
    play_turns(client, table, random.Random(3), max_decisions=30)
    runtime = runtime_of(client)
    source = [s.event for s in runtime.store.events(game, 0, None)]
    revealed = [i for i, e in enumerate(source) if isinstance(e, MovementTileRevealed)]
    assert len(revealed) >= 2
    at = revealed[len(revealed) // 2] + 1
    response = client.post(f"/games/{game}/fork", json={"at_version": at})
    assert response.status_code == 201, response.text
    body = response.json()
    fork = body["game_id"]
    dealt, original = runtime.store.events(fork, 0, None)[1].event, source[1]
    assert isinstance(dealt, OpponentDealt) and isinstance(original, OpponentDealt)
    shown = sum(isinstance(e, MovementTileRevealed) for e in source[:at])
    runs = [order[shown : shown + 10] for order in (dealt.stack, original.stack)]  # the next ten tiles
    assert runs[0] != runs[1]
    secrets = [sep.join(f'"{tile}"' for tile in run) for run in runs for sep in (",", ", ")]
    fork_table = Table(fork, [s["token"] for s in body["seats"]], body)
    head = client.get(f"/games/{fork}").json()["version"]
    bodies: list[tuple[str, str]] = [("answer of fork", response.text)]
    for name, headers in {"seat0": fork_table.auth(0), "spectator": {}}.items():
        for path in ("", "/moves", "/export", "/timeline", f"/at/{at}", f"/at/{head}", "/verify"):
            bodies.append((f"{path} {name}", client.get(f"/games/{fork}{path}", headers=headers).text))
        events = client.get(f"/games/{fork}/events", headers=headers, params={"limit": 5000})
        bodies.append((f"events {name}", events.text))
    for what, text in bodies:
        for secret in secrets:
            assert secret not in text, what
    assert client.get(f"/games/{fork}/verify").json()["ok"]
    play_turns(client, fork_table, random.Random(4), timeout=240)
    assert client.get(f"/games/{fork}").json()["status"] == "finished"
    report = client.get(f"/games/{fork}/verify").json()
    assert report["ok"], json.dumps(report)[:2000]


def test_SOLO_26_the_solo_game_offers_no_basic_side(client: TestClient) -> None:
    """CN p.16: in the solo game always use the character board's ability side: an explicit basic side is
    refused (not silently switched); leaving it out gives the ability side."""
    response = client.post("/games", json={"seats": [{"name": "Ada", "side": "basic"}], "seed": "solo-side"})
    assert response.status_code == 422, response.text
    assert (response.json()["reason"], response.json()["rule_id"]) == ("solo-ability-side", "SOLO-26")
    table = _solo(client, seed="solo-side")
    assert [s["side"] for s in table.created["seats"]] == ["ability"]
