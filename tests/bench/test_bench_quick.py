"""`python -m bench --json --quick` runs and prints the documented JSON (issue 17): the schema, not the
timings. The figures that start servers (HTTP, SSE, throughput) and the PostgreSQL ones are left to
`make bench`; the rest run here on tiny inputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.fair import FIGURES

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = (
    "engine_decision_vs_chess_playout_move",
    "evolve_vs_chess_push",
    "rebuild_random_version_sqlite",
    "rebuild_random_version_postgres",
    "submit_sqlite",
    "submit_postgres",
    "http_move_p50_sqlite",
    "http_move_p50_postgres",
    "sse_cross_process_p50",
    "stored_bytes_per_move_sqlite",
    "stats_p50_ms_100k_games",
    "lobby_deep_page_p50_ms_100k_games",
    "moves_per_second_per_process_sqlite",
    "moves_per_second_per_process_postgres",
)
QUICK = (
    "engine_decision_vs_chess_playout_move",
    "evolve_vs_chess_push",
    "rebuild_random_version_sqlite",
    "submit_sqlite",
    "stored_bytes_per_move_sqlite",
    "lobby_deep_page_p50_ms_100k_games",
)


def test_every_figure_of_the_issue_is_measured() -> None:
    assert set(REQUIRED) <= set(FIGURES)


def test_bench_quick_json_has_the_documented_schema(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench", "--json", "--quick", "--only", ",".join(QUICK)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    figures = json.loads(out.stdout)["figures"]
    assert list(figures) == list(QUICK)
    for name, figure in figures.items():
        assert {"value", "floor", "ratio", "unit", "goal", "better"} <= set(figure), name
        assert figure["better"] in ("lower", "higher"), name
        assert isinstance(figure["unit"], str) and figure["unit"], name
        assert figure["value"] > 0 and figure["floor"] > 0, name
        assert abs(figure["ratio"] - figure["value"] / figure["floor"]) < 1e-9 * figure["ratio"], name
        assert figure["goal"] is None or figure["goal"] > 0, name
