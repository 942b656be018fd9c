"""Who takes the next turn (TURN-1): the seam for seats that are not players in the usual round.

The turn loop never computes the next seat itself: it asks the game's `TurnOrder`. The base game goes
round the table from the first player. A non-player opponent (the solo game's Tycho Brahe, digest §19)
declares its own order in its rules (`Rules.turn_order`), e.g. one that alternates the human and the
automaton; the turn loop is not touched.
"""

from __future__ import annotations

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


def turn_order(state: GameState) -> TurnOrder:
    """The game's order: a plug-in's (`Rules.turn_order`, domain/ruleset.py), else round the table."""
    return state.rules.turn_order or CLOCKWISE
