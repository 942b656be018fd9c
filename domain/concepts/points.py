"""Victory points and Quadrants gained from rewards (RES-3)."""

from __future__ import annotations

from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter
from domain.forfeit import is_frozen, lost_points
from domain.ruleset import Rules
from domain.state import Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def _points(run: Emitter, task: Task) -> None:
    target = int(task.arg) if task.arg else run.state.turn.seat  # an expansion's points may go to other seats
    if is_frozen(run.state, target):
        run.emit(lost_points(target, task.kind))  # ASYNC-3: a forfeited seat's score is frozen
        return
    rule = run.state.rules.point_rules.get(task.source, "RES-3")
    run.emit(ev.VictoryPointsScored(seat=target, points=task.n, source=task.source, rule=rule))


def _quadrants(run: Emitter, task: Task) -> None:
    run.emit(ev.QuadrantsGained(seat=run.state.turn.seat, amount=task.n))


RULES.effect(
    EffectKind("VP", "score victory points", __name__, resolve=_points),
    EffectKind("Q", "gain Quadrants", __name__, resolve=_quadrants),
)
