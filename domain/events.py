"""Domain events: immutable facts with past-tense names (design.md, "domain/").

Every event names the seat it concerns (`None` for the game itself) and, where a rule decided the
outcome, the rule ID from rules-digest.md. Points change only through `VictoryPointsScored`, whose
`source` says why. Fields listed in `HIDDEN` are secret until the game ends (hidden information).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

from domain.state import Die


@dataclass(frozen=True, kw_only=True)
class Event:
    seat: int | None
    HIDDEN: ClassVar[tuple[str, ...]] = ()  # secret from everyone until the game ends
    OWNER_ONLY: ClassVar[tuple[str, ...]] = ()  # seen only by the event's seat until the game ends
    OMITTED_WHEN_NONE: ClassVar[tuple[str, ...]] = ()  # fields left out of the JSON form when None
    REVEALS: ClassVar[bool] = False  # it shows something hidden until then (domain/takeback.py)
    # Schema versions (docs/events.md): the engine version that introduced each shape of this event,
    # oldest first; the class's schema version is their count. A new shape appends the new engine
    # version here and declares the upcaster of the previous one in `domain.vocabulary.UPCASTERS`.
    SCHEMAS: ClassVar[tuple[str, ...]] = ("0.1.0",)
    # The name its JSON form and a store record it under: the class's own, unless it refines a released
    # event, which keeps the released name and is told apart by constant members of its JSON form
    # (`MARKS`: member, value, the field it is written after). docs/events.md, "One name, two classes".
    NAME: ClassVar[str] = "Event"
    MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "NAME" not in vars(cls):
            cls.NAME = cls.__name__

    @property
    def type(self) -> str:
        return self.NAME


@dataclass(frozen=True, kw_only=True)
class PlayerEvent(Event):
    """An event about one seat."""

    seat: int


# One effect an event puts on the agenda: (kind, n, arg, source), as `domain.state.Task` (docs/events.md).
Grant = tuple[str, int, str, str]


@dataclass(frozen=True, kw_only=True)
class GrantingEvent(PlayerEvent):
    """An event that grants effects (rewards and follow-up steps): `grants` lists them in resolution
    order, as the rules engine decided them when the event was written, and replay only applies them.

    Schema 1 (rules 0.1.0, the first release) had no `grants`: such an event is upcast with
    `grants=None`, and only for a game pinned to rules 0.1.0 does replay derive them, by those rules
    (`domain/grants.py`, docs/editions.md)."""

    grants: tuple[Grant, ...] | None = None
    SCHEMAS: ClassVar[tuple[str, ...]] = ("0.1.0", "0.2.0")
    OMITTED_WHEN_NONE: ClassVar[tuple[str, ...]] = ("grants",)  # a rules-0.1.0 event keeps its first shape


# -- setup and the game as a whole ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """SET-1..27: the whole setup, with the hidden deal committed (design.md, "Audit and fairness")."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    seats: tuple[tuple[str, str], ...]  # (name, character) per seat
    first_seat: int
    options: Mapping[str, Any]
    catalog_edition: str
    catalog_hash: str
    engine_version: str
    display: tuple[str, ...]
    scale: tuple[str, ...]
    subjects: tuple[str, ...]
    objectives: tuple[str, ...]
    queues: tuple[tuple[str, ...], ...]
    supply: tuple[int, ...]
    deck_size: int
    commitment: str
    deck: tuple[str, ...]
    box: tuple[str, ...]
    reserve: tuple[str, ...]
    seed: str
    salt: str
    # An expansion's setup deal, in the fields the first release wrote (domain/setup.py `ExtraDeal`;
    # docs/events.md names them): a board side, its tiles face up, and its hidden order.
    luna_side: str = ""
    moon_revealed: tuple[str, ...] = ()
    moon_hidden: tuple[str, ...] = ()
    rule: str = "SET-3"
    # CHAR-1: the side of each seat's character ("basic"/"ability"); None when every seat plays basic
    sides: tuple[str, ...] | None = None
    # each seat's character setup (CHAR-KEP-1: Kepler's set-aside tile; None = the basic setup); None
    # when no seat has one. Both are left out of the JSON form when None: older games keep their shape.
    layouts: tuple[Mapping[str, Any] | None, ...] | None = None
    # each seat's character's hidden order (Hevelius' deck, Cunitz' Notes), committed with the cards;
    # None when no seat has one (left out of the JSON form)
    character_deals: tuple[tuple[str, ...], ...] | None = None
    HIDDEN: ClassVar[tuple[str, ...]] = (
        "deck", "box", "reserve", "seed", "salt", "moon_hidden", "character_deals",
    )  # fmt: skip
    OMITTED_WHEN_NONE: ClassVar[tuple[str, ...]] = ("sides", "layouts", "character_deals")


