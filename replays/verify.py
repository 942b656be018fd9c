"""Verification of a game's log (docs/audit.md): format, hash chain, re-adjudication, fair deal.

It reads records as data (from a database row or a file line, never trusted) and reports the first
problem of each check with the event number (and file line), what the rules expected and what is
stored, and the rule ID. Nothing here raises on hostile input: every failure becomes a `Finding`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from types import UnionType
from typing import Any

from domain import (
    ENGINE_VERSION,
    IllegalMove,
    Setup,
    command_from_dict,
    decide,
    event_from_dict,
    event_to_dict,
    evolve,
    fold,
    fork_events,
    settle,
    start,
    start_game,
)
from domain import Event as DomainEvent
from domain.catalog import load_catalog
from domain.catalog.loader import ALIASES as EDITION_ALIASES
from domain.events import (
    TABLE_EVENTS,
    CardDealt,
    CardDrawnFaceDown,
    GameEnded,
    GameForked,
    GameStarted,
    TakeBackAnswered,
    TakeBackRequested,
    TakenBack,
)
from domain.expansions.solo.events import MovementStackRevealed, MovementTileRevealed, OpponentDealt
from domain.expansions.solo.rules import stack_commitment
from domain.fork import kept_deal_fork
from domain.setup import commitment_of, redealt_start
from domain.state import GameState
from domain.takeback import taken_back
from replays.audit import (
    BATCHED,
    KEYED,
    ZERO_HASH,
    batch_audit,
    batch_hash,
    canonical,
    event_hash,
    is_redacted,
    options_hash,
    public_fields,
    scheme_of,
    setup_from_command,
)
from replays.records import Record, StoredEvent, check_record
from replays.table import horizon_problem

CHECKS = ("format", "chain", "adjudication", "fairness")
HASH_SEARCH = 1000  # how far around its place a moved event is looked for, to say where it came from


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: which check found it, where, and what differs."""

    check: str
    message: str
    version: int | None = None  # event number, 1-based
    line: int | None = None  # line of an export file
    rule: str | None = None
    expected: Mapping[str, Any] | None = None
    stored: Mapping[str, Any] | None = None

    def __str__(self) -> str:
        where = f"line {self.line}, " if self.line is not None else ""
        where += f"event {self.version}: " if self.version is not None else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.check}: {where}{self.message}{rule}"


@dataclass(frozen=True, slots=True)
class CheckResult:
    name: str
    status: str  # "ok" | "failed" | "skipped"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    source: str  # a game ID or a file name
    events: int
    finished: bool
    complete: bool  # False for a redacted export: re-adjudication and the deal cannot be checked
    checks: tuple[CheckResult, ...]
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    edition: EditionCheck | None = None  # `verify --edition current`: information, never a failure

    @property
    def ok(self) -> bool:
        """Everything was checked and everything holds."""
        return all(c.status == "ok" for c in self.checks)

    @property
    def first(self) -> Finding | None:
        return self.findings[0] if self.findings else None

    @property
    def exit_code(self) -> int:
        """0 all checked and sound, 1 a problem found, 2 sound as far as it could be checked."""
        if self.findings or any(c.status == "failed" for c in self.checks):
            return 1
        return 0 if self.ok else 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ok": self.ok,
            "events": self.events,
            "finished": self.finished,
            "complete": self.complete,
            "checks": [asdict(c) for c in self.checks],
            "findings": [asdict(f) for f in self.findings],
            "notes": list(self.notes),
            **({} if self.edition is None else {"edition": self.edition.to_dict()}),
        }


def verify_records(
    records: Sequence[Record],
    source: str,
    problems: Sequence[Finding] = (),
    header: Sequence[Finding] = (),
    edition: str | None = None,
) -> VerifyReport:
    """Run every check that the records allow (EditionUnknown if `edition` is not in this build).

    `problems` are format findings found while reading (they stop the other checks); `header` are
    disagreements of a file's header with its events, reported after what the other checks find.
    `edition` ("current", or a catalog edition id) also re-adjudicates the game under that edition and
    reports the first divergence as information (docs/editions.md); it never fails the verification.
    """
    if edition is not None:
        load_catalog(edition)  # an unknown edition is the caller's error, before any check
    formats = _format_findings(records, problems)
    complete, finished = _is_complete(records), _is_finished(records)
    if formats:
        checks = [CheckResult("format", "failed", str(formats[0]))]
        checks += [CheckResult(name, "skipped", "the log is malformed") for name in CHECKS[1:]]
        return VerifyReport(source, len(records), finished, complete, tuple(checks), tuple(formats[:1]))
    checks = [_result("format", header[0] if header else None, f"{len(records)} events")]
    chain = check_chain(records)
    checks.append(_result("chain", chain, "every hash recomputed and linked"))
    findings = [chain] if chain else []
    notes: list[str] = []
    if complete:
        findings += _rules_checks(records, finished, checks, notes)
    else:
        reason = "the hidden deal is redacted in this export"
        checks += [CheckResult("adjudication", "skipped", reason), CheckResult("fairness", "skipped", reason)]
    findings += header
    if not finished:
        findings = [_redacted(f) for f in findings]
    check = None if edition is None else _edition_note(records, edition, complete, finished, notes)
    return VerifyReport(
        source, len(records), finished, complete, tuple(checks), tuple(findings), tuple(notes), check
    )


