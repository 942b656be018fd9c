"""A move's preview (projections/preview.py): the engine's own events, told up to the take-back horizon
(ASYNC-7) and only where the position as the seat could believe it gives the same events."""

from __future__ import annotations

from domain import Options, legal_moves, play_through, start
from domain.bots import make_bot
from domain.events import CardDealt
from domain.selfplay import default_setup
from domain.state import GameState
from projections.preview import believed_positions, preview


def _greedy(seed: str, decisions: int, luna: bool = False) -> GameState:
    state, _ = start(default_setup(3, seed, Options(luna=luna)))
    bot = make_bot("greedy", seed)
    for _ in range(decisions):
        state, _ = play_through(state, bot.choose(state, legal_moves(state)))
    return state


def test_ASYNC_7_a_preview_stops_before_the_card_it_would_reveal() -> None:
    """An observation that refills the display is told up to the refill: which card comes is not."""
    state, _ = start(default_setup(3, "preview-reveal"))
    bot = make_bot("greedy", "preview-reveal")
    for _ in range(300):
        for move in legal_moves(state):
            _, events = play_through(state, move)
            dealt = next((e for e in events if isinstance(e, CardDealt)), None)
            if dealt is None:
                continue
            told = preview(state, move, believed=believed_positions(state, move.seat))
            assert told.reveals == f"a new card is dealt to Discovery space {dealt.space + 1}"
            assert not told.undoable
            names = [state.catalog.cards[dealt.card].major.name, dealt.card]
            assert not any(n in line for n in names for line in (*told.lines, told.reveals))
            return
        state, _ = play_through(state, bot.choose(state, legal_moves(state)))
    raise AssertionError("no observation refilled the display")


def test_only_what_comes_out_the_same_in_the_believed_position_is_told() -> None:
    """The net under the declared horizon: where the position the seat could believe gives other events
    (here, for the test, a position where its telescope stands elsewhere), nothing of them is told,
    while whether the move can be taken back is still the engine's."""
    state = _greedy("preview-net", 0)
    move = legal_moves(state)[0]  # a telescope move
    plain = preview(state, move, believed=believed_positions(state, move.seat))
    assert plain.lines and plain.lines[0].startswith("Moved the telescope 1 step from X2 to ")
    elsewhere = _greedy("preview-net", 9)  # a later position: the same command lands elsewhere
    netted = preview(state, move, believed=[elsewhere])
    assert netted.lines == () and netted.events == ()
    assert netted.undoable == plain.undoable
