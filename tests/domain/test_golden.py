"""The golden playthrough (fixed seed, every decision, legal-move count and event) is reproduced."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_golden_playthrough_is_reproduced() -> None:
    regen = _module()
    expected = regen.GOLDEN.read_text(encoding="utf-8").splitlines()
    got = regen.golden_lines()
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        assert a == b, f"line {i + 1} differs (run `python scripts/regen_golden.py` if intended):\n{a}\n{b}"
    assert len(expected) == len(got)
    assert any(line.startswith("  GameEnded") for line in got)
