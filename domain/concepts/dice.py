"""Dice (digest §6): gaining, raising, recolouring, and raising every die of a colour.

How a die is gained (GAIN-2, DIE-2..7, with the exchange of DIE-5), raised (ICON-5, DIE-10), recoloured
(DIE-11) and how every die of a colour is raised (ICON-1, ICON-2) is here, whole: the `DIE`, `RAISE`,
`RECOLOUR` and `INC` effects' options and checks, what their commands (`GainDie`, `DeclineDie`,
`RaiseDie`, `Recolour`) emit, and how `DieGained`, `DieGainDeclined`, `DieRaised`, `DieRecoloured` and
`DiceRaised` apply. None of these events grants anything (none is a granting event); what grants a die,
a raise or a recolour (a fixed or free action, a reward) is the granting event's own rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter
from domain.errors import IllegalMove
from domain.evolve import resolved, seated
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import (
    COLOURS,
    MAX_DICE,
    MAX_PER_COLOUR,
    Die,
    GameState,
    PlayerState,
    Task,
    changer,
)

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

# The copies these events make, built without keywords (`domain.state.changer`, as in domain/evolve.py).
_set_agenda = changer(GameState, "agenda")
_set_players_agenda = changer(GameState, "players", "agenda")
_set_players_supply_agenda = changer(GameState, "players", "supply", "agenda")
_seat_dice = changer(PlayerState, "dice")


def _distinct(dice: tuple[Die, ...]) -> list[Die]:
    return list(dict.fromkeys(dice))


def _remove_die(dice: Sequence[Die], die: Sequence[Any]) -> list[Die]:
    out = list(dice)
    out.remove((die[0], die[1]))
    return out


# -- gaining a die (GAIN-2, DIE-2..7) ----------------------------------------------------------------


def die_options(s: GameState, seat: int) -> list[c.Command]:
    """GAIN-2, DIE-2..7: gain a die of a colour left in the supply; with 4 dice, exchange or decline."""
    p = s.players[seat]
    out: list[c.Command] = []
    if len(p.dice) < MAX_DICE:
        for i, colour in enumerate(COLOURS):
            if s.supply[i] > 0 and p.count(colour) < MAX_PER_COLOUR:
                out.append(c.GainDie(seat=seat, colour=colour))
        return out
    for returned in _distinct(p.dice):
        for i, colour in enumerate(COLOURS):
            after = p.count(colour) - (returned[0] == colour)
            available = s.supply[i] + (returned[0] == colour)
            if available > 0 and after < MAX_PER_COLOUR:
                out.append(c.GainDie(seat=seat, colour=colour, returned=returned))
    if out:
        out.append(c.DeclineDie(seat=seat))  # AMB-26: the exchange is optional
    return out


def _gain_check(s: GameState, cmd: c.GainDie) -> IllegalMove | None:
    p = s.players[cmd.seat]
    colour, returned = cmd.colour, cmd.returned
    if colour not in COLOURS:
        return IllegalMove("bad-colour", "unknown colour {colour!r}: R, Y or B", "DIE-1", colour=colour)
    if len(p.dice) < MAX_DICE and returned is not None:
        return IllegalMove("no-exchange", "an exchange is only for a player holding 4 dice", "DIE-5")
    if len(p.dice) >= MAX_DICE and returned is None:
        return IllegalMove("four-dice", "you hold 4 dice: return one (exchange) or decline", "DIE-5")
    if returned is not None and returned not in p.dice:
        return IllegalMove(
            "die-not-held",
            "you have no die {returned0}{returned1} to return",
            "DIE-5",
            returned0=returned[0],
            returned1=returned[1],
        )
    back = returned is not None and returned[0] == colour  # the returned die is of the gained colour
    if s.supply[COLOURS.index(colour)] + back <= 0:
        return IllegalMove("supply-empty", "no {colour} die left in the supply", "DIE-7", colour=colour)
    if p.count(colour) - back >= MAX_PER_COLOUR:
        return IllegalMove(
            "fourth-of-colour",
            "you hold {MAX_PER_COLOUR} {colour} dice: a fourth is not allowed",
            "DIE-6",
            MAX_PER_COLOUR=MAX_PER_COLOUR,
            colour=colour,
        )
    return None


def die_check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The check of `die_options` (GainDie, DeclineDie)."""
    if isinstance(cmd, c.GainDie):
        return _gain_check(s, cmd)
    if not isinstance(cmd, c.DeclineDie):
        return IllegalMove("pending-decision", "first gain a die (or decline an exchange)", "RES-1")
    if len(s.players[cmd.seat].dice) < MAX_DICE:
        return IllegalMove("must-gain", "only an exchange (with 4 dice held) can be declined", "RES-3")
    if not die_options(s, cmd.seat):
        return IllegalMove("no-exchange-possible", "no exchange is possible: the die is lost", "DIE-7")
    return None


@RULES.command(c.GainDie)
def _gain_die(run: Run, cmd: c.GainDie, task: Task | None) -> None:
    run.emit(
        ev.DieGained(
            seat=cmd.seat,
            colour=cmd.colour,
            value=task.n if task is not None else 1,
            returned=cmd.returned,
            rule="DIE-5" if cmd.returned else "GAIN-2",
        )
    )


@RULES.command(c.DeclineDie)
def _decline_die(run: Run, cmd: c.DeclineDie, task: Task | None) -> None:
    run.emit(ev.DieGainDeclined(seat=cmd.seat))


