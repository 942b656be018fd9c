"""Ratings of people (docs/ratings.md, RATE-n): a read model folded from the games' events.

`summarise(game_id, events, holders, deal)` reads one game's stored events into a `GameSummary`: who sat
where (the accounts, through the pseudonyms of `SeatClaimed` that the caller resolved: `holders`), each
seat's character, score, points by source, rank, time spent per move, and whether the game is rated
(RATE-1) or why not. `rate(summaries)` folds the rated games, in the order they ended, through openskill's
Plackett-Luce model, one pool per player count (RATE-3); solo games give personal bests per Tycho level
(RATE-5). Both are pure: the same events give the same ratings, so the read model is rebuilt by running
them again.

`pairwise_elo` is the baseline the model is checked against (tests/projections/test_ratings.py): an
n-player game as every pair of its players (18xx.games' way), Elo with K = 32.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from domain import events as ev
from replays.records import StoredEvent

PROVISIONAL_GAMES = 10  # RATE-4
POOLS = (2, 3, 4)  # RATE-3: one pool per player count
SECRET_DEAL = "secret"  # api.seats.SECRET: the service drew the seed (no chosen seed, no import)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    account_id: str | None  # the account that claimed the seat (None: nobody's)
    character: str
    score: int
    by_source: Mapping[str, int]
    rank: int | None  # RATE-2 (1 = first); None while the game runs
    left: str | None  # "resigned" or "time" when the seat left before the end
    moves: int  # commands the seat's person sent
    seconds: float  # time the seat's person took for them (from the turn's start to each command)


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: str
    players: int  # seats of people (the solo game: 1)
    status: str  # active | finished | cancelled
    ended_at: str | None
    seats: tuple[SeatSummary, ...]
    rated: bool
    why_not: str | None  # RATE-1's reason a game is not rated (None: it is)
    difficulty: str | None = None  # the solo game's Tycho level (SOLO-2)


@dataclass(slots=True)
class Rating:
    account_id: str
    pool: int
    mu: float
    sigma: float
    games: int = 0
    best: float | None = None
    history: list[tuple[str, str, float]] = field(default_factory=list)  # (game, ended at, ordinal)

    @property
    def ordinal(self) -> float:
        """The displayed rating: the conservative estimate mu - 3 sigma (RATE-3)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES  # RATE-4

    @property
    def shown(self) -> str:
        return f"{self.ordinal:.1f}" + ("?" if self.provisional else "")


@dataclass(slots=True)
class Ratings:
    pools: dict[tuple[int, str], Rating] = field(default_factory=dict)  # (pool, account) -> rating
    solo_best: dict[tuple[str, str], int] = field(default_factory=dict)  # (account, level) -> best score

    def of(self, account_id: str) -> list[Rating]:
        return [r for (_, a), r in sorted(self.pools.items()) if a == account_id]

    def pool(self, players: int) -> list[Rating]:
        """The pool's ratings, best first."""
        return sorted((r for (p, _), r in self.pools.items() if p == players), key=lambda r: -r.ordinal)


