"""Accounts (docs/accounts.md): optional identities of people, in the store's own database beside the seats
and the table records (SQLite by default, PostgreSQL with `GALILEO_DATABASE_URL`; api/db.py).

- `galileo_accounts`: the display name, the WebAuthn user handle and the account's pseudonym key (the key
  of its pseudonyms in game logs: `pseudonym`), sealed (api/crypto.py): the database alone links no two
  pseudonyms;
- `galileo_passkeys`: each passkey's credential ID, public key (COSE) and signature counter;
- `galileo_sessions`: the SHA-256 of each session token (the cookie), never the token, with its expiry;
- `galileo_ceremonies`: a WebAuthn challenge between its options and the answer, used once, short-lived;
- `galileo_claims`: which account claimed which seat, an index for "my games" (the fact itself is the
  game's `SeatClaimed` event, and the index is checked against it on every read);
- `galileo_identities`: the OpenID Connect identities (issuer, subject) that sign an account in.

Nothing here is a game event: an account, a passkey or a session can be removed without rewriting any
game. Times are fixed-width UTC text (`api.tables.stamp`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from api.crypto import Keyring
from api.db import PostgresDb, SQLiteDb, create, open_db
from api.sealed import SealedColumns
from api.tables import stamp

SESSION_PREFIX = "gs_"  # a session token, as the cookie holds it
NAME_MAX = 40

_CREATE_ACCOUNTS = """
CREATE TABLE IF NOT EXISTS galileo_accounts (
    account_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    user_handle TEXT UNIQUE NOT NULL,
    pseudonym_key TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""
_CREATE_PASSKEYS = """
CREATE TABLE IF NOT EXISTS galileo_passkeys (
    credential_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    transports TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
)
"""
_INDEX_PASSKEYS = "CREATE INDEX IF NOT EXISTS galileo_passkeys_account ON galileo_passkeys (account_id)"
_CREATE_SESSIONS = """
CREATE TABLE IF NOT EXISTS galileo_sessions (
    session_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
)
"""
_CREATE_CEREMONIES = """
CREATE TABLE IF NOT EXISTS galileo_ceremonies (
    ceremony_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    challenge TEXT NOT NULL,
    account_id TEXT,
    name TEXT,
    user_handle TEXT,
    expires_at TEXT NOT NULL
)
"""
_CREATE_CLAIMS = """
CREATE TABLE IF NOT EXISTS galileo_claims (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
)
"""
_INDEX_CLAIMS = "CREATE INDEX IF NOT EXISTS galileo_claims_account ON galileo_claims (account_id)"
_CREATE_IDENTITIES = """
CREATE TABLE IF NOT EXISTS galileo_identities (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    account_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (issuer, subject)
)
"""
_SCHEMA = (
    _CREATE_ACCOUNTS,
    _CREATE_PASSKEYS,
    _INDEX_PASSKEYS,
    _CREATE_SESSIONS,
    _CREATE_CEREMONIES,
    _CREATE_CLAIMS,
    _INDEX_CLAIMS,
    _CREATE_IDENTITIES,
)


def new_session_token() -> str:
    return SESSION_PREFIX + secrets.token_urlsafe(32)


def session_hash(token: str) -> str:
    """What is stored and looked up: the SHA-256 of the session token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def csrf_token(session_token: str) -> str:
    """The session's CSRF token (ACCT-3): derived from the secret session token, so only whoever holds the
    session (the page reads it from `GET /me`; another site can read neither) can send it."""
    return hmac.new(session_token.encode("utf-8"), b"galileo-csrf", hashlib.sha256).hexdigest()


def pseudonym(key: str, game_id: str) -> str:
    """The account's name in one game's log (ACCT-1): an HMAC of the game's ID under the account's key.
    Two games' pseudonyms of one account cannot be linked without the key; deleting the key (with the
    account) leaves every log verifiable and names no one."""
    return "p_" + hmac.new(bytes.fromhex(key), game_id.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def clean_name(raw: str) -> str:
    """A display name: 1 to NAME_MAX printable characters, outer spaces removed; ValueError otherwise."""
    name = " ".join(raw.split())
    if not 0 < len(name) <= NAME_MAX or not name.isprintable():
        raise ValueError(f"a name is 1 to {NAME_MAX} printable characters")
    return name


@dataclass(frozen=True, slots=True)
class Account:
    account_id: str
    name: str
    user_handle: str  # base64url of the WebAuthn user.id (random, not personal)
    pseudonym_key: str  # hex; the key of `pseudonym`
    created_at: str

    def pseudonym(self, game_id: str) -> str:
        return pseudonym(self.pseudonym_key, game_id)


@dataclass(frozen=True, slots=True)
class Passkey:
    credential_id: str  # base64url
    account_id: str
    public_key: str  # base64url of the COSE key
    sign_count: int
    transports: str  # comma-separated, as the browser reported them


@dataclass(frozen=True, slots=True)
class Ceremony:
    ceremony_id: str
    kind: str  # "register" or "sign-in"
    challenge: str  # base64url
    account_id: str | None  # registering another passkey of a signed-in account
    name: str | None  # registering a new account: its name
    user_handle: str | None


_ACCOUNT = "a.account_id, a.name, a.user_handle, a.pseudonym_key, a.created_at"


class AccountStore:
    """Accounts, passkeys, sessions, ceremonies and the claims index in the database of `database_url`.
    An account's pseudonym key is stored sealed under `keyring` (api/crypto.py), bound to the account."""

    def __init__(self, database_url: str, keyring: Keyring) -> None:
        self.db: SQLiteDb | PostgresDb = open_db(database_url)
        create(self.db, _SCHEMA)
        self.sealed = SealedColumns(
            self.db, keyring, "galileo_accounts", ("account_id",), ("pseudonym_key",), "pseudonym keys"
        )
        self.sealed.seal_all()

    def _account(self, row: Sequence[Any]) -> Account | None:
        """The account of a row, its pseudonym key opened; None when the key does not open (logged)."""
        key = self.sealed.open((str(row[0]),), "pseudonym_key", row[3])
        return None if key is None else Account(str(row[0]), str(row[1]), str(row[2]), key, str(row[4]))

    def close(self) -> None:
        self.db.close()

    # -- accounts and passkeys -------------------------------------------------------------------------

    def register(self, name: str, user_handle: str, passkey: Passkey, now: datetime) -> Account:
        """A new account with its first passkey (one transaction)."""
        account = self._new(name, user_handle, now)
        with self.db.transaction() as tx:
            self._insert_account(tx, account)
            self._insert_passkey(tx, passkey, account.account_id, now)
        return account

    def identity(self, issuer: str, subject: str) -> Account | None:
        """The account an OpenID Connect identity signs in."""
        rows = self.db.query(
            f"SELECT {_ACCOUNT} FROM galileo_identities i "
            "JOIN galileo_accounts a ON a.account_id = i.account_id "
            "WHERE i.issuer = ? AND i.subject = ?",
            (issuer, subject),
        )
        return self._account(rows[0]) if rows else None

    def register_identity(self, name: str, issuer: str, subject: str, now: datetime) -> Account:
        """A new account signed in by an OpenID Connect identity (one transaction)."""
        account = self._new(name, secrets.token_urlsafe(32), now)
        with self.db.transaction() as tx:
            self._insert_account(tx, account)
            tx.execute(
                "INSERT INTO galileo_identities VALUES (?, ?, ?, ?)",
                (issuer, subject, account.account_id, stamp(now)),
            )
        return account

    @staticmethod
    def _new(name: str, user_handle: str, now: datetime) -> Account:
        return Account("acct_" + secrets.token_hex(12), name, user_handle, secrets.token_hex(32), stamp(now))

    def _insert_account(self, tx: Any, account: Account) -> None:
        tx.execute(
            "INSERT INTO galileo_accounts VALUES (?, ?, ?, ?, ?)",
            (
                account.account_id,
                account.name,
                account.user_handle,
                self.sealed.seal((account.account_id,), account.pseudonym_key),
                account.created_at,
            ),
        )

    def add_passkey(self, account_id: str, passkey: Passkey, now: datetime) -> None:
        with self.db.transaction() as tx:
            self._insert_passkey(tx, passkey, account_id, now)

    @staticmethod
    def _insert_passkey(tx: Any, passkey: Passkey, account_id: str, now: datetime) -> None:
        tx.execute(
            "INSERT INTO galileo_passkeys VALUES (?, ?, ?, ?, ?, ?, NULL)",
            (passkey.credential_id, account_id, passkey.public_key, passkey.sign_count, passkey.transports,
             stamp(now)),
        )  # fmt: skip

    def named(self, name: str, limit: int = 2) -> list[Account]:
        """Accounts whose display name is `name` (compared without regard to case), at most `limit`."""
        rows = self.db.query(
            f"SELECT {_ACCOUNT} FROM galileo_accounts a WHERE lower(a.name) = lower(?) "
            "ORDER BY a.created_at LIMIT ?",
            (name, limit),
        )
        return [a for r in rows if (a := self._account(r)) is not None]

    def account(self, account_id: str) -> Account | None:
        rows = self.db.query(
            f"SELECT {_ACCOUNT} FROM galileo_accounts a WHERE a.account_id = ?", (account_id,)
        )
        return self._account(rows[0]) if rows else None

    def passkey(self, credential_id: str) -> Passkey | None:
        rows = self.db.query(
            "SELECT credential_id, account_id, public_key, sign_count, transports FROM galileo_passkeys "
            "WHERE credential_id = ?",
            (credential_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return Passkey(str(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4]))

    def passkeys_of(self, account_id: str) -> list[str]:
        """The credential IDs of an account's passkeys."""
        rows = self.db.query(
            "SELECT credential_id FROM galileo_passkeys WHERE account_id = ? ORDER BY created_at",
            (account_id,),
        )
        return [str(r[0]) for r in rows]

    def passkey_used(self, credential_id: str, sign_count: int, now: datetime) -> None:
        self.db.execute(
            "UPDATE galileo_passkeys SET sign_count = ?, last_used_at = ? WHERE credential_id = ?",
            (sign_count, stamp(now), credential_id),
        )

    # -- sessions --------------------------------------------------------------------------------------

    def open_session(self, account_id: str, token_hash: str, now: datetime, expires: datetime) -> None:
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_sessions WHERE expires_at <= ?", (stamp(now),))
            tx.execute(
                "INSERT INTO galileo_sessions VALUES (?, ?, ?, ?)",
                (token_hash, account_id, stamp(now), stamp(expires)),
            )

    def session(self, token_hash: str, now: datetime) -> Account | None:
        """The account of a live session (None: unknown or expired)."""
        rows = self.db.query(
            f"SELECT {_ACCOUNT} FROM galileo_sessions s "
            "JOIN galileo_accounts a ON a.account_id = s.account_id "
            "WHERE s.session_hash = ? AND s.expires_at > ?",
            (token_hash, stamp(now)),
        )
        return self._account(rows[0]) if rows else None

    def close_session(self, token_hash: str) -> None:
        self.db.execute("DELETE FROM galileo_sessions WHERE session_hash = ?", (token_hash,))

    # -- WebAuthn ceremonies ---------------------------------------------------------------------------

    def begin(self, ceremony: Ceremony, now: datetime, expires: datetime) -> None:
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_ceremonies WHERE expires_at <= ?", (stamp(now),))
            tx.execute(
                "INSERT INTO galileo_ceremonies VALUES (?, ?, ?, ?, ?, ?, ?)",
                (ceremony.ceremony_id, ceremony.kind, ceremony.challenge, ceremony.account_id, ceremony.name,
                 ceremony.user_handle, stamp(expires)),
            )  # fmt: skip

    def take(self, ceremony_id: str, kind: str, now: datetime) -> Ceremony | None:
        """The ceremony, removed (a challenge is answered once); None if unknown, expired or another kind."""
        with self.db.transaction() as tx:
            rows = tx.execute(
                "SELECT ceremony_id, kind, challenge, account_id, name, user_handle FROM galileo_ceremonies "
                "WHERE ceremony_id = ? AND kind = ? AND expires_at > ?",
                (ceremony_id, kind, stamp(now)),
            )
            tx.execute("DELETE FROM galileo_ceremonies WHERE ceremony_id = ?", (ceremony_id,))
        if not rows:
            return None
        r = rows[0]
        return Ceremony(str(r[0]), str(r[1]), str(r[2]), r[3], r[4], r[5])

    # -- short-lived values of an OpenID Connect sign-in (authlib's cache: state, nonce, PKCE verifier) ----

    def put_value(self, key: str, value: str, now: datetime, expires: datetime) -> None:
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM galileo_ceremonies WHERE expires_at <= ? OR ceremony_id = ?", (stamp(now), key)
            )
            tx.execute(
                "INSERT INTO galileo_ceremonies VALUES (?, 'oidc', ?, NULL, NULL, NULL, ?)",
                (key, value, stamp(expires)),
            )

    def value(self, key: str, now: datetime) -> str | None:
        rows = self.db.query(
            "SELECT challenge FROM galileo_ceremonies "
            "WHERE ceremony_id = ? AND kind = 'oidc' AND expires_at > ?",
            (key, stamp(now)),
        )
        return str(rows[0][0]) if rows else None

    def drop_value(self, key: str) -> None:
        self.db.execute("DELETE FROM galileo_ceremonies WHERE ceremony_id = ? AND kind = 'oidc'", (key,))

    # -- the claims index ------------------------------------------------------------------------------

    def record_claim(self, game_id: str, seat: int, account_id: str, now: datetime) -> None:
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM galileo_claims WHERE game_id = ? AND seat = ?", (game_id, seat))
            tx.execute(
                "INSERT INTO galileo_claims VALUES (?, ?, ?, ?)", (game_id, seat, account_id, stamp(now))
            )

    def claimant(self, game_id: str, seat: int) -> str | None:
        """The account whose claim of the seat is indexed (None: none, or its account was deleted)."""
        rows = self.db.query(
            "SELECT account_id FROM galileo_claims WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return str(rows[0][0]) if rows else None

    def delete(self, account_id: str) -> None:
        """Erase an account: its name, pseudonym key, passkeys, provider links, sessions, pending ceremonies
        and claims (docs/audit.md, "Personal data"). The games' logs keep only pseudonyms no key opens."""
        with self.db.transaction() as tx:
            tables = ("galileo_passkeys", "galileo_sessions", "galileo_ceremonies", "galileo_claims")
            for table in (*tables, "galileo_identities"):
                tx.execute(f"DELETE FROM {table} WHERE account_id = ?", (account_id,))
            tx.execute("DELETE FROM galileo_accounts WHERE account_id = ?", (account_id,))

    def claims_of(self, account_id: str) -> list[tuple[str, int]]:
        """(game, seat) of the account's claims, newest first."""
        rows = self.db.query(
            "SELECT game_id, seat FROM galileo_claims WHERE account_id = ? ORDER BY claimed_at DESC, game_id",
            (account_id,),
        )
        return [(str(r[0]), int(r[1])) for r in rows]
