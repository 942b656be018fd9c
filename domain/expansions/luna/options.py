"""The Luna expansion's rule options (digest §18, §23.1), declared in `OPTIONS` and composed
beside the base game's (`domain.vocabulary.OPTION_SPECS`). Their JSON names are released: `luna`,
`bonusBoardSide`, ... (docs/rules-options.md)."""

from __future__ import annotations

from typing import Any

from domain.options import OptionSpec, flag

SCORING_TILE_CHOICES = ("library-cards", *(f"LUNA-6{i}" for i in range(1, 9)))


def _side(value: Any) -> str | None:
    return None if value in (None, "A", "B") else 'must be "A", "B" or null'


def _ninth(value: Any) -> str | None:
    return None if value in SCORING_TILE_CHOICES else f"must be one of {', '.join(SCORING_TILE_CHOICES)}"


def _positive(value: Any) -> str | None:
    if value is None:
        return "must be a positive integer"
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
    return None if ok else "must be a positive integer or null"


OPTIONS: tuple[OptionSpec, ...] = (  # its wire vocabulary (domain/vocabulary.py)
    OptionSpec("luna", "luna", False, flag),  # digest §18: the Luna expansion
    OptionSpec("bonusBoardSide", "bonus_board_side", None, _side),  # LUNA-5: "A" or "B"; None = random
    OptionSpec("moonCountsAsMajorObject", "moon_counts_as_major_object", False, flag),  # AMB-13
    OptionSpec("grandInquisitorDoubleAtEnd", "grand_inquisitor_double_at_end", False, flag),  # AMB-14
    OptionSpec("moonObjectiveImmediate", "moon_objective_immediate", True, flag),  # AMB-15
    OptionSpec("bonusB8WriteSize", "bonus_b8_write_size", 1, _positive),  # AMB-20
    # DATA-24: or the id of a described tile it duplicates
    OptionSpec("ninthScoringTile", "ninth_scoring_tile", "library-cards", _ninth),
    # LUNA-63 (docs/seed-differences.md §5)
    OptionSpec("moonInquisitorTileCountsNewGrand", "moon_inquisitor_tile_counts_new_grand", True, flag),
)
