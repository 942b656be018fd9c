"""The state of a stored game at a version, read-only and without the aggregate (`Games.state`).

Rebuilding the `Game` aggregate at a version (`GameStore.load(game, version)`) turns every row into the
library's event object, expands its scheme-2 audit metadata (docs/audit.md, "Stored form"), keeps the
command-ID index and the table facts, and decodes the whole snapshot with the library's transcoder. When
only the engine state is asked for, none of that is needed: `state_at` reads the same rows through the
recorders' public `select_events` (the newest snapshot at or below the version, then the events after
it), decodes each row's JSON once, and evolves the engine events from the snapshot's state.

It gives exactly the state the aggregate would hold (tests/replays/test_rebuild.py compares the two at
every version of games of both audit schemes, forks, Luna and solo games, and games stored by older
releases). What it does not decide itself it leaves to the aggregate: `state_at` returns None when the
rows are not `version` consecutive events of one game (a version past the head, a game that does not
exist), when a row is not in a form it knows, or when an event is refused (`event_from_dict`, which
upcasts an older shape as the aggregate does); the caller then rebuilds the aggregate, which raises the
error it always raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson

from domain import GameState, event_from_dict, evolve, load_state
from replays.compact import HEAD_KEYS, OWN_STORED, REQUIRED
from replays.store import TOPIC_PREFIX, unpack

if TYPE_CHECKING:
    from replays.store import GameStore

STATE_TAG = "galileo_state"  # the snapshot's state transcoding (replays.store.GameStateAsDict.name)
GAME_TOPIC = "galileo:Game"  # the snapshot's aggregate topic (replays.store.Game.TOPIC)
HEAD_REQUIRED = frozenset(REQUIRED)  # a scheme-2 head's stored keys (replays.compact)
HEAD_STORED = frozenset(HEAD_KEYS.values()) | OWN_STORED
LATER_STORED = frozenset({"b"}) | OWN_STORED  # a later event of a batch


class NotHere(Exception):
    """A row the fast path leaves to the aggregate (it is read there, and refused there if it is bad)."""


def state_at(store: GameStore, game_id: UUID, version: int) -> GameState | None:
    """The state of game `game_id` after `version` (>= 1) events, or None: then rebuild the aggregate."""
    snapshots = store.snapshots
    after = 0
    state: GameState | None = None
    snapshot_rows = (
        snapshots.recorder.select_events(game_id, lte=version, desc=True, limit=1) if snapshots else []
    )
    if snapshot_rows:
        snapshot = snapshot_rows[0]
        after = snapshot.originator_version
    rows = store.recorder.select_events(game_id, gt=after, lte=version)
    if after + len(rows) != version:  # past the head, a gap, or no such game: the aggregate says which
        return None
    try:
        if snapshot_rows:
            state = _snapshot_state(orjson.loads(unpack(snapshot.state)))
        written_by = _Heads(store, game_id).written_by
        loads = orjson.loads
        expected = after
        for row in rows:
            expected += 1
            if row.originator_version != expected:
                return None
            data = loads(unpack(row.state))
            payload = data["payload"]
            name = payload["type"]
            # The aggregate is created by the stored GameStarted (the first event) and absorbs every
            # other event by its payload under the topic of its type.
            if row.topic != TOPIC_PREFIX + name or (expected == 1) != (name == "GameStarted"):
                return None
            state = evolve(state, event_from_dict(payload, written_by(data["metadata"], expected)))
    except Exception:  # any row the fast path cannot read is the aggregate's to judge
        return None
    return state


def _snapshot_state(data: Any) -> GameState:
    """The engine state of a snapshot row's JSON (the aggregate's attributes; its `state` tagged)."""
    if type(data) is not dict or data.get("topic") != GAME_TOPIC:
        raise NotHere("not a snapshot of a game")
    attributes = data["state"]
    tagged = attributes["state"] if type(attributes) is dict else None
    if type(tagged) is not dict or len(tagged) != 2 or tagged.get("_type_") != STATE_TAG:
        raise NotHere("a snapshot without its tagged state")
    if "class_version" in attributes:
        raise NotHere("a snapshot of another aggregate class version")
    return load_state(tagged["_data_"])


class _Heads:
    """The engine version that wrote each event (its audit metadata's `engine_version`): in scheme 1 in
    every event, in scheme 2 in the first event of its batch (a batch begun before the snapshot is
    looked up through the store's mapper, as the aggregate does). The stored form is checked as
    expanding it checks it (`replays.compact.head_fields`, `batch_of`): a row that fails is the
    aggregate's to refuse."""

    def __init__(self, store: GameStore, game_id: UUID) -> None:
        self.store = store
        self.game_id = game_id
        self.batch = 0
        self.engine: Any = None

    def written_by(self, meta: Any, version: int) -> Any:
        if type(meta) is not dict:
            raise NotHere("metadata is not an object")
        if "s" in meta:  # scheme 2, the first event of its batch
            keys = meta.keys()
            if "b" in meta or not (keys >= HEAD_REQUIRED and keys <= HEAD_STORED):
                raise NotHere("not a head's stored form")
            self.batch, self.engine = version, meta["e"]
            return self.engine
        if "b" in meta:  # scheme 2, a later event of its batch
            batch = meta["b"]
            if type(batch) is not int or not 1 <= batch < version or not meta.keys() <= LATER_STORED:
                raise NotHere("not a later event's stored form")
            if batch != self.batch:
                head = self.store.mapper._head(self.game_id, batch)
                self.batch, self.engine = batch, head["engine_version"]
            return self.engine
        if "hash" not in meta:  # scheme 1 keeps every field in every event
            raise NotHere("scheme-1 metadata without its hash")
        return meta.get("engine_version")
