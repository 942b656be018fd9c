"""Luna's Grand Inquisitors (digest §18, LUNA-40..47): their own command and event, and their rules.

A Grand Inquisitor is persuaded like any Inquisitor (LUNA-41), so its command and its event refine the
base game's (`domain/commands.py` `Persuade`, `domain/events.py` `InquisitorPersuaded`): everything that
treats a persuade generically (an effect's commands, a character's reaction, the effect kinds an
Inquisitor's move resolves: `Ruleset.resolves`) treats these too. Here:

- `PersuadeGrand` (notation `G1`..`G4`) and `GrandInquisitorPersuaded`. Both keep the released wire
  form: they are written under the base classes' names with `"grand": true` where the base ones have
  `false` (their `MARKS`; docs/events.md, "One name, two classes");
- the figures a Grand persuade moves (`PersuadeGrand.figures`: the seat's `LunaSeat`), from which the
  base game's persuade options and check (`domain/moves.py`) offer and check it;
- what the command emits (one space right; to the rightmost space for Bonus B5, LUNA-BB-5), how the
  event applies, and the departure it grants from the rightmost space (LUNA-41: at once);
- the choice of Bonus Board space and the departure itself (LUNA-42, LUNA-43), and the Grand Inquisitor
  a Moon observation brings (LUNA-40).

What the base rules count of the Grand Inquisitors in a cellar (LUNA-44..46) the seat's part answers
(`LunaSeat`, domain/expansions/luna/state.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain import events as ev
from domain.concepts.inquisition import persuaded
from domain.errors import IllegalMove
from domain.evolve import cellar_peak_of, resolved, turn_with
from domain.expansions.luna import commands as lc
from domain.expansions.luna import events as le
from domain.expansions.luna.state import luna, luna_of, seat_of, seat_with, with_luna, with_seat
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, PlayerState, Task, replace


@dataclass(frozen=True, kw_only=True)
class GrandInquisitorPersuaded(ev.InquisitorPersuaded):
    """LUNA-41: a Grand Inquisitor moved from `start` to `end`."""

    NAME: ClassVar[str] = "InquisitorPersuaded"  # released as an InquisitorPersuaded with "grand": true
    MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = (("grand", True, "end"),)


@dataclass(frozen=True, kw_only=True, repr=False)
class PersuadeGrand(c.Persuade):
    """INQ-10, LUNA-41: persuade the Grand Inquisitor on cellar space `space` (notation `G1`..`G4`)."""

    NAME: ClassVar[str] = "Persuade"  # released as a Persuade with "grand": true
    MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = (("grand", True, "space"),)
    LETTER: ClassVar[str] = "G"
    NOUN: ClassVar[str] = "Grand Inquisitor"
    EVENT: ClassVar[type[ev.InquisitorPersuaded]] = GrandInquisitorPersuaded

    @classmethod
    def figures(cls, p: PlayerState) -> tuple[int, ...]:
        return seat_of(p).grand


# Their wire vocabulary (domain/vocabulary.py): the parser of `persuade` reads both kinds of Inquisitor.
COMMANDS: tuple[tuple[type[c.Command], c.Parser], ...] = (
    (PersuadeGrand, c.persuade_parser(c.Persuade, PersuadeGrand)),
)
EVENTS: tuple[type[ev.Event], ...] = (GrandInquisitorPersuaded,)

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


# -- persuading a Grand Inquisitor (its options and check: domain/moves.py, by `PersuadeGrand.figures`) --


@RULES.command(PersuadeGrand)
def _persuade(run: Run, cmd: PersuadeGrand, task: Task | None) -> None:
    """INQ-10: one space right; Bonus B5 moves it straight to the rightmost space (LUNA-BB-5)."""
    if task is not None and task.kind == "ADVANCE":
        end = len(run.state.players[cmd.seat].cellar) - 1
        run.emit(GrandInquisitorPersuaded(seat=cmd.seat, start=cmd.space, end=end, rule="LUNA-BB-5"))
        return
    run.emit(GrandInquisitorPersuaded(seat=cmd.seat, start=cmd.space, end=cmd.space + 1))


@RULES.event(GrandInquisitorPersuaded)
def _persuaded(s: GameState, e: GrandInquisitorPersuaded) -> GameState:
    """It moves like an ordinary Inquisitor (LUNA-41, LUNA-47: the move is interrogated)."""
    p = s.players[e.seat]
    grand = list(seat_of(p).grand)
    grand[e.start] -= 1
    grand[e.end] += 1
    return persuaded(s, e, seat_with(p, grand=tuple(grand)))


@RULES.grant(GrandInquisitorPersuaded)
def _grants_persuaded(before: GameState, after: GameState, e: GrandInquisitorPersuaded) -> list[Task]:
    """LUNA-41: on reaching the rightmost space it leaves at once (RES-8, AMB-50); elsewhere it grants
    what an Inquisitor's move grants."""
    if e.end == len(after.players[e.seat].cellar) - 1:
        return [Task("DEPART")]
    return before.rules.grants[ev.InquisitorPersuaded](before, after, e)


