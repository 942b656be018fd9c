"""Training the learned evaluation from self-play (issue 34; docs/learned-evaluation.md, "Training").

`train(seed, games, ...)` plays `games` greedy self-play games, fits a model on their positions, then for
each further round plays `search_games` games of the search bot valued by the model of the round before
and fits again on every position so far. Each sample is the position at the first decision of a turn:
every seat's public features (domain/learned.py) with its final score (the strength's target) and
whether it won (the win probability's).

The fit is exact: ridge least squares by the normal equations in integers, solved with rational
arithmetic (fractions), each weight rounded to 1/SCALE; the spread by a grid search on the Brier score in
integers; the logistic table by `decimal` (correctly rounded). Pure and deterministic: a seed and the
same arguments give the same games, the same samples and the same weights, bit for bit, on any machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction

from domain.bots import Bot, GreedyBot, play_chosen
from domain.engine import legal_moves, start
from domain.learned import COLUMNS, MODEL, SCALE, SPAN, STEPS, Model, design, features
from domain.search import Budget, SearchBot
from domain.selfplay import MAX_DECISIONS, default_setup

RIDGE = 4  # added to the normal equations' diagonal (not the constant's), per 1000 samples, at least 1
SPREAD_BASES = tuple(range(4, 41, 2))  # points: the grid of the spread's base
SPREAD_PER_CARD = tuple(range(0, 9))  # quarter points per card left


@dataclass(frozen=True, slots=True)
class Sample:
    """One position: the cards left, every seat's features, final scores and win shares (TIE-1)."""

    deck: int
    seats: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    wins: tuple[Fraction, ...]


def play_samples(players: int, seed: str, bots: Sequence[Bot]) -> list[Sample]:
    """A game between `bots` (one per seat), its samples: the position at each turn's first decision."""
    state, _ = start(default_setup(players, seed))
    moves = legal_moves(state)
    seen: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
    turn = -1
    decisions = 0
    while not state.finished:
        if state.turn.number != turn:
            turn = state.turn.number
            seen.append((len(state.deck), features(state)))
        bot = bots[state.turn.seat]
        state, _, known = play_chosen(bot, state, bot.choose(state, moves))
        moves = legal_moves(state, known)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"training game {seed!r} did not end after {MAX_DECISIONS} decisions")
    scores = tuple(p.score for p in state.players)
    winners = state.winners
    wins = tuple(Fraction(1, len(winners)) if p.seat in winners else Fraction(0) for p in state.players)
    return [Sample(deck, seats, scores, wins) for deck, seats in seen]


