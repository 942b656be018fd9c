"""Writing in the library (digest §10): Partial writing step by step, Complete writing."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter
from domain.errors import IllegalMove
from domain.moves import library_end, row_check, write_check, write_options
from domain.ruleset import Rules
from domain.state import GameState, Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def _step(run: Emitter, task: Task) -> None:
    """One step of a Complete writing (WRT-2); a nested writing may have reached the end (WRT-6)."""
    seat = run.state.turn.seat
    row = int(task.arg)
    start = run.state.players[seat].books[row]
    if start >= task.n:
        run.emit(ev.WritingStopped(seat=seat, unused=0, rule="WRT-6"))
    else:
        run.emit(ev.BookTokenMoved(seat=seat, row=row, start=start, end=start + 1, rule="WRT-2"))


def _complete(s: GameState, task: Task, seat: int) -> list[c.Command]:
    end = library_end(s, seat)
    return [c.WriteComplete(seat=seat, row=r) for r, b in enumerate(s.players[seat].books) if b < end]


def _complete_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `_complete`."""
    if not isinstance(cmd, c.WriteComplete):
        return IllegalMove("pending-decision", "first choose the row of the Complete writing", "RES-1")
    return row_check(s, cmd.seat, cmd.row)


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
