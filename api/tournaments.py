"""Async tournaments (docs/tournaments.md, TOUR-n): entry by account, rounds of clocked games, standings.

A tournament is a record beside the games (`galileo_tournaments`, its entries, its tables and byes, in
the store's own database); each of its games is an ordinary game of the store, created with the
tournament's clock, a forfeit on timeout and on resignation, and every seat claimed by its entrant's
account (`SeatClaimed`, ACCT-1), so the games show under My games and count for ratings. Results are read
from the games' events (api/community.py), never stored twice. `advance` starts the next round once
every game of the current one has ended (the clocks process checks every few seconds; any read checks
too), one process at a time (a lease row), the round number moving on once.

Everything here is blocking: callers run it in a worker thread and then `after_create` the new games.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import orjson

from api import pairing
from api.accounts import Account
from api.db import create
from api.schemas import CreateGame
from api.seats import SECRET
from api.tables import stamp
from replays.claims import claim_batch
from replays.clock import ClockConfig
from replays.errors import TableRefused
from replays.table import resign_batch

if TYPE_CHECKING:
    from api.runtime import Runtime

FORMATS = ("swiss", "round-robin")
MAX_ROUNDS = 20
LEASE_SECONDS = 120  # a process advancing a tournament holds it this long at most (it may have died)

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS galileo_tournaments (
    tournament_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    host_account TEXT NOT NULL,
    format TEXT NOT NULL,
    seats INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    clock TEXT NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL,
    schedule TEXT,
    created_at TEXT NOT NULL
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_tournament_entries (
    tournament_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    position INTEGER NOT NULL,
    withdrawn_round INTEGER,
    PRIMARY KEY (tournament_id, account_id)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_tournament_tables (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    players TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_tournament_leases (
    tournament_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until TEXT NOT NULL
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_tournament_plans (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    tables TEXT NOT NULL,
    byes TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_tournament_byes (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, account_id)
)
""",
)


