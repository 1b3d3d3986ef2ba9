"""AppTest of the Run log page: the example run measured and predicted like the models say,
one click loads the fitted scenario into the sidebar, a sidebar change becomes a what-if on
the run, and uploads (gzip, bad rows) behave."""

from __future__ import annotations

import gzip
import json

import pytest
from goodput_lab.dashboard import state
from goodput_lab.models import load_catalog, load_preset
from goodput_lab.models.outputs import format_value
from goodput_lab.models.timeline import parse_timeline
from streamlit.testing.v1 import AppTest

from goodput_lab.charts.run_log import bucket_chart, goodput_over_time_chart
from goodput_lab.views import run_log as svc
from tests.conftest import APP, DATA_DIR, SHORT_RUN_LOG
from tests.dashboard._pages import array, open_sidebar

PAGE = "app_pages/run_log.py"
EXAMPLE = DATA_DIR / "timelines" / "example-run.csv"
SAVE_KEY = "w:checkpoint.save_seconds"
SAVE_FIELD = "checkpoint.save_seconds"  # its value is kept while the group is closed


@pytest.fixture(scope="module")
def expected():
    """The page's figures computed straight from the models (sidebar = aws-16k-h100)."""
    tl = parse_timeline(EXAMPLE.read_bytes())
    return svc.run_log_view(
        tl,
        load_preset("aws-16k-h100"),
        2000,
        load_catalog(),
        1000,
        0,
        "example-run.csv (SYNTHETIC)",
    )


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_example_run_is_measured_and_predicted(page, expected):
    d = expected.summary
    assert metric(page, "Measured goodput") == format_value("measured_goodput", 0.794051)
    assert metric(page, "Measured goodput") == "79.41%"
    assert metric(page, "Predicted goodput") == format_value(
        "predicted_goodput", d["predicted_goodput"]
    )
    assert metric(page, "Badput cost of the run") == format_value(
        "run_badput_usd", d["run_badput_usd"]
    )
    charts = page.get("plotly_chart")
    assert len(charts) == 2
    bars = json.loads(charts[0].proto.spec)
    # the sidebar preset differs from the fitted scenario: measured, predicted, what-if
    assert [t["name"] for t in bars["data"]] == [
        "Measured (this run)",
        "Predicted (fitted scenario)",
        "What-if (sidebar scenario)",
    ]
    assert array(bars["data"][0]["y"]) == pytest.approx(
        expected.buckets["measured_hours"].to_list()
    )
    table = page.table[0].value
    assert table["Bucket"].tolist()[0] == "Checkpoint saves"
    for col in table.columns:  # formatted words and figures, never None/nan
        assert not any(str(v) in ("None", "nan", "") for v in table[col]), col
    assert not page.error and not page.exception


def test_load_fitted_scenario_then_a_sidebar_change_is_a_what_if(page, expected):
    load = next(b for b in page.button if b.label.startswith("Load the fitted scenario"))
    load.click().run()
    assert not page.exception
    ss = page.session_state
    fitted = expected.fitted
    assert ss["w:reliability.node_failure_rate_per_day"] == pytest.approx(
        100 * fitted["reliability.node_failure_rate_per_day"]
    )
    assert ss[state.VALUES_KEY][SAVE_FIELD] == pytest.approx(fitted[SAVE_FIELD])
    assert ss["w:name"] == fitted.name
    assert any("holds the fitted scenario" in i.value for i in page.info)
    assert len(json.loads(page.get("plotly_chart")[0].proto.spec)["data"]) == 2
    # shorter saves in the sidebar: the what-if prices them on this run
    open_sidebar(page, "Checkpointing")
    assert page.number_input(key=SAVE_KEY).value == pytest.approx(ss[state.VALUES_KEY][SAVE_FIELD])
    page.number_input(key=SAVE_KEY).set_value(5.0).run()  # a typed input
    assert not page.exception
    delta = page.metric[[m.label for m in page.metric].index("Predicted goodput (sidebar)")]
    assert delta.delta.startswith("+")
    assert metric(page, "Savings over the run").startswith("$")
    assert len(json.loads(page.get("plotly_chart")[0].proto.spec)["data"]) == 3


