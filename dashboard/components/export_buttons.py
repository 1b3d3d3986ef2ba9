"""Download buttons for reports: the current scenario (sidebar), and any page's own report
(a comparison, a Monte Carlo run) through :func:`page_export`.

Files are built only when a button is clicked (``st.download_button`` with a callable) and
the scenario report is kept in a small per-process cache keyed on the scenario, so drawing
the buttons costs nothing and a second click is instant.  A page makes itself exportable
with one call::

    export_buttons.page_export("Export this comparison", build, stem, key="cmp-export")

where ``build(fmt) -> bytes`` renders its report in ``fmt`` (".html", ".pdf", ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import streamlit as st
from goodput_lab.dashboard import cache
from goodput_lab.dashboard.reports import FORMATS, build_report, render
from goodput_lab.models import Scenario, ValidationError

Button = tuple[str, str, str]  # (format, label, help)

BUTTONS: tuple[Button, ...] = (
    (".html", "HTML report", "Self-contained, interactive charts; opens offline"),
    (".pdf", "PDF report", "Static charts, A4, for finance and leadership (a few seconds)"),
    (".csv", "CSV data", "Every input with its source and every figure, one tidy table"),
    (".parquet", "Parquet data", "Same table as the CSV, typed"),
    (".toml", "Scenario TOML", "The exact scenario: reload it or run `goodput report` on it"),
)
#: Formats of a page's own report (its scenarios' TOML files come from the sidebar).
REPORT_BUTTONS: tuple[Button, ...] = BUTTONS[:4]


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


def _deferred(build: Callable[[str], bytes], fmt: str) -> Callable[[], bytes]:
    def run() -> bytes:
        try:
            return build(fmt)
        except ValidationError as exc:  # e.g. Chromium missing for the PDF
            return f"Export failed: {exc}\n".encode()

    return run


def buttons(
    build: Callable[[str], bytes],
    stem: str,
    key: str,
    formats: Sequence[Button] = BUTTONS,
) -> None:
    """One download button per format; ``build(fmt)`` runs only when its button is clicked."""
    for fmt, label, help_text in formats:
        st.download_button(
            label,
            data=_deferred(build, fmt),
            file_name=stem + fmt,
            mime=FORMATS[fmt],
            key=f"{key}{fmt}",
            help=help_text,
            on_click="ignore",
            width="stretch",
        )


def scenario_buttons(scenario: Scenario | None) -> None:
    """The current scenario's report in every format (the sidebar's Export menu)."""
    if scenario is None:
        st.caption("Fix the inputs below to export a report.")
        return
    st.caption("This scenario, with every input and its source:")
    buttons(lambda fmt: report_bytes(scenario, fmt), file_stem(scenario.name), "export")
    st.caption("Compare and Monte Carlo pages export their own reports at the top of the page.")


def page_export(
    label: str,
    build: Callable[[str], bytes],
    stem: str,
    *,
    key: str,
    note: str = "",
    formats: Sequence[Button] = REPORT_BUTTONS,
    container=None,
) -> None:
    """A page's own export menu (a popover of download buttons), e.g. at the page's top."""
    c = container or st
    with c.popover(label, icon=":material/download:"):
        if note:
            st.caption(note)
        buttons(build, stem, key, formats)
