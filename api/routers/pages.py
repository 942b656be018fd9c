"""The web pages for play and replay (design.md, "api/"): plain HTML and JavaScript modules from
api/static/, no build step. The pages call the same public routes as any client; they are left out of
the OpenAPI schema, which documents the API."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from api.deps import GameId

STATIC = Path(__file__).resolve().parent.parent / "static"

# Scripts, styles, images and requests only from this origin; no inline script; never framed; no
# Referer (nothing in a page's address is a secret: seat tokens travel in the URL fragment).
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}

router = APIRouter(tags=["pages"], include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html; charset=utf-8", headers=HEADERS)


@router.get("/")
async def lobby_page() -> FileResponse:
    """The lobby: create a game (seats, bots, options), list the games."""
    return _page("lobby.html")


@router.get("/play/{game_id}")
async def play_page(game_id: GameId) -> FileResponse:
    """Play or watch one game: the board, the seat's moves as buttons, live updates."""
    return _page("play.html")


@router.get("/account")
async def account_page() -> FileResponse:
    """Sign in with a passkey (optional), and My games: the claimed seats, opened on this device."""
    return _page("account.html")


@router.get("/replay/{game_id}")
async def replay_page(game_id: GameId) -> FileResponse:
    """Step through a game event by event, jump to a version, fork there, see its score timeline."""
    return _page("replay.html")


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker of Web Push (docs/notifications.md): served from the root so that its scope is
    every page; it shows a pushed turn and opens the game on a click."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript; charset=utf-8", headers=HEADERS)
