"""Sidebar download buttons: the current scenario as HTML, PDF, CSV, Parquet or TOML.

Files are built only when a button is clicked (``st.download_button`` with a callable) and
kept in a small per-process cache keyed on the scenario, so drawing the sidebar costs
nothing and a second click is instant.
"""

from __future__ import annotations

import re
from functools import lru_cache

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.dashboard.reports import FORMATS, build_report, render
from goodput_lab.models import Scenario, ValidationError

BUTTONS: tuple[tuple[str, str, str], ...] = (
    (".html", "HTML report", "Self-contained, interactive charts; opens offline"),
    (".pdf", "PDF report", "Static charts, A4, for finance and leadership (about 3 s)"),
    (".csv", "CSV data", "Every metric and the loss breakdown, one tidy table"),
    (".parquet", "Parquet data", "Same table as the CSV, typed"),
    (".toml", "Scenario TOML", "The exact scenario: reload it or run `goodput report` on it"),
)


def file_stem(name: str) -> str:
    """A safe file name from a scenario name (letters, digits, '-' only)."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return (stem[:60].rstrip("-") or "scenario") + "-goodput"


@lru_cache(maxsize=16)
def report_bytes(scenario: Scenario, fmt: str) -> bytes:
    """The report of ``scenario`` in format ``fmt`` (cached per scenario and format)."""
    if fmt == ".toml":
        return scenario.to_toml().encode("utf-8")
    detail = fmt in (".html", ".pdf")  # tables need no figures or model sections
    return render(build_report(scenario, catalog=cache.catalog(), detail=detail), fmt)


def _deferred(scenario: Scenario, fmt: str):
    def build() -> bytes:
        try:
            return report_bytes(scenario, fmt)
        except ValidationError as exc:  # e.g. Chromium missing for the PDF
            return f"Export failed: {exc}\n".encode()

    return build


def show() -> None:
    """Draw the 'Export report' block in the sidebar for the current scenario."""
    with st.sidebar.expander("Export report", expanded=False):
        try:
            scenario = state.scenario_from_state()
        except ValidationError:
            st.caption("Fix the inputs above to export a report.")
            return
        stem = file_stem(scenario.name)
        for fmt, label, help_text in BUTTONS:
            st.download_button(
                label,
                data=_deferred(scenario, fmt),
                file_name=stem + fmt,
                mime=FORMATS[fmt],
                key=f"export{fmt}",
                help=help_text,
                on_click="ignore",
                width="stretch",
            )
        st.caption("Comparisons and Monte Carlo: `goodput report A.toml --compare B.toml`.")
