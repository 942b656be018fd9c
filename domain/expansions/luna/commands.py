"""The Luna expansion's commands (digest §18) and their text notation (docs/notation.md), declared in
`COMMANDS` (composed with the base game's in `domain.vocabulary`: `COMMAND_TYPES`, the verbs of
`parse_command`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.commands import (
    ROWS,
    Command,
    Parser,
    int_arg,
    need_args,
    row_arg,
)
from domain.state import SKY


@dataclass(frozen=True, kw_only=True, repr=False)
class BonusSpace(Command):
    """LUNA-42: the Bonus Board space (1-9) a departing Grand Inquisitor goes to."""

    space: int
    VERB: ClassVar[str] = "bonus"

    def args(self) -> list[str]:
        return [str(self.space)]


@dataclass(frozen=True, kw_only=True, repr=False)
class Relocate(Command):
    """LUNA-BB-3: move the telescope to a space (S1..S4 or U; the current space = stay)."""

    space: int
    VERB: ClassVar[str] = "relocate"

    def args(self) -> list[str]:
        return [SKY[self.space] if 0 <= self.space < len(SKY) else str(self.space)]


@dataclass(frozen=True, kw_only=True, repr=False)
class SwapTiles(Command):
    """LUNA-BA-7: swap two of your Action tiles (a reward, not optional). Kepler's `KeplerSwap` is the
    same act under other rules (CHAR-KEP-2/3): docs/characters.md, "Two swap commands"."""

    first: str
    second: str
    VERB: ClassVar[str] = "swap"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"first": str, "second": str}

    def __post_init__(self) -> None:
        # A swap is an unordered pair: keep it sorted so both orders compare equal.
        if self.second < self.first:
            first, second = self.second, self.first
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "second", second)

    def args(self) -> list[str]:
        return [self.first, self.second]


@dataclass(frozen=True, kw_only=True, repr=False)
class RegainRow(Command):
    """LUNA-BA-5: the row whose passed spaces pay again, right to left."""

    row: int
    VERB: ClassVar[str] = "regain"

    def args(self) -> list[str]:
        return [ROWS[self.row] if 0 <= self.row < 4 else str(self.row)]


@dataclass(frozen=True, kw_only=True, repr=False)
class BonusTile(Command):
    """LUNA-BA-6: the moving action (option 1 or 2) of any of your Action tiles."""

    tile: str
    option: int
    VERB: ClassVar[str] = "anytile"

    def args(self) -> list[str]:
        return [self.tile, str(self.option)]


@dataclass(frozen=True, kw_only=True, repr=False)
class CollectScale(Command):
    """LUNA-BB-7: collect the Lecture reward of the row a University token occupies."""

    tile: int
    VERB: ClassVar[str] = "scale"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"tile": int}

    def args(self) -> list[str]:
        return [str(self.tile + 1)]


@dataclass(frozen=True, kw_only=True, repr=False)
class MoonReward(Command):
    """LUNA-80: the Moon objective's reward, "vp" (3 VP) or "quadrants" (2 Quadrants)."""

    choice: str
    VERB: ClassVar[str] = "moonreward"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"choice": str}

    def args(self) -> list[str]:
        return [self.choice]


@dataclass(frozen=True, kw_only=True, repr=False)
class TakeInquisitor(Command):
    """LUNA-BB-7: take (or decline) an Inquisitor icon among the collected Scale rewards."""

    accept: bool
    VERB: ClassVar[str] = "inquisitor"

    def args(self) -> list[str]:
        return ["yes" if self.accept else "no"]


@dataclass(frozen=True, kw_only=True, repr=False)
class Decline(Command):
    """Decline an optional effect (LUNA-BB-3's fixed action)."""

    VERB: ClassVar[str] = "decline"


def _yes_no(text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError("expected yes or no")
    return text == "yes"


def _relocate(seat: int, args: list[str]) -> Relocate:
    need_args(args, 1)
    if args[0] not in SKY:
        raise ValueError(f"bad space {args[0]!r}: expected one of {', '.join(SKY)}")
    return Relocate(seat=seat, space=SKY.index(args[0]))


def _no_args(seat: int, args: list[str]) -> Decline:
    need_args(args, 0)
    return Decline(seat=seat)


def _one(args: list[str]) -> str:
    need_args(args, 1)
    return args[0]


def _two(args: list[str]) -> list[str]:
    need_args(args, 2)
    return args


# Its commands, each with how its text notation's arguments are read (domain/vocabulary.py).
COMMANDS: tuple[tuple[type[Command], Parser], ...] = (
    (BonusSpace, lambda seat, args: BonusSpace(seat=seat, space=int_arg(_one(args)))),
    (Relocate, _relocate),
    (SwapTiles, lambda seat, args: SwapTiles(seat=seat, first=_two(args)[0], second=args[1])),
    (RegainRow, lambda seat, args: RegainRow(seat=seat, row=row_arg(_one(args)))),
    (BonusTile, lambda seat, args: BonusTile(seat=seat, tile=_two(args)[0], option=int_arg(args[1]))),
    (CollectScale, lambda seat, args: CollectScale(seat=seat, tile=int_arg(_one(args)) - 1)),
    (MoonReward, lambda seat, args: MoonReward(seat=seat, choice=_one(args))),
    (TakeInquisitor, lambda seat, args: TakeInquisitor(seat=seat, accept=_yes_no(_one(args)))),
    (Decline, _no_args),
)
