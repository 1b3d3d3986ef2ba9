"""Issue 26 item 3 on the chain, checkpoint and goodput modules: no function over 100 lines,
``goodput_step`` at most 60, and numpydoc Parameters and Returns on every public function."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

FILES = [
    "chain",
    "checkpoint",
    "goodput",
    "reliability",
    "recovery",
    "failure_modes",
    "special",
    "_tools",
    "budget",
    "badput",
]


def _functions(name):
    tree = ast.parse((ROOT / "models" / f"{name}.py").read_text())
    return tree, [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


@pytest.mark.parametrize("name", FILES)
def test_no_function_over_100_lines(name):
    _, funcs = _functions(name)
    long = {f.name: f.end_lineno - f.lineno + 1 for f in funcs if f.end_lineno - f.lineno >= 100}
    assert long == {}


def test_goodput_step_is_at_most_60_lines():
    _, funcs = _functions("chain")
    (f,) = [f for f in funcs if f.name == "goodput_step"]
    assert f.end_lineno - f.lineno + 1 <= 60


@pytest.mark.parametrize("name", FILES)
def test_public_functions_have_parameters_and_returns(name):
    tree, _ = _functions(name)
    missing = [
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef)
        and not n.name.startswith("_")
        and not all(s in (ast.get_docstring(n) or "") for s in ("Parameters", "Returns"))
    ]
    assert missing == []
