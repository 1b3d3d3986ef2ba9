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


@pytest.fixture(scope="module")
def nvl72_report(catalog):
    return build_report(load_preset("p6e-gb200-nvl72"), catalog=catalog)


def test_the_report_gives_the_failure_classes_and_domains(nvl72_report):
    """QA 1: the report said "Expected replacement stage 30.0 min" beside "Lost per failure
    109.2 min", which needs the 87.4 min of replacement over every failure class."""
    sec = next(s for s in nvl72_report.sections if s.id == "failure_domains")
    texts = {m.key: m.text for m in sec.metrics}
    assert texts == {
        "node_failures_per_day": "2.19 per day",
        "domain_failures_per_day": "0.32 per day",
        "replacement_minutes_per_failure": "87.4 min",
        "nodes_idled_per_failure": "18.0 nodes",
        "probability_no_domain_spare": "100.00%",
        "probability_no_spare_domain": "100.00%",
    }
    assert "64 domains of 18 nodes" in sec.intro
    assert "97.4 min of recovery in the 109.2 min lost per failure" in sec.intro
    ids = [s.id for s in nvl72_report.sections]
    assert ids.index("failure_domains") == ids.index("recovery") - 1  # beside the stages
    methods = dict(nvl72_report.methods)["Recovery time per failure"]
    assert "failure-weighted mean of the failure classes' repair times, Σ w_c R_c" in methods
    assert "docs/references.md#failure-domains" in methods
    assert "R = detection + expected replacement" not in methods


def test_a_report_without_domains_has_no_domain_section(catalog):
    report = build_report(load_preset("aws-16k-h100"), catalog=catalog)
    assert "failure_domains" not in [s.id for s in report.sections]


def test_the_summary_writes_ranges_as_the_tiles(nvl72_report):
    """QA 4: "goodput 75.19%–84.06%, lost $187,959/day–$290,908/day, time to train 17.1
    days–30.5 days" beside the tiles' "75.19–84.06%" and "17.1–30.5 days"."""
    from goodput_lab.models.outputs import format_range
    from goodput_lab.models.uncertainty import HEADLINE_INTERVALS

    m = nvl72_report.evaluation.metrics
    line = next(s for s in nvl72_report.summary if s.startswith("Over the failure rate"))
    g, lost, days, bill = (
        format_range(k, m[lo], m[hi]) for k, (lo, hi) in HEADLINE_INTERVALS.items()
    )
    assert f"goodput {g}, lost {lost}, time to train {days}, whole bill {bill}." in line
    assert g.count("%") == 1 and lost.count("/day") == 1 and days.count("days") == 1
    assert "–" in g and "%–" not in line and "/day–" not in line and "days–" not in line


def test_a_run_that_does_not_finish_in_practice_reads_so_in_the_report(catalog):
    """QA 2: the report gave a time to train of 64,820,175,270.2 days."""
    sc = load_preset("p6e-gb200-nvl72").replace({"reliability.domain_failure_rate_per_day": 1.0})
    report = build_report(sc, catalog=catalog)
    summary = " ".join(report.summary)
    assert "< 0.0001% of the paid time trains" in summary and "e-0" not in summary
    assert "so the run does not finish in practice" in summary
    assert "goodput < 0.0001%, lost $1,164,073/day" in summary  # both ends read alike
    train = next(s for s in report.sections if s.id == "train")
    texts = {m.key: m.text for m in train.metrics}
    assert (
        texts["time_to_train_days"] == texts["cost_to_train_usd"] == ("does not finish in practice")
    )
    assert texts["compute_days"] == "17.0 days"  # the failure-free compute still reads
    own = next(s for s in report.sections if s.id == "instances").table
    row = own.filter(pl.col("Instance").str.starts_with("p6e-gb200.36xlarge")).row(0, named=True)
    assert row["Time to train (days)"] == "does not finish in practice"


def test_qa27_9_too_close_to_call_comes_with_its_intervals_and_the_clis_mark(nvl72_report):
    """QA 27 #9: the report's instance section said "too close to call" without the cost
    intervals it rests on ($19.7M–$34.8M for p6e, $26.3M–$45.2M for p6-b200) and marked
    overlap ≈ where goodput instances prints ~."""
    from goodput_lab.reports.content import COST_RANGE_HEADER, TIME_RANGE_HEADER
    from goodput_lab.reports.html import render_html
    from goodput_lab.views import instances as inst_svc

    sec = next(s for s in nvl72_report.sections if s.id == "instances")
    rows = {r["Instance"]: r for r in sec.table.iter_rows(named=True)}
    best = rows["p6e-gb200.36xlarge ★"]
    assert (best[TIME_RANGE_HEADER], best[COST_RANGE_HEADER]) == ("17.0–30.0", "$19.7M–$34.8M")
    close = rows["p6-b200.48xlarge ~"]
    assert close[COST_RANGE_HEADER] == "$26.3M–$45.2M"
    assert rows["p4d.24xlarge"][COST_RANGE_HEADER] == "—"  # cannot run: no figure, no range
    assert list(sec.table.columns).index(TIME_RANGE_HEADER) == 4  # beside the figure
    assert len(sec.column_widths) == len(sec.table.columns)
    assert any("~ marks each type whose 80% cost interval" in n for n in sec.notes)
    assert inst_svc.TOO_CLOSE_MARK == "~"
    html = render_html(nvl72_report)
    assert "≈" not in html[html.index('id="section-instances"') :][:20000]
