"""`galileo tournament`: seat-rotated bot matches, win rates with confidence intervals, a rating table.

A lineup is one bot kind per seat (domain/bots.py `make_bot`: greedy, random, mcts[:level]); with fewer
kinds than seats the first kind fills the rest, so `--bots greedy,mcts --players 4` is the search bot
against three greedy bots. Every deal is played `players` times, the lineup rotated one seat each time
(game i plays deal i // players with the lineup turned by i % players), so each kind sits at every
seat on the same cards and the first player's advantage (SET-12) cancels out.

Per kind: its seat-games, its win rate (a win shared by TIE-1 co-winners counts as a share) with a
Wilson score interval, how often it was the top scorer, its mean score margin (score minus the best
other seat's), and a Bradley-Terry rating on the Elo scale from every pair of seats of different kinds
in a game (the higher score beats the lower, equal scores draw). Games are independent, so they run in
`jobs` processes; the results do not depend on `jobs`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from domain.bots import Bot, bot_kind_error, make_bot
from domain.commands import Command
from domain.options import Options
from domain.selfplay import default_setup, play_game
from domain.state import GameState

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
ELO_ANCHOR = 1500.0  # the first kind's rating
PRIOR = 1.0  # Bradley-Terry: one virtual win and one virtual loss between each pair of kinds (no infinities)


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    seed: str  # the deal's seed
    lineup: tuple[str, ...]  # the bot kind at each seat
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: tuple[int, ...]  # per seat
    seconds: tuple[float, ...]  # per seat: the time its bot took to choose

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.index,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "decisions": list(self.decisions),
            "seconds": [round(x, 3) for x in self.seconds],
        }


@dataclass(frozen=True, slots=True)
class KindResult:
    kind: str
    seat_games: int
    wins: float  # shares of wins (co-winners split one win)
    win_rate: float
    low: float  # Wilson 95% interval of the win rate
    high: float
    top: int  # games in which it was alone the top scorer (or a co-winner by TIE-1)
    mean_margin: float
    mean_score: float
    rating: float  # Bradley-Terry on the Elo scale, the first kind at ELO_ANCHOR
    seconds_per_decision: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat_games": self.seat_games,
            "wins": round(self.wins, 3),
            "win_rate": round(self.win_rate, 4),
            "interval95": [round(self.low, 4), round(self.high, 4)],
            "top": self.top,
            "mean_margin": round(self.mean_margin, 2),
            "mean_score": round(self.mean_score, 2),
            "rating": round(self.rating, 1),
            "ms_per_decision": round(1000 * self.seconds_per_decision, 2),
        }


def lineup_of(kinds: Sequence[str], players: int) -> tuple[str, ...]:
    """One kind per seat: the kinds given, the first one filling the seats left."""
    if not kinds:
        raise ValueError("a tournament needs at least one bot")
    if len(kinds) > players:
        raise ValueError(f"{len(kinds)} bots for {players} seats: give at most one bot per seat")
    for kind in kinds:
        error = bot_kind_error(kind)
        if error:
            raise ValueError(error)
    return (*kinds, *(kinds[0],) * (players - len(kinds)))


def schedule(
    kinds: Sequence[str], players: int, games: int, seed: str
) -> list[tuple[int, str, tuple[str, ...]]]:
    """(game, deal seed, lineup by seat) for each game: deal i // players, rotated by i % players."""
    lineup = lineup_of(kinds, players)
    out = []
    for i in range(games):
        turn = i % players
        out.append((i, f"{seed}-{i // players}", lineup[-turn:] + lineup[:-turn] if turn else lineup))
    return out


