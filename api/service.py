"""The one place the API calls the game service (`replays.service.Games`): adapter and error mapping.

Routes and the bot runner go through `Store` only, so a change in the service's signatures is a change
here. Everything here is blocking (SQLite or PostgreSQL I/O and the rules engine): callers run it in a
worker thread.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain import Command, EditionUnknown, EventDoesNotFit, GameState, Setup
from replays.errors import (
    CommandIdReused,
    ForkRefused,
    GameNotFound,
    ImportRejected,
    SeatMismatch,
    TableRefused,
    VersionConflict,
    VersionOutOfRange,
)
from replays.records import GameInfo, StoredEvent, SubmitResult
from replays.service import Games, RowsFor
from replays.store import Game, Rows
from replays.table import Build
from replays.verify import VerifyReport

__all__ = ["SERVICE_ERRORS", "GameInfo", "Store", "StoredEvent", "SubmitResult", "classify"]

SERVICE_ERRORS: tuple[type[Exception], ...] = (
    GameNotFound,
    VersionConflict,
    CommandIdReused,
    SeatMismatch,
    VersionOutOfRange,
    ForkRefused,
    ImportRejected,
    TableRefused,
    EditionUnknown,
    EventDoesNotFit,
)


def classify(error: Exception) -> tuple[int, str, dict[str, Any]]:
    """HTTP status, stable problem code and extra problem members of a service error."""
    if isinstance(error, GameNotFound):
        return 404, "game-not-found", {}
    if isinstance(error, VersionConflict):
        return 409, "version-conflict", {"current_version": error.current_version}
    if isinstance(error, CommandIdReused):
        return 409, "command-id-reused", {"command_id": error.command_id}
    if isinstance(error, SeatMismatch):
        return 403, "wrong-seat", {}
    if isinstance(error, VersionOutOfRange):
        return 404, "version-out-of-range", {"head": error.head}
    if isinstance(error, ForkRefused):
        return 422, "fork-refused", {}
    if isinstance(error, ImportRejected):
        return 422, "import-rejected", {"line": error.line}
    if isinstance(error, TableRefused):  # a service rule (ASYNC-n, docs/async.md) or a game rule
        return error.status, error.code, {"rule_id": error.rule}
    if isinstance(error, EditionUnknown):  # a game stored by a newer build (docs/editions.md)
        return 422, "unknown-edition", {"edition": error.edition}
    if isinstance(error, EventDoesNotFit):  # a stored log this build cannot apply: the server's data
        return 500, "event-does-not-fit", {"event": error.number, "event_type": error.event_type}
    return 500, "internal-error", {}


class Growth:
    """Bytes written to games since their creation, per game, until they are added to their makers'
    usage (`api.limits.flush_growth`; docs/operations.md, "Limits"): the store adds to it on each write
    (from any thread); the runtime flushes it every few seconds and before each creation is admitted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sizes: dict[str, int] = {}

    def add(self, game_id: str, size: int) -> None:
        if size > 0:
            with self._lock:
                self._sizes[game_id] = self._sizes.get(game_id, 0) + size

    def drain(self) -> dict[str, int]:
        with self._lock:
            sizes, self._sizes = self._sizes, {}
        return sizes

    def restore(self, sizes: Mapping[str, int]) -> None:
        for game_id, size in sizes.items():
            self.add(game_id, size)


class StoreClosed(RuntimeError):
    """A call that arrived while the process was stopping."""


