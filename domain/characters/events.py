"""The events of the characters' abilities (digest §17), each with its rule ID. Declared in
`EVENTS` (composed in `domain.vocabulary.EVENT_TYPES`), so stores, grants, replay and the describer
know them."""

from __future__ import annotations

from dataclasses import dataclass

from domain import events as ev


@dataclass(frozen=True, kw_only=True)
class CellarRewardGained(ev.GrantingEvent):
    """CHAR-BRU-2: an Inquisitor moved onto a space of Bruno's cellar tile; he gains its reward."""

    space: int  # cellar index (C1 = 0)
    reward: tuple[str, ...]
    rule: str = "CHAR-BRU-2"


@dataclass(frozen=True, kw_only=True)
class LibraryTilePlaced(ev.PlayerEvent):
    """CHAR-COP-2..4: Copernicus placed a library tile (free, once per turn), covering `rows` rows of
    library column `column` from row `row` (R1 = 0), face `face` up."""

    tile: str
    face: str
    column: int  # library position (1 = the printed column, k+1 = the k-th card, LIB-3)
    row: int
    rows: int
    rule: str = "CHAR-COP-2"


@dataclass(frozen=True, kw_only=True)
class KeplerTilesSwapped(ev.PlayerEvent):
    """CHAR-KEP-2: Kepler swapped two tiles of his player board (`aside` unchanged), or the tile on his
    character board with one on the player board. `queue` and `aside` are the result."""

    first: str
    second: str
    queue: tuple[str, ...]
    aside: str
    rule: str = "CHAR-KEP-2"


@dataclass(frozen=True, kw_only=True)
class AbilityDeclined(ev.GrantingEvent):
    """An optional ability not used (CHAR-KEP-2 "may"; CHAR-COP-1 the remaining steps): it resolves the
    pending ability effect `effect`, and grants what follows (Copernicus' second Inquisitor)."""

    effect: str
    rule: str


CHARACTER_EVENTS: tuple[type[ev.Event], ...] = (
    CellarRewardGained,
    LibraryTilePlaced,
    KeplerTilesSwapped,
    AbilityDeclined,
)
EVENTS = CHARACTER_EVENTS  # their wire vocabulary (domain/vocabulary.py)
