"""Where a person is told of their turn when no tab is open (docs/notifications.md): email addresses and
Web Push subscriptions, each an account's (all its games, with per-game choices) or one seat's (given with
the seat token, no account needed), in the store's own database beside the accounts.

- `galileo_mail`: an address (sealed under the server's keys: api/secretbox.py), its mode (`turn`: a mail per
  turn; `digest`: one mail a day), its state (`pending` until the confirmation mail's link is opened,
  `confirmed`, `bounced` when the mail server refused it, `unsubscribed`) and the SHA-256 of its
  confirmation token;
- `galileo_push`: a push subscription (its endpoint and keys sealed: the keys are secrets) and a keyed
  digest of its endpoint to find it again;
- `galileo_notify_prefs`: an account's choice for one game (email `turn` / `digest` / `off`, push on/off);
- `galileo_service_keys`: keys the service generated at its first start (the VAPID key), sealed.

An owner is `("account", account_id)` or `("seat", game_id:seat)`. Deleting an account (`DELETE /me`)
deletes its rows here (`forget_account`), and with them every address and subscription it gave.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from api.db import PostgresDb, SQLiteDb, create, open_db
from api.secretbox import SecretBox
from api.tables import stamp

logger = logging.getLogger(__name__)

ACCOUNT, SEAT = "account", "seat"
TURN, DIGEST, OFF = "turn", "digest", "off"
MODES = (TURN, DIGEST)
PENDING, CONFIRMED, BOUNCED, UNSUBSCRIBED = "pending", "confirmed", "bounced", "unsubscribed"

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS galileo_mail (
    address_id TEXT PRIMARY KEY,
    owner_kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    sealed TEXT NOT NULL,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    confirm_hash TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (owner_kind, owner)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_push (
    sub_id TEXT PRIMARY KEY,
    owner_kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    sealed TEXT NOT NULL,
    endpoint_digest TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (owner_kind, owner, endpoint_digest)
)
""",
    "CREATE INDEX IF NOT EXISTS galileo_push_owner ON galileo_push (owner_kind, owner)",
    """
CREATE TABLE IF NOT EXISTS galileo_notify_prefs (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    email TEXT NOT NULL,
    push INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_notify_over (
    game_id TEXT PRIMARY KEY
)
""",
    # The language negotiated when an owner gave an address or a device (docs/i18n.md): a seat's mails and
    # pushes are written in it; an account's in its own choice (galileo_languages) when it made one.
    """
CREATE TABLE IF NOT EXISTS galileo_reach_languages (
    owner_kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    locale TEXT NOT NULL,
    PRIMARY KEY (owner_kind, owner)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_service_keys (
    name TEXT PRIMARY KEY,
    sealed TEXT NOT NULL,
    created_at TEXT NOT NULL
)
""",
)


def seat_owner(game_id: str, seat: int) -> str:
    return f"{game_id}:{seat}"


def confirm_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Address:
    address_id: str
    owner_kind: str
    owner: str
    address: str  # opened
    mode: str
    status: str
    error: str | None  # why it bounced (the mail server's code)

    def to_json(self) -> dict[str, Any]:
        return {"address": self.address, "mode": self.mode, "status": self.status, "error": self.error}


@dataclass(frozen=True, slots=True)
class Subscription:
    sub_id: str
    endpoint: str
    p256dh: str  # the browser's public key (base64url)
    auth: str  # the subscription's authentication secret (base64url)


@dataclass(frozen=True, slots=True)
class Prefs:
    email: str  # turn | digest | off; "" when the account's default applies
    push: bool


