"""Statistics across games equal a brute-force recomputation from the raw events of the corpus."""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

import pytest

from domain.events import GameEnded, GameForked, GameStarted, TurnEnded, VictoryPointsScored
from projections import projector
from projections.stats import Filters, StatsView, seats_kind, summarise
from tests.projections.conftest import CORPUS_GAMES
from tests.projections.corpus import PERSON, Played

FILTERS = [
    Filters(),
    Filters(players=2),
    Filters(players=3),
    Filters(players=4),
    Filters(luna=True),
    Filters(luna=False),
    Filters(seats="bots"),
    Filters(seats="humans"),
    Filters(seats="mixed"),
    Filters(edition="base-provisional-1"),
    Filters(edition="no-such-edition"),
    Filters(forks=True),
    Filters(players=3, luna=False, seats="bots"),
]


def brute_force(games: list[Played], f: Filters) -> dict[str, Any]:
    """The statistics straight from each game's events and how its seats were driven."""
    rows = []
    for g in games:
        events = g.events
        started = events[0]
        assert isinstance(started, GameStarted)
        kinds = {"person" if d == PERSON else "bot" for d in g.drivers}
        seats = "mixed" if len(kinds) == 2 else ("humans" if kinds == {"person"} else "bots")
        if not isinstance(events[-1], GameEnded):
            continue
        if f.players is not None and len(started.seats) != f.players:
            continue
        if f.luna is not None and bool(started.options.get("luna")) != f.luna:
            continue
        if f.seats is not None and seats != f.seats:
            continue
        if f.edition is not None and started.catalog_edition != f.edition:
            continue
        if not f.forks and any(isinstance(e, GameForked) for e in events):
            continue
        rows.append(g)
    out: dict[str, Any] = {"games": len(rows)}
    per_character: dict[str, list[tuple[int, bool, dict[str, int]]]] = defaultdict(list)
    per_position: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    all_scores: list[int] = []
    source_totals: dict[str, int] = defaultdict(int)
    fair = []
    for g in rows:
        events = g.events
        started, ended = events[0], events[-1]
        assert isinstance(started, GameStarted) and isinstance(ended, GameEnded)
        n = len(started.seats)
        fair.append(len(ended.winners) / n)
        points: list[dict[str, int]] = [defaultdict(int) for _ in range(n)]
        for e in events:
            if isinstance(e, VictoryPointsScored):
                points[e.seat][e.source] += e.points
        for seat, (_, character) in enumerate(started.seats):
            score = sum(points[seat].values())
            won = seat in ended.winners
            per_character[character].append((score, won, points[seat]))
            per_position[(seat - started.first_seat) % n].append((score, won))
            all_scores.append(score)
            for source, value in points[seat].items():
                source_totals[source] += value
    out["characters"] = {
        c: {
            "games": len(v),
            "wins": sum(w for _, w, _ in v),
            "win_rate": sum(w for _, w, _ in v) / len(v),
            "mean_score": sum(s for s, _, _ in v) / len(v),
            "median_score": statistics.median(s for s, _, _ in v),
            "mean_points_by_source": {k: sum(p.get(k, 0) for _, _, p in v) / len(v) for k in source_totals},
        }
        for c, v in per_character.items()
    }
    out["mean_per_seat"] = {k: t / len(all_scores) for k, t in source_totals.items()}
    out["scores"] = sorted(all_scores)
    out["turns"] = [sum(isinstance(e, TurnEnded) for e in g.events) for g in rows]
    out["events"] = [len(g.entries) for g in rows]
    out["positions"] = {
        p: (len(v), sum(w for _, w in v), sum(s for s, _ in v) / len(v)) for p, v in per_position.items()
    }
    out["fair"] = sum(fair) / len(fair) if fair else None
    return out


