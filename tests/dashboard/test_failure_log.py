"""AppTest of the Failure log page: sample log fitted, one-click transfer into the scenario."""

from __future__ import annotations

import json

import pytest
from goodput_lab.dashboard import state
from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.fitting import fit_failure_log
from streamlit.testing.v1 import AppTest

from goodput_lab.charts.failure_log import survival_chart
from goodput_lab.views import failure_log as svc
from tests.conftest import APP, DATA_DIR

PAGE = "app_pages/failure_log.py"
RATE_KEY = "w:reliability.node_failure_rate_per_day"
SHAPE = "reliability.weibull_shape"  # its value (its sidebar group is closed)


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
    charts = page.get("plotly_chart")
    assert len(charts) == 2
    spec = json.loads(charts[0].proto.spec)
    assert spec["layout"]["xaxis"]["title"]["text"].startswith("Time between incidents (h")
    assert not page.error


def test_button_writes_fitted_rate_and_shape_into_the_sidebar(page, sample_fit):
    button = next(b for b in page.button if b.label.startswith("Use fitted rate"))
    button.click().run()
    assert not page.exception
    ss = page.session_state
    assert ss[RATE_KEY] == pytest.approx(100 * sample_fit.node_failure_rate_per_day)  # shown in %
    assert ss[state.VALUES_KEY][SHAPE] == pytest.approx(sample_fit.weibull_shape)
    rate_slider = next(s for s in page.slider if s.key == RATE_KEY)
    assert rate_slider.value == pytest.approx(100 * sample_fit.node_failure_rate_per_day)
    assert any("Scenario updated" in s.value for s in page.success)
    # the Overview now evaluates the fitted rate: 2,000 nodes x fitted rate failures per day
    page.switch_page("app_pages/overview.py").run()
    assert not page.exception
    failures = float(metric(page, "Failures per day"))
    assert failures == pytest.approx(2000 * sample_fit.node_failure_rate_per_day, abs=0.01)


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
    interruption; a log that marks some gets their rate: 4 job incidents over 10 days is
    0.40 per day, interval from the exact Poisson bound (Garwood 1936)."""
    from goodput_lab.models.fitting import poisson_rate_ci

    shown = [c.value for c in page.caption if c.value.startswith("Job-level interruptions")]
    assert shown == [svc.job_level_text(sample_fit)]
    assert "none marked in this log" in shown[0]
    rows = ["timestamp,node_id,cause,downtime_minutes"]
    rows += [f"2024-01-{d:02d}T00:00:00,node-{d % 3},gpu,60" for d in range(1, 12)]
    rows += [f"2024-01-{d:02d}T12:00:00,job,software,10" for d in (2, 4, 6, 8)]
    fit = fit_failure_log(parse_failure_log("\n".join(rows).encode()), 16)
    assert fit.span_days == pytest.approx(10.0)
    lo, hi = poisson_rate_ci(4, 10.0, fit.confidence)
    text = svc.job_level_text(fit)
    assert text.startswith("Job-level interruptions: 4 incidents marked as the job's own")
    assert f"0.40 per day (95% interval {float(lo):.2f} per day to {float(hi):.2f} per day" in text
