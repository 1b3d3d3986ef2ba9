"""Regenerate the leave-one-source-out and MLPerf tables of docs/step-time.md from the model.

``python scripts/step_tables.py`` rewrites the block between ``<!-- loso:start -->`` and
``<!-- loso:end -->`` with :func:`tests.validation.step_loso.markdown_tables`, the one
between ``<!-- mlperf:start -->`` and ``<!-- mlperf:end -->`` with
:func:`tests.validation.mlperf_cases.markdown_table`, and prints the summary lines;
``--check`` exits 1 if the docs are out of date instead of writing.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.validation import mlperf_cases, step_loso  # noqa: E402

START, END = "<!-- loso:start -->", "<!-- loso:end -->"
ML_START, ML_END = "<!-- mlperf:start -->", "<!-- mlperf:end -->"


def _replace(text: str, start: str, end: str, block: str) -> str:
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{block}\n{end}{tail}"


def main(argv: list[str]) -> int:
    """Rewrite (or, with ``--check``, compare) the docs block; returns the exit status."""
    path = ROOT / "docs" / "step-time.md"
    text = path.read_text()
    new = _replace(text, START, END, step_loso.markdown_tables())
    new = _replace(new, ML_START, ML_END, mlperf_cases.markdown_table())
    for fam in ("dense", "dense_many", "dense_few", "moe", "all"):
        s = step_loso.summary(fam)
        print(
            f"{fam}: mean {100 * s['mean']:.1f}%, max {100 * s['max']:.1f}%, coverage "
            f"{100 * s['coverage']:.0f}%, interval ratio "
            f"{s['interval_ratio'][0]:.3f}-{s['interval_ratio'][1]:.3f}"
        )
    print("fit on all sources:", step_loso.fit(None)[:5])
    if "--check" in argv:
        return 0 if new == text else 1
    path.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
