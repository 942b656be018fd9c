"""The table's requests as batches of events (docs/async.md): take-backs with their information
horizon (ASYNC-6/7), resignation and hand-overs (ASYNC-2/3), re-issued links (ASYNC-9), clocks
(ASYNC-1/4/5), cancellation (ASYNC-8). Each `*_batch` function returns the `build(game, now)` that
`Games.table` calls with the game as it is at that moment, so every check runs against the version
that is written.

This module holds no rules of the game: it asks the engine for the earlier state (`fold`) and reads
the log; the horizon check is shared with verification (`horizon_problem`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from domain import Event, fold
from domain import events as ev
from domain.opponents import opponent_at
from domain.takeback import reveals, taken_back
from replays.clock import ClockConfig, compute
from replays.errors import TableRefused
from replays.records import BOT, StoredEvent
from replays.store import Game

Build = Callable[[Game, datetime], Sequence[Event]]
TAKEBACK_TIMEOUT = timedelta(days=1)
# ASYNC-7: take-backs (and requests for one) per turn, all seats together: each move and take-back adds
# to the log, so without a bound one seat could grow a game for ever without the turn moving on.
TAKEBACKS_PER_TURN = 4


def _playing(game: Game) -> None:
    assert game.state is not None
    if game.cancelled:
        raise TableRefused("game-cancelled", "the table's host cancelled this game", "ASYNC-8")
    if game.state.finished:
        raise TableRefused("game-over", "the game has ended", "END-2")


def turn_start(game: Game) -> int:
    """The version at which the current turn began (its clock mark)."""
    marks: list[Sequence[Any]] = [m for m in game.clock_log if m[0] == "turn"]
    return int(marks[-1][1]) if marks else 1


# -- take-backs ---------------------------------------------------------------------------------------


def standing(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """`events` (in order) without what a take-back among them undid: a `TakenBack` removes the events
    after its `to_version`, and itself. What is left is the line the game stands on."""
    out: list[StoredEvent] = []
    for stored in events:
        if isinstance(stored.event, ev.TakenBack):
            to = stored.event.to_version
            out = [s for s in out if s.version <= to]
        else:
            out.append(stored)
    return out


def horizon_problem(after: Sequence[StoredEvent], seat: int, to_version: int) -> TableRefused | None:
    """Why the events after `to_version` (`after`, in order) cannot be taken back by `seat`, or None.

    ASYNC-7: only the seat's own commands, with nothing hidden revealed since and nobody else acting;
    the first of them must be a command of the seat that begins right after `to_version`. What an
    earlier take-back undid no longer counts (`standing`): a seat may take back again and again."""
    if not after:
        return TableRefused("nothing-to-take-back", "there is nothing after that version", "ASYNC-7")
    first = after[0]
    if first.version != to_version + 1 or first.metadata.get("batch") != first.version:
        return TableRefused(
            "bad-take-back-point", f"version {to_version} is not where a command began", "ASYNC-7"
        )
    if first.metadata.get("kind") != "command" or first.metadata["command"].get("seat") != seat:
        return TableRefused(
            "not-your-command", f"event {first.version} was not caused by a command of seat {seat}", "ASYNC-7"
        )
    if not standing(after):
        return TableRefused("nothing-to-take-back", "what came after that version is taken back", "ASYNC-7")
    for stored in standing(after):
        meta, event = stored.metadata, stored.event
        if meta.get("kind") == "command" and meta["command"].get("seat") != seat:
            return TableRefused(
                "another-seat-acted",
                f"seat {meta['command'].get('seat')} has acted since (event {stored.version})",
                "ASYNC-7",
            )
        if meta.get("kind") not in ("command", "table"):
            return TableRefused(
                "past-the-horizon", f"event {stored.version} began a new game line", "ASYNC-7"
            )
        if reveals(event):
            return TableRefused(
                "past-the-horizon",
                f"{event.type} (event {stored.version}) revealed something hidden since",
                "ASYNC-7",
            )
        if isinstance(event, ev.TurnEnded):
            return TableRefused(
                "turn-over", f"the turn ended at event {stored.version}: only the current turn", "ASYNC-7"
            )
        if isinstance(event, ev.SeatHandedOver | ev.GameCancelled):
            return TableRefused(
                "past-the-horizon", f"{event.type} (event {stored.version}) came since", "ASYNC-7"
            )
    return None


def command_starts(events: Sequence[StoredEvent], seat: int) -> list[int]:
    """The versions just before each of the seat's commands that still stand in `events`."""
    return [
        s.version - 1
        for s in standing(events)
        if s.metadata.get("batch") == s.version
        and s.metadata.get("kind") == "command"
        and s.metadata["command"].get("seat") == seat
    ]


