"""Optimistic concurrency over HTTP: many clients posting at the same version, exactly one wins."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from tests.api.helpers import create

CLIENTS = 20


def test_twenty_concurrent_posts_at_one_version_give_one_200_and_409s(client: TestClient) -> None:
    table = create(client, 2, seed="race")
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    barrier = threading.Barrier(CLIENTS)

    def post(i: int) -> tuple[int, dict]:
        move = listing["moves"][i % len(listing["moves"])]
        body = {"command": move, "expected_version": listing["version"], "command_id": f"race-{i}"}
        barrier.wait(timeout=10)
        response = client.post(f"/games/{table.game_id}/commands", headers=table.auth(seat), json=body)
        return response.status_code, response.json()

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(post, range(CLIENTS)))
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * (CLIENTS - 1), statuses
    winner = next(body for status, body in results if status == 200)
    for status, body in results:
        if status == 409:
            assert body["code"] == "version-conflict"
            assert body["current_version"] == winner["version"]
    events = client.get(f"/games/{table.game_id}/events", params={"limit": 500}).json()["events"]
    assert [e["version"] for e in events] == list(range(1, winner["version"] + 1))  # no gap, no double
