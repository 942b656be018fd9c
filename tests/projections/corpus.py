"""A corpus of complete random-bot games with realistic audit metadata, written to a store quickly.

Each game is played in memory (`legal_moves` / `play_through`, ~30 ms a game) with one metadata cause
per decision, exactly as `Games.submit` would record it: the seat as actor and a command ID in the
convention of whoever drives the seat (the API's bot runner `bot:<version>`, a play-out
`<game id>:<version>`, or a person's client). Its events are then hash-linked and inserted in one go
through the store's own mapper and recorder (like an import: no snapshots), interleaved across games in
the order of their receive times, so the notification log mixes games as a live service does.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from domain import Options, command_to_dict, event_to_dict, evolve, fork_events, legal_moves, start
from domain.bots import make_bot
from domain.engine import play_through
from domain.events import Event, GameEnded
from domain.selfplay import default_setup
from domain.state import GameState
from replays.audit import SYSTEM, Cause, chain, first_prev, scheme_of, setup_command
from replays.store import STORED_CLASSES, GameStore

BASE_TIME = datetime(2025, 3, 1, tzinfo=UTC)
API_BOT, PLAYOUT, PERSON = "api-bot", "playout", "person"


@dataclass
class Played:
    """One game of the corpus: its ID, how each seat was driven, and its events with metadata."""

    game_id: uuid.UUID
    players: int
    luna: bool
    drivers: tuple[str, ...]
    entries: list[tuple[Event, dict[str, Any]]] = field(default_factory=list)
    forked_from: uuid.UUID | None = None

    @property
    def events(self) -> list[Event]:
        return [e for e, _ in self.entries]

    @property
    def finished(self) -> bool:
        return isinstance(self.entries[-1][0], GameEnded)


def _cause(
    state: GameState, kind: str, actor: int | str, command: dict[str, Any], cid: str | None, at: datetime
) -> Cause:
    return Cause(
        kind=kind,
        actor=actor,
        command=command,
        command_id=cid,
        received_at=at.isoformat(),
        catalog_edition=state.catalog_edition,
        catalog_hash=state.catalog_hash,
        options=state.options.to_json(),
    )


def _command_id(driver: str, game_id: uuid.UUID, version: int) -> str:
    if driver == API_BOT:
        return f"bot:{version}"
    if driver == PLAYOUT:
        return f"{game_id}:{version}"
    return f"web-{uuid.uuid4().hex[:12]}"


def drive(played: Played, state: GameState, at: datetime, seed: str, limit: int | None = None) -> None:
    """Play `played` on from `state` with random bots (each decision one second later)."""
    bots = [make_bot("random", f"{seed}:{i}") for i in range(played.players)]
    decisions = 0
    while not state.finished and (limit is None or decisions < limit):
        move = bots[state.turn.seat].choose(state, legal_moves(state))
        at += timedelta(seconds=1)
        version = len(played.entries) + 1
        cid = _command_id(played.drivers[move.seat], played.game_id, version)
        cause = _cause(state, "command", move.seat, command_to_dict(move), cid, at)
        state, events = play_through(state, move)
        played.entries += [(e, cause.metadata(version)) for e in events]
        decisions += 1


def drivers_of(index: int, players: int) -> tuple[str, ...]:
    """Every fifth game is people only, every fifth one person against bots, the rest bots."""
    bot = API_BOT if index % 2 else PLAYOUT
    if index % 5 == 0:
        return (PERSON,) * players
    if index % 5 == 1:
        return (PERSON, *(bot,) * (players - 1))
    return (bot,) * players


def new_game(index: int, limit: int | None = None) -> Played:
    """Game `index` of the corpus: 2 to 4 players, Luna in every fourth game."""
    players = 2 + index % 3
    luna = index % 4 == 3
    setup = default_setup(players, f"corpus-{index}", Options(luna=luna))
    played = Played(uuid.uuid4(), players, luna, drivers_of(index, players))
    at = BASE_TIME + timedelta(seconds=40 * index)
    state, events = start(setup)
    cause = _cause(state, "setup", SYSTEM, setup_command(setup), None, at)
    played.entries = [(e, cause.metadata(1)) for e in events]
    drive(played, state, at, f"corpus-{index}", limit)
    return played


def fork(source: Played, at_version: int, index: int) -> Played:
    """A fork of a finished corpus game at `at_version`, played out (like `Games.fork` + play-out)."""
    events = fork_events(source.events, at_version, str(source.game_id), None)
    played = Played(uuid.uuid4(), source.players, source.luna, source.drivers, forked_from=source.game_id)
    at = BASE_TIME + timedelta(days=1, seconds=40 * index)
    state = None
    for i, event in enumerate(events):
        if i < at_version:
            meta = source.entries[i][1]
        else:
            assert state is not None
            request = {"type": "Fork", "source_game": str(source.game_id), "at": at_version}
            meta = _cause(state, "fork", SYSTEM, request, None, at).metadata(at_version + 1)
        played.entries.append((event, meta))
        state = evolve(state, event)
    assert state is not None
    drive(played, state, at, f"fork-{index}")
    return played


def corpus(count: int, forks: int = 3) -> list[Played]:
    """`count` complete games, then `forks` played-out forks of the first games."""
    games = [new_game(i) for i in range(count)]
    games += [fork(games[k], len(games[k].entries) // 2, count + k) for k in range(forks)]
    return games


def stored_events(store: GameStore, games: Iterable[Played]) -> list[Any]:
    """The stored events of `games` (hash-linked, mapped), interleaved in the order they were received."""
    rows: list[tuple[str, int, Any]] = []
    for game_index, played in enumerate(games):
        payloads = [event_to_dict(event) for event, _ in played.entries]
        metas = [meta for _, meta in played.entries]
        chained = chain(payloads, metas, 0, first_prev(scheme_of(metas[0])))
        for version, ((event, meta), payload, linked) in enumerate(
            zip(played.entries, payloads, chained, strict=True), start=1
        ):
            kw: dict[str, Any] = {
                "originator_id": played.game_id,
                "originator_version": version,
                "timestamp": datetime.fromisoformat(meta["received_at"]),
                "payload": payload,
                "metadata": linked,
            }
            if version == 1:
                kw["originator_topic"] = "galileo:Game"
            stored = store.mapper.to_stored_event(STORED_CLASSES[event.type](**kw))
            rows.append((meta["received_at"], game_index, stored))
    rows.sort(key=lambda r: (r[0], r[1]))  # stable: each game keeps its order
    return [r[2] for r in rows]


def write(store: GameStore, games: Sequence[Played], chunk: int = 5000) -> None:
    """Insert the games' events into `store`, a chunk per transaction."""
    events = stored_events(store, games)
    for k in range(0, len(events), chunk):
        store.recorder.insert_events(events[k : k + chunk])
