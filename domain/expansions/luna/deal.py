"""The Luna expansion's deal (digest §18): the Bonus Board side and the Scoring tiles on the Moon tiles,
dealt at setup and re-dealt by a fork, through the base setup's `ExtraDeal` seam (domain/setup.py).

The face-down Scoring tiles (Moon tiles IV..IX) are committed with the cards as the commitment's part
`moon:<ids>`; the released `GameStarted` carries them as `luna_side`, `moon_revealed` and `moon_hidden`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.catalog import Catalog
from domain.editions import RULES_0_3_0, at_least
from domain.expansions.luna.state import luna_of
from domain.rng import SeededRandom
from domain.setup import ExtraDeal, Setup
from domain.state import GameState


def deal(setup: Setup, catalog: Catalog) -> tuple[Mapping[str, Any], tuple[str, ...]] | None:
    """LUNA-3..5: the Bonus Board side, three Scoring tiles face up on Moon tiles I..III and six face
    down on IV..IX, drawn from the setup seed's own "luna" stream."""
    if not setup.options.get("luna"):
        return None
    rng = SeededRandom(setup.seed, "luna")
    side = setup.options.get("bonus_board_side") or rng.choice(("A", "B"))  # LUNA-5
    scoring = rng.shuffled([t.id for t in catalog.luna.scoring_tiles])  # LUNA-3, LUNA-4
    revealed, hidden = tuple(scoring[:3]), tuple(scoring[3:])
    return {"luna_side": side, "moon_revealed": revealed, "moon_hidden": hidden}, hidden


def redeal(state: GameState, rng: SeededRandom) -> tuple[str, ...]:
    """A fork re-deals the face-down Scoring tiles of the columns not yet revealed (the order of
    Moon tiles IV..IX, as `GameForked.moon_hidden`)."""
    part = luna_of(state)
    if part is None:
        return ()
    hidden = list(part.scoring[3:])
    # A revealed column keeps the tiles dealt there, also one observed since (LUNA-23.5: its Scoring tile
    # left the Moon, "" in the state), as the copied MoonPhaseAdvanced revealed it; the last committed deal
    # (`GameState.dealt`) holds them. Rules 0.3.0 on: a game of an older rules version keeps its released
    # re-deal ("" for such a tile), so the forks it has stored re-adjudicate as written.
    committed = state.dealt[3] if len(state.dealt) > 3 and len(state.dealt[3]) == len(hidden) else ()
    if committed and at_least(state.engine_version, RULES_0_3_0):
        hidden = [committed[i] if part.visible(i + 3) else tile for i, tile in enumerate(hidden)]
    unrevealed = [i for i in range(len(hidden)) if not part.visible(i + 3)]
    # sorted first, so re-running a fork on its own (rewritten) prefix re-deals the same way
    for i, tile in zip(unrevealed, rng.shuffled(sorted(hidden[i] for i in unrevealed)), strict=True):
        hidden[i] = tile
    return tuple(hidden)


# its part of the deal, beside the cards (domain/vocabulary.py)
DEALS: tuple[ExtraDeal, ...] = (ExtraDeal("moon", deal, redeal),)
