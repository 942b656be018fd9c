"""A forfeited seat's score is frozen and its turns are skipped (issue 15, docs/async.md, ASYNC-3),
through the HTTP API: a timeout under the "forfeit" policy in a Luna game played on by a bot, and a
game where every person resigned to "forfeit"."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain import Command, command_to_dict, legal_moves
from domain import commands as c
from domain.bots import make_bot
from domain.expansions.luna.state import luna_of
from replays import table as table_rules
from replays.service import verify_file
from tests.api.async_helpers import Clock, bearer
from tests.api.helpers import runtime_of


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    app = create_app(replace(settings, clocks=False, clock_grace_seconds=0.0), clock=clock)
    with TestClient(app) as test_client:
        yield test_client


def events(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    """The whole log, page by page."""
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/games/{game_id}/events", params={"after": after, "limit": 500}).json()
        found += page["events"]
        after = page["next_after"]
    return found


def tick(client: TestClient) -> int:
    fired: int = client.portal.call(runtime_of(client).scheduler.tick, True)  # type: ignore[union-attr]
    return fired


def bots_idle(client: TestClient) -> None:
    client.portal.call(runtime_of(client).bots.idle, 120.0)  # type: ignore[union-attr]


def moon_first(state: Any, moves: list[Command], bot: Any) -> Command:
    """The greedy bot's move, except that a Moon observation is taken whenever one is open (so that
    Luna's Scoring tiles are scored, paying every other seat)."""
    moon = [m for m in moves if isinstance(m, c.Observe) and m.target.startswith("MOON:")]
    chosen: Command = moon[0] if moon else bot.choose(state, moves)
    return chosen


def play_seats(client: TestClient, game_id: str, tokens: dict[int, str], until: Any) -> None:
    """Play the people's seats through the API (seeded bots choose), until `until(state)`."""
    bots = {seat: make_bot("greedy", f"test:{seat}") for seat in tokens}
    for _ in range(5000):
        state, version = runtime_of(client).store.current(game_id)
        if until(state):
            return
        seat = state.turn.seat
        move = moon_first(state, legal_moves(state), bots[seat])
        response = client.post(
            f"/games/{game_id}/commands",
            headers=bearer(tokens[seat]),
            json={"command": command_to_dict(move), "expected_version": version, "command_id": f"g{version}"},
        )
        assert response.status_code == 200, response.text
    raise AssertionError("the condition was never met")


def after(found: list[dict[str, Any]], kind: str) -> int:
    return next(i for i, e in enumerate(found) if e["type"] == kind)


