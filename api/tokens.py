"""Seat tokens: secret bearer tokens, stored only as their SHA-256, never logged (design.md, "api/")."""

from __future__ import annotations

import hashlib
import logging
import re
import secrets

PREFIX = "gg_"  # recognisable in leaked text, so logs can be scrubbed and scanners can find it
TOKEN_PATTERN = re.compile(r"gg_[A-Za-z0-9_-]{20,}")
REDACTED = "gg_[redacted]"
# What the logs are scrubbed of: a token as it is, or percent-encoded in part or in whole, as a URL may
# carry it (`gg%5F...`, `%67%67%5f...`: a request line is logged as the client sent it); and whatever an
# `access_token` query parameter holds, in any spelling of its name (a stream's token for EventSource).
_CHAR = r"(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2})"
_SCRUBBED = re.compile(
    r"(?P<param>access(?:_|%5F)token=)[^&\s\"']+|(?:g|%67)(?:g|%67)(?:_|%5F)" + _CHAR + r"{20,}",
    re.IGNORECASE,
)


def new_token() -> str:
    """A fresh seat token: 32 random bytes, URL-safe."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored and looked up: SHA-256 of the token (the token itself is never kept)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def looks_like_token(text: str) -> bool:
    return TOKEN_PATTERN.fullmatch(text) is not None


def scrub(text: str) -> str:
    """`text` with every seat token (as it is or percent-encoded) and every `access_token` query value
    replaced by a placeholder."""
    return _SCRUBBED.sub(lambda m: (m["param"] or "") + REDACTED, text)


def _suspect(text: str) -> bool:
    """Whether `text` may hold a token (the quick test before the scrubbing regular expression)."""
    lowered = text.lower()
    return "gg" in lowered or "%67" in lowered or "token" in lowered


def _scrub_arg(value: object) -> object:
    if isinstance(value, int | float | bool) or value is None:
        return value
    text = str(value)  # URLs and headers are often objects (httpx.URL, starlette URL)
    return scrub(text) if _suspect(text) else value


class TokenFilter(logging.Filter):
    """Removes seat tokens from every log record (messages and their arguments, e.g. access-log URLs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            record.msg = _scrub_arg(record.msg)
        elif _suspect(record.msg):
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
