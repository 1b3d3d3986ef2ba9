"""Regenerate the leave-one-source-out tables of docs/step-time.md from the model.

``python scripts/step_tables.py`` rewrites the block between ``<!-- loso:start -->`` and
``<!-- loso:end -->`` with :func:`tests.validation.step_loso.markdown_tables` and prints the
summary lines; ``--check`` exits 1 if the docs are out of date instead of writing.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.validation import step_loso  # noqa: E402

START, END = "<!-- loso:start -->", "<!-- loso:end -->"


def main(argv: list[str]) -> int:
    """Rewrite (or, with ``--check``, compare) the docs block; returns the exit status."""
    path = ROOT / "docs" / "step-time.md"
    text = path.read_text()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{START}\n{step_loso.markdown_tables()}\n{END}{tail}"
    for fam in ("dense", "moe", "all"):
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
