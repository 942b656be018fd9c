"""Every domain module imports on its own, in any order: no import cycle among them, no package that
must be imported first for its side effects (issue 33).

Importing `domain.x.y` runs `domain/__init__.py` first, and that loads the decider and so every rules
module in one fixed order, which would hide a cycle that only bites from another entry point. So the
imports below run in fresh interpreters with a bare `domain` package in its place: each module then
pulls in only what it imports itself. A static check reads the module-level imports and finds no cycle.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(_module_name(path) for path in DOMAIN.rglob("*.py"))


def _imported(node: ast.stmt) -> list[str]:
    """The modules a module-level statement imports (a `TYPE_CHECKING` block imports nothing)."""
    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        return [name for inner in node.orelse for name in _imported(inner)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []  # an import inside a function runs when called, not at import
    names: list[str] = []
    for inner in ast.walk(node):
        if isinstance(inner, ast.Import):
            names += [alias.name for alias in inner.names]
        elif isinstance(inner, ast.ImportFrom) and inner.module and inner.level == 0:
            names.append(inner.module)
            names += [f"{inner.module}.{alias.name}" for alias in inner.names]
    return names


def _graph() -> dict[str, set[str]]:
    """module -> the domain modules its import runs (a module's own packages excluded: they are loaded
    before it); importing `a.b.c` runs `a` and `a.b` too."""
    known = set(MODULES)
    graph: dict[str, set[str]] = {}
    for path in DOMAIN.rglob("*.py"):
        name = _module_name(path)
        edges: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            for imported in _imported(node):
                bits = imported.split(".")
                for end in range(1, len(bits) + 1):
                    target = ".".join(bits[:end])
                    if target in known and target != name and not name.startswith(target + "."):
                        edges.add(target)
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_no_import_cycle_among_domain_modules() -> None:
    graph = _graph()
    assert len(graph) == len(MODULES) > 80
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_package_inits_load_no_submodule_for_its_side_effects() -> None:
    """A package `__init__` imports none of its submodules to have them loaded (the plug-ins' packages
    are docstrings); a facade (`domain`, `domain.catalog`) imports only names it re-exports."""
    for path in DOMAIN.rglob("__init__.py"):
        package = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exported = {
            element.value
            for node in tree.body
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
            for element in getattr(node.value, "elts", [])
            if isinstance(element, ast.Constant)
        }
        for node in tree.body:
            if isinstance(node, ast.Import):
                assert not any(alias.name.startswith(package + ".") for alias in node.names), package
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == package:
                    loaded = [
                        alias.name
                        for alias in node.names
                        if (path.parent / alias.name).exists() or (path.parent / f"{alias.name}.py").exists()
                    ]
                    assert not loaded, f"{package} imports its submodules {loaded}"
                elif node.module.startswith(package + "."):
                    hidden = sorted({alias.asname or alias.name for alias in node.names} - exported)
                    assert not hidden, f"{package} imports {hidden} from {node.module} without exporting them"


_PROBE = """
import importlib, sys, types
bare = types.ModuleType("domain")
bare.__path__ = [{domain!r}]
sys.modules["domain"] = bare
for name in {names!r}:
    importlib.import_module(name)
assert sys.modules["domain"] is bare
print(len({names!r}))
"""


def _import_in_fresh_interpreter(names: list[str]) -> None:
    code = _PROBE.format(domain=str(DOMAIN), names=names)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [str(len(names))]


SUBMODULES = [name for name in MODULES if name != "domain"]


@pytest.mark.parametrize("order", ["sorted", "reversed", "shuffled-7", "shuffled-33"])
def test_every_domain_module_imports_in_any_order(order: str) -> None:
    """Each interpreter imports every module once, in its own order, each first seen on its own."""
    names = list(SUBMODULES)
    if order == "reversed":
        names.reverse()
    elif order.startswith("shuffled"):
        random.Random(int(order.split("-")[1])).shuffle(names)
    _import_in_fresh_interpreter(names)


def test_domain_imports_alone() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import domain; print(len(domain.__all__))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout) > 10
