"""Runners that keep a projection up to date (eventsourcing guide §6).

- PostgreSQL: `ListeningRunner` runs the library's `ProjectionRunner` (LISTEN/NOTIFY subscription) and
  restarts it after an error, from the view's stored position. The subscription reads the store
  `SETTLE_SECONDS` after a notification, not at once (`SettlingSubscription`): the events of a busy
  moment are read together, and the reading does not compete with the request that just wrote them
  for this process's CPU (issue 17, HTTP move: in the API process, the views' reads and decoding of a
  move otherwise ran while its POST was still being answered).
- SQLite has no subscriptions: `PollingRunner` polls the notification log in batches, woken after
  every save in this process (`replays.store.on_save`; it settles `SETTLE_SECONDS` first, as the
  PostgreSQL subscription does) and every `interval` seconds otherwise (saves by other processes).
  After each catch-up it lingers `linger` seconds (the library runner's `max_delay` on PostgreSQL), so
  that the saves of a busy moment are written to the view in one
  transaction: a view commits at most once per `linger`, not once per move (issue 17, "Throughput";
  tests/projections/test_commits.py).

`catch_up` is the batch loop both the polling runner and `rebuild` use.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from eventsourcing.persistence import Subscription, Tracking
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresSubscription
from eventsourcing.projection import ProjectionRunner
from eventsourcing.utils import Environment, EnvType

from projections.documents import Documents, Moved
from projections.projection import GameProjection
from projections.source import APP
from replays.store import GameStore, PostgresRecorder

logger = logging.getLogger(__name__)

Progress = Callable[[int], None]  # called with the position reached
MAX_BACKOFF = 30.0
# How long a PostgreSQL subscription waits after a notification before it reads the store: the
# projections' own batching delay (`GameProjection.max_delay`); a view is at most this much later.
SETTLE_SECONDS = 0.05


def catch_up(
    app: GameStore, projection: GameProjection[Any], batch: int = 500, progress: Progress | None = None
) -> int:
    """Process every stored event after the view's position, one transaction per batch; returns how
    many were processed. A `Moved` view (another runner wrote) is followed from its new position."""
    done = 0
    while True:
        start = projection.position
        found = app.recorder.select_notifications(
            start, batch, topics=projection.topics, inclusive_of_start=False
        )
        try:
            for n in found:
                projection.process_event(app.mapper.to_domain_event(n), Tracking(APP, n.id))
            projection.flush()
        except Moved:
            projection.discard()
            continue
        except BaseException:
            projection.discard()
            raise
        done += len(found)
        if progress is not None and found:
            progress(found[-1].id)
        if len(found) < batch:
            return done


def caught_up(app: GameStore, view: Documents, topics: Sequence[str]) -> bool:
    """True when no stored event of `topics` (all when empty) lies after the view's position."""
    return not app.recorder.select_notifications(view.head(), 1, topics=topics, inclusive_of_start=False)


class PollingRunner:
    """Keeps one projection of a SQLite store up to date from a background thread."""

    def __init__(
        self,
        app: GameStore,
        projection: GameProjection[Any],
        interval: float = 1.0,
        linger: float | None = None,
        settle: float = SETTLE_SECONDS,
    ) -> None:
        self.app = app
        self.projection = projection
        self.interval = interval
        self.linger = projection.max_delay if linger is None else linger
        self.settle = settle  # after a wake-up, before catching up: not while the save's request ends
        self.catch_ups = 0  # how many times it caught up (tests count them)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._run, name=f"projection-{self.projection.name}", daemon=True
        )
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.catch_ups += 1
                catch_up(self.app, self.projection)
            except Exception:
                logger.exception("projection %s failed; retrying in %.1f s", self.projection.name, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
                continue
            backoff = 0.5
            # Saves woken during the linger are caught up together, in one transaction of the view.
            self._stop.wait(self.linger)
            if self._wake.wait(self.interval):
                self._stop.wait(self.settle)


class SettlingSubscription(PostgresSubscription):
    """The library's LISTEN/NOTIFY subscription, reading the store `SETTLE_SECONDS` after each
    notification (the first read, of what was stored before, at once). Notifications that arrive
    meanwhile are served by the same read."""

    def __init__(
        self, recorder: PostgresApplicationRecorder, gt: int | None = None, topics: Sequence[str] = ()
    ) -> None:
        self._settle = False  # set before the library starts the pulling thread
        super().__init__(recorder=recorder, gt=gt, topics=topics)

    def _pull(self) -> None:
        if self._settle:
            time.sleep(SETTLE_SECONDS)
        self._settle = True
        super()._pull()


class ProjectionSourceRecorder(PostgresRecorder):
    """The store's recorder as a projection runner reads it: subscriptions settle (above)."""

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return SettlingSubscription(recorder=self, gt=gt, topics=topics)


class StoreProjectionRunner(ProjectionRunner[Any, Any]):
    """The library's runner, with the view configured like the store: by the given environment only
    (replays.store.GameStore.construct_env), so a stray POSTGRES_* variable cannot move a view."""

    @staticmethod
    def _construct_env(name: str, env: EnvType | None = None) -> Environment:
        return Environment(name, dict(env or {}))


class ListeningRunner:
    """Keeps one projection of a PostgreSQL store up to date with the library's `ProjectionRunner`,
    restarted (from the stored position, with a growing pause) after any error."""

    def __init__(
        self, projection_class: type[GameProjection[Any]], view_class: type[Any], env: dict[str, str]
    ) -> None:
        self.projection_class = projection_class
        self.view_class = view_class
        self.env = env
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.restarts = 0

    def start(self) -> None:
        name = f"projection-{self.projection_class.name}"
        self._thread = threading.Thread(target=self._supervise, name=name, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Nothing to do: PostgreSQL notifies the subscription."""

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _supervise(self) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            try:
                self._run_once()
                backoff = 0.5
            except Exception:
                self.restarts += 1
                logger.exception(
                    "projection %s failed; restarting in %.1f s", self.projection_class.name, backoff
                )
                self._stop.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)

    def _run_once(self) -> None:
        runner = StoreProjectionRunner(
            application_class=GameStore,
            projection_class=self.projection_class,
            view_class=self.view_class,
            env=self.env,
        )
        projection = cast(GameProjection[Any], runner.projection)
        try:
            with runner:
                while not self._stop.is_set():
                    runner.run_forever(timeout=projection.max_delay)  # raises the event thread's error
                    projection.flush_due()
                    if projection.failed is not None:  # a timed flush failed: restart from the view
                        raise projection.failed
                    if runner.is_interrupted.is_set():
                        runner.run_forever(timeout=0)
                        raise RuntimeError("the subscription stopped")
            projection.flush()  # the event thread has ended: write what it left
        finally:
            runner.view.datastore.close()
