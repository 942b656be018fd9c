"""Errors as `application/problem+json` (RFC 9457): the API's own errors and the mapping of every other one.

Each problem has a stable `code` (also the last segment of its `type`), a `title`, the `status`, a `detail`
for people and the `instance` path. Illegal moves add the engine's `reason` code, the `rule_id` and the
`rule_url` of its entry in the rules reference (`/rules/{rule_id}`); version
conflicts add `current_version`. Bodies never echo a header, a token or anything hidden.

`title` and `detail` are in the request's language (api/i18n.py: `lang`, the cookie, `Accept-Language`):
a detail is an English template with its parameters, looked up in the catalogs (projections/i18n) and
filled in; the `type`, `code`, `reason` and `rule_id` never change with the language.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from api import service
from api.i18n import locale_of
from api.outage import UNAVAILABLE
from domain import IllegalMove
from projections.i18n import text as translate
from rulebook import rule_url

logger = logging.getLogger(__name__)

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "/problems/"  # a relative URI reference, resolved against the request (RFC 9457 §3.1.1)

TITLES: Mapping[int, str] = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Content too large",
    415: "Unsupported media type",
    422: "Unprocessable content",
    429: "Too many requests",
    500: "Internal server error",
    503: "Service unavailable",
}


class ApiError(Exception):
    """An error the API reports as a problem: HTTP status, stable code, human detail, extra members."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        self.template = detail  # the English template; `params` fill it in (in any language)
        self.params = dict(params or {})
        self.detail = detail.format(**self.params) if self.params else detail
        super().__init__(self.detail)
        self.status = status
        self.code = code
        self.headers = dict(headers or {})
        self.extra = extra


def problem(
    status: int,
    code: str,
    detail: str,
    instance: str | None = None,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, Any] | None = None,
    locale: str = "en",
    **extra: Any,
) -> JSONResponse:
    """A problem response; `detail` is an English template (filled in with `params`), said in `locale`."""
    body: dict[str, Any] = {
        "type": TYPE_BASE + code,
        "title": translate(locale, TITLES.get(status, "Error")),
        "status": status,
        "detail": translate(locale, detail, **(params or {})),
        "code": code,
    }
    if instance is not None:
        body["instance"] = instance
    body.update(extra)
    answer_headers = {**(headers or {}), "Content-Language": locale}
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=answer_headers)


def unauthorized(code: str, detail: str, **extra: Any) -> ApiError:
    return ApiError(401, code, detail, headers={"WWW-Authenticate": 'Bearer realm="galileo"'}, **extra)


def _path(request: Request) -> str:
    return request.url.path  # never the query string: it may carry an access token


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return problem(
        exc.status,
        exc.code,
        exc.template,
        _path(request),
        exc.headers,
        exc.params,
        locale_of(request),
        **exc.extra,
    )


async def _illegal_move(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, IllegalMove)
    # A seat that may not act now is forbidden rather than illegal.
    status, code = (403, "not-your-turn") if exc.code == "not-your-turn" else (422, "illegal-move")
    return problem(
        status,
        code,
        exc.template,
        _path(request),
        params=exc.params,
        locale=locale_of(request),
        reason=exc.code,
        rule_id=exc.rule_id,
        rule_url=rule_url(exc.rule_id),
    )


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
        for e in exc.errors()
    ]  # without "input" and "ctx": the parsed input is echoed by nothing
    if any(e["type"] == "json_invalid" for e in errors):
        return problem(
            400,
            "malformed-json",
            "the request body is not valid JSON",
            _path(request),
            locale=locale_of(request),
        )
    return problem(
        422,
        "invalid-request",
        "the request does not match its schema",
        _path(request),
        locale=locale_of(request),
        errors=errors,
    )


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    codes = {
        404: "not-found",
        405: "method-not-allowed",
        413: "body-too-large",
        415: "unsupported-media-type",
    }
    code = codes.get(exc.status_code, f"http-{exc.status_code}")
    detail = exc.detail if isinstance(exc.detail, str) else TITLES.get(exc.status_code, "error")
    headers = dict(exc.headers or {})
    if exc.status_code == 405:  # every method the path has (Starlette names only one route's)
        headers["Allow"] = ", ".join(_allowed(request))
    return problem(exc.status_code, code, detail, _path(request), headers, locale=locale_of(request))


def _allowed(request: Request) -> list[str]:
    """The methods of this path, as the OpenAPI document resolves it (a concrete path such as
    /games/import before a templated one such as /games/{game_id}); for undocumented paths (the web
    pages), the methods some route serves there."""
    path = request.url.path
    best: tuple[int, list[str]] | None = None
    for template, item in request.app.openapi()["paths"].items():
        pattern = re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            rank = template.count("{")
            if best is None or rank < best[0]:
                best = (rank, sorted(m.upper() for m in item))
    if best is not None:
        return best[1]
    return [
        method
        for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
        if any(
            r.matches({**request.scope, "method": method})[0] == Match.FULL for r in request.app.router.routes
        )
    ]


async def _service_error(request: Request, exc: Exception) -> JSONResponse:
    status, code, extra = service.classify(exc)
    said: str = getattr(exc, "template", "")  # replays/errors.py: a template said in any language
    template, params = (said, getattr(exc, "params", {})) if said else (str(exc), {})
    return problem(status, code, template, _path(request), params=params, locale=locale_of(request), **extra)


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    runtime = request.app.state.runtime
    runtime.health.failed(exc)
    seconds = runtime.settings.retry_after_seconds
    return problem(
        503,
        "store-unavailable",
        "the game store cannot be reached; retry shortly (nothing was written)",
        _path(request),
        {"Retry-After": str(seconds)},
        locale=locale_of(request),
        retry_after=seconds,
    )


async def _internal(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unhandled error on %s %s", request.method, _path(request))
    return problem(
        500,
        "internal-error",
        "the server failed; the error was logged",
        _path(request),
        locale=locale_of(request),
    )


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into a problem."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(IllegalMove, _illegal_move)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    for error_class in service.SERVICE_ERRORS:
        app.add_exception_handler(error_class, _service_error)
    for error_class in UNAVAILABLE:
        app.add_exception_handler(error_class, _unavailable)
    app.add_exception_handler(Exception, _internal)
