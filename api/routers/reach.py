"""Turn notifications that reach a closed tab (docs/notifications.md): an email address and Web Push
devices, given by a signed-in account (for all its claimed seats, with a choice per game) or with a seat's
token (that seat only, no account). A new address gets a confirmation mail and nothing else until its link
is opened (ACCT-5); every turn mail carries a signed one-click unsubscribe (RFC 8058).
"""

from __future__ import annotations

import html
from email.headerregistry import Address as MailAddress
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from api import messages, push, tell
from api.contract import errors
from api.deps import GameId, RuntimeDep
from api.i18n import locale_of
from api.notify import queue_present
from api.problems import ApiError
from api.reach import ACCOUNT, SEAT, UNSUBSCRIBED, Prefs, Subscription, seat_owner
from api.reach_schemas import EmailIn, EmailOut, GameChoice, PushIn, PushOut, Reach, VapidKey
from api.routers import pages
from api.routers.table import SEAT_ACTS, SeatCaller
from api.runtime import Runtime
from api.sessions import SignedIn, WritingSession

router = APIRouter(tags=["notifications"])

SESSION = {"x-seat-token": "session"}
SEAT_TOKEN = {"x-seat-token": "required"}
RULE_MAIL = "ACCT-5"


def clean_address(raw: str) -> str:
    """An address as typed, checked (one `@`, no spaces or line breaks); 422 `invalid-address`."""
    text = raw.strip()
    try:
        parsed = MailAddress(addr_spec=text)
    except (ValueError, IndexError):
        parsed = None
    if parsed is None or not parsed.domain or not parsed.username or any(c.isspace() for c in text):
        raise ApiError(422, "invalid-address", "not an email address (name@example.org)")
    return text


def _subscription(body: PushIn) -> Subscription:
    reason = push.check_subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    if reason:
        raise ApiError(422, "invalid-subscription", reason)
    return Subscription("", body.endpoint, body.keys.p256dh, body.keys.auth)


async def _reach(runtime: Runtime, kind: str, owner: str) -> Reach:
    address = await run_in_threadpool(runtime.reach.address_of, kind, owner)
    subs = await run_in_threadpool(runtime.reach.subscriptions, kind, owner)
    return Reach(
        email=None if address is None else EmailOut(**address.to_json()),
        push_devices=len(subs),
        vapid_public_key=runtime.vapid.public_key,
    )


async def _set_email(
    runtime: Runtime, kind: str, owner: str, body: EmailIn, scope: str, locale: str
) -> EmailOut:
    """Give the owner `address`; its mails will be written in `locale` (the request's) unless the
    account chose a language (`PUT /me/language`)."""
    address = clean_address(body.address)
    reach = runtime.reach
    await run_in_threadpool(reach.set_language, kind, owner, locale)
    known = await run_in_threadpool(reach.address_of, kind, owner)
    if known is not None and known.address == address and known.status != UNSUBSCRIBED:
        await run_in_threadpool(reach.set_mode, kind, owner, body.mode)  # the same address: a new mode
        return EmailOut(**{**known.to_json(), "mode": body.mode})
    address_id, token = await run_in_threadpool(
        reach.set_address, kind, owner, address, body.mode, runtime.clock()
    )
    chosen = await run_in_threadpool(tell.language_of, runtime, kind, owner)
    await tell.queue_confirmation(runtime, address_id, token, scope, chosen)
    return EmailOut(address=address, mode=body.mode, status="pending")


# -- an account's ----------------------------------------------------------------------------------------


@router.get(
    "/me/notifications",
    operation_id="getMyNotifications",
    response_model=Reach,
    responses=errors(401),
    openapi_extra=SESSION,
)
async def my_notifications(session: SignedIn, runtime: RuntimeDep) -> Reach:
    """Your address (and its state) and how many of your devices get push notifications."""
    return await _reach(runtime, ACCOUNT, session.account.account_id)


