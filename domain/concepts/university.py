"""The University (digest §11): Lectures move a University token up a Scale tile."""

from __future__ import annotations

from domain import commands as c
from domain.effect_kinds import EffectKind, register

register(
    EffectKind(
        "LEC",
        "Lecture (choose a Scale tile)",
        __name__,
        (c.Lecture,),
        lambda s, task, seat: [
            c.Lecture(seat=seat, tile=i) for i, h in enumerate(s.players[seat].university) if h < 4
        ],  # LEC-2
        ("every University token is on the top row", "LEC-2"),
    ),
)
