"""Which language a request is answered in (docs/i18n.md): one place for the pages, the problems and
any other edge that speaks to a person.

The order: a `lang` query parameter (a link that names its language), the `galileo_lang` cookie (the
choice made on any page, remembered by this browser; signing in sets it from the account's choice), the
`Accept-Language` header (what an API client or a browser asks for), English. Every answer can be
asked for in any of them; the words come from projections/i18n (the catalogs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from starlette.requests import HTTPConnection
from starlette.types import Scope

from projections.i18n import DEFAULT, NATIVE_NAMES, PSEUDO, available, match, negotiate

COOKIE = "galileo_lang"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie (RFC 6265bis)
QUERY = "lang"

__all__ = ["COOKIE", "DEFAULT", "chosen", "languages", "locale_of", "locale_of_scope", "pick"]


def chosen(value: str | None) -> str | None:
    """A locale named by a query parameter or cookie, if this build offers it (the pseudo-locale too)."""
    if not value:
        return None
    if value == PSEUDO:
        return PSEUDO
    return match(value, available())


def pick(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The locale named by a query parameter, else by the cookie, else negotiated from Accept-Language."""
    return chosen(query) or chosen(cookie) or negotiate(accept, available())


def locale_of(request: HTTPConnection) -> str:
    """The locale to answer `request` in: "en", "ja", "zh-Hans" (or a catalog added later)."""
    return pick(
        request.query_params.get(QUERY), request.cookies.get(COOKIE), request.headers.get("accept-language")
    )


def locale_of_scope(scope: Scope) -> str:
    """The same for an ASGI scope, for middleware that answers before a Request exists."""
    return locale_of(HTTPConnection(scope))


def languages() -> list[Mapping[str, str]]:
    """The offered languages with their own names, for the selector on every page."""
    offered: Iterable[str] = available()
    return [{"locale": loc, "name": NATIVE_NAMES.get(loc, loc)} for loc in offered]