def assert_close(got: Any, want: Any, where: str = "") -> None:
    """Equal, with floats compared to a relative 1e-9 (nested dicts, lists and tuples)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), where
        for key in want:
            assert_close(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list | tuple):
        assert len(got) == len(want), where
        for k, (a, b) in enumerate(zip(got, want, strict=True)):
            assert_close(a, b, f"{where}[{k}]")
    else:
        assert got == pytest.approx(want, rel=1e-9), where


@pytest.fixture(scope="module")
def stats_view(corpus_url: str) -> Any:
    projector.rebuild(corpus_url, "stats")
    view = projector.open_stats(corpus_url)
    yield view
    view.close()


def test_corpus_spans_two_to_four_players_luna_and_seat_kinds(
    corpus_games: list[Played], corpus_size: int
) -> None:
    """A sample of CORPUS_SAMPLE games by default; at least 200 (the projections issue) in `make soak`."""
    finished = [g for g in corpus_games if g.finished and g.forked_from is None]
    assert len(finished) == corpus_size and CORPUS_GAMES >= 200
    assert len(corpus_games) - len(finished) == 3  # the played-out forks
    kinds = {seats_kind(["human" if d == PERSON else "bot" for d in g.drivers]) for g in finished}
    assert kinds == {"bots", "humans", "mixed"}
    assert {g.players for g in finished} == {2, 3, 4}
    assert {g.luna for g in finished} == {True, False}


@pytest.mark.parametrize(
    "f", FILTERS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.to_dict().items() if v)
)
def test_statistics_equal_brute_force(stats_view: StatsView, corpus_games: list[Played], f: Filters) -> None:
    got = stats_view.compute(f, bin_width=7)
    want = brute_force(corpus_games, f)
    assert got["games"] == want["games"]
    assert got["in_progress"] == 0
    if not want["games"]:
        assert got["characters"] == [] and got["scores"]["seats"] == 0
        return
    characters = {c["character"]: {k: v for k, v in c.items() if k != "character"} for c in got["characters"]}
    assert_close(characters, want["characters"])
    assert_close(got["points_by_source"]["mean_per_seat"], want["mean_per_seat"])
    scores = want["scores"]
    assert got["scores"]["seats"] == len(scores)
    assert got["scores"]["mean"] == pytest.approx(statistics.fmean(scores))
    assert got["scores"]["median"] == statistics.median(scores)
    assert (got["scores"]["min"], got["scores"]["max"]) == (scores[0], scores[-1])
    bins = got["scores"]["bins"]
    assert sum(b["seats"] for b in bins) == len(scores)
    for b in bins:
        assert b["to"] - b["from"] == 6
        assert b["seats"] == sum(b["from"] <= s <= b["to"] for s in scores)
    length = got["length"]
    assert length["mean_turns"] == pytest.approx(statistics.fmean(want["turns"]))
    assert length["mean_events"] == pytest.approx(statistics.fmean(want["events"]))
    first = got["first_seat"]
    positions = {p["position"]: (p["seats"], p["wins"], p["mean_score"]) for p in first["by_position"]}
    assert_close(positions, want["positions"])
    assert first["fair_rate"] == pytest.approx(want["fair"])
    seats, wins, _ = want["positions"][0]
    assert first["advantage"] == pytest.approx(wins / seats - want["fair"])


def test_seat_kinds_read_from_command_ids(stats_view: StatsView, corpus_games: list[Played]) -> None:
    by_id = {str(g.game_id): g for g in corpus_games}
    docs = stats_view.games(Filters(forks=True))
    assert len(docs) == len(corpus_games)
    for doc in docs:
        played = by_id[doc["game_id"]]
        kinds = ["human" if d == PERSON else "bot" for d in played.drivers]
        assert [s["kind"] for s in doc["seats"]] == kinds


def test_seats_kind_names_the_mix() -> None:
    assert seats_kind(["bot", "bot"]) == "bots"
    assert seats_kind(["human", None]) == "humans"
    assert seats_kind(["human", "bot"]) == "mixed"
    assert seats_kind([None, None]) is None


def test_filters_are_checked() -> None:
    with pytest.raises(ValueError, match="seats"):
        Filters(seats="robots")
    with pytest.raises(ValueError, match="players"):
        Filters(players=7)


def test_compute_is_cached_per_position(stats_view: StatsView) -> None:
    assert stats_view.compute(Filters(players=2)) is stats_view.compute(Filters(players=2))


def test_running_aggregates_equal_a_summary_of_the_rows_and_are_filled_for_an_older_view(
    stats_view: StatsView, corpus_url: str
) -> None:
    """/stats reads running aggregates (issue 17, item 5); a view written before they existed gets them
    filled from its rows when opened, with the same statistics."""
    filters = [Filters(), Filters(players=3), Filters(forks=True, imports=False), Filters(seats="mixed")]
    for f in filters:
        got = stats_view.compute(f, bin_width=5)
        want = summarise(stats_view.games(f), bin_width=5)
        assert set(want) <= set(got)
        _same(got, want, str(f))
    before = [stats_view.compute(f) for f in filters]
    with stats_view.table.transaction() as c:  # as a view of an older version would be
        c.execute(f"DROP TABLE {stats_view.table.cells.cells}")
        c.execute(f"DROP TABLE {stats_view.table.cells.contents}")
    reopened = projector.open_stats(corpus_url)
    try:
        assert [reopened.compute(f) for f in filters] == before
    finally:
        reopened.close()


def _same(got: Any, want: Any, where: str) -> None:
    """Equal, floats to a relative 1e-9 (the aggregates sum in another order); `got` may have more keys."""
    if isinstance(want, dict):
        for key in want:
            _same(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for k, (a, b) in enumerate(zip(got, want, strict=True)):
            _same(a, b, f"{where}[{k}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-9), where
    else:
        assert got == want, where
