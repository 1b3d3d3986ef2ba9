"""The Resilience page in chromium: the ladder from a shared link, a rung's assumptions one
click away, the Monte Carlo spread on demand, at 1440 and 1024 pixels wide."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from goodput_lab.dashboard import url_state
from goodput_lab.models import load_preset
from goodput_lab.models.resilience import ladder

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_app_browser import wait_idle

pytestmark = pytest.mark.browser

FEATURES = ["hot_spares", "async_saves"]


def _metric(page, label: str) -> str:
    m = page.locator('[data-testid="stMetric"]', has_text=label).first
    return m.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_resilience_page_from_a_link(app_url, browser, catalog):
    s = load_preset("aws-16k-h100")
    params = url_state.encode(s, "aws-16k-h100")
    params.update({"res.order": "My order", "res.features": ",".join(FEATURES)})
    context = browser.new_context(viewport={"width": 1440, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(90_000)
    try:
        page.goto(f"{app_url}/resilience?{urlencode(params)}")
        wait_idle(page)
        expected = ladder(s, FEATURES, catalog=catalog)
        assert _metric(page, "Saved by the whole ladder") == (
            f"${expected.total_delta_usd_per_day:,.0f}/day"
        )
        assert _metric(page, "Lost per day, last rung") == (
            f"${expected.rungs[-1].lost_usd_per_day:,.0f}"
        )
        assert page.locator('[data-testid="stPlotlyChart"]').count() >= 2  # waterfall, causes
        page.screenshot(path=str(SCREENSHOTS / "resilience-1440.png"))

        # a rung's assumptions, one click away
        rung = page.locator('[data-testid="stMain"] [data-testid="stExpander"] summary')
        rung.filter(has_text="Hot spares").first.click()  # (the sidebar has a group of its own)
        page.get_by_text("Settings changed by this rung").first.wait_for()
        page.get_by_text("Idle, paid nodes swap in").first.wait_for()  # its mechanism
        page.get_by_text("Queueing Systems").first.wait_for()  # and its sources

        # the Monte Carlo spread per rung
        page.get_by_text("Simulate every rung").click()
        page.get_by_text("Simulated mean").first.wait_for(timeout=180_000)
        wait_idle(page)
        assert page.locator('[data-testid="stPlotlyChart"]').count() >= 3
        page.screenshot(path=str(SCREENSHOTS / "resilience-montecarlo-1440.png"))

        # the same page at 1024 pixels: the figures stay whole (no truncated metric)
        page.set_viewport_size({"width": 1024, "height": 1400})
        page.wait_for_timeout(500)
        page.evaluate("window.scrollTo(0, 0)")
        value = page.locator('[data-testid="stMetric"]', has_text="Saved by the whole ladder")
        box = value.locator('[data-testid="stMetricValue"]').first
        assert box.evaluate(
            "e => [e, ...e.querySelectorAll('*')].every(c => c.scrollWidth <= c.clientWidth + 1)"
        )
        page.screenshot(path=str(SCREENSHOTS / "resilience-1024.png"))
    finally:
        context.close()
