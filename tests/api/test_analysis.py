"""Read models over HTTP: `GET /stats` (the statistics view, its filters, bad filters) and
`GET /games/{id}/timeline` (JSON, SVG by `Accept`, and only public facts before the end)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.negotiation import SVG, prefers, quality
from api.settings import Settings
from projections.projector import open_stats
from projections.source import open_store
from projections.stats import Filters
from projections.timeline import public_events, timeline
from tests.api.helpers import create, hidden_ids, leaks, play_turns, runtime_of, wait_until
from tests.projections.corpus import new_game, write

CORPUS = 6  # games 0..5: 2, 3, 4, 2, 3, 4 players; Luna in game 3; people only in 0 and 5, mixed in 1
BROWSER_IMG = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
BROWSER_PAGE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture
def stats_client(settings: Settings, tmp_path: Path) -> Iterator[TestClient]:
    """An app (keeping its read models) over a store that already holds finished games."""
    store = open_store(settings.database_url)
    try:
        write(store, [new_game(i) for i in range(CORPUS)])
    finally:
        store.close()
    with TestClient(create_app(replace(settings, projections=True))) as client:
        wait_until(lambda: client.get("/stats").json()["games"] == CORPUS, 20, "the statistics to catch up")
        yield client


def test_stats_serve_the_statistics_view_with_its_filters(
    stats_client: TestClient, settings: Settings
) -> None:
    client = stats_client
    view = open_stats(settings.database_url)
    try:
        for params, filters, games in [
            ({}, Filters(), CORPUS),
            ({"players": 2}, Filters(players=2), 2),
            ({"luna": "true"}, Filters(luna=True), 1),
            ({"luna": "false", "players": 4}, Filters(luna=False, players=4), 2),
            ({"seats": "humans"}, Filters(seats="humans"), 2),
            ({"seats": "mixed"}, Filters(seats="mixed"), 1),
            ({"seats": "bots"}, Filters(seats="bots"), 3),
            ({"edition": "no-such-edition"}, Filters(edition="no-such-edition"), 0),
            ({"forks": "true"}, Filters(forks=True), CORPUS),
        ]:
            response = client.get("/stats", params=params)
            assert response.status_code == 200, response.text
            body = response.json()
            assert body["games"] == games, params
            assert body == orjson.loads(orjson.dumps(view.compute(filters))), params
    finally:
        view.close()
    edition = client.get(f"/games/{client.get('/games').json()['games'][0]['game_id']}").json()
    matching = client.get("/stats", params={"edition": edition["state"]["catalog"]["edition"]}).json()
    assert matching["games"] == CORPUS

    for bad in ({"players": 5}, {"players": "two"}, {"luna": "maybe"}, {"seats": "robots"}, {"player": 2}):
        response = client.get("/stats", params=bad)
        assert response.status_code == 422, bad
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "invalid-request"


def test_timeline_json_and_svg_of_a_finished_game(client: TestClient) -> None:
    table = create(client, 2, seed="timeline", bots={1: "random"})
    play_turns(client, table, random.Random(21))
    game = table.game_id
    board = client.get(f"/games/{game}").json()

    response = client.get(f"/games/{game}/timeline")
    assert response.headers["content-type"] == "application/json"
    assert response.headers["vary"] == "Accept"
    data = response.json()
    assert data["finished"] and data["points"][-1]["kind"] == "end"
    assert data["scores"] == data["points"][-1]["scores"] == [s["score"] for s in board["seats"]]
    assert data["winners"] == board["winners"]
    for accept in ("*/*", BROWSER_PAGE, "application/json, image/svg+xml;q=0.5"):
        assert client.get(f"/games/{game}/timeline", headers={"Accept": accept}).json() == data

    for accept in (SVG, BROWSER_IMG, "application/json;q=0.4, image/*"):
        svg = client.get(f"/games/{game}/timeline", headers={"Accept": accept})
        assert svg.status_code == 200 and svg.headers["content-type"].startswith(SVG), accept
        root = ET.fromstring(svg.text)  # well-formed
        series = root.findall(".//{http://www.w3.org/2000/svg}polyline[@class='series']")
        assert sorted(s.get("data-seat") for s in series) == ["0", "1"]
    assert client.get("/games/00000000-0000-0000-0000-000000000000/timeline").status_code == 404


def test_timeline_of_a_running_game_uses_public_facts_only(client: TestClient) -> None:
    table = create(client, 3, seed="timeline-running", bots={2: "greedy"})
    play_turns(client, table, random.Random(22), max_decisions=60)
    game = table.game_id
    runtime = runtime_of(client)
    wait_until(lambda: client.get(f"/games/{game}").json()["to_act"] in (0, 1), 10, "the bot to hand over")
    state, head = runtime.store.current(game)
    assert not state.finished and len(state.deck) >= 2
    events = [s.event for s in runtime.store.events(game, 0, None)]

    for accept in ("application/json", SVG):
        body = client.get(f"/games/{game}/timeline", headers={"Accept": accept}).text
        assert not leaks(body, hidden_ids(runtime, game), state.deck), accept
    data = client.get(f"/games/{game}/timeline").json()
    assert not data["finished"] and data["points"][-1]["version"] <= head
    # What the timeline shows does not depend on any secret field: emptying them changes nothing.
    assert data == timeline(public_events(events)) == timeline(events)
    blank = list(public_events(events))
    assert blank[0].deck == () and blank[0].seed == ""  # type: ignore[attr-defined]


def test_accept_negotiation() -> None:
    assert quality(BROWSER_IMG, SVG) == 1.0 and quality(BROWSER_IMG, "application/json") == 0.8
    assert quality("image/*;q=0.3, */*;q=0.9", SVG) == 0.3  # the most specific range decides
    assert quality("text/html", SVG) == 0.0
    assert prefers(SVG, SVG, "application/json")
    assert not prefers(None, SVG, "application/json") and not prefers("*/*", SVG, "application/json")
    assert not prefers("image/svg+xml;q=bad", SVG, "application/json")