# -- the departure for the Bonus Board (LUNA-42, LUNA-43) -------------------------------------------------


def depart_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """LUNA-42/43: spaces 1-8 hold one figure, space 9 any number."""
    part = luna_of(s)
    if part is None:
        return []
    bonus = part.bonus
    return [lc.BonusSpace(seat=seat, space=i) for i in range(1, 10) if i == 9 or not bonus[i - 1]]


def depart_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `depart_options`."""
    if not isinstance(cmd, lc.BonusSpace):
        return IllegalMove("pending-decision", "first choose a Bonus Board space", "RES-1")
    part = luna_of(s)
    if part is None:
        return IllegalMove("no-luna", "the Bonus Board is part of the Luna expansion", "LUNA-1")
    if cmd.space not in range(1, 10):
        return IllegalMove("bad-space", "the Bonus Board has spaces 1..9", "LUNA-42")
    if cmd.space != 9 and part.bonus[cmd.space - 1]:
        return IllegalMove(
            "space-taken", "Bonus space {space} already holds a figure", "LUNA-42", space=cmd.space
        )
    return None


@RULES.command(lc.BonusSpace)
def _bonus_space(run: Run, cmd: lc.BonusSpace, task: Task | None) -> None:
    run.emit(le.GrandInquisitorDeparted(seat=cmd.seat, space=cmd.space))


@RULES.event(le.GrandInquisitorDeparted, "DEPART")
def _departed(s: GameState, e: le.GrandInquisitorDeparted) -> GameState:
    grand = seat_of(s.players[e.seat]).grand
    s = with_seat(s, e.seat, grand=(*grand[:-1], grand[-1] - 1))
    part = luna(s)
    bonus = list(part.bonus)
    bonus[e.space - 1] = (*bonus[e.space - 1], e.seat)
    return replace(with_luna(s, replace(part, bonus=tuple(bonus))), agenda=resolved(s, e))


@RULES.grant(le.GrandInquisitorDeparted)
def _grants_departed(before: GameState, after: GameState, e: le.GrandInquisitorDeparted) -> list[Task]:
    return [Task("BONUS", e.space)]  # LUNA-42: its space's reward at once


# -- the Grand Inquisitor of a Moon observation (LUNA-23.4, LUNA-40) ----------------------------------------


@RULES.event(le.GrandInquisitorGained, "GRAND")
def _gained(s: GameState, e: le.GrandInquisitorGained) -> GameState:
    grand = seat_of(s.players[e.seat]).grand
    s = with_seat(s, e.seat, grand=(grand[0] + 1, *grand[1:]))  # LUNA-40: to the leftmost space
    return replace(
        s, turn=turn_with(s, cellar_peak=cellar_peak_of(s, s.players[e.seat])), agenda=resolved(s, e)
    )
