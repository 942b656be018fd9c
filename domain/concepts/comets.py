"""Comets (digest §9): spotting a comet."""

from __future__ import annotations

from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter
from domain.ruleset import Rules
from domain.state import Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def _spot(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    comets = run.state.players[seat].comets
    if "slot" in comets:
        run.emit(ev.CometSpotted(seat=seat, comet=comets.index("slot")))
    else:
        run.emit(ev.EffectLost(seat=seat, effect="SPOT", reason="no Comet token left", rule="SPOT-2"))


RULES.effect(EffectKind("SPOT", "spot a comet (SPOT-1)", __name__, resolve=_spot))
