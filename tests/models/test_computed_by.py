"""Every output that names the function computing it names one that exists."""

import importlib

import pytest
from goodput_lab.models.outputs import OUTPUTS

NAMED = {k: o.computed_by for k, o in OUTPUTS.items() if o.computed_by}


def _resolve(dotted: str):
    """Import the longest importable module prefix, then walk attributes (a method of a
    class counts)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module("goodput_lab." + ".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(dotted)


def test_outputs_added_by_the_issues_name_their_function():
    # the step-time, failure-domain, decide and one-truth outputs all carry computed_by
    for key in ("step_seconds_low", "domain_goodput", "goodput_low", "lost_usd_per_month"):
        assert key in NAMED, key


@pytest.mark.parametrize("key", sorted(NAMED))
def test_computed_by_names_a_function(key):
    obj = _resolve(NAMED[key])
    assert callable(obj) or isinstance(obj, property), NAMED[key]
