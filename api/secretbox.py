"""What the notifications keep sealed (docs/notifications.md, "Secrets and personal data"), under the
server's keys (api/crypto.py, docs/operations.md "Secrets at rest": `GALILEO_ENCRYPTION_KEYS` or the key
file):
email addresses, push subscriptions' endpoints and keys, the generated VAPID key, a confirmation mail
waiting in the outbox. It also signs the mails' one-click links and makes the keyed digests that find a
sealed value again (sealing is randomised: equal texts seal differently).

Signatures and digests are HMAC-SHA256 under a key derived from the current sealing key: putting a new key
first (a rotation) makes the unsubscribe links of mails sent before it invalid (a person then uses the
link of a newer mail, or the account page).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from api.crypto import Keyring, Unsealable

AAD = "galileo-notifications"  # the associated data of every value sealed here


class SecretBox:
    """Seals, opens and signs with the server's keyring."""

    def __init__(self, keyring: Keyring) -> None:
        self._keyring = keyring
        self._mac_key = hmac.new(keyring.keys[0], b"galileo-notification-links", hashlib.sha256).digest()

    def seal(self, text: str) -> str:
        return self._keyring.seal(text, AAD)

    def open(self, sealed: str) -> str:
        """The text of `seal`; ValueError if no configured key opens it, or it was altered."""
        try:
            return self._keyring.open(sealed, AAD)
        except Unsealable as error:
            raise ValueError(str(error)) from None

    def sign(self, message: str) -> str:
        """A signature of `message` (base64url, 22 characters: 128 bits of HMAC-SHA256)."""
        digest = hmac.new(self._mac_key, message.encode("utf-8"), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def verify(self, message: str, signature: str) -> bool:
        return hmac.compare_digest(self.sign(message).encode("ascii"), signature.encode("utf-8"))

    def lookup(self, text: str) -> str:
        """A keyed digest of `text`, to find its sealed row again without opening every row."""
        return hmac.new(self._mac_key, b"lookup:" + text.encode("utf-8"), hashlib.sha256).hexdigest()
