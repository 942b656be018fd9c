"""The Inquisition (digest §12): persuading Inquisitors, gaining them, the Farewell."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.moves import persuade_check, persuade_options
from domain.ruleset import Rules
from domain.scoring import on_rightmost
from domain.state import GameState, Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def _farewell(s: GameState, task: Task, seat: int) -> list[c.Command]:
    p = s.players[seat]
    if on_rightmost(s, p):  # INQ-16
        return [c.Farewell(seat=seat, accept=True), c.Farewell(seat=seat, accept=False)]
    return []


def _farewell_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `_farewell`."""
    if not isinstance(cmd, c.Farewell):
        return IllegalMove("pending-decision", "first take or decline the Farewell", "RES-1")
    p = s.players[cmd.seat]
    if not on_rightmost(s, p):
        return IllegalMove("no-farewell", "no Inquisitor of yours is on the rightmost space", "INQ-16")
    if cmd.accept not in (True, False):
        return IllegalMove("bad-answer", "take the Farewell: yes or no", "INQ-16")
    return None


RULES.effect(
    EffectKind(
        "PER",
        "Persuade (choose an Inquisitor)",
        __name__,
        (c.Persuade,),
        lambda s, task, seat: persuade_options(s, seat),
        lambda s, task, cmd: persuade_check(s, cmd),
        ("no Inquisitor in the cellar can be persuaded", "INQ-11"),
    ),
    EffectKind(
        "FW",
        "Inquisitor's Farewell (accept or decline)",
        __name__,
        (c.Farewell,),
        _farewell,
        _farewell_check,
        ("no Inquisitor on the rightmost cellar space", "INQ-16"),
    ),
    EffectKind(
        "INQ",
        "gain an Inquisitor (INQ-3)",
        __name__,
        resolve=lambda run, task: run.emit(ev.InquisitorGained(seat=run.state.turn.seat)),
    ),
)
