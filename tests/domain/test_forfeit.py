"""Forfeited seats (domain/forfeit.py, ASYNC-3): frozen scores and skipped turns, at the engine level."""

from __future__ import annotations

from domain import Options, SeatSpec, Setup, evolve, legal_moves, start
from domain import events as ev
from domain.bots import make_bot
from domain.engine import play_through
from domain.expansions.luna.rules import scoring_points
from domain.forfeit import next_turn
from domain.serialize import dump_state, load_state
from domain.state import GameState, replace

SEATS = (SeatSpec("A", "galileo"), SeatSpec("B", "kepler"), SeatSpec("C", "copernicus"))


def _started(seed: str = "forfeit-1", luna: bool = False) -> GameState:
    return start(Setup(seats=SEATS, seed=seed, first_seat=0, options=Options.from_json({"luna": luna})))[0]


def test_ASYNC_3_the_turn_order_skips_frozen_seats_and_counts_their_turns() -> None:
    state = evolve(_started(), ev.SeatFrozen(seat=1))
    assert state.frozen == frozenset({1}) and state.turn.seat == 0
    assert next_turn(state) == (2, 2)  # seat 1's turn (number 1) is skipped, and counted
    ended = evolve(state, ev.TurnEnded(seat=0, turn=0))
    assert (ended.turn.seat, ended.turn.number, ended.turn.phase) == (2, 2, "movement")
    # END-2: when the final round's last turn falls to a frozen seat, the round is over.
    final = replace(state, last_turn=1)
    assert evolve(final, ev.TurnEnded(seat=0, turn=0)).turn.phase == "scoring"
    # Every seat frozen: the game goes to final scoring as the turn in play ends.
    alone = evolve(evolve(state, ev.SeatFrozen(seat=0)), ev.SeatFrozen(seat=2))
    assert next_turn(alone) is None
    assert evolve(alone, ev.TurnEnded(seat=0, turn=0)).turn.phase == "scoring"


def test_ASYNC_3_a_hand_over_to_a_bot_or_person_thaws_the_seat() -> None:
    state = evolve(_started(), ev.SeatFrozen(seat=1))
    assert evolve(state, ev.SeatHandedOver(seat=1, to="forfeit", reason="host")).frozen == {1}
    assert evolve(state, ev.SeatHandedOver(seat=1, to="bot", bot="greedy", reason="host")).frozen == set()


def test_ASYNC_3_frozen_seats_survive_the_state_format_and_old_states_have_none() -> None:
    state = evolve(_started(), ev.SeatFrozen(seat=2))
    data = dump_state(state)
    assert data["frozen"] == [2] and load_state(data).frozen == frozenset({2})
    assert "frozen" not in dump_state(_started())  # unchanged for every game without a forfeit


def test_ASYNC_3_a_scoring_tile_pays_a_frozen_seat_nothing() -> None:
    state = _started("forfeit-luna", luna=True)
    tile = "LUNA-69"
    for _ in range(400):  # play until every seat counts something for the tile's measure
        if all(scoring_points(state, 0, tile)[1:]):
            break
        move = make_bot("greedy", "t").choose(state, legal_moves(state))
        state, _ = play_through(state, move)
    paid = scoring_points(state, 0, tile)
    assert paid[1] > 0
    frozen = evolve(state, ev.SeatFrozen(seat=1))
    assert scoring_points(frozen, 0, tile) == (paid[0], 0, paid[2])


def test_ASYNC_3_final_scoring_gives_a_frozen_seat_nothing() -> None:
    state = _started("forfeit-end")
    bots = [make_bot("greedy", f"e{i}") for i in range(3)]
    frozen_at = None
    while not state.finished:
        if frozen_at is None and state.turn.number == 6 and state.turn.phase == "movement":
            state = evolve(state, ev.SeatFrozen(seat=1))
            frozen_at = state.players[1].score
        seat = state.turn.seat
        move = bots[seat].choose(state, legal_moves(state))
        state, events = play_through(state, move)
        if frozen_at is not None:
            assert not [e for e in events if isinstance(e, ev.VictoryPointsScored) and e.seat == 1]
    assert frozen_at is not None and state.players[1].score == frozen_at
    assert sum(p.score for p in state.players) > frozen_at