def _target(events: Sequence[StoredEvent], seat: int, to_version: int | None) -> int:
    """The version to return to: `to_version`, or before the seat's last command of the turn."""
    if to_version is not None:
        return to_version
    starts = command_starts(events, seat)
    if not starts:
        raise TableRefused("nothing-to-take-back", f"seat {seat} has no command this turn", "ASYNC-7")
    return starts[-1]


def takebacks_made(events: Sequence[StoredEvent]) -> int:
    """The take-backs and take-back requests among `events`: a request, and a take-back made alone; a
    take-back that an acceptance made (right after its `TakeBackAnswered`) is its request's."""
    made = 0
    for i, stored in enumerate(events):
        if isinstance(stored.event, ev.TakeBackRequested):
            made += 1
        elif isinstance(stored.event, ev.TakenBack):
            made += not (i > 0 and isinstance(events[i - 1].event, ev.TakeBackAnswered))
    return made


def check_takeback(
    read: Callable[[int], list[StoredEvent]], game: Game, seat: int, to: int | None, new: bool = False
) -> int:
    """The version `seat` may take back to (`to`, or before its last command), or the refusal.
    `new`: a new take-back or request, which must also fit the turn's budget (ASYNC-7)."""
    _playing(game)
    start = turn_start(game)
    events = read(start)
    if new:
        made = takebacks_made(events)
        if made >= TAKEBACKS_PER_TURN:
            raise TableRefused(
                "take-back-limit",
                f"this turn has had {made} take-backs or requests, the most a turn may have",
                "ASYNC-7",
            )
    target = _target(events, seat, to)
    if target < start:
        raise TableRefused("turn-over", f"version {target} is before the current turn ({start})", "ASYNC-7")
    if target >= game.version:
        raise TableRefused("nothing-to-take-back", f"version {target} is the game's present", "ASYNC-7")
    problem = horizon_problem([s for s in events if s.version > target], seat, target)
    if problem is not None:
        raise problem
    return target


def restart_target(read: Callable[[int], list[StoredEvent]], game: Game, seat: int) -> int | None:
    """"Restart my turn": the earliest version of the current turn the seat may take back to (before
    its first command of the turn that still stands, when the horizon allows; ASYNC-7), or None."""
    _playing(game)
    start = turn_start(game)
    events = read(start)
    for target in command_starts(events, seat):
        if target < start:
            continue
        try:
            return check_takeback(read, game, seat, target)
        except TableRefused:
            continue
    return None


def request_batch(
    read: Callable[[int], list[StoredEvent]],
    seat: int,
    to_version: int | None,
    others: Sequence[int],
    timeout: timedelta = TAKEBACK_TIMEOUT,
) -> Build:
    """ASYNC-6: take back at once when the seat is the only person; else ask the others."""

    def build(game: Game, now: datetime) -> list[Event]:
        if game.pending is not None and not _lapsed(game.pending, now):
            raise TableRefused("take-back-pending", "a take-back request is already open", "ASYNC-6")
        target = check_takeback(read, game, seat, to_version, new=True)
        if not others:
            return [taken_back(seat, _state_at(read, target), target)]
        expires = (now + timeout).isoformat()
        return [ev.TakeBackRequested(seat=seat, to_version=target, expires_at=expires)]

    return build


def _lapsed(pending: Mapping[str, Any], now: datetime) -> bool:
    return now >= datetime.fromisoformat(str(pending["expires_at"]))


