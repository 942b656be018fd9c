"""Dice (digest §6): gaining, raising, recolouring, and raising every die of a colour."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter
from domain.errors import IllegalMove
from domain.moves import _distinct, die_check, die_options, recolour_check, recolour_options
from domain.ruleset import Rules
from domain.state import GameState, Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def raise_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """ICON-5: raise one of your dice (each distinct die once)."""
    return [c.RaiseDie(seat=seat, die=d) for d in _distinct(s.players[seat].dice)]


def raise_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `raise_options`."""
    if not isinstance(cmd, c.RaiseDie):
        return IllegalMove("pending-decision", "first choose the die to raise", "RES-1")
    if cmd.die not in s.players[cmd.seat].dice:
        return IllegalMove(
            "die-not-held", "you have no die {die0}{die1}", "ICON-5", die0=cmd.die[0], die1=cmd.die[1]
        )
    return None


def _raise_colour(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    if run.state.players[seat].count(task.arg):
        rule = "ICON-2" if task.n == 2 else "ICON-1"
        run.emit(ev.DiceRaised(seat=seat, colour=task.arg, amount=task.n, rule=rule))
    else:
        run.emit(
            ev.EffectLost(seat=seat, effect=f"INC:{task.arg}", reason=f"no {task.arg} die", rule="RES-4")
        )


RULES.effect(
    EffectKind(
        "DIE",
        "gain a die (choose a colour)",
        __name__,
        (c.GainDie, c.DeclineDie),
        lambda s, task, seat: die_options(s, seat),
        lambda s, task, cmd: die_check(s, cmd),
        ("no die can be gained from the supply within the limits", "DIE-7"),
    ),
    EffectKind(
        "RAISE",
        "raise one die",
        __name__,
        (c.RaiseDie,),
        raise_options,
        raise_check,
        ("no die to raise", "RES-4"),
    ),
    EffectKind(
        "RECOLOUR",
        "change a die's colour",
        __name__,
        (c.Recolour,),
        lambda s, task, seat: recolour_options(s, seat),
        lambda s, task, cmd: recolour_check(s, cmd),
        ("no die can change colour within the limits", "DIE-6"),
    ),
    EffectKind("INC", "raise every die of a colour (ICON-1, ICON-2)", __name__, resolve=_raise_colour),
)
