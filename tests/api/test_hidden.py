"""Hidden information: before the game ends, no response to anyone contains the undealt deck, the box or
the reserve (searched as card IDs, and as the deck order) — views, moves, commands, events, the stream,
/at/{v}, the timeline, export, fork, verify, the lobby and error bodies — while the same search finds
them after the end. And a seat's private fields (the front of a card it drew face down) reach that seat
only until the end: its own views, log, stream and export show them, no one else's do."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.negotiation import SVG
from api.runtime import Runtime
from api.settings import Settings
from domain.catalog import load_catalog
from domain.events import CardDrawnFaceDown
from tests.api.conftest import LiveServer
from tests.api.helpers import (
    StreamReader,
    Table,
    create,
    finish_in_process,
    hidden_ids,
    leaks,
    parse_sse,
    play_turns,
    runtime_of,
    wait_until,
)


def test_no_response_reveals_the_hidden_deal_before_the_end(client: TestClient) -> None:
    table = create(client, 3, seed="hidden", bots={2: "random"})
    elsewhere = create(client, 2, seed="hidden-elsewhere")
    game = table.game_id
    bodies: list[tuple[str, str]] = []

    def keep(what: str, response) -> None:  # type: ignore[no-untyped-def]
        bodies.append((what, response.text))

    play_turns(client, table, random.Random(7), max_decisions=80)
    viewers = {
        "seat0": table.auth(0),
        "seat1": table.auth(1),
        "spectator": {},
        "other-game": elsewhere.auth(0),
        "forged": {"Authorization": "Bearer gg_" + "A" * 43},
    }
    head = client.get(f"/games/{game}").json()["version"]
    for name, headers in viewers.items():
        keep(f"view {name}", client.get(f"/games/{game}", headers=headers))
        keep(f"moves {name}", client.get(f"/games/{game}/moves", headers=headers))
        after = 0
        while True:
            page = client.get(f"/games/{game}/events", headers=headers, params={"after": after, "limit": 500})
            keep(f"events {name}", page)
            if page.status_code != 200 or page.json()["next_after"] is None:
                break
            after = page.json()["next_after"]
        for version in (1, 2, head // 2, head):
            keep(f"at {version} {name}", client.get(f"/games/{game}/at/{version}", headers=headers))
        keep(f"at as_seat {name}", client.get(f"/games/{game}/at/2", headers=headers, params={"as_seat": 0}))
        keep(f"export {name}", client.get(f"/games/{game}/export", headers=headers))
        keep(f"verify {name}", client.get(f"/games/{game}/verify", headers=headers))
        keep(f"lobby {name}", client.get("/games", headers=headers))
        keep(f"timeline {name}", client.get(f"/games/{game}/timeline", headers=headers))
        keep(
            f"timeline svg {name}", client.get(f"/games/{game}/timeline", headers={**headers, "Accept": SVG})
        )
        with client.stream("GET", f"/games/{game}/stream?after=0", headers=headers) as response:
            if response.status_code == 200:
                messages = parse_sse(response.iter_lines(), count=head)
                assert [int(m["id"]) for m in messages] == list(range(1, head + 1))
                bodies.append((f"stream {name}", str([m["data"] for m in messages])))
            else:
                bodies.append((f"stream {name}", response.read().decode()))
    forks: list[str] = []
    # Anyone may fork a running game at any version: the fork re-deals what was unseen, including any card
    # a seat drew face down (its front is re-drawn among unseen cards of the same tier and back), so whether
    # the background bot has reached a face-down draw by now changes nothing here.
    for at in sorted({1, max(1, head // 2), head}):
        fork = client.post(f"/games/{game}/fork", json={"at_version": at})
        assert fork.status_code == 201, fork.text
        keep(f"answer of fork at {at}", fork)
        forked = fork.json()["game_id"]
        forks.append(forked)
        keep(f"fork view {at}", client.get(f"/games/{forked}"))
        keep(f"fork events {at}", client.get(f"/games/{forked}/events", params={"limit": 500}))
        keep(f"fork export {at}", client.get(f"/games/{forked}/export"))
    # error bodies: illegal, stale, out of turn, malformed
    listing = wait_until(
        lambda: (
            (m := client.get(f"/games/{game}/moves", headers=table.auth(0)).json())["to_act"] in (0, 1) and m
        ),
        10,
        "a person's turn",
    )
    seat, head = listing["to_act"], listing["version"]
    url = f"/games/{game}/commands"
    move = client.get(f"/games/{game}/moves", headers=table.auth(seat)).json()["moves"][0]
    errors = [
        {"command": {"type": "Move", "seat": seat, "steps": 9}, "expected_version": head, "command_id": "e1"},
        {"command": move, "expected_version": 1, "command_id": "e2"},
        {
            "command": {"type": "Observe", "seat": seat, "target": "MO:D9-99", "dice": [["R", 1]]},
            "expected_version": head,
            "command_id": "e3",
        },
        {"command": {"type": "Move", "seat": seat}, "expected_version": head, "command_id": "e4"},
    ]
    for body in errors:
        response = client.post(url, headers=table.auth(seat), json=body)
        assert response.status_code in (409, 422), response.text
        keep("error", response)
    response = client.post(url, headers=table.auth(1 - seat), json={**errors[0], "command": move})
    assert response.status_code == 403
    keep("error", response)

    runtime = runtime_of(client)
    state, _ = runtime.store.current(game)
    assert not state.finished and len(state.deck) >= 2, "the check needs an unfinished game with a deck"
    hidden = hidden_ids(runtime, game)
    for forked in forks:  # a fork re-deals what was unseen: its deck order is its own
        fork_state, _ = runtime.store.current(forked)
        assert fork_state.deck[:4] != state.deck[:4]
    for what, text in bodies:
        found = leaks(text, hidden, state.deck, order_only=what.startswith("fork "))
        assert not found, f"{what} reveals {found}"

    # The same search finds the deal once it is public: the check can see what it looks for. (The rest of
    # the game is played through the API's store, not over HTTP: only its end matters here.)
    finish_in_process(client, runtime, table, random.Random(8))
    export = client.get(f"/games/{game}/export").text
    assert leaks(export, hidden, state.deck)
    assert leaks(client.get(f"/games/{game}/at/2").text, hidden, state.deck)


# -- fields private to one seat: the front of a card drawn face down (OBS-52) -------------------------


def _face_down_draw(runtime: Runtime, game: str) -> tuple[int, int, str] | None:
    """(version, seat, card) of the game's first face-down draw, if any."""
    for stored in runtime.store.events(game, 0, None):
        if isinstance(stored.event, CardDrawnFaceDown):
            return stored.version, stored.event.seat, stored.event.card
    return None


