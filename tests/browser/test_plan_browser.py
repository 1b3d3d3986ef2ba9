"""The Plan page in chromium: its figures are those of `goodput plan --json`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from goodput_lab.views import display
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_app_browser import wait_idle

pytestmark = pytest.mark.browser

TILES = {
    "Block for 50% completion": "block_days_p50",
    "Block for 90% completion": "block_days_p90",
    "Block for 99% completion": "block_days_p99",
    "Block length": "block_days",
    "Finishes within the block": "probability_finish_within_block",
    "Expected total cost": "expected_total_cost_usd",
    "P90 total cost": "p90_total_cost_usd",
}


def tile(page, label: str) -> str:
    m = page.locator('[data-testid="stMetric"]', has_text=label).first
    return m.locator('[data-testid="stMetricValue"]').inner_text().strip()


@pytest.fixture(scope="module")
def plan_json() -> dict:
    """`goodput plan` with its defaults (1,000 runs, seed 0, risk 0.1): the page's too."""
    cli = subprocess.run(
        [sys.executable, "-m", "goodput_lab.cli.main", "plan", "aws-16k-h100", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(cli.stdout)


@pytest.mark.parametrize("width", [1440, 1024])
def test_plan_page_matches_goodput_plan_json(app_url, browser, plan_json, width):
    want = plan_json
    context = browser.new_context(viewport={"width": width, "height": 2400})
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{app_url}/plan")
        wait_idle(page)
        for label, key in TILES.items():
            # as every tile writes it (millions from $10M on), the JSON's figure
            assert tile(page, label) == display.tile(key, want[key])["value"], label
        # the chosen point is drawn on both curves
        chosen = f"Chosen: {want['block_days']:.0f} days"  # 98 for the modelled ~93-day run
        assert page.locator(".legendtext", has_text=chosen).count() == 2
        # the bill fits the page (QA: at 1,024 px its last column was cut off): compact
        # dollars from $10M on, as the tiles
        bill = page.locator('[data-testid="stTable"]', has_text="Failures and checkpoints")
        right = bill.first.evaluate(  # the box clips (overflow: clip): compare the edges
            "e => [e.querySelector('table').getBoundingClientRect().right,"
            " e.getBoundingClientRect().right]"
        )
        assert right[0] <= right[1] + 1, right
        page.wait_for_timeout(300)
        page.screenshot(path=str(SCREENSHOTS / f"plan-{width}.png"))
    finally:
        context.close()
