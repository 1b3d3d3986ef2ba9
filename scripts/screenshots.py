"""Screenshots of every dashboard page, for the README/docs and for looking at the app.

    .venv/bin/python scripts/screenshots.py [--width 1440] [--out docs/screenshots] [--pages a,b]

Starts the app on 127.0.0.1 (a free port), opens each page in Debian's chromium via
Playwright (never downloads a browser), waits until the page has finished running and its
charts are drawn, and writes ``<page>-<width>.png``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.load.driver import CHROMIUM, CHROMIUM_ARGS, free_port, serve_app  # noqa: E402

PAGES = (
    "",
    "checkpoints",
    "network",
    "instances",
    "montecarlo",
    "failure_log",
    "compare",
    "sensitivity",
    "optimizer",
)


def wait_idle(page) -> None:
    """Until the run finished: title drawn, no 'running' widget, no skeletons, every plotly
    chart rendered (or an exception shown)."""
    page.wait_for_selector('[data-testid="stMain"] h1')
    page.wait_for_function(
        """() => document.querySelector('[data-testid="stException"]')
              || !document.querySelector('[data-testid="stStatusWidget"]')
              && !document.querySelector('[data-testid="stSkeleton"]')
              && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                   .every(c => c.querySelector('.main-svg'))""",
        timeout=120_000,
    )


def shoot(url: str, page, name: str, out: Path, width: int) -> Path:
    page.goto(f"{url}/{name}")
    wait_idle(page)
    page.wait_for_timeout(800)
    path = out / f"{name or 'overview'}-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=1440)
    ap.add_argument(
        "--height", type=int, default=900, help="viewport height; a tall one shows a whole page"
    )
    ap.add_argument("--out", default=str(ROOT / "artifacts" / "screenshots"))
    ap.add_argument("--pages", default=",".join(PAGES))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with serve_app(free_port(), out / "streamlit.log") as (url, _log), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": args.width, "height": args.height})
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        for name in args.pages.split(","):
            print(shoot(url, page, name.strip(), out, args.width), flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
