"""Dependencies shared by the routers, as `Annotated` aliases: the runtime and the caller's seat."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, TypeVar

from fastapi import Depends, Path, Request
from starlette.concurrency import run_in_threadpool

from api import limits
from api.problems import ApiError, unauthorized
from api.runtime import Runtime
from api.seats import RECOVERED, REISSUED, Seat
from api.tokens import looks_like_token, token_hash


async def get_runtime(request: Request) -> Runtime:
    """The runtime of a route that needs the store: 503 at once while the store is known to be down
    (api/outage.py), instead of waiting for a connection. (A coroutine: the framework runs a plain
    function dependency in a worker thread, a thread hop per request for nothing.)"""
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
        return unauthorized("invalid-token", f"the {role} token is not valid")
    if revoked.reason == REISSUED:
        return unauthorized(
            "link-reissued",
            f"the table's host re-issued the link of seat {revoked.seat} (event {revoked.version}): this "
            "token no longer opens it; ask the host for the new link",
            rule_id="ASYNC-9",
            version=revoked.version,
        )
    if revoked.reason == RECOVERED:
        return unauthorized(
            "seat-recovered",
            f"seat {revoked.seat} was opened on another device by the account it is attached to (event "
            f"{revoked.version}): this token no longer opens it",
            rule_id="ACCT-2",
            version=revoked.version,
        )
    return unauthorized(
        "seat-handed-over",
        f"the table's host handed seat {revoked.seat} over (event {revoked.version}): this token no "
        "longer opens it",
        rule_id="ASYNC-3",
        version=revoked.version,
    )


def digest_of(token: str) -> str | None:
    """The hash a token is looked up by; None for one not even shaped like a token."""
    return token_hash(token) if looks_like_token(token) else None


async def seat_of_token(runtime: Runtime, request: Request, token: str) -> Seat:
    """The seat a token opens; 401 for anything else (never says whether a similar token exists).

    Looked up on every use (an indexed read of `galileo_seats`): a revoked token is refused at once by
    every process sharing the store, with no cache to outlive the revocation (docs/async.md)."""
    client = token_gate(runtime, request)
    digest = digest_of(token)
    if digest is None:
        raise await token_refused(runtime, client, None)
    seat = await run_in_threadpool(runtime.seats.by_token, digest)
    if seat is None:
        raise await token_refused(runtime, client, digest)
    return seat


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Presented:
    """A seat token presented for a game, its client's failed attempts checked (`token_gate`) but not
    looked up yet. The hottest reads (the board, the move list) look it up in the same worker-thread
    call as their first store read (`read_as`), one thread hop instead of two (issue 28), and then
    `settle` it. It is looked up on every request all the same (nothing outlives a revocation), and
    before the game is read: the answers and their order are `OptionalSeat`'s and `RequiredSeat`'s."""

    runtime: Runtime
    game_id: str
    client: str
    digest: str | None  # None: not shaped like a token (refused without a lookup)

    def lookup(self) -> Seat | None:
        """The seat the token opens, if any (blocking: an indexed read of `galileo_seats`)."""
        return None if self.digest is None else self.runtime.seats.by_token(self.digest)

    async def settle(self, seat: Seat | None) -> Seat:
        """`seat` (what `lookup` found) as the caller's seat, or the 401/403 of `seat_of_token`/`_caller`."""
        if seat is None:
            raise await token_refused(self.runtime, self.client, self.digest)
        if seat.game_id != self.game_id:
            raise ApiError(403, "not-a-seat-of-this-game", "this seat token belongs to another game")
        return seat


def read_as(presented: Presented | None, read: Callable[[Seat | None], T]) -> tuple[Seat | None, T | None]:
    """(Blocking, for a worker thread.) The presented token's seat and, when it opens a seat of this
    game or no token was presented, `read(seat)`; a token that opens nothing here reads nothing (the
    route then `settle`s it: 401/403 before anything about the game, as `RequiredSeat` answers)."""
    seat = None if presented is None else presented.lookup()
    if presented is not None and (seat is None or seat.game_id != presented.game_id):
        return seat, None
    return seat, read(seat)


async def settled(presented: Presented | None, seat: Seat | None) -> Seat | None:
    """The caller's seat after `read_as` (None for a spectator), or its 401/403."""
    return None if presented is None else await presented.settle(seat)


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
    runtime = await get_runtime(request)
    game_id = request.path_params.get("game_id")
    if not isinstance(game_id, str) or len(game_id) > GAME_ID_MAX:
        return None
    return await required_seat(request, runtime, game_id)


async def presented_seat(request: Request, runtime: RuntimeDep, game_id: GameId) -> Presented | None:
    """The token presented for this game, not looked up yet (`Presented`); None without one."""
    token = presented_token(request)
    if token is None:
        return None
    return Presented(runtime, game_id, token_gate(runtime, request), digest_of(token))


async def required_presented(request: Request, runtime: RuntimeDep, game_id: GameId) -> Presented:
    """`presented_seat`, with the 401 of `required_seat` without a token."""
    presented = await presented_seat(request, runtime, game_id)
    if presented is None:
        raise unauthorized("token-required", "this route needs the seat token: 'Authorization: Bearer ...'")
    return presented


async def any_seat(request: Request, runtime: RuntimeDep) -> Seat | None:
    """The seat of the presented token in whatever game (lobby filter), or None without a token."""
    token = presented_token(request)
    return None if token is None else await seat_of_token(runtime, request, token)


OptionalSeat = Annotated[Seat | None, Depends(optional_seat)]
StreamSeat = Annotated[Seat | None, Depends(stream_seat)]
RequiredSeat = Annotated[Seat, Depends(required_seat)]
CommandSeat = Annotated[Seat | None, Depends(command_seat)]
AnySeat = Annotated[Seat | None, Depends(any_seat)]
# The same as OptionalSeat and RequiredSeat, looked up by the route with its first read (`read_as`).
OptionalPresented = Annotated[Presented | None, Depends(presented_seat)]
RequiredPresented = Annotated[Presented, Depends(required_presented)]
