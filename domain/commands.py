"""Commands: what a seat asks to do, with a short text notation that parses back (like UCI).

Notation: `@<seat> <verb> [args]`, e.g. `@0 move 2`, `@1 observe MO:D1-03 R4+B3 c1=0 c2=1`,
`@2 persuade C1`, `@0 die Y swap R3`, `@0 page blue-2`. `parse_command(str(cmd)) == cmd` and
`repr(cmd)` is an expression that rebuilds it. The grammar is documented in docs/notation.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from domain.events import InquisitorPersuaded
from domain.state import COLOURS, Die, PlayerState

ROWS = ("R1", "R2", "R3", "R4")


def die_text(die: Die) -> str:
    return f"{die[0]}{die[1]}"


def parse_die(text: str) -> Die:
    if len(text) < 2 or text[0] not in COLOURS or not text[1:].isdigit():
        raise ValueError(f"bad die {text!r}: expected a colour R/Y/B and a value, e.g. R3")
    return (text[0], int(text[1:]))


@dataclass(frozen=True, kw_only=True, repr=False)
class Command:
    seat: int
    VERB: ClassVar[str] = ""
    # The JSON type of a field where it differs from `_check_type`'s table (e.g. a tile given by number).
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {}
    # The name of its JSON form (`"type"`): the class's own, unless it refines a released command, which
    # keeps the released name (and verb) and is told apart by constant members of its JSON form (`MARKS`:
    # member, value, the field it is written after), as events are (docs/events.md, "One name, two
    # classes").
    NAME: ClassVar[str] = "Command"
    MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "NAME" not in vars(cls):
            cls.NAME = cls.__name__

    def args(self) -> list[str]:
        return []

    def __str__(self) -> str:
        return " ".join([f"@{self.seat}", self.VERB, *self.args()])

    def __repr__(self) -> str:
        return f"parse_command({str(self)!r})"


@dataclass(frozen=True, kw_only=True, repr=False)
class Move(Command):
    """MOV-1: move the telescope 1-3 steps."""

    steps: int
    VERB: ClassVar[str] = "move"

    def args(self) -> list[str]:
        return [str(self.steps)]


@dataclass(frozen=True, kw_only=True, repr=False)
class Observe(Command):
    """OBS-1..35: observe `MO:<card>` or `C:<card>:<index>`, paying dice and comets."""

    target: str
    dice: tuple[Die, ...]
    comets1: int = 0  # "1" comets (above the cards) applied
    comets2: int = 0  # "2" comets (below the cards) applied
    VERB: ClassVar[str] = "observe"

    def __post_init__(self) -> None:
        # Dice of a payment are a multiset: keep them sorted so equal payments compare equal.
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def args(self) -> list[str]:
        dice = "+".join(die_text(d) for d in self.dice) or "-"  # "-": no dice (an observation for free)
        return [self.target, dice, f"c1={self.comets1}", f"c2={self.comets2}"]


@dataclass(frozen=True, kw_only=True, repr=False)
class StopObserving(Command):
    VERB: ClassVar[str] = "stop"


@dataclass(frozen=True, kw_only=True, repr=False)
class TakeFixed(Command):
    """ACT-1: the fixed action of the space (die, lecture, spot, upgrade; observe is `observe`)."""

    action: str
    VERB: ClassVar[str] = "fixed"

    def args(self) -> list[str]:
        return [self.action]


@dataclass(frozen=True, kw_only=True, repr=False)
class UseTile(Command):
    """ACT-5: the moving action, option 1 or 2 of the tile; option 0 is the Quadrant at U (UPG-2)."""

    option: int
    VERB: ClassVar[str] = "tile"

    def args(self) -> list[str]:
        return [str(self.option)]


@dataclass(frozen=True, kw_only=True, repr=False)
class BuyFree(Command):
    """FREE-1: recolour | raise (1 Q), die | write (2 Q), persuade (3 Q), spot (4 Q)."""

    action: str
    VERB: ClassVar[str] = "free"

    def args(self) -> list[str]:
        return [self.action]


@dataclass(frozen=True, kw_only=True, repr=False)
class EndActions(Command):
    VERB: ClassVar[str] = "end"


@dataclass(frozen=True, kw_only=True, repr=False)
class EndFreeActions(Command):
    """Close the Cleanup free-action window (freeActionsInAllPhases, AMB-24 / S001)."""

    VERB: ClassVar[str] = "done"


@dataclass(frozen=True, kw_only=True, repr=False)
class Persuade(Command):
    """INQ-10: persuade the ordinary Inquisitor on cellar space `space` (notation `C1`..`C4`). A plug-in
    with its own kind of Inquisitor refines it (its own `LETTER`, `figures` and `EVENT`), written under
    this name with another value of the released mark (`MARKS`)."""

    space: int  # cellar index 0..3 of the Inquisitor moved
    VERB: ClassVar[str] = "persuade"
    MARKS: ClassVar[tuple[tuple[str, Any, str], ...]] = (("grand", False, "space"),)
    LETTER: ClassVar[str] = "C"  # the notation's letter of the cellar space
    NOUN: ClassVar[str] = "Inquisitor"  # what one of the figures it moves is called (in a refusal)
    EVENT: ClassVar[type[InquisitorPersuaded]] = InquisitorPersuaded  # the event of a move of this kind

    def args(self) -> list[str]:
        return [f"{self.LETTER}{self.space + 1}"]

    @classmethod
    def figures(cls, p: PlayerState) -> tuple[int, ...]:
        """The figures this kind of Persuade moves, per cellar space of seat `p`: ordinary Inquisitors."""
        return p.cellar


@dataclass(frozen=True, kw_only=True, repr=False)
class GainDie(Command):
    colour: str
    returned: Die | None = None  # DIE-5 exchange
    VERB: ClassVar[str] = "die"

    def args(self) -> list[str]:
        return [self.colour] + (["swap", die_text(self.returned)] if self.returned else [])


@dataclass(frozen=True, kw_only=True, repr=False)
class DeclineDie(Command):
    VERB: ClassVar[str] = "nodie"


@dataclass(frozen=True, kw_only=True, repr=False)
class Lecture(Command):
    tile: int  # Scale tile slot 0..3
    VERB: ClassVar[str] = "lecture"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"tile": int}

    def args(self) -> list[str]:
        return [str(self.tile + 1)]


@dataclass(frozen=True, kw_only=True, repr=False)
class RaiseDie(Command):
    die: Die
    VERB: ClassVar[str] = "raise"

    def args(self) -> list[str]:
        return [die_text(self.die)]


@dataclass(frozen=True, kw_only=True, repr=False)
class Recolour(Command):
    die: Die
    colour: str
    VERB: ClassVar[str] = "recolour"

    def args(self) -> list[str]:
        return [die_text(self.die), self.colour]


@dataclass(frozen=True, kw_only=True, repr=False)
class Farewell(Command):
    accept: bool
    VERB: ClassVar[str] = "farewell"

    def args(self) -> list[str]:
        return ["yes" if self.accept else "no"]


@dataclass(frozen=True, kw_only=True, repr=False)
class WriteStep(Command):
    row: int
    VERB: ClassVar[str] = "write"

    def args(self) -> list[str]:
        return [ROWS[self.row]]


@dataclass(frozen=True, kw_only=True, repr=False)
class StopWriting(Command):
    VERB: ClassVar[str] = "stopwriting"


@dataclass(frozen=True, kw_only=True, repr=False)
class WriteComplete(Command):
    row: int
    VERB: ClassVar[str] = "complete"

    def args(self) -> list[str]:
        return [ROWS[self.row]]


@dataclass(frozen=True, kw_only=True, repr=False)
class Upgrade(Command):
    tile: str
    VERB: ClassVar[str] = "upgrade"

    def args(self) -> list[str]:
        return [self.tile]


@dataclass(frozen=True, kw_only=True, repr=False)
class PlaceComet(Command):
    page: str
    VERB: ClassVar[str] = "page"

    def args(self) -> list[str]:
        return [self.page]


# How the text notation's arguments of a command are read: (seat, args) -> the command (a parser raises
# ValueError or IndexError on bad arguments; `need_args`, `int_arg` and `row_arg` help).
Parser = Callable[[int, list[str]], Command]


def need_args(args: list[str], n: int) -> None:
    if len(args) != n:
        raise ValueError(f"expected {n} argument(s), got {len(args)}")


def row_arg(text: str) -> int:
    if text not in ROWS:
        raise ValueError(f"bad library row {text!r}: expected R1..R4")
    return ROWS.index(text)


def int_arg(text: str) -> int:
    if not text.lstrip("-").isdigit():
        raise ValueError(f"expected a number, got {text!r}")
    return int(text)


def _no_args(cls: type[Command]) -> Parser:
    def parse(seat: int, args: list[str]) -> Command:
        need_args(args, 0)
        return cls(seat=seat)

    return parse


def _one_arg(cls: type[Command], field_name: str, convert: Callable[[str], Any] = str) -> Parser:
    def parse(seat: int, args: list[str]) -> Command:
        need_args(args, 1)
        return cls(seat=seat, **{field_name: convert(args[0])})

    return parse


def _observe(seat: int, args: list[str]) -> Command:
    need_args(args, 4)
    dice = tuple(parse_die(d) for d in args[1].split("+")) if args[1] != "-" else ()
    if not (args[2].startswith("c1=") and args[3].startswith("c2=")):
        raise ValueError("expected c1=<n> c2=<n>")
    return Observe(
        seat=seat, target=args[0], dice=dice, comets1=int_arg(args[2][3:]), comets2=int_arg(args[3][3:])
    )


def persuade_parser(*classes: type[Persuade]) -> Parser:
    """The parser of `persuade <letter><n>`: the class of each letter (`Persuade.LETTER`), one of
    `classes`; domain/vocabulary.py composes it with every plug-in's kind of Inquisitor."""
    by_letter = {cls.LETTER: cls for cls in classes}
    forms = " or ".join(f"{letter}1..{letter}4" for letter in by_letter)

    def parse(seat: int, args: list[str]) -> Command:
        need_args(args, 1)
        cls = by_letter.get(args[0][:1])
        if len(args[0]) < 2 or cls is None:
            raise ValueError(f"bad cellar space {args[0]!r}: expected {forms}")
        return cls(seat=seat, space=int_arg(args[0][1:]) - 1)

    return parse


