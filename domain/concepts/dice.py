"""Dice (digest §6): gaining, raising, recolouring, and raising every die of a colour."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter, register
from domain.moves import _distinct, die_options, recolour_options
from domain.state import Task


def _raise_colour(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    if run.state.players[seat].count(task.arg):
        rule = "ICON-2" if task.n == 2 else "ICON-1"
        run.emit(ev.DiceRaised(seat=seat, colour=task.arg, amount=task.n, rule=rule))
    else:
        run.emit(
            ev.EffectLost(seat=seat, effect=f"INC:{task.arg}", reason=f"no {task.arg} die", rule="RES-4")
        )


register(
    EffectKind(
        "DIE",
        "gain a die (choose a colour)",
        __name__,
        (c.GainDie, c.DeclineDie),
        lambda s, task, seat: die_options(s, seat),
        ("no die can be gained from the supply within the limits", "DIE-7"),
    ),
    EffectKind(
        "RAISE",
        "raise one die",
        __name__,
        (c.RaiseDie,),
        lambda s, task, seat: [c.RaiseDie(seat=seat, die=d) for d in _distinct(s.players[seat].dice)],
        ("no die to raise", "RES-4"),
    ),
    EffectKind(
        "RECOLOUR",
        "change a die's colour",
        __name__,
        (c.Recolour,),
        lambda s, task, seat: recolour_options(s, seat),
        ("no die can change colour within the limits", "DIE-6"),
    ),
    EffectKind("INC", "raise every die of a colour (ICON-1, ICON-2)", __name__, resolve=_raise_colour),
)
