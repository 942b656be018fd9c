"""Tycho Brahe's own state: a `Part` of his seat (`PlayerState.parts`, the dumped seat's `"tycho"` member).

His score, dice, cellar, University tokens, library, comets and Constellation tokens are his seat's
`PlayerState` like a player's; his line of solo Action tiles is the seat's `queue` (upgraded ones in
`upgraded`). Here: where his marker stands, the Movement tiles (the stack is hidden: the public view
shows how many are left), and the data and difficulty he plays with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.parts import PartCodec, json_tuple
from domain.state import GameState, Part, PlayerState


@dataclass(frozen=True, slots=True)
class TychoState(Part):
    key: ClassVar[str] = "tycho"

    data: str  # the solo data id (domain/catalog/solo/)
    difficulty: str  # "" in the base game (SOLO-2)
    marker: int  # index in his line of Action tiles (SOLO-23: under the leftmost at the start)
    stack: tuple[str, ...]  # hidden: the Movement tiles still to reveal, top first (SOLO-24)
    shown: tuple[str, ...] = ()  # the Movement tiles revealed so far, in order
    dealt: tuple[str, ...] = ()  # hidden: the stack as dealt (revealed at the end)
    revealed_on: int = -1  # the turn number of his last reveal (one per turn, SOLO-28)


def tycho_of(p: PlayerState) -> TychoState | None:
    return p.part(TychoState)


def tycho_seat(s: GameState) -> int | None:
    for p in s.players:
        if p.part(TychoState) is not None:
            return p.seat
    return None


def _dump(part: TychoState, hide: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "data": part.data,
        "difficulty": part.difficulty,
        "marker": part.marker,
        "shown": list(part.shown),
        "revealed_on": part.revealed_on,
    }
    if hide:  # SOLO-24: the stack's order is hidden; how many are left is not
        out["stack_size"] = len(part.stack)
    else:
        out["stack"] = list(part.stack)
        out["dealt"] = list(part.dealt)
    return out


def _load(data: Any) -> TychoState:
    return TychoState(
        data=str(data["data"]),
        difficulty=str(data["difficulty"]),
        marker=int(data["marker"]),
        stack=json_tuple(data["stack"]),
        shown=json_tuple(data["shown"]),
        dealt=json_tuple(data["dealt"]),
        revealed_on=int(data["revealed_on"]),
    )


PLAYER_PARTS: tuple[PartCodec, ...] = (PartCodec(TychoState, _dump, _load),)  # domain/vocabulary.py
