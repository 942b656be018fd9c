"""Ratings (issue 30, docs/ratings.md, RATE-n): 30 finished 4-player games between four accounts whose
seats are played by bots of known strength order the accounts correctly; the model's rank-order
prediction accuracy on held-out games is printed beside a pairwise-Elo baseline's; which games count."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.selfplay import default_setup, play_game
from projections.ratings import order_accuracy, pairwise_elo, rate
from tests.api.async_helpers import Clock, bearer
from tests.api.community_helpers import MixedBot, fixed_secrets, play_out
from tests.api.helpers import runtime_of
from tests.api.people import Person, person

SKILLS = {"Ada": 1.0, "Ben": 0.7, "Cleo": 0.35, "Dan": 0.0}  # the share of greedy moves
TRAIN, HELD_OUT = 30, 16


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(replace(settings, clocks=False, bots=False), clock=Clock(), secret=fixed_secrets())
    with TestClient(app) as test_client:
        yield test_client


def claimed_game(client: TestClient, seated: list[Person], seed: int) -> dict[str, Any]:
    seats = [{"name": p.account.name} for p in seated]
    created = client.post("/games", json={"seats": seats, "first_seat": 0})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    for i, who in enumerate(seated):
        headers = {**bearer(game["seats"][i]["token"]), **who.headers()}
        claimed = client.post(
            f"/games/{game['game_id']}/claim", json={"command_id": f"c{i}"}, headers=headers
        )
        assert claimed.status_code == 200, claimed.text
    return game


@pytest.mark.slow
def test_RATE_3_thirty_games_order_four_accounts_by_strength(client: TestClient) -> None:
    runtime = runtime_of(client)
    people = {name: person(runtime, name) for name in SKILLS}
    order = list(SKILLS)
    for g in range(TRAIN):
        seated = [people[order[(s + g) % 4]] for s in range(4)]  # each account at each seat in turn
        game = claimed_game(client, seated, g)
        bots = [MixedBot(SKILLS[p.account.name], f"train-{g}-{s}") for s, p in enumerate(seated)]
        play_out(runtime, game["game_id"], bots, f"g{g}")
    for who in people.values():
        shown = client.put("/me/profile", json={"public": True}, headers=who.headers())
        assert shown.status_code == 200, shown.text
    board = client.get("/ratings?pool=4").json()["players"]
    assert [row["player"] for row in board] == order, board
    assert all(not row["provisional"] and row["games"] == TRAIN for row in board)
    # the read model is rebuilt from the events alone: the same numbers
    again = runtime.community.rebuild()
    assert [round(r.ordinal, 2) for r in again.pool(4)] == [row["rating"] for row in board]

    # Held-out games between the same strengths (played by the engine alone): how well each model,
    # trained on the 30 games, predicts their finishing order.
    summaries = runtime.community.summaries()
    trained = rate(summaries)
    names = {p.account.account_id: name for name, p in people.items()}
    mu = {names[r.account_id]: r.mu for r in trained.pool(4)}
    train_games = [
        [(names[s.account_id], s.rank or 4) for s in g.seats if s.account_id]
        for g in sorted(summaries, key=lambda g: (g.ended_at or "", g.game_id))
    ]
    elo = pairwise_elo(train_games)
    held: list[list[tuple[str, int]]] = []
    for g in range(HELD_OUT):
        seated_names = [order[(s + g) % 4] for s in range(4)]
        record = play_game(
            default_setup(4, f"held-out-{g}"),
            [MixedBot(SKILLS[n], f"held-{g}-{s}") for s, n in enumerate(seated_names)],
        )
        ranks = sorted(range(4), key=lambda s: record.state.players[s].score, reverse=True)
        place = {s: ranks.index(s) + 1 for s in range(4)}
        held.append([(seated_names[s], place[s]) for s in range(4)])
    pl = order_accuracy(mu, held)
    baseline = order_accuracy(elo, held)
    print(
        f"\nrank-order prediction on {HELD_OUT} held-out 4-player games: Plackett-Luce pairs "
        f"{pl['pairs']:.3f}, whole order {pl['whole']:.3f}; pairwise Elo pairs {baseline['pairs']:.3f}, "
        f"whole order {baseline['whole']:.3f}"
    )
    assert pl["pairs"] >= 0.6


def test_RATE_1_a_game_not_finished_a_chosen_seed_or_an_unclaimed_seat_is_not_rated(
    client: TestClient,
) -> None:
    runtime = runtime_of(client)
    ada, ben = person(runtime, "Ada"), person(runtime, "Ben")
    game = claimed_game(client, [ada, ben], 0)
    running = client.get(f"/games/{game['game_id']}/rating")
    assert running.status_code == 409 and running.json()["reason"] == "not-finished"
    assert running.json()["rule_id"] == "RATE-1"
    play_out(runtime, game["game_id"], [MixedBot(1.0, "a"), MixedBot(0.0, "b")], "x")
    rated = client.get(f"/games/{game['game_id']}/rating")
    assert rated.status_code == 200, rated.text
    assert sorted(s["rank"] for s in rated.json()["seats"]) == [1, 2]
    seeded = client.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": "chosen"}).json()
    for i, who in enumerate((ada, ben)):
        client.post(
            f"/games/{seeded['game_id']}/claim",
            json={"command_id": f"s{i}"},
            headers={**bearer(seeded["seats"][i]["token"]), **who.headers()},
        )
    play_out(runtime, seeded["game_id"], [MixedBot(0.0, "c"), MixedBot(0.0, "d")], "y")
    assert client.get(f"/games/{seeded['game_id']}/rating").json()["reason"] == "chosen-seed"
    lone = client.post("/games", json={"seats": [{"name": "A"}, {"name": "B"}]}).json()
    client.post(
        f"/games/{lone['game_id']}/claim",
        json={"command_id": "l"},
        headers={**bearer(lone["seats"][0]["token"]), **ada.headers()},
    )
    play_out(runtime, lone["game_id"], [MixedBot(0.0, "e"), MixedBot(0.0, "f")], "z")
    assert client.get(f"/games/{lone['game_id']}/rating").json()["reason"] == "unclaimed-seat"
    ratings = runtime.community.ratings()
    assert [r.games for r in ratings.pool(2)] == [1, 1]  # only the first game counted
    assert all(r.provisional and r.shown.endswith("?") for r in ratings.pool(2))  # RATE-4


def test_profiles_are_private_until_chosen_and_show_games_and_ratings(client: TestClient) -> None:
    runtime = runtime_of(client)
    ada, ben = person(runtime, "Ada"), person(runtime, "Ben")
    game = claimed_game(client, [ada, ben], 0)
    play_out(runtime, game["game_id"], [MixedBot(1.0, "a"), MixedBot(0.0, "b")], "x")
    assert client.get("/players/Ada").status_code == 404
    assert client.put("/me/profile", json={"public": True}, headers=ada.headers()).status_code == 200
    no_csrf = client.put("/me/profile", json={"public": True}, headers={"Cookie": ada.headers()["Cookie"]})
    assert no_csrf.status_code == 403
    profile = client.get("/players/Ada").json()
    assert profile["modes"]["2"]["played"] == 1 and profile["modes"]["2"]["finished"] == 1
    assert profile["recent"][0]["replay_link"] == f"/replay/{game['game_id']}"
    assert profile["ratings"][0]["pool"] == 2 and profile["ratings"][0]["shown"].endswith("?")
    assert profile["moves"] > 0 and profile["seconds_per_move"] is not None
    assert sum(profile["points_by_source"].values()) == profile["recent"][0]["score"]
    svg = client.get("/players/Ada/ratings/2.svg")
    assert svg.status_code == 200 and svg.text.startswith("<svg") and "polyline" in svg.text
    page = client.get("/players/Ada", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "player.js" in page.text
    twin = person(runtime, "Ada")
    taken = client.put("/me/profile", json={"public": True}, headers=twin.headers())
    assert taken.status_code == 409 and taken.json()["code"] == "profile-name-taken"
