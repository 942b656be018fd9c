"""TURN-1 and the seam for a non-player opponent: the next seat comes from the game's TurnOrder."""

from __future__ import annotations

from domain import legal_moves, turnorder
from domain.ruleset import Plugin, Rules, Ruleset
from domain.state import GameState, replace
from tests.domain.scenario import new_game, play


def _seats_of_turns(s: GameState, turns: int) -> list[int]:
    """The seat of each of the next `turns` turns, each played as briefly as the rules allow."""
    seats = [s.turn.seat]
    while len(seats) < turns:
        moves = legal_moves(s)
        end = [m for m in moves if str(m).endswith((" end", " done"))]
        s, _ = play(s, str(end[0] if end else moves[0]))
        if s.turn.seat != seats[-1]:
            seats.append(s.turn.seat)
    return seats


def test_TURN_1_turns_go_round_the_table() -> None:
    s = new_game(3)
    assert turnorder.turn_order(s) is turnorder.CLOCKWISE
    assert _seats_of_turns(s, 4) == [0, 1, 2, 0]


class SeatZeroAfterEveryTurn:
    """An order like a solo automaton's: seat 0 plays after every other seat's turn."""

    def next_seat(self, state: GameState) -> int:
        return 0 if state.turn.seat != 0 else 2


class SeatZeroFirst(Plugin):
    """A plug-in with its own turn order (as a solo automaton's would declare it)."""

    rules = (Rules("seat-zero-first"),)
    rules[0].turn_order = SeatZeroAfterEveryTurn()


def test_a_plugins_turn_order_decides_the_next_seat() -> None:
    s = new_game(3)
    s = replace(s, rules=Ruleset(s.rules.pins, (*s.rules.plugins, SeatZeroFirst)))
    assert _seats_of_turns(s, 4) == [0, 2, 0, 2]
    assert turnorder.turn_order(new_game(3)) is turnorder.CLOCKWISE
