"""Analysing a stored game (issue 18): the store's events through `domain.analysis.analyse_game`.

The job worker and `galileo analyse` call `analyse_stored`; the analysis itself is pure (domain/analysis.py,
the JSON document in docs/analysis.md). Who may ask for which view is the caller's to check (the API: a seat's
token for its own view of a running game; anyone for a finished game); this module refuses a running game's
analysis without a viewer, whoever asks.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from domain.analysis import AnalysisCancelled, GameAnalysis, analyse_game
from domain.search import Budget
from replays.service import Games

__all__ = ["AnalysisCancelled", "GameAnalysis", "analyse_stored"]


def analyse_stored(
    games: Games,
    game_id: str | UUID,
    *,
    viewer: int | None,
    budget: Budget,
    seed: str = "analysis",
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> GameAnalysis:
    """`analyse_game` over the stored events of `game_id` (raises GameNotFound, or ValueError for a
    running game without a viewer or a viewer that is no seat)."""
    events = [stored.event for stored in games.events(game_id)]
    return analyse_game(
        events, viewer=viewer, budget=budget, seed=seed, progress=progress, cancelled=cancelled
    )
