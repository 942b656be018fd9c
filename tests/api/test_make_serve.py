"""`make serve PORT=… HOST=…` (README, set-up): the port and address reach `galileo serve`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_serve_takes_a_port_and_a_host() -> None:
    dry = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed", "serve", "PORT=8123", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "galileo serve --host 0.0.0.0 --port 8123" in dry
    assert "make serve PORT=" in (ROOT / "README.md").read_text()
