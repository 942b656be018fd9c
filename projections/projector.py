"""Running the materialised views: in-process (`galileo serve`, the API's start-up) or as the separate
`projector` process (`galileo projections run`); rebuilding one from event 1; reading them.

    projector = start(url)      # background threads; PostgreSQL: LISTEN/NOTIFY, SQLite: polling
    ...                         # woken after every save in this process
    projector.stop()

`GALILEO_PROJECTIONS=off` leaves the views to a separate projector process (compose.yaml's `projector`
service); anything else, or unset, runs them in-process.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment, get_topic

from projections.documents import Documents
from projections.lobby import LobbyProjection, LobbyView, PostgresLobbyTable, SQLiteLobbyTable
from projections.projection import GameProjection
from projections.runners import (
    ListeningRunner,
    PollingRunner,
    Progress,
    ProjectionSourceRecorder,
    catch_up,
    caught_up,
)
from projections.source import is_sqlite, open_store, view_env
from projections.stats import PostgresStatsTable, SQLiteStatsTable, StatsProjection, StatsView
from replays.service import database_url
from replays.store import on_save, schema_lock

ENV_SWITCH = "GALILEO_PROJECTIONS"


@dataclass(frozen=True, slots=True)
class Spec:
    """A materialised view: its projection and its table on each backend."""

    name: str
    projection: type[GameProjection[Any]]
    sqlite_table: type[Documents]
    postgres_table: type[Documents]
    description: str

    def table_class(self, url: str) -> type[Documents]:
        return self.sqlite_table if is_sqlite(url) else self.postgres_table


SPECS: dict[str, Spec] = {
    s.name: s
    for s in (
        Spec(
            "lobby", LobbyProjection, SQLiteLobbyTable, PostgresLobbyTable, "games, seats, whose turn, status"
        ),
        Spec("stats", StatsProjection, SQLiteStatsTable, PostgresStatsTable, "statistics across games"),
    )
}


def in_process() -> bool:
    """Whether this process runs the projections itself (default) or leaves them to a projector."""
    return os.environ.get(ENV_SWITCH, "").strip().lower() not in ("off", "0", "false", "no", "external")


def spec(name: str) -> Spec:
    try:
        return SPECS[name]
    except KeyError:
        raise ValueError(f"unknown projection {name!r}: one of {', '.join(SPECS)}") from None


def open_table(url: str, name: str) -> Any:
    """The view's table (created if missing), for reading or for a runner."""
    s = spec(name)
    # Created under the store's advisory lock on PostgreSQL: replicas and the projector starting together
    # would otherwise collide in the catalog ("tuple concurrently updated").
    with schema_lock(view_env(url, s.name)):
        factory = InfrastructureFactory.construct(env=_env(url, s.name))
        return factory.tracking_recorder(s.table_class(url))


def open_lobby(url: str | None = None) -> LobbyView:
    return LobbyView(open_table(url or database_url(), "lobby"))


def open_stats(url: str | None = None) -> StatsView:
    return StatsView(open_table(url or database_url(), "stats"))


def _env(url: str, name: str) -> Environment:
    # Named after the projection: PostgreSQL's tracking table is `<name>_tracking`, as in the runner.
    return Environment(name, view_env(url, name))


class Projector:
    """Every projection (or `names`) of the store at `url`, kept up to date by background threads."""

    def __init__(
        self, url: str | None = None, names: Sequence[str] | None = None, interval: float = 1.0
    ) -> None:
        self.url = url or database_url()
        self.specs = [spec(n) for n in (names or list(SPECS))]
        self.interval = interval
        self._runners: list[PollingRunner | ListeningRunner] = []
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> Projector:
        if not is_sqlite(self.url):
            # Create the store's and the views' tables one after the other, before the runners do it
            # at once (concurrent CREATE ... IF NOT EXISTS can collide in PostgreSQL's catalog).
            open_store(self.url).close()
            for s in self.specs:
                open_table(self.url, s.name).datastore.close()
        for s in self.specs:
            if is_sqlite(self.url):
                projection = s.projection(view=open_table(self.url, s.name))
                self._runners.append(PollingRunner(open_store(self.url), projection, self.interval))
            else:
                self._runners.append(ListeningRunner(s.projection, s.postgres_table, runner_env(self.url)))
        for runner in self._runners:
            runner.start()
        self._unsubscribe = on_save(self.wake)
        return self

    def wake(self) -> None:
        for runner in self._runners:
            runner.wake()

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for runner in self._runners:
            runner.stop()
        for runner in self._runners:
            if isinstance(runner, PollingRunner):
                runner.projection.view.datastore.close()
                runner.app.close()
        self._runners = []

    def wait(self, timeout: float = 10.0) -> None:
        """Block until every view has caught up with the store (read-your-writes for tests and tools)."""
        wait_caught_up(self.url, [s.name for s in self.specs], timeout)

    def __enter__(self) -> Projector:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start(url: str | None = None) -> Projector:
    """Start every projection in background threads of this process; call `.stop()` at shutdown."""
    return Projector(url).start()


def runner_env(url: str) -> dict[str, str]:
    # One environment serves the store application and the view inside the library's runner.
    env = view_env(url, "runner")
    env.pop("SQLITE_DBNAME", None)
    env["CREATE_TABLE"] = "no"  # `Projector.start` created every table first, under the schema lock
    env["APPLICATION_RECORDER_TOPIC"] = get_topic(ProjectionSourceRecorder)  # reads settle
    return env


def wait_caught_up(url: str, names: Sequence[str], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    app = open_store(url)
    try:
        for name in names:
            table = open_table(url, name)
            try:
                while not caught_up(app, table, spec(name).projection.topics):
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"projection {name} did not catch up within {timeout} s")
                    time.sleep(0.01)
            finally:
                table.datastore.close()
    finally:
        app.close()


def update(url: str, name: str, progress: Progress | None = None) -> int:
    """Bring one view up to date in this process, now (returns the number of events processed)."""
    app = open_store(url)
    table = open_table(url, name)
    try:
        return catch_up(app, spec(name).projection(view=table), progress=progress)
    finally:
        table.datastore.close()
        app.close()


def rebuild(url: str, name: str, progress: Progress | None = None) -> int:
    """Drop a view and rebuild it from event 1 (returns the number of events processed). A running
    projector notices the reset and follows from the rebuilt position."""
    table = open_table(url, name)
    try:
        table.reset()
    finally:
        table.datastore.close()
    return update(url, name, progress)


def head(url: str) -> int:
    """The last position of the store's notification log."""
    app = open_store(url)
    try:
        return app.recorder.max_notification_id() or 0
    finally:
        app.close()


def status(url: str) -> list[dict[str, Any]]:
    """Each view's position against the end of the log."""
    end = head(url)
    out = []
    for name, s in SPECS.items():
        table = open_table(url, name)
        try:
            out.append({"name": name, "description": s.description, "position": table.head(), "log_end": end})
        finally:
            table.datastore.close()
    return out


def run_forever(url: str, interval: float = 1.0, stop: threading.Event | None = None) -> None:
    """Keep every view up to date until SIGINT or SIGTERM (or `stop` is set): `galileo projections run`."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, lambda *_: stop.set())
    with Projector(url, interval=interval):
        stop.wait()
