"""The FastAPI application: composes settings, runtime, error handlers and routers. Nothing else."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

from api import contract, oidc, problems
from api.limits import BodyLimit, ReadLimit
from api.routers import (
    accounts,
    analysis,
    analysis_jobs,
    catalog,
    chat,
    claims,
    docs,
    events,
    games,
    health,
    pages,
    play,
    players,
    reach,
    replay,
    rules,
    table,
    tournaments,
    turns,
)
from api.runtime import Runtime
from api.settings import Settings
from api.tokens import install_token_filter
from replays.jobs import Analyser

DESCRIPTION = """Play Galileo Galilei asynchronously over HTTP.

Create a game (`POST /games`): each person's seat is a secret bearer token, returned once. Send it as
`Authorization: Bearer <token>`. Read the board (`GET /games/{id}`), the legal moves
(`GET /games/{id}/moves`), post one of them back (`POST /games/{id}/commands` with `expected_version` and
a `command_id`), and follow the game live (`GET /games/{id}/stream`, Server-Sent Events, resumable with
`Last-Event-ID`). Analysts replay (`/at/{v}`, `/events`), fork, export and verify games, and read the
score timeline of a game (`GET /games/{id}/timeline`) and statistics across games (`GET /stats`), and
have a game analysed by the search bot as a background job (`POST /games/{id}/analysis`: 202 and the job
to poll for progress, then every decision's evaluation, mistakes and accuracy; docs/analysis-api.md).

Hidden information (the deck order, the seed) is never shown before the game ends, and the front of a
card drawn face down only to the seat that drew it. Errors are `application/problem+json` (RFC 9457)
with a stable `code`; illegal moves carry the `rule_id` and its `rule_url`. Every rule ID resolves in the
rules reference (`GET /rules`, `GET /rules/{rule_id}`, JSON or HTML). The same app serves web pages for
people: the lobby at `/`, `/play/{id}` and `/replay/{id}`.

Async play over days (docs/async.md): a game may have a clock (`clock` at creation: per move with a
reserve, or base + increment, ISO 8601 durations), each seat a webhook told when it must act (signed
the Standard Webhooks way, only to hosts that resolve to public addresses (HOOK-1), delivered through
an outbox with retries; `GET /games/{id}/notifications`), and one
stream follows a token holder's turns in all its games (`GET /turns`). A seat may take back its own
commands of the turn within the information horizon (ASYNC-7; others consent, ASYNC-6), resign, or ask
to pause the clocks; the table's host (the `host_token` from creation) re-issues a lost seat link,
hands a seat to a bot or a new person, extends a clock and cancels the game (`/games/{id}/host/...`).
`GET /games/{id}/table` shows the clocks, who plays each seat, and what the caller may do.
"""


def create_app(
    settings: Settings | None = None,
    clock: Callable[[], datetime] | None = None,
    analyser: Analyser | None = None,
    secret: Callable[[], str] | None = None,
) -> FastAPI:
    """An app for `settings` (default: from the environment); its runtime starts with the app.
    `clock` is the service's time (default: the system's, UTC); tests pass a controllable one, and may
    pass another analysis engine (`analyser`, default domain.analysis) and the source of new games'
    secret seeds (`secret`, default the system's CSPRNG) so that a test's games are the same each run."""
    config = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_token_filter()
        runtime = Runtime.build(config, clock, analyser, secret)
        app.state.runtime = runtime
        await runtime.start()
        try:
            yield
        finally:
            await runtime.stop()

    app = FastAPI(
        title="Galileo Galilei game service",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # served offline by api/routers/docs.py
        redoc_url=None,
    )
    app.state.settings = config
    problems.install(app)
    contract.install(app)
    app.add_middleware(
        BodyLimit,
        limit=config.max_body_bytes,
        import_limit=config.max_import_bytes,
        timeout=config.body_timeout_seconds,
    )
    app.add_middleware(ReadLimit, trust_forwarded=config.trust_forwarded_for)  # outermost: first
    if config.oidc_issuer and config.oidc_client_id:  # binds an OpenID Connect sign-in to its browser
        app.add_middleware(
            SessionMiddleware,
            secret_key=config.secret_key or secrets.token_urlsafe(32),
            session_cookie=oidc.COOKIE,
            max_age=oidc.STATE_SECONDS,
            same_site="lax",
            https_only=config.cookie_secure,
        )
    routers = (
        health,
        games,
        play,
        table,
        turns,
        events,
        replay,
        analysis,
        analysis_jobs,
        rules,
        catalog,
        accounts,
        claims,
        chat,
        players,
        tournaments,
        reach,
        pages,
    )
    for module in routers:
        app.include_router(module.router)
    docs.install(app)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app


app = create_app()