def _is_complete(records: Sequence[Record]) -> bool:
    """Every secret field there, and none taken on trust from a seal (scheme 3 seals the fields a seat
    sees of its own; schemes 1 and 2 never seal a field they show)."""
    return not any(is_redacted(r.event) or r.sealed for r in records if isinstance(r.event, Mapping))


def _is_finished(records: Sequence[Record]) -> bool:
    """The log ends with GameEnded."""
    last = records[-1].event if records else None
    return isinstance(last, Mapping) and last.get("type") == "GameEnded"


def _format_findings(records: Sequence[Record], problems: Sequence[Finding]) -> list[Finding]:
    """The format check: the problems found while reading, each record's structure, then (when those
    hold) one audit scheme for the whole game and, under scheme 3, one key."""
    formats = list(problems)
    for r in records:
        message = check_record(r)
        if message:
            formats.append(Finding("format", message, _int(r.version), r.line))
    if not records and not formats:
        formats.append(Finding("format", "the log has no events"))
    if records and not formats:
        formats += _scheme_problems(records)
    return formats


def _scheme_problems(records: Sequence[Record]) -> list[Finding]:
    """Every event under event 1's audit scheme, and under scheme 3 one key."""
    scheme = scheme_of(records[0].meta)
    other = next((r for r in records if scheme_of(r.meta) != scheme), None)
    if other is not None:
        message = f"its audit scheme {scheme_of(other.meta)} is not the game's ({scheme}, event 1's)"
        return [Finding("format", message, _int(other.version), other.line)]
    return _key_problems(records) if scheme == KEYED else []


def _rules_checks(
    records: Sequence[Record], finished: bool, checks: list[CheckResult], notes: list[str]
) -> list[Finding]:
    """(2) re-adjudication and (3) the fair deal of a complete log: their results added to `checks`,
    the adjudicator's notes to `notes`; the findings returned."""
    adjudicator = Adjudicator(records)
    adjudication = adjudicator.run()
    checks.append(_result("adjudication", adjudication, "the rules reproduce every batch"))
    findings = [adjudication] if adjudication else []
    if adjudicator.events:
        fairness = adjudicator.fairness()
        detail = "commitments, draws and reveal match" if finished else "commitments and draws match"
        checks.append(_result("fairness", fairness, detail + ("" if finished else "; reveal pending")))
        findings += [fairness] if fairness else []
    else:
        checks.append(CheckResult("fairness", "skipped", "the events cannot be read"))
    notes += adjudicator.notes
    return findings


def _edition_note(
    records: Sequence[Record], edition: str, complete: bool, finished: bool, notes: list[str]
) -> EditionCheck | None:
    """`verify --edition`: the game re-adjudicated under `edition` (None for a redacted log), its
    summary added to `notes` (an unfinished game's divergence shows no hidden field)."""
    check = readjudicate(records, edition) if complete else None
    if check is None:
        notes.append(f"not re-adjudicated under edition {edition!r}: the hidden deal is redacted")
        return None
    if not finished and check.divergence is not None:
        check = replace(check, divergence=_redacted(check.divergence))
    notes.append(check.summary())
    return check


def _key_problems(records: Sequence[Record]) -> list[Finding]:
    """Scheme 3: a game has one key: every event that shows it shows the same (event 1's, if it does)."""
    first: Any = None
    for r in records:
        key = r.meta.get("key")
        if key is None:
            continue
        if first is None:
            first = key
        elif key != first:
            message = "its key is not the game's: a game's group digests are all under one key"
            return [Finding("format", message, _int(r.version), r.line)]
    return []


def _result(name: str, finding: Finding | None, ok_detail: str) -> CheckResult:
    return CheckResult(name, "failed", str(finding)) if finding else CheckResult(name, "ok", ok_detail)


