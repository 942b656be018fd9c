"""The rules engine stays pure (style.md house habit 1): no framework, clock, randomness, I/O or OS access."""

from __future__ import annotations

import ast
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"

FORBIDDEN_MODULES = frozenset(
    {
        "fastapi", "starlette", "pydantic", "eventsourcing", "redis", "psycopg", "psycopg_pool",
        "sqlite3", "httpx", "uvicorn", "typer", "rich", "os", "io", "pathlib", "shutil", "socket",
        "subprocess", "threading", "asyncio", "time", "datetime", "random", "secrets", "uuid", "logging",
        "tempfile", "glob",
    }
)  # fmt: skip
FORBIDDEN_CALLS = frozenset({"open", "print", "input"})

# The catalog loader reads the package's own JSON data files, and the component names their TOML files;
# nothing else in domain/ may do so.
ALLOWED_IMPORTS: dict[str, frozenset[str]] = {
    "catalog/loader.py": frozenset({"importlib.resources", "json"}),
    "catalog/names.py": frozenset({"importlib.resources", "tomllib"}),
}


def _imported_modules(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return []


def offences_in_source(source: str, where: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Every forbidden import or call in one module's source, as 'where:line: what'."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename=where)):
        for module in _imported_modules(node):
            if module.split(".")[0] in FORBIDDEN_MODULES and not any(
                module == ok or module.startswith(ok + ".") for ok in allowed
            ):
                found.append((node.lineno, f"imports {module}"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append((node.lineno, f"calls {node.func.id}()"))
    return [f"{where}:{line}: {what}" for line, what in sorted(found)]


def offences_in(path: Path) -> list[str]:
    relative = path.relative_to(DOMAIN).as_posix()
    source = path.read_text(encoding="utf-8")
    return offences_in_source(source, f"domain/{relative}", ALLOWED_IMPORTS.get(relative, frozenset()))


def test_domain_imports_no_framework_clock_randomness_or_io() -> None:
    files = sorted(DOMAIN.rglob("*.py"))
    assert files, "domain/ has no Python files"
    offences = [offence for path in files for offence in offences_in(path)]
    assert not offences, "domain/ must stay pure:\n" + "\n".join(offences)


def test_scanner_reports_each_offence_with_file_and_line() -> None:
    """Guards against a scan that silently passes."""
    source = (
        "import os.path\n"
        "from datetime import date\n"
        "from json import loads\n"
        "def f():\n"
        "    import random\n"
        "    print(loads('1'))\n"
        "    return open('x')\n"
    )
    assert offences_in_source(source, "domain/x.py") == [
        "domain/x.py:1: imports os.path",
        "domain/x.py:2: imports datetime",
        "domain/x.py:2: imports datetime.date",
        "domain/x.py:5: imports random",
        "domain/x.py:6: calls print()",
        "domain/x.py:7: calls open()",
    ]


def test_loader_exception_is_limited_to_resources_and_json() -> None:
    allowed = ALLOWED_IMPORTS["catalog/loader.py"]
    source = "import json\nfrom importlib import resources\nimport importlib.resources\nimport os\n"
    assert offences_in_source(source, "domain/catalog/loader.py", allowed) == [
        "domain/catalog/loader.py:4: imports os"
    ]


def test_importing_domain_reads_no_data_file() -> None:
    """No import-time side effects: importing `domain` (every plug-in with it) opens only its modules;
    the catalog and other data are read when a game first asks for them."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "opened = []\n"
        "def hook(event, args):\n"
        "    if event == 'open' and isinstance(args[0], str) and not args[0].endswith(('.py', '.pyc')):\n"
        "        opened.append(args[0])\n"
        "sys.addaudithook(hook)\n"
        "import domain, domain.bots, domain.selfplay, domain.search, domain.analysis\n"
        "print('\\n'.join(p for p in opened if '/domain/' in p))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "", result.stdout