@dataclass(frozen=True, kw_only=True)
class GameForked(Event):
    """A fork re-deals every card still unseen with a new seed and a new commitment."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    source_game: str
    source_version: int
    commitment: str
    deck: tuple[str, ...]
    box: tuple[str, ...]
    reserve: tuple[str, ...]
    seed: str
    salt: str
    moon_hidden: tuple[str, ...] = ()
    # the re-dealt hidden order of each seat's character (Hevelius' deck, Cunitz' Notes); None: none
    character_deals: tuple[tuple[str, ...], ...] | None = None
    HIDDEN: ClassVar[tuple[str, ...]] = (
        "deck",
        "box",
        "reserve",
        "seed",
        "salt",
        "moon_hidden",
        "character_deals",
    )
    OMITTED_WHEN_NONE: ClassVar[tuple[str, ...]] = ("character_deals",)


@dataclass(frozen=True, kw_only=True)
class EndOfGameTriggered(PlayerEvent):
    turn: int
    last_turn: int
    rule: str = "END-1"


@dataclass(frozen=True, kw_only=True)
class TurnEnded(PlayerEvent):
    turn: int
    rule: str = "TURN-1"


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak: tuple[tuple[int, int, int], ...]  # per seat: (score, dice total, quadrants) (TIE-1)
    seed: str
    salt: str
    deck: tuple[str, ...]  # the deal behind the commitment, revealed (design.md)
    box: tuple[str, ...]
    reserve: tuple[str, ...]
    moon: tuple[str, ...] = ()  # an expansion's hidden order as dealt (`ExtraDeal`), revealed
    # each seat's character's hidden order as committed (Hevelius' deck, Cunitz' Notes); None: none
    character_deals: tuple[tuple[str, ...], ...] | None = None
    rule: str = "TIE-1"
    OMITTED_WHEN_NONE: ClassVar[tuple[str, ...]] = ("character_deals",)


# -- turn structure ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TelescopeMoved(GrantingEvent):
    start: int
    end: int
    steps: int
    wrapped: bool
    rule: str = "MOV-1"


@dataclass(frozen=True, kw_only=True)
class FixedActionTaken(GrantingEvent):
    action: str  # "die" | "lecture" | "spot" | "upgrade"
    space: str
    rule: str = "ACT-1"


@dataclass(frozen=True, kw_only=True)
class MovingActionTaken(GrantingEvent):
    tile: str  # "" for the Quadrant of the Upgrade space (UPG-2)
    option: int
    upgraded: bool
    rule: str = "ACT-5"


@dataclass(frozen=True, kw_only=True)
class FreeActionBought(GrantingEvent):
    action: str
    cost: int
    rule: str = "FREE-1"


@dataclass(frozen=True, kw_only=True)
class ActionPhaseEnded(PlayerEvent):
    rule: str = "TURN-2"


@dataclass(frozen=True, kw_only=True)
class FreeActionsClosed(PlayerEvent):
    """The player ends the Cleanup free-action window (freeActionsInAllPhases)."""

    rule: str = "FREE-3"


# -- observing -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MajorObjectObserved(GrantingEvent):
    card: str
    space: int
    dice: tuple[Die, ...]
    comets: tuple[int, ...]
    cost: int
    rule: str = "OBS-22"


@dataclass(frozen=True, kw_only=True)
class ConstellationObserved(GrantingEvent):
    card: str
    space: int
    index: int
    dice: tuple[Die, ...]
    comets: tuple[int, ...]
    cost: int
    slot: int
    rule: str = "OBS-21"


@dataclass(frozen=True, kw_only=True)
class ObservationEnded(PlayerEvent):
    rule: str = "OBS-1"


@dataclass(frozen=True, kw_only=True)
class CardDealt(PlayerEvent):
    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)
    space: int
    card: str
    from_reserve: bool
    rule: str = "OBS-43"


@dataclass(frozen=True, kw_only=True)
class CardDrawnFaceDown(PlayerEvent):
    """OBS-52: a card added face down (light side up): others see its tier and back, not its front."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    card: str
    from_reserve: bool
    tier: int = 0
    back: tuple[tuple[str, ...], ...] = ()
    rule: str = "OBS-52"
    OWNER_ONLY: ClassVar[tuple[str, ...]] = ("card",)


