"""Benchmark of the checkpoint composition (issue #3): evaluate_arrays with the tier model,
and the Checkpoints page's service calls.  CPU time (process_time), best of N.

    .venv/bin/python bench/bench_checkpoint.py
"""

from __future__ import annotations

import os
import time

import numpy as np
from goodput_lab.models import checkpoint as ck
from goodput_lab.models import evaluate_arrays, load_catalog, load_preset, resolve_inputs

from goodput_lab.views import checkpoints as svc


def best(fn, n=5):
    times = []
    for _ in range(n):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times) * 1000


def main() -> None:
    cat, tiers = load_catalog(), ck.load_tiers()
    base = load_preset("aws-16k-h100")
    tiered = load_preset("hyperpod-tiered-16k-h100")
    ib, it = resolve_inputs(base, cat), resolve_inputs(tiered, cat)
    grid = {
        **it,
        "checkpoint.interval_optimal": False,
        "checkpoint.interval_minutes": np.geomspace(0.2, 100, 100)[:, None],
        "checkpoint.durable_interval_minutes": np.geomspace(5, 2000, 100)[None, :],
    }
    rows = [
        (
            "evaluate_arrays, aws-16k-h100 (measured, single level)",
            best(lambda: evaluate_arrays(ib)),
        ),
        ("evaluate_arrays, hyperpod-tiered (memory + S3)", best(lambda: evaluate_arrays(it))),
        (
            "evaluate_arrays, 100 x 100 interval pairs (two-level)",
            best(lambda: evaluate_arrays(grid)),
        ),
        ("resolve_inputs (tier table cached)", best(lambda: resolve_inputs(tiered, cat))),
        ("page: strategy_table (5 strategies)", best(lambda: svc.strategy_table(base, cat, tiers))),
        (
            "page: waste_curves (5 x 160 intervals)",
            best(lambda: svc.waste_curves(base, cat, tiers)),
        ),
        (
            "page: replica_survival (2 placements x 4)",
            best(lambda: svc.replica_survival(base, cat, tiers)),
        ),
        (
            "page: memory_vs_shared_fs (compare)",
            best(lambda: svc.memory_vs_shared_fs(base, cat, tiers)),
        ),
    ]
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| operation | CPU time (best of 5) |\n|---|---|")
    for name, ms in rows:
        print(f"| {name} | {ms:.1f} ms |")


if __name__ == "__main__":
    main()
