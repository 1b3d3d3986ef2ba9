"""Download buttons for reports: the current scenario (sidebar), and any page's own report
(a comparison, a Monte Carlo run) through :func:`page_export`.

Files are built only when a button is clicked (``st.download_button`` with a callable) and
the scenario report is kept in a small per-process cache keyed on the scenario, so drawing
the buttons costs nothing and a second click is instant.  A page makes itself exportable
with one call::

    export_buttons.page_export("Export this comparison", build, stem, key="cmp-export")

where ``build(fmt) -> bytes`` renders its report in ``fmt`` (".html", ".pdf", ...).

An export that cannot be built offers no file.  What can be known before a click is shown
at once: without Chromium the PDF button is disabled and the menu says why.  A build that
fails on the click (a crashed or hung browser) raises, so Streamlit shows "Failed to
generate file for download" under the button instead of handing over a file; our own
message is kept and shown beside the button on the next run.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

import streamlit as st
from goodput_lab.dashboard import cache
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Scenario, ValidationError

from goodput_lab.reports import FORMATS, build_report, render

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
_LOG = logging.getLogger(__name__)
#: (button key, format) -> (what was exported, message) of the last export that failed
_FAILED: dict[tuple[str, str], tuple[Hashable, str]] = {}
_FAILED_LOCK = threading.Lock()
SCENARIO_KEY = "export"  # the sidebar's buttons: export.html, export.pdf, ...


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
    from goodput_lab.reports.pdf import chromium_path

    try:
        chromium_path()
    except ValidationError as exc:
        return str(exc)
    return None


def _guarded(
    build: Callable[[str], bytes], fmt: str, key: str, ident: Hashable
) -> Callable[[], bytes]:
    """``build(fmt)`` for a download button: a failure raises (no file) and is remembered."""

    def run() -> bytes:
        try:
            return build(fmt)
        except ValidationError as exc:  # e.g. Chromium crashed or timed out
            with _FAILED_LOCK:
                _FAILED[(key, fmt)] = (ident, str(exc))
            _LOG.warning("export %s failed: %s", fmt, exc)
            raise ExportFailed(str(exc)) from None  # no file: Streamlit reports the failure

    return run


def _failure(key: str, fmt: str, ident: Hashable) -> str | None:
    with _FAILED_LOCK:
        failed = _FAILED.get((key, fmt))
    return failed[1] if failed and failed[0] == ident else None


def _deferred(scenario: Scenario, fmt: str) -> Callable[[], bytes]:
    """The sidebar's build of ``scenario`` in ``fmt`` (run when its button is clicked)."""
    return _guarded(lambda f: report_bytes(scenario, f), fmt, SCENARIO_KEY, hash(scenario))


def _last_failure(scenario: Scenario, fmt: str) -> str | None:
    """The message of the last failed sidebar export of ``scenario`` in ``fmt``, if any."""
    return _failure(SCENARIO_KEY, fmt, hash(scenario))


def buttons(
    build: Callable[[str], bytes],
    stem: str,
    key: str,
    formats: Sequence[Button] = BUTTONS,
    ident: Hashable | None = None,
) -> None:
    """One download button per format; ``build(fmt)`` runs only when its button is clicked.

    ``ident`` names what is exported (default: the file stem), so that a failure is shown
    again only beside the same export.
    """
    ident = stem if ident is None else ident
    for fmt, label, help_text in formats:
        problem = unavailable(fmt)
        st.download_button(
            label,
            data=b"" if problem else _guarded(build, fmt, key, ident),
            file_name=stem + fmt,
            mime=FORMATS[fmt],
            key=f"{key}{fmt}",
            help=plain(problem) if problem else help_text,
            on_click="ignore",
            width="stretch",
            disabled=problem is not None,
        )
        if problem:
            st.caption(f"{label} unavailable — {plain(problem)}")
        elif (failure := _failure(key, fmt, ident)) is not None:
            st.warning(f"The last {label} export failed — {plain(failure)}")


def scenario_buttons(scenario: Scenario | None) -> None:
    """The current scenario's report in every format (the sidebar's Export menu)."""
    if scenario is None:
        st.caption("Fix the inputs below to export a report.")
        return
    st.caption("This scenario, with every input and its source:")
    buttons(
        lambda fmt: report_bytes(scenario, fmt),
        file_stem(scenario.name),
        SCENARIO_KEY,
        ident=hash(scenario),
    )
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
