"""The real app in chromium: a slider moves the headline, links share, bad links explain.

Every page, its typed inputs and its exports: tests/browser/test_finished_product.py.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from goodput_lab.dashboard import url_state
from goodput_lab.models import evaluate, load_preset

from tests.browser.conftest import SCREENSHOTS
from tests.browser.conftest import wait_idle as conftest_wait_idle

pytestmark = pytest.mark.browser

HEADLINE = "Goodput"
RATE_LABEL = "Node failure rate (%)"


def wait_idle(page) -> None:
    """Wait until the run finished and the page is drawn (see conftest.wait_idle)."""
    conftest_wait_idle(page)


def headline(page) -> str:
    m = page.locator('[data-testid="stMetric"]', has_text=HEADLINE).first
    return m.locator('[data-testid="stMetricValue"]').inner_text().strip()


def nav_links(page) -> list[str]:
    links = page.locator('[data-testid="stSidebarNav"] a')
    links.first.wait_for()
    return [links.nth(i).get_attribute("href") for i in range(links.count())]


def test_slider_updates_headline_and_link_reproduces_it(app_url, page, browser, catalog):
    page.goto(app_url)
    wait_idle(page)
    before = headline(page)
    slider = page.locator('[data-testid="stSlider"]', has_text=RATE_LABEL)
    thumb = slider.locator('input[type="range"]')
    thumb.focus()
    thumb.press("ArrowRight")  # 0.20 % -> 0.21 % of nodes per day
    page.wait_for_function(
        "([label, old]) => [...document.querySelectorAll('[data-testid=stMetric]')]"
        ".some(m => m.innerText.includes(label) && !m.innerText.includes(old))",
        arg=[HEADLINE, before],
    )
    wait_idle(page)
    expected = evaluate(
        load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.0021}),
        catalog,
    )
    after = headline(page)
    assert after == f"{expected['goodput'] * 100:.2f}%" != before
    page.wait_for_function("() => location.search.includes('node_failure_rate_per_day=0.0021')")
    link = page.url

    # a colleague opens the copied link in a fresh session: the same numbers
    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        p2 = other.new_page()
        p2.goto(link)
        wait_idle(p2)
        assert headline(p2) == after
        lost = '[data-testid="stMetric"]:has-text("Lost per day") [data-testid="stMetricValue"]'
        assert p2.locator(lost).first.inner_text() == page.locator(lost).first.inner_text()
        p2.screenshot(path=str(SCREENSHOTS / "shared-link.png"))
    finally:
        other.close()


def test_shared_link_to_a_decision_page(app_url, page, catalog):
    s = load_preset("aws-16k-h100").replace({"cluster.nodes": 1000, "cluster.spare_nodes": 2})

    page.goto(f"{app_url}/sensitivity?{urlencode(url_state.encode(s, 'aws-16k-h100'))}")
    wait_idle(page)
    assert headline(page) == f"{evaluate(s, catalog)['goodput'] * 100:.2f}%"


def test_bad_link_shows_clear_message(app_url, page):
    page.goto(f"{app_url}/?cluster.nodes=-4")
    wait_idle(page)
    alert = page.locator('[data-testid="stAlert"]', has_text="cluster.nodes").first
    assert "out of range" in alert.inner_text()
