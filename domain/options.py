"""Rule options: every RULING of digest §23.1 that changes behaviour, with the ruling as default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

# JSON name (digest §23.1) -> attribute name. The JSON names are the ones documented to users.
OPTION_NAMES: Mapping[str, str] = {
    "diceSupplyPerColour": "dice_supply_per_colour",
    "rotateWhenMovingActionSkipped": "rotate_when_moving_action_skipped",
    "bookRewardsImmediate": "book_rewards_immediate",
    "reputationOverflowPartial": "reputation_overflow_partial",
    "partialWritingExact": "partial_writing_exact",
    "endTriggerOnFaceDownDraw": "end_trigger_on_face_down_draw",
    "inquisitorObjectiveUsesTurnMaximum": "inquisitor_objective_uses_turn_maximum",
    "freeActionsInAllPhases": "free_actions_in_all_phases",
    "dieMax": "die_max",
    "randomActionTiles": "random_action_tiles",
    "luna": "luna",
    "bonusBoardSide": "bonus_board_side",
    "moonCountsAsMajorObject": "moon_counts_as_major_object",
    "grandInquisitorDoubleAtEnd": "grand_inquisitor_double_at_end",
    "moonObjectiveImmediate": "moon_objective_immediate",
    "bonusB8WriteSize": "bonus_b8_write_size",
    "ninthScoringTile": "ninth_scoring_tile",
    "moonInquisitorTileCountsNewGrand": "moon_inquisitor_tile_counts_new_grand",
}
SCORING_TILE_CHOICES = ("library-cards", *(f"LUNA-6{i}" for i in range(1, 9)))


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options. `None` for a number means "the catalog's value"."""

    dice_supply_per_colour: int | None = None  # AMB-2 (catalog: box figure)
    rotate_when_moving_action_skipped: bool = False  # AMB-5
    book_rewards_immediate: bool = False  # AMB-6
    reputation_overflow_partial: bool = True  # AMB-7
    partial_writing_exact: bool = True  # AMB-8 overruled by S003/S004: exactly N (docs/seed-differences.md)
    end_trigger_on_face_down_draw: bool = True  # AMB-10
    inquisitor_objective_uses_turn_maximum: bool = False  # AMB-16
    free_actions_in_all_phases: bool = True  # AMB-24 overruled by S001/S004: any point of your turn
    die_max: int | None = None  # AMB-25 (catalog: 6)
    random_action_tiles: bool = True  # SET-23: random order (else each seat's given order)
    luna: bool = False  # digest §18: the Luna expansion
    bonus_board_side: str | None = None  # LUNA-5: "A" or "B"; None = random
    moon_counts_as_major_object: bool = False  # AMB-13
    grand_inquisitor_double_at_end: bool = False  # AMB-14
    moon_objective_immediate: bool = True  # AMB-15
    bonus_b8_write_size: int = 1  # AMB-20
    ninth_scoring_tile: str = "library-cards"  # DATA-24: or the id of a described tile it duplicates
    moon_inquisitor_tile_counts_new_grand: bool = True  # LUNA-63 (docs/seed-differences.md §5)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, attr) for name, attr in OPTION_NAMES.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        unknown = set(data) - set(OPTION_NAMES)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        types = {f.name: f.type for f in fields(cls)}
        for name, value in data.items():
            attr = OPTION_NAMES[name]
            expected = str(types[attr])
            if attr == "bonus_board_side":
                if value not in (None, "A", "B"):
                    raise ValueError(f'rule option {name} must be "A", "B" or null')
            elif attr == "ninth_scoring_tile":
                if value not in SCORING_TILE_CHOICES:
                    raise ValueError(f"rule option {name} must be one of {', '.join(SCORING_TILE_CHOICES)}")
            elif "bool" in expected:
                if not isinstance(value, bool):
                    raise ValueError(f"rule option {name} must be true or false")
            elif value is None and "None" not in expected:
                raise ValueError(f"rule option {name} must be a positive integer")
            elif value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"rule option {name} must be a positive integer or null")
            kwargs[attr] = value
        return cls(**kwargs)