@router.put(
    "/me/email",
    operation_id="setMyEmail",
    response_model=EmailOut,
    status_code=202,
    responses=errors(401, 403, 422),
    openapi_extra=SESSION,
)
async def set_my_email(
    body: EmailIn, request: Request, session: WritingSession, runtime: RuntimeDep
) -> EmailOut:
    """Be told of your turns in the games of your claimed seats by mail (`X-CSRF-Token` required). A new
    address is `pending`: a confirmation mail is sent to it, and nothing else until its link is opened
    (ACCT-5). The same address again only changes the mode. The mails are in the language you chose
    (`PUT /me/language`), else in this request's (docs/i18n.md)."""
    account_id = session.account.account_id
    locale = await run_in_threadpool(runtime.accounts.language, account_id) or locale_of(request)
    scope = messages.say(locale, messages.CONFIRM_SCOPE_ACCOUNT, name=session.account.name)
    return await _set_email(runtime, ACCOUNT, account_id, body, scope, locale_of(request))


@router.delete(
    "/me/email",
    operation_id="deleteMyEmail",
    status_code=204,
    responses=errors(401, 403),
    openapi_extra=SESSION,
)
async def delete_my_email(session: WritingSession, runtime: RuntimeDep) -> Response:
    """Remove your address: it is erased, and the mails queued for it are not sent."""
    await run_in_threadpool(runtime.reach.drop_address, ACCOUNT, session.account.account_id)
    return Response(status_code=204)


@router.put(
    "/me/push",
    operation_id="addMyPushDevice",
    status_code=204,
    responses=errors(401, 403, 422),
    openapi_extra=SESSION,
)
async def add_my_push(body: PushIn, session: WritingSession, runtime: RuntimeDep) -> Response:
    """Add this device's push subscription (`PushSubscription.toJSON()`): your turns in the games of your
    claimed seats are pushed to it. Its keys are kept encrypted."""
    sub = _subscription(body)
    await run_in_threadpool(
        runtime.reach.add_subscription, ACCOUNT, session.account.account_id, sub, runtime.clock()
    )
    return Response(status_code=204)


@router.post(
    "/me/push/remove",
    operation_id="removeMyPushDevice",
    status_code=204,
    responses=errors(401, 403),
    openapi_extra=SESSION,
)
async def remove_my_push(body: PushOut, session: WritingSession, runtime: RuntimeDep) -> Response:
    """Stop pushing to a device (its subscription's `endpoint`)."""
    await run_in_threadpool(
        runtime.reach.drop_subscription, ACCOUNT, session.account.account_id, body.endpoint
    )
    return Response(status_code=204)


@router.get(
    "/me/games/{game_id}/notifications",
    operation_id="getGameNotifications",
    response_model=GameChoice,
    responses=errors(401),
    openapi_extra=SESSION,
)
async def game_choice(game_id: GameId, session: SignedIn, runtime: RuntimeDep) -> GameChoice:
    """Your choice for one game (`email` null: your address's mode; `push` true by default)."""
    prefs = await run_in_threadpool(runtime.reach.prefs, session.account.account_id, game_id)
    return GameChoice.model_validate({"email": prefs.email or None, "push": prefs.push})


@router.put(
    "/me/games/{game_id}/notifications",
    operation_id="setGameNotifications",
    response_model=GameChoice,
    responses=errors(401, 403),
    openapi_extra=SESSION,
)
async def set_game_choice(
    game_id: GameId, body: GameChoice, session: WritingSession, runtime: RuntimeDep
) -> GameChoice:
    """Your choice for one game: its mails per turn, in the daily digest or none, and its pushes."""
    prefs = Prefs(body.email or "", body.push)
    await run_in_threadpool(runtime.reach.set_prefs, session.account.account_id, game_id, prefs)
    return body


# -- a seat's (no account) --------------------------------------------------------------------------------


@router.get(
    "/games/{game_id}/reach",
    operation_id="getSeatNotifications",
    response_model=Reach,
    responses=errors(401, 403, 404),
    openapi_extra=SEAT_TOKEN,
)
async def seat_notifications(game_id: GameId, seat: SeatCaller, runtime: RuntimeDep) -> Reach:
    """Your seat's address (and its state) and push devices."""
    return await _reach(runtime, SEAT, seat_owner(game_id, seat.seat))