# -- reward primitives -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class VictoryPointsScored(PlayerEvent):
    points: int
    source: str
    rule: str


@dataclass(frozen=True, kw_only=True)
class QuadrantsGained(PlayerEvent):
    amount: int
    rule: str = "ICON-3"


@dataclass(frozen=True, kw_only=True)
class DieGained(PlayerEvent):
    colour: str
    value: int
    returned: Die | None
    rule: str = "GAIN-2"


@dataclass(frozen=True, kw_only=True)
class DieGainDeclined(PlayerEvent):
    rule: str = "DIE-5"


@dataclass(frozen=True, kw_only=True)
class DiceRaised(PlayerEvent):
    colour: str
    amount: int
    rule: str = "ICON-1"


@dataclass(frozen=True, kw_only=True)
class DieRaised(PlayerEvent):
    die: Die
    amount: int
    rule: str = "ICON-5"


@dataclass(frozen=True, kw_only=True)
class DieRecoloured(PlayerEvent):
    die: Die
    colour: str
    rule: str = "DIE-11"


@dataclass(frozen=True, kw_only=True)
class InquisitorGained(PlayerEvent):
    rule: str = "INQ-2"


@dataclass(frozen=True, kw_only=True)
class InquisitorPersuaded(GrantingEvent):
    """INQ-10: an ordinary Inquisitor moved from `start` to `end`. A plug-in's own kind of Inquisitor
    moved is a refinement of it, written under this name with another value of the released mark
    (`MARKS`)."""

    start: int
    end: int
    rule: str = "INQ-10"
    MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = (("grand", False, "end"),)


@dataclass(frozen=True, kw_only=True)
class FarewellTaken(GrantingEvent):
    rule: str = "INQ-15"


@dataclass(frozen=True, kw_only=True)
class FarewellDeclined(PlayerEvent):
    rule: str = "INQ-17"


@dataclass(frozen=True, kw_only=True)
class LectureGiven(GrantingEvent):
    tile: int
    height: int
    rule: str = "LEC-1"


@dataclass(frozen=True, kw_only=True)
class CometSpotted(PlayerEvent):
    comet: int
    rule: str = "SPOT-1"


@dataclass(frozen=True, kw_only=True)
class TileUpgraded(PlayerEvent):
    tile: str
    rule: str = "UPG-1"


@dataclass(frozen=True, kw_only=True)
class BookTokenMoved(GrantingEvent):
    row: int
    start: int
    end: int
    rule: str = "WRT-4"


@dataclass(frozen=True, kw_only=True)
class CompleteWritingStarted(PlayerEvent):
    row: int
    target: int
    rule: str = "WRT-2"


