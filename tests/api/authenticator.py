"""A software passkey authenticator for the API tests: it does what a platform authenticator and the
browser do (WebAuthn Level 2, "none" attestation, ES256, discoverable credentials), so the server's
verification runs for real without a browser. The browser test (tests/api/test_passkeys_browser.py)
uses Chromium's own virtual authenticator instead.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers.encode_cbor import encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, verified, attested data


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    credential_id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0


@dataclass
class Authenticator:
    """Holds discoverable credentials; answers `create` and `get` as a browser would for `origin`."""

    origin: str
    credentials: list[Credential] = field(default_factory=list)

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode("utf-8")

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """`navigator.credentials.create({publicKey: options})`, as `PublicKeyCredential.toJSON()`."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        credential = Credential(secrets.token_bytes(16), key, rp_id, unb64url(options["user"]["id"]))
        self.credentials.append(credential)
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + struct.pack(">I", 0)
            + bytes(16)  # AAGUID: none
            + struct.pack(">H", len(credential.credential_id))
            + credential.credential_id
            + encode_cbor(cose)
        )
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64url(credential.credential_id),
            "rawId": b64url(credential.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self, options: dict[str, Any], origin: str | None = None, credential: Credential | None = None
    ) -> dict[str, Any]:
        """`navigator.credentials.get({publicKey: options})` with a discoverable credential of the RP."""
        rp_id = options["rpId"]
        chosen = credential or next(c for c in self.credentials if c.rp_id == rp_id)
        chosen.sign_count += 1
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([UP | UV]) + struct.pack(">I", chosen.sign_count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = chosen.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64url(chosen.credential_id),
            "rawId": b64url(chosen.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(chosen.user_handle),
            },
            "clientExtensionResults": {},
        }