def _gain_die(seat: int, args: list[str]) -> Command:
    if len(args) == 1:
        return GainDie(seat=seat, colour=args[0])
    need_args(args, 3)
    if args[1] != "swap":
        raise ValueError("expected 'swap <die>'")
    return GainDie(seat=seat, colour=args[0], returned=parse_die(args[2]))


def _recolour(seat: int, args: list[str]) -> Command:
    need_args(args, 2)
    return Recolour(seat=seat, die=parse_die(args[0]), colour=args[1])


def _farewell(seat: int, args: list[str]) -> Command:
    need_args(args, 1)
    if args[0] not in ("yes", "no"):
        raise ValueError("expected yes or no")
    return Farewell(seat=seat, accept=args[0] == "yes")


def _tile_number(text: str) -> int:
    return int_arg(text) - 1


# The base game's commands, each with how its text notation's arguments are read (the tables by name and
# verb, with every plug-in's, are composed in domain/vocabulary.py).
COMMANDS: tuple[tuple[type[Command], Parser], ...] = (
    (Move, _one_arg(Move, "steps", int_arg)),
    (Observe, _observe),
    (StopObserving, _no_args(StopObserving)),
    (TakeFixed, _one_arg(TakeFixed, "action")),
    (UseTile, _one_arg(UseTile, "option", int_arg)),
    (BuyFree, _one_arg(BuyFree, "action")),
    (EndActions, _no_args(EndActions)),
    (EndFreeActions, _no_args(EndFreeActions)),
    (Persuade, persuade_parser(Persuade)),
    (GainDie, _gain_die),
    (DeclineDie, _no_args(DeclineDie)),
    (Lecture, _one_arg(Lecture, "tile", _tile_number)),
    (RaiseDie, _one_arg(RaiseDie, "die", parse_die)),
    (Recolour, _recolour),
    (Farewell, _farewell),
    (WriteStep, _one_arg(WriteStep, "row", row_arg)),
    (StopWriting, _no_args(StopWriting)),
    (WriteComplete, _one_arg(WriteComplete, "row", row_arg)),
    (Upgrade, _one_arg(Upgrade, "tile")),
    (PlaceComet, _one_arg(PlaceComet, "page")),
)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def command_to_dict(cmd: Command) -> dict[str, Any]:
    """JSON form: {"type": name, "seat": n, ...fields}; also carries the text notation."""
    out: dict[str, Any] = {"type": cmd.NAME}
    for f in fields(cmd):
        out[f.name] = _plain(getattr(cmd, f.name))
        for name, value, after in cmd.MARKS:
            if after == f.name:
                out[name] = value
    out["text"] = str(cmd)
    return out
