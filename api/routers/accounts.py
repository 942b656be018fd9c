"""Optional accounts (docs/accounts.md): register a passkey, sign in and out, the account, my games.

No route of the game needs an account: seat links and seat tokens work as before. Signing in sets the
session cookie (api/sessions.py); writes that the cookie authenticates need the `X-CSRF-Token` header.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from api import limits, oidc, passkeys
from api.account_schemas import (
    AccountOut,
    CeremonyOut,
    CredentialIn,
    MyGame,
    MyGames,
    RegisterOptionsIn,
    SeatClock,
    SessionOut,
    SignInOptionsIn,
)
from api.accounts import Account, clean_name
from api.clocks import view_of
from api.contract import errors
from api.deps import RuntimeDep
from api.passkeys import PasskeyRefused, RelyingParty
from api.problems import ApiError
from api.runtime import Runtime
from api.sessions import (
    COOKIE,
    OptionalSession,
    Session,
    SignedIn,
    WritingSession,
    check_csrf,
    close_session,
    open_session,
)
from replays.clock import ClockConfig
from replays.errors import GameNotFound

router = APIRouter(tags=["accounts"])

SESSION = {"x-seat-token": "session"}
OPTIONAL_SESSION = {"x-seat-token": "optional-session"}
MY_GAMES_LIMIT = 200  # the newest claims listed


def _refused(error: PasskeyRefused) -> ApiError:
    conflict = error.code in ("passkey-known", "another-account")
    return ApiError(409 if conflict else 422, error.code, error.message)


async def ceremony_rate(request: Request, runtime: RuntimeDep) -> None:
    """Each ceremony stores a challenge: begun at most at the rate of commands (`GALILEO_RATE_COMMAND`)."""
    await limits.rate(runtime, request, "command")


async def _account_out(runtime: Runtime, session: Session) -> AccountOut:
    account = session.account
    keys = await run_in_threadpool(runtime.accounts.passkeys_of, account.account_id)
    return AccountOut(
        account_id=account.account_id,
        name=account.name,
        created_at=account.created_at,
        passkeys=len(keys),
        csrf_token=session.csrf,
    )


@router.post(
    "/passkeys/register/options",
    operation_id="passkeyRegistrationOptions",
    response_model=CeremonyOut,
    responses=errors(401, 403, 422, 429),
    dependencies=[Depends(ceremony_rate)],
    openapi_extra=OPTIONAL_SESSION,
)
async def register_options(
    body: RegisterOptionsIn, request: Request, session: OptionalSession, runtime: RuntimeDep
) -> CeremonyOut:
    """Begin registering a passkey: for a new account named `name`, or, signed in (with `X-CSRF-Token`),
    another passkey of your account. Passkeys are discoverable: signing in asks for no name."""
    rp = RelyingParty.of(runtime.settings)
    name: str | None = None
    account: Account | None = None
    if session is not None:
        check_csrf(request, session)
        account = session.account
    elif body.name is None:
        raise ApiError(422, "name-required", "a new account needs a name")
    else:
        try:
            name = clean_name(body.name)
        except ValueError as error:
            raise ApiError(422, "invalid-name", str(error)) from None
    ceremony, options = await run_in_threadpool(
        passkeys.begin_registration, rp, runtime.accounts, runtime.clock(), name, account
    )
    return CeremonyOut(ceremony=ceremony, public_key=options)


@router.post(
    "/passkeys/register",
    operation_id="registerPasskey",
    response_model=AccountOut,
    status_code=201,
    responses=errors(401, 403, 409, 422),
    openapi_extra=OPTIONAL_SESSION,
)
async def register(
    body: CredentialIn, request: Request, session: OptionalSession, runtime: RuntimeDep, response: Response
) -> AccountOut:
    """Finish registering: the browser's new credential is verified and stored. A new account is signed
    in (the session cookie is set); a signed-in person's account gets one more passkey."""
    if session is not None:
        check_csrf(request, session)
    rp = RelyingParty.of(runtime.settings)
    try:
        account, new = await run_in_threadpool(
            passkeys.finish_registration,
            rp,
            runtime.accounts,
            runtime.clock(),
            body.ceremony,
            body.credential,
            None if session is None else session.account.account_id,
        )
    except PasskeyRefused as error:
        raise _refused(error) from None
    if new or session is None:
        session = await open_session(runtime, account, response)
    return await _account_out(runtime, session)


@router.post(
    "/session/options",
    operation_id="signInOptions",
    response_model=CeremonyOut,
    responses=errors(422, 429),
    dependencies=[Depends(ceremony_rate)],
)
async def sign_in_options(body: SignInOptionsIn, runtime: RuntimeDep) -> CeremonyOut:
    """Begin signing in with a passkey (the browser offers the passkeys it holds for this site)."""
    rp = RelyingParty.of(runtime.settings)
    ceremony, options = await run_in_threadpool(passkeys.begin_sign_in, rp, runtime.accounts, runtime.clock())
    return CeremonyOut(ceremony=ceremony, public_key=options)


@router.post("/session", operation_id="signIn", response_model=AccountOut, responses=errors(422))
async def sign_in(body: CredentialIn, runtime: RuntimeDep, response: Response) -> AccountOut:
    """Finish signing in: the passkey's signature is verified; the session cookie is set."""
    rp = RelyingParty.of(runtime.settings)
    try:
        account = await run_in_threadpool(
            passkeys.finish_sign_in, rp, runtime.accounts, runtime.clock(), body.ceremony, body.credential
        )
    except PasskeyRefused as error:
        raise _refused(error) from None
    return await _account_out(runtime, await open_session(runtime, account, response))


