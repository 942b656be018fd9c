"""The projection machinery shared by the materialised views: fold each game's facts into its
document, in batches, with exactly-once tracking (eventsourcing guide §6).

`process_event` is the library's entry point (`eventsourcing.projection.Projection`), called by its
`ProjectionRunner` on PostgreSQL and by our polling runner on SQLite. Facts wait in a batch that is
written when it is full, when the runner reaches the end of what is stored, or after `max_delay`; one
batch is one transaction holding the changed documents and the new position. Before writing, the
batch checks that the stored position is still the one it continues from (locked on PostgreSQL): a
second runner or a rebuild that moved it makes the batch fail closed (`Moved`) instead of counting
events twice.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from projections.documents import Document, Documents, Moved
from projections.source import Fact, fact_of

logger = logging.getLogger(__name__)

TView = TypeVar("TView", bound=Documents)


class GameProjection(Projection[TView], Generic[TView]):
    """A view of one document per game, kept by folding the game's facts in order."""

    topics: tuple[str, ...] = ()
    batch_size: ClassVar[int] = 500  # facts per transaction at most (the library pulls 500 at a time)
    max_delay: ClassVar[float] = 0.05  # seconds a fact may wait for its batch under the library runner

    def __init__(self, view: TView) -> None:
        super().__init__(view)
        self._lock = threading.RLock()
        self._pending: list[Fact] = []
        self._last: Tracking | None = None
        self._since = 0.0
        self.failed: BaseException | None = None  # a background flush failed: the runner must restart
        self.position = view.head()  # the committed position the pending batch continues from

    @staticmethod
    @abstractmethod
    def fold(doc: Document | None, fact: Fact) -> Document:
        """The game's document after `fact` (`doc` is None before the game's first event)."""

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """Add a stored event (as the store's mapper decodes it) to the batch."""
        self.process_fact(fact_of(domain_event), tracking)

    def process_fact(self, fact: Fact, tracking: Tracking) -> None:
        with self._lock:
            if self.failed is not None:
                raise self.failed
            if not self._pending:
                self._since = time.monotonic()
            self._pending.append(fact)
            self._last = tracking
            if len(self._pending) >= self.batch_size:
                self.flush()

    def flush(self) -> int:
        """Write the batch: changed documents and the position of its last fact, in one transaction.
        Returns the number of facts written. On any error the batch is dropped, never half-kept, and
        the projection refuses more facts until `discard()` (the runner then reads again from the
        committed position)."""
        with self._lock:
            if self.failed is not None:
                raise self.failed
            facts, last = self._pending, self._last
            if not facts or last is None:
                return 0
            self._pending, self._last = [], None
            try:
                self._write(facts, last)
            except BaseException as error:
                self.failed = error
                raise
            self.position = last.notification_id
            return len(facts)

    def _write(self, facts: list[Fact], last: Tracking) -> None:
        view = self.view
        with view.transaction() as c:
            found = view.position(c)
            if found != self.position:
                raise Moved(self.position, found)
            docs = view.load(c, dict.fromkeys(f.game_id for f in facts))
            for fact in facts:
                docs[fact.game_id] = self.fold(docs.get(fact.game_id), fact)
            view.save(c, docs)
            view.track(c, last)

    def flush_due(self) -> None:
        """Flush a batch that waited `max_delay` (called by the runner's timer, not its event thread);
        an error is kept in `failed` and raised to the event thread at its next fact."""
        with self._lock:
            if (
                self.failed is not None
                or not self._pending
                or time.monotonic() - self._since < self.max_delay
            ):
                return
            try:
                self.flush()
            except Exception as error:
                logger.warning("projection %s: batch dropped (%s); the runner restarts", self.name, error)

    def discard(self) -> None:
        """Forget the batch and re-read the committed position (after an error, or a `Moved`)."""
        with self._lock:
            self._pending, self._last = [], None
            self.failed = None
            self.position = self.view.head()

    @property
    def pending(self) -> int:
        return len(self._pending)
