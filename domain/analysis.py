"""Game analysis: every decision of a game evaluated from what a seat could see (issue 18).

`analyse_game(events, viewer=..., budget=..., seed=...)` walks a game's events, finds each decision (the
state at a decision point and the legal move whose events follow it) and searches it with the ISMCTS of
domain/search.py on determinisations of what the seat could know: the acting seat for a finished game
(`viewer=None`), the seat `viewer` for every decision of a running game (a running game is analysed only
for one seat's view; the API checks the seat's token). The result is a frozen `GameAnalysis`, a JSON
document by `as_dict()` (docs/analysis.md): per decision, the evaluation (win probability and expected
score margin) before and after the move played, the best alternative found, the loss and the mistake
class; per seat an accuracy; the turning points; and what it was computed with (budget, seed, rules
edition, analyser version), which together with the game and its version is its cache key.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain import commands as c
from domain.determinise import determinise
from domain.editions import ENGINE_VERSION
from domain.engine import legal_moves, play, play_through
from domain.events import Event, GameEnded
from domain.evolve import evolve
from domain.rng import digest
from domain.search import (
    ENGINE,
    SPREAD_BASE,
    Budget,
    MoveStats,
    SearchResult,
    Value,
    search,
    value_of,
)
from domain.search import (
    Evaluation as LeafEvaluation,
)
from domain.state import GameState

ANALYSIS_FORMAT = 1  # the JSON document's format (docs/analysis.md)

# Mistake classes by the win probability the move played gave away (the lichess thresholds, on the
# acting seat's chance of finishing first): at least INACCURACY, MISTAKE, BLUNDER.
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
CLASSES = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
TURNING_POINTS = 5  # at most this many turning points, largest swing first
FORCED_SHARE = 8  # a decision with one legal move gets 1/FORCED_SHARE of the budget (at least 8 iterations)


class AnalysisCancelled(Exception):
    """Raised by `analyse_game` when its `cancelled` callback says so (between two decisions)."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position for the acting seat: its chance of finishing first and its expected margin (points
    ahead of the best other seat, in the evaluation's points: score plus resources, domain/bots.py)."""

    win: float
    margin: float

    def as_dict(self) -> dict[str, float]:
        return {"win": round(self.win, 4), "margin": round(self.margin, 2)}


