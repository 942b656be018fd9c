"""Request body size limits, enforced while the body streams in (an oversized body gets 413, never 500)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Pure ASGI middleware: `limit` bytes per request body, `import_limit` for POST /games/import."""

    def __init__(self, app: ASGIApp, limit: int, import_limit: int) -> None:
        self.app = app
        self.limit = limit
        self.import_limit = import_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.import_limit if scope["path"].rstrip("/") == "/games/import" else self.limit
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send, limit)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return message

        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(scope, receive, send, limit)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem(
            413, "body-too-large", f"request bodies are limited to {limit} bytes", scope["path"]
        )
        await response(scope, receive, send)