def answer_batch(
    read: Callable[[int], list[StoredEvent]], seat: int, accept: bool, others: Sequence[int]
) -> Build:
    """ASYNC-6: another person accepts or declines; the last acceptance takes back."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        pending = game.pending
        if pending is None:
            raise TableRefused("no-take-back-request", "no take-back request is open", "ASYNC-6")
        if _lapsed(pending, now):
            raise TableRefused(
                "take-back-lapsed", f"the take-back request lapsed at {pending['expires_at']}", "ASYNC-6"
            )
        asker = int(pending["seat"])
        if seat == asker or seat not in others:
            raise TableRefused("not-asked", f"seat {seat} is not asked to answer this request", "ASYNC-6")
        if str(seat) in pending["answers"]:
            raise TableRefused("already-answered", f"seat {seat} has answered already", "ASYNC-6")
        answer = ev.TakeBackAnswered(seat=seat, accepted=accept)
        if not accept:
            return [answer]
        accepted = {int(k) for k, v in pending["answers"].items() if v} | {seat}
        if not set(others) - {asker} <= accepted:
            return [answer]
        target = int(pending["to_version"])
        check_takeback(read, game, asker, target)  # still within the horizon
        return [answer, taken_back(asker, _state_at(read, target), target)]

    return build


def _state_at(read: Callable[[int], list[StoredEvent]], version: int) -> Any:
    return fold([s.event for s in read(1) if s.version <= version])


# -- seats, clocks and the game -------------------------------------------------------------------------

PERSON, NOBODY, OPPONENT = "person", "nobody", "opponent"


@dataclass(frozen=True, slots=True)
class Player:
    """Who plays a seat now (docs/async.md): `by` is "person", "bot", "forfeit" (frozen, ASYNC-3),
    "opponent" (the solo Tycho, whose own rules play it: SOLO-27) or "nobody" (a game made by
    `galileo new` whose seat has no link yet); `bot` is the bot's kind when a bot plays it."""

    by: str
    bot: str | None = None

    @property
    def server(self) -> bool:
        """The server plays the seat (a bot, a frozen seat, the opponent): it takes no person's link."""
        return self.by not in (PERSON, NOBODY)


class SeatRow(Protocol):
    """A seat as it was made (api/seats.py `Seat`): its kind (`HUMAN` or `BOT`) and the bot's kind."""

    @property
    def kind(self) -> str: ...

    @property
    def bot(self) -> str | None: ...


def player(game: Game, seat: int, row: SeatRow | None) -> Player:
    """Who plays `seat` of `game`: the opponent's own rules, else the last hand-over (ASYNC-3), else the
    seat as it was made (`row`; None when it has none)."""
    assert game.state is not None
    if opponent_at(game.state, seat) is not None:
        return Player(OPPONENT)
    handed = game.handed.get(str(seat))
    if handed:
        return Player(handed[0], handed[1] or None)
    if row is None:
        return Player(NOBODY)
    return Player(BOT, row.bot) if row.kind == BOT else Player(PERSON)


def closed_request(game: Game, seat: int, reason: str, now: datetime) -> list[Event]:
    """ASYNC-6: a resignation, time-out or hand-over of `seat` closes the open take-back request (a fact
    of the log): the people it asked change, so it would otherwise block new requests until it lapsed.
    A lapsed request is closed by its lapse already."""
    pending = game.pending
    if pending is None or _lapsed(pending, now):
        return []
    return [ev.TakeBackClosed(seat=int(pending["seat"]), by_seat=seat, reason=reason)]


def frozen_if_forfeit(seat: int, policy: str) -> list[Event]:
    """ASYNC-3: a forfeited seat's score is frozen and its turns skipped (domain/forfeit.py)."""
    return [ev.SeatFrozen(seat=seat)] if policy == "forfeit" else []


def resign_batch(seat: int, policy: str, bot: str) -> Build:
    """ASYNC-2: the seat resigns; a bot takes it over or it forfeits, frozen (the game's policy)."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        if str(seat) in game.handed:
            raise TableRefused("seat-handed-over", f"seat {seat} is no longer a person's", "ASYNC-3")
        return [
            ev.SeatResigned(seat=seat, policy=policy),
            ev.SeatHandedOver(seat=seat, to=policy, bot=bot if policy == "bot" else "", reason="resigned"),
            *closed_request(game, seat, "resigned", now),
            *frozen_if_forfeit(seat, policy),
        ]

    return build


def handover_batch(seat: int, to: str, bot: str) -> Build:
    """ASYNC-3: the host hands the seat to a bot or to a new person."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        assert game.state is not None
        if not 0 <= seat < len(game.state.players):
            raise TableRefused("no-such-seat", f"the game has no seat {seat}", "ASYNC-3", status=422)
        return [
            ev.SeatHandedOver(seat=seat, to=to, bot=bot if to == "bot" else "", reason="host"),
            *closed_request(game, seat, "host", now),
        ]

    return build


