"""Passkeys (WebAuthn, the `webauthn` package): registering an account's passkey and signing in with one
(docs/accounts.md). Credentials are discoverable (resident keys): signing in asks for no name and lists no
credential, the authenticator offers the passkeys it holds for this site. There are no passwords.

A ceremony is two requests: its options (a fresh challenge, kept in `galileo_ceremonies` for
CEREMONY_SECONDS) and the browser's answer, verified against that challenge, the relying party's ID and
its origins, then the challenge is gone (used once).
"""

from __future__ import annotations

import ipaddress
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from api.accounts import Account, AccountStore, Ceremony, Passkey
from api.settings import Settings

CEREMONY_SECONDS = 300
RP_NAME = "Galileo Galilei"
REGISTER, SIGN_IN = "register", "sign-in"


class PasskeyRefused(ValueError):
    """A ceremony the service refuses: `code` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class RelyingParty:
    rp_id: str
    origins: tuple[str, ...]

    @classmethod
    def of(cls, settings: Settings) -> RelyingParty:
        """From the settings; by default `public_url`'s host (an IP address cannot be a relying party's
        ID: then "localhost", and the origins are both the IP's and localhost's)."""
        parts = urlsplit(settings.public_url)
        host = parts.hostname or "localhost"
        origin = f"{parts.scheme}://{parts.netloc}"
        origins = [origin]
        try:
            ipaddress.ip_address(host)
        except ValueError:
            default_id = host
        else:
            default_id = "localhost"
            origins.append(f"{parts.scheme}://localhost" + (f":{parts.port}" if parts.port else ""))
        return cls(settings.passkey_rp_id or default_id, tuple(settings.passkey_origins or origins))


def _options(options: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(options_to_json(options))
    return out


def begin_registration(
    rp: RelyingParty, accounts: AccountStore, now: datetime, name: str | None, account: Account | None
) -> tuple[str, dict[str, Any]]:
    """The options of `navigator.credentials.create` for a new account named `name`, or for another
    passkey of `account`; returns (ceremony ID, options)."""
    user_handle = account.user_handle if account else bytes_to_base64url(secrets.token_bytes(32))
    user_name = account.name if account else str(name)
    exclude = [
        PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
        for c in (accounts.passkeys_of(account.account_id) if account else [])
    ]
    options = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=RP_NAME,
        user_name=user_name,
        user_id=base64url_to_bytes(user_handle),
        user_display_name=user_name,
        timeout=CEREMONY_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=exclude,
    )
    ceremony = Ceremony(
        "wc_" + secrets.token_urlsafe(24),
        REGISTER,
        bytes_to_base64url(options.challenge),
        account.account_id if account else None,
        None if account else name,
        user_handle,
    )
    accounts.begin(ceremony, now, now + timedelta(seconds=CEREMONY_SECONDS))
    return ceremony.ceremony_id, _options(options)


def finish_registration(
    rp: RelyingParty,
    accounts: AccountStore,
    now: datetime,
    ceremony_id: str,
    credential: dict[str, Any],
    signed_in: str | None,
) -> tuple[Account, bool]:
    """Verify the browser's new credential; store it (and the new account). Returns (account, new).
    `signed_in` is the caller's account: a ceremony that adds a passkey to an account is finished only
    by that account's session, one that makes a new account only without a session."""
    ceremony = accounts.take(ceremony_id, REGISTER, now)
    if ceremony is None:
        raise PasskeyRefused("unknown-ceremony", "this registration expired or was answered already")
    if ceremony.account_id != signed_in:
        raise PasskeyRefused("another-account", "this registration was begun by another session")
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(ceremony.challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=list(rp.origins),
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise PasskeyRefused("passkey-rejected", f"the passkey was not accepted: {error}") from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if accounts.passkey(credential_id) is not None:
        raise PasskeyRefused("passkey-known", "this passkey is registered already")
    transports = credential.get("response", {}).get("transports") or []
    passkey = Passkey(
        credential_id,
        ceremony.account_id or "",
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
        ",".join(str(t) for t in transports if isinstance(t, str)),
    )
    if ceremony.account_id is not None:
        account = accounts.account(ceremony.account_id)
        if account is None:
            raise PasskeyRefused("unknown-account", "the account no longer exists")
        accounts.add_passkey(account.account_id, passkey, now)
        return account, False
    assert ceremony.name is not None and ceremony.user_handle is not None
    return accounts.register(ceremony.name, ceremony.user_handle, passkey, now), True


def begin_sign_in(rp: RelyingParty, accounts: AccountStore, now: datetime) -> tuple[str, dict[str, Any]]:
    """The options of `navigator.credentials.get`: no credential listed (discoverable credentials)."""
    options = generate_authentication_options(
        rp_id=rp.rp_id,
        timeout=CEREMONY_SECONDS * 1000,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    ceremony = Ceremony(
        "wc_" + secrets.token_urlsafe(24), SIGN_IN, bytes_to_base64url(options.challenge), None, None, None
    )
    accounts.begin(ceremony, now, now + timedelta(seconds=CEREMONY_SECONDS))
    return ceremony.ceremony_id, _options(options)


def finish_sign_in(
    rp: RelyingParty, accounts: AccountStore, now: datetime, ceremony_id: str, credential: dict[str, Any]
) -> Account:
    """Verify the browser's assertion against the stored passkey; the account it signs in."""
    ceremony = accounts.take(ceremony_id, SIGN_IN, now)
    if ceremony is None:
        raise PasskeyRefused("unknown-ceremony", "this sign-in expired or was answered already")
    raw_id = credential.get("rawId") or credential.get("id")
    passkey = accounts.passkey(str(raw_id)) if isinstance(raw_id, str) else None
    if passkey is None:
        raise PasskeyRefused("unknown-passkey", "this passkey belongs to no account here")
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(ceremony.challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=list(rp.origins),
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise PasskeyRefused("passkey-rejected", f"the passkey was not accepted: {error}") from None
    account = accounts.account(passkey.account_id)
    if account is None:
        raise PasskeyRefused("unknown-passkey", "this passkey belongs to no account here")
    accounts.passkey_used(passkey.credential_id, verified.new_sign_count, now)
    return account
