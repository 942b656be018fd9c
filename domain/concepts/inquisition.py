"""The Inquisition (digest §12): persuading Inquisitors, gaining them, the Farewell."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, register
from domain.moves import persuade_options
from domain.state import GameState, Task


def _farewell(s: GameState, task: Task, seat: int) -> list[c.Command]:
    p = s.players[seat]
    if p.cellar[-1] + p.grand[-1]:  # INQ-16
        return [c.Farewell(seat=seat, accept=True), c.Farewell(seat=seat, accept=False)]
    return []


register(
    EffectKind(
        "PER",
        "Persuade (choose an Inquisitor)",
        __name__,
        (c.Persuade,),
        lambda s, task, seat: persuade_options(s, seat),
        ("no Inquisitor in the cellar can be persuaded", "INQ-11"),
    ),
    EffectKind(
        "FW",
        "Inquisitor's Farewell (accept or decline)",
        __name__,
        (c.Farewell,),
        _farewell,
        ("no Inquisitor on the rightmost cellar space", "INQ-16"),
    ),
    EffectKind(
        "INQ",
        "gain an Inquisitor (INQ-3)",
        __name__,
        resolve=lambda run, task: run.emit(ev.InquisitorGained(seat=run.state.turn.seat)),
    ),
)
