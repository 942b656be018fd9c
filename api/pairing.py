"""Pairing and standings of tournaments (docs/tournaments.md, TOUR-2, TOUR-3, TOUR-5): pure functions.

Players are account IDs; `met` counts how often each pair has sat at one table; `positions` how often
each player has sat at each seat. A round is a list of tables (each a list of players in seat order) and
the players with a bye.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

EXHAUSTIVE = 12  # up to this many players a round's seating is searched exhaustively


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Round:
    tables: list[list[str]]
    byes: list[str] = field(default_factory=list)


def byes_of(order: Sequence[str], seats: int, had_bye: set[str]) -> list[str]:
    """TOUR-2: the players who sit out this round (n mod seats of them): the lowest in `order` who have
    not had a bye yet (then the lowest)."""
    count = len(order) % seats
    if count == 0:
        return []
    fresh = [p for p in reversed(order) if p not in had_bye]
    chosen = (fresh + [p for p in reversed(order) if p in had_bye])[:count]
    return chosen


def _repeats(table: Sequence[str], met: Mapping[tuple[str, str], int]) -> tuple[int, int]:
    """(pairs at the table that have met before, and their meetings so far): fewest first."""
    counts = [met.get(pair(a, b), 0) for a, b in itertools.combinations(table, 2)]
    return sum(1 for c in counts if c), sum(counts)


def _both(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return x[0] + y[0], x[1] + y[1]


def _spread(table: Sequence[str], rank: Mapping[str, int]) -> int:
    places = [rank[p] for p in table]
    return max(places) - min(places)


def group(order: Sequence[str], seats: int, met: Mapping[tuple[str, str], int]) -> list[list[str]]:
    """TOUR-3: tables of `seats` players from `order` (a multiple of `seats`, best first) with the fewest
    pairs that meet again, then the fewest meetings of those pairs so far, then players of nearest
    standing together (the Swiss idea)."""
    rank = {p: i for i, p in enumerate(order)}
    if len(order) <= EXHAUSTIVE:
        best: tuple[tuple[int, int, int], list[list[str]]] | None = None

        def search(rest: list[str], tables: list[list[str]], cost: tuple[int, int, int]) -> None:
            nonlocal best
            if best is not None and cost >= best[0]:
                return
            if not rest:
                best = (cost, [list(t) for t in tables])
                return
            head, others = rest[0], rest[1:]
            for mates in itertools.combinations(others, seats - 1):
                table = [head, *mates]
                again, meetings = _repeats(table, met)
                added = (cost[0] + again, cost[1] + meetings, cost[2] + _spread(table, rank))
                left = [p for p in others if p not in mates]
                search(left, [*tables, table], added)

        search(list(order), [], (0, 0, 0))
        assert best is not None
        return best[1]
    tables = [list(order[i : i + seats]) for i in range(0, len(order), seats)]
    improved = True
    while improved:  # swap players between tables while that removes repeated pairs
        improved = False
        for t1, t2 in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(seats), range(seats)):
                a, b = tables[t1], tables[t2]
                before = _both(_repeats(a, met), _repeats(b, met))
                a2, b2 = [*a[:i], b[j], *a[i + 1 :]], [*b[:j], a[i], *b[j + 1 :]]
                if _both(_repeats(a2, met), _repeats(b2, met)) < before:
                    tables[t1], tables[t2], improved = a2, b2, True
    return tables


def seat_order(table: Sequence[str], positions: Mapping[str, Sequence[int]]) -> list[str]:
    """TOUR-3: the table's seat order that best balances how often each has sat at each seat (the fewest
    repeats of a position already held; ties keep the table's order)."""
    best: tuple[int, list[str]] | None = None
    for perm in itertools.permutations(table):
        cost = sum(
            (positions.get(p, ())[i] if i < len(positions.get(p, ())) else 0) ** 2 for i, p in enumerate(perm)
        )
        if best is None or cost < best[0]:
            best = (cost, list(perm))
    assert best is not None
    return best[1]


def swiss_round(
    order: Sequence[str],
    seats: int,
    met: Mapping[tuple[str, str], int],
    positions: Mapping[str, Sequence[int]],
    had_bye: set[str],
) -> Round:
    byes = byes_of(order, seats, had_bye)
    playing = [p for p in order if p not in byes]
    return Round([seat_order(t, positions) for t in group(playing, seats, met)], byes)


