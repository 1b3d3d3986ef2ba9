"""AppTest of the Failure log page: sample log fitted, one-click transfer into the scenario."""

from __future__ import annotations

import json

import pytest
from goodput_lab.dashboard import state
from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.fitting import fit_failure_log, scenario_values
from streamlit.testing.v1 import AppTest

from goodput_lab.charts.failure_log import survival_chart
from goodput_lab.cli import fit as cli_fit
from goodput_lab.views import display
from goodput_lab.views import failure_log as svc
from tests.conftest import APP, DATA_DIR

PAGE = "app_pages/failure_log.py"
RATE_KEY = "w:reliability.node_failure_rate_per_day"
SHAPE = "reliability.weibull_shape"  # its value (its sidebar group is closed)
LOW, HIGH = "reliability.node_failure_rate_low", "reliability.node_failure_rate_high"
REPAIR, SIGMA = "reliability.repair_hours", "simulation.repair_sigma"


@pytest.fixture(scope="module")
def sample_fit():
    log = parse_failure_log((DATA_DIR / "failure_logs" / "synthetic-sample.csv").read_bytes())
    return fit_failure_log(log, 1024)


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_sample_log_is_fitted_and_drawn(page, sample_fit):
    assert metric(page, "Node failure rate") == (
        f"{100 * sample_fit.node_failure_rate_per_day:.2f}%"
    )
    assert metric(page, "Weibull shape per node") == f"{sample_fit.weibull_shape:.2f}"
    assert metric(page, "Lemon nodes") == "2 nodes"
    # every table is formatted: worded headers, p-values in words, no raw floats
    lemons = page.table[-1].value
    assert list(lemons.columns) == [
        "Node",
        "Failures",
        "Expected failures",
        "p-value",
        "p-value (Bonferroni)",
    ]
    assert set(lemons["p-value (Bonferroni)"]) == {"< 0.001"}
    # the repair time's rows of the estimates table, in the registry's formats
    est = page.table[0].value
    rows = dict(zip(est["Quantity"], est["Estimate"], strict=True))
    assert (rows["Mean repair time"], rows["Median repair time"]) == ("2.6 h", "1.5 h")
    assert rows["Repair time lognormal shape"] == "1.04"
    charts = page.get("plotly_chart")
    assert len(charts) == 2
    spec = json.loads(charts[0].proto.spec)
    assert spec["layout"]["xaxis"]["title"]["text"].startswith("Time between incidents (h")
    assert not page.error


def test_button_writes_the_values_goodput_fit_prints(page, sample_fit):
    """QA pass 21: the button set rate and shape only, while goodput fit also prints the
    rate's 80% interval; the Overview's goodput range was the fleet prior's 95.41%-96.98%
    (llama3-70b) against 96.38%-96.49% with the CLI's four values."""
    values, problems = scenario_values(sample_fit)
    assert not problems
    # the four values goodput fit prints, from the one function (6 significant digits)
    assert [f"{k}={v:.6g}" for k, v in values.items()] == cli_fit.scenario_overrides(sample_fit)
    assert values == {
        "reliability.node_failure_rate_per_day": 0.00413155,
        SHAPE: 0.743623,
        LOW: 0.00394094,
        HIGH: 0.00433003,
        # the sample's lognormal downtimes (median 90 min, log-sd 1.0 planted)
        REPAIR: 2.59389,
        SIGMA: 1.03812,
    }
    button = next(b for b in page.button if b.label == "Use the fitted values in the scenario")
    button.click().run()
    assert not page.exception
    ss = page.session_state
    assert ss[RATE_KEY] == pytest.approx(0.413155)  # shown in %
    assert ss[state.VALUES_KEY][SHAPE] == pytest.approx(0.743623)
    for key in (LOW, HIGH):  # stated, not the fleet prior
        assert ss[state.VALUES_KEY][key] == pytest.approx(100 * values[key])
        assert ss[state.VALUES_KEY][key + state.CATALOG_PRICE_SUFFIX] is False
    rate_slider = next(s for s in page.slider if s.key == RATE_KEY)
    assert rate_slider.value == pytest.approx(0.413155)
    done = next(s.value for s in page.success if "Scenario updated" in s.value)
    assert done == (  # the rate in one format: the tiles' (0.41%), not 0.4132% / 0.433%
        "Scenario updated: Node failure rate = 0.41%, Weibull shape of time between failures = "
        "0.7436, Failure rate, 80% interval low = 0.39%, Failure rate, 80% interval high = "
        "0.43%, Repair time = 2.594 h, Repair time lognormal sigma = 1.038"
    )
    assert ss[state.VALUES_KEY][REPAIR] == pytest.approx(2.59389)
    assert ss[state.VALUES_KEY][SIGMA] == pytest.approx(1.03812)
    # the Overview evaluates what `goodput evaluate aws-16k-h100 --set ...` does
    ev = evaluate(
        load_preset("aws-16k-h100").with_overrides(cli_fit.scenario_overrides(sample_fit))
    )
    page.switch_page("app_pages/overview.py").run()
    assert not page.exception
    failures = float(metric(page, "Failures per day"))
    assert failures == pytest.approx(2000 * 0.00413155, abs=0.01)
    expected = display.interval_text("goodput", ev.metrics)
    assert expected.startswith("80% range ")
    shown = [c.value for c in page.caption] + [m.help or "" for m in page.metric]
    assert any(expected in t.replace("\\", "") for t in shown), expected


