"""Bot seats driven by two API processes at once (as behind a load balancer) never double a move."""

from __future__ import annotations

import json
from dataclasses import replace

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.helpers import wait_until


def test_two_processes_driving_the_same_bots_write_each_move_once(settings: Settings) -> None:
    with (
        TestClient(create_app(settings)) as one,
        TestClient(create_app(replace(settings))) as two,
    ):
        seats = [{"bot": "random"}, {"bot": "random"}]
        game = one.post("/games", json={"seats": seats, "seed": "two-drivers"}).json()["game_id"]

        def finished() -> bool:
            views = [one.get(f"/games/{game}").json(), two.get(f"/games/{game}").json()]  # both kick the bots
            return all(v["status"] == "finished" for v in views)

        wait_until(finished, 60, "the bots to finish", interval=0.01)
        events, after = [], 0
        while True:
            page = one.get(f"/games/{game}/events", params={"after": after, "limit": 500}).json()
            events += page["events"]
            if page["next_after"] is None:
                break
            after = page["next_after"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        report = one.get(f"/games/{game}/verify").json()
        assert report["ok"], report  # every batch is what the rules give for its command
        exported = one.get(f"/games/{game}/export").text.splitlines()[1:]
        batches: dict[str, int] = {}
        for line in exported:
            meta = json.loads(line)["meta"]
            if meta["kind"] == "command":
                first = batches.setdefault(meta["command_id"], meta["batch"])
                assert first == meta["batch"], "a bot move was written twice"
                assert meta["command_id"] == f"bot:{meta['batch'] - 1}"


def test_the_search_bot_takes_seats_by_level(settings: Settings) -> None:
    """Issue 18: `"bot": "mcts"` with a level wherever bots are (domain.bots.BOT_KINDS); others refused."""
    from typing import get_args

    from api.schemas import BotKind
    from domain.bots import BOT_KINDS

    assert get_args(BotKind) == BOT_KINDS
    with TestClient(create_app(replace(settings, bots=False))) as client:
        for kind in ("mcts", "mcts:fast", "mcts:strong"):
            created = client.post("/games", json={"seats": [{"bot": kind}, {"name": "me"}], "seed": kind})
            assert created.status_code == 201, created.text
        refused = client.post("/games", json={"seats": [{"bot": "mcts:ultra"}, {"name": "me"}]})
        assert refused.status_code == 422