def unrevoked(build: Build, seat: int, seen: int) -> Build:
    """ASYNC-9: `build` of a seat's request whose token was looked up when the game was at version
    `seen` or later; refused (401 `link-reissued`) when the seat was taken from that token after it (the
    host's re-issue stored between the lookup and this write), so a revoked token writes nothing."""

    def checked(game: Game, now: datetime) -> Sequence[Event]:
        at = game.revoked.get(str(seat), 0)
        if at > seen:
            raise TableRefused(
                "link-reissued",
                f"the table's host took seat {seat} from this token (event {at}) before the request "
                "could be stored",
                "ASYNC-9",
                401,
            )
        return build(game, now)

    return checked


def reissue_batch(seat: int) -> Build:
    """ASYNC-9: the host re-issues a person's seat link (the new token is stored with the event)."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        assert game.state is not None
        if not 0 <= seat < len(game.state.players):
            raise TableRefused("no-such-seat", f"the game has no seat {seat}", "ASYNC-3", status=422)
        return [ev.SeatLinkReissued(seat=seat)]

    return build


def expiry_batch(config: ClockConfig, seat: int, turn_version: int, people: Sequence[int]) -> Build:
    """ASYNC-1: the seat's clock ran out in the turn that began at `turn_version`. Rechecked against
    the game as it is: a move in time, a pause or a second process's expiry makes it a no-op."""

    def build(game: Game, now: datetime) -> list[Event]:
        if game.cancelled or game.state is None or game.state.finished:
            return []
        view = compute(config, game.clock_log, len(game.state.players), now)
        if (
            view.seat != seat
            or view.turn_version != turn_version
            or view.deadline is None
            or now < view.deadline
            or seat not in people
            or str(seat) in game.handed
        ):
            return []
        policy = config.policy
        return [
            ev.TimeExpired(seat=seat, policy=policy, deadline=view.deadline.isoformat()),
            ev.SeatHandedOver(seat=seat, to=policy, bot=config.bot if policy == "bot" else "", reason="time"),
            *closed_request(game, seat, "time", now),
            *frozen_if_forfeit(seat, policy),
        ]

    return build


def pause_batch(seat: int, people: Sequence[int]) -> Build:
    """ASYNC-4: a person asks to pause; when every person has asked, the clocks stop."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        if any(m[0] == "pause" for m in _since_resume(game.clock_log)):
            raise TableRefused("clock-paused", "the clocks are paused already", "ASYNC-4")
        if seat in game.pause_votes:
            raise TableRefused("already-asked", f"seat {seat} has asked to pause already", "ASYNC-4")
        out: list[Event] = [ev.ClockPauseRequested(seat=seat)]
        if set(people) <= {*game.pause_votes, seat}:
            out.append(ev.ClockPaused(seat=None))
        return out

    return build


def _since_resume(log: Sequence[Sequence[Any]]) -> list[Sequence[Any]]:
    out: list[Sequence[Any]] = []
    for m in log:
        if m[0] == "resume":
            out = []
        elif m[0] == "pause":
            out.append(m)
    return out


def resume_batch(by: str) -> Build:
    """ASYNC-4: any person (or the host) starts the paused clocks again."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        if not _since_resume(game.clock_log):
            raise TableRefused("clock-running", "the clocks are not paused", "ASYNC-4")
        return [ev.ClockResumed(seat=None, by=by)]

    return build


def extend_batch(seat: int, seconds: int) -> Build:
    """ASYNC-5: the host gives a seat more time."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        assert game.state is not None
        if not 0 <= seat < len(game.state.players):
            raise TableRefused("no-such-seat", f"the game has no seat {seat}", "ASYNC-5", status=422)
        return [ev.ClockExtended(seat=seat, seconds=seconds)]

    return build


def cancel_batch() -> Build:
    """ASYNC-8: the host cancels the game."""

    def build(game: Game, now: datetime) -> list[Event]:
        _playing(game)
        return [ev.GameCancelled(seat=None)]

    return build
