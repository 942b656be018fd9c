"""The ratings fold (projections/ratings.py, RATE-2..5): ranks from the final order, leaving ranks last,
Plackett-Luce per pool in the order games ended, provisional marks, the pairwise-Elo baseline."""

from __future__ import annotations

from projections.ratings import GameSummary, SeatSummary, _ranks, order_accuracy, pairwise_elo, rate


def game(
    game_id: str, ended: str, ranks: list[tuple[str, int]], difficulty: str | None = None
) -> GameSummary:
    seats = tuple(
        SeatSummary(i, a, "galileo", 10 * (5 - r), {}, r, None, 1, 1.0) for i, (a, r) in enumerate(ranks)
    )
    return GameSummary(game_id, len(ranks), "finished", ended, seats, True, None, difficulty)


def test_RATE_2_ties_share_a_rank_and_leaving_ranks_last() -> None:
    assert _ranks([(30, 4, 1), (30, 4, 1), (20, 0, 0)], [None, None, None]) == [1, 1, 3]
    assert _ranks([(50, 0, 0), (10, 0, 0), (20, 0, 0)], ["resigned", None, None]) == [3, 2, 1]
    assert _ranks([(50, 0, 0), (10, 0, 0), (20, 0, 0)], ["time", "resigned", None]) == [2, 2, 1]


def test_RATE_3_pools_are_apart_and_the_fold_is_ordered_by_end() -> None:
    games = [game(f"g{i}", f"2026-01-{i + 10}", [("a", 1), ("b", 2)]) for i in range(12)]
    games.append(game("h", "2026-02-01", [("a", 3), ("b", 1), ("c", 2)]))
    folded = rate(reversed(games))  # the order given does not matter: the end times do
    assert folded.pools[(2, "a")].ordinal > folded.pools[(2, "b")].ordinal
    assert folded.pools[(3, "b")].ordinal > folded.pools[(3, "a")].ordinal
    assert folded.pools[(2, "a")].games == 12 and not folded.pools[(2, "a")].provisional  # RATE-4
    assert folded.pools[(3, "a")].provisional and folded.pools[(3, "a")].shown.endswith("?")
    assert rate(games).pools[(2, "a")].mu == folded.pools[(2, "a")].mu
    assert len(folded.pools[(2, "a")].history) == 12


def test_RATE_5_solo_keeps_the_best_score_per_level() -> None:
    solo = [game("s1", "2026-01-01", [("a", 1)], "easy"), game("s2", "2026-01-02", [("a", 1)], "easy")]
    solo[1] = GameSummary(
        "s2",
        1,
        "finished",
        "2026-01-02",
        (SeatSummary(0, "a", "kepler", 77, {}, 1, None, 1, 1.0),),
        True,
        None,
        "easy",
    )
    folded = rate(solo)
    assert folded.solo_best == {("a", "easy"): 77} and folded.pools == {}


def test_pairwise_elo_and_the_accuracy_measure() -> None:
    games = [[("a", 1), ("b", 2), ("c", 3)]] * 5
    elo = pairwise_elo(games)
    assert elo["a"] > elo["b"] > elo["c"]
    assert order_accuracy(elo, games) == {"pairs": 1.0, "whole": 1.0}
    assert order_accuracy({"a": 1, "b": 2, "c": 3}, games)["pairs"] == 0.0
