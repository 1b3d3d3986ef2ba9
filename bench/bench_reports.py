"""Report generation time of the default scenario (issue #7, target < 10 s for HTML and PDF).

Times, end to end in this process, ``build_report`` (evaluate + tables + figures) and each
output format written to a temporary file; the PDF time includes launching Debian's
Chromium, rendering the charts with the embedded plotly.js and printing.  Also one
comparison report (``--compare``) and, when models/montecarlo.py exists, one with
``--trials``.  Each case runs ``--repeats`` times; the table shows median and max.

    .venv/bin/python bench/bench_reports.py [--repeats 3]

Prints a markdown table (paste it into bench/README.md).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput_lab.models import load_catalog, load_preset  # noqa: E402

from goodput_lab.reports import build_report, montecarlo_available, write_report  # noqa: E402

TARGET_S = 10.0
DEFAULT = "aws-16k-h100"


def timed(fn, repeats: int) -> tuple[float, float, object]:
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), max(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    catalog = load_catalog()
    base = load_preset(DEFAULT)
    cand = load_preset("aws-16k-h100-improved")
    tmp = Path(tempfile.mkdtemp(prefix="bench-reports-"))
    rows: list[tuple[str, float, float, str]] = []

    def case(name: str, fn, target: float | None = None) -> object:
        med, worst, out = timed(fn, args.repeats)
        verdict = "" if target is None else ("yes" if worst < target else "**no**")
        size = ""
        if isinstance(out, Path):
            size = f"{os.path.getsize(out) / 1e6:.2f} MB"
        rows.append((name, med, worst, verdict + (f" ({size})" if size else "")))
        return out

    report = case("build_report (evaluate, tables, figures)", lambda: build_report(base))
    for ext in (".html", ".pdf"):
        case(
            f"{ext} end to end (build + write)",
            lambda ext=ext: write_report(build_report(base, catalog=catalog), tmp / f"r{ext}"),
            TARGET_S,
        )
    for ext in (".csv", ".parquet", ".toml"):
        case(f"{ext} write only", lambda ext=ext: write_report(report, tmp / f"r{ext}"))
    case(
        ".pdf --compare end to end",
        lambda: write_report(build_report(base, compare_to=cand), tmp / "c.pdf"),
        TARGET_S,
    )
    if montecarlo_available():
        case(
            ".html --trials 1000 end to end",
            lambda: write_report(build_report(base, trials=1000), tmp / "mc.html"),
            TARGET_S,
        )

    print(
        f"Default scenario `{DEFAULT}`, {args.repeats} runs each, "
        f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, load average {os.getloadavg()[0]:.1f} "
        "(other engineers' test runs share the 2 cores).\n"
    )
    print(f"| case | median s | max s | under {TARGET_S:g} s (size) |")
    print("|---|---:|---:|---|")
    for name, med, worst, verdict in rows:
        print(f"| {name} | {med:.2f} | {worst:.2f} | {verdict} |")


if __name__ == "__main__":
    main()
