"""The Inquisition (digest §12): persuading Inquisitors, gaining them, the Farewell.

How an Inquisitor is persuaded (INQ-10..13) is here, whole: the `Persuade` command's options and check
(the `PER` effect's), what it emits, how `InquisitorPersuaded` applies and what it grants. A plug-in
with its own kind of Inquisitor refines the command and the event (subclasses, each with its own
`Persuade.figures`, letter and event): the options and the check here offer and check every kind the
game has (`Ruleset.refinements`), and the plug-in's own file says how its kind's move applies
(`persuaded` below does what every kind's move does).
"""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.evolve import resolved, seated, turn_with
from domain.resolve import Run
from domain.ruleset import Rules
from domain.scoring import on_rightmost
from domain.state import GameState, PlayerState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


# -- persuading an Inquisitor (INQ-10..13) ------------------------------------------------------------


def persuade_options(s: GameState, seat: int) -> list[c.Command]:
    """INQ-10: move one Inquisitor one space right; not from the rightmost space. Each kind of
    Inquisitor of the game is persuaded by its own command: `Persuade` the ordinary ones, a plug-in's
    refinement of it (a subclass) its own figures (`Persuade.figures`)."""
    p = s.players[seat]
    last = len(p.cellar) - 1
    out: list[c.Command] = []
    for cls in s.rules.refinements(c.Persuade):
        counts = cls.figures(p)
        out += [cls(seat=seat, space=i) for i in range(last) if counts[i]]
    return out


def persuade_check(s: GameState, cmd: c.Command, rule: str = "INQ-10") -> IllegalMove | None:
    """The check of `persuade_options` (also of an effect that moves the same Inquisitors further)."""
    if not isinstance(cmd, c.Persuade):
        return IllegalMove("pending-decision", "first choose an Inquisitor to move", "RES-1")
    p = s.players[cmd.seat]
    spaces = len(p.cellar)
    if not 0 <= cmd.space < spaces:
        return IllegalMove("bad-space", "the cellar has spaces 1..{spaces}", "INQ-1", spaces=spaces)
    if cmd.space == spaces - 1:
        return IllegalMove("rightmost", "an Inquisitor on the rightmost space cannot move further", rule)
    if type(cmd) not in s.rules.refinements(c.Persuade):  # a plug-in's kind, not in this game
        return IllegalMove("no-inquisitor", "no such Inquisitor in this game", rule)
    if not cmd.figures(p)[cmd.space]:
        return IllegalMove(
            "no-inquisitor", "no {which} of yours on C{space}", rule, which=cmd.NOUN, space=cmd.space + 1
        )
    return None


@RULES.command(c.Persuade)
def _persuade(run: Run, cmd: c.Persuade, task: Task | None) -> None:
    run.emit(ev.InquisitorPersuaded(seat=cmd.seat, start=cmd.space, end=cmd.space + 1))


@RULES.event(ev.InquisitorPersuaded, "PER")
def _persuaded(s: GameState, e: ev.InquisitorPersuaded) -> GameState:
    p = s.players[e.seat]
    spaces = list(p.cellar)
    spaces[e.start] -= 1
    spaces[e.end] += 1
    return persuaded(s, e, replace(p, cellar=tuple(spaces)))


def persuaded(s: GameState, e: ev.InquisitorPersuaded, player: PlayerState) -> GameState:
    """`s` after `e` moved an Inquisitor of any kind, `player` the seat with it moved: the move is
    interrogated (INQ-13, INQ-20) and the effect it answers resolved."""
    agenda = resolved(s, e)
    turn = turn_with(s, inquisitor_moved=True, interrogated=False)
    return replace(s, players=seated(s, e.seat, player), turn=turn, agenda=agenda)


@RULES.grant(ev.InquisitorPersuaded)
def _grants_persuaded(before: GameState, after: GameState, e: ev.InquisitorPersuaded) -> list[Task]:
    return []  # INQ-10 grants nothing by itself (a plug-in's own kind of Inquisitor may)


# -- the Farewell and gaining an Inquisitor ---------------------------------------------------------------


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
