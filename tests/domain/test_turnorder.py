"""TURN-1: turns go round the table in seat order (domain/turnorder.py)."""

from __future__ import annotations

from domain import legal_moves, turnorder
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
    assert _seats_of_turns(s, 4) == [0, 1, 2, 0]


def test_TURN_1_the_last_seat_is_followed_by_the_first() -> None:
    s = new_game(4)
    assert [turnorder.next_seat(replace(s, turn=replace(s.turn, seat=seat))) for seat in range(4)] == [
        1,
        2,
        3,
        0,
    ]