def _seconds(earlier: str, later: str) -> float:
    return max(0.0, (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds())


def summarise(
    game_id: str, events: Sequence[StoredEvent], holders: Mapping[str, str], deal: str | None
) -> GameSummary:
    """One game read from its events. `holders`: pseudonym -> account ID of the seats' claims (the caller
    checked each against its account's key); `deal`: how the API recorded the game's deal (None: a game
    made elsewhere, an import or a fork)."""
    started = events[0].event
    assert isinstance(started, ev.GameStarted)
    seats = len(started.seats)
    account: list[str | None] = [None] * seats
    scores = [0] * seats
    sources: list[dict[str, int]] = [{} for _ in range(seats)]
    left: list[str | None] = [None] * seats
    moves, seconds = [0] * seats, [0.0] * seats
    why_not: str | None = (
        None if deal == SECRET_DEAL else ("chosen-seed" if deal == "chosen-seed" else "not-made-here")
    )
    status, ended_at, ranks, opponent, difficulty = "active", None, None, None, None
    turn_start = str(events[0].metadata.get("received_at", ""))
    bot_seat = None
    for stored in events:
        event, meta = stored.event, stored.metadata
        at = str(meta.get("received_at", ""))
        if (
            meta.get("kind") == "command"
            and isinstance(meta.get("actor"), int)
            and meta.get("batch") == stored.version
        ):
            seat = int(meta["actor"])
            if seat < seats:
                if meta.get("seat_kind") == "bot":
                    if left[seat] is None:
                        bot_seat = seat
                elif turn_start and at:
                    moves[seat] += 1
                    seconds[seat] += _seconds(turn_start, at)
        if at and meta.get("batch") == stored.version:
            turn_start = at
        if isinstance(event, ev.GameForked):
            why_not = "forked"
        elif event.type == "OpponentDealt":  # the solo game (SOLO-27)
            opponent = int(getattr(event, "seat", seats - 1))
            difficulty = str(getattr(event, "difficulty", "") or "base")
        elif isinstance(event, ev.VictoryPointsScored):
            scores[event.seat] += event.points
            sources[event.seat][event.source] = sources[event.seat].get(event.source, 0) + event.points
        elif isinstance(event, ev.SeatClaimed) and account[event.seat] is None and left[event.seat] is None:
            account[event.seat] = holders.get(event.holder)
        elif isinstance(event, ev.SeatHandedOver):
            if event.reason in ("resigned", "time"):
                left[event.seat] = left[event.seat] or event.reason
            elif event.reason == "host":
                why_not = why_not or "handed-over"
        elif isinstance(event, ev.TimeExpired | ev.SeatResigned):
            left[event.seat] = left[event.seat] or (
                "time" if isinstance(event, ev.TimeExpired) else "resigned"
            )
        elif isinstance(event, ev.GameCancelled):
            status, ended_at = "cancelled", at
        elif isinstance(event, ev.GameEnded):
            status, ended_at = "finished", at
            ranks = _ranks(event.tiebreak, left)
    persons = [s for s in range(seats) if s != opponent]
    people = len(persons)
    if status == "cancelled":
        why_not = "cancelled"
    elif status != "finished":
        why_not = "not-finished"
    elif why_not is None and bot_seat is not None:
        why_not = "bot-played"
    elif why_not is None and any(account[s] is None for s in persons):
        why_not = "unclaimed-seat"
    elif why_not is None and len({account[s] for s in persons}) < people:
        why_not = "same-account-twice"
    seat_summaries = tuple(
        SeatSummary(
            s,
            account[s],
            started.seats[s][1],
            scores[s],
            dict(sources[s]),
            None if ranks is None else ranks[s],
            left[s],
            moves[s],
            seconds[s],
        )
        for s in persons
    )
    return GameSummary(
        game_id, people, status, ended_at, seat_summaries, why_not is None, why_not, difficulty
    )


def _ranks(tiebreak: Sequence[Sequence[int]], left: Sequence[str | None]) -> list[int]:
    """RATE-2: competition ranks by the TIE-1 order; seats that left share the last rank."""
    stayed = [s for s in range(len(left)) if left[s] is None]
    order = sorted(stayed, key=lambda s: tuple(-v for v in tiebreak[s]))
    ranks = [0] * len(left)
    for place, s in enumerate(order):
        same = place > 0 and tuple(tiebreak[s]) == tuple(tiebreak[order[place - 1]])
        ranks[s] = ranks[order[place - 1]] if same else place + 1
    for s in range(len(left)):
        if left[s] is not None:
            ranks[s] = len(stayed) + 1
    return ranks


def rate(summaries: Iterable[GameSummary], model: PlackettLuce | None = None) -> Ratings:
    """Fold the rated games in the order they ended (then by ID: the same order on every rebuild)."""
    model = model or PlackettLuce()
    out = Ratings()
    rated = sorted((g for g in summaries if g.rated), key=lambda g: (g.ended_at or "", g.game_id))
    for game in rated:
        if game.players == 1:
            seat = game.seats[0]
            assert seat.account_id is not None
            key = (seat.account_id, game.difficulty or "base")
            out.solo_best[key] = max(out.solo_best.get(key, seat.score), seat.score)
            continue
        accounts = [s.account_id for s in game.seats]
        current = []
        for a in accounts:
            assert a is not None
            r = out.pools.get((game.players, a))
            if r is None:
                fresh = model.rating()
                r = out.pools[(game.players, a)] = Rating(a, game.players, fresh.mu, fresh.sigma)
            current.append(r)
        teams = [[model.create_rating([r.mu, r.sigma])] for r in current]
        updated = model.rate(teams, ranks=[float(s.rank or len(accounts)) for s in game.seats])
        for r, (new,) in zip(current, updated, strict=True):
            r.mu, r.sigma, r.games = new.mu, new.sigma, r.games + 1
            r.best = r.ordinal if r.best is None else max(r.best, r.ordinal)
            r.history.append((game.game_id, game.ended_at or "", r.ordinal))
    return out


def pairwise_elo(games: Iterable[Sequence[tuple[str, int]]], k: float = 32.0) -> dict[str, float]:
    """The baseline: each game as every pair of its players, an Elo update per pair (1500 to start).
    `games`: (player, rank) per seat, in the order played."""
    elo: dict[str, float] = {}
    for game in games:
        before = {p: elo.get(p, 1500.0) for p, _ in game}
        delta = dict.fromkeys(before, 0.0)
        for (a, ra), (b, rb) in itertools.combinations(game, 2):
            expected = 1 / (1 + 10 ** ((before[b] - before[a]) / 400))
            actual = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
            delta[a] += k * (actual - expected)
            delta[b] -= k * (actual - expected)
        for p in before:
            elo[p] = before[p] + delta[p]
    return elo


def order_accuracy(
    strength: Mapping[str, float], games: Iterable[Sequence[tuple[str, int]]]
) -> dict[str, float]:
    """How well `strength` predicts the rank order of `games`: the share of pairs of players with
    different ranks that it orders right (a tie of strengths counts half), and the share of games whose
    whole order it predicts."""
    pairs = right = whole = count = 0.0
    for game in games:
        count += 1
        exact = True
        for (a, ra), (b, rb) in itertools.combinations(game, 2):
            if ra == rb:
                continue
            pairs += 1
            sa, sb = strength.get(a, 0.0), strength.get(b, 0.0)
            if sa == sb:
                right += 0.5
                exact = False
            elif (sa > sb) == (ra < rb):
                right += 1
            else:
                exact = False
        whole += exact
    return {"pairs": right / pairs if pairs else 0.0, "whole": whole / count if count else 0.0}


def summary_json(game: GameSummary) -> dict[str, Any]:
    return {
        "game_id": game.game_id,
        "players": game.players,
        "status": game.status,
        "ended_at": game.ended_at,
        "rated": game.rated,
        "why_not": game.why_not,
        "difficulty": game.difficulty,
    }