def fit_weights(samples: Sequence[Sample]) -> tuple[int, ...]:
    """Ridge least squares of every seat's gain (final score minus its score then) on its design row,
    exactly: the weights in 1/SCALE points, rounded half away from zero."""
    n = len(COLUMNS)
    gram = [[0] * n for _ in range(n)]
    moment = [0] * n
    rows = 0
    for sample in samples:
        for seat, score in zip(sample.seats, sample.scores, strict=True):
            x = design(seat, sample.deck)
            gain = score - seat[0]
            rows += 1
            for a in range(n):
                xa = x[a]
                if xa:
                    moment[a] += xa * gain
                    ga = gram[a]
                    for b in range(a, n):
                        ga[b] += xa * x[b]
    for a in range(n):
        for b in range(a):
            gram[a][b] = gram[b][a]
    ridge = max(1, RIDGE * rows // 1000)
    for a in range(1, n):
        gram[a][a] += ridge
    return tuple(_round_half_away(w * SCALE) for w in _non_negative(gram, moment))


def _non_negative(gram: list[list[int]], moment: list[int]) -> list[Fraction]:
    """The least squares solution with every feature's weight at least 0 (the constant and the cards
    left free): solve, drop the columns whose weight came out negative (their weight 0), solve again, until
    none is. A resource never counts against a seat: unconstrained, features that grow with the game's
    progress (library, tokens) took negative weights and the bots stopped taking cards."""
    n = len(moment)
    free = {0, n - 1}
    active = list(range(n))
    while True:
        sub = [[gram[a][b] for b in active] for a in active]
        solution = dict(zip(active, _solve(sub, [moment[a] for a in active]), strict=True))
        negative = [a for a in active if a not in free and solution[a] < 0]
        if not negative:
            return [solution.get(a, Fraction(0)) for a in range(n)]
        active = [a for a in active if a not in negative]


def _round_half_away(x: Fraction) -> int:
    whole = (abs(x.numerator) * 2 + x.denominator) // (2 * x.denominator)
    return whole if x >= 0 else -whole


def _solve(matrix: list[list[int]], vector: list[int]) -> list[Fraction]:
    """The solution of matrix · w = vector (matrix symmetric positive definite), by Gaussian
    elimination in rationals."""
    n = len(vector)
    a = [[Fraction(v) for v in row] + [Fraction(vector[i])] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / head[col]
            if factor:
                row = a[r]
                for k in range(col, n + 1):
                    row[k] -= factor * head[k]
    out = [Fraction(0)] * n
    for col in range(n - 1, -1, -1):
        rest = sum((a[col][k] * out[k] for k in range(col + 1, n)), Fraction(0))
        out[col] = (a[col][n] - rest) / a[col][col]
    return out


def sigmoid_table() -> tuple[int, ...]:
    """The logistic at -SPAN..SPAN in steps of 1/STEPS, in 1/SCALE, correctly rounded by `decimal`."""
    context = Context(prec=40)
    out = []
    for k in range(-SPAN * STEPS, SPAN * STEPS + 1):
        t = Decimal(k) / Decimal(STEPS)
        value = Decimal(1) / (Decimal(1) + context.exp(-t))
        out.append(int((value * SCALE).to_integral_value(rounding="ROUND_HALF_EVEN")))
    return tuple(out)


def fit_spread(
    samples: Sequence[Sample], weights: tuple[int, ...], table: tuple[int, ...]
) -> tuple[int, int]:
    """The spread (base, per card; 1/SCALE points) on the grid with the least Brier score of the win
    probabilities against the win shares, in integers; the first such on the grid."""
    trial = Model(MODEL, weights, 0, 0, table)
    strengths = [[trial.strength(seat, s.deck) for seat in s.seats] for s in samples]
    best: tuple[int, int, int] | None = None
    for base in SPREAD_BASES:
        for quarter in SPREAD_PER_CARD:
            model = Model(MODEL, weights, base * SCALE, quarter * SCALE // 4, table)
            brier = 0
            for sample, strength in zip(samples, strengths, strict=True):
                predicted = _win_shares(model, strength, sample.deck)
                for p, won in zip(predicted, sample.wins, strict=True):
                    target = won.numerator * SCALE // won.denominator
                    brier += (p - target) ** 2
            if best is None or brier < best[0]:
                best = (brier, base * SCALE, quarter * SCALE // 4)
    assert best is not None
    return best[1], best[2]


def _win_shares(model: Model, strengths: Sequence[int], deck: int) -> list[int]:
    """`Model.wins` in 1/SCALE integers (the same products, normalised by integer division)."""
    raw = model.pairwise(strengths, deck)
    total = sum(raw) or 1
    return [r * SCALE // total for r in raw]


def fit(samples: Sequence[Sample], trained: dict[str, str]) -> Model:
    """A model fitted on `samples`: the weights, then the spread for them."""
    if not samples:
        raise ValueError("no samples to fit")
    weights = fit_weights(samples)
    table = sigmoid_table()
    base, per_card = fit_spread(samples, weights, table)
    return Model(MODEL, weights, base, per_card, table, tuple(sorted(trained.items())))


def train(
    seed: str,
    games: int,
    *,
    players: int = 2,
    rounds: int = 2,
    search_games: int | None = None,
    budget: Budget | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> Model:
    """Round 0: `games` greedy games; each further round: `search_games` (default games // 4, at least
    1) games of the search bot at `budget` (default i=24/d=2) valued by the last model; a fit after each
    round on every sample so far. `progress(round, game, games)` after each game."""
    if games < 1 or rounds < 1:
        raise ValueError("training needs at least one game and one round")
    budget = budget or Budget(iterations=24, determinisations=2)
    later = search_games if search_games is not None else max(1, games // 4)
    samples: list[Sample] = []
    model: Model | None = None
    for r in range(rounds):
        count = games if r == 0 else later
        for g in range(count):
            game_seed = f"{seed}-r{r}-g{g}"
            bots: list[Bot]
            if model is None:
                bots = [GreedyBot(f"{game_seed}:{i}") for i in range(players)]
            else:
                bots = [
                    SearchBot(f"{game_seed}:{i}", budget, budget.label, model.value, "mcts-learned")
                    for i in range(players)
                ]
            samples.extend(play_samples(players, game_seed, bots))
            if progress is not None:
                progress(r, g + 1, count)
        trained = {
            "seed": seed,
            "players": str(players),
            "games": str(games),
            "rounds": str(r + 1),
            "search_games": str(later),
            "budget": budget.label,
            "samples": str(len(samples)),
        }
        model = fit(samples, trained)
    assert model is not None
    return model
