"""The CLI writes an allowed range as the field registry writes a field's ("[1, 200,000]"):
hand-written ranges read "(0, 10000]" and "[1, 10000000]", without separators."""

from __future__ import annotations

import argparse

import pytest
from goodput_lab.models import FIELDS
from goodput_lab.models.fields import _fmt

from goodput_lab.cli import _ranges, fit, report
from goodput_lab.cli.main import main


def test_bounds_are_the_field_registrys():
    assert _fmt(10_000.0) == "10,000"
    assert _fmt(0.04167) == "0.04167"
    # a Python int exactly (its float would write 9.22337e+18)
    assert _fmt(2**63 - 1) == "9,223,372,036,854,775,807"
    assert _ranges.allowed_range("a number", 0, 10_000, "USD/h", low_open=True) == (
        "a number in (0, 10,000] USD/h"
    )
    # the same text as a field's range: cluster.nodes' [1, 200,000]
    assert (
        FIELDS["cluster.nodes"]
        .allowed()
        .startswith(_ranges.allowed_range("an integer", 1, 200_000))
    )


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (fit._nodes, "20000000", "20000000 is out of range (an integer in [1, 10,000,000])"),
        (report._positive_int, "0", "0 is out of range (an integer in [1, 1,000,000])"),
    ],
)
def test_argument_ranges_have_separators(parse, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as exc:
        parse(text)
    assert str(exc.value) == message


def test_dashboard_port_range_has_separators(capsys):
    assert main(["dashboard", "--port", "70000"]) == 2
    assert "--port: 70000 is not allowed (an integer in [1, 65,535])" in capsys.readouterr().err
