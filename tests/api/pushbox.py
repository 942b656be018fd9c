"""A push subscriber for the tests: a device's keys (P-256 and an authentication secret, as a browser makes
them), a subscription whose endpoint is a local listener, and what a browser does with a message that
arrives there: decrypt it (`http_ece`, aes128gcm, RFC 8291) and check its VAPID JWT (RFC 8292) under the
key the header names."""

from __future__ import annotations

import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.api.async_helpers import Call


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def subscription(self) -> dict[str, Any]:
        """What `PushSubscription.toJSON()` gives."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def open(self, call: Call) -> dict[str, Any]:
        """The message of a push, decrypted with this device's keys."""
        assert call.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(call.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        message: dict[str, Any] = json.loads(plain)
        return message


def vapid_claims(call: Call, server_key: str) -> dict[str, Any]:
    """The claims of a push's VAPID JWT, after checking its form, its ES256 signature under the key of
    `k=` and that this is the service's key (`server_key`, base64url)."""
    scheme, _, rest = call.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert params["k"] == server_key
    head, payload, signature = params["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(params["k"]))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as error:
        raise AssertionError("the VAPID signature does not verify") from error
    claims: dict[str, Any] = json.loads(unb64(payload))
    return claims


def check_vapid(call: Call, server_key: str, endpoint: str, subject: str) -> None:
    claims = vapid_claims(call, server_key)
    parts = urlsplit(endpoint)
    assert claims["aud"] == f"{parts.scheme}://{parts.netloc}" and claims["sub"] == subject
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
