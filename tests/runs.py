"""Sizes of property runs: a fixed sample in the default suite (`make test`), the whole run under the
`soak` marker (`make soak`). Both use the same fixed seeds; the sample is the first `sample` of them."""

from __future__ import annotations

from typing import Any

import pytest


def runs(sample: int, soak: int) -> list[Any]:
    """Parameters for a test taking a game count: `sample` games by default, `soak` games in `make soak`."""
    return [
        pytest.param(sample, id=f"sample-{sample}", marks=pytest.mark.slow),
        pytest.param(soak, id=f"soak-{soak}", marks=pytest.mark.soak),
    ]
