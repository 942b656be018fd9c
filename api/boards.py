"""Board views for the API: the projection function of `projections.views` plus what the API keeps of
the game (how its deal came about), cached by (game, version, viewer class) in Redis when it is
configured. The cache is an optimisation only: any Redis error means the view is computed, never that the
request fails. A seat's view holds that seat's private cards: Redis is trusted like the store itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

import orjson

from domain import GameState
from projections.views import Viewer, board_view

logger = logging.getLogger(__name__)

KEY_PREFIX = "galileo:view:"


def render(
    state: GameState, version: int, viewer: Viewer, deal: str | None, clock: dict[str, Any] | None = None
) -> bytes:
    return orjson.dumps({**board_view(state, version, viewer), "deal": deal, "clock": clock})


def cache_key(game_id: str, version: int, viewer: Viewer) -> str:
    return f"{KEY_PREFIX}{game_id}:{version}:{viewer.cls}"


class ViewCache(Protocol):
    async def get(self, key: str) -> bytes | None: ...
    async def put(self, key: str, body: bytes) -> None: ...
    async def close(self) -> None: ...


class NoCache:
    async def get(self, key: str) -> bytes | None:
        return None

    async def put(self, key: str, body: bytes) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisViewCache:
    """Views by key in Redis with a lifetime; a view for a given version never changes, so no invalidation."""

    def __init__(self, url: str, ttl: int, timeout: float) -> None:
        import redis.asyncio as aioredis

        self._client: Any = aioredis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, retry_on_timeout=False
        )
        self._ttl = ttl
        self._timeout = timeout
        self.hits = 0
        self.misses = 0

    async def get(self, key: str) -> bytes | None:
        try:
            value = await asyncio.wait_for(self._client.get(key), self._timeout)
        except Exception:
            return None
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        return bytes(value)

    async def put(self, key: str, body: bytes) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._client.set(key, body, ex=self._ttl), self._timeout)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._client.aclose()


def make_cache(redis_url: str | None, ttl: int, timeout: float) -> ViewCache:
    return RedisViewCache(redis_url, ttl, timeout) if redis_url else NoCache()
