"""Action tiles (digest §5): upgrading a tile."""

from __future__ import annotations

from domain import commands as c
from domain.effect_kinds import EffectKind, register

register(
    EffectKind(
        "UPG",
        "upgrade an Action tile",
        __name__,
        (c.Upgrade,),
        lambda s, task, seat: [
            c.Upgrade(seat=seat, tile=t) for t in s.players[seat].queue if t not in s.players[seat].upgraded
        ],  # UPG-4
        ("every Action tile is already upgraded", "UPG-4"),
    ),
)