@router.delete(
    "/session", operation_id="signOut", status_code=204, responses=errors(401, 403), openapi_extra=SESSION
)
async def sign_out(session: WritingSession, runtime: RuntimeDep) -> Response:
    """Sign out: the session ends here and on the server (`X-CSRF-Token` required)."""
    response = Response(status_code=204)
    await close_session(runtime, session, response)
    return response


@router.get(
    "/session",
    operation_id="getSession",
    response_model=SessionOut,
    responses=errors(401),
    openapi_extra=OPTIONAL_SESSION,
)
async def session_now(session: OptionalSession, runtime: RuntimeDep) -> SessionOut:
    """Whether this browser is signed in: the account (with the session's CSRF token) or null, and the
    OpenID Connect provider one may sign in with, if any. The pages ask this rather than `GET /me`, which
    answers 401 to nobody signed in."""
    return SessionOut(
        account=None if session is None else await _account_out(runtime, session),
        oidc=runtime.settings.oidc_name if oidc.configured(runtime) else None,
    )


def _oidc_configured(runtime: Runtime) -> None:
    if not oidc.configured(runtime):
        raise ApiError(404, "oidc-not-configured", "no OpenID Connect provider is configured here")


@router.get(
    "/session/oidc/login",
    operation_id="oidcLogin",
    response_class=RedirectResponse,
    status_code=302,
    responses=errors(404, 429),
    dependencies=[Depends(ceremony_rate)],
)
async def oidc_login(request: Request, runtime: RuntimeDep) -> RedirectResponse:
    """Sign in with the configured OpenID Connect provider: a redirect to it (authorization code flow,
    PKCE S256, state and nonce); it sends the browser back to `/session/oidc/callback`."""
    _oidc_configured(runtime)
    redirect: RedirectResponse = await oidc.client(runtime).authorize_redirect(
        request, oidc.redirect_uri(runtime)
    )
    return redirect


@router.get(
    "/session/oidc/callback",
    operation_id="oidcCallback",
    response_class=RedirectResponse,
    status_code=303,
    responses=errors(404),
)
async def oidc_callback(request: Request, runtime: RuntimeDep) -> RedirectResponse:
    """The provider's answer: signed in, back to `/account` with the session cookie; refused (consent
    refused, a state that is not this browser's, a token not accepted), back to
    `/account?signin_error=<code>` and nothing is stored."""
    _oidc_configured(runtime)
    try:
        account = await oidc.finish(runtime, request)
    except oidc.SignInRefused as refused:
        return RedirectResponse(f"/account?signin_error={refused.code}", status_code=303)
    response = RedirectResponse("/account", status_code=303)
    await open_session(runtime, account, response)
    return response


@router.delete(
    "/me", operation_id="deleteAccount", status_code=204, responses=errors(401, 403), openapi_extra=SESSION
)
async def delete_account(session: WritingSession, runtime: RuntimeDep) -> Response:
    """Delete your account (`X-CSRF-Token` required): its name, passkeys, sessions, claims, email address,
    push subscriptions and notification choices are erased; the games keep only its pseudonyms, which
    nothing links to anyone any more (docs/audit.md)."""
    await run_in_threadpool(runtime.reach.forget_account, session.account.account_id)
    await run_in_threadpool(runtime.accounts.delete, session.account.account_id)
    response = Response(status_code=204)
    response.delete_cookie(
        COOKIE, path="/", secure=runtime.settings.cookie_secure, httponly=True, samesite="lax"
    )
    return response


@router.get(
    "/me", operation_id="getAccount", response_model=AccountOut, responses=errors(401), openapi_extra=SESSION
)
async def me(session: SignedIn, runtime: RuntimeDep) -> AccountOut:
    """The signed-in account, with the session's CSRF token for its writes."""
    return await _account_out(runtime, session)


@router.get(
    "/me/games",
    operation_id="listMyGames",
    response_model=MyGames,
    responses=errors(401),
    openapi_extra=SESSION,
)
async def my_games(session: SignedIn, runtime: RuntimeDep) -> MyGames:
    """The games of your claimed seats, running and finished: whose turn, your time left, and a link
    that opens the seat on this device (ACCT-2)."""
    claims = await run_in_threadpool(runtime.accounts.claims_of, session.account.account_id)
    games = []
    for game_id, seat in claims[:MY_GAMES_LIMIT]:
        entry = await _my_game(runtime, session.account, game_id, seat)
        if entry is not None:
            games.append(entry)
    return MyGames(games=games)


async def _my_game(runtime: Runtime, account: Account, game_id: str, seat: int) -> MyGame | None:
    """The entry of one claim, or None when the game's log no longer has it (handed over since)."""
    try:
        game = await run_in_threadpool(runtime.store.game, game_id)
    except GameNotFound:
        return None
    state = game.state
    assert state is not None
    if game.claims.get(str(seat)) != account.pseudonym(game_id):
        return None
    status = "cancelled" if game.cancelled else "finished" if state.finished else "active"
    to_act = None if status != "active" else state.turn.seat
    clock = None
    record = await runtime.table_of(game_id)
    if record is not None and record.clock is not None:
        view = view_of(ClockConfig.from_json(record.clock), game, runtime.clock())
        clock = SeatClock(
            seconds_left=max(0.0, round(view.left[seat].total_seconds(), 3)),
            deadline=view.deadline.isoformat() if view.seat == seat and view.deadline else None,
            paused=view.paused,
        )
    base = runtime.settings.public_url.rstrip("/")
    return MyGame(
        game_id=game_id,
        seat=seat,
        seat_name=state.players[seat].name,
        status=status,
        version=game.version,
        to_act=to_act,
        to_act_name=None if to_act is None else state.players[to_act].name,
        your_turn=to_act == seat,
        clock=clock,
        link=f"{base}/play/{game_id}#seat={seat}",
        replay_link=f"{base}/replay/{game_id}",
    )
