"""The game service: the only way in to stored games (design.md, "Event store", "replays/").

`Games` creates games, submits commands (optimistic concurrency on the version the client saw,
idempotent on the client's command ID), replays them to any version, forks, exports, imports and
verifies them. It contains no rules: it calls the engine, records what it decides, and audits it.

A viewer is a seat index or None (a spectator); an actor is a seat index or a label such as
"system". The API adds seat tokens on top (it maps a token to its seat before calling in).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain import (
    Command,
    GameState,
    Setup,
    command_to_dict,
    decide_traced,
    event_from_dict,
    event_to_dict,
    evolve,
    fork_events,
    start,
)
from domain import Event as DomainEvent
from domain.catalog import load_catalog
from domain.events import GameEnded, GameStarted
from replays.audit import (
    CHAINED,
    KEYED,
    SCHEME,
    SCHEMES,
    SYSTEM,
    Actor,
    Cause,
    canonical,
    chain,
    first_prev,
    new_key,
    nonces_for,
    options_hash,
    scheme_of,
    setup_command,
)
from replays.compact import Expander, StoredFormError
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
from replays.export import ExportFormatError, encode, export_line, header_problems, make_header, parse
from replays.rebuild import state_at
from replays.records import MAX_TEXT, SEAT_KINDS, GameInfo, Record, StoredEvent, SubmitResult
from replays.store import DEFAULT_DATABASE_URL, TOPIC_PREFIX, Game, Rows, open_store
from replays.verify import Finding, VerifyReport, verify_records

Viewer = int | None
OPERATOR = "operator"  # the viewer named in a complete export of an unfinished game (backups)
LIST_PAGE = 500

RowsFor = Callable[[str, GameState, int], Sequence[Rows]]
"""What a caller stores with a new game (create, fork, import) in the transaction of its events: given
the new game's ID, its state and the size of its stored events in bytes, the rows to write (the API's
seats, deal and owner, and any future record of a game, such as a host). Raising in it stores nothing."""


def _no_rows(game_id: str, state: GameState, size: int) -> Sequence[Rows]:
    return ()


# An event to store with its metadata, and optionally the form it was written in (an import keeps it).
Entry = tuple[DomainEvent, Mapping[str, Any]] | tuple[DomainEvent, Mapping[str, Any], Mapping[str, Any]]


def database_url() -> str:
    """The configured store: GALILEO_DATABASE_URL, else a SQLite file under ./data/."""
    return os.environ.get("GALILEO_DATABASE_URL") or DEFAULT_DATABASE_URL


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Games:
    """The game service over one event store (`url`, default `database_url()`).

    `clock` gives the time a request is received and `secret` the secret seeds and salts of new games
    and of re-deals (both injectable for tests). `scheme` is the audit scheme of the games it creates and
    forks (docs/audit.md): the current one by default; a game keeps its own scheme for its whole life.
    The nonces of secret groups and a game's key (scheme 3) always come from the system's CSPRNG
    (`secrets`): a new game and every fork draw their own, and no one of them is ever copied.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        clock: Callable[[], datetime] = _utc_now,
        secret: Callable[[], str] = lambda: secrets.token_hex(16),
        scheme: int = SCHEME,
    ) -> None:
        if scheme not in SCHEMES:
            raise ValueError(f"an audit scheme is one of {', '.join(map(str, SCHEMES))}, not {scheme!r}")
        self.url = url or database_url()
        self.scheme = scheme  # of the games it writes (create, fork); an import keeps its file's
        self.store = open_store(self.url)
        self._clock = clock
        self._secret = secret

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Games:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------------

    def create(self, setup: Setup, actor: Actor = SYSTEM, rows: RowsFor = _no_rows) -> tuple[str, int]:
        """Start a game: (its ID, its version). Raises IllegalMove for a setup the rules refuse.

        Without a salt in `setup` the service draws a secret one for the deal's commitment. `rows` gives
        what is stored with the game's events in one transaction (`RowsFor`)."""
        _check_actor(actor)
        if setup.salt is None:
            setup = replace(setup, salt=self._secret())
        # The recorded setup names the edition itself, not "current" (docs/editions.md).
        setup = replace(setup, catalog_edition=load_catalog(setup.catalog_edition).edition)
        _, events = start(setup)
        now = self._now()
        first = events[0]
        assert isinstance(first, GameStarted)
        cause = _cause("setup", actor, setup_command(setup), None, now, first)
        game_id = uuid4()
        game = self._assemble(game_id, [(e, cause.metadata(1, self.scheme)) for e in events], now)
        self._save_new(game, rows)
        return str(game_id), game.version

    def submit(
        self,
        game_id: str | UUID,
        command: Command,
        expected_version: int,
        command_id: str,
        actor: Actor,
        seat_kind: str | None = None,
        received_at: datetime | None = None,
        check: Callable[[Game, datetime], None] | None = None,
    ) -> SubmitResult:
        """Decide and store `command` as one batch of events.

        A retry of `command_id` with the same command returns the first result and writes nothing;
        with another command it raises CommandIdReused. A stale `expected_version` raises
        VersionConflict; a refused command raises IllegalMove. Nothing is written on any error.
        `seat_kind` ("human" or "bot") records who played the seat, as a fact of the log (statistics
        read it; docs/audit.md). `received_at` is when the command was received (recorded as its
        `received_at`; default: now), and `check(game, received_at)` may refuse it (TableRefused)
        against the game as it is when written, before the version check and again after a lost race
        (docs/async.md: a command is judged by its receive time, ASYNC-1).
        """
        if seat_kind is not None and seat_kind not in SEAT_KINDS:
            raise ValueError(f"a seat kind is one of {', '.join(SEAT_KINDS)}, not {seat_kind!r}")
        if not isinstance(command_id, str) or not 0 < len(command_id) <= MAX_TEXT:
            raise ValueError(f"a command ID is a string of 1 to {MAX_TEXT} characters")
        _check_actor(actor)
        if isinstance(actor, int) and actor != command.seat:
            raise SeatMismatch(actor, command.seat)
        gid = _uuid(game_id)
        game, cached = self._load_to_write(gid, expected_version)
        first = self._first_result(gid, game, command, command_id)
        if first is not None:
            return first
        now = self._now() if received_at is None else received_at
        if check is not None:
            try:
                check(game, now)
            except TableRefused:
                if not cached:
                    raise
                # Judged on this process's copy, which another process may have moved past (a clock
                # paused or a seat handed back there): the refusal is the store's game's to give.
                game = self._load(gid)
                first = self._first_result(gid, game, command, command_id)
                if first is not None:
                    return first
                check(game, now)
        if expected_version != game.version:
            raise VersionConflict(game.version, expected_version)
        if game.cancelled:
            raise TableRefused("game-cancelled", "the table's host cancelled this game", "ASYNC-8")
        assert game.state is not None
        events, states = decide_traced(game.state, command)
        cause = replace(
            _cause("command", actor, command_to_dict(command), command_id, now, game.state),
            seat_kind=seat_kind,
        )
        self._append(game, [(e, cause.metadata(game.version + 1, game.scheme)) for e in events], now, states)
        try:
            size = _stored_size(self.store.save(game))
        except IntegrityError:
            # Another writer stored this version first: the same command ID retried concurrently
            # gets that first result, anything else a conflict.
            game = self._load(gid)
            first = self._first_result(gid, game, command, command_id)
            if first is not None:
                return first
            if check is not None:
                check(game, now)  # e.g. the seat's expiry was stored first: say so
            raise VersionConflict(game.version, expected_version) from None
        return SubmitResult(
            game.version, tuple(events), actor=actor, received_at=cause.received_at, stored_bytes=size
        )

    def table(
        self,
        game_id: str | UUID,
        request: Mapping[str, Any],
        build: Callable[[Game, datetime], Sequence[DomainEvent]],
        command_id: str,
        actor: Actor,
        expected_version: int | None = None,
        rows: Callable[[int], Sequence[Rows]] | None = None,
    ) -> SubmitResult:
        """Record a table batch (docs/async.md): `build(game, now)` gives its events from the game as it
        is, or raises TableRefused. Idempotent on `command_id` like `submit` (a retry with the same
        `request` gets the first result); `expected_version`, when given, must be the game's version.
        Two writers of the same version: one wins, the other gets its first result or a conflict.
        `rows(version)`, given the version of the batch's first event, gives rows of other tables to write
        in the transaction of its events (a re-issued seat link: the new token with the event)."""
        if not isinstance(command_id, str) or not 0 < len(command_id) <= MAX_TEXT:
            raise ValueError(f"a command ID is a string of 1 to {MAX_TEXT} characters")
        _check_actor(actor)
        gid = _uuid(game_id)
        game = self._load(gid)
        first = self._first_result(gid, game, request, command_id)
        if first is not None:
            return first
        if expected_version is not None and expected_version != game.version:
            raise VersionConflict(game.version, expected_version)
        assert game.state is not None
        now = self._now()
        events = list(build(game, now))
        if not events:
            return SubmitResult(game.version, ())
        cause = _cause("table", actor, request, command_id, now, game.state)
        first_version = game.version + 1
        self._append(game, [(e, cause.metadata(first_version, game.scheme)) for e in events], now)
        try:
            size = _stored_size(self.store.save(game, rows=rows(first_version) if rows is not None else ()))
        except IntegrityError:
            game = self._load(gid)
            first = self._first_result(gid, game, request, command_id)
            if first is not None:
                return first
            raise VersionConflict(game.version, expected_version) from None
        return SubmitResult(
            game.version, tuple(events), actor=actor, received_at=cause.received_at, stored_bytes=size
        )

    def now(self) -> datetime:
        """The service's clock (injectable: tests control time)."""
        return self._now()

    def game(self, game_id: str | UUID) -> Game:
        """The game aggregate now (its state and its table facts: clock log, take-back request...)."""
        return self._load(_uuid(game_id))

    def fork(
        self, game_id: str | UUID, at_version: int, actor: Actor = SYSTEM, rows: RowsFor = _no_rows
    ) -> str:
        """A new game from the first `at_version` events of this one, then `GameForked`.

        An unfinished game's unseen cards are re-dealt with a new secret seed; a finished one keeps
        its (revealed) deal. Command IDs of the copied events do not count against the new game.
        `rows` gives what is stored with the new game's events in one transaction (`RowsFor`)."""
        _check_actor(actor)
        gid = _uuid(game_id)
        source = self.events(gid)
        events = [s.event for s in source]
        finished = isinstance(events[-1], GameEnded)
        seed, salt = (None, None) if finished else (self._secret(), self._secret())
        try:
            forked = fork_events(events, at_version, str(gid), seed, salt)
        except ValueError as exc:
            raise ForkRefused(str(exc)) from None
        now = self._now()
        first = forked[0]
        assert isinstance(first, GameStarted)
        request = {"type": "Fork", "source_game": str(gid), "at": at_version}
        cause = _cause("fork", actor, request, None, now, first)
        # The copied events keep their audit fields, not their nonces: the fork is a new game with a key
        # and fresh nonces of its own (`_assemble`), so nothing of the source's randomness is reused and
        # no view of the fork can open a digest of the source (issue 26).
        entries = [
            (
                e,
                _in_scheme(source[i].metadata, self.scheme, first)
                if i < at_version
                else cause.metadata(at_version + 1, self.scheme),
            )
            for i, e in enumerate(forked)
        ]
        new_id = uuid4()
        self._save_new(self._assemble(new_id, entries, now), rows)
        return str(new_id)

    def import_(self, data: bytes, rows: RowsFor = _no_rows) -> str:
        """Store an export file as a new game, after checking everything; raises ImportRejected
        (with the line) and writes nothing when the file is malformed, tampered or redacted.
        `rows` gives what is stored with the game's events in one transaction (`RowsFor`)."""
        try:
            log = parse(data)
        except ExportFormatError as exc:
            raise ImportRejected(exc.line, exc.message) from None
        report = verify_records(log.records, "import", header=header_problems(log))
        problem = report.first
        if problem is not None:
            raise ImportRejected(problem.line or 0, _explain(problem))
        if not report.complete:
            line = next(r.line for r in log.records if r.sealed)
            raise ImportRejected(
                line or 0,
                "the export is redacted (the hidden deal is left out): only a complete export "
                "(a finished game, or an operator's backup) can be imported",
            )
        if not report.ok:
            raise ImportRejected(
                0, "; ".join(f"{c.name}: {c.detail}" for c in report.checks if c.status != "ok")
            )
        # Each event keeps the form it was written in (its hash covers it); it is upcast on every read.
        entries = [
            (event_from_dict(r.event, r.meta.get("engine_version")), r.meta, r.event) for r in log.records
        ]
        game_id = uuid4()
        self._save_new(self._assemble(game_id, entries, self._now()), rows)
        return str(game_id)

    def _save_new(self, game: Game, rows: RowsFor) -> None:
        """Store a new game's events and the caller's rows in one transaction: both or neither (a crash
        in between leaves no game without its seats)."""
        assert game.state is not None
        size = sum(len(self.store.mapper.to_stored_event(e).state) for e in game.pending_events)
        self.store.save(game, rows=rows(str(game.id), game.state, size))

    def _assemble(self, game_id: UUID, entries: Iterable[Entry], now: datetime) -> Game:
        """A new game aggregate holding `entries` (event, metadata[, recorded form]), hash-linked in the
        scheme of the first entry's metadata; an entry without nonces gets fresh ones and, in scheme 3,
        the new game's own new key (an import keeps the file's)."""
        items = _with_nonces(entries, new_key())
        scheme = scheme_of(items[0][2])
        (event, payload, meta), *rest = _chained(items, scheme, 0, first_prev(scheme))
        game = Game._create(Game.Created, id=game_id, payload=payload, metadata=meta, timestamp=now)
        for event, payload, meta in rest:
            game.record(event, payload, meta, timestamp=now)
        return game

    @staticmethod
    def _append(
        game: Game, entries: Iterable[Entry], now: datetime, states: Sequence[GameState] | None = None
    ) -> None:
        """Record events with their metadata, hash-linked in the game's scheme; new secret-bearing events
        get nonces. `states`, when given, are the states after each event as the engine computed them (not
        recomputed: each event is evolved once on the command path)."""
        if game.scheme == KEYED and game.key is None:
            raise ValueError(f"game {game.id} of audit scheme {KEYED} has no key in its first event")
        chained = _chained(_with_nonces(entries, game.key), game.scheme, game.version, game.last_hash)
        for i, (event, payload, meta) in enumerate(chained):
            after = states[i] if states is not None else None
            game.record(event, payload, meta, after, timestamp=now)

    def _first_result(
        self, gid: UUID, game: Game, command: Command | Mapping[str, Any], command_id: str
    ) -> SubmitResult | None:
        span = game.command_span(command_id)
        if span is None:
            return None
        stored = self.events(gid, after=span[0] - 1, limit=span[1] - span[0] + 1)
        asked = dict(command) if isinstance(command, Mapping) else command_to_dict(command)
        if canonical(stored[0].metadata["command"]) != canonical(asked):
            raise CommandIdReused(command_id, span[0])
        meta = stored[0].metadata
        return SubmitResult(
            span[1],
            tuple(s.event for s in stored),
            replayed=True,
            actor=meta.get("actor"),
            received_at=meta.get("received_at"),
        )

    # -- reading -----------------------------------------------------------------------------------

    def head(self, game_id: str | UUID) -> int:
        """The game's current version (its number of events)."""
        return self._load(_uuid(game_id)).version

    def state(self, game_id: str | UUID, version: int | None = None) -> GameState | None:
        """The state after `version` events (default: now). Version 0 is before the first event: None."""
        gid = _uuid(game_id)
        if version is None:
            return self._load(gid).state
        if version == 0:
            self._load(gid)
            return None
        if version > 0:
            # Read-only: the snapshot and the rows after it straight to the engine state; the aggregate
            # is rebuilt only when they are not a plain run of the game's events (replays/rebuild.py).
            state = state_at(self.store, gid, version)
            if state is not None:
                return state
        game = self._load(gid, version) if version > 0 else None
        if game is None or game.version != version:
            raise VersionOutOfRange(version, self.head(gid))
        return game.state

    def events(self, game_id: str | UUID, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Stored events after version `after` (at most `limit`), with their audit metadata."""
        gid = _uuid(game_id)
        loaded: Iterable[Game.Event] = self.store.events.get(gid, gt=after, limit=limit)  # type: ignore[assignment]
        found = [
            StoredEvent(
                e.originator_version, event_from_dict(e.payload, e.metadata.get("engine_version")), e.metadata
            )
            for e in loaded
        ]
        if not found and not self.store.recorder.select_events(gid, limit=1):
            raise GameNotFound(game_id)
        return found

    def steps(self, game_id: str | UUID) -> Iterator[tuple[int, DomainEvent, GameState]]:
        """Step through a game: (version, event, state after it) for every event."""
        state: GameState | None = None
        for stored in self.events(game_id):
            state = evolve(state, stored.event)
            yield stored.version, stored.event, state

    def list_games(self) -> list[GameInfo]:
        """Every stored game, oldest first: when this store wrote it (a fork or an import: then, not its
        source's time), its seats, its status and winners (from the log's GameStarted and GameEnded)."""
        started: dict[str, GameInfo] = {}
        ended: dict[str, tuple[int, ...]] = {}
        start_id: int | None = None
        topics = [TOPIC_PREFIX + "GameStarted", TOPIC_PREFIX + "GameEnded"]
        while True:
            page = self.store.recorder.select_notifications(
                start_id, LIST_PAGE, topics=topics, inclusive_of_start=False
            )
            for n in page:
                game_id = str(n.originator_id)
                if n.topic != topics[0]:
                    payload = self.store.mapper.decode_state(n.state)["payload"]
                    ended[game_id] = tuple(int(w) for w in payload["winners"])
                    continue
                started_event = self.store.mapper.to_domain_event(n)  # the timestamp of its stored form
                payload, created = started_event.payload, started_event.timestamp.isoformat()
                seats = tuple((str(name), str(char)) for name, char in payload["seats"])
                started[game_id] = GameInfo(game_id, created, seats)
            if len(page) < LIST_PAGE:
                break
            start_id = page[-1].id
        return [
            replace(info, status="finished", winners=ended[gid]) if gid in ended else info
            for gid, info in started.items()
        ]

    # -- export and verification ---------------------------------------------------------------------

    def export(self, game_id: str | UUID, viewer: Viewer = None, *, reveal: bool = False) -> bytes:
        """The game as a JSON Lines file (docs/export.md): what `viewer` may see unless the game is
        finished. `reveal=True` is the operator's complete backup of an unfinished game: never serve
        it to a player."""
        gid = _uuid(game_id)
        records = self._records(gid, viewer)
        finished = records[-1].event["type"] == "GameEnded"
        complete = reveal or finished
        named: int | str | None = OPERATOR if reveal and not finished else viewer
        header = make_header(str(gid), records, self._now().isoformat(), named, complete=complete)
        return encode(header, records, viewer, complete)

    def log(
        self, game_id: str | UUID, viewer: Viewer = None, after: int = 0, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The events after `after` as `viewer` may see them now, each as its export line
        {"version", "event", "meta"[, "sealed"]}: the form to serve to players (`events()` holds secrets)."""
        gid = _uuid(game_id)
        records = self._records(gid, viewer, after, limit)
        finished = self.state(gid).finished  # type: ignore[union-attr]
        return [export_line(r, viewer, complete=finished) for r in records]

    def _records(self, gid: UUID, viewer: Viewer, after: int = 0, limit: int | None = None) -> list[Record]:
        if viewer is not None:
            first = self.events(gid, limit=1)[0].event
            assert isinstance(first, GameStarted)
            if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(first.seats):
                raise ValueError(f"a viewer is a seat 0..{len(first.seats) - 1} or None (a spectator)")
        return [Record(s.version, event_to_dict(s.event), s.metadata) for s in self.events(gid, after, limit)]

    def verify(self, game_id: str | UUID, edition: str | None = None) -> VerifyReport:
        """Check a stored game: format, hash chain, re-adjudication, fair deal (docs/audit.md).

        Reads the raw rows, so a row edited in the database is reported, not raised. `edition`
        ("current") also re-adjudicates it under that rules edition, as information (docs/editions.md)."""
        gid = _uuid(game_id)
        rows = self.store.recorder.select_events(gid)
        if not rows:
            raise GameNotFound(game_id)
        records: list[Record] = []
        problems: list[Finding] = []
        expand = Expander()  # a scheme-2 row holds its batch's audit fields in the batch's first event
        for row in rows:
            try:
                data = self.store.mapper.decode_state(row.state)
                meta = expand(data["metadata"], row.originator_version)
                records.append(Record(row.originator_version, data["payload"], meta, topic=row.topic))
            except StoredFormError as exc:
                problems.append(Finding("format", str(exc), row.originator_version))
            except Exception as exc:
                message = f"the stored row cannot be decoded ({type(exc).__name__}: {exc})"
                problems.append(Finding("format", message, row.originator_version))
        return verify_records(records, str(gid), problems, edition=edition)

    def verify_file(self, data: bytes, source: str = "file", edition: str | None = None) -> VerifyReport:
        """Check an export file (it needs no store: a referee can check a file offline)."""
        return verify_file(data, source, edition)

    # -- helpers -----------------------------------------------------------------------------------

    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the service clock must give timezone-aware times")
        return now

    def _load_to_write(self, gid: UUID, expected_version: int) -> tuple[Game, bool]:
        """The game a command sent at `expected_version` is decided on: this process's cached copy when
        it is at that version, without reading the store; else the game read from the store. The cached
        copy can be behind the store only if another process wrote since, and then its save fails on the
        store's unique (game, version) key: the caller reloads and answers from the store as it is (the
        first result of a retried command ID, a version conflict or the check's refusal), exactly as
        when two writers race. The common case, a command at the version the caller just read, so costs
        no read of the store. A refusal judged on the cached copy is judged again on the store's game
        (`submit`). Returns the game and whether it is the cached copy (not read from the store)."""
        game = self.store.cached(gid)
        if game is None or game.version != expected_version:
            return self._load(gid), False
        return game, True

    def _load(self, gid: UUID, version: int | None = None) -> Game:
        try:
            return self.store.load(gid, version)
        except AggregateNotFoundError:
            raise GameNotFound(gid) from None


def verify_file(data: bytes, source: str = "file", edition: str | None = None) -> VerifyReport:
    """Check an export file: format, hash chain and, for a complete file, re-adjudication and deal
    (and with `edition`, re-adjudication under that edition as information)."""
    try:
        log = parse(data)
    except ExportFormatError as exc:
        return verify_records([], source, [Finding("format", exc.message, line=exc.line or None)])
    return verify_records(log.records, source, header=header_problems(log), edition=edition)


def _stored_size(recordings: Sequence[Any]) -> int:
    """The bytes of the events a save wrote (their stored, compressed form)."""
    return sum(len(r.notification.state) for r in recordings)


def _uuid(game_id: str | UUID) -> UUID:
    if isinstance(game_id, UUID):
        return game_id
    try:
        return UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None


def _check_actor(actor: Actor) -> None:
    if isinstance(actor, bool) or not (
        (isinstance(actor, int) and actor >= 0) or (isinstance(actor, str) and 0 < len(actor) <= MAX_TEXT)
    ):
        raise ValueError(f"an actor is a seat number or a label of 1 to {MAX_TEXT} characters, not {actor!r}")


def _cause(
    kind: str,
    actor: Actor,
    command: Mapping[str, Any],
    command_id: str | None,
    now: datetime,
    rules: GameStarted | GameState,
) -> Cause:
    options = rules.options if isinstance(rules, GameStarted) else rules.options.to_json()
    return Cause(
        kind=kind,
        actor=actor,
        command=command,
        command_id=command_id,
        received_at=now.isoformat(),
        catalog_edition=rules.catalog_edition,
        catalog_hash=rules.catalog_hash,
        options=options,
    )


def _explain(finding: Finding) -> str:
    where = f"event {finding.version}: " if finding.version is not None else ""
    rule = f" [{finding.rule}]" if finding.rule else ""
    return f"{finding.check}: {where}{finding.message}{rule}"


def _with_nonces(
    entries: Iterable[Entry], key: str | None
) -> list[tuple[DomainEvent, dict[str, Any], dict[str, Any]]]:
    """(event, payload, metadata) of each entry: the payload as recorded (an import keeps its form) or
    as the engine writes it, the metadata of a new secret-bearing event with fresh nonces and, in scheme
    3, the game's `key`."""
    out = []
    for event, meta, *recorded in entries:
        payload = dict(recorded[0]) if recorded else event_to_dict(event)
        if "nonces" not in meta:
            nonces = nonces_for(payload["type"])
            if nonces:
                meta = {**meta, "nonces": nonces}
                if scheme_of(meta) == KEYED:
                    assert key is not None
                    meta["key"] = key
        out.append((event, payload, dict(meta)))
    return out


def _chained(
    items: Sequence[tuple[DomainEvent, dict[str, Any], dict[str, Any]]], scheme: int, version: int, prev: str
) -> list[tuple[DomainEvent, dict[str, Any], dict[str, Any]]]:
    """The items (events after `version`) with their metadata hash-linked after `prev` (docs/audit.md)."""
    if any(scheme_of(meta) != scheme for _, _, meta in items):
        raise ValueError(f"a game of audit scheme {scheme} takes metadata of its own scheme only")
    metas = chain([p for _, p, _ in items], [m for _, _, m in items], version, prev)
    return [(event, payload, meta) for (event, payload, _), meta in zip(items, metas, strict=True)]


def _in_scheme(meta: Mapping[str, Any], scheme: int, first: GameStarted) -> dict[str, Any]:
    """A copied event's metadata (a fork's) in the scheme of the new game, without its hashes, nonces and
    key (the fork draws its own): the audit fields are kept; scheme 1's per-event catalog and options
    come from the game's GameStarted."""
    dropped = ("prev_hash", "hash", "catalog", "options_hash", "scheme", "nonces", "key")
    out = {k: v for k, v in meta.items() if k not in dropped}
    if scheme == CHAINED:
        out["catalog"] = {"edition": first.catalog_edition, "hash": first.catalog_hash}
        out["options_hash"] = options_hash(first.options)
    else:
        out["scheme"] = scheme
    return out
