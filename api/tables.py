"""What the API keeps of a game's table beyond its events, in the store's own database (docs/async.md):
the host record (`galileo_tables`: the host token's hash, the clock, the take-back timeout, the next
deadline for the scheduler), each seat's webhook (`galileo_hooks`) and the notification outbox
(`galileo_outbox`, also the delivery log). Seat rows (`galileo_seats`, api/seats.py) are rewritten here
when a link is re-issued or a seat handed to a new person.

Times are stored as fixed-width UTC text (`stamp`), so they compare as text in both databases. A webhook's
secrets are stored sealed (api/crypto.py), bound to their game and seat: the table never holds one in clear.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from api.crypto import Keyring, load_keyring
from api.db import PostgresDb, SQLiteDb, create, open_db
from api.sealed import SealedColumns

if TYPE_CHECKING:
    from api.settings import Settings

CREATE_TABLES = """
CREATE TABLE IF NOT EXISTS galileo_tables (
    game_id TEXT PRIMARY KEY,
    host_hash TEXT UNIQUE,
    options TEXT NOT NULL,
    takeback_seconds INTEGER NOT NULL,
    deadline TEXT,
    active INTEGER NOT NULL,
    created_at TEXT NOT NULL
)
"""
INSERT_TABLE = "INSERT INTO galileo_tables VALUES (?, ?, ?, ?, NULL, ?, ?)"
# The columns of `TableRecord.row` (the deadline starts NULL: the scheduler sets it).
TABLE_COLUMNS = ("game_id", "host_hash", "options", "takeback_seconds", "active", "created_at")
_CREATE_HOOKS = """
CREATE TABLE IF NOT EXISTS galileo_hooks (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    hook_id TEXT,
    previous_secret TEXT,
    previous_until TEXT,
    PRIMARY KEY (game_id, seat)
)
"""
# Columns added after the first release (`_add_columns` adds them to older tables). A registration's
# `hook_id` binds the outbox rows made for it; `previous_secret` still signs until `previous_until`
# (a secret's rotation).
_HOOK_COLUMNS = ("hook_id", "previous_secret", "previous_until")
_CREATE_OUTBOX = """
CREATE TABLE IF NOT EXISTS galileo_outbox (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_at TEXT NOT NULL,
    locked_until TEXT,
    last_code INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    delivered_at TEXT,
    hook_id TEXT,
    UNIQUE (game_id, seat, kind, version)
)
"""
_OUTBOX_COLUMNS = ("hook_id",)
_INDEX_OUTBOX = "CREATE INDEX IF NOT EXISTS galileo_outbox_due ON galileo_outbox (status, next_at)"
_INDEX_DEADLINE = "CREATE INDEX IF NOT EXISTS galileo_tables_deadline ON galileo_tables (active, deadline)"

PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"
# What the delivery log says of an attempt (`Delivery.result`): the class of the answer's status, or why
# there was none. Never the raw error or code: those would tell a registrant which internal ports answer.
NO_RESPONSE, REFUSED, SUPERSEDED = "no-response", "refused", "superseded"
REJECTED = "rejected"  # a mail the server refused for good: its address bounced (api/tell.py)
RESULTS = ("2xx", "3xx", "4xx", "5xx", NO_RESPONSE, REFUSED, SUPERSEDED, REJECTED)


def status_class(code: int) -> str:
    """The delivery log's class of an HTTP status code: "2xx" ... "5xx" (else "no-response")."""
    return f"{code // 100}xx" if 200 <= code < 600 else NO_RESPONSE


def stamp(moment: datetime) -> str:
    """A time as fixed-width UTC text: compares like the time itself."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def unstamp(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class TableRecord:
    """The host record of a game made through the API (`galileo new` games have none)."""

    game_id: str
    host_hash: str | None
    clock: dict[str, Any] | None  # replays.clock.ClockConfig.to_json()
    takeback_seconds: int
    on_resign: str = "bot"  # what a resigned seat becomes: "bot" or "forfeit"
    resign_bot: str = "greedy"

    def row(self, created_at: str) -> tuple[Any, ...]:
        """The galileo_tables row (for INSERT_TABLE, or TABLE_COLUMNS)."""
        options = {"clock": self.clock, "on_resign": self.on_resign, "resign_bot": self.resign_bot}
        active = int(self.clock is not None)
        return (self.game_id, self.host_hash, json.dumps(options), self.takeback_seconds, active, created_at)


@dataclass(frozen=True, slots=True)
class Hook:
    """A seat's webhook registration. `hook_id` identifies it (None for one registered before ids):
    an outbox row is sent only while the registration it was made for is the seat's."""

    game_id: str
    seat: int
    url: str
    secret: str
    hook_id: str | None = None
    previous_secret: str | None = None  # a rotated-out secret, still signing until `previous_until`
    previous_until: str | None = None

    def secrets(self, now: datetime) -> list[str]:
        """The secrets that sign a delivery at `now`: the current one, then (during a rotation's
        overlap) the previous one."""
        out = [self.secret]
        if self.previous_secret and self.previous_until and stamp(now) < self.previous_until:
            out.append(self.previous_secret)
        return out


