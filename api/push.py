"""Web Push (RFC 8030) with VAPID (RFC 8292) and message encryption (RFC 8291, `aes128gcm`): `pywebpush`
encrypts a message for a subscription's keys, `py_vapid` signs the VAPID JWT, and the message goes to the
push service's endpoint through api/egress.py, as a webhook does (the endpoint's host must resolve to a
public address, or one of `GALILEO_WEBHOOK_ALLOW_NETWORKS`; docs/notifications.md).

The VAPID key is `GALILEO_VAPID_PRIVATE_KEY`, else generated at the first start and kept sealed under the
server's keys (api/crypto.py) in `galileo_service_keys` (every process reads the same one back). It is
never logged; the public key is what `GET /push/key` gives browsers (`applicationServerKey`).
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPusher

from api import egress
from api.reach import Subscription

JWT_SECONDS = 12 * 3600  # a VAPID token's lifetime (at most 24 hours, RFC 8292)
GONE = (404, 410)  # the push service no longer knows the subscription


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def new_private_key() -> str:
    """A new VAPID key: base64url of the raw 32-byte P-256 private value."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _b64(key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass(frozen=True, slots=True)
class Vapid:
    """The service's VAPID identity."""

    signer: Vapid02
    subject: str

    @classmethod
    def of(cls, private_key: str, subject: str) -> Vapid:
        text = private_key.strip()
        signer = (
            Vapid02.from_pem(text.encode()) if text.startswith("-----") else Vapid02.from_raw(text.encode())
        )
        return cls(signer, subject)

    @property
    def public_key(self) -> str:
        """The application server key (base64url of the uncompressed P-256 point)."""
        point = self.signer.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return _b64(point)

    def authorization(self, endpoint: str) -> str:
        """The `Authorization: vapid t=<JWT>, k=<public key>` of a message to `endpoint`."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(time.time()) + JWT_SECONDS,
            "sub": self.subject,
        }
        header: str = self.signer.sign(claims)["Authorization"]
        return header


def encrypt(sub: Subscription, payload: bytes) -> bytes:
    """The message encrypted for the subscription (aes128gcm, a new ephemeral key and salt each time)."""
    info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
    body: bytes = WebPusher(info).encode(payload, "aes128gcm")["body"]
    return body


async def send(
    http: httpx.AsyncClient,
    vapid: Vapid,
    sub: Subscription,
    payload: bytes,
    ttl: int,
    allowed: tuple[egress.Network, ...],
    resolve: egress.Resolver,
    timeout: float,
) -> int:
    """Send one push message; the push service's status code. Raises egress.Refused (the endpoint may
    not be reached), httpx.HTTPError or OSError (no answer)."""
    target = await egress.check(sub.endpoint, allowed, resolve, timeout)
    headers = {
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(ttl),
        "Urgency": "normal",
        "Authorization": vapid.authorization(sub.endpoint),
    }
    return await egress.post(http, target, encrypt(sub, payload), headers)


def check_subscription(endpoint: str, p256dh: str, auth: str) -> str | None:
    """Why a subscription cannot be used (its endpoint's form, its keys' sizes), or None."""
    try:
        egress.parse(endpoint)
    except egress.Refused as refused:
        return f"endpoint: {refused}"
    try:
        point = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
    except ValueError:
        return "keys must be base64url"
    if len(point) != 65 or point[0] != 4:
        return "keys.p256dh must be an uncompressed P-256 point (65 bytes)"
    if len(secret) != 16:
        return "keys.auth must be 16 bytes"
    return None
