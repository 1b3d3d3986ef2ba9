"""The reports wrote "1 nodes", "1 sequences", "1 chunks" (the CSV's text column) and "1
simulated runs": a unit that names things reads in the singular after exactly one, wherever
a count is written with its unit (models._text.with_unit, used by the output registry's
format_value and the inputs' field_value)."""

from __future__ import annotations

import re

import pytest
from goodput_lab.models import load_preset
from goodput_lab.models._text import SINGULAR_UNITS, with_unit
from goodput_lab.models.outputs import format_value

from goodput_lab.reports import build_report
from goodput_lab.reports.tables import report_table
from goodput_lab.views.display import field_value, singular

#: "1 nodes", "+1 days", "−1 sequences" ... as a whole text or after a space or bracket
ONE_PLURAL = re.compile(r"(?:^|[\s(])[+−-]?1 (" + "|".join(SINGULAR_UNITS) + r")\b")


def test_the_registry_writes_one_thing_in_the_singular():
    assert format_value("nodes", 1) == "1 node"
    assert format_value("nodes", 1.0) == "1 node"
    assert format_value("nodes", 2) == "2 nodes"
    assert format_value("nodes", 1, signed=True) == "+1 node"
    assert format_value("nodes", -1, signed=True) == "−1 node"
    assert format_value("min_nodes_to_fit", 1) == "1 node"
    assert format_value("nodes", 1, unit=False) == "1"
    assert field_value("workload.micro_batch_sequences", 1) == "1 sequence"
    assert singular("1 nodes") == "1 node" and singular("1.0 nodes") == "1.0 nodes"
    assert with_unit("1", "M tokens") == "1 M tokens"  # a unit that is no plural noun


@pytest.mark.parametrize("preset", ["aws-16k-h100-improved", "llama3-8b", "gpt-oss-120b"])
def test_report_csv_text_has_no_one_plural(preset):
    table = report_table(build_report(load_preset(preset), trials=1, seed=1))
    bad = [
        (r["key"], r["text"])
        for r in table.iter_rows(named=True)
        if r["text"] and ONE_PLURAL.search(r["text"])
    ]
    bad += [
        (r["key"], r["label"]) for r in table.iter_rows(named=True) if ONE_PLURAL.search(r["label"])
    ]
    assert bad == []


def test_report_html_says_one_simulated_run():
    from goodput_lab.reports.html import render_html

    doc = render_html(build_report(load_preset("llama3-8b"), trials=1, seed=3))
    assert "1 simulated run, seed 3" in doc
    assert not ONE_PLURAL.search(re.sub(r"<[^>]+>", " ", doc))
