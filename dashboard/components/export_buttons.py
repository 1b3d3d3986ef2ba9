"""Sidebar download buttons: the current scenario as HTML, PDF, CSV, Parquet or TOML.

Files are built only when a button is clicked (``st.download_button`` with a callable) and
kept in a small per-process cache keyed on the scenario, so drawing the sidebar costs
nothing and a second click is instant.

An export that cannot be built offers no file.  What can be known before a click is shown
at once: without Chromium the PDF button is disabled and the sidebar says why.  A build
that fails on the click (a crashed or hung browser) raises, so Streamlit shows "Failed to
generate file for download" under the button instead of handing over a file; our own
message is kept and shown in the sidebar on the next run.
"""

from __future__ import annotations

import logging
import re
import threading
from functools import lru_cache

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.dashboard.reports import FORMATS, build_report, render
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Scenario, ValidationError

BUTTONS: tuple[tuple[str, str, str], ...] = (
    (".html", "HTML report", "Self-contained, interactive charts; opens offline"),
    (".pdf", "PDF report", "Static charts, A4, for finance and leadership (about 3 s)"),
    (".csv", "CSV data", "Every metric and the loss breakdown, one tidy table"),
    (".parquet", "Parquet data", "Same table as the CSV, typed"),
    (".toml", "Scenario TOML", "The exact scenario: reload it or run `goodput report` on it"),
)
_LOG = logging.getLogger(__name__)
#: format -> (scenario hash, message) of the last export that failed on a click
_FAILED: dict[str, tuple[int, str]] = {}
_FAILED_LOCK = threading.Lock()


class ExportFailed(RuntimeError):
    """An export could not be built; Streamlit then offers no file."""


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


def unavailable(fmt: str) -> str | None:
    """Why ``fmt`` cannot be exported on this server (known before any click), or None."""
    if fmt != ".pdf":
        return None
    from goodput_lab.dashboard.reports.pdf import chromium_path

    try:
        chromium_path()
    except ValidationError as exc:
        return str(exc)
    return None


def _deferred(scenario: Scenario, fmt: str):
    def build() -> bytes:
        try:
            return report_bytes(scenario, fmt)
        except ValidationError as exc:  # e.g. Chromium crashed or timed out
            with _FAILED_LOCK:
                _FAILED[fmt] = (hash(scenario), str(exc))
            _LOG.warning("export %s failed: %s", fmt, exc)
            raise ExportFailed(str(exc)) from None  # no file: Streamlit reports the failure

    return build


def _last_failure(scenario: Scenario, fmt: str) -> str | None:
    with _FAILED_LOCK:
        failed = _FAILED.get(fmt)
    return failed[1] if failed and failed[0] == hash(scenario) else None


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
            problem = unavailable(fmt)
            st.download_button(
                label,
                data=b"" if problem else _deferred(scenario, fmt),
                file_name=stem + fmt,
                mime=FORMATS[fmt],
                key=f"export{fmt}",
                help=plain(problem) if problem else help_text,
                on_click="ignore",
                width="stretch",
                disabled=problem is not None,
            )
            if problem:
                st.caption(f"{label} unavailable — {plain(problem)}")
            elif (failure := _last_failure(scenario, fmt)) is not None:
                st.warning(f"The last {label} export failed — {plain(failure)}")
        st.caption("Comparisons and Monte Carlo: `goodput report A.toml --compare B.toml`.")
