"""The community read models (docs/ratings.md): ratings, solo bests and profiles, rebuilt from events.

The games that can involve an account are those with a claim in the accounts' index (`galileo_claims`);
each is read from its events once it has ended (`projections.ratings.summarise`, cached: an ended game
never changes) and on every read while it runs. A claim counts only when the game's own `SeatClaimed`
names the account's pseudonym in that game: the index is a shortcut, the log is the fact. The ratings are
then folded from the summaries (`projections.ratings.rate`): nothing about a rating is stored, so
`rebuild` (or a restart) gives the same numbers.

`galileo_profiles` holds one choice per account: whether its profile is public (the default: private).
Everything here is blocking (store and database reads): callers run it in a worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from api.accounts import pseudonym
from api.db import create
from api.tables import stamp
from projections.ratings import GameSummary, Ratings, rate, summarise
from replays.errors import GameNotFound

if TYPE_CHECKING:
    from api.runtime import Runtime

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS galileo_profiles (
    account_id TEXT PRIMARY KEY,
    public INTEGER NOT NULL,
    updated_at TEXT NOT NULL
)
""",
)


@dataclass(frozen=True, slots=True)
class Person:
    account_id: str
    name: str
    public: bool


class Community:
    """Summaries of the games of accounts, the ratings folded from them, and the profiles' choices."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.db = runtime.accounts.db
        create(self.db, _SCHEMA)
        self._lock = threading.Lock()
        self._ended: dict[str, GameSummary] = {}  # game -> its summary, once the game has ended

    def people(self) -> dict[str, Person]:
        rows = self.db.query(
            "SELECT a.account_id, a.name, COALESCE(p.public, 0) FROM galileo_accounts a "
            "LEFT JOIN galileo_profiles p ON p.account_id = a.account_id"
        )
        return {str(r[0]): Person(str(r[0]), str(r[1]), bool(r[2])) for r in rows}

    def set_public(self, account_id: str, public: bool, now: datetime) -> None:
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_profiles WHERE account_id = ?", (account_id,))
            tx.execute("INSERT INTO galileo_profiles VALUES (?, ?, ?)", (account_id, int(public), stamp(now)))

    def by_name(self, name: str) -> Person | None:
        """The public profile of this name (a public name belongs to one account: `name_taken`)."""
        found = [p for p in self.people().values() if p.name == name and p.public]
        return found[0] if len(found) == 1 else None

    def name_taken(self, account_id: str, name: str) -> bool:
        return any(p.name == name and p.public and p.account_id != account_id for p in self.people().values())

    def _claims(self, account_id: str | None = None) -> dict[str, dict[int, str]]:
        """game -> seat -> account of the claims index (all, or one account's games)."""
        sql = "SELECT game_id, seat, account_id FROM galileo_claims"
        if account_id is not None:
            sql += " WHERE game_id IN (SELECT game_id FROM galileo_claims WHERE account_id = ?)"
        rows = self.db.query(sql, () if account_id is None else (account_id,))
        out: dict[str, dict[int, str]] = {}
        for game_id, seat, account in rows:
            out.setdefault(str(game_id), {})[int(seat)] = str(account)
        return out

    def _keys(self) -> dict[str, str]:
        """Each account's pseudonym key, opened (sealed at rest: api/crypto.py) by the account store."""
        accounts = self.runtime.accounts
        rows = self.db.query(
            "SELECT account_id, name, user_handle, pseudonym_key, created_at FROM galileo_accounts"
        )
        opened = (accounts._account(r) for r in rows)
        return {a.account_id: a.pseudonym_key for a in opened if a is not None}

    def summary(
        self, game_id: str, claims: dict[int, str] | None = None, keys: dict[str, str] | None = None
    ) -> GameSummary:
        """One game's summary (GameNotFound if there is no such game)."""
        with self._lock:
            known = self._ended.get(game_id)
        if known is not None:
            return known
        claims = self._claims().get(game_id, {}) if claims is None else claims
        keys = self._keys() if keys is None else keys
        holders = {pseudonym(keys[a], game_id): a for a in claims.values() if a in keys}
        events = self.runtime.store.events(game_id, 0, None)
        if not events:
            raise GameNotFound(game_id)
        deal = self.runtime.seats.deals([game_id]).get(game_id)
        summary = summarise(game_id, events, holders, deal)
        if summary.status != "active":
            with self._lock:
                self._ended[game_id] = summary
        return summary

    def summaries(self, account_id: str | None = None) -> list[GameSummary]:
        claims = self._claims(account_id)
        keys = self._keys()
        out = []
        for game_id, seats in claims.items():
            try:
                out.append(self.summary(game_id, seats, keys))
            except GameNotFound:
                continue
        return out

    def ratings(self) -> Ratings:
        """Every pool, folded from the ended games now (RATE-3)."""
        return rate(s for s in self.summaries() if s.status == "finished")

    def rebuild(self) -> Ratings:
        """Forget every summary and read the games again: the read model from scratch."""
        with self._lock:
            self._ended.clear()
        return self.ratings()


def seat_of(summary: GameSummary, account_id: str) -> int | None:
    return next((s.seat for s in summary.seats if s.account_id == account_id), None)


def profile(community: Community, person: Person, recent: int = 20) -> dict[str, Any]:
    """GET /players/{name}: games by mode, characters, points by source, time per move, ratings, recent."""
    games = community.summaries(person.account_id)
    mine = [
        (g, next(s for s in g.seats if s.account_id == person.account_id))
        for g in games
        if seat_of(g, person.account_id) is not None
    ]
    modes: dict[str, dict[str, int]] = {}
    characters: dict[str, dict[str, float]] = {}
    sources: dict[str, int] = {}
    moves, seconds = 0, 0.0
    for game, seat in mine:
        mode = modes.setdefault(str(game.players), {"played": 0, "finished": 0, "won": 0})
        mode["played"] += 1
        if game.status == "finished":
            mode["finished"] += 1
            won = seat.rank == 1
            mode["won"] += won
            ch = characters.setdefault(seat.character, {"games": 0, "won": 0})
            ch["games"] += 1
            ch["won"] += won
            for source, points in seat.by_source.items():
                sources[source] = sources.get(source, 0) + points
        moves += seat.moves
        seconds += seat.seconds
    for ch in characters.values():
        ch["win_rate"] = round(ch["won"] / ch["games"], 3) if ch["games"] else 0.0
    ratings = community.ratings()
    pools = [
        {
            "pool": r.pool,
            "rating": round(r.ordinal, 2),
            "shown": r.shown,
            "provisional": r.provisional,
            "best": None if r.best is None else round(r.best, 2),
            "games": r.games,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
        }
        for r in ratings.of(person.account_id)
    ]
    solo = {level: best for (a, level), best in sorted(ratings.solo_best.items()) if a == person.account_id}
    ordered = sorted(mine, key=lambda gs: gs[0].ended_at or "9999", reverse=True)[:recent]
    return {
        "name": person.name,
        "modes": modes,
        "characters": characters,
        "points_by_source": dict(sorted(sources.items())),
        "moves": moves,
        "seconds_per_move": round(seconds / moves, 2) if moves else None,
        "ratings": pools,
        "solo_best": solo,
        "recent": [
            {
                "game_id": g.game_id,
                "players": g.players,
                "status": g.status,
                "ended_at": g.ended_at,
                "seat": s.seat,
                "character": s.character,
                "score": s.score,
                "rank": s.rank,
                "rated": g.rated,
                "replay_link": f"/replay/{g.game_id}",
            }
            for g, s in ordered
        ],
    }


def history_svg(name: str, pool: int, points: Sequence[tuple[str, str, float]]) -> str:
    """The rating's history in a pool as an SVG line (like the score timelines)."""
    width, height, pad = 480, 200, 30
    values = [p[2] for p in points] or [0.0]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(1, len(points) - 1)
    coords = [
        (pad + i * step, height - pad - (v - low) / span * (height - 2 * pad)) for i, v in enumerate(values)
    ]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    title = _escape(f"{name}: {pool}-player rating (mu - 3 sigma) after each rated game")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'viewBox="0 0 {width} {height}"><title>{title}</title>'
        f'<rect width="{width}" height="{height}" fill="#fff"/>'
        f'<text x="{pad}" y="16" font-size="12">{title}</text>'
        f'<text x="2" y="{pad + 4}" font-size="10">{high:.1f}</text>'
        f'<text x="2" y="{height - pad}" font-size="10">{low:.1f}</text>'
        f'<polyline fill="none" stroke="#2a6" stroke-width="2" points="{line}"/>'
        + "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#2a6"/>' for x, y in coords)
        + "</svg>"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def game_rating(community: Community, game_id: str) -> dict[str, Any]:
    """A rated game's ranks and each seat's rating after it; ValueError(reason) when it is not rated."""
    summary = community.summary(game_id)
    if not summary.rated:
        raise ValueError(summary.why_not or "not-rated")
    ratings = community.ratings()
    people = community.people()
    seats = []
    for s in summary.seats:
        assert s.account_id is not None
        r = ratings.pools.get((summary.players, s.account_id))
        after = None
        if r is not None:
            after = next((v for g, _, v in r.history if g == game_id), None)
        person = people.get(s.account_id)
        seats.append(
            {
                "seat": s.seat,
                "rank": s.rank,
                "left": s.left,
                "player": person.name if person and person.public else None,
                "rating_after": None if after is None else round(after, 2),
            }
        )
    return {"game_id": game_id, "pool": summary.players, "seats": seats}