def test_gzip_upload_and_bad_rows(page):
    page.file_uploader[0].set_value(
        ("run.csv.gz", gzip.compress(EXAMPLE.read_bytes()), "application/gzip")
    ).run()
    assert not page.exception and not page.error
    assert metric(page, "Measured goodput") == "79.41%"
    bad = b"timestamp,event,step\n2024-01-01T00:00:00Z,job_start,\n2024-01-01T00:01:00Z,stepend,1\n"
    page.file_uploader[0].set_value(("bad.csv", bad, "text/csv")).run()
    assert not page.exception
    assert "row 3, column 'event'" in page.error[0].value
    # the page names its own widgets, not the CLI's --map
    assert "(rename yours with EVENT=NAME under Column and event names)" in page.error[0].value
    page.file_uploader[0].set_value(None).run()
    page.text_input(key="run_log:map").set_value("when=x").run()
    assert page.error[0].value.startswith(
        "Cannot use this timeline — Column and event names: 'when' is not a timeline column"
    )


def test_chart_builders_label_axes_and_legends(expected):
    fig = bucket_chart(expected.buckets)
    assert fig.layout.title.text.startswith("Badput per bucket")
    assert fig.layout.yaxis.title.text == "Wall time of the run (h)"
    assert [t.name for t in fig.data] == ["Measured (this run)", "Predicted (fitted scenario)"]
    fig = goodput_over_time_chart(expected.over_time, 79.9)
    assert fig.layout.xaxis.title.text == "Time since job start (h)"
    assert fig.layout.yaxis.title.text == "Cumulative goodput (%)"
    named = [t.name for t in fig.data if t.showlegend is not False]
    assert named == ["Predicted P5-P95", "Predicted P25-P75", "Measured (this run)"]
    measured = expected.over_time["measured"].to_list()
    assert measured[-1] == pytest.approx(expected.summary["measured_goodput"])
    assert all(0 <= v <= 1 for v in measured)


def test_deeply_nested_json_lines_upload_is_refused_in_one_line(page):
    # issue 30: a 6 KB JSON-lines timeline nested 1,000 deep was a RecursionError on the page
    deep = (
        b'{"timestamp": "2024-01-01T00:00:00Z", "event": "job_start"}\n'
        b'{"timestamp": "2024-01-01T00:00:10Z", "event": "step_end", "step": '
        + b"[" * 1000
        + b"1"
        + b"]" * 1000
        + b"}\n"
    )
    page.file_uploader[0].set_value(("deep.jsonl", deep, "application/json")).run()
    assert not page.exception
    assert "row 2: is nested more than 5 levels deep" in page.error[0].value


def test_bucket_table_fits_and_its_components_are_a_sentence(page, expected):
    """QA pass 17: the components, a ninth column, were cut off at 1,024 px ("checkpo")."""
    table = svc.bucket_table(expected)
    assert "Model components" not in table.columns and table.width == 7
    caption = svc.bucket_components_caption(expected)
    assert caption.startswith("Predicted from the model's components — Checkpoint saves: ")
    assert "Recovery (failure to restore): detection, replacement, restart" in caption
    assert any(caption.replace("\\", "") in c.value.replace("\\", "") for c in page.caption)


SHORT = SHORT_RUN_LOG  # QA pass 21's 18-minute run with one failure (tests/conftest.py)


def test_short_run_is_drawn_in_minutes_and_its_what_if_stays_a_goodput(page):
    """QA pass 21: the what-if tile read 101.19%, the bar chart's hour ticks repeated
    (0.0, 0.1, 0.1, 0.2, 0.2), the time axis read 0 h throughout, and the subtitle promised
    simulated runs the page does not draw under an hour."""
    page.file_uploader[0].set_value(("short.csv", SHORT, "text/csv")).run()
    assert not page.exception and not page.error
    # QA pass 22 H4: the box kept the example's 2,000 after the upload and the caption said
    # the user had entered it; an upload starts from 0, the sidebar scenario's nodes
    assert page.number_input(key="run_log:nodes:upload").value == 0
    view = svc.run_log_view(
        parse_timeline(SHORT),
        load_preset("aws-16k-h100"),
        2000,
        load_catalog(),
        1000,
        0,
        "short.csv",
    )
    w = svc.what_if_figures(view, svc.what_if(view, load_preset("aws-16k-h100"), load_catalog()))
    assert 0.0 <= w["estimated_goodput"] <= 1.0
    # measured 6 of 18 min; 8 idle minutes kept, the 4 failure minutes scaled by the model
    fitted, sidebar = view.summary["predicted_goodput"], w["predicted_goodput"]
    by_hand = 1 - (8 + 4 * (1 - sidebar) / (1 - fitted)) / 18
    assert w["estimated_goodput"] == pytest.approx(by_hand, rel=1e-9)
    assert metric(page, "This run, changed") == format_value("estimated_goodput", by_hand)
    bars, over_time = (json.loads(c.proto.spec) for c in page.get("plotly_chart"))
    assert bars["layout"]["yaxis"]["title"]["text"] == "Wall time of the run (min)"
    assert bars["layout"]["yaxis"]["tickformat"] == ",~f"  # as many decimals as ticks need
    # measured minutes: saves 0, restores 1, recovery 2, rework 1, other 8
    assert array(bars["data"][0]["y"]) == pytest.approx([0.0, 1.0, 2.0, 1.0, 8.0])
    # the bucket table under the chart in the chart's unit (it was in hours: 0.02, 0.03, 0.13)
    table = page.table[0].value
    assert "Measured (min)" in table.columns and "Predicted (min)" in table.columns, table.columns
    assert table["Measured (min)"].tolist() == ["0.00", "1.00", "2.00", "1.00", "8.00"]
    assert not any("(h)" in c for c in table.columns)
    assert over_time["layout"]["xaxis"]["title"]["text"] == "Time since job start (min)"
    assert array(over_time["data"][0]["x"])[-1] == pytest.approx(18.0)
    subtitle = over_time["layout"]["title"]["subtitle"]["text"].replace("<br>", " ")
    assert "simulated runs" not in subtitle and "no simulated band" in subtitle
    caption = next(c.value for c in page.caption if c.value.startswith("short.csv"))
    assert "0.01 days on 2,000 nodes (the sidebar scenario's); 1 failure incident," in caption
    # 1 incident in 2,000 × 18/1440 node-days = 4.00%, its 95% Garwood interval 0.10–22.29%
    assert "fitted rate 4.00% per node-day (95% CI 0.10–22.29%)" in caption


