"""The API documentation pages, /docs (Swagger UI) and /redoc, working without internet: their scripts
and styles are served by the app from the `fastapi-offline` package, never from a CDN. Swagger UI shows
"Authorize" for the security schemes the OpenAPI description declares and keeps the token across reloads.
ReDoc's bundle names one remote image (the Redocly logo of its "API docs by Redocly" badge): it is served
with that address pointed at a local image, so the page makes no request elsewhere.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"
ASSETS_URL = "/docs-assets"
OAUTH2_REDIRECT = "/docs/oauth2-redirect"
REDOC_REMOTE_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"

router = APIRouter(include_in_schema=False)


def _title(request: Request) -> str:
    return str(request.app.title)


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url=str(request.app.openapi_url),
        title=f"{_title(request)}: API",
        swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
        oauth2_redirect_url=OAUTH2_REDIRECT,
        swagger_ui_parameters={"persistAuthorization": True, "tryItOutEnabled": False},
    )


@router.get(OAUTH2_REDIRECT)
async def swagger_ui_redirect() -> HTMLResponse:
    return get_swagger_ui_oauth2_redirect_html()


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    return get_redoc_html(
        openapi_url=str(request.app.openapi_url),
        title=f"{_title(request)}: API reference",
        redoc_js_url=f"{ASSETS_URL}/redoc.standalone.js",
        redoc_favicon_url=f"{ASSETS_URL}/favicon.png",
        with_google_fonts=False,
    )


@cache
def _redoc_bundle() -> bytes:
    return (
        (ASSETS / "redoc.standalone.js")
        .read_bytes()
        .replace(REDOC_REMOTE_LOGO, f"{ASSETS_URL}/favicon.png".encode())
    )


@router.get(f"{ASSETS_URL}/redoc.standalone.js")
async def redoc_bundle() -> Response:
    return Response(
        _redoc_bundle(), media_type="text/javascript", headers={"Cache-Control": "public, max-age=86400"}
    )


def install(app: FastAPI) -> None:
    """The two pages and their assets (the app is created with `docs_url=None, redoc_url=None`)."""
    app.include_router(router)
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs-assets")
