"""The API's exact contract in OpenAPI: every status each operation can answer, errors as
`application/problem+json` with one `Problem` schema, and the seat token as a bearer security scheme.

Routes declare their own error statuses (`errors(...)`); `openapi(app)` adds those every operation can
answer (413 for any request body over the limit, 500, and 503 while the store is unreachable, except the
routes that never use it), gives every 4xx/5xx the problem content type and schema, and the security
requirement of each operation (`seatToken`, and `hostToken` for the table host's routes).
`docs/openapi.json` is this document, committed (`scripts/openapi.py` writes it; a test diffs it).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

from api.problems import MEDIA_TYPE

SCHEME = "seatToken"
HOST_SCHEME = "hostToken"  # the table host's token (docs/async.md)
SESSION_SCHEME = "sessionCookie"  # a signed-in account's session (docs/accounts.md)
# `openapi_extra={"x-seat-token": ...}` of a route: which tokens it takes, and whether one is needed.
SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "required": [{SCHEME: []}],
    "optional": [{}, {SCHEME: []}],
    "host": [{HOST_SCHEME: []}],
    "seat-or-host": [{SCHEME: []}, {HOST_SCHEME: []}],
    "optional-seat-or-host": [{}, {SCHEME: []}, {HOST_SCHEME: []}],
    "session": [{SESSION_SCHEME: []}],
    "optional-session": [{}, {SESSION_SCHEME: []}],
    "seat-and-session": [{SCHEME: [], SESSION_SCHEME: []}],
    "optional-seat-or-session": [{}, {SCHEME: []}, {SESSION_SCHEME: []}],
}

DESCRIPTIONS: dict[int, str] = {
    400: "Malformed request (e.g. a body that is not JSON); `code` says what.",
    401: "The seat token is missing where required, malformed or unknown (`WWW-Authenticate: Bearer`), "
    "or it no longer opens its seat: `link-reissued` (ASYNC-9) or `seat-handed-over` (ASYNC-3), with the "
    "`version` of the event that revoked it.",
    403: "Forbidden: the token is another game's or seat's, it is not the seat's turn, or a cap is "
    "reached (`quota-exceeded`).",
    404: "No such game (`game-not-found`) or version (`version-out-of-range`).",
    409: "Conflict: a stale `expected_version` (`current_version` says the head) or a command ID reused "
    "for another command.",
    408: "The request body did not arrive in time (`body-too-slow`); the connection is closed.",
    413: "The request body is over its limit (`body-too-large`), declared or chunked.",
    415: "The body's Content-Type is not the one this route reads (`unsupported-media-type`).",
    422: "The request does not match its schema (`invalid-request`, with `errors`), or the rules refuse it "
    "(`illegal-move` with `reason` and `rule_id`, `invalid-options`, `import-rejected` with `line`...).",
    429: "Too many requests of this kind from this client (`rate-limited`; `too-many-streams`, "
    "`analysis-limit`), or too many failed tokens (`too-many-failed-tokens`: every token is refused for a "
    "while); retry after `Retry-After` s.",
    500: "The server failed (`internal-error`); the error was logged, nothing was half-written.",
    503: "The game store cannot be reached (`store-unavailable`), or the server is full (`streams-full`, "
    "`analysis-busy`); retry after `Retry-After` seconds. Nothing was written.",
}
EVERY = (413, 500)  # any request: a body over the limit, a failure (and 400 where a JSON body is read)
BODIES = (408,)  # any request with a body: one that does not arrive in time
READS = 429  # every GET but the probes: the read rate limit (api/limits.py ReadLimit)
STORE = 503  # any route that reads or writes the store
PROBES = {("get", "/healthz"), ("get", "/readyz")}
CREATIONS = (("post", "/games"), ("post", "/games/import"), ("post", "/games/{game_id}/fork"))
# What a client does next with a new game: OpenAPI links from each creation's answer (clients and
# schemathesis' stateful runs follow them).
NEXT = {
    "board": ("get", "/games/{game_id}", {}),
    "events": ("get", "/games/{game_id}/events", {}),
    "at": ("get", "/games/{game_id}/at/{version}", {"version": "$response.body#/version"}),
    "export": ("get", "/games/{game_id}/export", {}),
    "verify": ("get", "/games/{game_id}/verify", {}),
    "timeline": ("get", "/games/{game_id}/timeline", {}),
    "fork": ("post", "/games/{game_id}/fork", {}),
    "table": ("get", "/games/{game_id}/table", {}),
}
# Routes that never touch the store (the process, and public component and rules data): no 503.
NO_STORE = {
    ("get", "/healthz"),
    ("get", "/catalog/{edition}"),
    ("get", "/rules"),
    ("get", "/rules/{rule_id}"),
}


class Problem(BaseModel):
    """An error (RFC 9457). `code` is stable; the members after `instance` appear where they apply."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(description="`/problems/<code>`, relative to the API.")
    title: str
    status: int
    detail: str = Field(description="For people; never echoes a token or anything hidden.")
    code: str = Field(description="Stable machine-readable code.")
    instance: str | None = Field(None, description="The request path.")
    reason: str | None = Field(None, description="Illegal moves: the engine's reason code.")
    rule_id: str | None = Field(None, description="Illegal moves: the rule that forbids it (rules digest).")
    current_version: int | None = Field(None, description="409 version-conflict: the game's version now.")
    command_id: str | None = Field(None, description="409 command-id-reused.")
    head: int | None = Field(None, description="404 version-out-of-range: the game's last version.")
    line: int | None = Field(None, description="422 import-rejected: the file's line at fault (0: none).")
    retry_after: int | None = Field(None, description="429 and 503: seconds to wait, as Retry-After.")
    limit: int | None = Field(None, description="403 quota-exceeded: the cap reached.")
    version: int | None = Field(
        None, description="401 link-reissued, seat-handed-over: the event that took the seat from the token."
    )
    errors: list[dict[str, Any]] | None = Field(None, description="422 invalid-request: what failed where.")


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` entries of a route's own error statuses (content added by `openapi`)."""
    return {status: {"description": DESCRIPTIONS[status]} for status in statuses}


def _security(method: str, path: str, operation: dict[str, Any]) -> list[dict[str, list[str]]] | None:
    token = operation.pop("x-seat-token", None)
    return None if token is None else [dict(r) for r in SECURITY[token]]


def openapi(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document, completed (cached on the app like FastAPI's own)."""
    if app.openapi_schema:
        return app.openapi_schema
    spec = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.routes,
        tags=app.openapi_tags,
    )
    components = spec.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Problem"] = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    components["securitySchemes"] = {
        SCHEME: {
            "type": "http",
            "scheme": "bearer",
            "description": "A seat's secret token (`gg_...`), issued once when the game is created, "
            "forked or imported. The stream also takes it as `?access_token=` (EventSource sends no "
            "headers).",
        },
        HOST_SCHEME: {
            "type": "http",
            "scheme": "bearer",
            "description": "The table host's secret token (`gg_...`), issued once when the game is created "
            "(`host_token`): re-issue seat links, hand seats over, extend a clock, cancel the game.",
        },
        SESSION_SCHEME: {
            "type": "apiKey",
            "in": "cookie",
            "name": "galileo_session",
            "description": "The session of a signed-in account (optional: docs/accounts.md), set by signing "
            "in with a passkey. Every write it authenticates also needs the session's `X-CSRF-Token` "
            "header (from `GET /me`), ACCT-3.",
        },
    }
    problem = {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            extra = list(EVERY)
            if "x-seat-token" in operation:
                extra.append(429)  # a route that looks tokens up: the failed-token throttle (api/deps.py)
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                extra.append(400)  # a body that is not JSON (`malformed-json`)
            if "requestBody" in operation:
                extra.extend(BODIES)
            if method == "get" and (method, path) not in PROBES:
                extra.append(READS)
            if (method, path) not in NO_STORE:
                extra.append(STORE)
            for added in extra:
                responses.setdefault(str(added), {"description": DESCRIPTIONS[added]})
            for status, response in responses.items():
                if int(status) < 400 or ((method, path) in PROBES and status == "503"):
                    continue
                response["content"] = problem
                if int(status) == 422:
                    response["description"] = DESCRIPTIONS[422]
            security = _security(method, path, operation)
            if security is not None:
                operation["security"] = security
    _link_creations(spec)
    app.openapi_schema = spec
    return spec


def _link_creations(spec: dict[str, Any]) -> None:
    paths = spec["paths"]
    links = {
        name: {
            "operationId": paths[path][method]["operationId"],
            "parameters": {"game_id": "$response.body#/game_id", **extra},
            "description": f"The new game's {name.replace('_', ' ')}.",
        }
        for name, (method, path, extra) in NEXT.items()
    }
    for method, path in CREATIONS:
        paths[path][method]["responses"]["201"]["links"] = links


def install(app: FastAPI) -> None:
    app.openapi = lambda: openapi(app)  # type: ignore[method-assign]
