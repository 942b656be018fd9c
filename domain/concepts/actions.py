"""Action tiles (digest §3, §8): upgrading a tile; two tiles swapping their spaces.

How an Action tile is upgraded (UPG-1, UPG-4) is here, whole: the `Upgrade` command's options and check
(the `UPG` effect's), what it emits and how `TileUpgraded` applies (it grants nothing). The Upgrade
space's Quadrant instead of a moving action (UPG-2) and its turn without rotation (UPG-3) are the turn's
(domain/moves.py, domain/resolve.py).
"""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.characters import rules_for
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.evolve import resolved, seated
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, Task, changer, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

_set_players_agenda = changer(GameState, "players", "agenda")


def swapped(queue: tuple[str, ...], first: str, second: str) -> tuple[str, ...]:
    """The queue with two of its Action tiles on each other's spaces: the one act of the two commands
    that swap tiles of the player board. Which tiles may swap, and whether the swap may be declined, is
    each rule's own (docs/characters.md, "Two swap commands": CHAR-KEP-2/3 and an expansion's reward)."""
    out = list(queue)
    i, j = out.index(first), out.index(second)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


# -- upgrading an Action tile (UPG-1, UPG-4) ------------------------------------------------------------


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


@RULES.command(c.Upgrade)
def _upgrade(run: Run, cmd: c.Upgrade, task: Task | None) -> None:
    run.emit(ev.TileUpgraded(seat=cmd.seat, tile=cmd.tile))


@RULES.event(ev.TileUpgraded, "UPG")
def _upgraded(s: GameState, e: ev.TileUpgraded) -> GameState:
    p = s.players[e.seat]
    return _set_players_agenda(
        s, seated(s, e.seat, replace(p, upgraded=p.upgraded | {e.tile})), resolved(s, e)
    )


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
