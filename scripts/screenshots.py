"""Screenshots of the dashboard's pages in Debian's chromium (Playwright; nothing downloaded).

    .venv/bin/python scripts/screenshots.py [--width 1440] [--height 900] [--pages a,b]
                                            [--out DIR] [--url URL] [--full] [--small]

The README's pictures: ``--width 1440 --height 900 --small --out docs/screenshots``.

Starts the app on a free port of 127.0.0.1 (unless ``--url`` names a running one), opens
each page (the slug of its URL: overview, checkpoints, network, instances, montecarlo,
failure_log, run_log, compare, sensitivity, optimizer, plan, resilience), waits until the run has finished and every
chart is drawn, and writes ``<out>/<page>.png``.  The viewport is the picture: a tall one
(``--height 3600``) shows a whole page, 1440x900 the view above the fold.  ``--full``
captures the whole scrollable page instead.  Every request the browser makes is logged;
the script fails if any goes to a host other than the app's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from urllib.parse import urlparse

from goodput_lab.dashboard.navigation import PAGES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.load.driver
from tests.load.driver import CHROMIUM, IDLE_JS, serve_app  # noqa: E402
from tests.load.driver import CHROMIUM_ARGS as _LOAD_ARGS  # noqa: E402

CHROMIUM_ARGS = _LOAD_ARGS[:7]  # without the load test's anti-throttling flags

APP = ROOT / "dashboard" / "app.py"


@contextlib.contextmanager
def serve(log_path: Path):
    """``streamlit run dashboard/app.py`` on a free port of 127.0.0.1; yields its URL (the
    load tests' server starter)."""
    with serve_app(log_path=log_path) as (url, _):
        yield url


def shrink(path: Path) -> None:
    """Re-save a screenshot with an adaptive 256-colour palette (a third of the size; UI
    screenshots have few colours)."""
    from PIL import Image

    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def shoot(
    url: str, pages: list[str], out: Path, width: int, height: int, full: bool, small: bool
) -> list:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    app_host = urlparse(url).netloc
    foreign: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": width, "height": height})
        context.on(
            "request",
            lambda r: (
                foreign.append(r.url)
                if urlparse(r.url).netloc not in (app_host, "")
                and not r.url.startswith(("data:", "blob:"))
                else None
            ),
        )
        page = context.new_page()
        page.set_default_timeout(120_000)
        for name in pages:
            page.goto(f"{url}/{'' if name == 'overview' else name}")
            page.wait_for_function(IDLE_JS, timeout=120_000, polling=250)
            page.wait_for_timeout(800)  # plotly's transitions and fonts settle
            path = out / f"{name}.png"
            page.screenshot(path=str(path), full_page=full)
            if small:
                shrink(path)
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        browser.close()
    return foreign


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=1440)
    ap.add_argument("--height", type=int, default=900)
    ap.add_argument("--pages", default=",".join(PAGES), help="comma-separated page slugs")
    ap.add_argument("--out", default=str(ROOT / "artifacts" / "screenshots"))
    ap.add_argument("--url", help="a running app's URL (default: start one)")
    ap.add_argument("--full", action="store_true", help="capture the whole scrollable page")
    ap.add_argument("--small", action="store_true", help="256-colour PNGs (for docs/screenshots)")
    args = ap.parse_args(argv)
    pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    unknown = [p for p in pages if p not in PAGES]
    if unknown:
        ap.error(f"unknown page(s) {', '.join(unknown)}; pages: {', '.join(PAGES)}")
    out = Path(args.out)
    if args.url:
        foreign = shoot(args.url, pages, out, args.width, args.height, args.full, args.small)
    else:
        log = Path(f"/tmp/goodput-screenshots-{os.getpid()}.log")
        with serve(log) as url:
            foreign = shoot(url, pages, out, args.width, args.height, args.full, args.small)
    if foreign:
        print("external requests:\n  " + "\n  ".join(sorted(set(foreign))), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
