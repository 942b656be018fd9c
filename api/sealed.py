"""Columns of a table that hold secrets sealed at rest (api/crypto.py): each value is bound to its row by its
key columns (`<table>:<key>:<key>...`), opened on read, and sealed at start-up when an older release kept it
in clear or an older key sealed it. Webhook secrets use it (api/tables.py); so can any other secret the
service must read back (a push subscription's keys)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from api.crypto import Keyring, KeyringError, Unsealable, is_sealed, sealed_key_id
from api.db import PostgresDb, SQLiteDb

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SealedColumns:
    """`columns` of `table` (nullable TEXT) sealed under `keyring`, each row named by `keys` (its key
    columns). `what` names the secrets in messages ("webhook secrets")."""

    db: SQLiteDb | PostgresDb
    keyring: Keyring
    table: str
    keys: tuple[str, ...]
    columns: tuple[str, ...]
    what: str

    def aad(self, key: Sequence[Any]) -> str:
        """What a row's sealed values are bound to: they open in no other row."""
        return ":".join([self.table, *(str(k) for k in key)])

    def seal(self, key: Sequence[Any], plaintext: str) -> str:
        return self.keyring.seal(plaintext, self.aad(key))

    def open(self, key: Sequence[Any], column: str, value: str | None) -> str | None:
        """The plaintext of a row's value (None stays None). A value in clear or under an older key is
        sealed again in place; one that does not open (moved from another row, altered) gives None and
        is logged by its row's key, never its value."""
        if value is None:
            return None
        if self.keyring.current(value):
            try:
                return self.keyring.open(value, self.aad(key))
            except Unsealable as refusal:
                self._refused(key, column, refusal)
                return None
        return self._reseal(key, column, value)  # written by an older release, or under an older key

    def seal_all(self) -> None:
        """At start-up: seal what is in clear or under an older key. Idempotent, and safe with several
        processes starting at once (each update applies only to the value it read). KeyringError when
        values are sealed under keys not configured: this process could not read them."""
        current = f"gs1:{self.keyring.current_id}:%"
        stale = " OR ".join(f"({c} IS NOT NULL AND {c} NOT LIKE ?)" for c in self.columns)
        rows = self.db.query(
            f"SELECT {', '.join(self.keys + self.columns)} FROM {self.table} WHERE {stale}",
            (current,) * len(self.columns),
        )
        unknown: dict[str, int] = {}
        for row in rows:
            key, values = row[: len(self.keys)], row[len(self.keys) :]
            for column, value in zip(self.columns, values, strict=True):
                if value is None or self.keyring.current(value):
                    continue
                kid = sealed_key_id(value)
                if kid is not None and kid not in self.keyring.ids:
                    unknown[kid] = unknown.get(kid, 0) + 1
                    continue
                self._reseal(key, column, str(value))
        if unknown:
            kids = ", ".join(f"{kid} ({n} value(s))" for kid, n in sorted(unknown.items()))
            raise KeyringError(
                f"{self.table} holds {self.what} sealed under key(s) {kids}, not in {self.keyring.source} "
                f"(key ids {', '.join(self.keyring.ids)}): start with the key they were sealed with; to "
                "rotate keys, put the new key first and keep the old one after it"
            )

    def _reseal(self, key: Sequence[Any], column: str, value: str) -> str | None:
        aad = self.aad(key)
        try:
            plain = self.keyring.open(value, aad) if is_sealed(value) else value
        except Unsealable as refusal:
            self._refused(key, column, refusal)
            return None
        where = " AND ".join(f"{k} = ?" for k in self.keys)
        self.db.execute(
            f"UPDATE {self.table} SET {column} = ? WHERE {where} AND {column} = ?",
            (self.keyring.seal(plain, aad), *key, value),
        )
        return plain

    def _refused(self, key: Sequence[Any], column: str, refusal: Unsealable) -> None:
        row = ", ".join(f"{k} {v}" for k, v in zip(self.keys, key, strict=True))
        logger.error("%s (%s): its %s %s", self.table, row, column, refusal)
