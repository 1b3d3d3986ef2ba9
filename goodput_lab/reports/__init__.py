"""Exported reports: self-contained HTML, PDF, CSV/Parquet tables and the scenario TOML.

    report = build_report(scenario, compare_to=None, trials=None)
    write_report(report, "report.html")   # .html .pdf .csv .parquet .toml

The content is built once (:mod:`.content`) and rendered by :mod:`.html`, :mod:`.pdf` and
:mod:`.tables`; the ``.toml`` output is ``Scenario.to_toml()`` so a report is reproducible.
"""

from __future__ import annotations

from pathlib import Path

from goodput_lab.models import ValidationError
from goodput_lab.models._files import write_atomic

from .content import Report, build_report, montecarlo_available

FORMATS = {
    ".html": "text/html",
    ".pdf": "application/pdf",
    ".csv": "text/csv",
    ".parquet": "application/vnd.apache.parquet",
    ".toml": "application/toml",
}


def report_format(path: str | Path) -> str:
    """The output format (file extension) of ``path``, or a ValidationError listing them."""
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise ValidationError(
            "-o", f"{str(path)!r} has no supported extension; use one of " + ", ".join(FORMATS)
        )
    return ext


def render(report: Report, fmt: str) -> bytes:
    """The report in format ``fmt`` (".html", ".pdf", ...) as bytes."""
    if fmt == ".html":
        from .html import render_html

        return render_html(report).encode("utf-8")
    if fmt == ".pdf":
        from .pdf import render_pdf

        return render_pdf(report)
    if fmt == ".toml":
        return report.scenario.to_toml().encode("utf-8")
    if fmt in (".csv", ".parquet"):
        from .tables import report_table, table_bytes

        return table_bytes(report_table(report), fmt)
    raise ValidationError("format", f"{fmt!r} is not one of " + ", ".join(FORMATS))


def write_report(report: Report, path: str | Path, name: str | None = None) -> Path:
    """Write ``report`` to ``path`` in the format its extension names.

    The file is written beside ``path`` under a temporary name and renamed into place: a
    failed or interrupted write leaves any previous file intact (models._files.write_atomic).
    """
    p = Path(path)
    data = render(report, report_format(p))
    return write_atomic(p, data, name)


__all__ = [
    "FORMATS",
    "Report",
    "build_report",
    "montecarlo_available",
    "render",
    "report_format",
    "write_report",
]
