"""Sizes of property runs: a fixed sample in the default suite (`make test`), the whole run under the
`soak` marker (`make soak`). Both use the same fixed seeds; the sample is the first `sample` of them.

The same for checks made at versions of a stored game: a fixed, spread sample of versions by default
(`versions`), every version under `soak`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

EVERY_VERSION = 1


def runs(sample: int, soak: int) -> list[Any]:
    """Parameters for a test taking a game count: `sample` games by default, `soak` games in `make soak`."""
    return [
        pytest.param(sample, id=f"sample-{sample}", marks=pytest.mark.slow),
        pytest.param(soak, id=f"soak-{soak}", marks=pytest.mark.soak),
    ]


def version_steps(sample: int) -> list[Any]:
    """Parameters for a test checking versions of a game: every `sample`-th version (plus the versions
    `versions` always adds) by default, every version in `make soak`."""
    return [
        pytest.param(sample, id=f"every-{sample}th-version", marks=pytest.mark.slow),
        pytest.param(EVERY_VERSION, id="every-version", marks=pytest.mark.soak),
    ]


def versions(head: int, step: int, boundaries: Iterable[int] = ()) -> list[int]:
    """Versions 1..head to check: every `step`-th (a prime step reaches every position within a batch of
    events and within a snapshot interval), the first two and the last two, and each of `boundaries`
    (for example where a snapshot is taken or a batch starts) with its neighbours."""
    picked = set(range(1, head + 1, step)) | {1, 2, head - 1, head}
    for boundary in boundaries:
        picked |= {boundary - 1, boundary, boundary + 1}
    return sorted(v for v in picked if 1 <= v <= head)
