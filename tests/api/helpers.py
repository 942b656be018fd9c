"""Helpers for the API tests: games over HTTP, SSE parsing, servers on free ports."""

from __future__ import annotations

import json
import queue
import random
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from api.runtime import Runtime
from domain import legal_moves
from replays.errors import VersionConflict


@dataclass
class Table:
    """A game and its seat tokens (None for a bot seat)."""

    game_id: str
    tokens: list[str | None]
    created: dict[str, Any] = field(default_factory=dict)

    def auth(self, seat: int) -> dict[str, str]:
        token = self.tokens[seat]
        assert token is not None, f"seat {seat} is a bot"
        return {"Authorization": f"Bearer {token}"}

    @property
    def humans(self) -> list[int]:
        return [i for i, t in enumerate(self.tokens) if t is not None]


NDJSON = {"Content-Type": "application/x-ndjson"}  # an export file's type, as POST /games/import needs


def seats_spec(players: int, bots: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    bots = bots or {}
    return [{"bot": bots[i]} if i in bots else {"name": f"P{i + 1}"} for i in range(players)]


def create(client: httpx.Client, players: int, seed: str, bots: Mapping[int, str] | None = None) -> Table:
    response = client.post("/games", json={"seats": seats_spec(players, bots), "seed": seed})
    assert response.status_code == 201, response.text
    body = response.json()
    return Table(body["game_id"], [s["token"] for s in body["seats"]], body)


def play_turns(
    client: httpx.Client,
    table: Table,
    rng: random.Random,
    max_decisions: int | None = None,
    timeout: float = 60.0,
) -> int:
    """Play as every human seat of `table` by reading /moves and posting one back, until the game ends
    (or `max_decisions` human decisions). Waits while a bot is to act. Returns the decisions made."""
    made = 0
    prefix = f"{rng.random():.12f}"  # command IDs of one call, unique across calls
    deadline = time.monotonic() + timeout
    while max_decisions is None or made < max_decisions:
        assert time.monotonic() < deadline, "the game did not progress in time"
        seat = table.humans[0]
        listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
        to_act = listing["to_act"]
        if to_act is None:
            return made
        if table.tokens[to_act] is None:  # a bot's turn: the server plays it
            time.sleep(0.005)
            continue
        if to_act != seat:
            listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(to_act)).json()
            if listing["to_act"] != to_act:
                continue
        assert listing["moves"], "the seat to act has no legal move"
        move = rng.choice(listing["moves"])
        response = client.post(
            f"/games/{table.game_id}/commands",
            headers=table.auth(to_act),
            json={"command": move, "expected_version": listing["version"], "command_id": f"{prefix}-{made}"},
        )
        assert response.status_code == 200, response.text
        made += 1
    return made


def finish_in_process(
    client: Any, runtime: Runtime, table: Table, rng: random.Random, timeout: float = 60.0
) -> int:
    """Play the game of `table` to its end without HTTP: each person's move a random legal one, submitted
    through the API's store as that seat (as `POST /commands` would); a bot seat's turn is left to the
    server's bot runner, woken by reading the game. For tests that only need the end of a game (a whole
    game over HTTP takes several times as long). Returns the decisions made."""
    made = 0
    prefix = f"{rng.random():.12f}"
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        state, version = runtime.store.current(table.game_id)
        if state.finished:
            return made
        seat = state.turn.seat
        if table.tokens[seat] is None:  # a bot's turn: wake the runner and wait for its move
            client.get(f"/games/{table.game_id}")
            moved = lambda seen=version: runtime.store.current(table.game_id)[1] != seen  # noqa: E731
            wait_until(moved, 10, "the bot's move", interval=0.005)
            continue
        move = rng.choice(legal_moves(state))
        try:
            runtime.store.submit(table.game_id, move, version, f"{prefix}-{made}", seat, "human")
        except VersionConflict:
            continue
        made += 1


def iter_sse(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """SSE messages as they arrive: {"id", "event", "data"} (comments skipped)."""
    message: dict[str, Any] = {}
    for line in lines:
        if line == "":
            if "data" in message:
                yield message
            message = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            message["data"] = json.loads(value)
        elif name in ("id", "event"):
            message[name] = value


def parse_sse(
    lines: Iterable[str], count: int | None = None, stop_on_end: bool = True
) -> list[dict[str, Any]]:
    """Read SSE messages until `count` event messages, or the `end` event."""
    out: list[dict[str, Any]] = []
    for message in iter_sse(lines):
        out.append(message)
        if stop_on_end and message.get("event") == "end":
            break
        if count is not None and len([m for m in out if m.get("event") != "end"]) >= count:
            break
    return out


class StreamReader:
    """Reads a game's SSE stream in a thread and queues each message."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.messages: queue.Queue[dict] = queue.Queue()
        self._url = url
        self._headers = headers or {}
        self._stop = threading.Event()
        self.status: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10.0, read=30.0)) as http,
                http.stream("GET", self._url, headers=self._headers) as response,
            ):
                self.status = response.status_code
                for message in iter_sse(_until(response.iter_lines(), self._stop.is_set)):
                    self.messages.put(message)
                    if message.get("event") == "end":
                        break
        except httpx.TransportError:
            if not self._stop.is_set():
                raise
            # Stopped while waiting for a message that never came: the server closed the stream.
        self.messages.put({"closed": True})

    def start(self) -> StreamReader:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def take(self, count: int, timeout: float = 10.0) -> list[dict]:
        return [self.messages.get(timeout=timeout) for _ in range(count)]


def _until(lines, stop: Callable[[], bool]):  # type: ignore[no-untyped-def]
    for line in lines:
        yield line
        if stop() and line == "":
            return


def runtime_of(client: Any) -> Runtime:
    runtime: Runtime = client.app.state.runtime
    return runtime


def hidden_ids(runtime: Runtime, game_id: str) -> list[str]:
    """The cards nobody may see yet, the undealt deck first in draw order."""
    state, _ = runtime.store.current(game_id)
    return [*state.deck, *state.reserve, *state.box]


def leaks(body: str, hidden: Sequence[str], deck: Sequence[str], order_only: bool = False) -> list[str]:
    """What of the hidden deal appears in a response body: any hidden card ID, or the deck order.

    `order_only` for a fork's own bodies: a fork re-deals the unseen cards, so it may show any of them
    once its own (new) deal brings them out; only the source's order must not appear."""
    found = [] if order_only else [card for card in hidden if card in body]
    ordered = ",".join(json.dumps(c) for c in deck[:3])
    if len(deck) >= 2 and (ordered in body or ordered.replace(",", ", ") in body):
        found.append("deck order " + ordered)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(predicate: Any, timeout: float, what: str, interval: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
