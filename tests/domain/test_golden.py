"""The golden playthroughs (fixed seed, every decision, legal-move count and event) are reproduced, one
per catalog edition; a released edition's file never changes (docs/editions.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REGEN = _module()


@pytest.mark.parametrize("name", list(REGEN.GOLDEN))
def test_golden_playthrough_is_reproduced(name: str) -> None:
    _, edition, rules = REGEN.GOLDEN[name]
    expected = REGEN.GOLDEN_FILES[name].read_text(encoding="utf-8").splitlines()
    got = REGEN.golden_lines(name)
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        assert a == b, (
            f"line {i + 1} differs (run `python scripts/regen_golden.py {name}` if intended):\n{a}\n{b}"
        )
    assert len(expected) == len(got)
    assert any(line.startswith("  GameEnded") for line in got)
    assert f'"catalog_edition":"{edition}"' in got[2] and f'"engine_version":"{rules}"' in got[2]