def test_bad_column_mapping_shows_row_and_column(page):
    page.selectbox(key="failure_log:map:cause").set_value("(none)").run()
    page.selectbox(key="failure_log:map:timestamp").set_value("cause").run()
    assert not page.exception
    # the first data row of the sample is line 5 of the file (3 comment lines + header)
    assert any("row 5, column 'cause'" in e.value for e in page.error)


def test_survival_chart_has_labelled_log_axes(sample_fit):
    log = parse_failure_log((DATA_DIR / "failure_logs" / "synthetic-sample.csv").read_bytes())
    emp, fitted = svc.survival_frames(svc.FittedLog(log, sample_fit))
    fig = survival_chart(emp, fitted, sample_fit.weibull_shape)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert "(h" in fig.layout.xaxis.title.text and fig.layout.title.text
    assert emp.height == sample_fit.n_incidents - 1
    assert fitted["weibull"][0] > fitted["weibull"][-1]


def test_upload_with_a_failure_in_the_future_names_its_row(page):
    # issue 30: a row dated 9999-12-31 was fitted silently with a tight interval
    log = b"timestamp,node_id\n2024-01-01,a\n2024-03-01,b\n9999-12-31,c\n"
    page.file_uploader[0].set_value(("log.csv", log, "text/csv")).run()
    assert not page.exception
    errors = " ".join(e.value for e in page.error)
    assert "row 4, column 'timestamp'" in errors and "in the future" in errors


def test_job_level_rate_on_its_own_line(page, sample_fit):
    """The page says, on a line of its own, that the sample marks no job-level
    interruption; a log that marks some gets their rate: 4 job incidents over the exposure
    the node rate implies, 10 days × 15/14 (15 incidents, 14 gaps), is 0.37 per day,
    interval from the exact Poisson bound (Garwood 1936)."""
    from goodput_lab.models.fitting import poisson_rate_ci

    shown = [c.value for c in page.caption if c.value.startswith("Job-level interruptions")]
    assert shown == [svc.job_level_text(sample_fit)]
    assert "none marked in this log" in shown[0]
    rows = ["timestamp,node_id,cause,downtime_minutes"]
    rows += [f"2024-01-{d:02d}T00:00:00,node-{d % 3},gpu,60" for d in range(1, 12)]
    rows += [f"2024-01-{d:02d}T12:00:00,job,software,10" for d in (2, 4, 6, 8)]
    fit = fit_failure_log(parse_failure_log("\n".join(rows).encode()), 16)
    assert fit.span_days == pytest.approx(10.0)
    lo, hi = poisson_rate_ci(4, 10.0 * 15 / 14, fit.confidence)
    text = svc.job_level_text(fit)
    assert text.startswith("Job-level interruptions: 4 incidents marked as the job's own")
    assert f"0.37 per day (95% interval {float(lo):.2f} per day to {float(hi):.2f} per day" in text


def test_upload_without_known_columns_lists_the_accepted_names(page):
    """QA pass 21: header a,b,c mapped Timestamp and Node id both to 'a' by itself, then
    said "two log columns are mapped to the same header"."""
    page.file_uploader[0].set_value(("wrongcols.csv", b"a,b,c\n1,2,3\n", "text/csv")).run()
    assert not page.exception
    assert page.selectbox(key="failure_log:map:timestamp").value is None
    assert page.selectbox(key="failure_log:map:node_id").value is None
    assert [e.value for e in page.error] == [
        "Cannot use wrongcols.csv — row 1: no timestamp column (accepted names: timestamp, "
        "time, ts, datetime, date, time_utc; or pick one under Column mapping); the header "
        "has 'a', 'b', 'c'"
    ]
    # picking the columns by hand fits the log
    log = b"a,b,c\n2024-01-01,n1,x\n2024-01-03,n2,x\n2024-01-04,n1,x\n"
    page.file_uploader[0].set_value(("wrongcols.csv", log, "text/csv")).run()
    page.selectbox(key="failure_log:map:timestamp").set_value("a").run()
    page.selectbox(key="failure_log:map:node_id").set_value("b").run()
    assert not page.exception and not page.error
    # gaps of 48 h and 24 h: 2 / 72 h × 24 = 0.667 per day over 2 nodes
    assert metric(page, "Node failure rate") == "33.33%"


