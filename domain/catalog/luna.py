"""The Luna components of an edition (digest §18): Moon tiles, Scoring tiles, Bonus Board sides."""

from __future__ import annotations

from dataclasses import dataclass

from domain.catalog.model import CatalogError, Reward
from domain.catalog.reader import Node
from domain.catalog.rewards import is_reward_code

# Luna-only reward codes of the Bonus Board (digest §18.5-18.6).
LUNA_CODES = frozenset(
    {
        "DIE@2",
        "DIE@5",
        "FREEOBS:4",
        "REREAD",
        "ANYTILE",
        "SWAP",
        "RELOCATE",
        "ADVANCE",
        "BOOKVP",
        "SCALEREWARDS",
    }
)
MEASURES = (
    "upgraded",
    "scale-spaces",
    "inquisitors",
    "comets-off",
    "tokens-off",
    "major-objects",
    "min-book",
    "inquisitor-advancement",
    "library-cards",
)
REQUIREMENTS = ("", "comet", "constellation-token")
POSITIONS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")


@dataclass(frozen=True, slots=True)
class MoonTile:
    id: str
    column: int
    reward: Reward
    provenance: str


@dataclass(frozen=True, slots=True)
class ScoringTile:
    """VP = count(measure) * per // divisor, for the observer (bonus) and each other player (basic)."""

    id: str
    name: str
    measure: str
    bonus: tuple[int, int]
    basic: tuple[int, int]
    provenance: str


@dataclass(frozen=True, slots=True)
class BonusSpace:
    space: int
    reward: Reward
    requires: str
    provenance: str


@dataclass(frozen=True, slots=True)
class LunaCatalog:
    moon_tiles: tuple[MoonTile, ...]
    moon_costs: tuple[int, ...]
    scoring_tiles: tuple[ScoringTile, ...]
    bonus_boards: dict[str, tuple[BonusSpace, ...]]
    objective_vp: int
    objective_quadrants: int
    objective_observations: int
    grand_inquisitors: int
    provenance: dict[str, str]

    def scoring(self, tile_id: str) -> ScoringTile:
        return next(t for t in self.scoring_tiles if t.id == tile_id)

    def moon(self, position: str) -> MoonTile:
        return next(t for t in self.moon_tiles if t.id == position)


def _reward(node: Node) -> Reward:
    items = node.items()
    codes = []
    for item in items:
        code = item.text()
        if not is_reward_code(code) and code not in LUNA_CODES:
            raise item.error(f"unknown or malformed reward code {code!r}")
        codes.append(code)
    return tuple(codes)


def _pair(node: Node) -> tuple[int, int]:
    per, divisor = (n.integer(minimum=0) for n in node.items(2, "numbers (per, divisor)"))
    if divisor < 1:
        raise node.error("the divisor must be at least 1")
    return per, divisor


def parse_luna(root: Node) -> LunaCatalog:
    f = root.fields(
        ("moon_tiles", "moon_costs", "scoring_tiles", "bonus_boards", "moon_objective", "grand_inquisitors")
    )
    provenance: dict[str, str] = {}

    def valued(key: str) -> Node:
        v = f[key].fields(("value", "provenance"))
        provenance[key] = v["provenance"].provenance()
        return v["value"]

    tiles = []
    for node in f["moon_tiles"].items(len(POSITIONS), "Moon tiles"):
        t = node.fields(("id", "column", "reward", "provenance"))
        tiles.append(
            MoonTile(
                t["id"].choice(POSITIONS, "Moon tile"),
                t["column"].integer(1, 3),
                _reward(t["reward"]),
                t["provenance"].provenance(),
            )
        )
    if [t.id for t in tiles] != list(POSITIONS):
        raise f["moon_tiles"].error(f"Moon tiles must be listed in order {', '.join(POSITIONS)}")
    for i, tile in enumerate(tiles):
        if tile.column != i // 3 + 1:
            raise f["moon_tiles"].error(f"Moon tile {tile.id} belongs to column {i // 3 + 1} (LUNA-2)")
    costs = tuple(n.integer(minimum=1) for n in valued("moon_costs").items(len(POSITIONS), "costs"))
    scoring = []
    for node in f["scoring_tiles"].items(len(POSITIONS), "Scoring tiles"):
        s = node.fields(("id", "name", "measure", "bonus", "basic", "provenance"))
        scoring.append(
            ScoringTile(
                s["id"].text(),
                s["name"].text(),
                s["measure"].choice(MEASURES, "measure"),
                _pair(s["bonus"]),
                _pair(s["basic"]),
                s["provenance"].provenance(),
            )
        )
    if len({s.id for s in scoring}) != len(scoring):
        raise f["scoring_tiles"].error("duplicate Scoring tile id")
    boards: dict[str, tuple[BonusSpace, ...]] = {}
    for side, node in f["bonus_boards"].entries():
        if side not in ("A", "B"):
            raise node.error(f"unknown Bonus Board side {side!r} (expected A or B)")
        spaces = []
        for i, item in enumerate(node.items(9, "Bonus Board spaces")):
            b = item.fields(("space", "reward", "requires", "provenance"))
            space = BonusSpace(
                b["space"].integer(1, 9),
                _reward(b["reward"]),
                b["requires"].value
                if b["requires"].value == ""
                else b["requires"].choice(REQUIREMENTS, "requirement"),
                b["provenance"].provenance(),
            )
            if space.space != i + 1:
                raise item.error(f"expected space {i + 1}")
            spaces.append(space)
        boards[side] = tuple(spaces)
    if set(boards) != {"A", "B"}:
        raise f["bonus_boards"].error("the Bonus Board has sides A and B")
    objective = valued("moon_objective").fields(("vp", "quadrants", "observations"))
    gis = valued("grand_inquisitors").integer(minimum=1)
    if gis != len(POSITIONS):
        raise CatalogError(f"{f['grand_inquisitors'].where}: one Grand Inquisitor per Moon tile (LUNA-4)")
    return LunaCatalog(
        moon_tiles=tuple(tiles),
        moon_costs=costs,
        scoring_tiles=tuple(scoring),
        bonus_boards=boards,
        objective_vp=objective["vp"].integer(minimum=0),
        objective_quadrants=objective["quadrants"].integer(minimum=0),
        objective_observations=objective["observations"].integer(minimum=1),
        grand_inquisitors=gis,
        provenance=dict(sorted(provenance.items())),
    )
