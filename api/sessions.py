"""Sessions (ACCT-3, docs/accounts.md): the cookie that says which account a browser is signed in to, and
the CSRF check of every write it authenticates.

The cookie holds a random session token (`gs_...`): HttpOnly (no script reads it), Secure, SameSite=Lax,
Path=/. The service stores only its SHA-256. A write authenticated by the cookie must also send the
session's CSRF token (`X-CSRF-Token`, from `GET /me` or the sign-in answer): another site can make a
browser send the cookie, never the header with the right value. Seat tokens remain bearer tokens: the
routes they authenticate read no cookie, so they need no CSRF token.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request, Response
from starlette.concurrency import run_in_threadpool

from api import i18n
from api.accounts import SESSION_PREFIX, Account, csrf_token, new_session_token, session_hash
from api.deps import RuntimeDep
from api.problems import ApiError
from api.runtime import Runtime

COOKIE = "galileo_session"
CSRF_HEADER = "x-csrf-token"
_CLEAR = f"{COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"


@dataclass(frozen=True, slots=True)
class Session:
    account: Account
    token: str  # the cookie's session token (never stored, never logged)

    @property
    def csrf(self) -> str:
        return csrf_token(self.token)


def _invalid(detail: str) -> ApiError:
    # The browser is told to drop the cookie: it opens nothing.
    return ApiError(401, "invalid-session", detail, headers={"Set-Cookie": _CLEAR})


async def current_session(request: Request, runtime: Runtime) -> Session | None:
    """The session of the request's cookie; None without one; 401 for a forged, unknown or expired one."""
    token = request.cookies.get(COOKIE)
    if token is None:
        return None
    if not token.startswith(SESSION_PREFIX) or len(token) > 100:
        raise _invalid("the session cookie is not valid: sign in again")
    account = await run_in_threadpool(runtime.accounts.session, session_hash(token), runtime.clock())
    if account is None:
        raise _invalid("the session is unknown or has expired: sign in again")
    return Session(account, token)


async def optional_session(request: Request, runtime: RuntimeDep) -> Session | None:
    return await current_session(request, runtime)


async def signed_in(request: Request, runtime: RuntimeDep) -> Session:
    """The caller's session; 401 when not signed in."""
    session = await current_session(request, runtime)
    if session is None:
        raise ApiError(401, "sign-in-required", "sign in first (a passkey: /account)")
    return session


def check_csrf(request: Request, session: Session) -> None:
    """ACCT-3: a cookie-authenticated write carries the session's CSRF token; 403 otherwise."""
    sent = request.headers.get(CSRF_HEADER)
    if sent is None:
        raise ApiError(
            403,
            "csrf-token-required",
            "a write with the session cookie needs its X-CSRF-Token header (ACCT-3)",
        )
    if not hmac.compare_digest(sent.encode("utf-8"), session.csrf.encode("utf-8")):
        raise ApiError(403, "csrf-token-invalid", "the X-CSRF-Token header is not this session's (ACCT-3)")


async def writing_session(request: Request, runtime: RuntimeDep) -> Session:
    """The caller's session for a write: signed in, and the CSRF header right (ACCT-3)."""
    session = await signed_in(request, runtime)
    check_csrf(request, session)
    return session


OptionalSession = Annotated[Session | None, Depends(optional_session)]
SignedIn = Annotated[Session, Depends(signed_in)]
WritingSession = Annotated[Session, Depends(writing_session)]


async def open_session(runtime: Runtime, account: Account, response: Response) -> Session:
    """Sign `account` in: a new session, its cookie set on `response`."""
    token = new_session_token()
    now = runtime.clock()
    seconds = int(runtime.settings.session_days * 86400)
    await run_in_threadpool(
        runtime.accounts.open_session,
        account.account_id,
        session_hash(token),
        now,
        now + timedelta(seconds=seconds),
    )
    response.set_cookie(
        COOKIE,
        token,
        max_age=seconds,
        path="/",
        secure=runtime.settings.cookie_secure,
        httponly=True,
        samesite="lax",
    )
    chosen = i18n.chosen(await run_in_threadpool(runtime.accounts.language, account.account_id))
    if chosen is not None:  # the account's language follows it to this browser (docs/i18n.md)
        response.set_cookie(
            i18n.COOKIE,
            chosen,
            max_age=i18n.COOKIE_MAX_AGE,
            path="/",
            secure=runtime.settings.cookie_secure,
            samesite="lax",
        )
    return Session(account, token)


async def close_session(runtime: Runtime, session: Session, response: Response) -> None:
    await run_in_threadpool(runtime.accounts.close_session, session_hash(session.token))
    response.delete_cookie(
        COOKIE, path="/", secure=runtime.settings.cookie_secure, httponly=True, samesite="lax"
    )