@RULES.event(ev.DieGained, "DIE")
def _die_gained(s: GameState, e: ev.DieGained) -> GameState:
    p = s.players[e.seat]
    dice = list(p.dice)
    supply = list(s.supply)
    if e.returned is not None:  # DIE-5: exchange
        dice = _remove_die(dice, e.returned)
        supply[COLOURS.index(e.returned[0])] += 1
    dice.append((e.colour, e.value))
    supply[COLOURS.index(e.colour)] -= 1
    players = seated(s, e.seat, _seat_dice(p, tuple(sorted(dice))))
    return _set_players_supply_agenda(s, players, tuple(supply), resolved(s, e))


@RULES.event(ev.DieGainDeclined, "DIE")
def _die_declined(s: GameState, e: ev.DieGainDeclined) -> GameState:
    return _set_agenda(s, resolved(s, e))


# -- raising dice (ICON-1, ICON-2, ICON-5, DIE-10) ---------------------------------------------------


def _raise_colour(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    if run.state.players[seat].count(task.arg):
        rule = "ICON-2" if task.n == 2 else "ICON-1"
        run.emit(ev.DiceRaised(seat=seat, colour=task.arg, amount=task.n, rule=rule))
    else:
        run.emit(
            ev.EffectLost(seat=seat, effect=f"INC:{task.arg}", reason=f"no {task.arg} die", rule="RES-4")
        )


@RULES.event(ev.DiceRaised, "INC")
def _dice_raised(s: GameState, e: ev.DiceRaised) -> GameState:
    top = s.die_max
    p = s.players[e.seat]
    dice = tuple(sorted((c, min(top, v + e.amount) if c == e.colour else v) for c, v in p.dice))
    return _set_players_agenda(s, seated(s, e.seat, _seat_dice(p, dice)), resolved(s, e))


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


@RULES.command(c.RaiseDie)
def _raise_die(run: Run, cmd: c.RaiseDie, task: Task | None) -> None:
    run.emit(ev.DieRaised(seat=cmd.seat, die=cmd.die, amount=task.n if task is not None else 1))


@RULES.event(ev.DieRaised, "RAISE")
def _die_raised(s: GameState, e: ev.DieRaised) -> GameState:
    p = s.players[e.seat]
    dice = _remove_die(p.dice, e.die)
    dice.append((e.die[0], min(s.die_max, e.die[1] + e.amount)))  # DIE-10: excess lost
    return _set_players_agenda(s, seated(s, e.seat, _seat_dice(p, tuple(sorted(dice)))), resolved(s, e))


# -- recolouring a die (DIE-11) ----------------------------------------------------------------------


def recolour_options(s: GameState, seat: int) -> list[c.Command]:
    """DIE-11 with DIE-6; the new colour comes from the supply (DIE-7)."""
    p = s.players[seat]
    out: list[c.Command] = []
    for die in _distinct(p.dice):
        for i, colour in enumerate(COLOURS):
            if colour != die[0] and s.supply[i] > 0 and p.count(colour) < MAX_PER_COLOUR:
                out.append(c.Recolour(seat=seat, die=die, colour=colour))
    return out


def recolour_check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The check of `recolour_options`."""
    if not isinstance(cmd, c.Recolour):
        return IllegalMove("pending-decision", "first change a die's colour", "RES-1")
    p = s.players[cmd.seat]
    if cmd.die not in p.dice:
        return IllegalMove(
            "die-not-held", "you have no die {die0}{die1}", "ICON-5", die0=cmd.die[0], die1=cmd.die[1]
        )
    if cmd.colour not in COLOURS:
        return IllegalMove("bad-colour", "unknown colour {colour!r}: R, Y or B", "DIE-1", colour=cmd.colour)
    if cmd.colour == cmd.die[0]:
        return IllegalMove(
            "same-colour", "the die is {colour} already: choose another colour", "DIE-11", colour=cmd.colour
        )
    if s.supply[COLOURS.index(cmd.colour)] <= 0:
        return IllegalMove("supply-empty", "no {colour} die left in the supply", "DIE-7", colour=cmd.colour)
    if p.count(cmd.colour) >= MAX_PER_COLOUR:
        return IllegalMove(
            "fourth-of-colour",
            "you hold {MAX_PER_COLOUR} {colour} dice: a fourth is not allowed",
            "DIE-6",
            MAX_PER_COLOUR=MAX_PER_COLOUR,
            colour=cmd.colour,
        )
    return None


@RULES.command(c.Recolour)
def _recolour(run: Run, cmd: c.Recolour, task: Task | None) -> None:
    run.emit(ev.DieRecoloured(seat=cmd.seat, die=cmd.die, colour=cmd.colour))


@RULES.event(ev.DieRecoloured, "RECOLOUR")
def _die_recoloured(s: GameState, e: ev.DieRecoloured) -> GameState:
    p = s.players[e.seat]
    dice = _remove_die(p.dice, e.die)
    dice.append((e.colour, e.die[1]))
    supply = list(s.supply)
    supply[COLOURS.index(e.die[0])] += 1
    supply[COLOURS.index(e.colour)] -= 1
    players = seated(s, e.seat, _seat_dice(p, tuple(sorted(dice))))
    return _set_players_supply_agenda(s, players, tuple(supply), resolved(s, e))


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