def _redacted(finding: Finding) -> Finding:
    """Findings of an unfinished game show no hidden field."""
    return Finding(
        finding.check,
        finding.message,
        finding.version,
        finding.line,
        finding.rule,
        public_fields(finding.expected) if finding.expected is not None else None,
        public_fields(finding.stored) if finding.stored is not None else None,
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- (1) the hash chain ----------------------------------------------------------------------------


def check_chain(records: Sequence[Record]) -> Finding | None:
    """The first event that is missing, out of place, altered or not linked to its predecessor."""
    if records and scheme_of(records[0].meta) in BATCHED:
        return _check_batches(records)
    present = {r.version for r in records}
    seen: dict[int, int] = {}
    by_hash: dict[str, int] = {}
    prev = ZERO_HASH
    for position, r in enumerate(records, start=1):
        if r.version != position:
            if r.version in seen:
                message = f"event {r.version} appears twice"
            elif position in present:
                message = f"event {r.version} is out of order: found where event {position} belongs"
            else:
                message = (
                    f"event {position} is missing: the log goes from event {position - 1} to {r.version}"
                )
            return Finding("chain", message, position, r.line)
        seen[r.version] = position
        meta = r.meta
        if event_hash(position, r.event, meta, r.sealed) != meta["hash"]:
            moved = _find_version(r, position)
            message = (
                f"this is event {moved}'s content: events were reordered, dropped or inserted"
                if moved
                else "altered: its content does not match its hash"
            )
            return Finding("chain", message, position, r.line, stored=dict(r.event))
        if meta["prev_hash"] != prev:
            origin = by_hash.get(meta["prev_hash"])
            message = (
                f"it follows event {origin} in the chain, not event {position - 1}: events were removed or "
                "reordered"
                if origin is not None
                else f"it does not follow event {position - 1}: an event before it was inserted, removed "
                "or re-hashed"
            )
            return Finding("chain", message, position, r.line)
        prev = meta["hash"]
        by_hash[prev] = position
    return None


def _misplaced(records: Sequence[Record], position: int, r: Record, seen: set[Any]) -> Finding:
    present = {x.version for x in records}
    if r.version in seen:
        message = f"event {r.version} appears twice"
    elif position in present:
        message = f"event {r.version} is out of order: found where event {position} belongs"
    else:
        message = f"event {position} is missing: the log goes from event {position - 1} to {r.version}"
    return Finding("chain", message, position, r.line)


def _check_batches(records: Sequence[Record]) -> Finding | None:
    """Schemes 2 and 3: events numbered 1..n; each batch's events agree on its audit fields and hash, and the
    hash recomputed over the batch (its number, the previous batch's hash, its audit fields, its events
    in order) is the stored one. A changed event is located to its batch: the command that caused it."""
    seen: set[Any] = set()
    for position, r in enumerate(records, start=1):
        if r.version != position:
            return _misplaced(records, position, r, seen)
        seen.add(r.version)
    prev = ""
    start = 0
    scheme = scheme_of(records[0].meta)
    while start < len(records):
        head = records[start]
        batch = head.meta["batch"]
        if batch != head.version:
            message = f"it names batch {batch} but follows the events of another batch, or begins one"
            return Finding("chain", message, head.version, head.line)
        end = start + 1
        while end < len(records) and records[end].meta["batch"] != records[end].version:
            end += 1
        group = records[start:end]
        audit = batch_audit(head.meta)
        for r in group[1:]:
            if r.meta["batch"] != batch:
                message = f"it names batch {r.meta['batch']} but lies in batch {batch}"
                return Finding("chain", message, r.version, r.line)
            if not _same(batch_audit(r.meta), audit) or r.meta["hash"] != head.meta["hash"]:
                message = f"its audit metadata or hash differs from the rest of its batch (event {batch})"
                return Finding("chain", message, r.version, r.line)
        digest = batch_hash(batch, prev, audit, [(r.event, r.meta, r.sealed) for r in group], scheme)
        if digest != head.meta["hash"]:
            last = group[-1].version
            span = f"events {batch}..{last}" if last > batch else f"event {batch}"
            message = (
                f"altered: the batch of {span} does not match its hash (one of its events, their order or "
                "its audit metadata was changed, or the hash of the batch before it)"
            )
            return Finding("chain", message, batch, head.line, stored=dict(head.event))
        prev = digest
        start = end
    return None


def _find_version(r: Record, position: int) -> int | None:
    """The version under which the record's content does verify, if near its position."""
    for version in range(max(1, position - HASH_SEARCH), position + HASH_SEARCH):
        if version != position and event_hash(version, r.event, r.meta, r.sealed) == r.meta["hash"]:
            return version
    return None


# -- (2) re-adjudication and (3) the fair deal -------------------------------------------------------


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    # Canonical bytes, not ==: in Python True == 1, in an audit they differ.
    return canonical(a) == canonical(b)


class Adjudicator:
    """Re-runs a game batch by batch through the rules engine and compares with the log."""

    def __init__(self, records: Sequence[Record]) -> None:
        self.records = records
        self.events: list[DomainEvent] = []
        self.notes: list[str] = []

    def run(self) -> Finding | None:
        for r in self.records:
            try:
                self.events.append(event_from_dict(r.event, r.meta.get("engine_version")))
            except ValueError as exc:
                self.events = []
                return self._finding(r.version - 1, f"cannot be read: {exc}")
        problem = self._check_shape()
        if problem:
            return problem
        engines = sorted({str(r.meta["engine_version"]) for r in self.records} - {ENGINE_VERSION})
        if engines:
            self.notes.append(
                f"recorded with engine {', '.join(engines)}, re-run with engine {ENGINE_VERSION}: a "
                "divergence may come from a change of the rules engine"
            )
        return self._replay()

    def _finding(self, index: int, message: str, **kw: Any) -> Finding:
        r = self.records[index]
        return Finding("adjudication", message, index + 1, r.line, **kw)

    def _check_shape(self) -> Finding | None:
        """Batches well formed; metadata that agrees with the game's rules (catalog and options)."""
        first = self.events[0]
        if not isinstance(first, GameStarted):
            return self._finding(0, f"a game begins with GameStarted, not {first.type}")
        catalog = {"edition": first.catalog_edition, "hash": first.catalog_hash}
        self.batches: list[tuple[int, int]] = []
        command_ids: dict[str, int] = {}  # since the last fork: a retry must never have been written twice
        for i, (r, e) in enumerate(zip(self.records, self.events, strict=True)):
            meta = r.meta
            if "catalog" in meta and (  # scheme 1: every event names the game's rules
                meta["catalog"] != catalog or meta["options_hash"] != options_hash(first.options)
            ):
                return self._finding(i, "its metadata names other rules (catalog or options) than the game's")
            opens = not self.batches or meta["batch"] != self.records[self.batches[-1][0]].meta["batch"]
            problem = (
                self._open_batch(i, meta, e, command_ids) if opens else self._extend_batch(i, meta)
            ) or self._check_place(i, e, meta["kind"], opens)
            if problem:
                return problem
        return None

    def _open_batch(
        self, i: int, meta: Mapping[str, Any], e: DomainEvent, command_ids: dict[str, int]
    ) -> Finding | None:
        """Event `i` begins a batch: numbered by it, and a command's ID not used since the last fork
        (`command_ids`, emptied by a fork)."""
        if meta["batch"] != i + 1:
            return self._finding(i, f"a batch must be numbered by its first event, not {meta['batch']}")
        self.batches.append((i, i + 1))
        if isinstance(e, GameForked):
            command_ids.clear()
        command_id = meta["command_id"]
        if meta["kind"] == "command" and command_id is not None:
            if command_id in command_ids:
                return self._finding(
                    i, f"command ID {command_id!r} was already used by event {command_ids[command_id]}"
                )
            command_ids[command_id] = i + 1
        return None

    def _extend_batch(self, i: int, meta: Mapping[str, Any]) -> Finding | None:
        """Event `i` continues the last batch: the same kind, actor, command and time as its first."""
        start_meta = self.records[self.batches[-1][0]].meta
        for key in ("kind", "actor", "command_id", "command", "received_at"):
            if not _same({key: meta[key]}, {key: start_meta[key]}):
                return self._finding(i, f"its {key} differs from the rest of its batch")
        self.batches[-1] = (self.batches[-1][0], i + 1)
        return None

    def _check_place(self, i: int, e: DomainEvent, kind: str, opens: bool) -> Finding | None:
        """GameStarted first and only first, the setup the first batch and only it, and GameForked
        exactly where a fork batch begins."""
        if isinstance(e, GameStarted) != (i == 0):
            return self._finding(i, "GameStarted must be the first event and only the first")
        if (kind == "setup") != (self.batches[-1][0] == 0):
            return self._finding(i, "only the first batch is the setup")
        if isinstance(e, GameForked) != (opens and kind == "fork"):
            return self._finding(i, "a fork batch, and only a fork batch, begins with GameForked")
        return None

    def _setup(self, command: Mapping[str, Any]) -> Setup:
        """The recorded setup, pinned to the game's rules edition (docs/editions.md): the engine rules
        version of its GameStarted, and its catalog edition where the setup named the current one."""
        first = self.events[0]
        assert isinstance(first, GameStarted)
        setup = setup_from_command(command, first.seed, first.salt)
        edition = first.catalog_edition if setup.catalog_edition in EDITION_ALIASES else setup.catalog_edition
        return replace(setup, catalog_edition=edition, engine_version=first.engine_version)

    def _redeals(self) -> list[int]:
        """Indices of the forks that re-dealt (the others kept the deal of a finished game)."""
        out: list[int] = []
        deal: GameStarted | GameForked | None = None
        for i, e in enumerate(self.events):
            if isinstance(e, GameStarted | GameForked):
                if (
                    isinstance(e, GameForked)
                    and deal is not None
                    and (e.seed != deal.seed or e.commitment != deal.commitment)
                ):
                    out.append(i)
                deal = e
        return out

    def _start_origin(self) -> tuple[bool, int | None]:
        """Whether GameStarted is the deal of its own seed (the game was never re-dealt); if not, the
        index of the re-dealing fork that rewrote it: the last fork whose rewrite of the copied events
        reproduces them, else the last whose rewrite reproduces GameStarted (its fork batch then reports
        the first copied event it does not reproduce, e.g. a forged re-deal of an opponent's stack)."""
        first = self.events[0]
        assert isinstance(first, GameStarted)
        try:
            ran = start_game(self._setup(self.records[0].meta["command"]))
            if _same(event_to_dict(ran[0]), self.records[0].event):
                return True, None
        except Exception:
            pass  # the setup batch's own check reports why
        started: int | None = None
        for k in range(len(self.events) - 1, 0, -1):
            e = self.events[k]
            if isinstance(e, GameForked) and (e.seed, e.salt) == (first.seed, first.salt):
                try:
                    whole = fork_events(self.events[:k], k, e.source_game, e.seed, e.salt)
                except Exception:
                    continue
                if all(_same(event_to_dict(whole[j]), self.records[j].event) for j in range(k + 1)):
                    return False, k
                if started is None and _same(event_to_dict(whole[0]), self.records[0].event):
                    started = k
        return False, started

    def _replay(self) -> Finding | None:
        self.original, self.anchor = self._start_origin()
        state: GameState | None = None
        n = len(self.events)
        for start_index, end in self.batches:
            meta = self.records[start_index].meta
            stored = self.events[start_index:end]
            try:
                if meta["kind"] == "table":
                    expected = self._table_batch(start_index, end)
                else:
                    expected = self._expected(meta, start_index, state)
            except IllegalMove as exc:
                return self._finding(
                    start_index,
                    f"the rules refuse the recorded command {_text(meta['command'])}: {exc.message}",
                    rule=exc.rule_id,
                    stored=self.records[start_index].event,
                )
            except _Divergence as exc:
                return exc.finding
            except Exception as exc:  # hostile data can make the engine fail anywhere
                return self._finding(start_index, f"the batch cannot be re-run: {type(exc).__name__}: {exc}")
            cut = end < n and isinstance(self.events[end], GameForked)  # a fork may cut the last batch
            problem = self._compare(start_index, end, expected, cut)
            if problem:
                return problem
            try:
                for e in stored:
                    state = evolve(state, e)
            except Exception as exc:
                return self._finding(start_index, f"cannot be applied: {type(exc).__name__}: {exc}")
        return None

    def _expected(self, meta: Mapping[str, Any], i: int, state: GameState | None) -> list[DomainEvent]:
        """What the rules produce for the batch that begins at event `i`, by its kind."""
        kind = meta["kind"]
        if kind == "setup":
            return self._setup_expected(meta)
        assert state is not None
        if kind == "command":
            return self._command_expected(meta, i, state)
        return self._fork_expected(i, state)

    def _setup_expected(self, meta: Mapping[str, Any]) -> list[DomainEvent]:
        """The recorded setup's start; or, after a re-deal, the start as it was rewritten."""
        first = self.events[0]
        assert isinstance(first, GameStarted)
        if not self.original and self.anchor is not None:
            # A re-dealing fork rewrote this start's deal; its fork batch checks that rewrite. What
            # follows GameStarted (a non-player opponent's own deal, SOLO-24) is what the setup
            # deals, as that fork re-dealt it.
            dealt = redealt_start(self._setup(meta["command"]), self.events[1 : self.batches[0][1]])
            return [first, *dealt, *settle(fold([first, *dealt]))[1]]
        return start(self._setup(meta["command"]))[1]

    def _command_expected(self, meta: Mapping[str, Any], i: int, state: GameState) -> list[DomainEvent]:
        """The recorded command decided, sent by the seat it is for (when a seat sent it)."""
        command = command_from_dict(meta["command"])
        actor = meta["actor"]
        if isinstance(actor, int) and actor != command.seat:
            raise _Divergence(
                self._finding(i, f"seat {actor} cannot have sent a command for seat {command.seat}")
            )
        return decide(state, command)

    def _fork_expected(self, i: int, state: GameState) -> list[DomainEvent]:
        """A fork copying the `i` events before it: an earlier re-deal as recorded (the last one's
        rewrite checks it), a fork of a finished game keeping the deal, or the last re-deal, whose
        rewrite of the copied events must be the recorded one."""
        forked = self.events[i]
        assert isinstance(forked, GameForked)
        if forked.source_version != i:
            raise _Divergence(
                self._finding(
                    i, f"the fork names source version {forked.source_version} but copies {i} events"
                )
            )
        if self.anchor is not None and i < self.anchor:
            # An earlier re-deal, rewritten by the last one: its deal is checked by that rewrite.
            return [forked, *settle(evolve(state, forked))[1]]
        if i != self.anchor:
            # A fork of a finished game: it keeps the deal.
            kept = kept_deal_fork(state, forked.source_game, i)
            return [kept, *settle(evolve(state, kept))[1]]
        whole = fork_events(self.events[:i], i, forked.source_game, forked.seed, forked.salt)
        self._check_rewrite(i, whole)
        return whole[i:]

    def _check_rewrite(self, i: int, whole: Sequence[DomainEvent]) -> None:
        """The re-dealing fork at event `i + 1` rewrites each copied event as recorded (else raises)."""
        for k in range(i):
            if not _same(event_to_dict(whole[k]), self.records[k].event):
                raise _Divergence(
                    self._finding(
                        k,
                        f"the fork at event {i + 1} does not rewrite the copied deal this way",
                        rule=event_to_dict(whole[k]).get("rule"),
                        expected=event_to_dict(whole[k]),
                        stored=self.records[k].event,
                    )
                )

    def _table_batch(self, i: int, end: int) -> list[DomainEvent]:
        """A table batch (docs/async.md) holds only the service's facts, taken as recorded; a take-back
        must be within its information horizon (ASYNC-7) and restore exactly the earlier state."""
        out: list[DomainEvent] = []
        for k in range(i, end):
            e = self.events[k]
            if not isinstance(e, TABLE_EVENTS):
                raise _Divergence(
                    self._finding(k, f"a table batch holds {e.type}: only the service's facts")
                )
            if isinstance(e, TakenBack):
                to = e.to_version
                if not 1 <= to < k:
                    raise _Divergence(self._finding(k, f"a take-back to version {to} is outside 1..{k}"))
                after = [
                    StoredEvent(j + 1, self.events[j], self.records[j].meta)
                    for j in range(to, k)
                    if not isinstance(self.events[j], TakeBackRequested | TakeBackAnswered)
                    or j < i  # this batch's own answer is part of the take-back
                ]
                problem = horizon_problem(after, e.seat, to)
                if problem is not None:
                    raise _Divergence(self._finding(k, problem.message, rule=problem.rule))
                e = taken_back(e.seat, fold(self.events[:to]), to)
            out.append(e)
        return out

    def _compare(self, i: int, end: int, expected: Sequence[DomainEvent], cut: bool) -> Finding | None:
        stored = self.records[i:end]
        command = _text(self.records[i].meta["command"])
        for k, (want, got) in enumerate(zip(expected, stored, strict=False)):
            want_dict = event_to_dict(want)
            if not _same(want_dict, got.event):
                if want_dict.get("type") != got.event.get("type"):
                    message = (
                        f"the rules produce {want_dict['type']} here, the log has {got.event.get('type')}"
                    )
                else:
                    fields = sorted(
                        key
                        for key in set(want_dict) | set(got.event)
                        if not _same({"v": want_dict.get(key)}, {"v": got.event.get(key)})
                    )
                    message = (
                        f"{want_dict['type']} differs from what the rules produce in {', '.join(fields)}"
                    )
                rule = want_dict.get("rule") or got.event.get("rule")
                return self._finding(
                    i + k, f"{message} (after {command})", rule=rule, expected=want_dict, stored=got.event
                )
        if len(stored) > len(expected):
            extra = stored[len(expected)].event
            return self._finding(
                i + len(expected),
                f"the rules produce no {extra.get('type')} here: {command} ends with the event before",
                rule=extra.get("rule"),
                stored=extra,
            )
        if len(stored) < len(expected) and not cut:
            missing = event_to_dict(expected[len(stored)])
            return self._finding(
                i + len(stored) - 1,
                f"the rules also produce {missing['type']} after this event ({command})",
                rule=missing.get("rule"),
                expected=missing,
            )
        return None

    def fairness(self) -> Finding | None:
        """(3) Every deal matches its commitment, every draw is the next card of the committed order,
        and the end reveals the deal behind the last commitment."""
        deal = _DealWatch(self._redeals())
        for i, e in enumerate(self.events):
            message = deal.see(i, e)
            if message is not None:
                return self._fair(i, message)
        return None

    def _fair(self, index: int, message: str) -> Finding:
        r = self.records[index]
        return Finding("fairness", message, index + 1, r.line, stored=r.event)


class _DealWatch:
    """The fair-deal check's walk over a game's events: the deal in force (the last GameStarted or
    GameForked), the cards drawn from its deck and its reserve, and the solo Tycho's committed Movement
    stack with the tiles shown of it. `see` checks one event against them and moves them on."""

    def __init__(self, redeals: list[int]) -> None:
        self.redeals = redeals  # the forks that re-dealt (the others keep the deal of a finished game)
        self.deal: GameStarted | GameForked | None = None
        self.drawn = {False: 0, True: 0}  # cards drawn from the deck (False) and the reserve (True)
        self.stack: tuple[str, ...] | None = None  # the solo Tycho's committed Movement stack
        self.shown = 0

    def see(self, i: int, e: DomainEvent) -> str | None:
        """What is unfair about event `i`, or None."""
        for kind, check in self._CHECKS:
            if isinstance(e, kind):
                return check(self, i, e)
        return None

    def _dealt(self, i: int, e: Any) -> str | None:
        """A deal (a start, or a fork that re-deals) matches its commitment and comes into force; a fork
        of a finished game keeps the deal in force."""
        if isinstance(e, GameForked) and self.deal is not None and i not in self.redeals:
            return self._kept(e, self.deal)
        committed = commitment_of(
            e.salt, tuple(e.deck), tuple(e.box), tuple(e.reserve), e.moon_hidden, e.character_deals
        )
        if committed != e.commitment:
            return "the commitment does not match the salt and the deal"
        self.deal, self.drawn = e, {False: 0, True: 0}
        return None

    def _kept(self, e: GameForked, deal: GameStarted | GameForked) -> str | None:
        """A fork of a finished game keeps the deal: it names what was left of it."""
        rest = (deal.seed, deal.salt, deal.commitment, deal.deck[self.drawn[False] :], deal.box)
        if (
            (e.seed, e.salt, e.commitment, e.deck, e.box) != rest
            or (e.reserve != deal.reserve[self.drawn[True] :] or e.moon_hidden != deal.moon_hidden)
            or e.character_deals != deal.character_deals
        ):
            return "the fork keeps the deal but its cards are not what was left of it"
        return None

    def _drawn(self, i: int, e: Any) -> str | None:
        """A card dealt or drawn face down is the next one of the committed deck or reserve."""
        if self.deal is None:
            return None
        pile = self.deal.reserve if e.from_reserve else self.deal.deck
        n = self.drawn[e.from_reserve]
        name = "reserve" if e.from_reserve else "deck"
        if n >= len(pile) or pile[n] != e.card:
            return f"the card drawn is not card {n + 1} of the committed {name}"
        self.drawn[e.from_reserve] = n + 1
        return None

    def _stacked(self, i: int, e: Any) -> str | None:
        """SOLO-24: Tycho's hidden Movement stack, committed with the deal's salt."""
        if self.deal is None:
            return None
        if stack_commitment(self.deal.salt, tuple(e.stack)) != e.commitment:
            return "the Movement stack does not match its commitment (SOLO-24)"
        self.stack, self.shown = tuple(e.stack), 0
        return None

    def _tile(self, i: int, e: Any) -> str | None:
        """A Movement tile revealed is the next one of the committed stack."""
        if self.stack is None:
            return None
        if self.shown < len(self.stack) and e.tile != self.stack[self.shown]:
            return f"the Movement tile revealed is not tile {self.shown + 1} of the committed stack"
        self.shown += 1
        return None

    def _stack_end(self, i: int, e: Any) -> str | None:
        """The end reveals the committed Movement stack."""
        if self.stack is not None and tuple(e.stack) != self.stack:
            return "the end reveals another Movement stack than the one committed (SOLO-24)"
        return None

    def _ended(self, i: int, e: Any) -> str | None:
        """The end reveals the seed and the deal behind the last commitment."""
        deal = self.deal
        if deal is None:
            return None
        committed_deal = (
            deal.seed, deal.salt, deal.deck, deal.box, deal.reserve, deal.moon_hidden, deal.character_deals,
        )  # fmt: skip
        if (e.seed, e.salt, e.deck, e.box, e.reserve, e.moon, e.character_deals) != committed_deal:
            return "the end reveals another seed or deal than the one committed"
        return None

    _CHECKS: tuple[tuple[type | UnionType, Callable[[_DealWatch, int, Any], str | None]], ...] = (
        (GameStarted | GameForked, _dealt),
        (CardDealt | CardDrawnFaceDown, _drawn),
        (OpponentDealt, _stacked),
        (MovementTileRevealed, _tile),
        (MovementStackRevealed, _stack_end),
        (GameEnded, _ended),
    )


# -- (4) re-adjudication under another edition (information) -------------------------------------------


@dataclass(frozen=True, slots=True)
class EditionCheck:
    """What the game would have been under another rules edition: the first divergence, if any."""

    catalog_edition: str  # the edition re-adjudicated under
    engine_version: str
    recorded_edition: str  # the game's own catalog edition and rules version
    recorded_engine: str
    divergence: Finding | None  # the first event the other edition produces differently (check "edition")

    @property
    def same(self) -> bool:
        return self.divergence is None

    def summary(self) -> str:
        under = f"under edition {self.catalog_edition} (rules {self.engine_version})"
        own = f"recorded under {self.recorded_edition} (rules {self.recorded_engine})"
        if self.divergence is None:
            return f"{under} the rules reproduce every event ({own})"
        d = self.divergence
        rule = f" [{d.rule}]" if d.rule else ""
        return f"{under} the game diverges at event {d.version}{rule}: {d.message} ({own}; information only)"

    def to_dict(self) -> dict[str, Any]:
        return {
            "catalog_edition": self.catalog_edition,
            "engine_version": self.engine_version,
            "recorded": {"catalog_edition": self.recorded_edition, "engine_version": self.recorded_engine},
            "same": self.same,
            "divergence": None if self.divergence is None else asdict(self.divergence),
        }


def readjudicate(records: Sequence[Record], edition: str = "current") -> EditionCheck | None:
    """Re-run a well-formed, complete game's recorded commands on its recorded deal under another catalog
    edition and this build's engine rules (`ENGINE_VERSION`); None if the log cannot be read."""
    adjudicator = Adjudicator(records)
    try:
        adjudicator.events = [event_from_dict(r.event, r.meta.get("engine_version")) for r in records]
    except ValueError:
        return None
    if adjudicator._check_shape() is not None:
        return None
    first = adjudicator.events[0]
    assert isinstance(first, GameStarted)
    catalog = load_catalog(edition)  # EditionUnknown for an edition this build does not have
    check = EditionCheck(catalog.edition, ENGINE_VERSION, first.catalog_edition, first.engine_version, None)
    # The same deal under the other edition: cards it does not have leave the box and the reserve (the
    # first reserve draw that differs is then a divergence); one in the display or the deck is one at once.
    known = set(catalog.cards)
    rebased = replace(
        first,
        catalog_edition=catalog.edition,
        catalog_hash=catalog.content_hash,
        engine_version=ENGINE_VERSION,
        box=tuple(c for c in first.box if c in known),
        reserve=tuple(c for c in first.reserve if c in known),
    )
    missing = sorted({*first.display, *first.deck} - known)
    if missing:
        message = (
            f"the recorded deal holds {', '.join(missing)}, which edition {catalog.edition} does not have"
        )
        return replace(check, divergence=Finding("edition", message, 1, records[0].line, first.rule))
    return replace(check, divergence=_diverge(adjudicator, rebased))


def _rebase_deal(event: DomainEvent, known: set[str]) -> DomainEvent:
    """A recorded deal (a fork's, or the one revealed at the end) without the cards another edition lacks."""
    if isinstance(event, GameEnded | GameForked):
        box = tuple(c for c in event.box if c in known)
        return replace(event, box=box, reserve=tuple(c for c in event.reserve if c in known))
    return event


def _opponent_deal(adj: Adjudicator, stored: Sequence[DomainEvent]) -> list[DomainEvent]:
    """The recorded events of a non-player opponent's own deal, after GameStarted in the setup batch
    (as many as its setup deals; none in a game without one)."""
    try:
        count = len(start_game(adj._setup(adj.records[0].meta["command"]))) - 1
    except Exception:  # a setup the rules refuse: the batch's comparison says where it diverges
        count = 0
    return list(stored[1 : 1 + count])


def _diverge(adj: Adjudicator, rebased: GameStarted) -> Finding | None:
    """The first event that the rules, under the rebased deal's edition, produce otherwise than the
    log, batch by batch (or None): a command they refuse, a batch they cannot re-run, an event they
    produce differently, or recorded events they cannot apply."""
    records, events = adj.records, adj.events
    state: GameState | None = None
    for start_index, end in adj.batches:
        meta = records[start_index].meta
        stored = _rebased_batch(events[start_index:end], rebased, start_index == 0)
        expected = _rerun(adj, start_index, stored, rebased, state)
        if isinstance(expected, Finding):
            return expected
        cut = end < len(events) and isinstance(events[end], GameForked)
        divergence = _first_difference(records, start_index, meta, expected, stored, cut)
        if divergence is not None:
            return divergence
        # The events as these rules write them (with their grants), equal to the stored ones otherwise.
        applied = expected[: len(stored)] if len(expected) >= len(stored) else stored
        after = _apply(records[start_index], start_index, state, applied)
        if isinstance(after, Finding):
            return after
        state = after
    return None


def _rebased_batch(batch: Sequence[DomainEvent], rebased: GameStarted, first: bool) -> list[DomainEvent]:
    """A batch's recorded events with their deals rebased on the other edition (GameStarted the
    rebased one itself: the same deal, under the other edition)."""
    known = set(load_catalog(rebased.catalog_edition).cards)
    stored = [_rebase_deal(e, known) for e in batch]
    if first:
        stored[0] = rebased
    return stored


def _rerun(
    adj: Adjudicator,
    start_index: int,
    stored: Sequence[DomainEvent],
    rebased: GameStarted,
    state: GameState | None,
) -> list[DomainEvent] | Finding:
    """What these rules produce for the batch, or the finding of a command they refuse or of a deal or
    position the other edition cannot play."""
    record = adj.records[start_index]
    meta = record.meta
    try:
        return _edition_expected(adj, meta, stored, rebased, state)
    except IllegalMove as exc:
        return Finding(
            "edition",
            f"these rules refuse the recorded command {_text(meta['command'])}: {exc.message}",
            start_index + 1,
            record.line,
            exc.rule_id,
            stored=record.event,
        )
    except Exception as exc:  # a deal or position the other edition cannot play
        return Finding(
            "edition",
            f"the batch cannot be re-run: {type(exc).__name__}: {exc}",
            start_index + 1,
            record.line,
        )


def _edition_expected(
    adj: Adjudicator,
    meta: Mapping[str, Any],
    stored: Sequence[DomainEvent],
    rebased: GameStarted,
    state: GameState | None,
) -> list[DomainEvent]:
    """The events of a batch by its kind: the setup deals the rebased start (and the same deal of a
    non-player opponent, SOLO-24); a command is decided; a fork or a table batch is taken as recorded,
    with what settles after it."""
    if meta["kind"] == "setup":
        dealt = _opponent_deal(adj, stored)
        return [rebased, *dealt, *settle(fold([rebased, *dealt]))[1]]
    if meta["kind"] == "command":
        assert state is not None
        return decide(state, command_from_dict(meta["command"]))
    return [stored[0], *settle(evolve(state, stored[0]))[1]]


def _first_difference(
    records: Sequence[Record],
    start_index: int,
    meta: Mapping[str, Any],
    expected: Sequence[DomainEvent],
    stored: Sequence[DomainEvent],
    cut: bool,
) -> Finding | None:
    """The first event of the batch that differs between what these rules produce and the log (a
    batch cut by a fork may stop early)."""
    for k in range(max(len(expected), len(stored))):
        got = event_to_dict(stored[k]) if k < len(stored) else None
        want = _without_missing_grants(event_to_dict(expected[k]) if k < len(expected) else None, got)
        if want is None and cut:
            break
        if want is not None and got is not None and _same(want, got):
            continue
        return _divergence_at(records, start_index + min(k, len(stored) - 1), meta, want, got)
    return None


def _divergence_at(
    records: Sequence[Record],
    index: int,
    meta: Mapping[str, Any],
    want: dict[str, Any] | None,
    got: dict[str, Any] | None,
) -> Finding:
    """The edition finding at event `index`: how the events differ, after which command, and the rule
    of the event these rules produce (else of the recorded one)."""
    rule = (want or {}).get("rule") or (got or {}).get("rule")
    return Finding(
        "edition",
        f"{_difference(want, got)} (after {_text(meta['command'])})",
        index + 1,
        records[index].line,
        rule,
        expected=want,
        stored=records[index].event if got is not None else None,
    )


def _without_missing_grants(want: dict[str, Any] | None, got: dict[str, Any] | None) -> dict[str, Any] | None:
    """A rules-0.1.0 event recorded no grants (docs/editions.md): what it granted shows in the events
    that follow, so the rest of the event is compared, and a different grant diverges there."""
    if want is not None and got is not None and "grants" in want and "grants" not in got:
        return {key: value for key, value in want.items() if key != "grants"}
    return want


def _difference(want: Mapping[str, Any] | None, got: Mapping[str, Any] | None) -> str:
    """How the event these rules produce (`want`) and the recorded one (`got`) differ, in words."""
    if want is None:
        return f"these rules produce no {got and got['type']} here"
    if got is None:
        return f"these rules also produce {want['type']} here"
    if want["type"] != got["type"]:
        return f"these rules produce {want['type']} here, the log has {got['type']}"
    fields = sorted(k for k in set(want) | set(got) if not _same({"v": want.get(k)}, {"v": got.get(k)}))
    return f"{want['type']} differs in {', '.join(fields)}"


def _apply(
    record: Record, start_index: int, state: GameState | None, applied: Sequence[DomainEvent]
) -> GameState | Finding | None:
    """The state after the batch's events, or the finding of events these rules cannot apply."""
    try:
        for e in applied:
            state = evolve(state, e)
    except Exception as exc:
        return Finding(
            "edition",
            f"the recorded events cannot be applied: {type(exc).__name__}: {exc}",
            start_index + 1,
            record.line,
        )
    return state


class _Divergence(Exception):
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def _text(command: Mapping[str, Any]) -> str:
    text = command.get("text")
    if isinstance(text, str):
        return repr(text)
    return str(command.get("type", "command"))