def test_the_failure_rate_has_one_format_on_the_page(page, expected):
    """QA pass 21: 0.550% per node-day in the caption, 0.00550 per node-day in the table,
    and 0.55% → 0.2%; low 0.4061%; high 0.733% in the what-if line."""
    caption = next(c.value for c in page.caption if c.value.startswith("example-run.csv"))
    assert "22 failure incidents, fitted rate 0.55% per node-day (95% CI 0.34–0.83%)" in caption
    rate = svc.fitted_table(expected).row(0, named=True)
    assert rate["Fitted"] == "0.55% per node-day"
    assert rate["Spread"] == "95% CI 0.34–0.83% (exact Poisson)"
    assert rate["Sample"] == "22 incidents"
    changed = expected.fitted.replace({"reliability.node_failure_rate_per_day": 0.002})
    line = svc.changed_caption(svc.what_if(expected, changed, load_catalog()))
    assert line.startswith("Changed: Node failure rate 0.55% → 0.20%")


def test_a_header_without_a_timestamp_names_the_pages_box_not_the_cli_flag(page):
    """QA pass 22 M4: the page said "or map one, e.g. --map timestamp=<header>"."""
    page.file_uploader[0].set_value(("abc.csv", b"a,b,c\n1,2,3\n", "text/csv")).run()
    text = " ".join(e.value for e in page.error).replace("\\", "")  # Markdown escapes
    assert "no timestamp column" in text and "--map" not in text
    assert "or map one under Column and event names: timestamp=<header>" in text


def test_an_upload_takes_the_files_node_count_when_the_box_is_0(page):
    """QA 23: goodput reconcile reads a timeline's '# nodes=2000' line when --nodes is not
    given; the page's box left at 0 does the same (it took the sidebar scenario's)."""
    page.file_uploader[0].set_value(("run.csv", EXAMPLE.read_bytes(), "text/csv")).run()
    assert not page.exception and not page.error
    caption = next(c.value for c in page.caption if c.value.startswith("run.csv:"))
    assert "2.00 days on 2,000 nodes (the file's '# nodes=' line)" in caption


def test_repeated_rows_are_dropped_with_a_warning_naming_them(page):
    """QA 29 #3: an upload with step_end rows shipped twice measured them as rework (the
    example with 1% of them repeated read 78.57% for 79.41%); they are dropped, and the page
    says which, as the Failure log page does a log's repeated rows."""
    lines = EXAMPLE.read_bytes().splitlines(keepends=True)
    repeated = [*lines[:190], lines[189], *lines[190:]]  # line 190 (a step_end) twice
    assert b",step_end," in lines[189]
    page.file_uploader[0].set_value(("dup.csv", b"".join(repeated), "text/csv")).run()
    assert not page.exception and not page.error
    assert metric(page, "Measured goodput") == "79.41%"
    assert [w.value for w in page.warning if "repeat" in w.value] == [
        "1 row of the timeline repeats an earlier row cell for cell (the same time, event, "
        "step and node: a log shipper's repeat) and is not counted: row 191 repeats row 190."
    ]
    page.file_uploader[0].set_value(("run.csv", EXAMPLE.read_bytes(), "text/csv")).run()
    assert not [w.value for w in page.warning if "repeat" in w.value]