@router.put(
    "/games/{game_id}/email",
    operation_id="setSeatEmail",
    response_model=EmailOut,
    status_code=202,
    responses=errors(401, 403, 404, 422, 429),
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT_TOKEN,
)
async def set_seat_email(
    game_id: GameId, body: EmailIn, request: Request, seat: SeatCaller, runtime: RuntimeDep
) -> EmailOut:
    """Be told of your seat's turns by mail, no account needed: a confirmation mail goes to the address
    first, and nothing else until its link is opened (ACCT-5). The mails are in this request's language
    (`Accept-Language`, the `galileo_lang` cookie or `?lang=`; docs/i18n.md)."""
    locale = locale_of(request)
    scope = messages.say(locale, messages.CONFIRM_SCOPE_SEAT, game=game_id, seat=seat.seat)
    return await _set_email(runtime, SEAT, seat_owner(game_id, seat.seat), body, scope, locale)


@router.delete(
    "/games/{game_id}/email",
    operation_id="deleteSeatEmail",
    status_code=204,
    responses=errors(401, 403, 404, 429),
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT_TOKEN,
)
async def delete_seat_email(game_id: GameId, seat: SeatCaller, runtime: RuntimeDep) -> Response:
    """Remove your seat's address (erased)."""
    await run_in_threadpool(runtime.reach.drop_address, SEAT, seat_owner(game_id, seat.seat))
    return Response(status_code=204)


@router.put(
    "/games/{game_id}/push",
    operation_id="addSeatPushDevice",
    status_code=204,
    responses=errors(401, 403, 404, 422, 429),
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT_TOKEN,
)
async def add_seat_push(
    game_id: GameId, body: PushIn, request: Request, seat: SeatCaller, runtime: RuntimeDep
) -> Response:
    """Push your seat's turns to this device (`PushSubscription.toJSON()`; keys kept encrypted), in this
    request's language (docs/i18n.md)."""
    sub = _subscription(body)
    owner = seat_owner(game_id, seat.seat)
    await run_in_threadpool(runtime.reach.set_language, SEAT, owner, locale_of(request))
    await run_in_threadpool(runtime.reach.add_subscription, SEAT, owner, sub, runtime.clock())
    return Response(status_code=204)


@router.post(
    "/games/{game_id}/push/remove",
    operation_id="removeSeatPushDevice",
    status_code=204,
    responses=errors(401, 403, 404, 429),
    dependencies=SEAT_ACTS,
    openapi_extra=SEAT_TOKEN,
)
async def remove_seat_push(game_id: GameId, body: PushOut, seat: SeatCaller, runtime: RuntimeDep) -> Response:
    """Stop pushing your seat's turns to a device."""
    owner = seat_owner(game_id, seat.seat)
    await run_in_threadpool(runtime.reach.drop_subscription, SEAT, owner, body.endpoint)
    return Response(status_code=204)


# -- public: the VAPID key and the mail links ----------------------------------------------------------------


@router.get("/push/key", operation_id="getPushKey", response_model=VapidKey)
async def push_key(runtime: RuntimeDep) -> VapidKey:
    """The service's VAPID public key, for `pushManager.subscribe({applicationServerKey})`."""
    return VapidKey(public_key=runtime.vapid.public_key)


def _page(locale: str, text: str, form: str = "", status: int = 200) -> HTMLResponse:
    """A mail link's small page in `locale`; `text` is one of api/messages.py's (translated here)."""
    body = (
        f"<!doctype html><html lang={html.escape(locale)}><head><meta charset=utf-8>"
        "<title>Galileo Galilei</title><link rel=icon href='data:,'>"
        "<link rel=stylesheet href=/static/style.css></head><body><main>"
        f"<p id=message>{html.escape(messages.say(locale, text))}</p>{form}</main></body></html>"
    )
    headers = {**pages.HEADERS, "Content-Language": locale}
    return HTMLResponse(body, status_code=status, headers=headers)


def _lang_query(locale: str) -> str:
    return f"?lang={locale}" if locale != "en" else ""


async def _form(request: Request) -> dict[str, str]:
    raw = (await request.body()).decode("utf-8", "replace")
    return {k: v[0] for k, v in parse_qs(raw).items()}


