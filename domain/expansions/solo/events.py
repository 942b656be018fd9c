"""The solo game's events (Tycho Brahe, rules addendum "The solo game"; digest §19), declared in
`EVENTS` (composed with the base game's in `domain.vocabulary.EVENT_TYPES`). Each step of Tycho's turn
is one of these (or a base event), naming its rule ID. Their names and shapes are released like the
base events' (docs/events.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.events import Event, GrantingEvent, PlayerEvent
from domain.state import Die


@dataclass(frozen=True, kw_only=True)
class OpponentDealt(PlayerEvent):
    """SOLO-21..25: Tycho's seat is set up: the solo data it plays with, the difficulty (Luna, SOLO-2),
    the colours of his three dice (SOLO-22) and his Movement stack (SOLO-24), hidden until the game ends
    and committed with the deal's salt (`commitment`, domain/expansions/solo/deal.py)."""

    opponent: str
    data: str
    difficulty: str
    dice: tuple[str, ...]
    stack: tuple[str, ...]
    commitment: str
    rule: str = "SOLO-24"
    HIDDEN: ClassVar[tuple[str, ...]] = ("stack",)


@dataclass(frozen=True, kw_only=True)
class MovementTileRevealed(GrantingEvent):
    """SOLO-28: Tycho turns over the top Movement tile; its steps (bonuses first, SOLO-5) are granted."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    tile: str
    left: int  # Movement tiles left in the stack
    rule: str = "SOLO-28"


@dataclass(frozen=True, kw_only=True)
class TychoMoved(PlayerEvent):
    """SOLO-7, SOLO-28..30, SOLO-6: his marker moves right along his Action tiles, wrapping."""

    start: int
    end: int
    steps: int
    stopped: bool = False  # stopped early at an upgraded tile (SOLO-30) or the Moon tile (SOLO-6)
    rule: str = "SOLO-29"


@dataclass(frozen=True, kw_only=True)
class TychoTileUpgraded(PlayerEvent):
    """SOLO-31: the tile under his marker, or the nearest basic one to its right, turns upgraded."""

    tile: str
    rule: str = "SOLO-31"


@dataclass(frozen=True, kw_only=True)
class TychoRowChosen(GrantingEvent):
    """SOLO-32/33: the first row of the tile under his marker whose condition holds, with the partial
    rows whose condition holds adding their effects to the bottom row; its effects are granted."""

    tile: str
    upgraded: bool
    row: int  # 0 = the top row
    partials: tuple[int, ...] = ()
    condition: str = ""  # the chosen row's condition ("" for the bottom row)
    rule: str = "SOLO-32"


@dataclass(frozen=True, kw_only=True)
class TychoDicePaid(PlayerEvent):
    """SOLO-36/37: dice of any colour paid back to the supply (their values never matter, SOLO-22)."""

    dice: tuple[Die, ...]
    rule: str = "SOLO-36"


@dataclass(frozen=True, kw_only=True)
class TychoCometPlaced(PlayerEvent):
    comet: int
    rule: str = "SOLO-40"


@dataclass(frozen=True, kw_only=True)
class TychoCometMoved(PlayerEvent):
    """SOLO-41: one of his comets moves down; from 2 into the Book (a page, else the Appendix), unrewarded."""

    comet: int
    start: str
    end: str  # "sky2" or "book"
    page: str = ""  # the Book page it covers ("appendix" when no page is open)
    rule: str = "SOLO-41"


@dataclass(frozen=True, kw_only=True)
class TychoDieGained(PlayerEvent):
    colour: str
    rule: str = "SOLO-42"


@dataclass(frozen=True, kw_only=True)
class TychoBookMoved(PlayerEvent):
    start: int
    end: int
    rule: str = "SOLO-43"


@dataclass(frozen=True, kw_only=True)
class TychoLectured(PlayerEvent):
    tile: int
    height: int
    rule: str = "SOLO-44"


@dataclass(frozen=True, kw_only=True)
class TychoInquisitorRemoved(PlayerEvent):
    rule: str = "SOLO-46"


@dataclass(frozen=True, kw_only=True)
class TychoConstellationObserved(GrantingEvent):
    """SOLO-48: his leftmost Constellation token on the observable constellation worth most; only its VP."""

    card: str
    space: int
    index: int
    slot: int
    vp: int
    rule: str = "SOLO-48"


@dataclass(frozen=True, kw_only=True)
class TychoMajorObjectTaken(GrantingEvent):
    """SOLO-49: the card whose Major Object scores most into his library; only its VP; the board refills."""

    card: str
    space: int
    vp: int
    rule: str = "SOLO-49"


@dataclass(frozen=True, kw_only=True)
class MovementStackRevealed(PlayerEvent):
    """SOLO-24: at the end of the game, the Movement stack as dealt (checkable against the commitment)."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    stack: tuple[str, ...]
    rule: str = "SOLO-24"


EVENTS: tuple[type[Event], ...] = (  # its wire vocabulary (domain/vocabulary.py)
    OpponentDealt,
    MovementTileRevealed,
    TychoMoved,
    TychoTileUpgraded,
    TychoRowChosen,
    TychoDicePaid,
    TychoCometPlaced,
    TychoCometMoved,
    TychoDieGained,
    TychoBookMoved,
    TychoLectured,
    TychoInquisitorRemoved,
    TychoConstellationObserved,
    TychoMajorObjectTaken,
    MovementStackRevealed,
)
