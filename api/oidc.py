"""Sign-in with OpenID Connect (docs/accounts.md): authlib's Starlette client, the authorization code flow
with PKCE (S256), a nonce and a state, against the provider of the settings (`GALILEO_OIDC_ISSUER`, its
discovery document; `GALILEO_OIDC_CLIENT_ID` / `_SECRET`).

The state, the nonce and the PKCE verifier stay on the server (`StoreCache`: authlib's cache, kept in
`galileo_ceremonies` for ten minutes); the browser holds only a signed marker of the state in a
short-lived cookie (Starlette's SessionMiddleware, `galileo_oidc`), so that a callback is accepted only
from the browser that began the sign-in (RFC 6749 section 10.12). An identity (issuer, subject) signs in
one account (`galileo_identities`); the first sign-in creates it, named from the `name` or
`preferred_username` claim. No email address is stored.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from api.accounts import NAME_MAX, Account, clean_name

if TYPE_CHECKING:
    from api.runtime import Runtime

STATE_SECONDS = 600
CLIENT = "oidc"
CALLBACK = "/session/oidc/callback"
COOKIE = "galileo_oidc"


class SignInRefused(ValueError):
    """A sign-in that ended without an account: `code` names why (shown on the account page)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class StoreCache:
    """authlib's cache interface (async get / set / delete) over the account store."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    async def get(self, key: str) -> str | None:
        return await run_in_threadpool(self._runtime.accounts.value, key, self._runtime.clock())

    async def set(self, key: str, value: str, expires: int | None = None) -> None:
        now = self._runtime.clock()
        until = now + timedelta(seconds=min(expires or STATE_SECONDS, STATE_SECONDS))
        await run_in_threadpool(self._runtime.accounts.put_value, key, value, now, until)

    async def delete(self, key: str) -> None:
        await run_in_threadpool(self._runtime.accounts.drop_value, key)


def configured(runtime: Runtime) -> bool:
    settings = runtime.settings
    return bool(settings.oidc_issuer and settings.oidc_client_id)


def client(runtime: Runtime) -> Any:
    """The authlib client of the configured provider (made once per runtime)."""
    made = runtime.__dict__.get("_oidc_client")
    if made is None:
        # Imported here: a service without a provider never loads authlib (nor its warnings at start-up).
        from authlib.integrations.starlette_client import OAuth

        settings = runtime.settings
        oauth = OAuth(cache=StoreCache(runtime))
        oauth.register(
            name=CLIENT,
            client_id=settings.oidc_client_id,
            client_secret=settings.oidc_client_secret or None,
            server_metadata_url=settings.oidc_issuer.rstrip("/") + "/.well-known/openid-configuration",
            client_kwargs={"scope": "openid profile", "code_challenge_method": "S256"},
        )
        made = oauth.create_client(CLIENT)
        runtime.__dict__["_oidc_client"] = made
    return made


def redirect_uri(runtime: Runtime) -> str:
    return runtime.settings.public_url.rstrip("/") + CALLBACK


def _name(claims: dict[str, Any]) -> str:
    for key in ("name", "preferred_username", "nickname"):
        value = claims.get(key)
        if isinstance(value, str) and value.strip():
            try:
                return clean_name(value[:NAME_MAX])
            except ValueError:
                continue
    return "Player"


async def finish(runtime: Runtime, request: Any) -> Account:
    """The account of a provider's answer to our redirect; SignInRefused for a refused consent, a state
    that is not this browser's, or a token the client does not accept."""
    error = request.query_params.get("error")
    if error is not None:
        code = "consent-refused" if error == "access_denied" else "provider-error"
        raise SignInRefused(code, "the provider did not sign you in")
    from authlib.integrations.starlette_client import OAuthError

    oidc = client(runtime)
    try:
        token = await oidc.authorize_access_token(request)
    except OAuthError as failure:
        if failure.error == "mismatching_state":
            raise SignInRefused(
                "bad-state", "this sign-in was not begun by this browser, or expired"
            ) from None
        raise SignInRefused("token-rejected", "the provider's answer was not accepted") from None
    except ValueError:  # a malformed ID token
        raise SignInRefused("token-rejected", "the provider's answer was not accepted") from None
    claims = token.get("userinfo") or {}
    subject = claims.get("sub")
    issuer = claims.get("iss") or runtime.settings.oidc_issuer
    if not isinstance(subject, str) or not subject:
        raise SignInRefused("token-rejected", "the provider named no subject")
    accounts = runtime.accounts
    account = await run_in_threadpool(accounts.identity, str(issuer), subject)
    if account is None:
        account = await run_in_threadpool(
            accounts.register_identity, _name(dict(claims)), str(issuer), subject, runtime.clock()
        )
    return account