class _Timed:
    """A bot that counts its decisions and the time it takes (the tournament's cost per kind)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, state: GameState, moves: Sequence[Command]) -> Command:
        began = time.perf_counter()
        move = self.bot.choose(state, moves)
        self.seconds += time.perf_counter() - began
        self.decisions += 1
        return move


def play_one(task: tuple[int, str, tuple[str, ...], str | None, bool]) -> GameResult:
    """Play one scheduled game (a top-level function: it runs in worker processes)."""
    index, deal, lineup, side, luna = task
    setup = default_setup(len(lineup), deal, Options.from_json({"luna": luna}), side)
    bots = [_Timed(make_bot(kind, f"{deal}:{seat}:{kind}")) for seat, kind in enumerate(lineup)]
    state = play_game(setup, bots).state
    return GameResult(
        index,
        deal,
        lineup,
        tuple(p.score for p in state.players),
        state.winners,
        tuple(b.decisions for b in bots),
        tuple(b.seconds for b in bots),
    )


def play_games(
    kinds: Sequence[str],
    players: int,
    games: int,
    seed: str,
    *,
    jobs: int = 1,
    side: str | None = None,
    luna: bool = False,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Every scheduled game's result, in game order (`jobs` processes; 1: in this process)."""
    tasks = [(i, deal, lineup, side, luna) for i, deal, lineup in schedule(kinds, players, games, seed)]
    results: list[GameResult] = []
    if jobs <= 1:
        for task in tasks:
            results.append(play_one(task))
            if on_game is not None:
                on_game(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(play_one, tasks):
            results.append(result)
            if on_game is not None:
                on_game(result)
    return sorted(results, key=lambda r: r.index)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (Wilson 1927): good near 0 and 1 and for small n."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(
    kinds: Sequence[str], wins: dict[tuple[str, str], float], rounds: int = 500
) -> dict[str, float]:
    """Bradley-Terry strengths by Hunter's MM algorithm, with PRIOR virtual results between each pair,
    on the Elo scale (400 log10 of the strength ratio), the first kind at ELO_ANCHOR."""
    strength = dict.fromkeys(kinds, 1.0)
    pairs = [(a, b) for a in kinds for b in kinds if a != b]
    won = {a: sum(wins.get((a, b), 0.0) + PRIOR for b in kinds if b != a) for a in kinds}
    for _ in range(rounds):
        new = {}
        for a in kinds:
            denominator = sum(
                (wins.get((a, b), 0.0) + wins.get((b, a), 0.0) + 2 * PRIOR) / (strength[a] + strength[b])
                for a2, b in pairs
                if a2 == a
            )
            new[a] = won[a] / denominator if denominator else strength[a]
        strength = new
    base = strength[kinds[0]]
    return {k: ELO_ANCHOR + 400 * math.log10(strength[k] / base) for k in kinds}


def standings(results: Sequence[GameResult]) -> list[KindResult]:
    """Each kind's figures over the results, in the order the kinds first appear in a lineup."""
    kinds: list[str] = []
    for r in results:
        for k in r.lineup:
            if k not in kinds:
                kinds.append(k)
    seat_games = dict.fromkeys(kinds, 0)
    wins = dict.fromkeys(kinds, 0.0)
    top = dict.fromkeys(kinds, 0)
    margins = dict.fromkeys(kinds, 0.0)
    scores = dict.fromkeys(kinds, 0.0)
    seconds = dict.fromkeys(kinds, 0.0)
    decisions = dict.fromkeys(kinds, 0)
    pairwise: dict[tuple[str, str], float] = {}
    for r in results:
        for seat, kind in enumerate(r.lineup):
            seat_games[kind] += 1
            scores[kind] += r.scores[seat]
            others = [s for i, s in enumerate(r.scores) if i != seat]
            margins[kind] += r.scores[seat] - max(others) if others else 0
            if seat in r.winners:
                wins[kind] += 1 / len(r.winners)
                top[kind] += 1
            for other, against in enumerate(r.lineup):
                if against != kind and other != seat:
                    a, b = r.scores[seat], r.scores[other]
                    pairwise[(kind, against)] = pairwise.get((kind, against), 0.0) + (
                        1.0 if a > b else 0.5 if a == b else 0.0
                    )
            seconds[kind] += r.seconds[seat]
            decisions[kind] += r.decisions[seat]
    ratings = bradley_terry(kinds, pairwise)
    out = []
    for kind in kinds:
        n = seat_games[kind]
        low, high = wilson(wins[kind], n)
        out.append(
            KindResult(
                kind=kind,
                seat_games=n,
                wins=wins[kind],
                win_rate=wins[kind] / n if n else 0.0,
                low=low,
                high=high,
                top=top[kind],
                mean_margin=margins[kind] / n if n else 0.0,
                mean_score=scores[kind] / n if n else 0.0,
                rating=ratings[kind],
                seconds_per_decision=seconds[kind] / decisions[kind] if decisions[kind] else 0.0,
            )
        )
    return out


def report(
    kinds: Sequence[str], players: int, games: int, seed: str, results: Sequence[GameResult], seconds: float
) -> dict[str, Any]:
    """The tournament as a JSON document (`galileo tournament --json`)."""
    return {
        "bots": list(kinds),
        "players": players,
        "games": games,
        "seed": seed,
        "lineup": list(lineup_of(kinds, players)),
        "standings": [k.as_dict() for k in standings(results)],
        "results": [r.as_dict() for r in results],
        "seconds": round(seconds, 2),
    }
