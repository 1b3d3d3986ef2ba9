"""The dashboard's pages, in sidebar order: one list that the app, the screenshot script,
the responsiveness benchmark and the every-page tests read (no Streamlit import here)."""

from __future__ import annotations

from typing import NamedTuple


class PageSpec(NamedTuple):
    slug: str  # file stem in dashboard/app_pages/ and the page's URL path
    title: str
    icon: str  # a Material icon name, drawn from the bundled font (no external request)
    group: str  # sidebar heading


PAGE_SPECS: tuple[PageSpec, ...] = (
    PageSpec("overview", "Overview", ":material/dashboard:", "Analyse"),
    PageSpec("checkpoints", "Checkpoints", ":material/save:", "Analyse"),
    PageSpec("network", "Network", ":material/lan:", "Analyse"),
    PageSpec("instances", "Instances", ":material/memory:", "Analyse"),
    PageSpec("montecarlo", "Monte Carlo", ":material/casino:", "Analyse"),
    PageSpec("failure_log", "Failure log", ":material/receipt_long:", "Analyse"),
    PageSpec("run_log", "Run log", ":material/timeline:", "Analyse"),
    PageSpec("compare", "Compare", ":material/compare_arrows:", "Decide"),
    PageSpec("sensitivity", "Sensitivity", ":material/tune:", "Decide"),
    PageSpec("optimizer", "Optimizer", ":material/target:", "Decide"),
    PageSpec("plan", "Plan", ":material/event_available:", "Decide"),
    PageSpec("resilience", "Resilience", ":material/health_and_safety:", "Decide"),
    PageSpec("decide", "Decide", ":material/flag:", "Decide"),
)
#: Page slugs in sidebar order.
PAGES: tuple[str, ...] = tuple(p.slug for p in PAGE_SPECS)
