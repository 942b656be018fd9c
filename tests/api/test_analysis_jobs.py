"""Game analysis over HTTP (api/routers/analysis_jobs.py, docs/analysis-api.md): POST a job (202 and its
Location), follow its progress, read its result, the cache, DELETE to cancel; who may analyse what (a seat
only its own view of a running game, anyone a finished one), refusals that write nothing and leak nothing;
and the whole path on Redis with a real `galileo worker` and the real analysis engine.

Most tests inject the paced test analyser (tests/replays/analysers.py) through `create_app(analyser=...)`;
the hidden-information and worker tests run domain.analysis itself."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Rate
from api.settings import Settings
from replays.jobs import PREFIX, QUEUE, LocalJobs
from tests.api.helpers import Table, create, hidden_ids, leaks, play_turns, runtime_of, wait_until
from tests.replays.analysers import PACED

ROOT = Path(__file__).resolve().parents[2]
UNKNOWN = "00000000-0000-0000-0000-000000000000"


@pytest.fixture
def paced(settings: Settings) -> Iterator[TestClient]:
    """The API with the paced test analyser on its in-process queue."""
    with TestClient(create_app(settings, analyser=PACED)) as client:
        yield client


def finished(client: TestClient, seed: str, players: int = 2) -> Table:
    table = create(client, players, seed, bots={i: "greedy" for i in range(players)})
    wait_until(
        lambda: client.get(f"/games/{table.game_id}").json()["status"] == "finished", 60, "the bots' game"
    )
    return table


def running(client: TestClient, seed: str) -> Table:
    """Two people and a bot, a few decisions in."""
    table = create(client, 3, seed, bots={2: "greedy"})
    play_turns(client, table, random.Random(seed), max_decisions=12)
    return table


def poll(
    client: TestClient, url: str, statuses: tuple[str, ...], headers: dict[str, str] | None = None
) -> Any:
    def reached() -> Any:
        body = client.get(url, headers=headers or {}).json()
        return body if body["status"] in statuses else None

    return wait_until(reached, 60, f"{url} to be {'/'.join(statuses)}")


def jobs_of(client: TestClient) -> int:
    queue = runtime_of(client).analyses
    assert isinstance(queue, LocalJobs)
    return len(queue._jobs)


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


def test_a_finished_game_analysed_by_anyone_progress_result_and_cache(paced: TestClient) -> None:
    client = paced
    table = finished(client, "analysis-finished")
    game = table.game_id
    head = client.get(f"/games/{game}").json()["version"]

    response = client.post(f"/games/{game}/analysis", json={"budget": "steady"})
    assert response.status_code == 202, response.text
    job = response.json()
    assert response.headers["location"] == job["url"] == f"/games/{game}/analysis/{job['job_id']}"
    assert job["status"] in ("queued", "running") and job["result"] is None
    assert (job["game_id"], job["version"], job["viewer"], job["budget"]) == (game, head, None, "steady")
    assert job["engine"] == PACED.version and job["edition"] and job["rules"]

    under_way = poll(client, job["url"], ("running",))
    wait_until(lambda: 0 < client.get(job["url"]).json()["progress"]["done"] < head, 30, "progress")
    assert under_way["progress"]["total"] in (None, head)
    done = poll(client, job["url"], ("finished",))
    assert done["progress"] == {"done": head, "total": head}
    assert done["result"]["decisions"] == head and done["result"]["last_event"] == "GameEnded"
    assert done["result"]["viewer"] is None

    again = client.post(f"/games/{game}/analysis", json={"budget": "steady"})  # the cache
    assert again.status_code == 200 and again.json()["job_id"] == job["job_id"]
    assert again.json()["result"] == done["result"]
    assert client.get(f"/games/{game}/analysis", params={"budget": "steady"}).json() == done
    problem(client.get(f"/games/{game}/analysis", params={"budget": "quick"}), 404, "analysis-not-found")

    # As one seat could have seen it, and with the default budget (the engine's first level).
    as_seat = client.post(f"/games/{game}/analysis", json={"viewer": 1}).json()
    assert as_seat["viewer"] == 1 and as_seat["budget"] == PACED.budgets[0]
    assert poll(client, as_seat["url"], ("finished",))["result"]["viewer"] == 1


def test_a_running_game_only_from_the_seats_own_view(paced: TestClient) -> None:
    client = paced
    table = running(client, "analysis-running")
    game = table.game_id
    other = running(client, "analysis-other")
    before = jobs_of(client)
    version = client.get(f"/games/{game}").json()["version"]

    problem(client.post(f"/games/{game}/analysis"), 401, "token-required")
    problem(client.post(f"/games/{game}/analysis", json={"viewer": 0}), 401, "token-required")
    problem(
        client.post(f"/games/{game}/analysis", json={"viewer": 1}, headers=table.auth(0)),
        403,
        "not-your-view",
    )
    problem(client.post(f"/games/{game}/analysis", headers=other.auth(0)), 403, "not-a-seat-of-this-game")
    bad = {"Authorization": "Bearer gg_" + "x" * 43}
    problem(client.post(f"/games/{game}/analysis", headers=bad), 401, "invalid-token")
    problem(client.get(f"/games/{game}/analysis"), 401, "token-required")
    assert jobs_of(client) == before  # nothing was queued
    assert client.get(f"/games/{game}").json()["version"] == version

    response = client.post(f"/games/{game}/analysis", json={"budget": "steady"}, headers=table.auth(0))
    assert response.status_code == 202, response.text
    job = response.json()
    assert (job["viewer"], job["version"]) == (0, version)
    # Seat 0's view: not for a spectator, nor for seat 1, until the game ends.
    problem(client.get(job["url"]), 401, "token-required")
    problem(client.get(job["url"], headers=table.auth(1)), 403, "not-your-analysis")
    problem(client.delete(job["url"], headers=table.auth(1)), 403, "not-your-analysis")
    done = poll(client, job["url"], ("finished",), table.auth(0))
    assert done["result"]["viewer"] == 0 and done["result"]["decisions"] == version
    assert (
        client.get(f"/games/{game}/analysis", params={"budget": "steady"}, headers=table.auth(0)).json()
        == done
    )
    # Seat 1 asking for its own view gets a job of its own.
    mine = client.post(f"/games/{game}/analysis", json={"viewer": 1}, headers=table.auth(1)).json()
    assert mine["viewer"] == 1 and mine["job_id"] != job["job_id"]


def test_bad_requests_are_refused_and_write_nothing(paced: TestClient) -> None:
    client = paced
    table = finished(client, "analysis-bad", players=3)
    game = table.game_id
    before = jobs_of(client)

    problem(client.post(f"/games/{UNKNOWN}/analysis"), 404, "game-not-found")
    body = problem(client.post(f"/games/{game}/analysis", json={"budget": "ultra"}), 422, "unknown-budget")
    assert body["budgets"] == list(PACED.budgets)
    problem(client.get(f"/games/{game}/analysis", params={"budget": "ultra"}), 422, "unknown-budget")
    problem(client.post(f"/games/{game}/analysis", json={"viewer": 3}), 422, "bad-seat")
    problem(client.post(f"/games/{game}/analysis", json={"viewer": 9}), 422, "invalid-request")
    problem(
        client.post(f"/games/{game}/analysis", json={"budget": "quick", "depth": 3}), 422, "invalid-request"
    )
    malformed = client.post(
        f"/games/{game}/analysis", content=b"{budget", headers={"content-type": "application/json"}
    )
    problem(malformed, 400, "malformed-json")
    problem(client.get(f"/games/{game}/analysis/no-such-job"), 404, "analysis-not-found")
    problem(client.delete(f"/games/{game}/analysis/no-such-job"), 404, "analysis-not-found")
    assert jobs_of(client) == before

    # A job is found under its own game only.
    job = client.post(f"/games/{game}/analysis").json()
    elsewhere = finished(client, "analysis-bad-2")
    problem(client.get(f"/games/{elsewhere.game_id}/analysis/{job['job_id']}"), 404, "analysis-not-found")


def test_delete_cancels_and_a_new_post_starts_again(paced: TestClient) -> None:
    client = paced
    game = finished(client, "analysis-cancel").game_id
    job = client.post(f"/games/{game}/analysis", json={"budget": "slow"}).json()
    wait_until(lambda: client.get(job["url"]).json()["progress"]["done"] > 0, 30, "the job to start")
    response = client.delete(job["url"])
    assert response.status_code == 200 and response.json()["status"] in ("cancelling", "cancelled")
    ended = poll(client, job["url"], ("cancelled",))
    assert ended["result"] is None and ended["progress"]["done"] < ended["progress"]["total"]

    restarted = client.post(f"/games/{game}/analysis", json={"budget": "slow"})
    assert restarted.status_code == 202 and restarted.json()["job_id"] != job["job_id"]
    client.delete(restarted.json()["url"])
    quick = client.post(f"/games/{game}/analysis", json={"budget": "quick"}).json()
    finished_job = poll(client, quick["url"], ("finished",))
    assert client.delete(quick["url"]).json() == finished_job  # a finished job stays as it is


def test_real_analysis_of_a_running_game_shows_nothing_hidden(client: TestClient) -> None:
    """domain.analysis itself, for seat 0 of a running game: the job, its result and the refusals carry
    no hidden card and not the deck's order."""
    table = running(client, "analysis-hidden")
    game = table.game_id
    runtime = runtime_of(client)
    state, _ = runtime.store.current(game)
    hidden, deck = hidden_ids(runtime, game), state.deck
    job = client.post(f"/games/{game}/analysis", json={"budget": "fast"}, headers=table.auth(0)).json()
    done = poll(client, job["url"], ("finished",), table.auth(0))
    result = done["result"]
    assert result["viewer"] == 0 and not result["finished"] and result["decisions"]
    assert all(d["version"] <= job["version"] for d in result["decisions"])
    bodies = [
        client.get(job["url"], headers=table.auth(0)).text,
        client.get(job["url"], headers=table.auth(1)).text,
        client.get(job["url"]).text,
        client.post(f"/games/{game}/analysis", json={"viewer": 1}, headers=table.auth(0)).text,
    ]
    for body in bodies:
        assert not leaks(body, hidden, deck)


