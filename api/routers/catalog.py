"""The component catalog of an edition, as the pages draw the board from it (docs/catalog.md)."""

from __future__ import annotations

from functools import cache

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.problems import ApiError
from domain.catalog import CatalogError, load_catalog
from projections.components import catalog_json

router = APIRouter(tags=["catalog"])


@cache
def _body(edition: str) -> tuple[bytes, str]:
    catalog = load_catalog(edition)
    return orjson.dumps(catalog_json(catalog)), f'"{catalog.content_hash}"'


@router.get(
    "/catalog/{edition}",
    operation_id="getCatalog",
    responses={
        200: {"content": {"application/json": {}}, "description": "The catalog (docs/catalog.md)."},
        304: {"description": "Not modified (If-None-Match matched the ETag)."},
        404: {"description": "No such edition."},
    },
)
async def catalog(edition: str, request: Request) -> Response:
    """Every component of an edition: Discovery cards, Action tiles, the sky, Scale tiles, subjects,
    objectives, the Book of Comets, tracks and slots, and Luna's Moon and Bonus boards. `edition` is a
    folder name (`base`) or the edition id a game records (`state.catalog.edition` of a board view).
    Public component data: nothing in it is secret. The ETag is the catalog's content hash."""
    try:
        body, etag = _body(edition)
    except CatalogError as error:
        raise ApiError(404, "unknown-edition", str(error)) from None
    headers = {"ETag": etag, "Cache-Control": "public, max-age=3600"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
