"""A percentage too small for the registry's decimals reads with two significant digits,
not as a zero: a failure rate of 0.003% per node-day printed "0.00%" (QA pass 23)."""

from __future__ import annotations

import pytest
from goodput_lab.models.outputs import format_value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.00003, "0.003%"),  # 0.003% at 2 decimals
        (0.000049, "0.0049%"),
        (0.00005, "0.01%"),  # rounds to the registry's 2 decimals: as before
        (0.0041, "0.41%"),
        (0.0, "0.00%"),  # a true zero stays a zero
        (-0.00002, "−0.002%"),
    ],
)
def test_tiny_percent_keeps_two_significant_digits(value, text):
    assert format_value("goodput", value) == text


def test_tiny_signed_percent():
    assert format_value("goodput", 0.00003, signed=True) == "+0.003%"


def test_json_writes_yes_no_figures_as_booleans():
    """QA 23: evaluate --json wrote fits_in_memory 1.0 where instances --json writes true."""
    from goodput_lab.models import evaluate, load_preset
    from goodput_lab.models.outputs import OUTPUTS, json_ready

    js = json_ready(evaluate(load_preset("llama3-70b")).to_json_dict())
    flags = [k for k, v in js.items() if k in OUTPUTS and OUTPUTS[k].kind == "bool"]
    assert {"fits_in_memory", "memory_fits", "mfu_gap_exceeded"} <= set(flags)
    assert all(isinstance(js[k], bool) for k in flags if js[k] is not None)
