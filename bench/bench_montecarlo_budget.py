"""Benchmark: the Monte Carlo work predictor (``estimate_work``) against measured runs.

    .venv/bin/python bench/bench_montecarlo_budget.py [--write]

For a set of scenarios chosen to stress each term of the cost model (many trials, one long
run, interrupted recoveries, fabric stalls, spares, per-node Weibull renewals), runs
``simulate_params`` on one core and prints the predicted and the measured CPU seconds and
events.  The constants ``SEC_PER_*`` in models/montecarlo.py come from runs like these; a
ratio measured/predicted at or below 1 means the refusal before running is on the safe
side (the budget checked inside the loops catches the rest).  ``--write`` replaces the
"Monte Carlo work predictor" section of bench/README.md with the table.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput_lab.models import load_preset, resolve_inputs  # noqa: E402
from goodput_lab.models.budget import Budget  # noqa: E402
from goodput_lab.models.montecarlo import (  # noqa: E402
    estimate_work,
    params_from_inputs,
    simulate_params,
)

START, END = "<!-- bench_montecarlo_budget:start -->", "<!-- bench_montecarlo_budget:end -->"
HIGH = {"reliability.node_failure_rate_per_day": 0.1}  # 200 failures/day on 2,000 nodes
CASES = [
    ("headline, 10,000 x 30 days", {}, 10_000, 30.0),
    ("200 failures/day, 1 x 30 days", HIGH, 1, 30.0),
    ("200 failures/day, 100 x 30 days", HIGH, 100, 30.0),
    ("200 failures/day, 1,000 x 10 days", HIGH, 1000, 10.0),
    (
        "+ 200 fabric stalls/day, 1,000 x 10 days",
        {**HIGH, "network.fabric_events_per_day": 200.0, "network.reroute_seconds": 60.0},
        1000,
        10.0,
    ),
    ("+ 1,000 spares, 1,000 x 10 days", {**HIGH, "cluster.spare_nodes": 1000}, 1000, 10.0),
    ("Weibull 0.5, 1 x 30 days", {**HIGH, "reliability.weibull_shape": 0.5}, 1, 30.0),
    (
        "Weibull 0.5, 100,000 nodes, 10 x 10 days",
        {
            "reliability.node_failure_rate_per_day": 0.01,
            "reliability.weibull_shape": 0.5,
            "cluster.nodes": 100_000,
        },
        10,
        10.0,
    ),
    ("week-long replacement, 5 x 1 day", {"recovery.replacement_minutes": 10080.0}, 5, 1.0),
    ("10-hour replacement, 1,000 x 30 days", {"recovery.replacement_minutes": 600.0}, 1000, 30.0),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="update bench/README.md")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = []
    for label, updates, trials, days in CASES:
        p = params_from_inputs(resolve_inputs(load_preset("aws-16k-h100").replace(updates)))
        est = estimate_work(p, trials, days)
        cpu, wall = time.process_time(), time.perf_counter()
        res = simulate_params(
            p, trials, days, rng=1, record_timeline=False, budget=Budget(max_seconds=3600)
        )
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rows.append(
            f"| {label} | {est.seconds:.2f} | {cpu:.2f} | {wall:.2f} | {cpu / est.seconds:.2f} "
            f"| {est.events:,.0f} | {res.events_simulated:,} |"
        )
        print(rows[-1], flush=True)
    table = "\n".join(
        [
            "| case | predicted s | CPU s | wall s | CPU / predicted | predicted events "
            "| simulated events |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    section = (
        f"{START}\n## Monte Carlo work predictor (`bench/bench_montecarlo_budget.py`)\n\n"
        f"Run on {time.strftime('%Y-%m-%d')} with `.venv/bin/python "
        f"bench/bench_montecarlo_budget.py --write` on one core ({platform.processor() or platform.machine()}, "
        f"load average {load:.1f} at the start). `estimate_work` predicts the seconds that "
        "`check_size` compares with the budget before a simulation starts (300 s for the "
        "command line and reports, 10 s for the Monte Carlo page); CPU / predicted at or "
        "below 1 means the prediction is on the safe side. The wall-time budget checked "
        "inside the loops stops what the prediction misses.\n\n"
        f"{table}\n{END}"
    )
    if args.write:
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text(encoding="utf-8")
        if START in text:
            text = re.sub(re.escape(START) + ".*?" + re.escape(END), section, text, flags=re.S)
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        readme.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
