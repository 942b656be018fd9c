"""Bots that play through the public protocol only (`legal_moves`, `play_on`), like OpenSpiel.

Both are deterministic given their seed: ties and random picks come from a SeededRandom.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from domain import commands as c
from domain.characters import rules_for
from domain.characters.commands import PlaceLibraryTile
from domain.characters.copernicus import CopernicusLibrary
from domain.engine import Played, legal_moves, play_on
from domain.rng import SeededRandom
from domain.state import GameState, PlayerState


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, moves: Sequence[c.Command]) -> c.Command: ...


class RandomBot:
    """Uniform choice among the legal moves."""

    name = "random"

    def __init__(self, seed: str) -> None:
        self._rng = SeededRandom(seed, "random-bot")

    def choose(self, state: GameState, moves: Sequence[c.Command]) -> c.Command:
        return self._rng.choice(moves)


# Quadrants beyond this many are worth nothing more: a bot hoarding them would never spend them on free
# actions (a recolour that lets it observe again), and a game of such bots could stall.
QUADRANTS_WORTH_KEEPING = 30


def evaluate(p: PlayerState, state: GameState) -> float:
    """Score plus simple heuristics for resources that turn into points later. Called once per candidate
    move of the greedy bot's lookahead (and per leaf of a search), so written as plain loops; the terms
    are added in a fixed order so the value is the same float whichever way the counts are taken."""
    rules = rules_for(state, p)
    cellar_risk = 0
    for value, n in zip(rules.cellar(state.catalog)[1], p.cellar, strict=True):  # CHAR-BRU-3
        cellar_risk += value * n
    pips = 0
    for _, pip in p.dice:
        pips += pip
    total = (
        p.score
        + 0.2 * pips
        + 0.6 * len(p.dice)
        + 0.7 * min(p.quadrants, QUADRANTS_WORTH_KEEPING)
        + 1.5 * sum(p.university)
        + 0.8 * sum(p.books)
        + 0.6 * p.comets_off
        + 0.6 * p.tokens_used
        + 1.0 * len(p.upgraded)
        + 0.5 * p.reputation
        + 0.5 * cellar_risk
        + 2.0 * p.major_objects
    )
    if p.parts:  # an ability's own resources (domain/characters/); without parts both terms are 0
        total = total + 0.8 * _library_tiles(p) + rules.worth(state, p)
    return total


def _library_tiles(p: PlayerState) -> int:
    """Copernicus' library tiles placed (CHAR-COP-2): their rewards come with later writing."""
    part = p.part(CopernicusLibrary) if p.parts else None
    return len(part.library) if part is not None else 0


def prune(moves: Sequence[c.Command], state: GameState | None = None) -> list[c.Command]:
    """Keep, per observation target, only the payments that waste the least; of Copernicus' library
    tiles (CHAR-COP-2), only those on the next space of a Book token (where they pay soonest)."""
    best: dict[str, tuple[int, c.Observe]] = {}
    out: list[c.Command] = []
    for m in moves:
        if isinstance(m, PlaceLibraryTile):
            if state is not None and m.column == state.players[m.seat].books[m.row] + 1:
                out.append(m)
        elif isinstance(m, c.Observe):
            waste = sum(v for _, v in m.dice) + m.comets1 + 2 * m.comets2
            if m.target not in best or waste < best[m.target][0]:
                best[m.target] = (waste, m)
        else:
            out.append(m)
    return out + [m for _, m in best.values()]


# Moves that do nothing now: the greedy bot prefers a useful move worth as much.
_PASSES = (c.EndActions, c.StopWriting, c.StopObserving, c.DeclineDie)


class GreedyBot:
    """One-ply lookahead: play each candidate to the next decision and keep the best evaluation."""

    name = "greedy"

    def __init__(self, seed: str) -> None:
        self._rng = SeededRandom(seed, "greedy-bot")
        self._chosen: tuple[GameState, c.Command, Played] | None = None

    def choose(self, state: GameState, moves: Sequence[c.Command]) -> c.Command:
        seat = state.turn.seat
        best: list[tuple[c.Command, Played]] = []
        best_value = float("-inf")
        for move in prune(moves, state):
            outcome = play_on(state, move)
            after = outcome[0]
            value = evaluate(after.players[seat], after)
            if isinstance(move, _PASSES):
                value -= 0.25  # prefer doing something useful when it is worth as much
            if value > best_value + 1e-9:
                best, best_value = [(move, outcome)], value
            elif abs(value - best_value) <= 1e-9:
                best.append((move, outcome))
        chosen, outcome = self._rng.choice(best)
        self._chosen = (state, chosen, outcome)
        return chosen

    def recall(self, state: GameState, move: c.Command) -> Played | None:
        """The lookahead's outcome of `move` from `state` if that is what this bot just chose."""
        known = self._chosen
        if known is not None and known[0] is state and known[1] is move:
            return known[2]
        return None


BOT_KINDS = ("greedy", "random", "mcts", "mcts:fast", "mcts:normal", "mcts:strong")  # `make_bot` kinds


# The search bot with the learned evaluation (domain/learned.py, docs/learned-evaluation.md): `make_bot`
# and the tools (`galileo tournament`, `selfplay`) know these; the HTTP API offers BOT_KINDS.
LEARNED_KINDS = ("mcts-learned", "mcts-learned:fast", "mcts-learned:normal", "mcts-learned:strong")


def make_bot(kind: str, seed: str) -> Bot:
    """A bot by kind: random, greedy, or the search bot `mcts` with a level (`mcts:fast`, `mcts:normal`
    (= `mcts`), `mcts:strong`; or `mcts:<budget>`, domain/search.py `parse_budget`); `mcts-learned`
    with the same levels is the search bot valued by the learned model (domain/learned.py)."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind == "mcts-learned" or kind.startswith("mcts-learned:"):
        from domain.learned import learned_value
        from domain.search import DEFAULT_LEVEL, SearchBot, parse_budget

        level = kind.partition(":")[2] or DEFAULT_LEVEL
        return SearchBot(seed, parse_budget(level), level, evaluation=learned_value, kind="mcts-learned")
    if kind == "mcts" or kind.startswith("mcts:"):
        from domain.search import DEFAULT_LEVEL, SearchBot, parse_budget  # the search imports this module

        level = kind.partition(":")[2] or DEFAULT_LEVEL
        return SearchBot(seed, parse_budget(level), level)
    raise ValueError(
        f"unknown bot {kind!r}: use greedy or random, or mcts[:fast|normal|strong] or mcts-learned[:level]"
    )


def bot_kind_error(kind: str) -> str | None:
    """Why `kind` is no bot `make_bot` knows (None: it is one)."""
    try:
        make_bot(kind, "check")
    except ValueError as exc:
        return str(exc)
    return None


def play_chosen(bot: Bot, state: GameState, move: c.Command) -> Played:
    """`play_on(state, move)` for the move `bot` just chose, reusing its own lookahead of that move
    (the greedy bot has already played every candidate to the next decision) instead of playing it again."""
    recall = getattr(bot, "recall", None)
    if recall is not None:
        known: Played | None = recall(state, move)
        if known is not None:
            return known[0], list(known[1]), known[2]
    return play_on(state, move)


def next_move(state: GameState, bots: Sequence[Bot]) -> c.Command:
    """The move of the bot whose seat must act."""
    return bots[state.turn.seat].choose(state, legal_moves(state))
