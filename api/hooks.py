"""Registering a seat's webhook (docs/async.md): at creation or later with the seat's token. Each
registration is checked (api/egress.py: its form, and where its host resolves; HOOK-1), gets its own id,
to which the notifications queued for it are bound, and draws a new signing secret, returned to the
registrant only. A secret's rotation keeps the registration and signs with both secrets for a while."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from starlette.concurrency import run_in_threadpool

from api import egress
from api.notify import new_secret, queue_present
from api.problems import ApiError
from api.runtime import Runtime
from api.schemas import CreateGame, SeatOut
from api.tables import Hook
from rulebook import rule_url

RULE = "HOOK-1"


def refused(detail: str) -> ApiError:
    return ApiError(422, "invalid-webhook", detail, rule_id=RULE, rule_url=rule_url(RULE))


async def check(runtime: Runtime, url: str) -> None:
    """Refuse (422 invalid-webhook, HOOK-1) a URL the service would not deliver to."""
    settings = runtime.settings
    try:
        await egress.check(url, settings.webhook_networks, runtime.resolve, settings.webhook_timeout_seconds)
    except egress.Refused as refusal:
        raise refused(str(refusal)) from None


async def check_creation(runtime: Runtime, body: CreateGame) -> None:
    """Check every seat's webhook of a creation before anything is written."""
    for spec in body.seats:
        if spec.webhook is not None:
            await check(runtime, spec.webhook)


async def register(runtime: Runtime, game_id: str, seat: int, url: str, checked: bool = False) -> Hook:
    """Register (or replace) a seat's webhook; `checked` when `check` has just passed for `url`."""
    if not checked:
        await check(runtime, url)
    hook = Hook(game_id, seat, url, new_secret(), uuid.uuid4().hex)
    await run_in_threadpool(runtime.tables.set_hook, hook, runtime.clock())
    return hook


async def register_later(runtime: Runtime, game_id: str, seat: int, url: str) -> Hook:
    """`PUT /webhook`: register, and queue for the new registration what the game's present calls for
    (the notifications pending for the replaced one were dropped with it)."""
    hook = await register(runtime, game_id, seat, url)
    await queue_present(runtime, game_id)
    return hook


async def rotate(runtime: Runtime, game_id: str, seat: int) -> tuple[Hook, datetime] | None:
    """A new secret for the seat's webhook; the old one signs too until the returned time. None when the
    seat has no webhook."""
    until = runtime.clock() + timedelta(seconds=runtime.settings.webhook_rotation_seconds)
    hook = await run_in_threadpool(runtime.tables.rotate_secret, game_id, seat, new_secret(), until)
    return None if hook is None else (hook, until)


async def register_at_creation(
    runtime: Runtime, game_id: str, body: CreateGame, seats: list[SeatOut]
) -> list[SeatOut]:
    """Register the webhooks of a creation (`check_creation` passed before the game was written)."""
    out = []
    for spec, seat in zip(body.seats, seats, strict=True):
        if spec.webhook is not None:
            hook = await register(runtime, game_id, seat.seat, spec.webhook, checked=True)
            seat = seat.model_copy(update={"webhook_secret": hook.secret})
        out.append(seat)
    return out
