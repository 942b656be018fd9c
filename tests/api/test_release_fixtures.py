"""Games stored by the first release, over HTTP: POST /games/import, then /moves and /commands until
the end, then /verify (issue 10)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from fastapi.testclient import TestClient

import domain.editions
from api.settings import Settings
from domain.catalog.loader import CURRENT_EDITION
from domain.selfplay import default_setup
from replays.service import Games
from tests.api.helpers import Table, finish_in_process, play_turns, runtime_of
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
        # Forty decisions over HTTP, then the rest through the API's store (the same command path
        # without HTTP, several times faster): the game must reach its end and verify.
        rng = random.Random(name)
        assert play_turns(client, table, rng, max_decisions=40) > 0
        finish_in_process(client, runtime_of(client), table, rng, timeout=300)
    board = client.get(f"/games/{table.game_id}").json()
    assert board["status"] == "finished"
    report = client.get(f"/games/{table.game_id}/verify").json()
    assert report["ok"] is True, report


def test_verify_route_reports_the_divergence_under_the_current_edition(client: TestClient) -> None:
    response = client.post(
        "/games/import",
        content=release_games("release-1")["base-4p-finished"],
        headers={"content-type": "application/x-ndjson"},
    )
    game_id = response.json()["game_id"]
    report = client.get(f"/games/{game_id}/verify", params={"edition": "current"}).json()
    assert report["ok"] is True  # information, not a failed verification
    edition = report["edition"]
    assert (
        edition["catalog_edition"] == CURRENT_EDITION  # the default edition of new games
        and edition["recorded"]["catalog_edition"] == "base-provisional-1"
    )
    assert edition["same"] is False
    assert (edition["divergence"]["version"], edition["divergence"]["rule"]) == (1337, "INQ-21")
    assert client.get(f"/games/{game_id}/verify").json()["edition"] is None  # only when asked for
    refused = client.get(f"/games/{game_id}/verify", params={"edition": "base-9"})
    assert refused.status_code == 422 and refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "unknown-edition" and refused.json()["edition"] == "base-9"
    assert "domain/catalog/editions/base-9/" in refused.json()["detail"]


def test_a_stored_game_of_an_unknown_rules_version_is_a_clear_problem(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as newer:  # a newer build stored this game under rules 9.9.9
        newer.setattr(domain.editions, "RULES_VERSIONS", ("0.1.0", "9.9.9"))
        with Games(settings.database_url) as games:
            setup = dataclasses.replace(default_setup(2, "newer"), engine_version="9.9.9")
            game_id, _ = games.create(setup)
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "unknown-edition" and body["edition"] == "9.9.9"
    assert "unknown rules version '9.9.9'" in body["detail"]
