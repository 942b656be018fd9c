"""Hidden information: before the game ends, no response to anyone contains the undealt deck, the box or
the reserve (searched as card IDs, and as the deck order) — views, moves, commands, events, the stream,
/at/{v}, export, fork, verify, the lobby and error bodies — while the same search finds them after the end."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.api.helpers import create, hidden_ids, leaks, parse_sse, play_turns, runtime_of, wait_until


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
        with client.stream("GET", f"/games/{game}/stream", headers=headers) as response:
            if response.status_code == 200:
                messages = parse_sse(response.iter_lines(), count=head)
                assert [int(m["id"]) for m in messages] == list(range(1, head + 1))
                bodies.append((f"stream {name}", str([m["data"] for m in messages])))
            else:
                bodies.append((f"stream {name}", response.read().decode()))
    forks: list[str] = []
    for at in (1, head // 2, head):
        fork = client.post(f"/games/{game}/fork", json={"at_version": at})
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

    # The same search finds the deal once it is public: the check can see what it looks for.
    play_turns(client, table, random.Random(8))
    export = client.get(f"/games/{game}/export").text
    assert leaks(export, hidden, state.deck)
    assert leaks(client.get(f"/games/{game}/at/2").text, hidden, state.deck)
