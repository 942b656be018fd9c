"""A search bot: information-set Monte Carlo tree search over determinisations (issue 18).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree for the acting seat, keyed by the
moves played from the decision; every iteration samples a determinisation — the state with what the
acting seat has not seen re-dealt (domain/determinise.py, the re-deal a fork makes) — descends the tree
among the moves legal in that determinisation (UCB1 with availability counts), expands one move and
scores the position it reaches with the leaf evaluation. Nodes where another seat decides pick that
seat's best (max^n), so the bot plays any seat: base game or expansion, either side, the person of a solo game
(Tycho plays himself inside the engine, domain/opponents.py).

The tree covers the rest of the current turn (`Budget.horizon` turns); a leaf is valued by the greedy
bot's `evaluate` of every seat (domain/bots.py): a seat's *margin* is its evaluation minus the best
other seat's, in points, and its *win probability* a logistic of the margins whose spread shrinks as
the deck runs out (`win_probability`, fitted on greedy self-play). A finished game is valued by its
result. Selection uses the margin, in points.

Pure and deterministic: no clock, no global randomness; the determinisations and tie-breaks come from
the seed, so a seed and a budget always give the same move. A time budget belongs outside domain/.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import exp, log, sqrt

from domain import commands as c
from domain.bots import evaluate, prune
from domain.determinise import determinise
from domain.engine import Played, legal_moves, play_on
from domain.rng import SeededRandom, digest
from domain.state import GameState

# The search's own version, part of an analysis' cache key (docs/analysis.md): bump it when results change.
ENGINE = "ismcts-2"

# -- the budget and the named levels ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the search works per decision: `iterations` (descents of the tree), drawn over
    `determinisations` re-deals; `horizon` turns deep (1: to the end of the current turn);
    `exploration`: the UCB constant, in points of margin."""

    iterations: int = 200
    determinisations: int = 8
    horizon: int = 1
    exploration: float = 1.5

    def __post_init__(self) -> None:
        if self.iterations < 1 or self.determinisations < 1 or self.horizon < 1:
            raise ValueError("a budget needs at least one iteration, one determinisation and a horizon of 1")

    @property
    def label(self) -> str:
        """The budget in one word (its level's name when it is one): for cache keys and reports."""
        for name, level in LEVELS.items():
            if level == self:
                return name
        return f"i{self.iterations}-d{self.determinisations}-h{self.horizon}-c{self.exploration:g}"

    def as_dict(self) -> dict[str, int | float | str]:
        return {
            "label": self.label,
            "iterations": self.iterations,
            "determinisations": self.determinisations,
            "horizon": self.horizon,
            "exploration": self.exploration,
        }


LEVELS: dict[str, Budget] = {
    "fast": Budget(iterations=60, determinisations=4),
    "normal": Budget(iterations=200, determinisations=8),
    "strong": Budget(iterations=600, determinisations=16),
}
DEFAULT_LEVEL = "normal"


def parse_budget(text: str) -> Budget:
    """A level name (fast, normal, strong), or `iterations=N[,determinisations=N][,horizon=N]
    [,exploration=X]` (`i=`, `d=`, `h=`, `c=` for short; `/` separates as well as `,`, for bot lists
    such as `--bots greedy,mcts:i=100/d=4`), or a bare number of iterations."""
    text = text.strip()
    if text in LEVELS:
        return LEVELS[text]
    if text.isdigit():
        return Budget(iterations=int(text))
    names = {"i": "iterations", "d": "determinisations", "h": "horizon", "c": "exploration"}
    values: dict[str, float] = {}
    for part in text.replace("/", ",").split(","):
        key, sep, value = part.partition("=")
        key = names.get(key.strip(), key.strip())
        if not sep or key not in names.values():
            raise ValueError(
                f"bad budget {text!r}: use {', '.join(LEVELS)} or iterations=N,determinisations=N,horizon=N"
            )
        try:
            values[key] = float(value) if key == "exploration" else int(value)
        except ValueError:
            raise ValueError(f"bad budget {text!r}: {key} must be a number") from None
    base = LEVELS[DEFAULT_LEVEL]
    return Budget(
        iterations=int(values.get("iterations", base.iterations)),
        determinisations=int(values.get("determinisations", base.determinisations)),
        horizon=int(values.get("horizon", base.horizon)),
        exploration=float(values.get("exploration", base.exploration)),
    )