def test_ASYNC_3_a_forfeited_seats_score_is_frozen_and_its_turns_skipped(
    client: TestClient, clock: Clock
) -> None:
    created = client.post(
        "/games",
        json={
            "seats": [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}],
            "first_seat": 0,
            "seed": "frozen-1",
            "options": {"luna": True},
            "clock": {"per_move": "PT1H", "on_timeout": "forfeit"},
        },
    ).json()
    game_id, host = created["game_id"], created["host_token"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    # Ada scores, and then her time runs out at the start of one of her turns.
    play_seats(
        client,
        game_id,
        tokens,
        lambda s: s.players[0].score > 0 and s.turn.seat == 0 and s.turn.phase == "movement",
    )
    frozen_score = runtime_of(client).store.current(game_id)[0].players[0].score
    clock.advance(hours=1)
    assert tick(client) == 1
    bots_idle(client)
    # Ben plays on alone until one of Luna's Scoring tiles has paid, then the host gives his seat to a bot.
    scored_before = luna_of(runtime_of(client).store.current(game_id)[0]).scoring.count("")
    play_seats(client, game_id, {1: tokens[1]}, lambda s: luna_of(s).scoring.count("") > scored_before)
    handed = client.post(
        f"/games/{game_id}/host/seats/1/handover",
        headers=bearer(host),
        json={"command_id": "h", "to": "bot"},
    )
    assert handed.status_code == 200, handed.text
    bots_idle(client)

    board = client.get(f"/games/{game_id}").json()
    assert board["status"] == "finished"
    found = events(client, game_id)
    at = after(found, "TimeExpired")
    assert [e["type"] for e in found[at : at + 3]] == ["TimeExpired", "SeatHandedOver", "SeatFrozen"]
    assert found[at + 2]["event"]["rule"] == "ASYNC-3"
    rest = found[at + 3 :]
    # Its score never changes: no points of its own, none from Luna's Scoring tiles, none at the end.
    assert not [e for e in rest if e["type"] == "VictoryPointsScored" and e["event"]["seat"] == 0]
    tiles = [e for e in rest if e["type"] == "ScoringTileScored"]
    assert tiles, "the bot observed the Moon: Scoring tiles paid every other seat"
    assert all(e["event"]["points"][0] == 0 for e in tiles)
    assert any(e["event"]["seat"] != 0 and e["event"]["points"][1] > 0 for e in tiles)
    ended = found[-1]
    assert ended["type"] == "GameEnded" and ended["event"]["scores"][0] == frozen_score
    assert board["state"]["players"][0]["score"] == frozen_score
    assert board["state"]["frozen"] == [0]
    # The turn it was frozen in is finished by the server; every later turn of seat 0 is skipped.
    first_end = next(i for i, e in enumerate(rest) if e["type"] == "TurnEnded")
    assert not [e for e in rest[first_end + 1 :] if e["event"].get("seat") == 0]
    numbers = [e["event"]["turn"] for e in rest[first_end + 1 :] if e["type"] == "TurnEnded"]
    assert numbers and all(n % 2 == 1 for n in numbers)  # seat 1's turns; seat 0's (even) are skipped
    # The final round still ends (END-2/3) and the game verifies, stored and exported.
    assert any(e["type"] == "EndOfGameTriggered" for e in found)
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True
    exported = client.get(f"/games/{game_id}/export")
    assert verify_file(exported.content).ok
    imported = client.post(
        "/games/import", content=exported.content, headers={"Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    assert client.get(f"/games/{imported.json()['game_id']}/verify").json()["ok"] is True
    table = client.get(f"/games/{game_id}/table").json()
    assert table["seats"][0]["played_by"] == "forfeit"


def test_ASYNC_2_a_game_where_every_person_forfeited_ends(client: TestClient) -> None:
    created = client.post(
        "/games",
        json={
            "seats": [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}],
            "first_seat": 0,
            "seed": "frozen-2",
            "on_resign": "forfeit",
        },
    ).json()
    game_id = created["game_id"]
    a, b = (s["token"] for s in created["seats"])
    version = created["version"]
    moved = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(a),
        json={"command": {"text": "@0 move 1"}, "expected_version": version, "command_id": "m"},
    )
    assert moved.status_code == 200, moved.text
    # Ben (not to act) resigns: frozen at once; he never plays again.
    resigned = client.post(f"/games/{game_id}/resign", headers=bearer(b), json={"command_id": "r1"})
    assert [e["type"] for e in resigned.json()["events"]] == ["SeatResigned", "SeatHandedOver", "SeatFrozen"]
    # Ada (to act) resigns too: the server ends her turn, and with nobody left to play the game ends.
    resigned = client.post(f"/games/{game_id}/resign", headers=bearer(a), json={"command_id": "r2"})
    assert resigned.status_code == 200, resigned.text
    bots_idle(client)
    board = client.get(f"/games/{game_id}").json()
    assert board["status"] == "finished"
    found = events(client, game_id)
    last_resign = max(i for i, e in enumerate(found) if e["type"] == "SeatFrozen")
    rest = found[last_resign + 1 :]
    assert [e["type"] for e in rest][-1] == "GameEnded"
    assert not [e for e in rest if e["type"] == "VictoryPointsScored"]  # no final scoring for either
    assert [e["event"]["seat"] for e in rest if e["type"] == "TurnEnded"] == [0]
    assert rest[-1]["event"]["scores"] == [p["score"] for p in board["state"]["players"]]
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True


def test_ASYNC_3_a_game_stored_before_seats_froze_still_replays_and_verifies(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forfeit recorded by the earlier service (no `SeatFrozen`): its seat was played by the pass player
    and is neither frozen nor skipped on replay; the log verifies as it was stored."""
    monkeypatch.setattr(table_rules, "frozen_if_forfeit", lambda seat, policy: [])  # the earlier batches
    created = client.post(
        "/games",
        json={
            "seats": [{"name": "Ada", "character": "galileo"}, {"bot": "greedy"}],
            "first_seat": 0,
            "seed": "frozen-3",
            "on_resign": "forfeit",
        },
    ).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    resigned = client.post(f"/games/{game_id}/resign", headers=bearer(token), json={"command_id": "r"})
    assert [e["type"] for e in resigned.json()["events"]] == ["SeatResigned", "SeatHandedOver"]
    monkeypatch.undo()  # this build from here on: replay and verification of the stored log
    bots_idle(client)
    state, _ = runtime_of(client).store.current(game_id)
    assert state.frozen == frozenset()
    found = events(client, game_id)
    at = after(found, "SeatHandedOver")
    turns_of_seat_0 = {
        e["event"]["turn"] for e in found[at:] if e["type"] == "TurnEnded" and e["event"]["seat"] == 0
    }
    assert len(turns_of_seat_0) > 1  # its turns were played (passed), not skipped
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True
    exported = client.get(f"/games/{game_id}/export")
    assert verify_file(exported.content).exit_code in (0, 2)  # (sealed while the game runs)
