"""Revocation reaches every replica at once (issue 26 item 8, docs/async.md ASYNC-9): two `galileo serve`
processes share a store (a SQLite file, PostgreSQL); the host re-issues a link on A and B refuses the old
token at once, while a client hammers B with it: no command of the old token is stored after the
re-issue."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.servers import ServeProcess

pytestmark = pytest.mark.timeout(120)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _hammer(b: httpx.Client, game_id: str, token: str, stop: threading.Event, seen: list[Any]) -> None:
    """Post seat 0's moves on B with `token` until stopped; records (status, version, code)."""
    n = 0
    while not stop.is_set():
        listing = b.get(f"/games/{game_id}/moves", headers=_bearer(token))
        if listing.status_code != 200:
            seen.append((listing.status_code, None, listing.json().get("code")))
            continue
        body = listing.json()
        if body["to_act"] != 0 or not body["moves"]:
            continue
        n += 1
        answer = b.post(
            f"/games/{game_id}/commands",
            headers=_bearer(token),
            json={"command": body["moves"][0], "expected_version": body["version"], "command_id": f"h{n}"},
        )
        version = answer.json().get("version") if answer.status_code == 200 else None
        seen.append((answer.status_code, version, answer.json().get("code")))


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_ASYNC_9_a_token_revoked_on_one_process_is_refused_by_another_at_once(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (
        f"sqlite:///{tmp_path}/shared.db" if backend == "sqlite" else request.getfixturevalue("postgres_url")
    )
    # The failed-token throttle is off: the hammer below retries the revoked token as fast as it can.
    env = {
        "GALILEO_DATABASE_URL": url,
        "GALILEO_BOTS": "0",
        "GALILEO_CLOCKS": "off",
        "GALILEO_RATE_BAD_TOKEN": "off",
        "GALILEO_RATE_READ": "off",  # the old token is hammered without pause: its refusals, not a rate
    }
    with (
        ServeProcess(tmp_path, env, "a") as a,
        ServeProcess(tmp_path, {**env, "GALILEO_PROJECTIONS": "off"}, "b") as b,
        httpx.Client(base_url=a.url, timeout=10) as on_a,
        httpx.Client(base_url=b.url, timeout=10) as on_b,
    ):
        seats = [{"name": "Ada", "character": "galileo"}, {"name": "Ben", "character": "kepler"}]
        created = on_a.post("/games", json={"seats": seats, "first_seat": 0}).json()
        game_id, host, ada = created["game_id"], created["host_token"], created["seats"][0]["token"]
        assert on_b.get(f"/games/{game_id}/moves", headers=_bearer(ada)).status_code == 200
        stop, seen = threading.Event(), []
        hammer = threading.Thread(target=_hammer, args=(on_b, game_id, ada, stop, seen), daemon=True)
        hammer.start()
        try:
            time.sleep(0.5)  # B is serving the token
            reissued = on_a.post(f"/games/{game_id}/host/seats/0/link", headers=_bearer(host))
            answered = time.monotonic()
            assert reissued.status_code == 200, reissued.text
            refused = on_b.get(f"/games/{game_id}/moves", headers=_bearer(ada))
            gap = time.monotonic() - answered
            time.sleep(0.5)
        finally:
            stop.set()
            hammer.join(10)
        assert refused.status_code == 401 and refused.json()["code"] == "link-reissued", refused.text
        assert gap < 1.0
        events = on_a.get(f"/games/{game_id}/events").json()["events"]
        at = next(e["version"] for e in events if e["type"] == "SeatLinkReissued")
        late = [e for e in events if e["version"] > at and e["actor"] == 0]
        assert late == [], f"commands of the revoked token stored after the re-issue: {late}"
        assert any(s[0] == 200 and s[1] is not None for s in seen), "the old token played before"
        first_refusal = next(i for i, s in enumerate(seen) if s[0] != 200)
        assert seen[first_refusal][:1] + seen[first_refusal][2:] == (401, "link-reissued")
        assert {(s[0], s[2]) for s in seen[first_refusal:]} == {(401, "link-reissued")}  # only refusals
        new = reissued.json()["token"]
        assert on_b.get(f"/games/{game_id}/moves", headers=_bearer(new)).json()["seat"] == 0
        assert on_b.get(f"/games/{game_id}/verify").json()["ok"] is True
