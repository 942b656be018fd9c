"""The Luna expansion's parts of the game state (digest §18).

- `LunaState`, a part of the game (`GameState.parts`): a Luna game holds one, a base game none. It is
  written as the dumped state's `"luna"` member (docs/state.md), `null` in a base game: the member every
  released state format has had.
- `LunaSeat`, a part of a seat (`PlayerState.parts`): its Grand Inquisitors and Moon observations, absent
  while both are at rest. It is written as the player's `"grand"` and `"moon"` members, as every released
  format has had them (zeros without Luna); `seat_of(player)` reads it.
- `LunaTurn`, a part of the turn (`TurnState.parts`): the tiles a Bonus Board reward rotated at once this
  turn (ROT-6), written as the turn's `"bonus_rotated"` member; a new turn starts without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from domain.options import Options
from domain.parts import (
    FlatCodec,
    PartCodec,
    json_tuple,
)
from domain.state import GameState, Part, PlayerState, TurnState, put_part, replace


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


GAME_PARTS: tuple[PartCodec, ...] = (PartCodec(LunaState, _dump, _load, always=True),)  # domain/vocabulary.py


@dataclass(frozen=True, slots=True)
class LunaSeat(Part):
    """A seat's Luna figures: Grand Inquisitors per cellar space (LUNA-40) and Moon Observation tiles
    taken (LUNA-26)."""

    key: ClassVar[str] = "luna-seat"  # written flat: the player's "grand" and "moon" members

    grand: tuple[int, ...]
    moon: int = 0

    @classmethod
    def empty(cls, owner: Any) -> LunaSeat:
        return _empty_seat(len(owner.cellar))

    def at_rest(self) -> bool:
        return self.moon == 0 and not any(self.grand)

    # What the base rules count of the Grand Inquisitors in the cellar (Luna's rules for them: grand.py).

    def inquisitors(self) -> int:
        return sum(self.grand)  # LUNA-45, AMB-14: Grand Inquisitors are Inquisitors in the cellar

    def on_rightmost(self) -> int:
        return self.grand[-1]

    def interrogation(self, arch: tuple[int, ...]) -> int:
        return INTERROGATION_WEIGHT * sum(v * n for v, n in zip(arch, self.grand, strict=True))

    def cellar_points(self, bottom: tuple[int, ...], options: Options) -> int:
        weight = final_weight(options)
        return weight * sum(v * n for v, n in zip(bottom, self.grand, strict=True))


INTERROGATION_WEIGHT = 2  # LUNA-44: a Grand Inquisitor counts twice at an Interrogation


def final_weight(options: Options) -> int:
    """LUNA-46, AMB-14: a Grand Inquisitor left in the cellar scores its space's value once (twice with
    the option grandInquisitorDoubleAtEnd)."""
    return 2 if options.get("grand_inquisitor_double_at_end") else 1


@lru_cache(maxsize=8)
def _empty_seat(spaces: int) -> LunaSeat:
    """The figures of a seat with none, by its number of cellar spaces (asked often: one value each)."""
    return LunaSeat(grand=(0,) * spaces)


def seat_of(p: PlayerState) -> LunaSeat:
    """A seat's Luna figures (at rest when it has none)."""
    return p.part(LunaSeat) or LunaSeat.empty(p)


def seat_with(p: PlayerState, **changes: Any) -> PlayerState:
    return replace(p, parts=put_part(p.parts, replace(seat_of(p), **changes)))


def with_seat(s: GameState, seat: int, **changes: Any) -> GameState:
    players = list(s.players)
    players[seat] = seat_with(players[seat], **changes)
    return replace(s, players=tuple(players))


def _dump_seat(owner: PlayerState, part: LunaSeat | None, hide: bool) -> dict[str, Any]:
    part = part or LunaSeat.empty(owner)
    return {"grand": list(part.grand), "moon": part.moon}


def _load_seat(data: Mapping[str, Any]) -> LunaSeat | None:
    part = LunaSeat(grand=json_tuple(data["grand"]), moon=data["moon"])
    return None if part.at_rest() else part


# its seat part's codec (domain/vocabulary.py)
FLAT_PLAYER_PARTS: tuple[FlatCodec, ...] = (FlatCodec(LunaSeat, _dump_seat, _load_seat),)


@dataclass(frozen=True, slots=True)
class LunaTurn(Part):
    """ROT-6, AMB-23: the tiles Bonus A6 rotated at once this turn (not rotated again in Cleanup)."""

    key: ClassVar[str] = "luna-turn"  # written flat: the turn's "bonus_rotated" member

    rotated: frozenset[str]

    def at_rest(self) -> bool:
        return not self.rotated


def rotated_at_once(s: GameState, tile: str) -> bool:
    part = s.turn.part(LunaTurn)
    return part is not None and tile in part.rotated


def turn_rotated(t: TurnState, tile: str) -> TurnState:
    part = t.part(LunaTurn)
    rotated = (part.rotated if part is not None else frozenset()) | {tile}
    return replace(t, parts=put_part(t.parts, LunaTurn(rotated)))


def _dump_turn(owner: TurnState, part: LunaTurn | None, hide: bool) -> dict[str, Any]:
    return {"bonus_rotated": sorted(part.rotated) if part is not None else []}


def _load_turn(data: Mapping[str, Any]) -> LunaTurn | None:
    part = LunaTurn(frozenset(data["bonus_rotated"]))
    return None if part.at_rest() else part


# its turn part's codec (domain/vocabulary.py)
FLAT_TURN_PARTS: tuple[FlatCodec, ...] = (FlatCodec(LunaTurn, _dump_turn, _load_turn),)
