"""The catalog's value types: immutable, built only by `parse_catalog` from the edition's JSON files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domain.catalog.luna import LunaCatalog
    from domain.catalog.luna_characters import LunaCharacters

COLOURS = ("R", "Y", "B")
# Major Object colours are mixes of two dice colours: orange is stated (OBS-12), green and purple DER-14.
MIXES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"orange": ("R", "Y"), "green": ("B", "Y"), "purple": ("R", "B")}
)

# A reward: primitive codes (digest §9.2, docs/catalog.md) resolved in order; () is a blank space.
Reward = tuple[str, ...]


class CatalogError(ValueError):
    """Invalid catalog data. The message reads '<file>: <json path>: <what is wrong>'."""


@dataclass(frozen=True, slots=True)
class MajorObject:
    name: str
    mix: str
    cost: int
    vp: int
    inquisitor: bool


@dataclass(frozen=True, slots=True)
class Constellation:
    name: str
    colour: str
    cost: int
    reward: Reward


@dataclass(frozen=True, slots=True)
class Card:
    """A Discovery card. `front` (dark, observed) and `back` (light, face down): library rows R1..R4."""

    id: str
    tier: int
    major: MajorObject
    constellations: tuple[Constellation, ...]
    front: tuple[Reward, Reward, Reward, Reward]
    back: tuple[Reward, Reward, Reward, Reward]
    provenance: str


@dataclass(frozen=True, slots=True)
class ActionTile:
    """An Action tile; each face offers two options (ACT-5)."""

    id: str
    name: str
    basic: tuple[Reward, Reward]
    upgraded: tuple[Reward, Reward]
    provenance: str


@dataclass(frozen=True, slots=True)
class SkySpace:
    """A starry-sky space, bottom to top (SKY-1). `fixed` lists the alternatives of its fixed action
    (`OBS` = Observe, otherwise reward codes; empty on crossed-out spaces); `tile` says whether an Action
    tile sits there; `instead_of_tile` is what the space gives in place of a moving action (UPG-2)."""

    id: str
    fixed: tuple[Reward, ...]
    tile: bool
    instead_of_tile: Reward


@dataclass(frozen=True, slots=True)
class ScaleRow:
    multiplier: int
    reward: Reward


@dataclass(frozen=True, slots=True)
class ScaleFace:
    """One face of a Scale tile; `rows` are h=1..4, bottom to top (DER-5, DER-6). Id like 'SC1-A'."""

    id: str
    rows: tuple[ScaleRow, ScaleRow, ScaleRow, ScaleRow]
    provenance: str


@dataclass(frozen=True, slots=True)
class ScaleTile:
    id: str
    faces: tuple[ScaleFace, ScaleFace]


@dataclass(frozen=True, slots=True)
class SubjectTile:
    """A Subject tile: `niche` is its objective id (OBJ-N*), `arch` its end-game subject id (SUBJ-A*)."""

    id: str
    theme: str
    niche: str
    arch: str
    provenance: str


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    kind: str  # "printed" | "niche"
    text: str
    provenance: str


@dataclass(frozen=True, slots=True)
class BookPage:
    """A Book of Comets page; usable only with at least `min_players` players (BOC-1, AMB-31)."""

    id: str
    colour: str
    min_players: int
    reward: Reward
    provenance: str


@dataclass(frozen=True, slots=True)
class LibraryTile:
    """One of Copernicus' library tiles (CHAR-COP-2..4, DATA-17): one card column wide, covering `rows`
    adjacent library rows; each face gives a reward per covered row (top to bottom)."""

    id: str
    rows: int  # 1 or 2
    faces: Mapping[str, tuple[Reward, ...]]  # face "A"/"B" -> a reward per covered row
    provenance: str


@dataclass(frozen=True, slots=True)
class CellarTile:
    """Bruno's cellar tile (CHAR-BRU-2/3, DATA-18): per space, the interrogation value, the end-game
    value and the reward an Inquisitor gains moving onto it."""

    arch: tuple[int, ...]
    bottom: tuple[int, ...]
    rewards: tuple[Reward, ...]
    provenance: str


@dataclass(frozen=True, slots=True)
class Ability:
    """The data of a character's ability side (CHAR-1): its personal Book-of-Comets pages (CHAR-3), and
    the special components of its rules (`domain/characters/`). Absent parts are None or empty."""

    pages: tuple[BookPage, ...] = ()
    constellations_per_observe: int = 2  # OBS-1; Galileo 3 (CHAR-GAL-2)
    tile: ActionTile | None = None  # Kepler's special Action tile (DATA-16)
    tile_space: str = ""  # the sky space its tile starts on (CHAR-KEP-1: S4)
    library_tiles: tuple[LibraryTile, ...] = ()  # Copernicus (DATA-17)
    cellar: CellarTile | None = None  # Bruno (DATA-18)
    provenance: str = ""


@dataclass(frozen=True, slots=True)
class CharacterBoard:
    """An astronomer (CHAR-2): who may be chosen for a seat. The basic side has no ability (SET-21); the
    ability side's data is `ability` (None in an edition without it), its rules are registered by id in
    `domain.characters`."""

    id: str
    name: str
    expansion: str  # "base" or "luna": where the board comes from (CHAR-2: usable with or without Luna)
    personal_pages: int  # CHAR-3: personal Book-of-Comets pages of the ability side
    provenance: str
    ability: Ability | None = None  # the ability side's data (CHAR-1), in editions that carry it

    def sides(self) -> tuple[str, ...]:
        """The sides a seat may play it on (CHAR-1): "basic", and "ability" when its data is here."""
        return ("basic", "ability") if self.ability is not None else ("basic",)


@dataclass(frozen=True, slots=True, eq=False)
class Catalog:
    """All component data of one edition. Two catalogs are equal when their content hashes are."""

    edition: str
    content_hash: str
    cards: Mapping[str, Card]
    deck_composition: Mapping[int, tuple[int, int, int]]
    action_tiles: tuple[ActionTile, ...]
    starry_sky: tuple[SkySpace, ...]
    constellation_slots: tuple[Reward, ...]
    library_printed: tuple[Reward, Reward, Reward, Reward]
    cellar_arch: tuple[int, ...]
    cellar_bottom: tuple[int, ...]
    reputation_min: int
    reputation_max: int
    reputation_start: int
    reputation_vp: Mapping[int, int]
    reputation_overflow_vp: int
    book_pages: tuple[BookPage, ...]
    appendix_vp: int
    scale_tiles: tuple[ScaleTile, ...]
    scale_tiles_in_play: int
    subject_tiles: tuple[SubjectTile, ...]
    objectives: Mapping[str, Objective]
    printed_objectives: tuple[str, ...]
    objective_first_vp: int
    objective_later_vp: int
    dice_per_colour: int
    die_max: int
    provenance: Mapping[str, str]
    luna: LunaCatalog
    characters: tuple[CharacterBoard, ...]  # CHAR-2, in the order setup offers them
    # the Luna characters' own components (DATA-15/19/20/22), in editions that carry their ability sides
    luna_characters: LunaCharacters | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Catalog):
            return NotImplemented
        return (self.edition, self.content_hash) == (other.edition, other.content_hash)

    def __hash__(self) -> int:
        return hash((self.edition, self.content_hash))

    def character(self, character_id: str) -> CharacterBoard:
        for board in self.characters:
            if board.id == character_id:
                return board
        raise KeyError(f"no character {character_id!r} in catalog {self.edition}")

    def card(self, card_id: str) -> Card:
        try:
            return self.cards[card_id]
        except KeyError:
            raise KeyError(f"no Discovery card {card_id!r} in catalog {self.edition}") from None

    def scale_face(self, face_id: str) -> ScaleFace:
        for tile in self.scale_tiles:
            for face in tile.faces:
                if face.id == face_id:
                    return face
        raise KeyError(f"no Scale tile face {face_id!r} in catalog {self.edition}")
