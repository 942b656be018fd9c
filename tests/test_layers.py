"""The packages are layers (issue 33): a package imports only the packages of the layers below it, never
one above (nor a package beside it). Every import counts: at module level, inside a function (an import
done late is still a dependency) and under `TYPE_CHECKING`.

    domain, rulebook   the rules engine (pure) and the rules reference (rule IDs as data): they import
                       none of the others
    replays            the event store and the application over it: commands, the table's facts, clocks,
                       verification, export, analysis jobs, tournaments
    projections        read models over the store's events, their words (i18n) and terminal views
    api                the HTTP service and the `galileo` command line, which compose all of the above

bench/, scripts/ and tests/ sit outside the layers: they may use any package.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS: tuple[tuple[str, ...], ...] = (("domain", "rulebook"), ("replays",), ("projections",), ("api",))
LAYER = {package: level for level, packages in enumerate(LAYERS) for package in packages}
OUTSIDE = frozenset({"bench", "scripts", "tests"})


def imported(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, module) of every absolute import in `tree`, wherever it stands."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"line {node.lineno}: a relative import (the layers read absolute ones)"
            if node.module:
                yield node.lineno, node.module


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def upward(path: Path) -> list[str]:
    """The imports of `path` that reach a package of its own layer or above, as "line: module"."""
    own = path.relative_to(ROOT).parts[0]
    out = []
    for line, module in imported(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        top = module.split(".")[0]
        if top != own and top in LAYER and LAYER[top] >= LAYER[own]:
            out.append(f"{path.relative_to(ROOT)}:{line}: {own} imports {module}")
    return out


@pytest.mark.parametrize("package", list(LAYER))
def test_no_package_imports_one_above_it(package: str) -> None:
    found = modules(package)
    assert found, f"{package}/ holds no module"
    assert [problem for path in found for problem in upward(path)] == []


def test_the_check_sees_late_and_type_checking_imports(tmp_path: Path) -> None:
    """An import in a function body or under TYPE_CHECKING counts like one at the top."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from api.runtime import Runtime\n"
        "def f() -> None:\n    import projections.i18n\n    from domain import start\n"
    )
    assert sorted(m for _, m in imported(ast.parse(source))) == [
        "api.runtime",
        "domain",
        "projections.i18n",
        "typing",
    ]


def test_every_package_has_a_layer() -> None:
    """A new top-level package of the distribution gets a place in LAYERS (pyproject's `include`)."""
    found = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    include = tomllib.loads(found)["tool"]["setuptools"]["packages"]["find"]["include"]
    assert {pattern.rstrip("*") for pattern in include} == set(LAYER)
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    assert packages - OUTSIDE == set(LAYER)
