"""domain/search.py as named steps (issue 33): no function of the search over complexity 10, and the
one-pass margins the same as each seat's score minus the best other seat's."""

from __future__ import annotations

import ast
from pathlib import Path

from domain.search import _margins

SEARCH = Path(__file__).resolve().parents[2] / "domain" / "search.py"
MOST = 10

# The strict reading of McCabe's count: one plus every branch (if, loop, conditional expression, except,
# match case, comprehension clause and its conditions, assert) and every extra operand of `and`/`or`.
_BRANCHES = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.IfExp,
    ast.ExceptHandler,
    ast.match_case,
    ast.Assert,
)


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    count = 1
    for node in ast.walk(function):
        if isinstance(node, _BRANCHES):
            count += 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
    return count


def test_counter_counts_branches_and_boolean_operands() -> None:
    source = (
        "def f(a, b):\n    if a and b or a:\n        return [x for x in a if x]\n    return b if a else a\n"
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert complexity(function) == 1 + 1 + 1 + 1 + 2 + 1  # if, and, or, for + if, conditional


def test_no_search_function_over_complexity_ten() -> None:
    tree = ast.parse(SEARCH.read_text(encoding="utf-8"))
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert any(f.name == "search" for f in functions)
    over = {f.name: complexity(f) for f in functions if complexity(f) > MOST}
    assert not over, over


def test_margins_are_score_minus_best_other() -> None:
    cases = [
        (3.0, 5.0),
        (5.0, 5.0),
        (5.0, 5.0, 3.0),
        (1.5, -2.0, 7.25, 7.0),
        (0.0, 0.0, 0.0, 0.0),
        (2.0, 9.0, 9.0),
    ]
    for scores in cases:
        expected = tuple(s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores))
        assert _margins(scores) == expected
