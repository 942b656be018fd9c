"""A learned evaluation for the search bot (issue 34; docs/learned-evaluation.md).

A position is valued, for every seat, from what anybody at the table can see: each seat's public
counters (`seat_features`: score, dice, quadrants, University, Books, comets, tokens, upgrades,
reputation, cellar, major objects, library size, telescope) and the cards left in the deck. Nothing
hidden is read (no deck order, no card fronts, no box or reserve), so the features of a determinisation
are those of the true state (tests/domain/test_learned.py).

The model is linear in fixed point: a seat's *strength* is its expected final score, its score (banked)
plus the points it is expected to gain: the dot product of integer weights (units of 1/SCALE point,
every feature's at least 0, domain/training.py) with the integer design row `design(features, deck)` (a
constant, the features but the score, and the cards left). A seat's margin is its strength minus the
best other seat's; its win probability the product of its
pairwise chances against each other seat, a logistic of the strength difference over a spread that
shrinks as the deck runs out, read from the integer table shipped in the model file, normalised. Every
step is integer arithmetic; the only floats are the final divisions of two integers (correctly rounded
by IEEE 754), so the values are the same on every machine.

The shipped model is `domain/catalog/models/<MODEL>.json`, read when first asked (`shipped()`), never at
import. `galileo train` (domain/training.py) makes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from domain.catalog.loader import CatalogError, load_model_file
from domain.rng import digest
from domain.search import Value, value_of
from domain.state import GameState, PlayerState

MODEL = "value-v1"  # the shipped model file's name (and its format's version)
FORMAT = 1
SCALE = 1 << 16  # fixed point: weights, strengths, spreads and table entries in units of 1/SCALE
STEPS = 16  # table entries per unit of log-odds
SPAN = 8  # the table covers log-odds -SPAN..SPAN
QUADRANTS_WORTH_KEEPING = 30  # as the greedy evaluation (domain/bots.py): more quadrants count no more

FEATURES = (
    "score",
    "pips",
    "dice",
    "quadrants",
    "university",
    "books",
    "comets_off",
    "tokens_used",
    "upgraded",
    "reputation",
    "cellar_risk",
    "major_objects",
    "library",
    "telescope",
)
# The design row: a constant, the features and the cards left. (Features times the cards left were tried
# and dropped: a seat ahead in resources then valued a long game and the learned bots stopped taking
# cards, a game that never ended.)
# The score is banked (its points are final): a seat's strength is its score plus the points it is
# expected to gain from the rest of the design row (every feature but the score).
COLUMNS = ("bias", *FEATURES[1:], "deck")


def seat_features(p: PlayerState, state: GameState) -> tuple[int, ...]:
    """Seat `p`'s public counters, in FEATURES order (integers)."""
    cellar_risk = 0
    for value, n in zip(state.catalog.cellar_bottom, p.cellar, strict=False):  # the printed end values
        cellar_risk += value * n
    pips = 0
    for _, pip in p.dice:
        pips += pip
    return (
        p.score,
        pips,
        len(p.dice),
        min(p.quadrants, QUADRANTS_WORTH_KEEPING),
        sum(p.university),
        sum(p.books),
        p.comets_off,
        p.tokens_used,
        len(p.upgraded),
        p.reputation,
        cellar_risk,
        p.major_objects,
        len(p.library),
        p.telescope,
    )


def features(state: GameState) -> tuple[tuple[int, ...], ...]:
    """Every seat's features, by seat."""
    return tuple(seat_features(p, state) for p in state.players)


def design(seat: Sequence[int], deck: int) -> tuple[int, ...]:
    """The model's input row for one seat's features and the cards left in the deck (COLUMNS)."""
    return (1, *seat[1:], deck)


def _round_div(a: int, b: int) -> int:
    """a / b rounded to the nearest integer, halves up (b > 0)."""
    return (2 * a + b) // (2 * b)


