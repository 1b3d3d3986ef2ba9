"""Issue 26 item 3 for the simulator and decision modules: composition and numpydoc."""

import ast
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"
FILES = ["montecarlo", "evaluate", "decide", "uncertainty", "resilience", "sensitivity", "sweep"]


@pytest.mark.parametrize("name", FILES)
def test_no_function_over_100_lines(name):
    tree = ast.parse((MODELS / f"{name}.py").read_text())
    long = [
        (n.name, n.end_lineno - n.lineno + 1)
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        and n.end_lineno - n.lineno + 1 > 100
    ]
    assert long == []


@pytest.mark.parametrize("name", FILES)
def test_public_functions_have_parameters_and_returns(name):
    tree = ast.parse((MODELS / f"{name}.py").read_text())
    missing = [
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef)
        and not n.name.startswith("_")
        and not all(s in (ast.get_docstring(n) or "") for s in ("Parameters", "Returns"))
    ]
    assert missing == []
