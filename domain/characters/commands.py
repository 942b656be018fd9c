"""The commands of the characters' abilities (digest §17) and their text notation (docs/notation.md),
declared in `COMMANDS` (composed in `domain.vocabulary`: `COMMAND_TYPES`, the verbs of `parse_command`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.commands import ROWS, Command, Parser, int_arg, need_args, row_arg


@dataclass(frozen=True, kw_only=True, repr=False)
class PlaceLibraryTile(Command):
    """CHAR-COP-2..4: place library tile `tile` face `face` up on library column `column` (1 = the
    printed column, k+1 = the k-th card, LIB-3), its top on row `row` (R1..R4). Free, once per turn."""

    tile: str
    face: str
    column: int
    row: int
    VERB: ClassVar[str] = "libtile"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"face": str, "column": int}

    def args(self) -> list[str]:
        row = ROWS[self.row] if 0 <= self.row < len(ROWS) else str(self.row)
        return [self.tile, self.face, str(self.column), row]


@dataclass(frozen=True, kw_only=True, repr=False)
class KeplerSwap(Command):
    """CHAR-KEP-2: swap two tiles of the player board, or (`first` = the character-board tile) the
    character-board tile with a tile of the player board. Optional, never the special tile (CHAR-KEP-3):
    not Luna's `SwapTiles` (LUNA-BA-7), docs/characters.md, "Two swap commands"."""

    first: str
    second: str
    VERB: ClassVar[str] = "kswap"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"first": str, "second": str}

    def args(self) -> list[str]:
        return [self.first, self.second]


@dataclass(frozen=True, kw_only=True, repr=False)
class DeclineAbility(Command):
    """Do not use an optional ability (CHAR-KEP-2 "may"; CHAR-COP-1's remaining steps)."""

    VERB: ClassVar[str] = "noability"


def _libtile(seat: int, args: list[str]) -> PlaceLibraryTile:
    need_args(args, 4)
    return PlaceLibraryTile(
        seat=seat, tile=args[0], face=args[1], column=int_arg(args[2]), row=row_arg(args[3])
    )


def _kswap(seat: int, args: list[str]) -> KeplerSwap:
    need_args(args, 2)
    return KeplerSwap(seat=seat, first=args[0], second=args[1])


def _decline(seat: int, args: list[str]) -> DeclineAbility:
    need_args(args, 0)
    return DeclineAbility(seat=seat)


# Their commands, each with how its text notation's arguments are read (domain/vocabulary.py).
COMMANDS: tuple[tuple[type[Command], Parser], ...] = (
    (PlaceLibraryTile, _libtile),
    (KeplerSwap, _kswap),
    (DeclineAbility, _decline),
)