@dataclass(frozen=True, slots=True)
class DecisionAnalysis:
    index: int  # the decision's number in the game, from 0
    version: int  # the game's version the decision was taken at (the state after `version` events)
    turn: int  # the turn (0-based)
    seat: int  # the acting seat
    move: str  # the move played, in notation (domain/commands.py)
    legal: int  # how many legal moves there were
    before: Evaluation  # the position with the best move found: what the seat could reach
    after: Evaluation  # the position after the move played
    best: str  # the best move found (the move played when it was as good)
    best_eval: Evaluation
    loss: float  # win probability given away (>= 0)
    margin_loss: float  # expected margin given away, in points (>= 0)
    severity: float  # max(loss, point_worth * margin_loss): what the mistake class and accuracy measure
    mistake: str | None  # "inaccuracy", "mistake", "blunder" or None
    accuracy: float  # 0..100 (the lichess formula on the win probability lost)
    wins: tuple[
        float, ...
    ]  # every seat's win probability after the move played, as the analysis' viewer sees it
    visits: int  # how many iterations valued the move played

    @property
    def forced(self) -> bool:
        return self.legal == 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "version": self.version,
            "turn": self.turn,
            "seat": self.seat,
            "move": self.move,
            "legal": self.legal,
            "before": self.before.as_dict(),
            "after": self.after.as_dict(),
            "best": self.best,
            "best_eval": self.best_eval.as_dict(),
            "loss": round(self.loss, 4),
            "margin_loss": round(self.margin_loss, 2),
            "severity": round(self.severity, 4),
            "mistake": self.mistake,
            "accuracy": round(self.accuracy, 1),
            "wins": [round(w, 4) for w in self.wins],
            "visits": self.visits,
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    name: str
    decisions: int  # decisions with a choice (more than one legal move)
    accuracy: float | None  # mean accuracy of its turns with a choice (`_turns`); None without any
    inaccuracies: int
    mistakes: int
    blunders: int
    mean_loss: float  # win probability given away per decision
    mean_margin_loss: float  # expected margin given away per decision, in points
    turns: int  # its turns (runs of its decisions in one turn) with a choice
    decision_accuracy: float | None  # mean accuracy of its decisions with a choice
    margin_loss_per_turn: float  # expected margin given away per turn, in points

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "decisions": self.decisions,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "mean_loss": round(self.mean_loss, 4),
            "mean_margin_loss": round(self.mean_margin_loss, 3),
            "turns": self.turns,
            "decision_accuracy": None if self.decision_accuracy is None else round(self.decision_accuracy, 1),
            "margin_loss_per_turn": round(self.margin_loss_per_turn, 3),
        }


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A decision that swung the game: a mistake or blunder, or one after which another seat leads."""

    index: int
    version: int
    seat: int
    kind: str  # "blunder", "mistake" or "lead-change"
    swing: float  # the largest change of a seat's win probability at that decision
    leader: int  # the seat with the best win probability after it

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "version": self.version,
            "seat": self.seat,
            "kind": self.kind,
            "swing": round(self.swing, 4),
            "leader": self.leader,
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    version: int  # the game's version analysed (its number of events)
    finished: bool
    viewer: int | None  # None: each decision from its acting seat's view (a finished game)
    seats: tuple[str, ...]  # the seats' names
    budget: Budget
    seed: str
    engine_version: str  # the game's rules version (docs/editions.md)
    catalog_edition: str
    analyser: str  # the search's version and this build's rules version
    decisions: tuple[DecisionAnalysis, ...]
    summary: tuple[SeatSummary, ...]
    turning_points: tuple[TurningPoint, ...]

    def as_dict(self) -> dict[str, Any]:
        """The JSON document (docs/analysis.md)."""
        return {
            "format": ANALYSIS_FORMAT,
            "version": self.version,
            "finished": self.finished,
            "viewer": self.viewer,
            "seats": list(self.seats),
            "budget": self.budget.as_dict(),
            "seed": self.seed,
            "engine_version": self.engine_version,
            "catalog_edition": self.catalog_edition,
            "analyser": self.analyser,
            "thresholds": {name: value for name, value in CLASSES},
            "decisions": [d.as_dict() for d in self.decisions],
            "summary": [s.as_dict() for s in self.summary],
            "turning_points": [t.as_dict() for t in self.turning_points],
        }

    to_json = as_dict


# The measure's own version (bump it when results change): with the search's and the rules' versions, the
# `analyser` part of a result's cache key.
MEASURE = "eval-3"


def analyser_version(learned: bool = False) -> str:
    """The search's, the measure's and the rules' versions; with the learned evaluation the model's
    version too (docs/learned-evaluation.md): an analysis' cache key names what valued it."""
    if learned:
        from domain.learned import shipped  # the model file is read when first asked

        return f"{ENGINE}+{MEASURE}+{shipped().version}/{ENGINE_VERSION}"
    return f"{ENGINE}+{MEASURE}/{ENGINE_VERSION}"


# -- finding the decisions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    index: int  # the decision's number in the game, from 0
    version: int
    state: GameState
    move: c.Command


def decisions_of(events: Sequence[Event]) -> tuple[list[Decision], GameState]:
    """Each decision of a game with the state it was taken in, found by replaying the events: at a
    decision point, the legal move whose events are the next ones (a take-back, a resignation or a
    clock's forfeit is no decision: its events are applied as they are). Returns the final state."""
    if not events:
        raise ValueError("a game to analyse has at least its GameStarted event")
    state = evolve(None, events[0])
    i = 1
    out: list[Decision] = []
    while i < len(events):
        if not state.finished and _at_decision(state):
            for move in legal_moves(state):
                caused = play(state, move)
                if tuple(events[i : i + len(caused)]) == tuple(caused):
                    out.append(Decision(len(out), i, state, move))
                    for e in caused:
                        state = evolve(state, e)
                    i += len(caused)
                    break
            else:
                state = evolve(state, events[i])
                i += 1
        else:
            state = evolve(state, events[i])
            i += 1
    return out, state


def _at_decision(state: GameState) -> bool:
    return bool(legal_moves(state))


# -- the analysis ---------------------------------------------------------------------------------


