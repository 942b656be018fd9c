"""`galileo train` reproduces the shipped model file bit for bit from the options it records (issue 34:
docs/learned-evaluation.md). The shipped model was trained on a small budget, so this is the whole run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import domain
from api.cli import app


def test_galileo_train_reproduces_the_shipped_model_bit_for_bit(tmp_path: Path) -> None:
    shipped = Path(domain.__file__).parent / "catalog" / "models" / "value-v1.json"
    trained = json.loads(shipped.read_text(encoding="utf-8"))["trained"]
    assert trained["budget"] == "i24-d2-h1-c1.5"  # the command's default `--budget i=24/d=2`
    out = tmp_path / "model.json"
    args = ["train", "--seed", trained["seed"], "--games", trained["games"], "--rounds", trained["rounds"]]
    args += ["--search-games", trained["search_games"], "--players", trained["players"], "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == shipped.read_bytes()
