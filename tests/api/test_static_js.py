"""The web pages' modules (api/static/*.js) pass ESLint (scripts/jslint): no undefined name, no unused
one, no unreachable code. An undefined name inside a `catch` is a ReferenceError that swallows the
error it handles: the chat panel once showed nothing for a refused write that way."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = ROOT / "scripts" / "jslint"
STATIC = ROOT / "api" / "static"


def _eslint(*paths: Path, code: str | None = None) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    binary = LINT / "node_modules" / ".bin" / "eslint"
    if node is None or not binary.exists():
        if os.environ.get("GALILEO_REQUIRE_SERVICES") == "1":
            pytest.fail("ESLint is not installed: .ci/run runs `npm ci` in scripts/jslint (Node 20 and npm)")
        pytest.skip("ESLint needs Node 20 and `npm ci` in scripts/jslint")
    stdin = ["--stdin", "--stdin-filename", "api/static/page.js"] if code is not None else []
    return subprocess.run(
        [str(binary), "--config", str(LINT / "eslint.config.js"), *stdin, *map(str, paths)],
        cwd=ROOT,
        input=code,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_pages_modules_have_no_undefined_or_unused_names() -> None:
    result = _eslint(STATIC)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_lint_finds_a_name_that_a_catch_would_swallow() -> None:
    """The check itself: the slip chat.js once had (a name of another function used in a `catch`)."""
    page = (
        "export async function send(api) {\n"
        "  try {\n"
        "    await api();\n"
        "  } catch (error) {\n"
        "    if (look !== 1) return;\n"
        "    throw error;\n"
        "  }\n"
        "}\n"
    )
    result = _eslint(code=page)
    assert result.returncode == 1 and "'look' is not defined" in result.stdout, result.stdout + result.stderr
