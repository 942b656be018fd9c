"""Throughput of one server process: move cycles per second with 10 concurrent games, and the server's
CPU per cycle (a cycle is what the play page does per move: the POST, whose answer holds the board and
moves after it, `include=board`, and, when the turn has passed to another seat, that seat's board with its
moves, `include=moves`; until issue 28 the page read the board and the moves after every POST, in two
requests).

The floor is the bare FastAPI + eventsourcing append route (`bench.sse_floor`, without Redis) driven
the same way, one POST per cycle. Both servers are separate processes (`galileo serve`, uvicorn), so
their CPU time is read from /proc apart from the clients'.
"""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx

CLIENTS = 10


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drive(url: str, seconds: float, cycle: Any, setup: Any) -> tuple[int, float]:
    """Run `cycle(client, state)` in CLIENTS threads for `seconds`: (cycles, wall seconds)."""
    counts = [0] * CLIENTS
    stop = threading.Event()
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            with httpx.Client(base_url=url, timeout=30) as client:
                state = setup(client, i)
                while not stop.is_set():
                    state = cycle(client, state, i)
                    counts[i] += 1
        except BaseException as exc:  # reported below
            errors.append(exc)
            stop.set()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    time.sleep(0.5)  # warm up: games created
    start_counts, t0 = sum(counts), time.perf_counter()
    time.sleep(seconds)
    done, wall = sum(counts) - start_counts, time.perf_counter() - t0
    stop.set()
    for t in threads:
        t.join(30)
    if errors:
        raise errors[0]
    return done, wall


def _new_game(client: httpx.Client, i: int) -> dict[str, Any]:
    seats = [{"name": "A"}, {"name": "B"}]
    created = client.post("/games", json={"seats": seats, "seed": f"tp-{i}-{time.time_ns()}"}).json()
    return {"game": created["game_id"], "tokens": [s["token"] for s in created["seats"]], "n": 0}


def _move_cycle(client: httpx.Client, state: dict[str, Any], i: int) -> dict[str, Any]:
    """One move as the play page makes it (api/static/play.js): the POST with `include=board`, whose
    answer holds the board and moves after it, drawn at once. The page reads its board with its moves
    (`GET /games/{id}?include=moves`) only when the answer is not its turn: when the turn has passed on,
    the new seat's page reads its own (the page would be told by its stream)."""
    game, tokens = state["game"], state["tokens"]
    seat = state.get("seat", 0)
    view = state.pop("view", None)
    if view is None or view["to_act"] != seat:
        if view is not None:
            seat = state["seat"] = view["to_act"]
        if seat is None:
            return _new_game(client, i)
        view = client.get(
            f"/games/{game}", params={"include": "moves"}, headers={"Authorization": f"Bearer {tokens[seat]}"}
        ).json()
        if view["to_act"] != seat:  # (the first read of a game: seat 0's page, another seat to act)
            state["view"] = view
            return _move_cycle(client, state, i)
    listing = view["moves"]
    state["n"] += 1
    body = {
        "command": random.Random(state["n"]).choice(listing["moves"]),
        "expected_version": listing["version"],
        "command_id": f"tp-{i}-{state['n']}",
    }
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    response = client.post(f"/games/{game}/commands", params={"include": "board"}, headers=headers, json=body)
    if response.status_code != 200:
        raise RuntimeError(f"move refused: {response.status_code} {response.text[:300]}")
    state["view"] = response.json()["board"]
    return state


def service_rate(database_url: str, workdir: Path, seconds: float) -> dict[str, float]:
    from tests.api.servers import ServeProcess

    # No per-client rate limits: the 10 clients share one address.
    env = {"GALILEO_DATABASE_URL": database_url, "GALILEO_BOTS": "0"}
    kinds = ("create", "import", "fork", "command", "read")
    env.update({f"GALILEO_RATE_{kind.upper()}": "off" for kind in kinds})
    with ServeProcess(workdir, env, "throughput") as server:
        assert server.process is not None
        pid = server.process.pid
        cpu0 = cpu_seconds(pid)
        cycles, wall = _drive(server.url, seconds, _move_cycle, _new_game)
        cpu = cpu_seconds(pid) - cpu0
    return {"rate": cycles / wall, "cpu_ms_per_cycle": 1000 * cpu / max(cycles, 1)}


def bare_rate(database_url: str, workdir: Path, seconds: float) -> dict[str, float]:
    from bench.sse_floor import BareProcess

    def setup(client: httpx.Client, i: int) -> str:
        tally: str = client.post("/tallies").json()["id"]
        return tally

    def cycle(client: httpx.Client, tally: str, i: int) -> str:
        client.post(f"/tallies/{tally}/tick").raise_for_status()
        return tally

    with BareProcess(database_url, None, workdir / "bare-throughput.log") as server:
        assert server.process is not None
        cpu0 = cpu_seconds(server.process.pid)
        cycles, wall = _drive(server.url, seconds, cycle, setup)
        cpu = cpu_seconds(server.process.pid) - cpu0
    return {"rate": cycles / wall, "cpu_ms_per_cycle": 1000 * cpu / max(cycles, 1)}
