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
# name -> (its file, catalog edition, rules version). A released edition's or rules version's file never
# changes: a new one gets a new file (docs/editions.md).
GOLDEN: dict[str, tuple[Path, str, str]] = {
    "base-provisional-1": (FOLDER / "playthrough-3p-greedy.txt", "base-provisional-1", "0.1.0"),
    "base-2": (FOLDER / "playthrough-3p-greedy-base-2.txt", "base-2", "0.1.0"),
    "base-2@0.2.0": (FOLDER / "playthrough-3p-greedy-base-2-rules-0.2.0.txt", "base-2", "0.2.0"),
    "base-3@0.2.0": (FOLDER / "playthrough-3p-greedy-base-3-rules-0.2.0.txt", "base-3", "0.2.0"),
    "base-3-ability@0.2.0": (
        FOLDER / "playthrough-3p-greedy-base-3-ability-rules-0.2.0.txt",
        "base-3",
        "0.2.0",
    ),
    "base-4-luna-ability@0.2.0": (
        FOLDER / "playthrough-3p-greedy-base-4-luna-ability-rules-0.2.0.txt",
        "base-4",
        "0.2.0",
    ),
    # rules 0.3.0: Hevelius' reshuffles committed at setup, her claims open in Cleanup (CHAR-HEV-4, -7)
    "base-4-luna-ability@0.3.0": (
        FOLDER / "playthrough-3p-greedy-base-4-luna-ability-rules-0.3.0.txt",
        "base-4",
        "0.3.0",
    ),
    # rules 0.4.0 (issue 27): Copernicus' tiles right of the Book token, Hevelius' discard, Cunitz' page parts
    "base-4-luna-ability@0.4.0": (
        FOLDER / "playthrough-3p-greedy-base-4-luna-ability-rules-0.4.0.txt",
        "base-4",
        "0.4.0",
    ),
}
# The characters' side in a golden game (CHAR-1): every seat on its ability side in the named ones.
ABILITY = (
    "base-3-ability@0.2.0",
    "base-4-luna-ability@0.2.0",
    "base-4-luna-ability@0.3.0",
    "base-4-luna-ability@0.4.0",
)
# The characters of a golden game other than the base four (issue 12: the Luna characters' abilities).
CHARACTERS = {
    "base-4-luna-ability@0.2.0": ("newton", "hevelius", "cunitz"),
    "base-4-luna-ability@0.3.0": ("newton", "hevelius", "cunitz"),
    "base-4-luna-ability@0.4.0": ("copernicus", "hevelius", "cunitz"),
}
GOLDEN_FILES = {name: path for name, (path, _, _) in GOLDEN.items()}


def golden_lines(name: str = "base-provisional-1") -> list[str]:
    _, edition, rules = GOLDEN[name]
    side = "ability" if name in ABILITY else "basic"
    setup = default_setup(3, SEED, side=side, characters=CHARACTERS.get(name, ()))
    setup = replace(setup, catalog_edition=edition, engine_version=rules)
    return playthrough(setup, [make_bot("greedy", f"{SEED}:{i}") for i in range(3)])


if __name__ == "__main__":
    for name in sys.argv[1:] or list(GOLDEN):
        path = GOLDEN_FILES[name]
        path.write_text("\n".join(golden_lines(name)) + "\n", encoding="utf-8")
        print(f"wrote {path}")
