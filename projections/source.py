"""What the projections read: the game store's notification log, decoded to engine events.

A `Fact` is one stored event as a read model sees it: its game, its number in the game (the version),
the engine event (through the store's own mapper and `event_from_dict`) and its audit metadata (who
caused it, when, which command). Read models never reach into aggregates (design.md, "projections/").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from domain import event_from_dict, event_to_dict
from domain.events import Event
from domain.vocabulary import upcast
from replays.store import TOPIC_PREFIX, GameStore, store_env
from replays.store import open_store as open_game_store

APP = GameStore.name  # the tracking key of every view: the position in the store's notification log

# Seats in the metadata: an event caused by a seat's command names the seat as its `actor`, and since
# this version whether a person or a bot played it (`seat_kind`). Before that, the two bot drivers of this
# code base named their commands recognisably (the fallback for those events): the API's bot runner
# `bot:<version>` (api/bots.py) and the play-outs of `galileo selfplay --store` and fork play-outs
# `<game UUID>:<version>` (replays/playout.py).
BOT_COMMAND_ID = re.compile(r"bot:.*|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\d+")
BOT, HUMAN = "bot", "human"


class Fact:
    """One stored event of one game, as read from the notification log. The engine event is decoded
    (`event_from_dict`) on first use: most views look only at a few event types."""

    __slots__ = ("_event", "game_id", "meta", "payload", "stored_at", "version")

    def __init__(
        self,
        game_id: str,
        version: int,
        payload: Mapping[str, Any],
        meta: Mapping[str, Any],
        event: Event | None = None,
        stored_at: str | None = None,
    ) -> None:
        self.game_id = game_id
        self.stored_at = stored_at  # when this store wrote it (differs from received_at in an import)
        self.version = version
        self.payload = upcast(payload, meta.get("engine_version"))  # in this build's shape (docs/events.md)
        self.meta = meta
        self._event = event

    @classmethod
    def of(cls, game_id: str, version: int, event: Event, meta: Mapping[str, Any] | None = None) -> Fact:
        """The fact of an engine event held in memory (tests, files, a game's own log)."""
        return cls(game_id, version, event_to_dict(event), meta or {}, event)

    @property
    def type(self) -> str:
        return str(self.payload["type"])

    @property
    def event(self) -> Event:
        if self._event is None:
            self._event = event_from_dict(self.payload)
        return self._event

    @property
    def received_at(self) -> str:
        return str(self.meta.get("received_at", ""))

    @property
    def seat_kind(self) -> tuple[int, str] | None:
        """(seat, BOT or HUMAN) when a seat's command caused this event, else None. The log records it
        (`meta.seat_kind`, written by the API and the play-outs); only events stored before it was
        recorded fall back on the command ID's pattern."""
        meta = self.meta
        actor = meta.get("actor")
        if meta.get("kind") != "command" or not isinstance(actor, int) or isinstance(actor, bool):
            return None
        recorded = meta.get("seat_kind")
        if recorded in (BOT, HUMAN):
            return actor, str(recorded)
        command_id = meta.get("command_id")
        is_bot = isinstance(command_id, str) and BOT_COMMAND_ID.fullmatch(command_id) is not None
        return actor, BOT if is_bot else HUMAN


def fact_of(stored: Any) -> Fact:
    """The fact of a stored event as the store's mapper gives it (`replays.store.Game.Event`)."""
    stamp = getattr(stored, "timestamp", None)
    return Fact(
        str(stored.originator_id),
        stored.originator_version,
        stored.payload,
        stored.metadata,
        stored_at=None if stamp is None else stamp.isoformat(),
    )


def topics(*names: str) -> tuple[str, ...]:
    """Stored topics of engine event types (`galileo:<EventName>`)."""
    return tuple(TOPIC_PREFIX + name for name in names)


def open_store(url: str) -> GameStore:
    """The store application the projections read (configured by its URL only, like the service; its
    tables created under the store's advisory lock on PostgreSQL, `replays.store.schema_lock`)."""
    return open_game_store(url)


def is_sqlite(url: str) -> bool:
    return urlsplit(url).scheme == "sqlite"


def view_env(url: str, name: str) -> dict[str, str]:
    """The eventsourcing environment of projection `name`'s view for the store at `url`.

    SQLite keeps one tracking table per file, so each view has a file of its own next to the store
    (`galileo.db` -> `galileo.lobby.db`). PostgreSQL keeps the views in the store's database and schema
    (`<name>_tracking`, `<name>_games`)."""
    env = store_env(url)
    env.pop("AGGREGATE_CACHE_MAXSIZE", None)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        path = env["SQLITE_DBNAME"]
        if path == ":memory:" or "mode=memory" in path:
            raise ValueError("the projections need a SQLite file (an in-memory store has no log to follow)")
        file = Path(unquote(path))
        env["SQLITE_DBNAME"] = str(file.with_name(f"{file.stem}.{name}{file.suffix or '.db'}"))
    else:
        env["POSTGRES_POOL_SIZE"] = "2"
        env["POSTGRES_MAX_OVERFLOW"] = "6"
        # A view's batch computes its rows between statements of one transaction; on a loaded machine those
        # pauses passed the library's 5 s idle-in-transaction default, and PostgreSQL closed the connection
        # mid-batch (seen in `make flaky-check` at load 11 on 2 cores). A batch is bounded, so 60 s is ample.
        env["POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT"] = "60"
    return env