def _until_a_face_down_draw(http: httpx.Client, runtime: Runtime, table: Table) -> tuple[int, int, str]:
    rng = random.Random(5)
    for _ in range(300):
        play_turns(http, table, rng, max_decisions=1)
        draw = _face_down_draw(runtime, table.game_id)
        if draw is not None:
            play_turns(http, table, rng, max_decisions=2)  # and a little beyond it
            return draw
    raise AssertionError("no card was drawn face down")


def _events(http: httpx.Client, game: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """The whole log as `headers` may see it, each item as the stream sends it."""
    out: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = http.get(
            f"/games/{game}/events", headers=headers, params={"after": after, "limit": 500}
        ).json()
        out += [{k: e[k] for k in ("version", "type", "event", "text", "routine")} for e in page["events"]]
        after = page["next_after"]
    return out


@pytest.fixture(params=["in-process", pytest.param("redis", marks=[pytest.mark.redis, pytest.mark.postgres])])
def two_servers(
    request: pytest.FixtureRequest, settings: Settings
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Where moves are posted and where streams are held: one process, or two sharing a store and Redis
    (a long heartbeat: only pub/sub brings a move to the other's streams)."""
    if request.param == "in-process":
        with LiveServer(settings) as server:
            yield server, server
        return
    redis_url = request.getfixturevalue("redis_url")
    shared = replace(
        settings,
        database_url=request.getfixturevalue("postgres_url"),
        redis_url=redis_url,
        stream_heartbeat_seconds=60.0,
    )
    with LiveServer(shared) as a, LiveServer(shared) as b:
        yield a, b


def test_a_face_down_card_is_seen_by_the_seat_that_drew_it_and_nobody_else(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    posting, streaming = two_servers
    with httpx.Client(base_url=posting.url, timeout=10) as http:
        table = create(http, 2, seed="face-down")
        game = table.game_id
        url = f"{streaming.url}/games/{game}/stream?after=0"
        readers = {
            "seat0": StreamReader(url, table.auth(0)).start(),
            "seat1": StreamReader(f"{url}&access_token={table.tokens[1]}").start(),  # as a browser does
            "spectator": StreamReader(url).start(),
        }
        runtime = runtime_of(posting)
        try:
            drawn_at, owner, card = _until_a_face_down_draw(http, runtime, table)
            state, head = runtime.store.current(game)
            assert not state.finished
            streams = {name: reader.take(head) for name, reader in readers.items()}
        finally:
            for reader in readers.values():
                reader.stop()
        viewers = {"owner": table.auth(owner), "other": table.auth(1 - owner), "spectator": {}}
        stream_of = {"owner": f"seat{owner}", "other": f"seat{1 - owner}", "spectator": "spectator"}
        for name, headers in viewers.items():
            events = _events(http, game, headers)
            drawn = events[drawn_at - 1]
            assert drawn["type"] == "CardDrawnFaceDown" and drawn["event"]["seat"] == owner
            # The live stream carries exactly what the log shows this viewer.
            assert [m["data"] for m in streams[stream_of[name]]] == events, name
            bodies = {
                "events": str(events),
                "board": http.get(f"/games/{game}", headers=headers).text,
                "at": http.get(f"/games/{game}/at/{drawn_at}", headers=headers).text,
                "at head": http.get(f"/games/{game}/at/{head}", headers=headers).text,
                "export": http.get(f"/games/{game}/export", headers=headers).text,
            }
            others = {
                "moves": http.get(f"/games/{game}/moves", headers=headers).text,
                "verify": http.get(f"/games/{game}/verify", headers=headers).text,
                "timeline": http.get(f"/games/{game}/timeline", headers=headers).text,
            }
            named = load_catalog().cards[card].major.name  # the words name the card only to its owner
            assert (named in drawn["text"]) == (name == "owner"), drawn["text"]
            if name == "owner":
                assert drawn["event"]["card"] == card and "redacted" not in drawn["event"]
                library = http.get(f"/games/{game}", headers=headers).json()["state"]["players"][owner]
                assert [card, False] in library["library"]
                for what, body in bodies.items():
                    assert card in body, f"the owner's {what} lacks its own card"
            else:
                assert "card" not in drawn["event"] and "card" in drawn["event"]["redacted"]
                assert drawn["event"]["tier"] >= 1 and drawn["event"]["back"]  # the back is public
                for what, body in {**bodies, **others}.items():
                    assert card not in body, f"{name}'s {what} shows seat {owner}'s face-down card"
                board = http.get(f"/games/{game}", headers=headers).json()
                hidden = f"hidden:{drawn['event']['tier']}"
                assert [hidden, False] in board["state"]["players"][owner]["library"]

        # The answer to the command that drew it (here its retry, which returns the first result).
        meta = runtime.store.events(game, drawn_at - 1, 1)[0].metadata
        assert meta["actor"] == owner
        retry = {"command": meta["command"], "expected_version": 0, "command_id": meta["command_id"]}
        answer = http.post(f"/games/{game}/commands", headers=viewers["owner"], json=retry).json()
        assert answer["replayed"] and card in str(answer["events"])

        # A fork hands its creator every seat, so the engine re-draws each face-down card among the
        # unseen cards with the same tier and back: the fork's card says nothing of the source's.
        for headers in (viewers["spectator"], viewers["other"], viewers["owner"]):
            forked = http.post(f"/games/{game}/fork", headers=headers, json={"at_version": head})
            assert forked.status_code == 201, forked.text
            token = forked.json()["seats"][owner]["token"]
            copy = _events(http, forked.json()["game_id"], {"Authorization": f"Bearer {token}"})
            redrawn = next(e for e in copy if e["type"] == "CardDrawnFaceDown")["event"]
            assert (redrawn["tier"], redrawn["back"]) == (drawn["event"]["tier"], drawn["event"]["back"])

        # Once the game has ended everything is public; as_seat shows what a seat could see then. (The rest
        # of the game is played through the API's store, not over HTTP: only its end matters here.)
        finish_in_process(http, runtime, table, random.Random(6))
        assert card in str(_events(http, game, {}))
        assert card in http.get(f"/games/{game}/at/{drawn_at}").text
        as_owner = http.get(f"/games/{game}/at/{drawn_at}", params={"as_seat": owner})
        as_other = http.get(f"/games/{game}/at/{drawn_at}", params={"as_seat": 1 - owner})
        assert card in as_owner.text and card not in as_other.text


# -- the Luna characters' hidden orders (issue 12): Hevelius' deck, her reshuffles, Cunitz' Notes --------


def _luna_secrets(runtime: Runtime, game: str) -> list[str]:
    """What of Hevelius' and Cunitz' hidden orders nobody may see yet, as it would be written: her deck's
    order (its first three, as a JSON list or its items), her reshuffle key, Cunitz' face-down Notes."""
    from domain.characters.cunitz import urania_of
    from domain.characters.hevelius import heavens_of

    state, _ = runtime.store.current(game)
    heavens, urania = heavens_of(state.players[0]), urania_of(state.players[1])
    assert len(heavens.deck) >= 2 and len(urania.notes) - urania.shown >= 2, "the check needs hidden orders"
    orders = [heavens.deck[:3], urania.notes[urania.shown :][:3]]
    out = [heavens.shuffle_key]
    for order in orders:
        ordered = ",".join(f'"{t}"' for t in order)
        out += [ordered, ordered.replace(",", ", ")]
    return out


def test_CHAR_HEV_1_CHAR_CUN_1_no_response_reveals_the_characters_hidden_orders_before_the_end(
    client: TestClient,
) -> None:
    from domain import legal_moves
    from domain.characters.hevelius import ConstellationDeckReshuffled

    seats = [
        {"name": "Hev", "character": "hevelius", "side": "ability"},
        {"name": "Cun", "character": "cunitz", "side": "ability"},
    ]
    response = client.post("/games", json={"seats": seats, "seed": "hidden-luna-characters"})
    assert response.status_code == 201, response.text
    body = response.json()
    table = Table(body["game_id"], [s["token"] for s in body["seats"]], body)
    game, runtime, rng = table.game_id, runtime_of(client), random.Random(11)
    made = 0
    while True:  # on, through the store, past her first reshuffle (CHAR-HEV-7)
        state, version = runtime.store.current(game)
        shuffled = [
            s for s in runtime.store.events(game, 0, None) if isinstance(s.event, ConstellationDeckReshuffled)
        ]
        if shuffled and version > shuffled[0].version + 4:
            break
        assert not state.finished and made < 5000
        runtime.store.submit(
            game, rng.choice(legal_moves(state)), version, f"l-{made}", state.turn.seat, "human"
        )
        made += 1
    play_turns(client, table, rng, max_decisions=6)  # and some over HTTP
    secrets = _luna_secrets(runtime, game)
    head = client.get(f"/games/{game}").json()["version"]
    bodies: list[tuple[str, str]] = []
    for name, headers in {"seat0": table.auth(0), "seat1": table.auth(1), "spectator": {}}.items():
        bodies.append((f"view {name}", client.get(f"/games/{game}", headers=headers).text))
        bodies.append((f"moves {name}", client.get(f"/games/{game}/moves", headers=headers).text))
        events = client.get(f"/games/{game}/events", headers=headers, params={"limit": 5000})
        bodies.append((f"events {name}", events.text))
        for at in (1, shuffled[0].version, head):
            bodies.append((f"at {at} {name}", client.get(f"/games/{game}/at/{at}", headers=headers).text))
        bodies.append((f"export {name}", client.get(f"/games/{game}/export", headers=headers).text))
        bodies.append((f"timeline {name}", client.get(f"/games/{game}/timeline", headers=headers).text))
        with client.stream("GET", f"/games/{game}/stream?after=0", headers=headers) as streamed:
            bodies.append(
                (f"stream {name}", str([m["data"] for m in parse_sse(streamed.iter_lines(), count=head)]))
            )
    for at in (shuffled[0].version, head):  # a fork re-deals them: the source's orders are not in it
        fork = client.post(f"/games/{game}/fork", json={"at_version": at})
        assert fork.status_code == 201, fork.text
        forked = fork.json()["game_id"]
        bodies.append((f"fork {at}", fork.text + client.get(f"/games/{forked}/export").text))
        finish_in_process(client, runtime, Table(forked, table.tokens, body), random.Random(at))
        bodies.append((f"finished fork {at}", client.get(f"/games/{forked}/export").text))
    for what, text in bodies:
        # a finished fork reveals its own re-deal, whose short orders may match the source's by chance:
        # there the search is for the source's reshuffle key
        found = [
            secret for secret in (secrets[:1] if what.startswith("finished") else secrets) if secret in text
        ]
        assert not found, f"{what} reveals {found}"
    finish_in_process(client, runtime, table, random.Random(12))  # the end reveals them: the search works
    export = client.get(f"/games/{game}/export").text
    assert secrets[0] in export and any(secret in export for secret in secrets[1:3])
