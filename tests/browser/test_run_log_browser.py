"""The Run log page in chromium: the example run, a gzip upload, one click to the sidebar.

Screenshots at 1440 and 1024 pixels wide are kept under artifacts/screenshots/.
"""

from __future__ import annotations

import gzip

import pytest
from goodput_lab.models import load_preset
from goodput_lab.models.outputs import format_value
from goodput_lab.models.reconcile import reconcile
from goodput_lab.models.timeline import parse_timeline

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_app_browser import wait_idle
from tests.timeline_generator import GeneratorParams, generate

pytestmark = pytest.mark.browser


def metric(page, label: str) -> str:
    m = page.locator('[data-testid="stMetric"]', has_text=label).first
    return m.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_run_log_page_upload_and_load_fitted_scenario(app_url, page, tmp_path):
    page.set_viewport_size({"width": 1440, "height": 1800})
    page.goto(f"{app_url}/run_log")
    wait_idle(page)
    assert metric(page, "Measured goodput") == "79.41%"  # the example's stated truth
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 2
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOTS / "run_log-1440.png"), full_page=True)

    # upload another run, gzip-compressed: the page measures and predicts it like the models
    g = generate(GeneratorParams(days=1.0, seed=5, step_seconds=15.0))
    path = tmp_path / "other-run.csv.gz"
    path.write_bytes(gzip.compress(g.csv().encode()))
    r = reconcile(parse_timeline(path.read_bytes()), load_preset("aws-16k-h100"), nodes=2000)
    expected = format_value("measured_goodput", r.measured_goodput)
    assert expected != "79.41%"
    page.locator(
        '[data-testid="stMain"] [data-testid="stFileUploader"] input[type="file"]'
    ).set_input_files(str(path))
    page.wait_for_function(
        "(v) => [...document.querySelectorAll('[data-testid=stMetric]')]"
        ".some(m => m.innerText.includes('Measured goodput') && m.innerText.includes(v))",
        arg=expected,
        timeout=60_000,
    )
    wait_idle(page)
    assert metric(page, "Predicted goodput") == format_value(
        "predicted_goodput", r.predicted_goodput
    )
    main = page.locator('[data-testid="stMain"]')
    assert main.locator('[data-testid="stCaptionContainer"]', has_text="other-run.csv.gz").count()

    # one click: the fitted scenario is in the sidebar, and the what-if says so
    page.get_by_role("button", name="Load the fitted scenario into the sidebar").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stAlert]')]"
        ".some(a => a.innerText.includes('holds the fitted scenario'))",
        timeout=60_000,
    )
    wait_idle(page)
    name = page.locator('[data-testid="stSidebar"] input[aria-label="Scenario name"]')
    assert name.input_value() == "Fitted to other-run.csv.gz"
    rate = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(
        has_text="Node failure rate"
    )
    assert f"{100 * r.fit.failure_rate_per_node_day:.2f}" in rate.inner_text()
    page.set_viewport_size({"width": 1024, "height": 1800})
    page.wait_for_timeout(500)
    page.screenshot(path=str(SCREENSHOTS / "run_log-1024.png"), full_page=True)
    assert (SCREENSHOTS / "run_log-1024.png").stat().st_size > 10_000
