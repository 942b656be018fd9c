"""Games stored by the first release, over HTTP: POST /games/import, then /moves and /commands until
the end, then /verify (issue 10)."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import Table, play_turns
from tests.fixtures import RELEASES, release_games

# Playing a backup on over HTTP takes ~20 s of random moves: the Luna backup is played to its end here,
# every backup is played on through the store in tests/replays/test_release_fixtures.py.
OVER_HTTP = ("luna-4p-backup",)
CASES = [
    (release, name)
    for release in RELEASES
    for name in release_games(release)
    if name.endswith("-finished") or name in OVER_HTTP
]


@pytest.mark.parametrize(("release", "name"), CASES, ids=[f"{r}/{n}" for r, n in CASES])
def test_a_released_game_imports_plays_on_and_verifies_over_http(
    client: TestClient, release: str, name: str
) -> None:
    response = client.post(
        "/games/import",
        content=release_games(release)[name],
        headers={"content-type": "application/x-ndjson"},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    table = Table(body["game_id"], [s["token"] for s in body["seats"]], body)
    if name.endswith("-backup"):
        assert all(token is not None for token in table.tokens)
        assert play_turns(client, table, random.Random(name), timeout=300) > 0
    board = client.get(f"/games/{table.game_id}").json()
    assert board["status"] == "finished"
    report = client.get(f"/games/{table.game_id}/verify").json()
    assert report["ok"] is True, report