# -- the leaf evaluation ----------------------------------------------------------------------------

# The logistic's spread, in points, is SPREAD_BASE + SPREAD_PER_CARD * cards left in the deck (the end
# comes when the deck is empty, END-1): fitted on greedy self-play (docs/analysis.md, "Calibration").
SPREAD_BASE = 14.0
SPREAD_PER_CARD = 1.0


def spread(state: GameState) -> float:
    """How many points of margin are worth one unit of log-odds at this point of the game."""
    return SPREAD_BASE + SPREAD_PER_CARD * len(state.deck)


@dataclass(frozen=True, slots=True)
class Value:
    """A position as each seat sees its chances: margin (points ahead of the best other seat) and win
    probability, per seat."""

    margins: tuple[float, ...]
    wins: tuple[float, ...]


def value_of(state: GameState) -> Value:
    """The leaf evaluation: a finished game by its result (TIE-1 winners share the win), otherwise
    `evaluate` of every seat turned into margins and win probabilities."""
    players = state.players
    if state.finished:
        scores = [float(p.score) for p in players]
        winners = state.winners
        wins = tuple((1.0 / len(winners) if p.seat in winners else 0.0) for p in players)
    else:
        scores = [evaluate(p, state) for p in players]
        wins = win_probabilities(scores, spread(state))
    if len(scores) == 1:
        return Value((scores[0],), wins)
    return Value(_margins(scores), wins)


def _margins(scores: Sequence[float]) -> tuple[float, ...]:
    """Each seat's score minus the best other seat's (the first and second best found in one pass)."""
    first = second = -math.inf
    for x in scores:
        if x > first:
            first, second = x, first
        elif x > second:
            second = x
    return tuple(x - (second if x == first else first) for x in scores)


def win_probabilities(values: Sequence[float], scale: float) -> tuple[float, ...]:
    """Each seat's chance to finish first: the product of its pairwise chances to finish ahead of each
    other seat (a logistic of the difference), normalised to sum to 1."""
    if len(values) == 1:
        return (1.0,)
    raw = []
    for i, v in enumerate(values):
        r = 1.0
        for j, o in enumerate(values):
            if j != i:
                x = (v - o) / scale
                r *= 0.0 if x < -40 else 1.0 / (1.0 + exp(-x))  # the logistic (0 far below)
        raw.append(r)
    total = sum(raw)
    return tuple(r / total for r in raw) if total > 0 else tuple(1.0 / len(values) for _ in values)


FOCUS = 4  # with `include`: one iteration in FOCUS goes through the included move

# -- the tree -----------------------------------------------------------------------------------------


class _Node:
    """A decision point of the tree. `seen` keeps, per determinisation, the state reached there (after
    any forced moves), its candidate moves (None at a leaf: the game's end or the horizon) and, at a
    leaf, its value: a determinisation's states are computed once, however often the search passes."""

    __slots__ = ("edges", "seen")

    def __init__(self) -> None:
        self.edges: dict[c.Command, _Edge] = {}
        self.seen: dict[int, tuple[GameState, list[c.Command] | None, Value | None]] = {}


class _Edge:
    __slots__ = ("avail", "child", "margins", "visits", "wins")

    def __init__(self, seats: int) -> None:
        self.visits = 0
        self.avail = 1
        self.margins = [0.0] * seats
        self.wins = [0.0] * seats
        self.child = _Node()


Evaluation = Callable[[GameState], Value]  # a leaf evaluation: `value_of`, or a learned one


def _arrive(
    played: Played, stop: int, evaluation: Evaluation = value_of
) -> tuple[GameState, list[c.Command] | None, Value | None]:
    """Play the forced moves from where `played` stopped (they take no node): the next real decision
    with its candidate moves, or a leaf (the end, or the horizon) with its value."""
    s, _, known = played
    while not s.finished and s.turn.number < stop:
        moves = prune(legal_moves(s, known), s)
        if len(moves) > 1:
            return s, moves, None
        if not moves:  # nobody to decide (never at a settled state: a safety net)
            break
        s, _, known = play_on(s, moves[0])
    return s, None, evaluation(s)


@dataclass(frozen=True, slots=True)
class MoveStats:
    """A root move after the search: visits, and the mean margin and win probability of every seat."""

    move: c.Command
    visits: int
    margins: tuple[float, ...]
    wins: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class SearchResult:
    seat: int
    moves: tuple[MoveStats, ...]  # every root move visited, most visited first
    iterations: int

    @property
    def best(self) -> MoveStats:
        """The robust choice: the most visited move (then the best margin for the seat)."""
        return self.moves[0]

    def stats(self, move: c.Command) -> MoveStats | None:
        return next((m for m in self.moves if m.move == move), None)


