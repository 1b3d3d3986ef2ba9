"""Real-browser fixtures: the app served on 127.0.0.1 and Debian's chromium via Playwright.

One server and one browser per test session (per xdist worker).  No browser is downloaded:
``/usr/bin/chromium`` must exist (``.ci/run`` installs it with apt); if it does not, the
tests FAIL rather than skip, so CI cannot pass without having run them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.load.driver import CHROMIUM_ARGS as LOAD_ARGS
from tests.load.driver import IDLE_JS, free_port, serve_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = LOAD_ARGS[:6]  # the load test's extra anti-throttling flags not needed
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def app_url():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    try:
        with serve_app(port, ROOT / "artifacts" / f"streamlit-{port}.log") as (url, _log):
            yield url
    except RuntimeError as exc:  # the server did not come up
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    pg = context.new_page()
    pg.set_default_timeout(60_000)  # generous: CI machines are shared and busy
    yield pg
    context.close()


@pytest.fixture(scope="session", autouse=True)
def _artifacts_dir():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)


def wait_idle(page, settle_ms: int = 400) -> None:
    """Wait until the page is drawn after a navigation or an input (generous: the machine is
    shared), then fail if Streamlit shows an exception."""
    page.wait_for_timeout(settle_ms)  # a rerun starts a moment after the input
    page.wait_for_function(IDLE_JS, timeout=120_000, polling=200)
    assert page.locator('[data-testid="stException"]').count() == 0, page.url
