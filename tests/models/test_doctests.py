"""Every example in the models' docstrings runs and prints what it says (the numbers a
reader copies from the documentation are the code's)."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.conftest import ROOT

MODULES = sorted(p.stem for p in (ROOT / "models").glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(f"goodput_lab.models.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples fail in {name}"