@dataclass(frozen=True, kw_only=True)
class WritingStopped(PlayerEvent):
    unused: int
    rule: str = "WRT-3"


@dataclass(frozen=True, kw_only=True)
class EffectLost(PlayerEvent):
    """RES-4: an effect (or part) that cannot be carried out is lost."""

    effect: str
    reason: str
    rule: str


# -- cleanup -------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ActionTilesRotated(PlayerEvent):
    tile: str
    queue: tuple[str, ...]
    rule: str = "ROT-1"


@dataclass(frozen=True, kw_only=True)
class CometPlacedInBook(GrantingEvent):
    comet: int
    page: str  # a page id, or "appendix"
    rule: str = "BOC-2"


@dataclass(frozen=True, kw_only=True)
class InterrogationHeld(GrantingEvent):
    total: int
    start: int
    end: int
    overflow: int  # VP gained or lost at the end of the track (INQ-24)
    rule: str = "INQ-21"


@dataclass(frozen=True, kw_only=True)
class ObjectivesChecked(PlayerEvent):
    """OBJ-2: Cleanup step 4 begins; these objectives are met now and are claimed in order."""

    met: tuple[str, ...]
    rule: str = "OBJ-2"


@dataclass(frozen=True, kw_only=True)
class ObjectiveAchieved(GrantingEvent):
    objective: str
    first: bool
    rule: str = "OBJ-3"


# -- the table: facts the service records about who plays a seat, the clocks and take-backs ----------
# (docs/async.md). They are not rules of the game: their rule IDs are the service's ASYNC-n. Only
# `TakenBack`, `SeatFrozen` (and a hand-over that ends a freeze) change the state; the others are facts
# that replay and verification carry along.


@dataclass(frozen=True, kw_only=True)
class TimeExpired(PlayerEvent):
    """ASYNC-1: the seat to act ran out of time; `policy` is what the game does about it."""

    policy: str  # "bot" (a bot takes the seat over) or "forfeit" (the seat is frozen: SeatFrozen)
    deadline: str  # ISO 8601, the time the seat's clock ran out
    rule: str = "ASYNC-1"


@dataclass(frozen=True, kw_only=True)
class SeatResigned(PlayerEvent):
    """ASYNC-2: the seat resigned; `policy` as for TimeExpired."""

    policy: str
    rule: str = "ASYNC-2"


@dataclass(frozen=True, kw_only=True)
class SeatHandedOver(PlayerEvent):
    """ASYNC-3: who plays the seat from now on: `to` is "bot", "forfeit" or "person"."""

    to: str
    bot: str = ""  # the bot's kind when `to` is "bot"
    reason: str = ""  # "time", "resigned" or "host"
    rule: str = "ASYNC-3"


@dataclass(frozen=True, kw_only=True)
class SeatFrozen(PlayerEvent):
    """ASYNC-3: the forfeited seat's score is frozen and its turns are skipped from here on (recorded
    after each hand-over to "forfeit"; domain/forfeit.py)."""

    rule: str = "ASYNC-3"


@dataclass(frozen=True, kw_only=True)
class ClockPauseRequested(PlayerEvent):
    """ASYNC-4: a person asks to pause the clocks (vacation); all people must ask."""

    rule: str = "ASYNC-4"


@dataclass(frozen=True, kw_only=True)
class ClockPaused(Event):
    """ASYNC-4: every person agreed: the clocks stop."""

    rule: str = "ASYNC-4"


@dataclass(frozen=True, kw_only=True)
class ClockResumed(Event):
    """ASYNC-4: the clocks run again (`by`: a seat number as text, or "host")."""

    by: str
    rule: str = "ASYNC-4"


@dataclass(frozen=True, kw_only=True)
class ClockExtended(PlayerEvent):
    """ASYNC-5: the host gave the seat more time."""

    seconds: int
    rule: str = "ASYNC-5"