def test_page_messages_name_the_page_widgets_and_count_in_words(page):
    """QA pass 21: "--nodes: 1 is out of range" on the page, "1 incidents" in its text."""
    log = (
        b"when,host\n2026-01-01T00:00:00+02:00,n1\n2026-01-02T05:00:00,n2\n"
        b"2026-01-03T01:00:00Z,job\n2026-01-05T07:00:00Z,n1\n"
    )
    page.file_uploader[0].set_value(("mapped.csv", log, "text/csv")).run()
    page.selectbox(key="failure_log:map:timestamp").set_value("when").run()
    assert not page.exception and not page.error
    # n1, n2 and the job's own: 2 nodes (3/105 per hour × 24 × 3/4 ÷ 2 = 25.71%)
    assert metric(page, "Node failure rate") == "25.71%"
    captions = " ".join(c.value for c in page.caption)
    assert (
        "4 failures, 4 incidents (identical timestamps = one incident) over 4.4 days on 2 nodes"
        in (captions)
    )
    assert "Job-level interruptions: 1 incident marked as the job's own" in captions
    page.number_input[0].set_value(1).run()
    assert [e.value for e in page.error] == [
        "Cannot use mapped.csv — Nodes observed: 1 is out of range (at least the 2 distinct "
        "nodes in the log, at most 10,000,000)"
    ]


def test_the_cause_table_fits_and_names_the_logs_words_under_it(page, sample_fit):
    """QA: nine columns (a lower and an upper column for the rate's interval, and the log's
    own names for each cause) ran past the page at 1,024 px; the interval is one column and
    the log's names are a caption under the table."""
    causes = svc.cause_table(sample_fit)
    table = svc.cause_display(causes, sample_fit.confidence)
    assert table.columns == [
        "Cause",
        "Group",
        "Failures",
        "Share of failures (%)",
        "Llama 3 share (%)",
        "Rate (% per node-day)",
        "95% interval",
    ]
    first = causes.row(0, named=True)
    rate = display.OUTPUTS["cause_rate_per_node_day"]
    lo, hi = display.cell(rate, first["rate_lo"]), display.cell(rate, first["rate_hi"])
    assert table.row(0, named=True)["95% interval"] == f"{lo}–{hi}"
    shown = next(t.value for t in page.table if "Cause" in t.value.columns)
    assert list(shown.columns) == table.columns
    caption = svc.cause_names_caption(causes)
    assert caption.startswith(f"As the log names them — {first['label']}: {first['causes_in_log']}")
    assert any(caption[:60] in c.value.replace("\\", "") for c in page.caption)


def test_upload_uses_the_fleet_its_comment_states(page):
    """The StepFun trace states # nodes=400: the page fits on 400 nodes (0.38% per
    node-day, as goodput fit does), not on the 231 node ids seen (0.66%), and says so."""
    data = (DATA_DIR / "failure_logs" / "stepfun-infinitehbd-2024.csv").read_bytes()
    assert svc.default_nodes(data) == 400
    page.file_uploader[0].set_value(("stepfun.csv", data, "text/csv")).run()
    assert not page.exception, page.exception
    assert page.number_input[0].value == 400
    captions = " ".join(c.value for c in page.caption)
    assert "on 400 nodes (stated in the log's comment # nodes=400" in captions
    rate = display.tile("fitted_node_failure_rate_per_day", 0.0)["label"]
    tile = next(m for m in page.metric if m.label == rate)
    assert tile.value.startswith("0.38"), tile.value
    cli = fit_failure_log(parse_failure_log(data), 400)
    assert cli.nodes == 400 and round(cli.node_failure_rate_per_day * 100, 2) == 0.38


def test_a_tiny_p_value_reads_p_below_not_p_equals_below(sample_fit):
    """The StepFun trace's goodness-of-fit line read "p = < 0.001" (p 2.1e-53)."""
    data = (DATA_DIR / "failure_logs" / "stepfun-infinitehbd-2024.csv").read_bytes()
    fit = fit_failure_log(parse_failure_log(data), 400)
    assert fit.tbf["lr_p_value"] < 1e-50
    text = svc.goodness_of_fit_text(fit)
    assert "p < 0.001." in text and "p = <" not in text
    assert "p = 0.414." in svc.goodness_of_fit_text(sample_fit)
    assert display.p_text("p_value", 0.0342) == "p = 0.0342"


def test_a_log_of_evenly_spaced_failures_fits_its_rate_without_a_weibull(page):
    """QA pass 26: one failure a day was refused ("all times between failures are equal"),
    though its rate is well defined: 4 gaps of 24 h over 5 nodes, 1/24 per h over 5 nodes =
    20% per node-day; the Weibull (whose likelihood grows without bound) is left out of the
    tables, the text and the chart's legend."""
    log = b"timestamp,node_id\n" + b"".join(f"2026-01-0{d},n{d}\n".encode() for d in range(1, 6))
    page.file_uploader[0].set_value(("daily.csv", log, "text/csv")).run()
    assert not page.exception and not page.error
    assert metric(page, "Node failure rate") == "20.00%"
    quantities = list(page.table[0].value["Quantity"])
    assert "Job TBF Weibull shape k" not in quantities and "Job MTBF (exponential)" in quantities
    assert list(page.table[1].value["Model"]) == ["Exponential"]
    text = " ".join(m.value for m in page.markdown)
    assert "Every time between incidents is 24.00 h: too little spread to fit a Weibull" in text
    spec = json.loads(page.get("plotly_chart")[0].proto.spec)
    assert [t["name"] for t in spec["data"]] == ["Log (empirical)", "Exponential fit"]
