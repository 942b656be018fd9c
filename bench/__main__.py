"""Run every benchmark module `bench/bench_*.py` in name order by calling its `main()`."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def discover() -> list[str]:
    """Names of the benchmark modules, sorted."""
    modules = pkgutil.iter_modules(bench.__path__)
    return sorted(f"bench.{info.name}" for info in modules if info.name.startswith("bench_"))


def run() -> int:
    names = discover()
    if not names:
        print("no benchmarks yet")
        return 0
    for name in names:
        module = importlib.import_module(name)
        entry = getattr(module, "main", None)
        if not callable(entry):
            print(f"{name}: no main() function, skipped", file=sys.stderr)
            continue
        print(f"== {name}", flush=True)
        entry()
    return 0


if __name__ == "__main__":
    sys.exit(run())
