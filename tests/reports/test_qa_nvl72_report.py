"""QA pass on the p6e-gb200-nvl72 preset: the report's failure-domain figures, their decimals
in the CSV export, the summary's ranges and Methods' recovery time."""

from __future__ import annotations

import polars as pl
import pytest
from goodput_lab.models import evaluate, load_preset

from goodput_lab.reports import build_report
from goodput_lab.reports.tables import report_table


@pytest.fixture(scope="module")
def nvl72_table(catalog):
    report = build_report(load_preset("p6e-gb200-nvl72"), catalog=catalog, detail=False)
    return report_table(report)


def _text(table: pl.DataFrame, key: str) -> str:
    row = table.filter((pl.col("table") == "metrics") & (pl.col("key") == key))
    return row["text"][0]


def test_csv_minutes_and_rates_per_day_in_the_registry_decimals(nvl72_table):
    """QA 9: replacement per failure read "87.40 min" where every other minute figure has
    one decimal; the class rates add up visibly to the failures per day."""
    assert _text(nvl72_table, "replacement_minutes_per_failure") == "87.4 min"
    assert _text(nvl72_table, "node_failures_per_day") == "2.19 per day"
    assert _text(nvl72_table, "domain_failures_per_day") == "0.32 per day"
    assert _text(nvl72_table, "failures_per_day") == "2.51 per day"  # 2.19 + 0.32
    # QA 18: fallbacks and silent data corruptions per day in two decimals, as every rate
    assert _text(nvl72_table, "fallback_failures_per_day") == "0.00 per day"
    assert _text(nvl72_table, "sdc_failures_per_day") == "0.00 per day"


def test_fallbacks_per_day_read_in_two_decimals(catalog):
    from goodput_lab.models.outputs import format_value

    ev = evaluate(load_preset("hyperpod-tiered-16k-h100"), catalog)
    assert ev["fallback_failures_per_day"] == pytest.approx(0.33604, abs=1e-5)
    assert format_value("fallback_failures_per_day", ev["fallback_failures_per_day"]) == (
        "0.34 per day"
    )
    assert format_value("sdc_failures_per_day", 0.0042) == "0.0042 per day"  # two digits
