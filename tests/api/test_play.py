"""Complete games over HTTP by clients that only read /moves and post one of them back."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import create, play_turns, wait_until


@pytest.mark.parametrize(
    ("players", "bots"),
    [(2, {1: "random"}), (3, {0: "greedy"}), (4, {2: "random"})],
    ids=["2-seats", "3-seats", "4-seats"],
)
def test_complete_game_over_http_with_a_bot_seat(
    client: TestClient, players: int, bots: dict[int, str]
) -> None:
    table = create(client, players, seed=f"play-{players}", bots=bots)
    decisions = play_turns(client, table, random.Random(players))
    assert decisions > 50

    board = client.get(f"/games/{table.game_id}").json()
    assert board["status"] == "finished"
    assert board["to_act"] is None
    assert board["winners"]
    assert board["viewer"]["class"] == "full"  # everything is public after the end
    assert "deck" in board["state"]

    log = client.get(f"/games/{table.game_id}/events", params={"limit": 500}).json()
    assert log["events"][0]["type"] == "GameStarted"
    bot_seat = next(iter(bots))
    actors = set()
    after = 0
    while True:
        page = client.get(f"/games/{table.game_id}/events", params={"after": after, "limit": 500}).json()
        actors |= {e["actor"] for e in page["events"]}
        if page["next_after"] is None:
            break
        after = page["next_after"]
    assert bot_seat in actors  # the bot's moves were recorded like anyone's
    assert set(table.humans) <= actors

    report = client.get(f"/games/{table.game_id}/verify").json()
    assert report["ok"], report


def test_a_bot_that_moves_first_plays_until_a_person_must_act(client: TestClient) -> None:
    response = client.post(
        "/games", json={"seats": [{"bot": "greedy"}, {"name": "Ann"}], "seed": "bot-first", "first_seat": 0}
    )
    table_id = response.json()["game_id"]
    token = response.json()["seats"][1]["token"]
    assert response.json()["seats"][0]["token"] is None
    headers = {"Authorization": f"Bearer {token}"}
    listing = wait_until(
        lambda: (m := client.get(f"/games/{table_id}/moves", headers=headers).json())["to_act"] == 1 and m,
        30,
        "the bot to hand over to the person",
    )
    assert listing["to_act"] == 1 and listing["moves"]
    events = client.get(f"/games/{table_id}/events", params={"limit": 500}).json()["events"]
    assert any(e["actor"] == 0 for e in events)


def test_posting_a_listed_move_back_unchanged_and_by_text(client: TestClient) -> None:
    table = create(client, 2, seed="text-form")
    listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()
    seat = listing["to_act"]
    listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    move = listing["moves"][0]
    # Each move in words, in the order of the moves (projections/describe.py), outside the move itself.
    assert len(listing["descriptions"]) == len(listing["moves"])
    assert listing["descriptions"][0] == "Move the telescope 1 step"
    assert listing["previews"][0]["lines"][0].startswith("Moved the telescope 1 step from X2 to ")
    response = client.post(
        f"/games/{table.game_id}/commands",
        headers=table.auth(seat),
        json={"command": {"text": move["text"]}, "expected_version": listing["version"], "command_id": "t1"},
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["version"] > listing["version"]
    assert result["events"][0]["version"] == listing["version"] + 1
    assert result["events"][0]["text"].startswith("Moved the telescope")  # each event in words
    assert result["replayed"] is False


def test_command_answers_carry_actor_and_received_at_like_the_event_log(client: TestClient) -> None:
    table = create(client, 2, seed="audit-answer")
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    post = {"command": listing["moves"][0], "expected_version": listing["version"], "command_id": "a-1"}
    url = f"/games/{table.game_id}/commands"
    answer = client.post(url, headers=table.auth(seat), json=post).json()
    retried = client.post(url, headers=table.auth(seat), json=post).json()
    log = client.get(f"/games/{table.game_id}/events", params={"after": listing["version"]}).json()["events"]
    assert retried["replayed"] is True
    for events in (answer["events"], retried["events"]):
        assert [(e["actor"], e["received_at"]) for e in events] == [
            (e["actor"], e["received_at"]) for e in log[: len(events)]
        ]
        assert all(e["actor"] == seat and e["received_at"] for e in events)


def test_CHAR_2_a_game_with_the_luna_characters_can_be_created_over_http(client: TestClient) -> None:
    seats = [{"name": n, "character": c} for n, c in (("Ada", "newton"), ("Ben", "sophia"))]
    response = client.post("/games", json={"seats": seats + [{"bot": "greedy"}], "seed": "char-2"})
    assert response.status_code == 201, response.text
    board = client.get(f"/games/{response.json()['game_id']}").json()
    assert [p["character"] for p in board["state"]["players"]] == ["newton", "sophia", "galileo"]


def test_CHAR_1_an_ability_game_over_http_is_played_to_the_end_and_verifies(client: TestClient) -> None:
    """Issue 11: seats on their ability side (`"side": "ability"`, Kepler's `"aside"`, AMB-30), one a
    bot, played to the end by clients that only read /moves; the stored game verifies."""
    from tests.api.helpers import Table

    seats = [
        {"name": "Ada", "character": "galileo", "side": "ability"},
        {"name": "Ben", "character": "kepler", "side": "ability", "aside": "A2"},
        {"name": "Cy", "character": "copernicus", "side": "ability"},
        {"bot": "greedy", "character": "bruno", "side": "ability"},
    ]
    response = client.post("/games", json={"seats": seats, "seed": "char-1-http"})
    assert response.status_code == 201, response.text
    body = response.json()
    table = Table(body["game_id"], [s["token"] for s in body["seats"]], body)
    board = client.get(f"/games/{table.game_id}").json()
    assert board["state"]["players"][1]["ability"]["aside"] == "A2"
    assert board["state"]["players"][3]["cellar"] == [0, 0, 0, 0, 0]  # CHAR-BRU-2
    play_turns(client, table, random.Random(11), timeout=600)
    board = client.get(f"/games/{table.game_id}").json()
    assert board["status"] == "finished"
    verified = client.get(f"/games/{table.game_id}/verify").json()
    assert verified["ok"] is True, verified
    bad = client.post(  # only Kepler sets a tile aside (the setup's refusal names its rule)
        "/games",
        json={"seats": [{"character": "galileo", "side": "ability", "aside": "A2"}, {}], "seed": "x"},
    )
    assert bad.status_code in (400, 422) and "CHAR-KEP-1" in bad.text


def test_a_seat_s_move_listing_is_computed_once_per_version(client: TestClient) -> None:
    table = create(client, 2, seed="listing-cache")
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    first = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    cached = runtime.move_listings.get((table.game_id, first["version"], seat, "en"))  # and per language
    assert cached is not None and cached[0] == first["moves"]
    assert client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json() == first
    move = first["moves"][0]
    posted = client.post(
        f"/games/{table.game_id}/commands",
        headers=table.auth(seat),
        json={"command": move, "expected_version": first["version"], "command_id": "cache-1"},
    )
    assert posted.status_code == 200, posted.text
    after = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    assert after["version"] == posted.json()["version"]  # a new version: a listing of its own


def test_moves_and_command_answers_are_their_models_exactly(client: TestClient) -> None:
    """GET /moves and POST /commands encode their answers themselves (issue 28: no model round trip):
    each is exactly what its declared model (`MovesOut`, `CommandResult`) gives, field for field."""
    from api.schemas import CommandResult, MovesOut

    table = create(client, 2, seed="encoded-answers")
    rng = random.Random(28)
    for _ in range(12):
        seat = client.get(f"/games/{table.game_id}").json()["to_act"]
        listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
        assert MovesOut.model_validate(listing).model_dump(mode="json") == listing
        assert listing["moves"] and len(listing["previews"]) == len(listing["moves"])
        other = client.get(f"/games/{table.game_id}/moves", headers=table.auth(1 - seat)).json()
        assert MovesOut.model_validate(other).model_dump(mode="json") == other
        assert other["moves"] == [] and other["to_act"] == seat
        body = {
            "command": rng.choice(listing["moves"]),
            "expected_version": listing["version"],
            "command_id": f"encoded-{listing['version']}",
        }
        for replayed in (False, True):  # the first answer, then the retry's
            answer = client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=body)
            assert answer.status_code == 200
            result = answer.json()
            # exclude_unset: `board` is there only when asked for (include=board)
            assert CommandResult.model_validate(result).model_dump(mode="json", exclude_unset=True) == result
            assert result["replayed"] is replayed and result["events"]


def test_the_board_with_include_moves_is_the_board_and_the_listing_at_one_version(client: TestClient) -> None:
    """What the play page reads per refresh (issue 28): `GET /games/{id}?include=moves` is the board
    view as `GET /games/{id}` gives it plus, in `moves`, what `GET /moves` answers at the same version;
    a spectator's `moves` is null; its ETag is its own (it varies with the language of the moves)."""
    from api.schemas import BoardView

    table = create(client, 2, seed="board-with-moves")
    rng = random.Random(2028)
    for _ in range(6):
        seat = client.get(f"/games/{table.game_id}").json()["to_act"]
        for viewer in (seat, 1 - seat):
            both = client.get(
                f"/games/{table.game_id}", params={"include": "moves"}, headers=table.auth(viewer)
            )
            assert both.status_code == 200, both.text
            view = both.json()
            listing = view.pop("moves")
            assert view == client.get(f"/games/{table.game_id}", headers=table.auth(viewer)).json()
            assert listing == client.get(f"/games/{table.game_id}/moves", headers=table.auth(viewer)).json()
            assert listing["version"] == view["version"] and bool(listing["moves"]) is (viewer == seat)
            assert BoardView.model_validate(both.json()).model_dump(mode="json") == both.json()
            etag = both.headers["etag"]
            assert etag != client.get(f"/games/{table.game_id}", headers=table.auth(viewer)).headers["etag"]
            again = client.get(
                f"/games/{table.game_id}",
                params={"include": "moves"},
                headers={**table.auth(viewer), "If-None-Match": etag},
            )
            assert again.status_code == 304
            japanese = client.get(
                f"/games/{table.game_id}",
                params={"include": "moves"},
                headers={**table.auth(viewer), "If-None-Match": etag, "Accept-Language": "ja"},
            )
            assert japanese.status_code == 200 and japanese.headers["etag"] != etag
        spectator = client.get(f"/games/{table.game_id}", params={"include": "moves"}).json()
        assert spectator["moves"] is None
        listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
        body = {
            "command": rng.choice(listing["moves"]),
            "expected_version": listing["version"],
            "command_id": f"with-moves-{listing['version']}",
        }
        assert (
            client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=body).status_code
            == 200
        )
    bad = client.get(f"/games/{table.game_id}", params={"include": "everything"})
    assert bad.status_code == 422


