"""The web pages for play and replay (design.md, "api/"): plain HTML and JavaScript modules from
api/static/, no build step. The pages call the same public routes as any client; they are left out of
the OpenAPI schema, which documents the API."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from api.deps import GameId
from api.i18n import chosen, languages, locale_of
from domain.catalog.names import component_name
from domain.catalog.names import names as component_names
from projections.i18n import html, words
from projections.i18n import page_messages as catalog_json

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


def _names(locale: str) -> dict[str, dict[str, str]]:
    """The component names the pages show without a catalog at hand (the characters), in `locale`."""
    ids = component_names("en").get("character", {})
    return {"character": {id: component_name("character", id, locale) for id in ids}}


@lru_cache(maxsize=64)
def _translated(name: str, locale: str) -> str:
    """A page in `locale`: its text and read attributes from the catalogs, `<html lang>` set, and the
    catalog of the language for its scripts (api/static/i18n.js) as a JSON data block."""
    page = html.translate((STATIC / name).read_text(encoding="utf-8"), words(locale), locale)
    body = {**catalog_json(locale), "languages": languages(), "names": _names(locale)}
    catalog = orjson.dumps(body).decode().replace("</", "<\\/")
    block = f'<script type="application/json" id="i18n-catalog">{catalog}</script>'
    return page.replace("</head>", f"  {block}\n</head>", 1)


def _page(name: str, request: Request) -> HTMLResponse:
    locale = locale_of(request)
    headers = {**HEADERS, "Content-Language": locale, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(_translated(name, locale), headers=headers)


@router.get("/i18n/{locale}.json")
async def page_catalog(locale: str) -> JSONResponse:
    """The words of the pages in `locale` (docs/i18n.md): message id → text, plural forms by CLDR
    category; made from the same catalogs as the server's words. 404 for a language not spoken here."""
    found = chosen(locale)
    if found is None or found != locale:
        raise HTTPException(404, "no catalog for this language")
    body: dict[str, Any] = {**catalog_json(found), "languages": languages(), "names": _names(found)}
    return JSONResponse(body, headers={"Cache-Control": "no-cache", "Content-Language": found})


@router.get("/")
async def lobby_page(request: Request) -> HTMLResponse:
    """The lobby: create a game (seats, bots, options), list the games."""
    return _page("lobby.html", request)


@router.get("/play/{game_id}")
async def play_page(game_id: GameId, request: Request) -> HTMLResponse:
    """Play or watch one game: the board, the seat's moves as buttons, live updates."""
    return _page("play.html", request)


@router.get("/account")
async def account_page(request: Request) -> HTMLResponse:
    """Sign in with a passkey (optional), and My games: the claimed seats, opened on this device."""
    return _page("account.html", request)


@router.get("/replay/{game_id}")
async def replay_page(game_id: GameId, request: Request) -> HTMLResponse:
    """Step through a game event by event, jump to a version, fork there, see its score timeline."""
    return _page("replay.html", request)


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker of Web Push (docs/notifications.md): served from the root so that its scope is
    every page; it shows a pushed turn and opens the game on a click."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript; charset=utf-8", headers=HEADERS)
