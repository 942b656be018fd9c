"""Regenerate the golden playthrough file: `python scripts/regen_golden.py` (then review the diff)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.bots import make_bot
from domain.playthrough import playthrough
from domain.selfplay import default_setup

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "domain" / "golden" / "playthrough-3p-greedy.txt"
SEED = "golden-1"


def golden_lines() -> list[str]:
    setup = default_setup(3, SEED)
    return playthrough(setup, [make_bot("greedy", f"{SEED}:{i}") for i in range(3)])


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(golden_lines()) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
