"""Benchmark: network/compute evaluation over a node grid and the instance comparison.

Run: .venv/bin/python bench/bench_network_compute.py  (prints a markdown table; CPU time via
time.process_time, best of 5, because the host is shared).
"""

from __future__ import annotations

import os
import time

import numpy as np
from goodput_lab.models import evaluate_arrays, load_catalog, load_preset, resolve_inputs
from goodput_lab.models.instances import rank_instances


def best_cpu(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    cat = load_catalog()
    s = load_preset("aws-16k-h100")
    x = resolve_inputs(s, cat)
    grid = np.arange(1, 10_001, dtype=float)
    s70 = s.replace(
        {
            "workload.params_billion": 70.0,
            "workload.tokens_trillion": 15.0,
            "workload.hidden_size": 8192,
        }
    )
    rows = [
        ("evaluate_arrays, 1 scenario", best_cpu(lambda: evaluate_arrays(x))),
        (
            "evaluate_arrays, 10,000 node counts",
            best_cpu(lambda: evaluate_arrays({**x, "cluster.nodes": grid})),
        ),
        (
            "rank_instances, 8 instances, 30-day deadline (up to 100k accelerators each)",
            best_cpu(lambda: rank_instances(s70, cat, deadline_days=30.0), repeat=3),
        ),
    ]
    print(f"load average at start (1 min): {os.getloadavg()[0]:.1f}\n")
    print("| operation | CPU time (best) |\n|---|---|")
    for name, t in rows:
        print(f"| {name} | {t * 1e3:.1f} ms |")


if __name__ == "__main__":
    main()