@dataclass(frozen=True, slots=True)
class Delivery:
    id: str
    game_id: str
    seat: int
    kind: str
    version: int
    url: str
    body: str
    status: str
    attempts: int
    next_at: str
    last_code: int | None
    last_error: str | None
    created_at: str
    delivered_at: str | None
    hook_id: str | None = None

    @property
    def result(self) -> str | None:
        """The last attempt's class (`RESULTS`), None before the first; rows of older releases, which
        kept the raw error, read as "no-response"."""
        if self.last_error in RESULTS:
            return self.last_error
        if self.last_code is not None:
            return status_class(self.last_code)
        return None if self.attempts == 0 and self.last_error is None else NO_RESPONSE

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "version": self.version,
            "status": self.status,
            "attempts": self.attempts,
            "result": self.result,
            "next_attempt_at": self.next_at if self.status == PENDING else None,
            "created_at": self.created_at,
            "delivered_at": self.delivered_at,
        }


_DELIVERY = (
    "id, game_id, seat, kind, version, url, body, status, attempts, next_at, last_code, last_error, "
    "created_at, delivered_at, hook_id"
)


def _delivery(row: Sequence[Any]) -> Delivery:
    return Delivery(
        id=str(row[0]),
        game_id=str(row[1]),
        seat=int(row[2]),
        kind=str(row[3]),
        version=int(row[4]),
        url=str(row[5]),
        body=str(row[6]),
        status=str(row[7]),
        attempts=int(row[8]),
        next_at=str(row[9]),
        last_code=None if row[10] is None else int(row[10]),
        last_error=row[11],
        created_at=str(row[12]),
        delivered_at=row[13],
        hook_id=row[14],
    )


def _add_columns(db: SQLiteDb | PostgresDb, table: str, columns: Sequence[str]) -> None:
    """Add the TEXT `columns` a table of an older release lacks (all nullable)."""
    if db.postgres:
        with db.transaction() as tx:
            for column in columns:
                tx.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} TEXT")
        return
    with db.transaction() as tx:
        present = {str(r[1]) for r in tx.execute(f"PRAGMA table_info({table})")}
        for column in columns:
            if column not in present:
                tx.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")