@pytest.mark.slow
def test_on_redis_with_a_galileo_worker_process(settings: Settings, redis_url: str) -> None:
    """The compose shape: the API queues on Redis, a `galileo worker` process runs the real engine."""
    import redis as redis_client
    from rq import Queue

    connection = redis_client.Redis.from_url(redis_url)
    stale = list(connection.scan_iter(f"{PREFIX}:*"))
    if stale:
        connection.delete(*stale)
    Queue(QUEUE, connection=connection).empty()
    connection.close()
    with TestClient(create_app(replace(settings, redis_url=redis_url))) as client:
        game = finished(client, "analysis-redis").game_id
        job = client.post(f"/games/{game}/analysis", json={"budget": "fast"}).json()
        assert job["status"] == "queued"
        env = {**os.environ, "GALILEO_DATABASE_URL": settings.database_url, "REDIS_URL": redis_url}
        worker = subprocess.run(
            [str(Path(sys.executable).with_name("galileo")), "worker", "--burst"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert worker.returncode == 0, worker.stderr[-2000:]
        done = client.get(job["url"]).json()
        assert done["status"] == "finished", done
        result = done["result"]
        head = client.get(f"/games/{game}").json()["version"]
        assert result["finished"] and result["viewer"] is None and result["budget"]["label"] == "fast"
        versions = [d["version"] for d in result["decisions"]]
        assert versions == sorted(versions) and versions[-1] < head
        assert {d["seat"] for d in result["decisions"]} == {0, 1}
        assert len(result["summary"]) == 2
        again = client.post(f"/games/{game}/analysis", json={"budget": "fast"})
        assert again.status_code == 200 and again.json()["result"] == result


def test_analysis_requests_have_a_rate_of_their_own(settings: Settings) -> None:
    rates = {**settings.rates, "analysis": Rate(60, 2)}
    with TestClient(create_app(replace(settings, rates=rates), analyser=PACED)) as client:
        game = finished(client, "analysis-rate").game_id
        for budget in ("quick", "steady"):
            assert client.post(f"/games/{game}/analysis", json={"budget": budget}).status_code in (200, 202)
        refused = problem(
            client.post(f"/games/{game}/analysis", json={"budget": "slow"}), 429, "rate-limited"
        )
        assert refused["retry_after"] >= 1
        assert client.get(f"/games/{game}/analysis", params={"budget": "quick"}).status_code == 200  # reads


def test_the_replay_page_offers_the_engines_budgets() -> None:
    from replays.jobs import engine_analyser

    page = (ROOT / "api" / "static" / "replay.html").read_text()
    offered = re.findall(r'<option value="([a-z]+)"', page.split('id="budget"')[1].split("</select>")[0])
    assert sorted(offered) == sorted(engine_analyser().budgets)


def test_an_unreachable_queue_is_503_and_play_goes_on(settings: Settings) -> None:
    """Redis down (nothing listens on port 1): asking for an analysis is 503 `analysis-unavailable` with
    Retry-After; the game itself is served from the store as ever."""
    down = replace(settings, redis_url="redis://127.0.0.1:1/0", redis_timeout_seconds=0.2)
    with TestClient(create_app(down, analyser=PACED)) as client:
        table = create(client, 2, "analysis-down", bots={1: "greedy"})
        game = table.game_id
        for response in (
            client.post(f"/games/{game}/analysis", headers=table.auth(0)),
            client.get(f"/games/{game}/analysis", headers=table.auth(0)),
            client.get(f"/games/{game}/analysis/some-job"),
        ):
            body = problem(response, 503, "analysis-unavailable")
            assert response.headers["retry-after"] == str(body["retry_after"])
        assert client.get(f"/games/{game}", headers=table.auth(0)).status_code == 200