def candidates(state: GameState) -> list[c.Command]:
    """The moves the search considers: the legal moves, without payments that only waste more
    (the greedy bot's pruning, domain/bots.py)."""
    return prune(legal_moves(state), state)


def search(
    state: GameState,
    budget: Budget,
    seed: str,
    *,
    viewer: int | None = None,
    include: c.Command | None = None,
    cancelled: Callable[[], bool] | None = None,
    stop: int | None = None,
    evaluation: Evaluation = value_of,
) -> SearchResult:
    """Search the decision of the seat to act in `state`, from what `viewer` (default: that seat)
    knows. `include` is a move to value even if the pruning would leave it out (the move a player
    played, for an analysis); every FOCUS-th iteration goes through it, so its value rests on a search
    of its own continuations, like the best move's (a mean over few visits would be pessimistic).
    `cancelled` is polled between iterations: when it says so the search stops with what it has.
    `stop`: the turn at which the tree ends (default: the state's turn plus `budget.horizon`), so an
    analysis can value a later position to the same horizon as the decision before it. `evaluation`
    values the leaves (default: `value_of`, the greedy evaluation; domain/learned.py has a learned one).

    The steps: the root's determinisations (`_root`), then `budget.iterations` descents (`_Tree.iterate`:
    a move chosen at each decision, `_Tree.choose`, until one is expanded or a leaf reached; the value
    backed up the path, `_backup`), then the root moves' statistics (`_statistics`)."""
    seat = state.turn.seat
    root = _root(state, budget, seed, seat if viewer is None else viewer, include)
    if stop is None:
        stop = state.turn.number + budget.horizon
    tree = _Tree(root, len(state.players), SeededRandom(seed, "ismcts"), include, budget.exploration, stop)
    tree.evaluation = evaluation
    done = tree.run(budget.iterations, budget.determinisations, cancelled)
    return SearchResult(seat, _statistics(root, seat), done)


def _root(state: GameState, budget: Budget, seed: str, knows: int, include: c.Command | None) -> _Node:
    """The root: per determinisation, the re-dealt state and its candidate moves (with `include`)."""
    root = _Node()
    for k in range(budget.determinisations):
        det = determinise(state, knows, digest(seed, "det", str(k)))
        options = candidates(det)
        if include is not None and include not in options:
            options.append(include)
        root.seen[k] = (det, options, None)
    return root


class _Tree:
    """One search's tree and what its iterations share: the root, the seats, the tie-break stream, the
    included move, the UCB constant and the turn at which the tree ends."""

    __slots__ = ("evaluation", "explore", "include", "rng", "root", "seats", "stop")

    def __init__(
        self, root: _Node, seats: int, rng: SeededRandom, include: c.Command | None, explore: float, stop: int
    ) -> None:
        self.root = root
        self.seats = seats
        self.rng = rng
        self.include = include
        self.explore = explore
        self.stop = stop
        self.evaluation: Evaluation = value_of

    def run(self, iterations: int, determinisations: int, cancelled: Callable[[], bool] | None) -> int:
        """The iterations, determinisation i % determinisations for iteration i, polling `cancelled`
        every 16; returns how many were done."""
        done = 0
        for i in range(iterations):
            if cancelled is not None and i % 16 == 0 and cancelled():
                break
            done += 1
            self.iterate(i, i % determinisations)
        return done

    def iterate(self, i: int, k: int) -> None:
        """Iteration `i` on determinisation `k`: from the root, a move chosen at each decision until one
        is expanded (a new edge) or a leaf reached; the position reached valued and backed up the path."""
        node = self.root
        path: list[_Edge] = []
        s, moves, value = node.seen[k]
        while moves is not None:
            m, edge, expanded = self.choose(node, moves, s, i)
            path.append(edge)
            node = edge.child
            seen = node.seen.get(k)
            if seen is None:
                seen = _arrive(play_on(s, m), self.stop, self.evaluation)
                node.seen[k] = seen
            s, moves, value = seen
            if expanded:
                break
        if value is None:
            value = self.evaluation(s)
            node.seen[k] = (s, moves, value)
        _backup(path, value, self.seats)

    def choose(
        self, node: _Node, moves: list[c.Command], s: GameState, i: int
    ) -> tuple[c.Command, _Edge, bool]:
        """The move to follow at `node` (and whether it is new there): every move offered counts as
        available; an untried move first (the included one before the others), then at the root every
        FOCUS-th iteration the included move, otherwise UCB1 for the seat to act."""
        edges = node.edges
        untried = _available(edges, moves)
        include = self.include
        if untried:
            m = (
                include
                if include is not None and include in untried
                else untried[self.rng.below(len(untried))]
            )
            edge = _Edge(self.seats)
            edges[m] = edge
            return m, edge, True
        if node is self.root and i % FOCUS == FOCUS - 1 and include is not None and include in edges:
            return include, edges[include], False  # the included move's value is not a guess
        m = _ucb(edges, moves, s.turn.seat, self.explore)
        return m, edges[m], False


