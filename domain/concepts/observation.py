"""Observing (digest §8): more constellations in one Observe, refilling the board, cards face down."""

from __future__ import annotations

from domain import commands as c
from domain.effect_kinds import EffectKind, register
from domain.moves import observe_options
from domain.resolve import draw_card

register(
    EffectKind(
        "OBSERVE",
        "observe another constellation or stop",
        __name__,
        (c.Observe, c.StopObserving),
        lambda s, task, seat: [
            *observe_options(s, seat, majors=False, constellations=True),
            c.StopObserving(seat=seat),
        ],
    ),
    EffectKind("REFILL", "refill a Discovery space from the deck (OBS-43)", __name__, resolve=draw_card),
    EffectKind("CARD", "take the top Discovery card face down (OBS-52)", __name__, resolve=draw_card),
)
