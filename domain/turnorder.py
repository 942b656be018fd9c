"""Who takes the next turn (TURN-1): turns go round the table in seat order, from the first player.

Every game, the solo game too (Tycho Brahe takes his seat's turns, digest §19), follows it; frozen seats
are passed over by `domain/forfeit.py` (ASYNC-3).
"""

from __future__ import annotations

from domain.state import GameState


def next_seat(state: GameState) -> int:
    """TURN-1: the seat whose turn follows the current one."""
    return (state.turn.seat + 1) % len(state.players)