@dataclass(frozen=True, slots=True)
class Model:
    """A fitted value model: integer weights per COLUMNS entry, the spread `base + per_card * deck`
    (points, fixed point), the logistic table (2 * SPAN * STEPS + 1 entries, fixed point) and how it was
    made (`trained`: seed, games, rounds...)."""

    name: str
    weights: tuple[int, ...]
    spread_base: int
    spread_per_card: int
    sigmoid: tuple[int, ...]
    trained: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if len(self.weights) != len(COLUMNS):
            raise ValueError(f"a model has {len(COLUMNS)} weights, not {len(self.weights)}")
        if len(self.sigmoid) != 2 * SPAN * STEPS + 1:
            raise ValueError(f"a model's logistic table has {2 * SPAN * STEPS + 1} entries")

    @property
    def version(self) -> str:
        """The name and a digest of the content: part of an analysis' cache key."""
        content = (self.weights, self.spread_base, self.spread_per_card, self.sigmoid)
        return f"{self.name}.{digest(repr(content))[:12]}"

    def strength(self, seat: Sequence[int], deck: int) -> int:
        """The seat's expected final score, in 1/SCALE points: its score and the gain predicted."""
        total = seat[0] * SCALE * SCALE
        for w, x in zip(self.weights, design(seat, deck), strict=True):
            total += w * x
        return total // SCALE

    def spread(self, deck: int) -> int:
        """Points of strength worth one unit of log-odds, in 1/SCALE points (at least one point)."""
        return max(SCALE, self.spread_base + self.spread_per_card * deck)

    def chance(self, difference: int, spread: int) -> int:
        """The logistic of difference / spread from the table, in 1/SCALE."""
        index = _round_div(difference * STEPS, spread)
        index = max(-SPAN * STEPS, min(SPAN * STEPS, index))
        return self.sigmoid[index + SPAN * STEPS]

    def pairwise(self, strengths: Sequence[int], deck: int) -> list[int]:
        """Each seat's pairwise chances against every other seat multiplied, in 1/SCALE integers
        (not normalised)."""
        spread = self.spread(deck)
        raw = []
        for i, s in enumerate(strengths):
            r = SCALE
            for j, o in enumerate(strengths):
                if j != i:
                    r = r * self.chance(s - o, spread) // SCALE
            raw.append(r)
        return raw

    def wins(self, strengths: Sequence[int], deck: int) -> tuple[float, ...]:
        """Each seat's chance to finish first: its pairwise chances multiplied, normalised."""
        if len(strengths) == 1:
            return (1.0,)
        raw = self.pairwise(strengths, deck)
        total = sum(raw)
        if total <= 0:
            return tuple(1.0 / len(raw) for _ in raw)
        return tuple(r / total for r in raw)

    def value(self, state: GameState) -> Value:
        """Every seat's margin (points) and win probability; a finished game by its result."""
        if state.finished:
            return value_of(state)
        deck = len(state.deck)
        strengths = [self.strength(f, deck) for f in features(state)]
        wins = self.wins(strengths, deck)
        if len(strengths) == 1:
            return Value((strengths[0] / SCALE,), wins)
        return Value(_margins(strengths), wins)

    def as_dict(self) -> dict[str, Any]:
        """The model file's document (docs/learned-evaluation.md, "The model file")."""
        return {
            "format": FORMAT,
            "name": self.name,
            "scale": SCALE,
            "columns": list(COLUMNS),
            "weights": list(self.weights),
            "spread": {"base": self.spread_base, "per_card": self.spread_per_card},
            "sigmoid": {"steps": STEPS, "span": SPAN, "table": list(self.sigmoid)},
            "trained": dict(self.trained),
        }

    def to_text(self) -> str:
        """The model file's bytes (as text): its document as sorted, indented JSON."""
        return json.dumps(self.as_dict(), indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_dict(cls, data: object) -> Model:
        """A model from its file's document; ValueError when it is not one this build reads."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a value model of format {FORMAT}")
        if data.get("scale") != SCALE or data.get("columns") != list(COLUMNS):
            raise ValueError("a value model of another scale or other columns")
        table = data["sigmoid"]
        if table.get("steps") != STEPS or table.get("span") != SPAN:
            raise ValueError("a value model with another logistic table")
        trained = data.get("trained", {})
        return cls(
            name=str(data["name"]),
            weights=tuple(int(w) for w in data["weights"]),
            spread_base=int(data["spread"]["base"]),
            spread_per_card=int(data["spread"]["per_card"]),
            sigmoid=tuple(int(x) for x in table["table"]),
            trained=tuple((str(k), str(v)) for k, v in sorted(trained.items())),
        )


def _margins(strengths: Sequence[int]) -> tuple[float, ...]:
    """Each seat's strength minus the best other seat's, in points."""
    out = []
    for i, s in enumerate(strengths):
        best = max(o for j, o in enumerate(strengths) if j != i)
        out.append((s - best) / SCALE)
    return tuple(out)


@cache
def shipped() -> Model:
    """The model shipped with this build (MODEL), read on first use."""
    try:
        return Model.from_dict(load_model_file(MODEL))
    except (KeyError, TypeError, ValueError) as error:
        raise CatalogError(f"models/{MODEL}.json: {error}") from None


def learned_value(state: GameState) -> Value:
    """The leaf evaluation of the `mcts-learned` bot: the shipped model's value of `state`."""
    return shipped().value(state)
