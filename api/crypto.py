"""Secrets at rest (docs/operations.md, "Secrets at rest"): what the service must read back in clear to use it
(a webhook's signing secret, a push subscription's keys) is stored sealed with AES-256-GCM under a server
key, never in clear; what it only compares (seat tokens, sessions) is stored hashed instead (api/seating.py,
api/accounts.py).

A sealed value is text: `gs1:<key id>:<base64url(nonce | ciphertext | tag)>`. Its associated data names the
row it belongs to (e.g. `galileo_hooks:<game>:<seat>`), so a value copied into another row does not open.

The keys come from `GALILEO_ENCRYPTION_KEYS` (comma-separated) or the key file `GALILEO_ENCRYPTION_KEY_FILE`
(one a line); by default, on SQLite, the file `encryption.key` beside the database, made at first start
(mode 0600). The first key seals; every key opens, so a key is rotated by putting a new one first: rows
sealed under the others are sealed again under it at start-up. A table's sealed columns, bound to their
rows and sealed at start-up, are `api.sealed.SealedColumns` (the webhooks' in api/tables.py).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "gs1:"
KEY_BYTES = 32
NONCE_BYTES = 12
KEY_FILE_NAME = "encryption.key"
_FILE_HEADER = (
    "# Galileo's encryption keys (docs/operations.md, 'Secrets at rest'): the first seals, every one\n"
    "# opens. Keep this file secret and backed up with the database: without it the secrets sealed there\n"
    "# cannot be read.\n"
)


class KeyringError(Exception):
    """The configured keys are unusable, or do not open what the database holds: the service cannot start."""


class Unsealable(Exception):
    """A sealed value does not open: sealed for another row, altered, or under a key not configured."""


def new_key() -> str:
    """A new key as text (32 random bytes, base64url)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii")


def _key_bytes(text: str, where: str) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(text.strip().encode("ascii"))
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raw = b""
    if len(raw) != KEY_BYTES:
        raise KeyringError(f"{where}: not a key (32 bytes in base64url, e.g. from `galileo keygen`)")
    return raw


def key_id(raw: bytes) -> str:
    """A short public name of a key (in each value it sealed): tells which key a row needs."""
    return hashlib.sha256(b"galileo-key-id:" + raw).hexdigest()[:8]


def is_sealed(value: str) -> bool:
    return value.startswith(PREFIX)


def sealed_key_id(value: str) -> str | None:
    """The id of the key `value` was sealed under (None: not a sealed value)."""
    if not is_sealed(value):
        return None
    return value[len(PREFIX) :].split(":", 1)[0]


@dataclass(frozen=True, slots=True)
class Keyring:
    """The server's keys: `keys[0]` seals, each opens what it sealed. `source` names where they came from
    (for error messages; never the keys)."""

    keys: tuple[bytes, ...]
    source: str = "the configured keys"

    def __post_init__(self) -> None:
        if not self.keys:
            raise KeyringError(f"{self.source}: no key")

    @classmethod
    def of(cls, texts: Sequence[str], source: str) -> Keyring:
        return cls(tuple(_key_bytes(t, f"{source}, key {n + 1}") for n, t in enumerate(texts)), source)

    @property
    def current_id(self) -> str:
        return key_id(self.keys[0])

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(key_id(k) for k in self.keys)

    def seal(self, plaintext: str, aad: str) -> str:
        """`plaintext` sealed under the current key, bound to `aad` (the row it is stored in)."""
        nonce = secrets.token_bytes(NONCE_BYTES)
        sealed = AESGCM(self.keys[0]).encrypt(nonce, plaintext.encode("utf-8"), aad.encode("utf-8"))
        body = base64.urlsafe_b64encode(nonce + sealed).decode("ascii")
        return f"{PREFIX}{self.current_id}:{body}"

    def open(self, sealed: str, aad: str) -> str:
        """The plaintext of `sealed`; Unsealable unless it was sealed by one of these keys for `aad`."""
        kid = sealed_key_id(sealed)
        if kid is None:
            raise Unsealable("not a sealed value")
        key = next((k for k in self.keys if key_id(k) == kid), None)
        if key is None:
            raise Unsealable(f"sealed under key {kid}, which is not in {self.source}")
        try:
            raw = base64.urlsafe_b64decode(sealed[len(PREFIX) + len(kid) + 1 :].encode("ascii"))
            plain = AESGCM(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], aad.encode("utf-8"))
        except (InvalidTag, binascii.Error, ValueError) as error:
            raise Unsealable("does not open: sealed for another row, or altered") from error
        return plain.decode("utf-8")

    def current(self, sealed: str) -> bool:
        """Whether `sealed` is sealed under the current key (else it is sealed again at start-up)."""
        return sealed_key_id(sealed) == self.current_id


def read_key_file(path: Path, create: bool) -> Keyring:
    """The keys of a key file (one a line, `#` comments). A missing file is made with one new key when
    `create` (mode 0600, atomically: of two processes starting at once, both end up with the first's key)."""
    if not path.exists():
        if not create:
            raise KeyringError(f"the key file {path} does not exist")
        _create_key_file(path)
    lines = (line.strip() for line in path.read_text().splitlines())
    return Keyring.of([k for k in lines if k and not k.startswith("#")], f"the key file {path}")


def _create_key_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as out:
            out.write(_FILE_HEADER + new_key() + "\n")
        with contextlib.suppress(FileExistsError):  # another process made it first: keep theirs
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def load_keyring(keys: Sequence[str], key_file: str, database_url: str) -> Keyring:
    """The keyring of the settings: `GALILEO_ENCRYPTION_KEYS`, else `GALILEO_ENCRYPTION_KEY_FILE` (made if
    missing), else on SQLite the file beside the database (made at first start). On PostgreSQL one of
    the two must be set: the processes sharing the database must share the key."""
    if keys:
        return Keyring.of(keys, "GALILEO_ENCRYPTION_KEYS")
    if key_file:
        return read_key_file(Path(key_file), create=True)
    if database_url.startswith("sqlite:///"):
        database = Path(unquote(database_url[len("sqlite:///") :]))
        return read_key_file(database.parent / KEY_FILE_NAME, create=True)
    raise KeyringError(
        "set GALILEO_ENCRYPTION_KEY_FILE (a file every process of the service reads; made if missing) or "
        "GALILEO_ENCRYPTION_KEYS: on PostgreSQL the processes share the database, so they must share the "
        "key that seals its secrets (docs/operations.md, 'Secrets at rest')"
    )
