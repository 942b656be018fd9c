"""Writing in the library (digest §10): Partial writing step by step, Complete writing.

How a Book token is written along its row (WRT-2..6, AMB-8, AMB-9) is here, whole: the options and
checks of the `WRITE`, `WC` and `COMPLETE` effects (`WriteStep`, `StopWriting`, `WriteComplete`), what
each command emits, how `BookTokenMoved`, `CompleteWritingStarted` and `WritingStopped` apply and what a
moved Book token grants (the reward of the space it reaches, WRT-4). What a library space's reward is
(`domain.grants.library_reward`, which a character may cover) stays with the other rewards: an
expansion reads it too.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import push, reward_tasks
from domain.errors import IllegalMove
from domain.evolve import _Misfit, _set_agenda, _set_players_agenda, resolved, seated
from domain.grants import library_reward
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, PlayerState, Task, changer, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

_seat_books = changer(PlayerState, "books")  # the replay path's copy of a seat whose Book token moved


def library_end(s: GameState, seat: int) -> int:
    """WRT-2/WRT-6: the last space of every row, 1 + the cards in the library."""
    return 1 + len(s.players[seat].library)


def row_check(s: GameState, seat: int, row: int) -> IllegalMove | None:
    """A Book token that can move one more space (LIB-3, WRT-6)."""
    books = s.players[seat].books
    if not 0 <= row < len(books):
        return IllegalMove("bad-row", "library rows are R1..R{n_books}", "LIB-3", n_books=len(books))
    end = library_end(s, seat)
    if books[row] >= end:
        return IllegalMove("row-end", "that Book token is at the end of its row ({end})", "WRT-6", end=end)
    return None


# -- a Book token moved (WRT-2..4) ----------------------------------------------------------------


@RULES.event(ev.BookTokenMoved, pushes=True)
def _book_moved(s: GameState, e: ev.BookTokenMoved, grants: Sequence[Task]) -> GameState:
    p = s.players[e.seat]
    books = list(p.books)
    books[e.row] = e.end
    agenda = s.agenda
    top = agenda[-1] if agenda else None
    if top is not None and top.kind == "WRITE":
        agenda = agenda[:-1] + ((replace(top, n=top.n - 1),) if top.n > 1 else ())
    elif top is not None and top.kind == "COMPLETE":
        agenda = agenda[:-1] if e.end >= top.n else agenda
    else:
        raise _Misfit(f"expected a pending WRITE or COMPLETE effect, found {top.kind if top else 'nothing'}")
    players = seated(s, e.seat, _seat_books(p, tuple(books)))
    return _set_players_agenda(s, players, push(agenda, grants))  # WRT-4: the space's reward is a grant


@RULES.grant_ahead(ev.BookTokenMoved)
def _grants_book_moved(before: GameState, e: ev.BookTokenMoved) -> list[Task]:
    # the token moves; the library whose space it reaches does not
    return reward_tasks(
        library_reward(before, before.players[e.seat], e.row, e.end), "library", before.rules.reward_codes
    )  # WRT-4


@RULES.event(ev.WritingStopped, "WRITE", "COMPLETE")
def _writing_stopped(s: GameState, e: ev.WritingStopped) -> GameState:
    return _set_agenda(s, resolved(s, e))  # AMB-8, WRT-6


# -- Partial writing (WRT-3, AMB-8) ---------------------------------------------------------------


def write_options(s: GameState, seat: int, exact: bool) -> list[c.Command]:
    end = library_end(s, seat)
    rows = [r for r, p in enumerate(s.players[seat].books) if p < end]
    out: list[c.Command] = [c.WriteStep(seat=seat, row=r) for r in rows]
    if out and not exact:  # AMB-8: up to N steps
        out.append(c.StopWriting(seat=seat))
    return out


def write_check(s: GameState, cmd: c.Command, exact: bool) -> IllegalMove | None:
    """The check of `write_options`."""
    if isinstance(cmd, c.WriteStep):
        return row_check(s, cmd.seat, cmd.row)
    if not isinstance(cmd, c.StopWriting):
        return IllegalMove("pending-decision", "first move a Book token", "RES-1")
    if exact:
        return IllegalMove(
            "write-exact", "partialWritingExact: all steps must be used while possible", "AMB-8"
        )
    if all(row_check(s, cmd.seat, r) for r in range(len(s.players[cmd.seat].books))):
        return IllegalMove("nothing-to-write", "no Book token can move: the writing is lost", "WRT-6")
    return None


@RULES.command(c.WriteStep)
def _write_step(run: Run, cmd: c.WriteStep, task: Task | None) -> None:
    start = run.state.players[cmd.seat].books[cmd.row]
    run.emit(ev.BookTokenMoved(seat=cmd.seat, row=cmd.row, start=start, end=start + 1, rule="WRT-3"))


@RULES.command(c.StopWriting)
def _stop_writing(run: Run, cmd: c.StopWriting, task: Task | None) -> None:
    run.emit(ev.WritingStopped(seat=cmd.seat, unused=task.n if task is not None else 0))


# -- Complete writing (WRT-2, WRT-6, AMB-9) -------------------------------------------------------


def _complete(s: GameState, task: Task, seat: int) -> list[c.Command]:
    end = library_end(s, seat)
    return [c.WriteComplete(seat=seat, row=r) for r, b in enumerate(s.players[seat].books) if b < end]


def _complete_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `_complete`."""
    if not isinstance(cmd, c.WriteComplete):
        return IllegalMove("pending-decision", "first choose the row of the Complete writing", "RES-1")
    return row_check(s, cmd.seat, cmd.row)


@RULES.command(c.WriteComplete)
def _write_complete(run: Run, cmd: c.WriteComplete, task: Task | None) -> None:
    target = library_end(run.state, cmd.seat)
    run.emit(ev.CompleteWritingStarted(seat=cmd.seat, row=cmd.row, target=target))


@RULES.event(ev.CompleteWritingStarted, "WC")
def _complete_started(s: GameState, e: ev.CompleteWritingStarted) -> GameState:
    return _set_agenda(s, (*resolved(s, e), Task("COMPLETE", e.target, str(e.row))))


def _step(run: Emitter, task: Task) -> None:
    """One step of a Complete writing (WRT-2); a nested writing may have reached the end (WRT-6)."""
    seat = run.state.turn.seat
    row = int(task.arg)
    start = run.state.players[seat].books[row]
    if start >= task.n:
        run.emit(ev.WritingStopped(seat=seat, unused=0, rule="WRT-6"))
    else:
        run.emit(ev.BookTokenMoved(seat=seat, row=row, start=start, end=start + 1, rule="WRT-2"))


RULES.effect(
    EffectKind(
        "WRITE",
        "Partial writing (step a Book token or stop)",
        __name__,
        (c.WriteStep, c.StopWriting),
        lambda s, task, seat: write_options(s, seat, s.options.partial_writing_exact),
        lambda s, task, cmd: write_check(s, cmd, s.options.partial_writing_exact),
        ("no Book token can move further", "WRT-6"),
    ),
    EffectKind(
        "WC",
        "Complete writing (choose a row)",
        __name__,
        (c.WriteComplete,),
        _complete,
        _complete_check,
        ("every Book token is at the end of its row", "AMB-9"),
    ),
    EffectKind(
        "COMPLETE",
        "move the Book token of a Complete writing one more space (WRT-2)",
        __name__,
        resolve=_step,
    ),
)