def test_a_command_with_include_board_answers_the_board_and_moves_after_it(client: TestClient) -> None:
    """`POST /commands?include=board` (issue 28): the answer holds the seat's board and legal moves
    after the command, exactly what `GET /games/{id}?include=moves` then answers the seat; the retry
    of the same command ID answers the board as it is then; without include there is no `board`."""
    from api.schemas import CommandResult

    table = create(client, 2, seed="command-with-board")
    rng = random.Random(4028)
    for n in range(10):
        seat = client.get(f"/games/{table.game_id}").json()["to_act"]
        listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
        body = {
            "command": rng.choice(listing["moves"]),
            "expected_version": listing["version"],
            "command_id": f"with-board-{n}",
        }
        url = f"/games/{table.game_id}/commands"
        for replayed in (False, True):
            answer = client.post(url, params={"include": "board"}, headers=table.auth(seat), json=body)
            assert answer.status_code == 200, answer.text
            result = answer.json()
            assert result["replayed"] is replayed
            assert CommandResult.model_validate(result).model_dump(mode="json", exclude_unset=True) == result
            now = client.get(f"/games/{table.game_id}", params={"include": "moves"}, headers=table.auth(seat))
            assert result["board"] == now.json()
            assert result["board"]["version"] == result["version"]  # no bot here: nobody moved since
            assert result["board"]["viewer"]["seat"] == seat
        plain = client.post(url, headers=table.auth(seat), json=body).json()
        assert "board" not in plain and plain["replayed"] is True
