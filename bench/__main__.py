"""The benchmarks: every figure of `bench/fair.py` against its fair floor, measured in one run.

python -m bench                 a table of every figure (what `make bench` prints)
python -m bench --json          the same as one JSON document {"figures": {NAME: {...}}}
python -m bench --quick         tiny inputs: a smoke test of the harness (timings mean nothing)
python -m bench --only A,B      only the named figures
python -m bench --legacy        the older per-area scripts (`bench/bench_*.py`), each its `main()`
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys

import bench


def discover() -> list[str]:
    """Names of the older per-area benchmark modules, sorted."""
    modules = pkgutil.iter_modules(bench.__path__)
    return sorted(f"bench.{info.name}" for info in modules if info.name.startswith("bench_"))


def legacy() -> int:
    for name in discover():
        module = importlib.import_module(name)
        entry = getattr(module, "main", None)
        if not callable(entry):
            print(f"{name}: no main() function, skipped", file=sys.stderr)
            continue
        print(f"== {name}", flush=True)
        entry()
    return 0


def run(argv: list[str] | None = None) -> int:
    from bench.fair import FIGURES, measure, table

    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--quick", action="store_true", help="tiny inputs (a smoke test)")
    parser.add_argument("--only", default="", help="comma-separated figure names")
    parser.add_argument("--legacy", action="store_true", help="run the older bench_*.py scripts")
    args = parser.parse_args(argv)
    if args.legacy:
        return legacy()
    names = [n for n in args.only.split(",") if n] or list(FIGURES)
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        parser.error(f"unknown figure(s) {', '.join(unknown)}: one of {', '.join(FIGURES)}")
    figures = measure(names, args.quick, lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps({"figures": figures}, indent=2))
    else:
        print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(run())
