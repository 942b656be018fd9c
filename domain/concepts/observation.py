"""Observing (digest §8): more constellations in one Observe, refilling the board, cards face down."""

from __future__ import annotations

from domain import commands as c
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.moves import observe_check, observe_options
from domain.resolve import draw_card
from domain.ruleset import Rules
from domain.state import GameState, Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def _majors(task: Task) -> bool:
    """Whether a Major Object may follow: Galileo after one constellation (CHAR-GAL-2, `arg` "MO")."""
    return task.arg == "MO" and task.n >= 2


def _more_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """OBS-1: a second constellation (no Major Object), or stop; CHAR-GAL-2: Galileo's more."""
    more = observe_options(s, seat, majors=_majors(task), constellations=True)
    return [*more, c.StopObserving(seat=seat)]


def _more_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `_more_options`."""
    if isinstance(cmd, c.StopObserving):
        return None
    if not isinstance(cmd, c.Observe):
        return IllegalMove("pending-decision", "first observe another constellation or stop", "RES-1")
    refusal = observe_check(s, cmd, majors=_majors(task), constellations=True)
    if refusal is not None and refusal.code == "one-major-object" and task.source.startswith("CHAR-GAL"):
        # what forbids it is Galileo's own rule: 1 MO, 1 MO + 1 constellation, or 1-3 constellations
        return IllegalMove(
            "one-major-object",
            "Galileo's Observe is 1 Major Object, 1 Major Object and 1 constellation, or 1-3 constellations",
            "CHAR-GAL-2",
        )
    return refusal


RULES.effect(
    EffectKind(
        "OBSERVE",
        "observe another constellation or stop",
        __name__,
        (c.Observe, c.StopObserving),
        _more_options,
        _more_check,
    ),
    EffectKind("REFILL", "refill a Discovery space from the deck (OBS-43)", __name__, resolve=draw_card),
    EffectKind("CARD", "take the top Discovery card face down (OBS-52)", __name__, resolve=draw_card),
)
