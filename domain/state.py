"""The game state: immutable values, replaced (never mutated) by `evolve`.

A value is changed by copying it: `replace(value, **changes)` (like `dataclasses.replace`, for the
state classes, their parts and the events) and, for the hottest copies, `changer(cls, *names)`, a
copier of exactly those fields given positionally. Rules code copies through these two only; how
they copy is this module's private detail (`domain/_copy.py`).

Positions and codes used throughout (digest §0.4):
- starry sky index: 0 X1, 1 X2, 2 S1, 3 S2, 4 S3, 5 S4, 6 U; the Action-tile queue q0..q5 uses the
  same indices 0..5 (SKY-3);
- dice are `(colour, value)` pairs, kept sorted; colours "R", "Y", "B";
- comet token states: "slot", "sky1", "sky2", "pending", "book" (SPOT-5);
- cellar spaces C1..C4 are indices 0..3;
- library rows R1..R4 are indices 0..3, Book-token position `p` as in LIB-3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from domain._copy import changer as changer
from domain._copy import replace as replace
from domain.catalog import Catalog
from domain.options import Options
from domain.ruleset import Ruleset

Die = tuple[str, int]
COLOURS = ("R", "Y", "B")
SKY = ("X1", "X2", "S1", "S2", "S3", "S4", "U")
START, S1, S2, S3, S4, UPGRADE = 1, 2, 3, 4, 5, 6
MAX_DICE = 4  # DIE-2
MAX_PER_COLOUR = 3  # DIE-2
TOKENS = 7  # comets and constellation tokens per player (COMP-8)


class Part:
    """State that a plug-in adds: an expansion to the game (`GameState.parts`), a character or an
    opponent to a seat (`PlayerState.parts`). Subclasses are frozen dataclasses with a unique `key`, the
    name of their JSON member in a dumped state (`domain/parts.py` registers how each one is written and
    read). The base engine never looks inside a part; the plug-in that owns it does, through
    `state.part(ItsClass)` (a typed field of its own: no state class is changed by a plug-in). A part
    whose fields are all at rest is absent (`at_rest`), so a position has one form whether it was played
    or loaded."""

    __slots__ = ()
    key: ClassVar[str]

    @classmethod
    def empty(cls, owner: Any) -> Part:
        """The part of an owner that has none (its fields at rest)."""
        raise NotImplementedError(f"{cls.__name__} has no empty form")

    def at_rest(self) -> bool:
        """True when the part holds nothing (it is then left out of its owner)."""
        return False

    # A seat's part that holds a plug-in's own Inquisitor figures in its cellar answers what the base
    # rules count of them (domain/scoring.py); a part without any answers 0.

    def inquisitors(self) -> int:
        """The plug-in's own Inquisitor figures in a seat's cellar (counted with the ordinary ones)."""
        return 0

    def on_rightmost(self) -> int:
        """Its figures on the rightmost cellar space (INQ-15, INQ-16)."""
        return 0

    def interrogation(self, arch: tuple[int, ...]) -> int:
        """What its figures add to an Interrogation's total, the arch values per space given (INQ-21)."""
        return 0

    def cellar_points(self, bottom: tuple[int, ...], options: Options) -> int:
        """What its figures score at the final scoring, the bottom values per space given (SCO-3)."""
        return 0


P = TypeVar("P", bound=Part)


def find_part(parts: tuple[Part, ...], cls: type[P]) -> P | None:
    for part in parts:
        if type(part) is cls:
            return part
    return None


def put_part(parts: tuple[Part, ...], value: Part) -> tuple[Part, ...]:
    """`parts` with `value` in place of the part of its class; an absent one is added in the order of the
    parts' keys, so that parts gained in any order (or loaded: `domain/parts.py`) compare equal. A part
    at rest is left out (`Part.at_rest`)."""
    cls = type(value)
    for i, part in enumerate(parts):
        if type(part) is cls:
            if value.at_rest():
                return (*parts[:i], *parts[i + 1 :])
            return (*parts[:i], value, *parts[i + 1 :])
    if value.at_rest():
        return parts
    return tuple(sorted((*parts, value), key=lambda part: part.key))


