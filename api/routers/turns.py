"""One stream of turns for all of a token holder's games (docs/async.md): whoever holds the seat tokens
of several games follows, on one Server-Sent Events stream, when it is their turn in each."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.contract import errors
from api.deps import RuntimeDep, seat_of_token
from api.problems import ApiError, unauthorized
from api.runtime import Runtime
from api.seats import Seat
from api.stream import held_stream

router = APIRouter(tags=["table"])

MAX_TOKENS = 50


def _tokens(request: Request) -> list[str]:
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer":
            raise unauthorized("invalid-token", "use 'Authorization: Bearer <token> [<token> ...]'")
        found = [t for t in value.replace(",", " ").split() if t]
    else:
        found = request.query_params.getlist("access_token")
    if not found:
        raise unauthorized("token-required", "name your seat tokens: 'Authorization: Bearer <t1> <t2> ...'")
    if len(found) > MAX_TOKENS:
        raise ApiError(
            422,
            "too-many-tokens",
            "at most {MAX_TOKENS} seat tokens per stream",
            params={"MAX_TOKENS": MAX_TOKENS},
        )
    return found


def _status(runtime: Runtime, seat: Seat) -> dict[str, Any]:
    game = runtime.store.game(seat.game_id)
    state = game.state
    assert state is not None
    status = "cancelled" if game.cancelled else "finished" if state.finished else "active"
    to_act = None if status != "active" else state.turn.seat
    return {
        "game_id": seat.game_id,
        "seat": seat.seat,
        "version": game.version,
        "status": status,
        "to_act": to_act,
        "your_turn": to_act == seat.seat,
    }


async def _turns(runtime: Runtime, seats: list[Seat]) -> AsyncIterator[bytes]:
    wake: asyncio.Queue[str] = asyncio.Queue()
    listeners = [runtime.fanout.hub.listen(s.game_id) for s in seats]

    async def forward(game_id: str, listener: Any) -> None:
        while True:
            await listener.queue.get()
            wake.put_nowait(game_id)

    tasks = [asyncio.create_task(forward(s.game_id, lst)) for s, lst in zip(seats, listeners, strict=True)]
    last: dict[str, tuple[Any, ...]] = {}
    try:
        yield b"retry: 2000\n\n"
        while True:
            for seat in seats:
                now = await run_in_threadpool(_status, runtime, seat)
                key = (now["status"], now["to_act"])
                if last.get(seat.game_id) != key:
                    last[seat.game_id] = key
                    yield b"event: turn\ndata: %s\n\n" % orjson.dumps(now)
            try:
                await asyncio.wait_for(wake.get(), runtime.settings.stream_poll_seconds * 5)
            except TimeoutError:
                yield b": ping\n\n"
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for listener in listeners:
            runtime.fanout.hub.leave(listener)


@router.get(
    "/turns",
    operation_id="streamTurns",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "`turn` events (docs/async.md)."},
        **errors(401, 422, 429),
    },
    openapi_extra={"x-seat-token": "required"},
)
async def turns(request: Request, runtime: RuntimeDep) -> Response:
    """Follow your turns in all your games on one stream: send every seat token you hold
    (`Authorization: Bearer <t1> <t2> ...`, or `access_token` repeated for a browser's EventSource).
    A `turn` event {game_id, seat, version, status, to_act, your_turn} comes for each game at once and
    whenever whose turn it is (or the game's status) changes."""
    seats = [await seat_of_token(runtime, request, token) for token in _tokens(request)]
    unique = list({(s.game_id, s.seat): s for s in seats}.values())
    return held_stream(runtime, request, _turns(runtime, unique))  # counts as one of the client's streams
