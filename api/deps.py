"""Dependencies shared by the routers, as `Annotated` aliases: the runtime and the caller's seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from starlette.concurrency import run_in_threadpool

from api import limits
from api.problems import ApiError, unauthorized
from api.runtime import Runtime
from api.seats import RECOVERED, REISSUED, Seat
from api.tokens import looks_like_token, token_hash


def get_runtime(request: Request) -> Runtime:
    """The runtime of a route that needs the store: 503 at once while the store is known to be down
    (api/outage.py), instead of waiting for a connection."""
    runtime: Runtime = request.app.state.runtime
    if runtime.health.down:
        raise store_unavailable(runtime)
    return runtime


def store_unavailable(runtime: Runtime) -> ApiError:
    seconds = runtime.settings.retry_after_seconds
    return ApiError(
        503,
        "store-unavailable",
        "the game store cannot be reached; retry shortly (nothing was written)",
        headers={"Retry-After": str(seconds)},
        retry_after=seconds,
    )


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
GAME_ID_MAX = 64
GameId = Annotated[str, Path(description="The game's ID (a UUID).", max_length=GAME_ID_MAX)]


def presented_token(request: Request, allow_query: bool = False) -> str | None:
    """The bearer token of the request, if any. Only the streams also take `?access_token=` (browsers'
    EventSource cannot send headers; other routes ignore it); the logging filter scrubs it from every log
    line however the URL spelled it (percent-encoded in part or in whole: api/tokens.py)."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise unauthorized("invalid-token", "use 'Authorization: Bearer <seat token>'")
        return value.strip()
    if allow_query:
        return request.query_params.get("access_token") or None
    return None


def token_gate(runtime: Runtime, request: Request) -> str:
    """Before a token is looked up: 429 while the client's failed attempts are over their rate
    (`GALILEO_RATE_BAD_TOKEN`), whatever the token; returns the client's key."""
    client = limits.client_of(request, runtime.settings.trust_forwarded_for)
    wait = runtime.limiter.wait("bad_token", client)
    if wait > 0:
        raise limits.too_many("bad_token", wait, "too-many-failed-tokens", "invalid tokens")
    return client


async def token_refused(runtime: Runtime, client: str, digest: str | None, role: str = "seat") -> ApiError:
    """The 401 for a token that opens nothing (`digest`: its hash, None when it is not even shaped like
    one), counted against the client's failed attempts. A token that opened a seat once says why it no
    longer does (`link-reissued`, `seat-handed-over`): its holder knew the seat, and the log is public."""
    runtime.limiter.take_local("bad_token", client)  # read back by `wait` above: this process's bucket
    revoked = None if digest is None else await run_in_threadpool(runtime.seats.revocation, digest)
    if revoked is None:
        return unauthorized("invalid-token", "the {role} token is not valid", params={"role": role})
    if revoked.reason == REISSUED:
        return unauthorized(
            "link-reissued",
            "the table's host re-issued the link of seat {seat} (event {version}): this token no longer opens"
            " it; ask the host for the new link",
            rule_id="ASYNC-9",
            version=revoked.version,
            params={"seat": revoked.seat, "version": revoked.version},
        )
    if revoked.reason == RECOVERED:
        return unauthorized(
            "seat-recovered",
            "seat {seat} was opened on another device by the account it is attached to (event {version}):"
            " this token no longer opens it",
            rule_id="ACCT-2",
            version=revoked.version,
            params={"seat": revoked.seat, "version": revoked.version},
        )
    return unauthorized(
        "seat-handed-over",
        "the table's host handed seat {seat} over (event {version}): this token no longer opens it",
        rule_id="ASYNC-3",
        version=revoked.version,
        params={"seat": revoked.seat, "version": revoked.version},
    )


async def seat_of_token(runtime: Runtime, request: Request, token: str) -> Seat:
    """The seat a token opens; 401 for anything else (never says whether a similar token exists).

    Looked up on every use (an indexed read of `galileo_seats`): a revoked token is refused at once by
    every process sharing the store, with no cache to outlive the revocation (docs/async.md)."""
    client = token_gate(runtime, request)
    if not looks_like_token(token):
        raise await token_refused(runtime, client, None)
    digest = token_hash(token)
    seat = await run_in_threadpool(runtime.seats.by_token, digest)
    if seat is None:
        raise await token_refused(runtime, client, digest)
    return seat


async def _caller(runtime: Runtime, request: Request, game_id: str, token: str | None) -> Seat | None:
    if token is None:
        return None
    seat = await seat_of_token(runtime, request, token)
    if seat.game_id != game_id:
        raise ApiError(403, "not-a-seat-of-this-game", "this seat token belongs to another game")
    return seat


async def optional_seat(request: Request, runtime: RuntimeDep, game_id: GameId) -> Seat | None:
    """The caller's seat in this game, or None for a spectator (no token)."""
    return await _caller(runtime, request, game_id, presented_token(request))


async def stream_seat(request: Request, runtime: RuntimeDep, game_id: GameId) -> Seat | None:
    return await _caller(runtime, request, game_id, presented_token(request, allow_query=True))


async def required_seat(request: Request, runtime: RuntimeDep, game_id: GameId) -> Seat:
    """The caller's seat in this game; 401 without a token."""
    seat = await _caller(runtime, request, game_id, presented_token(request))
    if seat is None:
        raise unauthorized("token-required", "this route needs the seat token: 'Authorization: Bearer ...'")
    return seat


async def command_seat(request: Request) -> Seat | None:
    """`RuntimeDep` and `RequiredSeat` as one dependency, for the hottest route (POST /commands: the
    framework resolves one dependency instead of three), with the same checks in the same order: the
    store's outage (503, `get_runtime`), then, for a game ID the route accepts, the caller's seat (401,
    403). A game ID the route refuses (422, `GameId`) is not looked at, as `RequiredSeat` does not run
    then: None. The runtime is `request.app.state.runtime`."""
    runtime = get_runtime(request)
    game_id = request.path_params.get("game_id")
    if not isinstance(game_id, str) or len(game_id) > GAME_ID_MAX:
        return None
    return await required_seat(request, runtime, game_id)


async def any_seat(request: Request, runtime: RuntimeDep) -> Seat | None:
    """The seat of the presented token in whatever game (lobby filter), or None without a token."""
    token = presented_token(request)
    return None if token is None else await seat_of_token(runtime, request, token)


OptionalSeat = Annotated[Seat | None, Depends(optional_seat)]
StreamSeat = Annotated[Seat | None, Depends(stream_seat)]
RequiredSeat = Annotated[Seat, Depends(required_seat)]
CommandSeat = Annotated[Seat | None, Depends(command_seat)]
AnySeat = Annotated[Seat | None, Depends(any_seat)]
