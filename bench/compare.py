"""Compare the rules engine of this checkout with another git revision, interleaved.

    python -m bench.compare REV [--runs 5]

Checks REV out into a temporary worktree, then runs the same measuring script (`bench/_engine_probe.py`)
alternately against each tree (`PYTHONPATH` points at the tree, so `domain` is that revision's) and prints
the median of each figure with the ratio this/REV. The figures are CPU seconds of the measuring process
(`time.process_time`), so other work on the machine changes them less than wall time; interleaving
spreads what remains over both sides. Only engine APIs present since the first release are used.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "_engine_probe.py"


def probe(tree: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, str(PROBE)], cwd=tree, env=env, check=True, capture_output=True, text=True
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the git revision to compare against (e.g. a release tag or a commit)")
    parser.add_argument("--runs", type=int, default=5, help="measurements per side (median reported)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        add = ["git", "worktree", "add", "--detach", "-q", str(other), args.rev]
        subprocess.run(add, cwd=ROOT, check=True)
        try:
            runs: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
            for i in range(args.runs):
                for side, tree in (
                    (("this", ROOT), ("other", other))
                    if i % 2 == 0
                    else (
                        ("other", other),
                        ("this", ROOT),
                    )
                ):
                    runs[side].append(probe(tree))
                    print(f"run {i + 1}/{args.runs} {side}: {runs[side][-1]}", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=True)
    print(f"median of {args.runs} interleaved runs, CPU time; this = working tree, other = {args.rev}")
    print(f"{'figure':<44} {'this':>12} {'other':>12} {'this/other':>10}")
    for name in runs["this"][0]:
        mine = statistics.median(r[name] for r in runs["this"])
        theirs = statistics.median(r[name] for r in runs["other"])
        print(f"{name:<44} {mine:>12,.1f} {theirs:>12,.1f} {mine / theirs:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