@dataclass(frozen=True, kw_only=True)
class TakeBackRequested(PlayerEvent):
    """ASYNC-6: the seat asks the other people to let it take back its commands since `to_version`."""

    to_version: int
    expires_at: str  # ISO 8601: unanswered by then, the request lapses
    rule: str = "ASYNC-6"


@dataclass(frozen=True, kw_only=True)
class TakeBackAnswered(PlayerEvent):
    """ASYNC-6: a person accepts or declines the pending take-back request."""

    accepted: bool
    rule: str = "ASYNC-6"


@dataclass(frozen=True, kw_only=True)
class TakenBack(PlayerEvent):
    """ASYNC-7: the game returns to its state after event `to_version`; nothing is deleted.

    `state` is that state in its JSON form (`dump_state`), hidden until the game ends like the deal it
    holds; `scores` and `points` (points by source per seat) are its public part."""

    to_version: int
    scores: tuple[int, ...]
    points: tuple[tuple[tuple[str, int], ...], ...]
    state: Mapping[str, Any]
    rule: str = "ASYNC-7"
    HIDDEN: ClassVar[tuple[str, ...]] = ("state",)


@dataclass(frozen=True, kw_only=True)
class TakeBackClosed(PlayerEvent):
    """ASYNC-6: the open take-back request of `seat` is closed because a seat (`by_seat`) resigned, ran
    out of time or was handed over (`reason`: "resigned", "time" or "host"): the people it asked are not
    the same any more, so it no longer blocks a new request."""

    by_seat: int
    reason: str
    rule: str = "ASYNC-6"


@dataclass(frozen=True, kw_only=True)
class SeatLinkReissued(PlayerEvent):
    """ASYNC-9: the table's host re-issued the seat's link: a new token opens the seat, the old one no
    longer does (the tokens themselves are credentials, never events)."""

    rule: str = "ASYNC-9"


@dataclass(frozen=True, kw_only=True)
class GameCancelled(Event):
    """ASYNC-8: the table's host cancelled the game; nobody acts any more."""

    rule: str = "ASYNC-8"


# -- people: an account's hold on a seat (docs/accounts.md). Facts of the table like the ones above, with
# the service's ACCT-n rules; `holder` is the account's pseudonym in this game, never a name or an address.


@dataclass(frozen=True, kw_only=True)
class SeatClaimed(PlayerEvent):
    """ACCT-1: the holder of the seat's link attached the seat to an account (`holder`: its pseudonym in
    this game, an HMAC under a key of the account that its deletion destroys)."""

    holder: str
    rule: str = "ACCT-1"


@dataclass(frozen=True, kw_only=True)
class SeatRecovered(PlayerEvent):
    """ACCT-2: the account the seat is attached to opened it on another device: a new seat token was issued
    and the one before stopped working."""

    holder: str
    rule: str = "ACCT-2"


@dataclass(frozen=True, kw_only=True)
class SeatInvited(PlayerEvent):
    """ACCT-7: the table's host invited an account to the seat: the seat is attached to it as by a claim,
    and the invitee finds the game under My games and opens the seat there (ACCT-2)."""

    holder: str
    rule: str = "ACCT-7"


TABLE_EVENTS: tuple[type[Event], ...] = (
    TimeExpired,
    SeatResigned,
    SeatHandedOver,
    SeatFrozen,
    ClockPauseRequested,
    ClockPaused,
    ClockResumed,
    ClockExtended,
    TakeBackRequested,
    TakeBackAnswered,
    TakenBack,
    TakeBackClosed,
    SeatLinkReissued,
    GameCancelled,
    SeatClaimed,
    SeatRecovered,
    SeatInvited,
)