class TournamentRefused(Exception):
    """A tournament request the rules refuse (TOUR-n): nothing changed."""

    def __init__(self, status: int, code: str, message: str, rule: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.rule, self.extra = status, code, message, rule, extra


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    name: str
    host_account: str
    format: str
    seats: int
    rounds: int
    clock: dict[str, Any]
    status: str  # entry | running | finished
    round: int
    schedule: list[pairing.Round] | None
    created_at: str


@dataclass(frozen=True, slots=True)
class Table:
    round: int
    table_no: int
    game_id: str
    players: list[str]


def _tournament(row: Sequence[Any]) -> Tournament:
    schedule = None
    if row[9]:
        schedule = [pairing.Round(r["tables"], r["byes"]) for r in orjson.loads(row[9])]
    return Tournament(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        int(row[4]),
        int(row[5]),
        orjson.loads(row[6]),
        str(row[7]),
        int(row[8]),
        schedule,
        str(row[10]),
    )


def _name(account: Account | None) -> str:
    return account.name[:40] if account is not None else "Player"


def check_clock(clock: dict[str, Any]) -> dict[str, Any]:
    """TOUR-1, TOUR-4: a clock is required; a timeout forfeits the seat."""
    try:
        return ClockConfig.from_json({**clock, "on_timeout": "forfeit"}).to_json()
    except ValueError as error:
        raise TournamentRefused(422, "invalid-clock", str(error), "TOUR-1") from None


class Tournaments:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.db = runtime.accounts.db
        create(self.db, _SCHEMA)

    # -- records ---------------------------------------------------------------------------------------

    def get(self, tournament_id: str) -> Tournament:
        rows = self.db.query(
            "SELECT tournament_id, name, host_account, format, seats, rounds, clock, status, round, "
            "schedule, "
            "created_at FROM galileo_tournaments WHERE tournament_id = ?",
            (tournament_id,),
        )
        if not rows:
            raise TournamentRefused(404, "tournament-not-found", "no such tournament", "TOUR-1")
        return _tournament(rows[0])

    def listing(self, status: str | None, account_id: str | None, limit: int) -> list[dict[str, Any]]:
        """The newest tournaments (of one status, or all) as a list shows them, with the reader's part."""
        where, params = ("WHERE t.status = ?", [status]) if status else ("", [])
        rows = self.db.query(
            "SELECT t.tournament_id, t.name, t.format, t.seats, t.rounds, t.round, t.status, t.clock, "
            "t.host_account, t.created_at, "
            "(SELECT COUNT(*) FROM galileo_tournament_entries e WHERE e.tournament_id = t.tournament_id) "
            f"FROM galileo_tournaments t {where} ORDER BY t.created_at DESC, t.tournament_id LIMIT ?",
            (*params, limit),
        )
        mine: dict[str, int | None] = {}
        if account_id is not None and rows:
            marks = ", ".join("?" for _ in rows)
            for tid, gone in self.db.query(
                "SELECT tournament_id, withdrawn_round FROM galileo_tournament_entries "
                f"WHERE account_id = ? AND tournament_id IN ({marks})",
                (account_id, *(r[0] for r in rows)),
            ):
                mine[str(tid)] = None if gone is None else int(gone)
        out = []
        for r in rows:
            tid = str(r[0])
            you = None
            if account_id is not None:
                you = {
                    "host": r[8] == account_id,
                    "entered": tid in mine,
                    "withdrawn": mine.get(tid) is not None,
                }
            out.append(
                {
                    "tournament_id": tid,
                    "name": str(r[1]),
                    "format": str(r[2]),
                    "seats": int(r[3]),
                    "rounds": int(r[4]),
                    "round": int(r[5]),
                    "status": str(r[6]),
                    "clock": orjson.loads(r[7]),
                    "created_at": str(r[9]),
                    "entrants": int(r[10]),
                    "link": f"/tournaments/{tid}",
                    "you": you,
                }
            )
        return out

    def running(self) -> list[str]:
        rows = self.db.query("SELECT tournament_id FROM galileo_tournaments WHERE status = 'running'")
        return [str(r[0]) for r in rows]

    def entrants(self, tournament_id: str) -> list[tuple[str, int | None]]:
        """(account, round withdrawn or None) in the order of entry."""
        rows = self.db.query(
            "SELECT account_id, withdrawn_round FROM galileo_tournament_entries WHERE tournament_id = ? "
            "ORDER BY position",
            (tournament_id,),
        )
        return [(str(r[0]), None if r[1] is None else int(r[1])) for r in rows]

    def tables(self, tournament_id: str) -> list[Table]:
        rows = self.db.query(
            "SELECT round, table_no, game_id, players FROM galileo_tournament_tables WHERE tournament_id = ? "
            "ORDER BY round, table_no",
            (tournament_id,),
        )
        return [Table(int(r[0]), int(r[1]), str(r[2]), list(orjson.loads(r[3]))) for r in rows]

    def byes(self, tournament_id: str) -> list[tuple[int, str]]:
        rows = self.db.query(
            "SELECT round, account_id FROM galileo_tournament_byes WHERE tournament_id = ? ORDER BY round",
            (tournament_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    # -- acts ------------------------------------------------------------------------------------------

    def create(
        self, host: Account, name: str, format_: str, seats: int, rounds: int | None, clock: dict[str, Any]
    ) -> Tournament:
        if format_ not in FORMATS:
            raise TournamentRefused(422, "invalid-format", f"format is one of {', '.join(FORMATS)}", "TOUR-1")
        if not 2 <= seats <= 4:
            raise TournamentRefused(422, "invalid-seats", "2 to 4 seats a table", "TOUR-1")
        if format_ == "swiss" and (rounds is None or not 1 <= rounds <= MAX_ROUNDS):
            raise TournamentRefused(
                422, "invalid-rounds", f"a Swiss tournament has 1 to {MAX_ROUNDS} rounds", "TOUR-1"
            )
        checked = check_clock(clock)
        tid = "tour_" + secrets.token_hex(8)
        now = stamp(self.runtime.clock())
        self.db.execute(
            "INSERT INTO galileo_tournaments VALUES (?, ?, ?, ?, ?, ?, ?, 'entry', 0, NULL, ?)",
            (tid, name, host.account_id, format_, seats, rounds or 0, orjson.dumps(checked).decode(), now),
        )
        return self.get(tid)

    def enter(self, tournament_id: str, account: Account) -> None:
        t = self.get(tournament_id)
        if t.status != "entry":
            raise TournamentRefused(
                409, "tournament-started", "entries close when the tournament starts", "TOUR-1"
            )
        if any(a == account.account_id for a, _ in self.entrants(tournament_id)):
            raise TournamentRefused(409, "already-entered", "this account has entered already", "TOUR-1")
        with self.db.transaction() as tx:
            top = tx.execute(
                "SELECT COUNT(*) FROM galileo_tournament_entries WHERE tournament_id = ?", (tournament_id,)
            )
            tx.execute(
                "INSERT INTO galileo_tournament_entries VALUES (?, ?, ?, ?, NULL)",
                (tournament_id, account.account_id, stamp(self.runtime.clock()), int(top[0][0])),
            )

    def start(self, tournament_id: str, account: Account) -> list[str]:
        """TOUR-2: start with enough entrants; the first round's games (their IDs)."""
        t = self.get(tournament_id)
        if account.account_id != t.host_account:
            raise TournamentRefused(403, "not-the-host", "only the tournament's host starts it", "TOUR-1")
        if t.status != "entry":
            raise TournamentRefused(409, "tournament-started", "the tournament has started already", "TOUR-1")
        players = [a for a, _ in self.entrants(tournament_id)]
        needed = 2 * t.seats
        if len(players) < needed:
            raise TournamentRefused(
                422,
                "too-few-entrants",
                f"{len(players)} entrants: a tournament of {t.seats}-seat tables needs at least {needed} "
                "(TOUR-2)",
                "TOUR-2",
                entrants=len(players),
                needed=needed,
            )
        schedule = None
        total = t.rounds
        if t.format == "round-robin":
            schedule = pairing.round_robin(players, t.seats)
            total = len(schedule)
        encoded = (
            None
            if schedule is None
            else orjson.dumps([{"tables": r.tables, "byes": r.byes} for r in schedule]).decode()
        )
        begun = self.db.execute(  # once, if two starts cross
            "UPDATE galileo_tournaments SET status = 'running', rounds = ?, schedule = ? "
            "WHERE tournament_id = ? AND status = 'entry'",
            (total, encoded, tournament_id),
        )
        if begun != 1:
            raise TournamentRefused(409, "tournament-started", "the tournament has started already", "TOUR-1")
        holder = secrets.token_hex(8)
        if not self._lease(tournament_id, holder):
            return []  # another process is advancing it: it pairs the first round
        try:
            return self._next_round(self.get(tournament_id))
        finally:
            self._release(tournament_id, holder)

    def withdraw(self, tournament_id: str, account: Account) -> list[str]:
        """TOUR-6: leave; a game of theirs still running is resigned (forfeit). Returns those games."""
        t = self.get(tournament_id)
        entry = dict(self.entrants(tournament_id))
        if account.account_id not in entry:
            raise TournamentRefused(
                404, "not-entered", "this account has not entered this tournament", "TOUR-6"
            )
        if t.status == "finished":
            raise TournamentRefused(409, "tournament-over", "the tournament has ended", "TOUR-6")
        if entry[account.account_id] is not None:
            raise TournamentRefused(409, "already-withdrawn", "this account has withdrawn already", "TOUR-6")
        if t.status == "entry":
            self.db.execute(
                "DELETE FROM galileo_tournament_entries WHERE tournament_id = ? AND account_id = ?",
                (tournament_id, account.account_id),
            )
            return []
        self.db.execute(
            "UPDATE galileo_tournament_entries SET withdrawn_round = ? "
            "WHERE tournament_id = ? AND account_id = ?",
            (t.round, tournament_id, account.account_id),
        )
        resigned = []
        for table in self.tables(tournament_id):
            if table.round != t.round or account.account_id not in table.players:
                continue
            seat = table.players.index(account.account_id)
            state, _ = self.runtime.store.current(table.game_id)
            if state.finished:
                continue
            build = resign_batch(seat, "forfeit", "")
            try:
                self.runtime.store.table(
                    table.game_id,
                    {"type": "Resign", "seat": seat},
                    build,
                    f"{tournament_id}:withdraw:{seat}",
                    seat,
                )
                resigned.append(table.game_id)
            except TableRefused:  # the seat was handed over already (timed out): it is lost anyway
                continue
        return resigned

    def advance(self, tournament_id: str) -> list[str]:
        """TOUR-4: once every game of the round has ended, the next round (or the end). New games' IDs.

        Any process may call it at any time (the clocks task of `galileo serve` or `galileo clocks run`,
        every read of the tournament): a lease row in the database lets one process at a time look and
        pair; the others return at once and find the new round at their next look."""
        holder = secrets.token_hex(8)
        if not self._lease(tournament_id, holder):
            return []
        try:
            return self._advance(tournament_id)
        finally:
            self._release(tournament_id, holder)

    def _release(self, tournament_id: str, holder: str) -> None:
        self.db.execute(
            "DELETE FROM galileo_tournament_leases WHERE tournament_id = ? AND holder = ?",
            (tournament_id, holder),
        )

    def _lease(self, tournament_id: str, holder: str) -> bool:
        now = self.runtime.clock()
        self.db.execute(
            "DELETE FROM galileo_tournament_leases WHERE tournament_id = ? AND until < ?",
            (tournament_id, stamp(now)),
        )
        until = stamp(now + timedelta(seconds=LEASE_SECONDS))
        taken = self.db.execute(
            "INSERT INTO galileo_tournament_leases VALUES (?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING",
            (tournament_id, holder, until),
        )
        return taken == 1

    def _advance(self, tournament_id: str) -> list[str]:
        t = self.get(tournament_id)
        if t.status != "running":
            return []
        if t.round > 0:
            made = self._complete(t, t.round)  # a process died while it created this round's games
            if made:
                return made
        current = [x for x in self.tables(tournament_id) if x.round == t.round]
        for table in current:
            state, _ = self.runtime.store.current(table.game_id)
            game = self.runtime.store.game(table.game_id)
            if not state.finished and not game.cancelled:
                return []
        if t.round >= t.rounds:
            self.db.execute(
                "UPDATE galileo_tournaments SET status = 'finished' "
                "WHERE tournament_id = ? AND status = 'running'",
                (tournament_id,),
            )
            return []
        return self._next_round(t)

    # -- rounds ----------------------------------------------------------------------------------------

    def _next_round(self, t: Tournament) -> list[str]:
        number = t.round + 1
        active = [a for a, out in self.entrants(t.tournament_id) if out is None]
        if t.schedule is not None:
            planned = t.schedule[number - 1]
            gone = set(a for a, out in self.entrants(t.tournament_id) if out is not None)
            # a withdrawn player's seat is not filled: the table plays with fewer, or is dropped
            tables = [[p for p in table if p not in gone] for table in planned.tables]
            rnd = pairing.Round(
                [tb for tb in tables if len(tb) >= 2], [p for p in planned.byes if p not in gone]
            )
        else:
            order = [s.player for s in self.standings(t) if s.player in active]
            rnd = pairing.swiss_round(
                order, t.seats, self._met(t), self._positions(t), {a for _, a in self.byes(t.tournament_id)}
            )
        # The round's pairing is stored before the round moves on and before any of its games exists: a
        # process that dies midway leaves a plan that the next look completes (`_complete`), never a
        # round short of tables. A plan stored already (by such a process) is the one kept.
        self.db.execute(
            "INSERT INTO galileo_tournament_plans VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (t.tournament_id, number, orjson.dumps(rnd.tables).decode(), orjson.dumps(rnd.byes).decode()),
        )
        moved = self.db.execute(  # the round moves on once: a second caller with a stale view stops here
            "UPDATE galileo_tournaments SET round = ? WHERE tournament_id = ? AND round = ?",
            (number, t.tournament_id, t.round),
        )
        if moved != 1:
            return []
        return self._complete(t, number)

    def _plan(self, tournament_id: str, number: int) -> pairing.Round | None:
        rows = self.db.query(
            "SELECT tables, byes FROM galileo_tournament_plans WHERE tournament_id = ? AND round = ?",
            (tournament_id, number),
        )
        if not rows:
            return None
        return pairing.Round(list(orjson.loads(rows[0][0])), list(orjson.loads(rows[0][1])))

    def _complete(self, t: Tournament, number: int) -> list[str]:
        """Create the games and byes of round `number`'s stored plan that do not exist yet (all of them
        when the round has just been paired); the new games' IDs. Runs under the tournament's lease."""
        plan = self._plan(t.tournament_id, number)
        if plan is None:  # a round paired before plans were stored: its tables are all there
            return []
        made = {x.table_no for x in self.tables(t.tournament_id) if x.round == number}
        created = [
            self._create_game(t, number, i, players) for i, players in enumerate(plan.tables) if i not in made
        ]
        for p in plan.byes:
            self.db.execute(
                "INSERT INTO galileo_tournament_byes VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (t.tournament_id, number, p),
            )
        return created

    def _create_game(self, t: Tournament, number: int, table_no: int, players: list[str]) -> str:
        from api.routers.games import _setup, table_rules  # the same checks and setup as POST /games
        from api.seating import Seating  # it imports the runtime, which holds this store

        names = {a: self.runtime.accounts.account(a) for a in players}
        body = CreateGame.model_validate(
            {
                "seats": [{"name": _name(names[a])} for a in players],
                "clock": {
                    k: v for k, v in t.clock.items() if k in ("per_move", "reserve", "base", "increment")
                }
                | {"on_timeout": "forfeit"},
                "on_resign": "forfeit",
            }
        )
        setup, bots = _setup(body, self.runtime.store.secret)
        record, _host = table_rules(body, self.runtime.settings.takeback_timeout)
        seating = Seating(f"tournament:{t.tournament_id}", "create", SECRET, bots, record)
        game_id, _ = self.runtime.store.create(setup, "api", seating.rows)
        self.db.execute(
            "INSERT INTO galileo_tournament_tables VALUES (?, ?, ?, ?, ?)",
            (t.tournament_id, number, table_no, game_id, orjson.dumps(players).decode()),
        )
        for seat, account_id in enumerate(players):
            account = names[account_id]
            if account is None:
                continue
            holder = account.pseudonym(game_id)
            self.runtime.store.table(
                game_id,
                {"type": "ClaimSeat", "seat": seat},
                claim_batch(seat, holder, True),
                f"{t.tournament_id}:claim:{seat}",
                seat,
            )
            self.runtime.accounts.record_claim(game_id, seat, account_id, self.runtime.clock())
        return game_id

    def _met(self, t: Tournament) -> dict[tuple[str, str], int]:
        met: dict[tuple[str, str], int] = {}
        for table in self.tables(t.tournament_id):
            for a, b in itertools.combinations(table.players, 2):
                key = pairing.pair(a, b)
                met[key] = met.get(key, 0) + 1
        return met

    def _positions(self, t: Tournament) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for table in self.tables(t.tournament_id):
            for i, p in enumerate(table.players):
                out.setdefault(p, [0] * t.seats)[i] += 1
        return out

    def results(self, t: Tournament) -> list[list[pairing.Result]]:
        out = []
        for table in self.tables(t.tournament_id):
            summary = self.runtime.community.summary(table.game_id)
            if summary.status == "active":
                continue
            seats = {s.seat: s for s in summary.seats}
            row = []
            for i, p in enumerate(table.players):
                s = seats.get(i)
                left = summary.status == "cancelled" or s is None or s.left is not None
                row.append(
                    pairing.Result(
                        p,
                        tuple(table.players),
                        None if s is None else s.rank,
                        left,
                        0 if s is None else s.score,
                    )
                )
            out.append(row)
        return out

    def standings(self, t: Tournament) -> list[pairing.Standing]:
        entrants = [a for a, _ in self.entrants(t.tournament_id)]
        byes: dict[str, int] = {}
        for _, a in self.byes(t.tournament_id):
            byes[a] = byes.get(a, 0) + 1
        return pairing.standings(entrants, self.results(t), byes, t.seats)

    def view(self, tournament_id: str) -> dict[str, Any]:
        t = self.get(tournament_id)
        people = {a: self.runtime.accounts.account(a) for a, _ in self.entrants(tournament_id)}

        def name(a: str) -> str:
            acc = people.get(a)
            return acc.name if acc else "deleted account"

        rounds: dict[int, dict[str, Any]] = {}
        for table in self.tables(tournament_id):
            summary = self.runtime.community.summary(table.game_id)
            rounds.setdefault(table.round, {"round": table.round, "tables": [], "byes": []})["tables"].append(
                {
                    "table": table.table_no + 1,
                    "game_id": table.game_id,
                    "status": summary.status,
                    "players": [name(p) for p in table.players],
                    "play_link": f"/play/{table.game_id}",
                    "replay_link": f"/replay/{table.game_id}",
                }
            )
        for r, a in self.byes(tournament_id):
            rounds.setdefault(r, {"round": r, "tables": [], "byes": []})["byes"].append(name(a))
        withdrawn = {a for a, out in self.entrants(tournament_id) if out is not None}
        return {
            "tournament_id": t.tournament_id,
            "name": t.name,
            "format": t.format,
            "seats": t.seats,
            "rounds": t.rounds,
            "round": t.round,
            "status": t.status,
            "clock": t.clock,
            "entrants": [
                {"player": name(a), "withdrawn": a in withdrawn} for a, _ in self.entrants(tournament_id)
            ],
            "schedule": [rounds[k] for k in sorted(rounds)],
            "standings": [
                {
                    "place": i + 1,
                    "player": name(s.player),
                    "points": s.points,
                    "buchholz": s.buchholz,
                    "score": s.score,
                    "wins": s.wins,
                    "games": s.games,
                    "byes": s.byes,
                    "withdrawn": s.player in withdrawn,
                }
                for i, s in enumerate(self.standings(t))
            ],
        }
