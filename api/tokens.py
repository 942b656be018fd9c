"""Seat tokens: secret bearer tokens, stored only as their SHA-256, never logged (design.md, "api/")."""

from __future__ import annotations

import hashlib
import logging
import re
import secrets

PREFIX = "gg_"  # recognisable in leaked text, so logs can be scrubbed and scanners can find it
TOKEN_PATTERN = re.compile(r"gg_[A-Za-z0-9_-]{20,}")
REDACTED = "gg_[redacted]"


def new_token() -> str:
    """A fresh seat token: 32 random bytes, URL-safe."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored and looked up: SHA-256 of the token (the token itself is never kept)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def looks_like_token(text: str) -> bool:
    return TOKEN_PATTERN.fullmatch(text) is not None


def scrub(text: str) -> str:
    """`text` with every seat token replaced by a placeholder."""
    return TOKEN_PATTERN.sub(REDACTED, text)


def _scrub_arg(value: object) -> object:
    if isinstance(value, int | float | bool) or value is None:
        return value
    text = str(value)  # URLs and headers are often objects (httpx.URL, starlette URL)
    return scrub(text) if PREFIX in text else value


class TokenFilter(logging.Filter):
    """Removes seat tokens from every log record (messages and their arguments, e.g. access-log URLs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            record.msg = _scrub_arg(record.msg)
        elif PREFIX in record.msg:
            record.msg = scrub(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_scrub_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _scrub_arg(v) for k, v in record.args.items()}
        return True


LOGGERS = ("", "uvicorn", "uvicorn.access", "uvicorn.error", "fastapi", "api", "replays", "httpx")


def install_token_filter() -> None:
    """Attach the filter to the loggers and to every handler they have (handlers see propagated records)."""
    token_filter = TokenFilter()
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenFilter) for f in logger.filters):
            logger.addFilter(token_filter)
        for handler in logger.handlers:
            if not any(isinstance(f, TokenFilter) for f in handler.filters):
                handler.addFilter(token_filter)