# The base game's event types (the table by name, with every plug-in's, is `domain.vocabulary.EVENT_TYPES`).
# The name is what a store records (replays/store.py: topic `galileo:<name>`), so a class is never renamed.
EVENTS: tuple[type[Event], ...] = (
    GameStarted,
    GameForked,
    EndOfGameTriggered,
    TurnEnded,
    GameEnded,
    TelescopeMoved,
    FixedActionTaken,
    MovingActionTaken,
    FreeActionBought,
    ActionPhaseEnded,
    FreeActionsClosed,
    MajorObjectObserved,
    ConstellationObserved,
    ObservationEnded,
    CardDealt,
    CardDrawnFaceDown,
    VictoryPointsScored,
    QuadrantsGained,
    DieGained,
    DieGainDeclined,
    DiceRaised,
    DieRaised,
    DieRecoloured,
    InquisitorGained,
    InquisitorPersuaded,
    FarewellTaken,
    FarewellDeclined,
    LectureGiven,
    CometSpotted,
    TileUpgraded,
    BookTokenMoved,
    CompleteWritingStarted,
    WritingStopped,
    EffectLost,
    ActionTilesRotated,
    CometPlacedInBook,
    InterrogationHeld,
    ObjectivesChecked,
    ObjectiveAchieved,
    *TABLE_EVENTS,
)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


_ATOMS = frozenset({str, int, float, bool, type(None)})  # values kept as they are


def _frozen(value: Any) -> Any:
    """A JSON value as an event field holds it: lists (and tuples) as tuples, all the way down."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list or kind is tuple or isinstance(value, list | tuple):
        return tuple([_frozen(v) for v in value])
    if kind is dict or isinstance(value, Mapping):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready form: {"type": name, field: value...}; tuples become lists (docs/events.md). A class
    with `MARKS` writes them after the fields they follow (the released form of its name)."""
    out: dict[str, Any] = {"type": event.NAME}
    omitted = event.OMITTED_WHEN_NONE
    cls: Any = type(event)  # a class is hashable (the cache's key)
    for name, mark in _layout(cls):
        if mark is not None:
            out[name] = mark[0]
            continue
        value = getattr(event, name)
        if value is None and name in omitted:
            continue
        out[name] = _plain(value)
    return out


@cache
def _layout(cls: type[Any]) -> tuple[tuple[str, tuple[Any] | None], ...]:
    """The members of a `cls` event's JSON form after "type", in order: each field (None), and each mark
    (its value) after the field it follows."""
    out: list[tuple[str, tuple[Any] | None]] = []
    for f in fields(cls):
        out.append((f.name, None))
        out += [(name, (value,)) for name, value, after in cls.MARKS if after == f.name]
    return tuple(out)


def _no_grants(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2 of a granting event: it did not record its grants (rules 0.1.0 derives them)."""
    return {**data, "grants": None}


@cache
def _version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        raise ValueError(f"malformed engine version {version!r}") from None


def schema_version(cls: type[Event], written_by: str | None = None) -> int:
    """The schema version of `cls` as the engine `written_by` wrote it (None: this build's)."""
    if written_by is None:
        return len(cls.SCHEMAS)
    key = _version_key(written_by)
    return max(1, sum(1 for since in cls.SCHEMAS if _version_key(since) <= key))


def owns_private_fields(event: Event, viewer: int | None) -> bool:
    """Whether `viewer` sees fields of `event` that a spectator does not (before the game ends): the
    fields private to the event's seat (`OWNER_ONLY`), when the viewer is that seat."""
    return viewer is not None and viewer == event.seat and bool(event.OWNER_ONLY)


def redact_event(event: Event, viewer: int | None = None) -> dict[str, Any]:
    """The event as `viewer` (a seat, or None for a spectator) may see it before the game ends:
    hidden fields removed, and fields private to the event's seat removed for everyone else."""
    out = event_to_dict(event)
    removed = list(event.HIDDEN)
    if not owns_private_fields(event, viewer):
        removed += event.OWNER_ONLY
    for name in removed:
        out.pop(name, None)
    if removed:
        out["redacted"] = removed
    return out
