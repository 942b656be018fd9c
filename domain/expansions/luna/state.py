"""The Luna expansion's part of the game state (digest §18), a `Part` of the game (`GameState.parts`).

A Luna game holds one `LunaState`; a base game none. It is written as the dumped state's `"luna"`
member (docs/state.md), `null` in a base game: the member every released state format has had.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.fastcopy import replace
from domain.parts import PartCodec, json_tuple, register_game_part
from domain.state import GameState, Part, put_part


@dataclass(frozen=True, slots=True)
class LunaState(Part):
    """Digest §18. Moon positions I..IX are indices 0..8; column = index // 3 + 1."""

    key: ClassVar[str] = "luna"

    side: str  # Bonus Board side "A" or "B" (LUNA-5)
    scoring: tuple[str, ...]  # Scoring tile on each Moon tile ("" once scored); hidden beyond `phase`
    phase: int  # columns of Scoring tiles face up (LUNA-30, LUNA-31)
    flipped: tuple[bool, ...]  # Moon tile observed and turned to its light side (LUNA-23.6)
    costs: tuple[int, ...]  # the Moon Observation stack, top first (LUNA-6)
    bonus: tuple[tuple[int, ...], ...]  # per Bonus Board space 1..9: seats of the Grand Inquisitors on it
    achievers: tuple[int, ...] = ()  # seats on the Moon Achievement tile (LUNA-80)

    def visible(self, index: int) -> bool:
        return index // 3 < self.phase


def luna_of(s: GameState) -> LunaState | None:
    """The game's Luna part (None without the expansion)."""
    return s.part(LunaState)


def luna(s: GameState) -> LunaState:
    """The Luna part of a game that has it (a Luna event or effect in a game without Luna is a bug)."""
    part = s.part(LunaState)
    assert part is not None, "a Luna event or effect in a game without Luna"
    return part


def with_luna(s: GameState, part: LunaState) -> GameState:
    return replace(s, parts=put_part(s.parts, part))


def _dump(part: LunaState, hide: bool) -> dict[str, Any]:
    # The public view leaves the face-down Scoring tiles out (LUNA-3): "?" in their place.
    scoring = [tile if (part.visible(i) or not hide) else "?" for i, tile in enumerate(part.scoring)]
    return {
        "side": part.side,
        "scoring": scoring,
        "phase": part.phase,
        "flipped": list(part.flipped),
        "costs": list(part.costs),
        "bonus": [list(seats) for seats in part.bonus],
        "achievers": list(part.achievers),
    }


def _load(data: Any) -> LunaState:
    return LunaState(
        side=data["side"],
        scoring=json_tuple(data["scoring"]),
        phase=data["phase"],
        flipped=json_tuple(data["flipped"]),
        costs=json_tuple(data["costs"]),
        bonus=tuple(tuple(seats) for seats in data["bonus"]),
        achievers=json_tuple(data["achievers"]),
    )


register_game_part(PartCodec(LunaState, _dump, _load, always=True))