class TableStore:
    """The host records, webhooks and outbox, in the database of `database_url`."""

    def __init__(self, database_url: str, keyring: Keyring) -> None:
        self.db: SQLiteDb | PostgresDb = open_db(database_url)
        self.keyring = keyring
        create(self.db, [CREATE_TABLES, _CREATE_HOOKS, _CREATE_OUTBOX, _INDEX_OUTBOX, _INDEX_DEADLINE])
        _add_columns(self.db, "galileo_hooks", _HOOK_COLUMNS)
        _add_columns(self.db, "galileo_outbox", _OUTBOX_COLUMNS)
        # A webhook's secrets, bound to their game and seat (a rotation moves `secret` to
        # `previous_secret` as it is: the same row).
        self.sealed = SealedColumns(
            self.db,
            keyring,
            "galileo_hooks",
            ("game_id", "seat"),
            ("secret", "previous_secret"),
            "webhook secrets",
        )
        self.sealed.seal_all()

    def close(self) -> None:
        self.db.close()

    # -- host records and clocks --------------------------------------------------------------------

    def of_game(self, game_id: str) -> TableRecord | None:
        rows = self.db.query(
            "SELECT game_id, host_hash, options, takeback_seconds FROM galileo_tables WHERE game_id = ?",
            (game_id,),
        )
        if not rows:
            return None
        gid, host, options, seconds = rows[0]
        o = json.loads(options)
        return TableRecord(str(gid), host, o.get("clock"), int(seconds), o["on_resign"], o["resign_bot"])

    def by_host(self, host_hash: str) -> str | None:
        rows = self.db.query("SELECT game_id FROM galileo_tables WHERE host_hash = ?", (host_hash,))
        return None if not rows else str(rows[0][0])

    def set_deadline(self, game_id: str, deadline: datetime | None, active: bool) -> None:
        self.db.execute(
            "UPDATE galileo_tables SET deadline = ?, active = ? WHERE game_id = ?",
            (None if deadline is None else stamp(deadline), int(active), game_id),
        )

    def due(self, now: datetime, limit: int = 200) -> list[str]:
        """Clocked games whose recorded deadline has come."""
        rows = self.db.query(
            "SELECT game_id FROM galileo_tables WHERE active = 1 AND deadline <= ? ORDER BY deadline LIMIT ?",
            (stamp(now), limit),
        )
        return [str(r[0]) for r in rows]

    def clocks(self, game_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The clock of each of these games that has one: {"config", "deadline"} (the next deadline of a
        person, None while paused, over or a bot's turn)."""
        out: dict[str, dict[str, Any]] = {}
        ids = list(game_ids)
        for k in range(0, len(ids), 500):
            chunk = ids[k : k + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self.db.query(
                f"SELECT game_id, options, deadline FROM galileo_tables WHERE game_id IN ({marks})", chunk
            )
            for gid, options, deadline in rows:
                clock = json.loads(options).get("clock")
                if clock is not None:
                    at = None if deadline is None else unstamp(deadline).isoformat()
                    out[str(gid)] = {"config": clock, "deadline": at}
        return out

    def clocked(self) -> list[str]:
        """Every clocked game still in play (the scheduler's periodic re-check)."""
        rows = self.db.query("SELECT game_id FROM galileo_tables WHERE active = 1")
        return [str(r[0]) for r in rows]

    # -- seats ----------------------------------------------------------------------------------------

    def set_seat(self, game_id: str, seat: int, kind: str, bot: str | None, token_hash: str | None) -> None:
        """Rewrite (or add, for a `galileo new` game) one seat row: the old token stops working."""
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            tx.execute(
                "INSERT INTO galileo_seats VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, kind, bot, token_hash, stamp(datetime.now(UTC))),
            )

    # -- webhooks and the outbox ------------------------------------------------------------------------

    def _hook(self, row: Sequence[Any]) -> Hook | None:
        """The registration of a galileo_hooks row, its secrets opened; None when its secret does not."""
        game_id, seat = str(row[0]), int(row[1])
        secret = self.sealed.open((game_id, seat), "secret", row[3])
        if secret is None:
            return None
        previous = self.sealed.open((game_id, seat), "previous_secret", row[5])
        return Hook(game_id, seat, str(row[2]), secret, row[4], previous, row[6] if previous else None)

    def hooks(self, game_id: str) -> dict[int, Hook]:
        """The seats' webhooks of a game. A row whose secret does not open (sealed for another row, or
        altered) is left out, and logged: its deliveries are never signed with it."""
        rows = self.db.query(
            "SELECT game_id, seat, url, secret, hook_id, previous_secret, previous_until "
            "FROM galileo_hooks WHERE game_id = ?",
            (game_id,),
        )
        return {hook.seat: hook for hook in map(self._hook, rows) if hook is not None}

    def set_hook(self, hook: Hook, now: datetime) -> None:
        """Register (or replace) a seat's webhook. The notifications still pending for the registration
        it replaces are dropped with it: they were made for that URL and secret only."""
        sealed = self.sealed.seal((hook.game_id, hook.seat), hook.secret)
        with self.db.transaction() as tx:
            self._drop_hook(tx, hook.game_id, hook.seat)
            tx.execute(
                "INSERT INTO galileo_hooks (game_id, seat, url, secret, created_at, hook_id, "
                "previous_secret, previous_until) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)",
                (hook.game_id, hook.seat, hook.url, sealed, stamp(now), hook.hook_id),
            )

    def delete_hook(self, game_id: str, seat: int) -> bool:
        """Remove a seat's webhook and the notifications still pending for it (also when the seat is
        handed over: the registration was its previous holder's)."""
        with self.db.transaction() as tx:
            return self._drop_hook(tx, game_id, seat)

    @staticmethod
    def _drop_hook(tx: Any, game_id: str, seat: int) -> bool:
        found = tx.execute(
            "SELECT hook_id FROM galileo_hooks WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        tx.execute(
            "DELETE FROM galileo_outbox WHERE game_id = ? AND seat = ? AND status = ?",
            (game_id, seat, PENDING),
        )
        tx.execute("DELETE FROM galileo_hooks WHERE game_id = ? AND seat = ?", (game_id, seat))
        return bool(found)

    def rotate_secret(self, game_id: str, seat: int, secret: str, overlap_until: datetime) -> Hook | None:
        """Give a seat's webhook a new secret; its current one goes on signing (a second signature)
        until `overlap_until`. The registration stays: its pending notifications are signed with both.
        None when the seat has no webhook."""
        with self.db.transaction() as tx:
            updated = tx.execute(
                "UPDATE galileo_hooks SET previous_secret = secret, previous_until = ?, secret = ? "
                "WHERE game_id = ? AND seat = ? RETURNING game_id, seat, url, secret, hook_id, "
                "previous_secret, previous_until",
                (stamp(overlap_until), self.sealed.seal((game_id, seat), secret), game_id, seat),
            )
        return self._hook(updated[0]) if updated else None

    def enqueue(
        self,
        rows: Sequence[tuple[str, str, int, str, int, str, str, str | None]],
        now: datetime,
        due: datetime | None = None,
    ) -> int:
        """Queue notifications (id, game, seat, kind, version, url, body, hook_id), due at `due` (default
        now: a daily digest's are due at its hour); one per (game, seat, kind, version), so two processes
        noticing the same change queue it once. Returns how many were new."""
        at = stamp(now)
        due_at = at if due is None else stamp(due)
        added = 0
        with self.db.transaction() as tx:
            for row in rows:
                exists = tx.execute(
                    "SELECT 1 FROM galileo_outbox "
                    "WHERE game_id = ? AND seat = ? AND kind = ? AND version = ?",
                    (row[1], row[2], row[3], row[4]),
                )
                added += not exists
                tx.execute(
                    "INSERT INTO galileo_outbox (id, game_id, seat, kind, version, url, body, hook_id, "
                    "status, attempts, next_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (*row, PENDING, due_at, at),
                )
        return added

    def hooked_games(self) -> list[str]:
        """Games with a webhook whose end has not been queued yet (the notification sweep's work)."""
        rows = self.db.query(
            "SELECT DISTINCT h.game_id FROM galileo_hooks h WHERE NOT EXISTS (SELECT 1 FROM galileo_outbox o "
            "WHERE o.game_id = h.game_id AND o.kind IN ('game-ended', 'game-cancelled'))"
        )
        return [str(r[0]) for r in rows]

    def claim(self, now: datetime, lease_until: datetime, limit: int = 20) -> list[Delivery]:
        """Take up to `limit` due notifications for delivery until `lease_until` (another worker takes
        them again after that, should this one die)."""
        at = stamp(now)
        with self.db.transaction() as tx:
            lock = " FOR UPDATE SKIP LOCKED" if self.db.postgres else ""
            rows = tx.execute(
                f"SELECT {_DELIVERY} FROM galileo_outbox WHERE status = ? AND next_at <= ? "
                f"AND (locked_until IS NULL OR locked_until <= ?) ORDER BY next_at LIMIT ?{lock}",
                (PENDING, at, at, limit),
            )
            for row in rows:
                tx.execute(
                    "UPDATE galileo_outbox SET locked_until = ? WHERE id = ?", (stamp(lease_until), row[0])
                )
        return [_delivery(r) for r in rows]

    def release(self, delivery_id: str) -> None:
        """Give a claimed delivery back (its worker is stopping before it finished)."""
        self.db.execute(
            "UPDATE galileo_outbox SET locked_until = NULL WHERE id = ? AND status = ?",
            (delivery_id, PENDING),
        )

    def delivered(self, delivery_id: str, code: int, now: datetime) -> None:
        self.db.execute(
            "UPDATE galileo_outbox SET status = ?, attempts = attempts + 1, last_code = ?, "
            "last_error = NULL, delivered_at = ?, locked_until = NULL WHERE id = ?",
            (DELIVERED, code, stamp(now), delivery_id),
        )

    def attempt_failed(
        self, delivery_id: str, code: int | None, result: str, retry_at: datetime | None
    ) -> None:
        """Record a failed attempt and its class (`RESULTS`: what the log shows, kept in `last_error`);
        `retry_at` None gives up (status failed)."""
        assert result in RESULTS, result
        status = PENDING if retry_at is not None else FAILED
        self.db.execute(
            "UPDATE galileo_outbox SET status = ?, attempts = attempts + 1, last_code = ?, last_error = ?, "
            "next_at = COALESCE(?, next_at), locked_until = NULL WHERE id = ?",
            (status, code, result, None if retry_at is None else stamp(retry_at), delivery_id),
        )

    def log(self, game_id: str, seat: int | None = None, limit: int = 200) -> list[Delivery]:
        """The delivery log of a game (one seat's or all), newest first."""
        where, params = "game_id = ?", [game_id]
        if seat is not None:
            where += " AND seat = ?"
            params.append(seat)  # type: ignore[arg-type]
        else:  # the host's view: not whether a seat's person gets mails or pushes (theirs to know)
            where += " AND url NOT LIKE 'mail:%' AND url NOT LIKE 'push:%'"
        rows = self.db.query(
            f"SELECT {_DELIVERY} FROM galileo_outbox WHERE {where} ORDER BY created_at DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return [_delivery(r) for r in rows]


def open_tables(settings: Settings) -> TableStore:
    """The table store of `settings`, with the keyring they configure (api/crypto.py)."""
    keyring = load_keyring(settings.encryption_keys, settings.encryption_key_file, settings.database_url)
    return TableStore(settings.database_url, keyring)
