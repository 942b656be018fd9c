"""Action tiles (digest §5): upgrading a tile; two tiles swapping their spaces."""

from __future__ import annotations

from domain import commands as c
from domain.characters import rules_for
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.ruleset import Rules
from domain.state import GameState, Task

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


def swapped(queue: tuple[str, ...], first: str, second: str) -> tuple[str, ...]:
    """The queue with two of its Action tiles on each other's spaces: the one act of the two commands
    that swap tiles of the player board. Which tiles may swap, and whether the swap may be declined, is
    each rule's own (docs/characters.md, "Two swap commands": CHAR-KEP-2/3 and an expansion's reward)."""
    out = list(queue)
    i, j = out.index(first), out.index(second)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


def upgrade_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """UPG-4: an Action tile not yet upgraded."""
    p = s.players[seat]  # a character's own tiles too (Kepler's set-aside tile, CHAR-KEP-5)
    return [c.Upgrade(seat=seat, tile=t) for t in rules_for(s, p).own_tiles(p) if t not in p.upgraded]


def upgrade_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `upgrade_options`."""
    if not isinstance(cmd, c.Upgrade):
        return IllegalMove("pending-decision", "first choose the Action tile to upgrade", "RES-1")
    p = s.players[cmd.seat]
    if cmd.tile not in rules_for(s, p).own_tiles(p):
        return IllegalMove("unknown-tile", "you have no Action tile {tile!r}", "UPG-1", tile=cmd.tile)
    if cmd.tile in p.upgraded:
        return IllegalMove("already-upgraded", "tile {tile} is already upgraded", "UPG-4", tile=cmd.tile)
    return None


RULES.effect(
    EffectKind(
        "UPG",
        "upgrade an Action tile",
        __name__,
        (c.Upgrade,),
        upgrade_options,
        upgrade_check,
        ("every Action tile is already upgraded", "UPG-4"),
    ),
)