class ReachStore:
    """Addresses, subscriptions, per-game choices and the generated service keys."""

    def __init__(self, database_url: str, box: SecretBox) -> None:
        self.db: SQLiteDb | PostgresDb = open_db(database_url)
        self.box = box
        create(self.db, _SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -- email addresses -------------------------------------------------------------------------------

    def set_address(self, kind: str, owner: str, address: str, mode: str, now: datetime) -> tuple[str, str]:
        """Give an owner an address (replacing the one before, confirmed or not): pending until the
        confirmation. Returns (address_id, confirmation token)."""
        address_id = "addr_" + secrets.token_hex(12)
        token = secrets.token_urlsafe(24)
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_mail WHERE owner_kind = ? AND owner = ?", (kind, owner))
            tx.execute(
                "INSERT INTO galileo_mail VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                (
                    address_id,
                    kind,
                    owner,
                    self.box.seal(address),
                    mode,
                    PENDING,
                    confirm_hash(token),
                    stamp(now),
                ),
            )
        return address_id, token

    def set_mode(self, kind: str, owner: str, mode: str) -> bool:
        return bool(
            self.db.execute(
                "UPDATE galileo_mail SET mode = ? WHERE owner_kind = ? AND owner = ?", (mode, kind, owner)
            )
        )

    def _address(self, row: Sequence[Any]) -> Address | None:
        """The row's address; None (and a warning) when it was sealed under a key not configured here."""
        try:
            address = self.box.open(str(row[3]))
        except ValueError:
            logger.warning("address %s was sealed under a key not configured here: ignored", row[0])
            return None
        return Address(
            str(row[0]),
            str(row[1]),
            str(row[2]),
            address,
            str(row[4]),
            str(row[5]),
            row[6],
        )

    _COLUMNS = "address_id, owner_kind, owner, sealed, mode, status, error"

    def address_of(self, kind: str, owner: str) -> Address | None:
        rows = self.db.query(
            f"SELECT {self._COLUMNS} FROM galileo_mail WHERE owner_kind = ? AND owner = ?", (kind, owner)
        )
        return self._address(rows[0]) if rows else None

    def address(self, address_id: str) -> Address | None:
        rows = self.db.query(f"SELECT {self._COLUMNS} FROM galileo_mail WHERE address_id = ?", (address_id,))
        return self._address(rows[0]) if rows else None

    def confirm(self, token: str) -> Address | None:
        """Confirm the address whose pending confirmation `token` is (used once); None if none is."""
        with self.db.transaction() as tx:
            rows = tx.execute(
                f"SELECT {self._COLUMNS} FROM galileo_mail WHERE confirm_hash = ? AND status = ?",
                (confirm_hash(token), PENDING),
            )
            if not rows:
                return None
            tx.execute(
                "UPDATE galileo_mail SET status = ?, confirm_hash = NULL WHERE address_id = ?",
                (CONFIRMED, rows[0][0]),
            )
        found = self._address(rows[0])
        if found is None:
            return None
        return Address(
            found.address_id, found.owner_kind, found.owner, found.address, found.mode, CONFIRMED, None
        )

    def set_status(self, address_id: str, status: str, error: str | None = None) -> None:
        self.db.execute(
            "UPDATE galileo_mail SET status = ?, error = ? WHERE address_id = ?", (status, error, address_id)
        )

    def drop_address(self, kind: str, owner: str) -> bool:
        return bool(
            self.db.execute("DELETE FROM galileo_mail WHERE owner_kind = ? AND owner = ?", (kind, owner))
        )

    def set_language(self, kind: str, owner: str, locale: str) -> None:
        """The language an owner gave its address or device in (the request's, api/i18n.py)."""
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM galileo_reach_languages WHERE owner_kind = ? AND owner = ?", (kind, owner)
            )
            tx.execute("INSERT INTO galileo_reach_languages VALUES (?, ?, ?)", (kind, owner, locale))

    def language(self, kind: str, owner: str) -> str | None:
        rows = self.db.query(
            "SELECT locale FROM galileo_reach_languages WHERE owner_kind = ? AND owner = ?", (kind, owner)
        )
        return str(rows[0][0]) if rows else None

    # -- push subscriptions ----------------------------------------------------------------------------

    def add_subscription(self, kind: str, owner: str, sub: Subscription, now: datetime) -> str:
        digest = self.box.lookup(sub.endpoint)
        sealed = self.box.seal(
            orjson.dumps({"endpoint": sub.endpoint, "p256dh": sub.p256dh, "auth": sub.auth}).decode()
        )
        sub_id = "push_" + secrets.token_hex(12)
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM galileo_push WHERE owner_kind = ? AND owner = ? AND endpoint_digest = ?",
                (kind, owner, digest),
            )
            tx.execute(
                "INSERT INTO galileo_push VALUES (?, ?, ?, ?, ?, ?)",
                (sub_id, kind, owner, sealed, digest, stamp(now)),
            )
        return sub_id

    def subscriptions(self, kind: str, owner: str) -> list[Subscription]:
        rows = self.db.query(
            "SELECT sub_id, sealed FROM galileo_push WHERE owner_kind = ? AND owner = ? ORDER BY created_at",
            (kind, owner),
        )
        out = []
        for sub_id, sealed in rows:
            try:
                d = orjson.loads(self.box.open(str(sealed)))
            except ValueError:
                logger.warning("push subscription %s: sealed under a key not configured here", sub_id)
                continue
            out.append(Subscription(str(sub_id), d["endpoint"], d["p256dh"], d["auth"]))
        return out

    def drop_subscription(self, kind: str, owner: str, endpoint: str) -> bool:
        return bool(
            self.db.execute(
                "DELETE FROM galileo_push WHERE owner_kind = ? AND owner = ? AND endpoint_digest = ?",
                (kind, owner, self.box.lookup(endpoint)),
            )
        )

    def expired(self, sub_id: str) -> None:
        """The push service says the subscription is gone (404, 410): it is removed."""
        self.db.execute("DELETE FROM galileo_push WHERE sub_id = ?", (sub_id,))

    # -- an account's per-game choices -------------------------------------------------------------------

    def prefs(self, account_id: str, game_id: str) -> Prefs:
        rows = self.db.query(
            "SELECT email, push FROM galileo_notify_prefs WHERE account_id = ? AND game_id = ?",
            (account_id, game_id),
        )
        return Prefs(str(rows[0][0]), bool(rows[0][1])) if rows else Prefs("", True)

    def set_prefs(self, account_id: str, game_id: str, prefs: Prefs) -> None:
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM galileo_notify_prefs WHERE account_id = ? AND game_id = ?", (account_id, game_id)
            )
            tx.execute(
                "INSERT INTO galileo_notify_prefs VALUES (?, ?, ?, ?)",
                (account_id, game_id, prefs.email, int(prefs.push)),
            )

    def forget_account(self, account_id: str) -> None:
        """Erase what an account gave (`DELETE /me`): its address, subscriptions and choices."""
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_mail WHERE owner_kind = ? AND owner = ?", (ACCOUNT, account_id))
            tx.execute("DELETE FROM galileo_push WHERE owner_kind = ? AND owner = ?", (ACCOUNT, account_id))
            tx.execute("DELETE FROM galileo_notify_prefs WHERE account_id = ?", (account_id,))
            tx.execute(
                "DELETE FROM galileo_reach_languages WHERE owner_kind = ? AND owner = ?",
                (ACCOUNT, account_id),
            )

    def forget_seat(self, game_id: str, seat: int) -> None:
        """A seat handed to someone else: the address and subscriptions its holder gave go with them."""
        owner = seat_owner(game_id, seat)
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_mail WHERE owner_kind = ? AND owner = ?", (SEAT, owner))
            tx.execute("DELETE FROM galileo_push WHERE owner_kind = ? AND owner = ?", (SEAT, owner))
            tx.execute(
                "DELETE FROM galileo_reach_languages WHERE owner_kind = ? AND owner = ?", (SEAT, owner)
            )

    # -- the sweep's work -------------------------------------------------------------------------------

    def reached_games(self) -> list[str]:
        """The games a mail or a push may be owed in (the notification sweep's work): a seat with a
        confirmed address or a device given for it, or claimed by an account that has one; less the games
        the sweep found over (`mark_over`)."""
        seats = self.db.query(
            "SELECT owner FROM galileo_mail WHERE owner_kind = ? AND status = ? "
            "UNION SELECT owner FROM galileo_push WHERE owner_kind = ?",
            (SEAT, CONFIRMED, SEAT),
        )
        claimed = self.db.query(
            "SELECT DISTINCT c.game_id FROM galileo_claims c WHERE EXISTS (SELECT 1 FROM galileo_mail m "
            "WHERE m.owner_kind = ? AND m.owner = c.account_id AND m.status = ?) OR EXISTS (SELECT 1 FROM "
            "galileo_push p WHERE p.owner_kind = ? AND p.owner = c.account_id)",
            (ACCOUNT, CONFIRMED, ACCOUNT),
        )
        games = {str(owner).rsplit(":", 1)[0] for (owner,) in seats} | {str(g) for (g,) in claimed}
        over = {str(g) for (g,) in self.db.query("SELECT game_id FROM galileo_notify_over")}
        return sorted(games - over)

    def mark_over(self, game_id: str) -> None:
        """A game that has ended or been cancelled: the sweep owes it no mail or push again."""
        self.db.execute(
            "INSERT INTO galileo_notify_over (game_id) VALUES (?) ON CONFLICT DO NOTHING", (game_id,)
        )

    # -- generated service keys ----------------------------------------------------------------------------

    def service_key(self, name: str, make: Any, now: datetime) -> str:
        """The generated key `name`, made by `make()` at the first call of any process (the first writer
        wins: every process reads back the same). ValueError when it was sealed under a key not configured
        here (processes that do not share `GALILEO_ENCRYPTION_KEYS`)."""
        rows = self.db.query("SELECT sealed FROM galileo_service_keys WHERE name = ?", (name,))
        if not rows:
            self.db.execute(
                "INSERT INTO galileo_service_keys VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (name, self.box.seal(str(make())), stamp(now)),
            )
            rows = self.db.query("SELECT sealed FROM galileo_service_keys WHERE name = ?", (name,))
        return self.box.open(str(rows[0][0]))