class Store:
    """The game service as the API uses it. Closing waits for the calls in progress: a worker thread
    may outlive the request that started it (a cancelled stream, a bot move at shutdown), and closing a
    SQLite connection under a running query crashes the process."""

    def __init__(
        self,
        database_url: str,
        secret: Callable[[], str] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        # The secret seeds of new games (the router's, when no seed is chosen) and their salts: the
        # system's CSPRNG unless a test fixes them.
        self.secret: Callable[[], str] = secret or (lambda: secrets.token_hex(16))
        kwargs: dict[str, Any] = {"secret": self.secret}
        if clock is not None:
            kwargs["clock"] = clock
        self.games = Games(database_url, **kwargs)
        self.growth = Growth()  # bytes written per game since creation, for the makers' caps
        self._busy = 0  # calls in progress: closing waits for them (a worker thread may outlive its request)
        self._idle = threading.Condition()
        self._closed = False

    @contextmanager
    def _use(self) -> Iterator[None]:
        with self._idle:
            if self._closed:
                raise StoreClosed("the store is closed (the process is stopping)")
            self._busy += 1
        try:
            yield
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()

    def close(self, timeout: float = 10.0) -> None:
        """Close the store once the calls in progress have returned."""
        with self._idle:
            self._closed = True
            self._idle.wait_for(lambda: self._busy == 0, timeout)
        self.games.close()

    def create(self, setup: Setup, actor: int | str, rows: RowsFor) -> tuple[str, int]:
        with self._use():
            return self.games.create(setup, actor, rows)

    def submit(
        self,
        game_id: str,
        command: Command,
        expected_version: int,
        command_id: str,
        actor: int | str,
        seat_kind: str,
        received_at: datetime | None = None,
        check: Callable[[Game, datetime], None] | None = None,
    ) -> SubmitResult:
        with self._use():
            result = self.games.submit(
                game_id, command, expected_version, command_id, actor, seat_kind, received_at, check
            )
        self.growth.add(game_id, result.stored_bytes)
        return result

    def table(
        self,
        game_id: str,
        request: Mapping[str, Any],
        build: Build,
        command_id: str,
        actor: int | str,
        expected_version: int | None = None,
        rows: Callable[[int], Sequence[Rows]] | None = None,
    ) -> SubmitResult:
        """Record a table batch (replays.table): take-backs, resignations, clocks, host actions; `rows`:
        see `Games.table` (written in the transaction of its events)."""
        with self._use():
            result = self.games.table(game_id, request, build, command_id, actor, expected_version, rows)
        self.growth.add(game_id, result.stored_bytes)
        return result

    def game(self, game_id: str) -> Game:
        """The game aggregate now: its state, version and table facts (clock log, take-back request...)."""
        with self._use():
            try:
                return self.games.store.load(UUID(game_id))
            except (ValueError, AggregateNotFoundError):
                raise GameNotFound(game_id) from None

    def now(self) -> datetime:
        return self.games.now()

    def current(self, game_id: str) -> tuple[GameState, int]:
        """The game's state and version read together (one load, so they agree)."""
        with self._use():
            try:
                gid = UUID(game_id)
                game = self.games.store.load(gid)
            except (EditionUnknown, EventDoesNotFit):
                raise
            except (ValueError, AggregateNotFoundError):
                raise GameNotFound(game_id) from None
            assert game.state is not None
            return game.state, game.version

    def state_at(self, game_id: str, version: int) -> GameState:
        with self._use():
            state = self.games.state(game_id, version)
            if state is None:  # version 0: before the first event
                raise VersionOutOfRange(version, self.games.head(game_id))
            return state

    def events(self, game_id: str, after: int, limit: int | None) -> list[StoredEvent]:
        with self._use():
            return self.games.events(game_id, after=after, limit=limit)

    def fork(self, game_id: str, at_version: int, actor: int | str, rows: RowsFor) -> str:
        with self._use():
            return self.games.fork(game_id, at_version, actor, rows)

    def export(self, game_id: str, viewer: int | None) -> bytes:
        with self._use():
            return self.games.export(game_id, viewer)

    def import_(self, data: bytes, rows: RowsFor) -> str:
        with self._use():
            return self.games.import_(data, rows)

    def verify(self, game_id: str, edition: str | None = None) -> VerifyReport:
        with self._use():
            return self.games.verify(game_id, edition)

    def list_games(self) -> list[GameInfo]:
        with self._use():
            return self.games.list_games()

    def ping(self) -> None:
        """Raise when the store cannot be read."""
        with self._use():
            self.games.store.recorder.max_notification_id()