def _accuracy(severity: float) -> float:
    """lichess' move accuracy from the win percentage lost (0..100), here the decision's severity."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * severity) - 3.1669))


def point_worth(seats: int) -> float:
    """The win probability a point of margin is worth in an even position at the game's end, where
    points count most: the slope of `win_probabilities` there, (n - 1) / (2 n SPREAD_BASE) (1/56 with
    2 seats, 1/42 with 3, 3/112 with 4; domain/search.py); fewer seats count as 2."""
    n = max(2, seats)
    return (n - 1) / (2 * n * SPREAD_BASE)


def severity_of(loss: float, margin_loss: float, seats: int) -> float:
    """What a decision gave away, on the win probability's scale: the win probability lost, or the
    margin lost at `point_worth` per point when that is more (a seat far behind, whose win probability
    is near 0 whatever it plays, still gives points away)."""
    return max(loss, point_worth(seats) * margin_loss)


def _classify(severity: float) -> str | None:
    return next((name for name, at in CLASSES if severity >= at), None)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


class _Analyser:
    """The evaluations of a game's positions, each searched once: a decision's own search (from its
    acting seat's information, or the viewer's) gives the value of its position; the position after
    a move is valued to the same horizon from the mover's information (the next decision's search when
    that is the same, a search of its own otherwise, the leaf evaluation when the horizon is reached)."""

    def __init__(
        self,
        found: Sequence[Decision],
        viewer: int | None,
        budget: Budget,
        seed: str,
        cancelled: Callable[[], bool] | None,
        evaluation: LeafEvaluation = value_of,
    ) -> None:
        self.evaluation = evaluation
        self.found = found
        self.viewer = viewer
        self.budget = budget
        self.seed = seed
        self.cancelled = cancelled
        self.searches: dict[int, SearchResult] = {}
        self.values: dict[tuple[int, int, int], Value] = {}
        self.legal = [len(legal_moves(d.state)) for d in found]

    def stop_if_cancelled(self) -> None:
        """Raise AnalysisCancelled once `cancelled()` says so: a search stops early when cancelled, and
        its partial statistics (the move played perhaps never visited) must not enter the analysis."""
        if self.cancelled is not None and self.cancelled():
            raise AnalysisCancelled("cancelled during a decision's search")

    def knows(self, index: int) -> int:
        return self.found[index].state.turn.seat if self.viewer is None else self.viewer

    def search_of(self, index: int) -> SearchResult:
        """Decision `index`'s own search, with the move played included (domain/search.py FOCUS)."""
        known = self.searches.get(index)
        if known is None:
            decision = self.found[index]
            budget = self.budget
            if self.legal[index] == 1:
                budget = Budget(
                    iterations=max(8, budget.iterations // FORCED_SHARE),
                    determinisations=budget.determinisations,
                    horizon=budget.horizon,
                    exploration=budget.exploration,
                )
            known = search(
                decision.state,
                budget,
                self.seed_for(decision.state.turn.number + self.budget.horizon, self.knows(index)),
                viewer=self.knows(index),
                include=decision.move,
                cancelled=self.cancelled,
                evaluation=self.evaluation,
            )
            self.stop_if_cancelled()  # a search cut short values nothing: never keep nor read it
            self.searches[index] = known
        return known

    def root(self, index: int) -> tuple[MoveStats, MoveStats]:
        """Decision `index`'s move played and the best move its search found: the search's robust
        choice among the other moves (the most visited; the move played has a share of the iterations
        of its own, domain/search.py FOCUS, so it is compared on its value), or the move played when
        that one is not better for the acting seat."""
        result = self.search_of(index)
        move = self.found[index].move
        played = result.stats(move)
        assert played is not None, "the search values the move played (`include`)"
        best = next((m for m in result.moves if m.move != move), played)
        seat, seats = result.seat, len(played.wins)
        win, margin = played.wins[seat] - best.wins[seat], played.margins[seat] - best.margins[seat]
        if severity_of(-win, -margin, seats) <= severity_of(win, margin, seats):
            best = played  # the move played is as good
        return played, best

    def after(self, index: int) -> tuple[GameState, int, int | None]:
        """The position after decision `index`'s move: its state, its version and the decision taken
        there (None: the game's end, or events that are no decision, such as a take-back, follow)."""
        decision = self.found[index]
        state, caused = play_through(decision.state, decision.move)
        version = decision.version + len(caused)
        following = index + 1
        if following < len(self.found) and self.found[following].version == version:
            return self.found[following].state, version, following
        return state, version, None

    def value(self, state: GameState, version: int, index: int | None, knows: int, stop: int) -> Value:
        """Every seat's value of the position `state` (the game after `version` events; `index` the
        decision taken there, if any), from seat `knows`' information, searched up to turn `stop`."""
        key = (version, knows, stop)
        known = self.values.get(key)
        if known is not None:
            return known
        if state.finished:
            value = value_of(state)  # the result: nothing is hidden any more
        elif state.turn.number >= stop or (index is None and not legal_moves(state)):
            value = self.leaf(state, knows, stop)  # the horizon (or nobody to decide)
        elif index is not None and self.legal[index] == 1:
            value = self.value(*self.after(index), knows, stop)  # a forced move changes nothing
        elif (
            index is not None
            and self.knows(index) == knows
            and state.turn.number + self.budget.horizon == stop
        ):
            best = self.root(index)[1]
            value = Value(best.margins, best.wins)
        else:
            result = search(
                state,
                self.budget,
                self.seed_for(stop, knows),
                viewer=knows,
                cancelled=self.cancelled,
                stop=stop,
                evaluation=self.evaluation,
            )
            self.stop_if_cancelled()
            best = result.best  # the robust choice, as the bot plays
            value = Value(best.margins, best.wins) if result.moves else self.leaf(state, knows, stop)
        self.values[key] = value
        return value

    def reached(self, index: int, knows: int, stop: int) -> list[Value]:
        """The values of the positions after decision `index`'s move up to the end of its seat's run of
        decisions in that turn (the position right after it first): what the seat still reached after
        the move. Another seat's decision ends the run (its choice may cost the seat)."""
        seat = self.found[index].state.turn.seat
        state, version, following = self.after(index)
        out = [self.value(state, version, following, knows, stop)]
        while (
            following is not None
            and self.found[following].state.turn.seat == seat
            and self.found[following].state.turn.number + self.budget.horizon == stop
        ):
            state, version, following = self.after(following)
            out.append(self.value(state, version, following, knows, stop))
        return out

    def seed_for(self, stop: int, knows: int) -> str:
        """The seed of every evaluation from seat `knows`' information up to turn `stop`: the searches of
        one turn's positions draw the same re-deals (common random numbers), so the difference between a
        position and the next measures the move, not the luck of two draws."""
        return digest(self.seed, "horizon", str(stop), str(knows))

    def leaf(self, state: GameState, knows: int, stop: int) -> Value:
        """The leaf evaluation of `state` (domain/search.py `value_of`) averaged over the re-deals of
        what seat `knows` has not seen: the position at the horizon."""
        values = [
            self.evaluation(determinise(state, knows, digest(self.seed_for(stop, knows), "det", str(k))))
            for k in range(self.budget.determinisations)
        ]
        seats = range(len(state.players))
        return Value(
            tuple(_mean([v.margins[j] for v in values]) for j in seats),
            tuple(_mean([v.wins[j] for v in values]) for j in seats),
        )

    def decision(self, index: int) -> DecisionAnalysis:
        decision = self.found[index]
        result = self.search_of(index)
        seat = result.seat
        knows = self.knows(index)
        stop = decision.state.turn.number + self.budget.horizon
        played, best = self.root(index)
        before_value = self.value(decision.state, decision.version, index, knows, stop)
        reached = self.reached(index, knows, stop)
        after_value = reached[0]
        before = Evaluation(before_value.wins[seat], before_value.margins[seat])
        after = Evaluation(max(v.wins[seat] for v in reached), max(v.margins[seat] for v in reached))
        loss = max(0.0, before.win - after.win)
        margin_loss = max(0.0, before.margin - after.margin)
        forced = self.legal[index] == 1
        severity = 0.0 if forced else severity_of(loss, margin_loss, len(decision.state.players))
        return DecisionAnalysis(
            index=decision.index,
            version=decision.version,
            turn=decision.state.turn.number,
            seat=seat,
            move=str(decision.move),
            legal=self.legal[index],
            before=before,
            after=after,
            best=str(best.move),
            best_eval=before,
            loss=loss,
            margin_loss=margin_loss,
            severity=severity,
            mistake=None if forced else _classify(severity),
            accuracy=100.0 if forced else _accuracy(severity),
            wins=after_value.wins,
            visits=played.visits,
        )


def _turns(decisions: Sequence[DecisionAnalysis]) -> list[tuple[int, float, float]]:
    """Each run of one seat's decisions in one turn that has a choice: (seat, win probability lost,
    margin lost), from the evaluation before its first decision to the one after its last (which
    `DecisionAnalysis.after` is for the last decision of a run), at least 0."""
    runs: list[list[DecisionAnalysis]] = []
    for d in decisions:
        last = runs[-1][-1] if runs else None
        if last is not None and (last.seat, last.turn, last.index + 1) == (d.seat, d.turn, d.index):
            runs[-1].append(d)
        else:
            runs.append([d])
    return [
        (
            run[0].seat,
            max(0.0, run[0].before.win - run[-1].after.win),
            max(0.0, run[0].before.margin - run[-1].after.margin),
        )
        for run in runs
        if any(d.legal > 1 for d in run)
    ]


def _summaries(state: GameState, decisions: Sequence[DecisionAnalysis]) -> tuple[SeatSummary, ...]:
    out = []
    seats = len(state.players)
    turns = _turns(decisions)
    for p in state.players:
        mine = [d for d in decisions if d.seat == p.seat and d.legal > 1]
        runs = [(win, margin) for seat, win, margin in turns if seat == p.seat]
        out.append(
            SeatSummary(
                seat=p.seat,
                name=p.name,
                decisions=len(mine),
                accuracy=_mean([_accuracy(severity_of(w, m, seats)) for w, m in runs]) if runs else None,
                inaccuracies=sum(1 for d in mine if d.mistake == "inaccuracy"),
                mistakes=sum(1 for d in mine if d.mistake == "mistake"),
                blunders=sum(1 for d in mine if d.mistake == "blunder"),
                mean_loss=_mean([d.loss for d in mine]) if mine else 0.0,
                mean_margin_loss=_mean([d.margin_loss for d in mine]) if mine else 0.0,
                turns=len(runs),
                decision_accuracy=_mean([d.accuracy for d in mine]) if mine else None,
                margin_loss_per_turn=_mean([m for _, m in runs]) if runs else 0.0,
            )
        )
    return tuple(out)


def _turning_points(decisions: Sequence[DecisionAnalysis]) -> tuple[TurningPoint, ...]:
    points: list[TurningPoint] = []
    previous: tuple[float, ...] = ()
    led = -1
    for d in decisions:
        leader = max(range(len(d.wins)), key=d.wins.__getitem__)
        swing = max(abs(a - b) for a, b in zip(d.wins, previous, strict=True)) if previous else 0.0
        if d.mistake in ("mistake", "blunder"):
            points.append(TurningPoint(d.index, d.version, d.seat, d.mistake, max(swing, d.loss), leader))
        elif previous and leader != led:
            points.append(TurningPoint(d.index, d.version, d.seat, "lead-change", swing, leader))
        previous, led = d.wins, leader
    points.sort(key=lambda t: (-t.swing, t.index))
    return tuple(sorted(points[:TURNING_POINTS], key=lambda t: t.index))


def analyse_game(
    events: Sequence[Event],
    *,
    viewer: int | None,
    budget: Budget,
    seed: str = "analysis",
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    between: tuple[int, int] | None = None,
    learned: bool = False,
) -> GameAnalysis:
    """Analyse every decision of the game `events` (in order, from `GameStarted`).

    `viewer=None`: a finished game, each decision valued from its acting seat's information (raises
    ValueError for a running game: its hidden cards are nobody's to use). `viewer=X`: every decision
    valued from seat X's information only (X's own face-down cards known, the rest re-dealt), so the
    result is the same for every true deal X cannot tell apart. `progress(done, total)` is called
    after each decision; `cancelled()` is polled during the search (raises AnalysisCancelled).
    `between=(first, last)` analyses only the decisions whose events are among versions first..last
    (a dispute report's turn); each decision's evaluation is the one the whole game's analysis gives.
    `learned=True` values the positions with the learned model (domain/learned.py) instead of the greedy
    evaluation; the document's format is the same, its `analyser` names the model's version.
    Deterministic for the events, viewer, budget, seed and evaluation."""
    finished = any(isinstance(e, GameEnded) for e in events)
    if viewer is None and not finished:
        raise ValueError(
            "a running game is analysed only for one seat's view (its hidden cards are nobody's)"
        )
    every, final = decisions_of(events)
    found = every
    if between is not None:
        found = [d for d in every if between[0] <= d.version + 1 <= between[1]]
    if viewer is not None and not 0 <= viewer < len(final.players):
        raise ValueError(f"a viewer is a seat 0..{len(final.players) - 1} or None (a finished game)")
    evaluation: LeafEvaluation = value_of
    if learned:
        from domain.learned import learned_value

        evaluation = learned_value
    analyser = _Analyser(every, viewer, budget, seed, cancelled, evaluation)
    out: list[DecisionAnalysis] = []
    for done, decision in enumerate(found):
        if cancelled is not None and cancelled():
            raise AnalysisCancelled(f"cancelled after {done} of {len(found)} decisions")
        evaluated = analyser.decision(decision.index)
        if cancelled is not None and cancelled():
            raise AnalysisCancelled(f"cancelled after {done} of {len(found)} decisions")
        out.append(evaluated)
        if progress is not None:
            progress(done + 1, len(found))
    decisions = tuple(out)
    return GameAnalysis(
        version=len(events),
        finished=finished,
        viewer=viewer,
        seats=tuple(p.name for p in final.players),
        budget=budget,
        seed=seed,
        engine_version=final.engine_version,
        catalog_edition=final.catalog_edition,
        analyser=analyser_version(learned),
        decisions=decisions,
        summary=_summaries(final, decisions),
        turning_points=_turning_points(decisions),
    )
