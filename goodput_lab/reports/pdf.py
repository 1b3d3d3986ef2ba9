"""PDF report: the print version of the HTML report, printed by Debian's Chromium.

The charts are drawn by the embedded plotly.js at a fixed size with ``staticPlot`` and
printed as vector graphics; Chromium is driven through Playwright with an explicit
``executable_path`` (nothing is downloaded at run time).  ``GOODPUT_CHROMIUM`` overrides
the browser path; when it is set it must name an executable file (it is never silently
ignored).  Launch and rendering have our own timeouts (a hung browser fails the export in
seconds, not after Playwright's three-minute default).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from goodput_lab.models import ValidationError

from .content import Report
from .html import esc, render_html

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
RENDER_TIMEOUT_MS = 30_000
LAUNCH_TIMEOUT_MS = 20_000  # Playwright's default is 180 s
REPORT_URL = "http://goodput-report.invalid/report.html"  # never leaves the browser


def chromium_path() -> str:
    """Path of the Chromium executable, or a ValidationError saying how to get one."""
    env = os.environ.get("GOODPUT_CHROMIUM")
    if env:  # the user named a browser: use it or say why not, never fall back silently
        if not Path(env).is_file():
            raise ValidationError(
                "GOODPUT_CHROMIUM", f"{env!r} does not exist (set it to a Chromium binary)"
            )
        if not os.access(env, os.X_OK):
            raise ValidationError("GOODPUT_CHROMIUM", f"{env!r} is not executable")
        return env
    for c in CHROMIUM_CANDIDATES:
        if Path(c).is_file() and os.access(c, os.X_OK):
            return c
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    raise ValidationError(
        "PDF output",
        "needs Chromium (apt-get install chromium, or set GOODPUT_CHROMIUM to a Chrome "
        "binary); HTML, CSV, Parquet and TOML work without it",
    )


def _footer(report: Report) -> str:
    name = esc(report.scenario.name)
    if len(name) > 90:
        name = name[:87] + "..."
    return (
        '<div style="font-size:8px;color:#5b6475;width:100%;padding:0 13mm;'
        'display:flex;justify-content:space-between;font-family:sans-serif">'
        f"<span>Goodput Lab · {esc(report.title)} · {name}</span>"
        '<span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span>'
        "</div>"
    )


#: A4 between the margins (210 mm − 2 × 13 mm) in CSS pixels: the width Chromium lays the
#: printed report out at.
PRINT_CONTENT_WIDTH_PX = round((210 - 2 * 13) / 25.4 * 96)
PDF_OPTIONS = {
    "format": "A4",
    "print_background": True,
    "display_header_footer": True,
    "header_template": "<span></span>",
    "margin": {"top": "14mm", "bottom": "16mm", "left": "13mm", "right": "13mm"},
}


def render_pdf(report: Report) -> bytes:
    """The report as PDF bytes (A4, page numbers in the footer).

    Playwright's sync API refuses to run inside an asyncio loop (e.g. a Streamlit callback
    thread that has one), so in that case the work moves to a fresh thread.
    """
    return render_pdfs([report])[0]


def render_pdfs(
    reports: Sequence[Report], inspect: Callable[[Any, Report], None] | None = None
) -> list[bytes]:
    """Several reports printed in one browser session (one launch).  ``inspect(page,
    report)`` is called with each Playwright page laid out as it prints (print media,
    the printable width), before printing: the tests check the layout there."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _render_pdfs(reports, inspect)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_render_pdfs, reports, inspect).result()


def _render_pdfs(reports, inspect) -> list[bytes]:
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dependency
        raise ValidationError(
            "PDF output", "needs the playwright package (pip install playwright)"
        ) from None
    exe = chromium_path()
    out: list[bytes] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=exe, args=LAUNCH_ARGS, timeout=LAUNCH_TIMEOUT_MS
            )
            try:
                for report in reports:
                    page = browser.new_page(
                        viewport={"width": PRINT_CONTENT_WIDTH_PX, "height": 1000}
                    )
                    try:
                        out.append(_print(page, report, inspect))
                    finally:
                        page.close()
            finally:
                browser.close()
    except PlaywrightError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValidationError("PDF output", f"Chromium failed: {first}") from None
    return out


def _print(page, report: Report, inspect) -> bytes:
    doc = render_html(report, for_print=True)
    n_figures = doc.count('class="figure"')
    page.set_default_timeout(RENDER_TIMEOUT_MS)
    # offline by construction: the report is served from memory at REPORT_URL
    # (no temporary file to leave behind) and every other request is refused
    body = doc.encode("utf-8")
    page.route(
        "**/*",
        lambda route: (
            route.fulfill(status=200, body=body, content_type="text/html; charset=utf-8")
            if route.request.url == REPORT_URL
            else route.abort()
        ),
    )
    # navigating parses the embedded plotly.js faster than set_content
    page.goto(REPORT_URL, wait_until="load", timeout=RENDER_TIMEOUT_MS)
    if n_figures:
        page.wait_for_function(
            f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {n_figures}",
            timeout=RENDER_TIMEOUT_MS,
        )
    page.emulate_media(media="print")
    if inspect is not None:
        inspect(page, report)
    return page.pdf(**PDF_OPTIONS, footer_template=_footer(report))
