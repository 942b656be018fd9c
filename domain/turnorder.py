"""Who takes the next turn (TURN-1): the seam for seats that are not players in the usual round.

The turn loop never computes the next seat itself: it asks the game's `TurnOrder`. The base game goes
round the table from the first player. A non-player opponent (the solo game's Tycho Brahe, digest §19)
registers its own order, e.g. one that alternates the human and the automaton, by adding a rule to
`TURN_ORDERS` that claims the games it applies to; the turn loop is not touched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from domain.state import GameState


class TurnOrder(Protocol):
    def next_seat(self, state: GameState) -> int:
        """The seat whose turn follows the current one."""
        ...


class Clockwise:
    """TURN-1: turns go round the table in seat order."""

    def next_seat(self, state: GameState) -> int:
        return (state.turn.seat + 1) % len(state.players)


CLOCKWISE = Clockwise()

# (applies to this game?, its order): the first rule that applies wins; the base game's is the fallback.
TURN_ORDERS: list[tuple[Callable[[GameState], bool], TurnOrder]] = []


def turn_order(state: GameState) -> TurnOrder:
    for applies, order in TURN_ORDERS:
        if applies(state):
            return order
    return CLOCKWISE
