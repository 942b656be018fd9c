"""Regenerate the golden playthrough files: `python scripts/regen_golden.py` (then review the diff).

One file per catalog edition (docs/editions.md). A released edition's file never changes: only a new
edition gets a new file, and the test fails if an old one would change.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.bots import make_bot
from domain.playthrough import playthrough
from domain.selfplay import default_setup

FOLDER = Path(__file__).resolve().parents[1] / "tests" / "domain" / "golden"
SEED = "golden-1"
GOLDEN_FILES = {  # catalog edition -> its golden playthrough
    "base-provisional-1": FOLDER / "playthrough-3p-greedy.txt",
    "base-2": FOLDER / "playthrough-3p-greedy-base-2.txt",
}
GOLDEN = GOLDEN_FILES["base-provisional-1"]


def golden_lines(edition: str = "base-provisional-1") -> list[str]:
    setup = replace(default_setup(3, SEED), catalog_edition=edition)
    return playthrough(setup, [make_bot("greedy", f"{SEED}:{i}") for i in range(3)])


if __name__ == "__main__":
    for name in sys.argv[1:] or list(GOLDEN_FILES):
        path = GOLDEN_FILES[name]
        path.write_text("\n".join(golden_lines(name)) + "\n", encoding="utf-8")
        print(f"wrote {path}")
