"""Issue 26, composition: the models are small named functions, each documented.

Every public module-level function in ``models/`` carries numpydoc ``Parameters`` and
``Returns`` sections; no function (docstring included) is longer than 100 lines; the
goodput step, which composes the named factor functions, is at most 60.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

MODELS = sorted((ROOT / "models").glob("*.py"))


def _trees():
    return {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in MODELS}


TREES = _trees()


def _length(node: ast.AST) -> int:
    return node.end_lineno - node.lineno + 1


def test_every_public_function_has_numpydoc_parameters_and_returns():
    missing = []
    for name, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                doc = ast.get_docstring(node) or ""
                if "Parameters\n" not in doc or "Returns\n" not in doc:
                    missing.append(f"{name}:{node.name}")
    assert len(missing) == 0, missing


@pytest.mark.parametrize("name", [p.name for p in MODELS])
def test_no_function_is_longer_than_100_lines(name):
    long = [
        (n.name, _length(n))
        for n in ast.walk(TREES[name])
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and _length(n) > 100
    ]
    assert not long, long


def test_goodput_step_composes_in_at_most_60_lines():
    (step,) = [
        n
        for n in TREES["chain.py"].body
        if isinstance(n, ast.FunctionDef) and n.name == "goodput_step"
    ]
    assert _length(step) <= 60
