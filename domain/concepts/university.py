"""The University (digest §14, LEC-1..4 in §6): Lectures move a University token up a Scale tile.

How a Lecture is given (LEC-1, LEC-2) is here, whole: the `Lecture` command's options and check (the
`LEC` effect's), what it emits, how `LectureGiven` applies and what it grants (the reward printed beside
the row reached). What the University scores at the end (SCL-3, SCO-2) and its objectives (OBJ-*) are
scoring's (domain/scoring.py), read with the other sources of points.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind
from domain.effects import push, reward_tasks
from domain.errors import IllegalMove
from domain.evolve import resolved, seated
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, Task, changer, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

TOP_ROW = 4  # LEC-2: the highest row of a Scale tile

_set_players_agenda = changer(GameState, "players", "agenda")


# -- giving a Lecture (LEC-1, LEC-2) ------------------------------------------------------------------


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


@RULES.command(c.Lecture)
def _lecture(run: Run, cmd: c.Lecture, task: Task | None) -> None:
    height = run.state.players[cmd.seat].university[cmd.tile] + 1
    run.emit(ev.LectureGiven(seat=cmd.seat, tile=cmd.tile, height=height))


@RULES.event(ev.LectureGiven, "LEC", pushes=True)
def _lectured(s: GameState, e: ev.LectureGiven, grants: Sequence[Task]) -> GameState:
    p = s.players[e.seat]
    university = list(p.university)
    university[e.tile] = e.height
    players = seated(s, e.seat, replace(p, university=tuple(university)))
    return _set_players_agenda(s, players, push(resolved(s, e), grants))  # LEC-1: the row's reward is a grant


@RULES.grant_ahead(ev.LectureGiven)
def _grants_lectured(before: GameState, e: ev.LectureGiven) -> list[Task]:
    row = before.catalog.scale_face(before.scale[e.tile]).rows[e.height - 1]
    return reward_tasks(row.reward, "lecture", before.rules.reward_codes)  # LEC-1


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
