"""The learned evaluation (domain/learned.py) and its training (domain/training.py), issue 34."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from domain.analysis import analyse_game, analyser_version
from domain.bots import LEARNED_KINDS, GreedyBot, bot_kind_error, make_bot
from domain.determinise import determinise
from domain.engine import legal_moves, play_through, start
from domain.learned import COLUMNS, SCALE, Model, features, learned_value, shipped
from domain.search import Budget, SearchBot, search
from domain.selfplay import default_setup, play_game
from domain.state import GameState
from domain.training import Sample, _solve, fit_weights, sigmoid_table, train

TINY = Budget(iterations=6, determinisations=2)


def _greedy_until(players: int, seed: str, decisions: int, **setup: object) -> GameState:
    state, _ = start(default_setup(players, seed, **setup))  # type: ignore[arg-type]
    bots = [GreedyBot(f"{seed}:{i}") for i in range(players)]
    for _ in range(decisions):
        state, _ = play_through(state, bots[state.turn.seat].choose(state, legal_moves(state)))
    return state


def test_features_read_nothing_hidden() -> None:
    """Two states a seat cannot tell apart (its unseen cards re-dealt) have the same features and the
    same learned value, base game and characters with hidden decks (Hevelius, Cunitz)."""
    for players, setup in ((3, {}), (2, {"side": "ability", "characters": ("hevelius", "cunitz")})):
        state = _greedy_until(players, f"hidden-{players}", 90, **setup)
        for viewer in range(players):
            a = determinise(state, viewer, "one")
            b = determinise(state, viewer, "two")
            assert a.deck != b.deck or a.box != b.box  # the hidden information differs
            assert features(a) == features(b) == features(state)
            assert shipped().value(a) == shipped().value(b) == shipped().value(state)


def test_shipped_model_values_every_seat_deterministically() -> None:
    state = _greedy_until(3, "value", 40)
    value = learned_value(state)
    assert len(value.margins) == len(value.wins) == 3
    assert abs(sum(value.wins) - 1.0) < 1e-9 and all(0 <= w <= 1 for w in value.wins)
    assert max(value.margins) >= 0  # the leader is ahead of the best other seat (or level with it)
    model = shipped()
    assert Model.from_dict(model.as_dict()) == model
    assert len(model.weights) == len(COLUMNS) and model.version.startswith("value-v1.")


def test_exact_solve_and_rounding() -> None:
    assert _solve([[2, 1], [1, 3]], [3, 5]) == [Fraction(4, 5), Fraction(7, 5)]
    table = sigmoid_table()
    assert table[len(table) // 2] == SCALE // 2 and table == sigmoid_table()
    assert all(a <= b for a, b in pairwise(table))
    seats = ((10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), (20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    samples = [
        Sample(deck, seats, (s + 5, s * 2), (Fraction(0), Fraction(1))) for deck, s in ((3, 1), (9, 4))
    ]
    assert fit_weights(samples) == fit_weights(list(samples))


def test_training_reproduces_the_model_bit_for_bit() -> None:
    """`galileo train --seed`: one seed, the same options, the same bytes (a small budget)."""
    one = train("repro", 2, rounds=2, search_games=1, budget=TINY).to_text()
    two = train("repro", 2, rounds=2, search_games=1, budget=TINY).to_text()
    assert one == two
    other = train("other", 2, rounds=1).to_text()
    assert other != one


def test_learned_bot_kinds_play_a_game() -> None:
    for kind in LEARNED_KINDS:
        assert bot_kind_error(kind) is None and make_bot(kind, "k").name.startswith("mcts-learned:")
    assert make_bot("mcts-learned", "k").name == "mcts-learned:normal"
    assert bot_kind_error("mcts-learned:bogus") is not None
    bots = [SearchBot(f"learn:{i}", TINY, "tiny", learned_value, "mcts-learned") for i in range(2)]
    record = play_game(default_setup(2, "learned-game"), bots)
    assert record.state.finished and record.state.winners


def test_learned_search_keeps_the_value_format_and_looks_past_the_turn_near_the_end() -> None:
    state = _greedy_until(2, "format", 30)
    result = search(state, TINY, "s", evaluation=learned_value)
    assert result.moves and all(len(m.wins) == len(m.margins) == 2 for m in result.moves)
    assert search(state, TINY, "s", evaluation=learned_value) == result
    bot = SearchBot("b", TINY, "tiny", learned_value, "mcts-learned")
    assert bot.stop(state) is None or len(state.deck) <= 6
    late = _greedy_until(2, "format", 400)
    if not late.finished and len(late.deck) <= 6:
        assert bot.stop(late) == late.turn.number + 2
    assert SearchBot("b", TINY).stop(late) is None


def test_analysis_on_the_learned_evaluation_keeps_its_format_and_names_the_model() -> None:
    record = play_game(default_setup(2, "learned-analysis"), [GreedyBot(f"la:{i}") for i in range(2)])
    greedy = analyse_game(record.events, viewer=None, budget=TINY, between=(1, 12)).as_dict()
    learned = analyse_game(record.events, viewer=None, budget=TINY, between=(1, 12), learned=True).as_dict()
    assert learned["analyser"] == analyser_version(learned=True) != analyser_version()
    assert shipped().version in learned["analyser"] and greedy["analyser"] == analyser_version()
    assert learned.keys() == greedy.keys() and len(learned["decisions"]) == len(greedy["decisions"]) > 0
    assert [d.keys() for d in learned["decisions"]] == [d.keys() for d in greedy["decisions"]]
