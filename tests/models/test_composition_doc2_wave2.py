"""Issue 26 item 3 on the compute, transformer, network, instance, catalog, pricing, plan
and optimize models: no function over 100 lines, numpydoc Parameters and Returns on every
public module-level function (measured with the AST, so the test is fast)."""

import ast
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"
FILES = ("compute", "transformer", "network", "instances", "catalog", "pricing", "plan", "optimize")
MAX_LINES = 100


def _tree(name: str) -> ast.Module:
    return ast.parse((MODELS / f"{name}.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FILES)
def test_no_function_longer_than_100_lines(name):
    long = [
        (n.name, n.end_lineno - n.lineno + 1)
        for n in ast.walk(_tree(name))
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        and n.end_lineno - n.lineno + 1 > MAX_LINES
    ]
    assert long == []


@pytest.mark.parametrize("name", FILES)
def test_public_functions_document_parameters_and_returns(name):
    missing = [
        n.name
        for n in _tree(name).body
        if isinstance(n, ast.FunctionDef)
        and not n.name.startswith("_")
        and not (
            (doc := ast.get_docstring(n) or "")
            and "Parameters\n    ----------" in (ast.get_docstring(n, clean=False) or "")
            and "Returns" in doc
        )
    ]
    assert missing == []
