"""Registering a seat's webhook (docs/async.md): at creation or later with the seat's token. Each
registration draws a new signing secret, returned to the registrant only."""

from __future__ import annotations

import secrets

from starlette.concurrency import run_in_threadpool

from api.runtime import Runtime
from api.schemas import CreateGame, SeatOut
from api.tables import Hook

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


async def register(runtime: Runtime, game_id: str, seat: int, url: str) -> Hook:
    hook = Hook(game_id, seat, url, new_secret())
    await run_in_threadpool(runtime.tables.set_hook, hook, runtime.clock())
    return hook


async def register_at_creation(
    runtime: Runtime, game_id: str, body: CreateGame, seats: list[SeatOut]
) -> list[SeatOut]:
    out = []
    for spec, seat in zip(body.seats, seats, strict=True):
        if spec.webhook is not None:
            hook = await register(runtime, game_id, seat.seat, spec.webhook)
            seat = seat.model_copy(update={"webhook_secret": hook.secret})
        out.append(seat)
    return out
