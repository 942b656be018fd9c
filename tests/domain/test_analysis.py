"""Game analysis (domain/analysis.py, issue 18): every decision evaluated from what a seat could see."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from domain import fork_events
from domain.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    AnalysisCancelled,
    analyse_game,
    decisions_of,
    point_worth,
    severity_of,
)
from domain.bots import GreedyBot, RandomBot
from domain.engine import legal_moves, play_through, start
from domain.events import Event
from domain.evolve import fold
from domain.options import Options
from domain.search import LEVELS, Budget
from domain.selfplay import default_setup, play_game

TINY = Budget(iterations=8, determinisations=2)


def _running(players: int, seed: str, decisions: int) -> list[Event]:
    state, events = start(default_setup(players, seed))
    bots = [GreedyBot(f"{seed}:{i}") for i in range(players)]
    for _ in range(decisions):
        state, new = play_through(state, bots[state.turn.seat].choose(state, legal_moves(state)))
        events.extend(new)
    return events


def test_a_finished_three_player_game_has_an_evaluation_for_every_decision() -> None:
    record = play_game(default_setup(3, "three"), [GreedyBot("a"), RandomBot("b"), GreedyBot("c")])
    analysis = analyse_game(record.events, viewer=None, budget=TINY, seed="t")
    assert analysis.finished and analysis.version == len(record.events)
    assert len(analysis.decisions) == record.decisions
    assert [d.index for d in analysis.decisions] == list(range(record.decisions))
    for d in analysis.decisions:
        assert 0.0 <= d.after.win <= 1.0 and 0.0 <= d.before.win <= 1.0
        assert d.loss == pytest.approx(max(0.0, d.best_eval.win - d.after.win))
        assert d.before == d.best_eval and d.visits >= 1 and len(d.wins) == 3
        assert d.margin_loss == pytest.approx(max(0.0, d.before.margin - d.after.margin))
        assert d.severity == (0.0 if d.legal == 1 else severity_of(d.loss, d.margin_loss, 3))
        assert (d.mistake is None) == (d.severity < INACCURACY)
    document = json.loads(json.dumps(analysis.as_dict()))  # plain JSON
    assert document["format"] == 1 and document["budget"]["iterations"] == TINY.iterations
    assert document["engine_version"] == record.state.engine_version
    assert document["thresholds"] == {"blunder": BLUNDER, "mistake": MISTAKE, "inaccuracy": INACCURACY}
    assert len(document["decisions"]) == record.decisions
    summary = {s["seat"]: s for s in document["summary"]}
    assert set(summary) == {0, 1, 2}
    for seat, s in summary.items():
        chosen = [d for d in analysis.decisions if d.seat == seat and d.legal > 1]
        assert s["decisions"] == len(chosen) and 0 <= s["accuracy"] <= 100
    # the random seat gives away more points per decision than the greedy ones (its win probability is
    # soon near zero whatever it plays: the margin shows what the win probability cannot)
    assert summary[1]["mean_margin_loss"] > max(
        summary[0]["mean_margin_loss"], summary[2]["mean_margin_loss"]
    )
    assert analysis.turning_points and all(
        t.kind in ("blunder", "mistake", "lead-change") for t in analysis.turning_points
    )


def test_a_random_seat_is_less_accurate_and_makes_more_mistakes_than_greedy_seats() -> None:
    """Over three 3-player games of a random bot against two greedy bots (the random seat moved round
    the table), the analysis finds the random seat clearly less accurate than each greedy seat and
    marks clearly more of its decisions as inaccuracies, mistakes or blunders."""
    marked = {"random": 0, "greedy": 0}
    decided = {"random": 0, "greedy": 0}
    for game, seed in enumerate(("t1", "t2", "t3")):
        seat = game % 3
        bots = [RandomBot(f"{seed}:r") if i == seat else GreedyBot(f"{seed}:g{i}") for i in range(3)]
        record = play_game(default_setup(3, seed), bots)
        summary = analyse_game(record.events, viewer=None, budget=LEVELS["fast"], seed="acc").summary
        for s in summary:
            kind = "random" if s.seat == seat else "greedy"
            marked[kind] += s.inaccuracies + s.mistakes + s.blunders
            decided[kind] += s.decisions
        accuracy = {s.seat: s.accuracy for s in summary}
        random = accuracy[seat]
        assert random is not None
        for other in range(3):
            greedy = accuracy[other]
            assert other == seat or (greedy is not None and random < greedy - 5), (seed, accuracy)
    per_decision = {kind: marked[kind] / decided[kind] for kind in marked}
    assert per_decision["random"] > 2 * per_decision["greedy"], per_decision


@pytest.mark.parametrize(
    ("players", "setup"),
    [
        (1, {}),  # the solo game against Tycho Brahe (SOLO-27)
        (2, {"options": Options.from_json({"luna": True})}),  # Luna
        (4, {"side": "ability"}),  # the ability side (CHAR-1)
    ],
)
def test_every_game_form_is_analysed_with_severities_on_one_scale(
    players: int, setup: dict[str, object]
) -> None:
    built = default_setup(players, f"forms-{players}", **setup)  # type: ignore[arg-type]
    record = play_game(built, [RandomBot("r")] + [GreedyBot(f"g{i}") for i in range(1, players)])
    analysis = analyse_game(record.events, viewer=None, budget=TINY, seed="f")
    assert len(analysis.decisions) == record.decisions
    for d in analysis.decisions:
        assert d.loss >= 0.0 and d.margin_loss >= 0.0 and 0.0 <= d.accuracy <= 100.0
        assert d.severity == (0.0 if d.legal == 1 else severity_of(d.loss, d.margin_loss, players))
    assert point_worth(1) == point_worth(2) == pytest.approx(1 / 56)
    for s in analysis.summary:  # Tycho Brahe, a seat of the solo game, takes no decision (SOLO-24)
        assert (s.accuracy is None) == (s.decisions == 0) and 0.0 <= (s.accuracy or 0.0) <= 100.0


def test_the_same_seed_and_budget_give_the_same_analysis() -> None:
    events = _running(2, "same", 60)
    a = analyse_game(events, viewer=0, budget=TINY, seed="s")
    b = analyse_game(events, viewer=0, budget=TINY, seed="s")
    assert a.as_dict() == b.as_dict()


def test_a_running_game_analysis_cannot_depend_on_what_the_seat_cannot_see() -> None:
    """Seat X's analysis of a running game is the same whether the hidden deal is the real one or a
    re-deal consistent with what X has seen (a fork's re-deal of the unseen cards, domain/fork.py)."""
    events = _running(3, "u2", 140)  # seat 0 holds a face-down card (OBS-52), seats 1 and 2 none
    redealt = fork_events(events, len(events), "source", seed="another-deal")
    assert redealt[0] != events[0]  # the true deal differs (GameStarted's deck, seed, salt)
    # a fork re-deals every face-down card (OBS-52): a seat that holds one could tell the deals apart
    blind = [p.seat for p in fold(events).players if all(dark for _, dark in p.library)]
    assert blind == [1, 2]
    for viewer in blind:
        mine = [d.as_dict() for d in analyse_game(events, viewer=viewer, budget=TINY, seed="x").decisions]
        other = [d.as_dict() for d in analyse_game(redealt, viewer=viewer, budget=TINY, seed="x").decisions]
        assert mine == other
        assert len(mine) == 140


def test_a_running_game_is_analysed_only_for_one_seats_view() -> None:
    events = _running(2, "view", 20)
    with pytest.raises(ValueError, match="one seat's view"):
        analyse_game(events, viewer=None, budget=TINY)
    with pytest.raises(ValueError, match="a viewer is a seat"):
        analyse_game(events, viewer=2, budget=TINY)


def test_progress_cancellation_and_a_part_of_the_game() -> None:
    events = _running(2, "parts", 30)
    seen: list[tuple[int, int]] = []
    whole = analyse_game(
        events, viewer=1, budget=TINY, progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(i, 30) for i in range(1, 31)]
    first, last = whole.decisions[10].version + 1, whole.decisions[14].version + 1
    part = analyse_game(events, viewer=1, budget=TINY, between=(first, last))
    assert [d.as_dict() for d in part.decisions] == [d.as_dict() for d in whole.decisions[10:15]]
    calls = iter(range(1000))
    with pytest.raises(AnalysisCancelled):
        analyse_game(events, viewer=1, budget=TINY, cancelled=lambda: next(calls) > 5)


def test_a_cancellation_at_any_poll_stops_the_analysis_as_cancelled() -> None:
    """A search cut short by the cancellation (even before its first iteration, so the move played
    was never visited) ends the analysis with AnalysisCancelled, never with an error of its own."""
    events = [e for e in play_game(default_setup(2, "cut"), [GreedyBot("a"), GreedyBot("b")]).events]
    for polls in range(40):
        calls = iter(range(10_000))

        def cancelled(calls: Iterator[int] = calls, polls: int = polls) -> bool:
            return next(calls) >= polls

        with pytest.raises(AnalysisCancelled):
            analyse_game(events, viewer=None, budget=TINY, cancelled=cancelled)


def test_decisions_are_found_from_the_events_alone() -> None:
    record = play_game(default_setup(2, "found"), [GreedyBot("a"), GreedyBot("b")])
    decisions, final = decisions_of(record.events)
    assert len(decisions) == record.decisions and final == record.state
    for d in decisions:
        assert d.move in legal_moves(d.state)
