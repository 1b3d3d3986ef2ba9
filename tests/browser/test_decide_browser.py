"""The Decide page in chromium, restored from a share link: its figures are those of
`goodput decide --json` for the same inputs; screenshots at 1440 and 1024 px."""

from __future__ import annotations

import json
import subprocess
import sys
from urllib.parse import urlencode

import pytest
from goodput_lab.models.outputs import format_value

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_app_browser import wait_idle

pytestmark = pytest.mark.browser

LINK = {
    "preset": "llama3-8b",
    "dec.deadline": "16",
    "dec.confidence_pct": "80",
    "dec.trials": "200",
    "dec.instances": "p5.48xlarge",
    "dec.go": "true",
}


def tile(page, label: str) -> str:
    m = page.locator('[data-testid="stMetric"]', has_text=label).first
    return m.locator('[data-testid="stMetricValue"]').inner_text().strip()


@pytest.fixture(scope="module")
def decide_json() -> dict:
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "goodput_lab.cli.main",
            "decide",
            "llama3-8b",
            "--deadline-days",
            "16",
            "--confidence",
            "0.8",
            "--trials",
            "200",
            "--instances",
            "p5.48xlarge",
            "--workers",
            "0",
            "--quiet",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(cli.stdout)


def test_decide_page_from_a_link_matches_goodput_decide_json(app_url, browser, decide_json):
    want = decide_json
    shots = []
    for width in (1440, 1024):
        context = browser.new_context(viewport={"width": width, "height": 1800})
        try:
            page = context.new_page()
            page.set_default_timeout(300_000)
            page.goto(f"{app_url}/decide?{urlencode(LINK)}")
            wait_idle(page)
            page.locator(
                '[data-testid="stMetric"]', has_text="P(finish by the deadline)"
            ).wait_for()
            assert tile(page, "P(finish by the deadline)") == format_value(
                "probability_finish_by_deadline", want["probability_finish_by_deadline"]
            )
            assert tile(page, "Expected total cost") == format_value(
                "expected_total_cost_usd", want["expected_total_cost_usd"]
            )
            c = want["choice"]
            assert page.locator(".legendtext", has_text=f"Choice: {c['instance']}").count() == 1
            assert page.get_by_text("Deadline used: 16 days").count() >= 1
            page.wait_for_timeout(300)
            path = SCREENSHOTS / f"decide-{width}.png"
            page.screenshot(path=str(path), full_page=True)
            shots.append(path)
        finally:
            context.close()
    assert all(p.stat().st_size > 10_000 for p in shots)
