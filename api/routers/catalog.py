"""The component catalog of an edition, as the pages draw the board from it (docs/catalog.md)."""

from __future__ import annotations

from functools import cache

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.i18n import locale_of
from api.problems import ApiError
from domain.catalog import CatalogError, load_catalog
from domain.catalog.names import name_locale
from projections.components import localized_catalog_json

router = APIRouter(tags=["catalog"])


# The served document's own version, in its ETag beside the catalog's content hash: bump it when the
# document gains or changes a member (2: `library_rows` and `reward_codes`), so that a browser holding the
# older document is not answered 304 for an unchanged catalog.
FORMAT = 2


@cache
def _body(edition: str, names: str) -> tuple[bytes, str]:
    catalog = load_catalog(edition)
    body = orjson.dumps(localized_catalog_json(catalog, names))
    tag = f"{catalog.content_hash}.f{FORMAT}"
    return body, f'"{tag}"' if names == "en" else f'"{tag}-{names}"'


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
    objectives, the Book of Comets, tracks and slots, and Luna's Moon and Bonus boards; and the engine's
    words for them the pages draw with: the library rows (`library_rows`) and every reward code the
    catalog and the expansions print, read by the rules' grammar (`reward_codes`: code -> [task kind,
    amount, argument], docs/catalog.md "Reward codes"). `edition` is a
    folder name (`base`) or the edition id a game records (`state.catalog.edition` of a board view).
    Public component data: nothing in it is secret. The printed names (Major Objects, constellations,
    Action tiles, characters, objectives' texts, Subject themes, Luna's Scoring tiles) are in the
    request's language (`Accept-Language`, the `galileo_lang` cookie or `?lang=`; docs/i18n.md), in the
    terms of that language's published rulebook; ids never change. The ETag is the catalog's content hash and
    the document's format (`<hash>.f2`; with the names' language after it for a language other than
    English)."""
    names = name_locale(locale_of(request))
    try:
        body, etag = _body(edition, names)
    except CatalogError as error:
        raise ApiError(404, "unknown-edition", str(error)) from None
    headers = {
        "ETag": etag,
        "Cache-Control": "public, max-age=3600",
        "Content-Language": names,
        "Vary": "Accept-Language, Cookie",
    }
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
