"""The Luna expansion's events (digest §18), declared in `EVENTS` (composed
with the base game's in `domain.vocabulary.EVENT_TYPES`).

Their names are stored (replays/store.py: topic `galileo:<name>`) and their shapes released: like the
base events, they are never renamed, and a new shape goes through a schema version and an upcaster
(docs/events.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.events import Event, GrantingEvent, PlayerEvent
from domain.state import Die


@dataclass(frozen=True, kw_only=True)
class MoonObserved(GrantingEvent):
    """LUNA-20..23: the Moon observed on Moon tile `tile`; its Scoring tile goes to the box."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    tile: str
    scoring: str
    dice: tuple[Die, ...]
    comets: tuple[int, ...]
    cost: int
    rule: str = "LUNA-22"


@dataclass(frozen=True, kw_only=True)
class MoonPhaseAdvanced(PlayerEvent):
    """LUNA-31: a Dividing tile was revealed; the next column of Scoring tiles turns face up."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    phase: int
    revealed: tuple[str, ...]
    rule: str = "LUNA-31"


@dataclass(frozen=True, kw_only=True)
class ScoringTileScored(GrantingEvent):
    """LUNA-23.3: bonus scoring for the observer, basic scoring for every other player."""

    tile: str
    points: tuple[int, ...]  # per seat
    rule: str = "LUNA-23"


@dataclass(frozen=True, kw_only=True)
class GrandInquisitorGained(PlayerEvent):
    tile: str
    rule: str = "LUNA-40"


@dataclass(frozen=True, kw_only=True)
class GrandInquisitorDeparted(GrantingEvent):
    """LUNA-41/42: a fully persuaded Grand Inquisitor leaves for a Bonus Board space."""

    space: int
    rule: str = "LUNA-42"


@dataclass(frozen=True, kw_only=True)
class BonusBoardRewardTaken(GrantingEvent):
    side: str
    space: int
    lost: bool = False  # the reward cannot be used (A2 without tokens, A8 without comets)
    rule: str = "LUNA-42"


@dataclass(frozen=True, kw_only=True)
class MoonObjectiveAchieved(GrantingEvent):
    choice: str  # "vp" or "quadrants"
    rule: str = "LUNA-80"


@dataclass(frozen=True, kw_only=True)
class TelescopeRelocated(GrantingEvent):
    start: int
    end: int
    rule: str = "LUNA-BB-3"


@dataclass(frozen=True, kw_only=True)
class ActionTilesSwapped(PlayerEvent):
    first: str
    second: str
    queue: tuple[str, ...]
    rule: str = "LUNA-BA-7"


@dataclass(frozen=True, kw_only=True)
class LibraryRewardsRegained(GrantingEvent):
    row: int
    position: int
    rule: str = "LUNA-BA-5"


@dataclass(frozen=True, kw_only=True)
class BonusActionTaken(GrantingEvent):
    """LUNA-BA-6: the moving action of any Action tile; the tile then rotates to q0."""

    tile: str
    option: int
    upgraded: bool
    rule: str = "LUNA-BA-6"


@dataclass(frozen=True, kw_only=True)
class ScaleRewardCollected(GrantingEvent):
    tile: int
    height: int
    rule: str = "LUNA-BB-7"


@dataclass(frozen=True, kw_only=True)
class BonusDeclined(PlayerEvent):
    """An optional part of a Luna reward declined (B3's fixed action, B7's Inquisitor icons)."""

    effect: str
    rule: str = "RES-7"


EVENTS: tuple[type[Event], ...] = (  # its wire vocabulary (domain/vocabulary.py)
    MoonObserved,
    MoonPhaseAdvanced,
    ScoringTileScored,
    GrandInquisitorGained,
    GrandInquisitorDeparted,
    BonusBoardRewardTaken,
    MoonObjectiveAchieved,
    TelescopeRelocated,
    ActionTilesSwapped,
    LibraryRewardsRegained,
    BonusActionTaken,
    ScaleRewardCollected,
    BonusDeclined,
)