def round_robin(players: Sequence[str], seats: int) -> list[Round]:
    """TOUR-3: the whole schedule, fixed at the start, until every pair has met: the circle method for
    two seats (n - 1 rounds, a bye for the odd one out), else rounds of the fewest repeated pairs until
    no pair is left unmet."""
    positions: dict[str, list[int]] = {p: [0] * seats for p in players}
    rounds: list[Round] = []

    def seat(tables: list[list[str]], byes: list[str]) -> Round:
        placed = [seat_order(t, positions) for t in tables]
        for table in placed:
            for i, p in enumerate(table):
                positions[p][i] += 1
        return Round(placed, byes)

    if seats == 2:
        ring: list[str | None] = [*players, None] if len(players) % 2 else list(players)
        n = len(ring)
        for _ in range(n - 1):
            tables = [[ring[i], ring[n - 1 - i]] for i in range(n // 2)]
            full = [[p for p in t if p is not None] for t in tables if None not in t]
            byes = [p for t in tables if None in t for p in t if p is not None]
            rounds.append(seat(full, byes))
            ring = [ring[0], ring[-1], *ring[1:-1]]
        return rounds
    met: dict[tuple[str, str], int] = {}
    had_bye: set[str] = set()
    every = [pair(a, b) for a, b in itertools.combinations(players, 2)]
    order = list(players)
    while any(met.get(p, 0) == 0 for p in every) and len(rounds) < 2 * len(players):
        byes = byes_of(order, seats, had_bye)
        playing = [p for p in order if p not in byes]
        played = seat(group(playing, seats, met), byes)
        for table in played.tables:
            for a, b in itertools.combinations(table, 2):
                met[pair(a, b)] = met.get(pair(a, b), 0) + 1
        had_bye |= set(byes)
        rounds.append(played)
        order = order[1:] + order[:1]
    return rounds


@dataclass(frozen=True, slots=True)
class Result:
    """One player's finish at one table: `rank` (1 first, RATE-2) of `seats`, or `left` (0 points)."""

    player: str
    table: tuple[str, ...]
    rank: int | None
    left: bool
    score: int


def points(result: Result, ranks: Sequence[int | None]) -> float:
    """TOUR-5: n - r at a table of n, ties sharing their places' average; leaving (resign, time) 0."""
    if result.left or result.rank is None:
        return 0.0
    n = len(result.table)
    tied = sum(1 for r in ranks if r == result.rank)
    places = range(result.rank, result.rank + tied)
    return sum(n - r for r in places) / tied


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    points: float
    buchholz: float
    score: int
    wins: int
    games: int
    byes: int


def standings(
    entrants: Sequence[str], games: Sequence[Sequence[Result]], byes: Mapping[str, int], seats: int
) -> list[Standing]:
    """TOUR-5: by points, then Buchholz (the opponents' points, each meeting counted), then the total
    score, then wins, then the order of entry (`entrants`)."""
    pts = {p: byes.get(p, 0) * (seats - 1) / 2 for p in entrants}
    score = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    for table in games:
        ranks = [r.rank if not r.left else None for r in table]
        for r in table:
            pts[r.player] = pts.get(r.player, 0.0) + points(r, ranks)
            score[r.player] = score.get(r.player, 0) + r.score
            wins[r.player] = wins.get(r.player, 0) + (r.rank == 1 and not r.left)
            played[r.player] = played.get(r.player, 0) + 1
    buchholz = dict.fromkeys(entrants, 0.0)
    for table in games:
        for r in table:
            buchholz[r.player] += sum(pts.get(o, 0.0) for o in r.table if o != r.player)
    entry = {p: i for i, p in enumerate(entrants)}
    rows = [
        Standing(
            p,
            pts.get(p, 0.0),
            buchholz.get(p, 0.0),
            score.get(p, 0),
            wins.get(p, 0),
            played.get(p, 0),
            byes.get(p, 0),
        )
        for p in entrants
    ]
    return sorted(rows, key=lambda s: (-s.points, -s.buchholz, -s.score, -s.wins, entry[s.player]))
