"""Benchmark: the failure-domain classes' cost on the analytic chain and the simulator,
old code against new, side by side in one run.

    .venv/bin/python bench/bench_domains.py --old /path/to/old/checkout [--repeat 5] [--write]

Each measurement runs in a fresh subprocess of the checkout's own ``.venv/bin/python``
(old and new alternate, ``--repeat`` times, best of each kept), on one core:

* analytic: ``evaluate_arrays`` on 10,000 aws-16k-h100 scenarios (node failure rate varied),
  the best of 200 calls after one warm-up call (a call takes milliseconds);
* Monte Carlo: ``simulate_inputs`` on the headline baseline, 10,000 trials x 30 days.

``--write`` replaces the "Failure domains" section of bench/README.md with the table.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- bench_domains:start -->", "<!-- bench_domains:end -->"

CODE = r"""
import os, sys, time
os.environ["OMP_NUM_THREADS"] = "1"
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
import numpy as np
from goodput_lab.models import resolve_inputs, evaluate_arrays
from goodput_lab.models.scenario import load_preset
from goodput_lab.models.montecarlo import simulate_inputs
x = resolve_inputs(load_preset("aws-16k-h100"))
what = sys.argv[1]
if what == "analytic":
    xs = {**x, "reliability.node_failure_rate_per_day": np.linspace(0.0005, 0.01, 10_000)}
    evaluate_arrays(xs)
    best = float("inf")
    for _ in range(200):  # a call takes milliseconds: the best of 200
        t = time.perf_counter(); evaluate_arrays(xs); best = min(best, time.perf_counter() - t)
    print(best)
else:
    simulate_inputs(x, trials=200, days=30.0, rng=0)
    t = time.perf_counter(); simulate_inputs(x, trials=10_000, days=30.0, rng=0)
    print(time.perf_counter() - t)
"""


def _time(checkout: Path, what: str) -> float:
    py = checkout / ".venv" / "bin" / "python"
    out = subprocess.run(
        [str(py), "-c", CODE, what], cwd=checkout, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, help="checkout of the code before (with its .venv)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    old, new = Path(args.old), ROOT
    rows = []
    for what in ("analytic", "montecarlo"):
        t_old, t_new = [], []
        for _ in range(args.repeat):
            t_old.append(_time(old, what))
            t_new.append(_time(new, what))
        rows.append((what, min(t_old), min(t_new), t_old, t_new))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        START,
        f"Old = the checkout before the failure domains, new = this one; best of {args.repeat} "
        f"alternating fresh processes each, one core, load average {load:.1f} at the end.",
        "",
        "| case | old (s) | new (s) | new / old | runs old | runs new |",
        "|---|---|---|---|---|---|",
    ]
    names = {
        "analytic": "10,000 analytic scenarios (evaluate_arrays)",
        "montecarlo": "Monte Carlo headline, 10,000 trials x 30 days",
    }
    for what, a, b, ra, rb in rows:
        lines.append(
            f"| {names[what]} | {a:.4f} | {b:.4f} | {b / a:.2f} | "
            f"{min(ra):.4f}-{max(ra):.4f} | {min(rb):.4f}-{max(rb):.4f} |"
        )
    lines.append(END)
    text = "\n".join(lines)
    print(text)
    if args.write:
        readme = ROOT / "bench" / "README.md"
        body = readme.read_text(encoding="utf-8")
        if START in body:
            body = re.sub(re.escape(START) + ".*?" + re.escape(END), text, body, flags=re.S)
        else:
            body = body.rstrip("\n") + "\n\n## Failure domains\n\n" + text + "\n"
        readme.write_text(body, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