@dataclass(frozen=True, slots=True)
class Task:
    """One entry of the agenda: an effect still to resolve, or an open multi-step action (RES-2).

    `kind` is an effect code (VP, Q, PER, DIE, LEC, INC, RAISE, INQ, FW, CARD, WRITE, WC, UPG, SPOT,
    RECOLOUR, REFILL) or a step of an action (OBSERVE, COMPLETE, BOOK). `n` is its amount,
    `arg` its parameter (a colour, a row, a space) and `source` where it came from: for VP it is
    the points source reported by VictoryPointsScored.
    """

    kind: str
    n: int = 1
    arg: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class PlayerState:
    seat: int
    name: str
    character: str
    telescope: int
    queue: tuple[str, ...]
    upgraded: frozenset[str]
    dice: tuple[Die, ...]
    quadrants: int
    score: int
    points: tuple[tuple[str, int], ...]  # points by source, sorted by source
    books: tuple[int, ...]
    library: tuple[tuple[str, bool], ...]  # (card id, dark side up) in acquisition order
    comets: tuple[str, ...]
    tokens_used: int  # Constellation tokens off the board; the leftmost left is index tokens_used
    tokens_boxed: int  # of those, returned to the box with a taken card (OBS-42)
    cellar: tuple[int, ...]  # ordinary Inquisitors per cellar space
    reputation: int
    university: tuple[int, ...]  # height per Scale tile slot (SCL-1)
    achievements: tuple[str, ...]  # objectives claimed, in order
    appendix: int = 0  # comets in the Book's Appendix (BOC-4)
    parts: tuple[Part, ...] = ()  # an expansion's, a character's or an opponent's own state (domain/parts.py)

    def part(self, cls: type[P]) -> P | None:
        return find_part(self.parts, cls)

    # The counts below are read for every leaf a bot evaluates (domain/bots.py `evaluate`): plain loops
    # and C-level counts, not generators.

    @property
    def major_objects(self) -> int:
        """Dark-side cards in the library (LIB-5)."""
        count = 0
        for _, dark in self.library:
            if dark:
                count += 1
        return count

    @property
    def comets_off(self) -> int:
        return len(self.comets) - self.comets.count("slot")

    @property
    def inquisitors(self) -> int:
        """Inquisitors in the cellar, a plug-in's own figures included (INQ-21)."""
        count = sum(self.cellar)
        for part in self.parts:
            count += part.inquisitors()
        return count

    def count(self, colour: str) -> int:
        count = 0
        for c, _ in self.dice:
            if c == colour:
                count += 1
        return count


@dataclass(frozen=True, slots=True)
class TurnState:
    seat: int
    number: int  # turns played before this one (0-based); round = number // players
    phase: str  # "movement" | "actions" | "cleanup" | "scoring" | "over"
    fixed_done: bool = False
    moving_done: bool = False
    used_tile: str | None = None
    rotated: bool = False
    inquisitor_moved: bool = False
    interrogated: bool = False
    cellar_peak: int = 0  # most Inquisitors held at once this turn (AMB-16 option)
    comets_used: frozenset[int] = frozenset()  # OBS-31
    windows_closed: int = 0  # Cleanup free-action windows: 1 = the first closed, 2 = the last closed
    objectives_due: tuple[str, ...] | None = None  # OBJ-2: objectives met when Cleanup step 4 began
    space: int = 0  # the space the telescope reached in the Movement phase (AMB-21: B3 relocates later)
    parts: tuple[Part, ...] = ()  # a plug-in's own state for this turn only (domain/parts.py)

    def part(self, cls: type[P]) -> P | None:
        return find_part(self.parts, cls)


@dataclass(frozen=True, slots=True)
class GameState:
    catalog: Catalog = field(compare=False, repr=False)
    rules: Ruleset = field(compare=False, repr=False)  # the game's rules, composed once (domain/ruleset.py)
    catalog_edition: str
    catalog_hash: str
    options: Options
    players: tuple[PlayerState, ...]
    first_seat: int
    display: tuple[str | None, ...]  # the six Discovery spaces
    covers: tuple[tuple[int, ...], ...]  # per display space, per constellation: covering seat or -1
    deck: tuple[str, ...]  # hidden: top card first
    box: tuple[str, ...]  # hidden: Tier I/II cards not in the deck
    reserve: tuple[str, ...]  # hidden: Tier III cards not in the deck, in draw order (END-4)
    supply: tuple[int, ...]  # dice per colour in the supply, in COLOURS order
    scale: tuple[str, ...]  # Scale face ids in the University, left to right
    subjects: tuple[str, ...]  # arch subject on each Scale tile (SUBJ-1)
    objectives: tuple[str, ...]  # the four objectives in play (OBJ-1)
    claims: tuple[tuple[int, ...], ...]  # per objective, the seats that claimed it, in order
    pages: tuple[int, ...]  # per Book-of-Comets page (catalog order): covering seat or -1
    turn: TurnState
    agenda: tuple[Task, ...] = ()
    last_turn: int | None = None  # END-3: number of the final turn once the end is triggered
    winners: tuple[int, ...] = ()
    seed: str = ""  # hidden until the end
    salt: str = ""  # hidden until the end
    commitment: str = ""
    dealt: tuple[tuple[str, ...], ...] = ()  # hidden: (deck, box, reserve, an expansion's deal) as committed
    forks: int = 0  # number of re-deals (GameForked) so far
    engine_version: str = "0.1.0"  # the game's rules version (GameStarted.engine_version, docs/editions.md)
    frozen: frozenset[int] = frozenset()  # forfeited seats: score frozen, turns skipped (domain/forfeit.py)
    parts: tuple[Part, ...] = ()  # an expansion's own state (domain/parts.py)

    def part(self, cls: type[P]) -> P | None:
        return find_part(self.parts, cls)

    @property
    def current(self) -> PlayerState:
        return self.players[self.turn.seat]

    @property
    def finished(self) -> bool:
        return self.turn.phase == "over"

    @property
    def die_max(self) -> int:
        return self.options.die_max or self.catalog.die_max