@router.get("/mail/confirm", operation_id="confirmEmailPage", response_class=HTMLResponse)
async def confirm_page(request: Request, token: str = Query("", max_length=100)) -> HTMLResponse:
    """The confirmation mail's link: an HTML page with a button that confirms (`POST /mail/confirm`); the
    GET itself changes nothing (a link opened by a mail scanner confirms nothing)."""
    locale = locale_of(request)
    form = (
        f'<form method=post action="/mail/confirm{html.escape(_lang_query(locale))}">'
        f'<input type=hidden name=token value="{html.escape(token)}">'
        f"<button id=confirm>{html.escape(messages.say(locale, messages.PAGE_CONFIRM_BUTTON))}</button>"
        "</form>"
    )
    return _page(locale, messages.PAGE_CONFIRM, form)


@router.post("/mail/confirm", operation_id="confirmEmail", response_class=HTMLResponse, responses=errors(404))
async def confirm(request: Request, runtime: RuntimeDep) -> HTMLResponse:
    """Confirm an address (form field `token`, from the confirmation mail): mails may be sent to it now
    (ACCT-5). 404 `unknown-confirmation` for a token that is unknown, used or replaced: nothing
    changes."""
    token = (await _form(request)).get("token", "")
    found = await run_in_threadpool(runtime.reach.confirm, token) if token else None
    if found is None:
        raise ApiError(404, "unknown-confirmation", messages.PAGE_BAD_LINK, rule_id=RULE_MAIL)
    if found.owner_kind == SEAT:  # the turn it may be already is told at once
        await queue_present(runtime, found.owner.rsplit(":", 1)[0])
    return _page(locale_of(request), messages.PAGE_CONFIRMED)


def _unsubscribe_check(runtime: Runtime, a: str, g: str, s: str) -> None:
    if not runtime.box.verify(f"unsubscribe|{a}|{g}", s):
        raise ApiError(
            403, "bad-signature", "this unsubscribe link was altered: nothing changed", rule_id=RULE_MAIL
        )


@router.get("/mail/unsubscribe", operation_id="unsubscribeEmailPage", response_class=HTMLResponse)
async def unsubscribe_page(
    request: Request,
    runtime: RuntimeDep,
    a: str = Query("", max_length=40),
    g: str = Query("", max_length=64),
    s: str = Query("", max_length=40),
) -> HTMLResponse:
    """The unsubscribe link opened by a person: an HTML page with a button that unsubscribes (a mail
    program's one click POSTs instead); the GET itself changes nothing, and a link whose signature does
    not match gets a page that says so."""
    locale = locale_of(request)
    if not runtime.box.verify(f"unsubscribe|{a}|{g}", s):
        return _page(locale, messages.PAGE_BAD_LINK)
    action = html.escape(
        f"/mail/unsubscribe?a={a}&g={g}&s={s}" + (f"&lang={locale}" if locale != "en" else "")
    )
    form = (
        f'<form method=post action="{action}">'
        "<input type=hidden name=List-Unsubscribe value=One-Click>"
        f"<button id=unsubscribe>{html.escape(messages.say(locale, messages.PAGE_UNSUBSCRIBE_BUTTON))}"
        "</button></form>"
    )
    return _page(locale, messages.PAGE_UNSUBSCRIBE, form)


@router.post(
    "/mail/unsubscribe", operation_id="unsubscribeEmail", response_class=HTMLResponse, responses=errors(403)
)
async def unsubscribe(
    request: Request,
    runtime: RuntimeDep,
    a: str = Query(max_length=40),
    g: str = Query("", max_length=64),
    s: str = Query(max_length=40),
) -> HTMLResponse:
    """One-click unsubscribe (RFC 8058: `List-Unsubscribe=One-Click` posted to the mail's
    `List-Unsubscribe` URL): the link is signed by the service; with `g`, that game's mails stop (an
    account's choice for the game becomes `off`), without it every mail to the address. A link with a bad
    signature is refused (403 `bad-signature`, ACCT-5) and changes nothing."""
    _unsubscribe_check(runtime, a, g, s)
    reach = runtime.reach
    found = await run_in_threadpool(reach.address, a)
    if found is not None:
        if g and found.owner_kind == ACCOUNT:
            prefs = await run_in_threadpool(reach.prefs, found.owner, g)
            await run_in_threadpool(reach.set_prefs, found.owner, g, Prefs("off", prefs.push))
        else:
            await run_in_threadpool(reach.set_status, a, UNSUBSCRIBED)
    return _page(locale_of(request), messages.PAGE_UNSUBSCRIBED)
