"""Parsers for the catalog's component lists: one function per kind of item, each checking its own shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from domain.catalog.luna_characters import ABILITY_CODES as LUNA_ABILITY_CODES
from domain.catalog.model import (
    COLOURS,
    MIXES,
    Ability,
    ActionTile,
    BookPage,
    Card,
    CellarTile,
    CharacterBoard,
    Constellation,
    LibraryTile,
    MajorObject,
    Objective,
    Reward,
    ScaleFace,
    ScaleRow,
    ScaleTile,
    SkySpace,
    SubjectTile,
)
from domain.catalog.reader import Node, unique_ids
from domain.catalog.rewards import SKY_ACTION_CODES

T = TypeVar("T")

TIERS = (1, 2, 3)
LIBRARY_ROWS = 4  # R1..R4 (LIB-3)
SCALE_ROWS = 4  # h = 1..4 above the stairs (DER-6)
FACE_SUFFIXES = ("A", "B")
PAGE_COLOURS = ("blue", "purple")
OBJECTIVE_KINDS = ("printed", "niche")
MAX_PLAYERS = 4  # COMP-11


def four_rows(node: Node, what: str) -> tuple[Reward, Reward, Reward, Reward]:
    r1, r2, r3, r4 = (row.reward() for row in node.items(4, what))
    return r1, r2, r3, r4


def two_options(node: Node) -> tuple[Reward, Reward]:
    first, second = (option.reward() for option in node.items(2, "options"))
    return first, second


def card(node: Node) -> Card:
    f = node.fields(("id", "tier", "major", "constellations", "front", "back", "provenance"))
    constellation_nodes = f["constellations"].items()
    if not constellation_nodes:
        raise f["constellations"].error("a card has at least one constellation (COMP-3)")
    constellations = tuple(constellation(item) for item in constellation_nodes)
    names = [c.name for c in constellations]
    for item, name in zip(constellation_nodes, names, strict=True):
        if names.count(name) > 1:
            raise item.error(f"duplicate constellation name {name!r} on one card")
    return Card(
        id=f["id"].text(),
        tier=_tier(f["tier"]),
        major=major_object(f["major"]),
        constellations=constellations,
        front=four_rows(f["front"], "library rows"),
        back=four_rows(f["back"], "library rows"),
        provenance=f["provenance"].provenance(),
    )


def _tier(node: Node) -> int:
    tier = node.integer()
    if tier not in TIERS:
        raise node.error(f"unknown tier {tier} (expected 1, 2 or 3)")
    return tier


def major_object(node: Node) -> MajorObject:
    f = node.fields(("name", "mix", "cost", "vp", "inquisitor"))
    return MajorObject(
        name=f["name"].text(),
        mix=f["mix"].choice(tuple(MIXES), "colour mix"),
        cost=f["cost"].integer(minimum=0),
        vp=f["vp"].integer(minimum=0),
        inquisitor=f["inquisitor"].boolean(),
    )


def constellation(node: Node) -> Constellation:
    f = node.fields(("name", "colour", "cost", "reward"))
    return Constellation(
        name=f["name"].text(),
        colour=f["colour"].choice(COLOURS, "colour"),
        cost=f["cost"].integer(minimum=0),
        reward=f["reward"].reward(),
    )


def action_tile(node: Node) -> ActionTile:
    f = node.fields(("id", "name", "basic", "upgraded", "provenance"))
    return ActionTile(
        id=f["id"].text(),
        name=f["name"].text(),
        basic=two_options(f["basic"]),
        upgraded=two_options(f["upgraded"]),
        provenance=f["provenance"].provenance(),
    )


def sky_space(node: Node) -> SkySpace:
    f = node.fields(("id", "fixed", "tile"), optional=("instead_of_tile",))
    instead = f.get("instead_of_tile")
    return SkySpace(
        id=f["id"].text(),
        fixed=tuple(option.reward(SKY_ACTION_CODES) for option in f["fixed"].items()),
        tile=f["tile"].boolean(),
        instead_of_tile=instead.reward() if instead is not None else (),
    )


def book_page(node: Node) -> BookPage:
    f = node.fields(("id", "colour", "min_players", "reward", "provenance"))
    return BookPage(
        id=f["id"].text(),
        colour=f["colour"].choice(PAGE_COLOURS, "page colour"),
        min_players=f["min_players"].integer(1, MAX_PLAYERS),
        reward=f["reward"].reward(),
        provenance=f["provenance"].provenance(),
    )


def scale_tile(node: Node) -> ScaleTile:
    f = node.fields(("id", "faces"))
    tile_id = f["id"].text()
    face_nodes = f["faces"].items(len(FACE_SUFFIXES), "faces")
    a, b = (
        scale_face(item, f"{tile_id}-{suffix}")
        for item, suffix in zip(face_nodes, FACE_SUFFIXES, strict=True)
    )
    return ScaleTile(id=tile_id, faces=(a, b))


def scale_face(node: Node, expected_id: str) -> ScaleFace:
    f = node.fields(("id", "rows", "provenance"))
    face_id = f["id"].text()
    if face_id != expected_id:
        raise f["id"].error(f"face id must be {expected_id!r}, got {face_id!r}")
    h1, h2, h3, h4 = (scale_row(row) for row in f["rows"].items(SCALE_ROWS, "rows (h=1..4, bottom to top)"))
    return ScaleFace(id=face_id, rows=(h1, h2, h3, h4), provenance=f["provenance"].provenance())


def scale_row(node: Node) -> ScaleRow:
    f = node.fields(("multiplier", "reward"))
    return ScaleRow(multiplier=f["multiplier"].integer(minimum=0), reward=f["reward"].reward())


def subject_tile(node: Node) -> SubjectTile:
    f = node.fields(("id", "theme", "niche", "arch", "provenance"))
    return SubjectTile(
        id=f["id"].text(),
        theme=f["theme"].text(),
        niche=f["niche"].text(),
        arch=f["arch"].text(),
        provenance=f["provenance"].provenance(),
    )


CHARACTER_EXPANSIONS = ("base", "luna")


# Reward codes only an ability uses (domain/characters/): Copernicus' page (CHAR-COP-1, AMB-28) and the
# two options of Kepler's special tile (CHAR-KEP-2, DATA-16).
ABILITY_CODES = frozenset({"PER2D", "KSWAP:board", "KSWAP:aside", *LUNA_ABILITY_CODES})
LIBRARY_FACES = ("A", "B")  # CHAR-COP-3: either face up


def character(node: Node) -> CharacterBoard:
    f = node.fields(("id", "name", "expansion", "personal_pages", "provenance"), optional=("ability",))
    personal_pages = f["personal_pages"].integer(0, 3)
    ability_node = f.get("ability")
    ability = None
    if ability_node is not None:
        ability = character_ability(ability_node)
        if len(ability.pages) != personal_pages:
            raise ability_node.error(
                f"the ability side has {personal_pages} personal page(s) (CHAR-3), not {len(ability.pages)}"
            )
    return CharacterBoard(
        id=f["id"].text(),
        name=f["name"].text(),
        expansion=f["expansion"].choice(CHARACTER_EXPANSIONS, "expansion"),
        personal_pages=personal_pages,
        provenance=f["provenance"].provenance(),
        ability=ability,
    )


def personal_page(node: Node) -> BookPage:
    """A personal Book-of-Comets page (CHAR-3, BOC-5): only its owner uses it, at any player count."""
    f = node.fields(("id", "reward", "provenance"))
    return BookPage(
        id=f["id"].text(),
        colour="personal",
        min_players=1,
        reward=f["reward"].reward(ABILITY_CODES),
        provenance=f["provenance"].provenance(),
    )


def ability_tile(node: Node) -> ActionTile:
    f = node.fields(("id", "name", "basic", "upgraded", "provenance"))
    first, second = (o.reward(ABILITY_CODES) for o in f["basic"].items(2, "options"))
    up_first, up_second = (o.reward(ABILITY_CODES) for o in f["upgraded"].items(2, "options"))
    return ActionTile(
        id=f["id"].text(),
        name=f["name"].text(),
        basic=(first, second),
        upgraded=(up_first, up_second),
        provenance=f["provenance"].provenance(),
    )


def library_tile(node: Node) -> LibraryTile:
    f = node.fields(("id", "rows", "faces", "provenance"))
    rows = f["rows"].integer(1, 2)  # CHAR-COP-2: 1 or 2 rows
    faces_node = f["faces"]
    faces: dict[str, tuple[Reward, ...]] = {}
    for face, rewards in faces_node.entries():
        if face not in LIBRARY_FACES:
            raise rewards.error(f"a library tile's faces are A and B, not {face!r}")
        faces[face] = tuple(row.reward() for row in rewards.items(rows, "rows"))
    if sorted(faces) != list(LIBRARY_FACES):
        raise faces_node.error("a library tile has faces A and B (CHAR-COP-3)")
    return LibraryTile(id=f["id"].text(), rows=rows, faces=faces, provenance=f["provenance"].provenance())


def cellar_tile(node: Node) -> CellarTile:
    f = node.fields(("arch", "bottom", "rewards", "provenance"))
    arch = tuple(v.integer() for v in f["arch"].items())
    if len(arch) < 2:
        raise f["arch"].error("a cellar needs at least two spaces")
    bottom = tuple(v.integer() for v in f["bottom"].items(len(arch), "cellar spaces"))
    rewards = tuple(r.reward() for r in f["rewards"].items(len(arch), "cellar spaces"))
    return CellarTile(arch=arch, bottom=bottom, rewards=rewards, provenance=f["provenance"].provenance())


def character_ability(node: Node) -> Ability:
    """The ability side's data (CHAR-1; DATA-16/17/18 for the special components)."""
    f = node.fields(
        ("pages", "provenance"),
        optional=("constellations_per_observe", "tile", "tile_space", "library_tiles", "cellar"),
    )
    pages = unique_list(f["pages"], personal_page, lambda p: p.id)
    per_observe = f.get("constellations_per_observe")
    tile = f.get("tile")
    library = f.get("library_tiles")
    cellar = f.get("cellar")
    space = f.get("tile_space")
    if (tile is None) != (space is None):
        raise node.error("a special Action tile needs its tile_space, and only it")
    return Ability(
        pages=pages,
        constellations_per_observe=2 if per_observe is None else per_observe.integer(2, 3),
        tile=None if tile is None else ability_tile(tile),
        tile_space="" if space is None else space.choice(("S1", "S2", "S3", "S4"), "sky space"),
        library_tiles=() if library is None else unique_list(library, library_tile, lambda t: t.id),
        cellar=None if cellar is None else cellar_tile(cellar),
        provenance=f["provenance"].provenance(),
    )


def objective(node: Node) -> Objective:
    f = node.fields(("id", "kind", "text", "provenance"))
    return Objective(
        id=f["id"].text(),
        kind=f["kind"].choice(OBJECTIVE_KINDS, "objective kind"),
        text=f["text"].text(),
        provenance=f["provenance"].provenance(),
    )


def unique_list(node: Node, parse: Callable[[Node], T], id_of: Callable[[T], str]) -> tuple[T, ...]:
    """Parse every element of a list and fail on a repeated id, naming the element that repeats it."""
    nodes = node.items()
    parsed = tuple(parse(item) for item in nodes)
    unique_ids(nodes, [id_of(item) for item in parsed])
    return parsed
