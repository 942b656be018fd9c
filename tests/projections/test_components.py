"""The catalog as the pages get it carries the engine's vocabulary, so that the pages write none of it
again (issue 33): the library rows, and each reward code read by the one grammar."""

from __future__ import annotations

import re
from pathlib import Path

from domain.catalog import load_catalog
from domain.catalog.rewards import read_reward_code
from domain.commands import ROWS
from domain.expansions.plugins import every_plugin
from projections.components import catalog_json, localized_catalog_json

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"


def test_the_catalog_json_names_the_library_rows_and_reads_every_reward_code() -> None:
    for edition in ("current", "base-provisional-1"):
        data = catalog_json(load_catalog(edition))
        assert data["library_rows"] == list(ROWS) == ["R1", "R2", "R3", "R4"]
        readings = data["reward_codes"]
        for printed in data["library_printed"]:
            for code in printed:
                assert readings[code] == list(read_reward_code(code) or ()), code
        assert readings["PERx3"] == ["PER", 3, ""] and readings["INC2:R"] == ["INC", 2, "R"]
        for code, task in every_plugin().reward_codes.items():
            assert readings[code] == [task.kind, task.n, task.arg]
        assert localized_catalog_json(load_catalog(edition), "de")["reward_codes"] == readings


def test_the_pages_do_not_write_the_reward_grammar_or_the_rows_again() -> None:
    svg = (STATIC / "svg.js").read_text(encoding="utf-8")
    assert re.search(r"/\^[^/]*(VP|PER|INC|W\(|1D)", svg) is None  # no regex of a reward code
    for page in STATIC.glob("*.js"):
        assert '"R1", "R2"' not in page.read_text(encoding="utf-8"), page.name
