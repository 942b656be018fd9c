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
from domain.editions import ENGINE_VERSION
from domain.engine import legal_moves, play
from domain.events import Event, GameEnded
from domain.evolve import evolve
from domain.rng import digest
from domain.search import ENGINE, Budget, SearchResult, search
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
    accuracy: float | None  # mean accuracy over those decisions; None without any
    inaccuracies: int
    mistakes: int
    blunders: int
    mean_loss: float  # win probability given away per decision
    mean_margin_loss: float  # expected margin given away per decision, in points

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


def analyser_version() -> str:
    return f"{ENGINE}/{ENGINE_VERSION}"


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


def _accuracy(loss: float) -> float:
    """lichess' move accuracy from the win percentage lost (0..100)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * loss) - 3.1669))


def _classify(loss: float) -> str | None:
    return next((name for name, at in CLASSES if loss >= at), None)


def _evaluate(decision: Decision, result: SearchResult) -> DecisionAnalysis:
    seat = result.seat
    played = result.stats(decision.move)
    assert played is not None, "the search values the move played (`include`)"
    # the best alternative: the search's robust choice among the other moves (the move played has a share
    # of the iterations of its own, domain/search.py FOCUS, so it is compared on its value, not its visits)
    best = next((m for m in result.moves if m.move != decision.move), played)
    if played.wins[seat] >= best.wins[seat]:
        best = played
    after = Evaluation(played.wins[seat], played.margins[seat])
    best_eval = Evaluation(best.wins[seat], best.margins[seat])
    loss = max(0.0, best_eval.win - after.win)
    margin_loss = max(0.0, best_eval.margin - after.margin)
    legal = len(legal_moves(decision.state))
    return DecisionAnalysis(
        index=decision.index,
        version=decision.version,
        turn=decision.state.turn.number,
        seat=seat,
        move=str(decision.move),
        legal=legal,
        before=best_eval,
        after=after,
        best=str(best.move),
        best_eval=best_eval,
        loss=loss,
        margin_loss=margin_loss,
        mistake=None if legal == 1 else _classify(loss),
        accuracy=100.0 if legal == 1 else _accuracy(loss),
        wins=played.wins,
        visits=played.visits,
    )


def _summaries(state: GameState, decisions: Sequence[DecisionAnalysis]) -> tuple[SeatSummary, ...]:
    out = []
    for p in state.players:
        mine = [d for d in decisions if d.seat == p.seat and d.legal > 1]
        out.append(
            SeatSummary(
                seat=p.seat,
                name=p.name,
                decisions=len(mine),
                accuracy=sum(d.accuracy for d in mine) / len(mine) if mine else None,
                inaccuracies=sum(1 for d in mine if d.mistake == "inaccuracy"),
                mistakes=sum(1 for d in mine if d.mistake == "mistake"),
                blunders=sum(1 for d in mine if d.mistake == "blunder"),
                mean_loss=sum(d.loss for d in mine) / len(mine) if mine else 0.0,
                mean_margin_loss=sum(d.margin_loss for d in mine) / len(mine) if mine else 0.0,
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
) -> GameAnalysis:
    """Analyse every decision of the game `events` (in order, from `GameStarted`).

    `viewer=None`: a finished game, each decision valued from its acting seat's information (raises
    ValueError for a running game: its hidden cards are nobody's to use). `viewer=X`: every decision
    valued from seat X's information only (X's own face-down cards known, the rest re-dealt), so the
    result is the same for every true deal X cannot tell apart. `progress(done, total)` is called
    after each decision; `cancelled()` is polled during the search (raises AnalysisCancelled).
    `between=(first, last)` analyses only the decisions whose events are among versions first..last
    (a dispute report's turn); each decision's evaluation is the one the whole game's analysis gives.
    Deterministic for the events, viewer, budget and seed."""
    finished = any(isinstance(e, GameEnded) for e in events)
    if viewer is None and not finished:
        raise ValueError(
            "a running game is analysed only for one seat's view (its hidden cards are nobody's)"
        )
    found, final = decisions_of(events)
    if between is not None:
        found = [d for d in found if between[0] <= d.version + 1 <= between[1]]
    if viewer is not None and not 0 <= viewer < len(final.players):
        raise ValueError(f"a viewer is a seat 0..{len(final.players) - 1} or None (a finished game)")
    out: list[DecisionAnalysis] = []
    for index, decision in enumerate(found):
        if cancelled is not None and cancelled():
            raise AnalysisCancelled(f"cancelled after {index} of {len(found)} decisions")
        seat = decision.state.turn.seat
        knows = seat if viewer is None else viewer
        forced = len(legal_moves(decision.state)) == 1
        used = (
            Budget(
                iterations=max(8, budget.iterations // FORCED_SHARE),
                determinisations=budget.determinisations,
                horizon=budget.horizon,
                exploration=budget.exploration,
            )
            if forced
            else budget
        )
        result = search(
            decision.state,
            used,
            digest(seed, "decision", str(decision.version)),
            viewer=knows,
            include=decision.move,
            cancelled=cancelled,
        )
        if cancelled is not None and cancelled():
            raise AnalysisCancelled(f"cancelled after {index} of {len(found)} decisions")
        out.append(_evaluate(decision, result))
        if progress is not None:
            progress(index + 1, len(found))
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
        analyser=analyser_version(),
        decisions=decisions,
        summary=_summaries(final, decisions),
        turning_points=_turning_points(decisions),
    )
