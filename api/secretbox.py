"""The service's data key: encrypts what it must read back but never show (push subscriptions' keys and
endpoints, email addresses, the generated VAPID key) and signs its one-click links (docs/notifications.md,
"Secrets").

The key is `GALILEO_DATA_KEY` (a Fernet key: 32 bytes in URL-safe base64), else the key file: generated at
the first start (mode 0600) beside the SQLite database, or in `./data` with PostgreSQL. Several processes
that share a PostgreSQL database must share the key: set `GALILEO_DATA_KEY` (or one key file). The key is
never logged; a database dump without it opens none of these values.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from pathlib import Path
from urllib.parse import unquote

from cryptography.fernet import Fernet, InvalidToken

KEY_FILE_NAME = "galileo-data.key"


class SecretBox:
    """Encrypts and decrypts text under the data key (Fernet: AES-128-CBC with HMAC-SHA256), and signs."""

    def __init__(self, key: bytes) -> None:
        self._fernet = Fernet(key)
        # A key of its own for signatures, derived so that no signature is an encryption's MAC.
        self._mac_key = hmac.new(base64.urlsafe_b64decode(key), b"galileo-links", hashlib.sha256).digest()

    def seal(self, text: str) -> str:
        return self._fernet.encrypt(text.encode("utf-8")).decode("ascii")

    def open(self, sealed: str) -> str:
        """The text of `seal`; ValueError if it was sealed under another key or altered."""
        try:
            return self._fernet.decrypt(sealed.encode("ascii")).decode("utf-8")
        except InvalidToken:
            raise ValueError("sealed under another data key, or altered") from None

    def sign(self, message: str) -> str:
        """A signature of `message` (base64url, 22 characters: 128 bits of HMAC-SHA256)."""
        digest = hmac.new(self._mac_key, message.encode("utf-8"), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def verify(self, message: str, signature: str) -> bool:
        return hmac.compare_digest(self.sign(message).encode("ascii"), signature.encode("utf-8"))

    def lookup(self, text: str) -> str:
        """A keyed digest of `text` for finding a sealed value without opening every row (Fernet is
        randomised: equal texts seal differently)."""
        return hmac.new(self._mac_key, b"lookup:" + text.encode("utf-8"), hashlib.sha256).hexdigest()


def key_file(database_url: str, configured: str) -> Path:
    """Where the generated key is kept: `configured`, else beside the SQLite file, else ./data."""
    if configured:
        return Path(configured)
    if database_url.startswith("sqlite:///"):
        path = unquote(database_url[len("sqlite:///") :])
        if path and path != ":memory:":
            return Path(path).parent / KEY_FILE_NAME
    return Path("data") / KEY_FILE_NAME


def load(configured_key: str, path: Path) -> SecretBox:
    """The data key of the settings, else the key file's, generated there at the first start."""
    if configured_key:
        return SecretBox(configured_key.encode("ascii"))
    try:
        return SecretBox(path.read_bytes().strip())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = Fernet.generate_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use its key
        return SecretBox(path.read_bytes().strip())
    with os.fdopen(fd, "wb") as out:
        out.write(key + b"\n")
    return SecretBox(key)
