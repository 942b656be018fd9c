"""Victory points and Quadrants gained from rewards (RES-3)."""

from __future__ import annotations

from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter, register
from domain.forfeit import is_frozen, lost_points
from domain.resolve import POINT_RULES
from domain.state import Task


def _points(run: Emitter, task: Task) -> None:
    target = int(task.arg) if task.arg else run.state.turn.seat  # an expansion's points may go to other seats
    if is_frozen(run.state, target):
        run.emit(lost_points(target, task.kind))  # ASYNC-3: a forfeited seat's score is frozen
        return
    rule = POINT_RULES.get(task.source, "RES-3")
    run.emit(ev.VictoryPointsScored(seat=target, points=task.n, source=task.source, rule=rule))


def _quadrants(run: Emitter, task: Task) -> None:
    run.emit(ev.QuadrantsGained(seat=run.state.turn.seat, amount=task.n))


register(
    EffectKind("VP", "score victory points", __name__, resolve=_points),
    EffectKind("Q", "gain Quadrants", __name__, resolve=_quadrants),
)
