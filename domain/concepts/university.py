"""The University (digest §11): Lectures move a University token up a Scale tile."""

from __future__ import annotations

from domain import commands as c
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.ruleset import Rules
from domain.state import GameState, Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

TOP_ROW = 4  # LEC-2: the highest row of a Scale tile


def lecture_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """LEC-2: a University token not yet on the top row."""
    return [c.Lecture(seat=seat, tile=i) for i, h in enumerate(s.players[seat].university) if h < TOP_ROW]


def lecture_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `lecture_options`."""
    if not isinstance(cmd, c.Lecture):
        return IllegalMove("pending-decision", "first choose the Scale tile of the Lecture", "RES-1")
    university = s.players[cmd.seat].university
    if not 0 <= cmd.tile < len(university):
        return IllegalMove(
            "bad-tile", "Scale tiles are 1..{n_university}", "LEC-1", n_university=len(university)
        )
    if university[cmd.tile] >= TOP_ROW:
        return IllegalMove("top-row", "that University token is already on the top row", "LEC-2")
    return None


RULES.effect(
    EffectKind(
        "LEC",
        "Lecture (choose a Scale tile)",
        __name__,
        (c.Lecture,),
        lecture_options,
        lecture_check,
        ("every University token is on the top row", "LEC-2"),
    ),
)
