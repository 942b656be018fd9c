"""A portable, seeded random generator for setup and forks (SET-3, SET-7, SET-23).

SHA-256 in counter mode: anyone holding the revealed seed can recompute every shuffle with any
SHA-256 implementation, so fairness checks do not depend on Python's `random` module or version.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class SeededRandom:
    """Deterministic stream of integers derived from a seed string and a purpose label."""

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, seed: str, purpose: str) -> None:
        self._key = hashlib.sha256(f"galileo:{purpose}:{seed}".encode()).digest()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        nbytes = (n.bit_length() + 7) // 8
        limit = (256**nbytes // n) * n
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big")
            if value < limit:
                return value % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates shuffle of a copy of `items`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]


def digest(*parts: str) -> str:
    """SHA-256 hex of the parts joined by newlines (used for salts and commitments)."""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