def _available(edges: dict[c.Command, _Edge], moves: list[c.Command]) -> list[c.Command]:
    """Count one more availability for each of `moves` tried before; return the untried ones, in order."""
    untried: list[c.Command] = []
    for m in moves:
        edge = edges.get(m)
        if edge is None:
            untried.append(m)
        else:
            edge.avail += 1
    return untried


def _ucb(edges: dict[c.Command, _Edge], moves: list[c.Command], actor: int, explore: float) -> c.Command:
    """UCB1 with availability counts on `actor`'s mean margin: the first best of `moves`."""
    best_score = -math.inf
    m = moves[0]
    for move in moves:
        e = edges[move]
        visits = e.visits
        score = e.margins[actor] / visits + explore * sqrt(log(e.avail) / visits)
        if score > best_score:
            m, best_score = move, score
    return m


def _backup(path: list[_Edge], value: Value, seats: int) -> None:
    """Add one visit and `value` (every seat's margin and win probability) to each edge of `path`."""
    margins, wins = value.margins, value.wins
    for edge in path:
        edge.visits += 1
        em, ew = edge.margins, edge.wins
        for j in range(seats):
            em[j] += margins[j]
            ew[j] += wins[j]


def _statistics(root: _Node, seat: int) -> tuple[MoveStats, ...]:
    """Every visited root move's statistics, most visited first (then the best mean margin for `seat`)."""
    stats = [
        MoveStats(
            m,
            e.visits,
            tuple(x / e.visits for x in e.margins),
            tuple(x / e.visits for x in e.wins),
        )
        for m, e in root.edges.items()
        if e.visits
    ]
    stats.sort(key=lambda st: (-st.visits, -st.margins[seat]))
    return tuple(stats)


# With this many cards left in the deck or fewer the end is near (END-1): the learned bot searches a
# whole round then (every seat's next turn), so costs that come after its turn count.
ENDGAME_DECK = 6


class SearchBot:
    """The ISMCTS bot (`make_bot("mcts")`, `"mcts:strong"`): deterministic for its seed and budget.
    With `evaluation` (the `mcts-learned` kind, domain/learned.py) its leaves are valued by that, and
    near the game's end (ENDGAME_DECK) its tree reaches past its turn to the end of the round."""

    def __init__(
        self,
        seed: str,
        budget: Budget,
        level: str = DEFAULT_LEVEL,
        evaluation: Evaluation | None = None,
        kind: str = "mcts",
    ) -> None:
        self.name = f"{kind}:{level}"
        self._seed = seed
        self._budget = budget
        self._calls = 0
        self._evaluation = evaluation

    def stop(self, state: GameState) -> int | None:
        """The turn the tree ends at: the budget's horizon, or with a learned evaluation near the end a
        whole round (None: the search's default)."""
        if self._evaluation is None or len(state.deck) > ENDGAME_DECK:
            return None
        return state.turn.number + max(self._budget.horizon, len(state.players))

    def choose(self, state: GameState, moves: Sequence[c.Command]) -> c.Command:
        if len(moves) == 1:
            return moves[0]
        self._calls += 1
        seed = f"{self._seed}:{self._calls}"
        if self._evaluation is None:
            result = search(state, self._budget, seed)
        else:
            result = search(state, self._budget, seed, stop=self.stop(state), evaluation=self._evaluation)
        offered = set(moves)  # the search's moves come from re-deals: keep to the ones offered here
        return next((m.move for m in result.moves if m.move in offered), moves[0])
