"""Elizabeth Hevelius (digest §17.6): claiming, placing and completing Constellation tiles
(CHAR-HEV-1..8, DER-11, AMB-35..37, DATA-19).

Geometry (DATA-19, PROVISIONAL): the abstract tree model. A tile has `k` connectors; a tile joins a
constellation by pairing one of its connectors with one open connector of that constellation (whichever
connector: rotation is free, so only counts matter); a tile may pair with one constellation only (joining
two is refused, CHAR-HEV-5). A constellation's open connectors are `sum(k) - 2 * (tiles - 1)`; it is
complete when none is open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.catalog.model import Reward

NEW = -1  # placement target: start a new constellation


@dataclass(frozen=True, slots=True)
class Tile:
    id: str
    stars: int
    connections: int


def open_connections(tiles: Sequence[Tile]) -> int:
    """Open connectors of a constellation (tree model): each pairing closes two connectors."""
    return sum(t.connections for t in tiles) - 2 * (len(tiles) - 1)


def is_complete(tiles: Sequence[Tile]) -> bool:
    """CHAR-HEV-6: complete when no connection is open (DER-11: so at least two tiles)."""
    return len(tiles) >= 2 and open_connections(tiles) == 0


def targets(constellations: Sequence[Sequence[Tile]]) -> list[int]:
    """CHAR-HEV-5: where a claimed tile may go: a new constellation, or any incomplete constellation
    with an open connection (each pairing one of the tile's connectors: one constellation only)."""
    return [NEW, *(i for i, c in enumerate(constellations) if open_connections(c) > 0)]


def place(
    constellations: tuple[tuple[Tile, ...], ...], tile: Tile, target: int, connector: int = 0
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...] | None]:
    """CHAR-HEV-5/6/7: the constellations after placing `tile` at `target` through its `connector`-th
    connector (a rotation), and the constellation completed by it (removed from the layout: its tiles
    go to the discard pile) or None. Raises ValueError on an illegal placement (with the rule)."""
    if not 0 <= connector < tile.connections:
        raise ValueError(f"{tile.id} has no connector {connector} [CHAR-HEV-5]")
    if target == NEW:
        return (*constellations, (tile,)), None
    if not 0 <= target < len(constellations):
        raise ValueError(f"no constellation {target} [CHAR-HEV-5]")
    if open_connections(constellations[target]) <= 0:
        raise ValueError(f"constellation {target} has no open connection [CHAR-HEV-5]")
    grown = (*constellations[target], tile)
    rest = constellations[:target] + constellations[target + 1 :]
    if is_complete(grown):
        return rest, grown
    return (*constellations[:target], grown, *constellations[target + 1 :]), None


def stars(tiles: Sequence[Tile]) -> int:
    return sum(t.stars for t in tiles)


def completion_reward(bands: Sequence[tuple[int, Reward]], total_stars: int) -> Reward:
    """CHAR-HEV-6 / DER-11: the reward of the highest band reached (2 -> nothing, 3-4 -> Write twice +
    1 Quadrant (AMB-36: two W1), 5-6 -> 4 VP + a die, 7+ -> 10 VP)."""
    reward: Reward = ()
    for least, band in bands:
        if total_stars >= least:
            reward = band
    return reward


def icon_of(code: str) -> str | None:
    """The condition icon an action code performs (CHAR-HEV-3, AMB-35: kind and colour, not amount):
    `INC2:Y` -> `INC:Y`, `1D+3` -> `1D`, `2Q` -> `Q`, `PERx2` -> `PER`, `W2`/`WC` -> `WRITE`."""
    if code.startswith(("INC:", "INC2:")):
        return "INC:" + code.split(":")[1]
    if code.startswith("1D+"):
        return "1D"
    if (code.endswith("Q") and code[:-1].isdigit()) or code == "Q":
        return "Q"
    if code.startswith("PER"):
        return "PER"
    if code == "WC" or (code.startswith("W") and code[1:].isdigit()):
        return "WRITE"
    if code in ("LEC", "DIE", "SPOT", "UPG", "FW", "OBS:constellation", "OBS:major"):
        return code
    return None


def claimable(offer: Sequence[str], conditions: dict[str, str], performed: frozenset[str]) -> list[str]:
    """CHAR-HEV-2: the offer tiles whose condition icon she performed with effect this turn."""
    return [t for t in offer if conditions[t] in performed]


def refill(
    offer: tuple[str, ...], deck: tuple[str, ...], size: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CHAR-HEV-8: the offer refilled to `size` from the top of the deck: (offer, deck)."""
    need = max(0, size - len(offer))
    return (*offer, *deck[:need]), deck[need:]
