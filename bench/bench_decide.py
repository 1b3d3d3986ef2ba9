"""Speed of `goodput decide` over the catalog: 2,000 runs per configuration, 1 vs 2 workers.

Issue 29's targets: a decision over the preset catalog (every instance type of
data/instances.csv) with 2,000 trials per simulated configuration finishes within 3 minutes
on 2 cores, and at least 1.6x faster on 2 local Dask workers than on 1.  Both runs use the
same decision (llama3-70b, 45 days, P = 0.9, seed 0); their answers must be identical (one
random stream per configuration, independent of the workers).

    .venv/bin/python bench/bench_decide.py [--trials 2000] [--write]

``--write`` replaces the section between the bench_decide markers of bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import time
from pathlib import Path

from goodput_lab.models import load_preset
from goodput_lab.models.catalog import load_catalog
from goodput_lab.models.decide import analytic_candidates, decide

from goodput_lab.views.decide import dask_runner

ROOT = Path(__file__).resolve().parent.parent


def run(workers: int, trials: int) -> tuple[float, float, dict, dict]:
    sc = load_preset("llama3-70b")
    stats: dict = {}
    t0 = time.perf_counter()
    c0 = time.process_time()
    d = decide(
        sc, 45.0, 0.9, trials=trials, seed=0, runner=dask_runner(workers, None, None, "", stats)
    )
    wall = time.perf_counter() - t0
    return wall, time.process_time() - c0, d.to_json_dict(), stats


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=2000)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    load = os.getloadavg()[0]
    sc = load_preset("llama3-70b")
    t0 = time.perf_counter()
    _kept, *_ = analytic_candidates(sc, load_catalog(), 45.0, 0.9, {}, None)
    analytic = time.perf_counter() - t0
    w1, _, d1, s1 = run(1, a.trials)
    w2, _, d2, s2 = run(2, a.trials)
    same = (
        d1["choice"] == d2["choice"]
        and d1["expected_total_cost_usd"] == d2["expected_total_cost_usd"]
    )
    sim1, sim2 = s1.get("seconds", 0.0), s2.get("seconds", 0.0)
    rows = [
        (
            "machine",
            f"{platform.machine()}, {os.cpu_count()} cores; load average at start {load:.1f}",
        ),
        ("decision", "llama3-70b, 45 days, P = 0.9, seed 0, whole catalog"),
        ("trials per configuration", f"{a.trials:,}"),
        (
            "configurations simulated",
            f"{d1['simulated_configurations']} (analytic candidates {d1['analytic_candidates']:,})",
        ),
        ("analytic prune (warm, one process)", f"{analytic:.1f} s"),
        (
            "1 worker: whole decision (wall)",
            f"{w1:.1f} s (simulation {sim1:.1f} s, cluster start {s1.get('cluster_start_seconds', 0):.1f} s)",
        ),
        (
            "2 workers: whole decision (wall)",
            f"{w2:.1f} s (simulation {sim2:.1f} s, cluster start {s2.get('cluster_start_seconds', 0):.1f} s)",
        ),
        (
            "speed-up 1 -> 2 workers",
            f"{w1 / w2:.2f}x whole decision; {sim1 / sim2 if sim2 else float('nan'):.2f}x simulation",
        ),
        ("same answer on 1 and 2 workers", "yes" if same else "NO"),
        ("answer", d2["answer"]),
        (
            "targets",
            f"<= 180 s on 2 cores: {'met' if w2 <= 180 else 'not met'}; >= 1.6x: {'met' if w1 / w2 >= 1.6 else 'not met'} (whole), {'met' if sim2 and sim1 / sim2 >= 1.6 else 'not met'} (simulation)",
        ),
    ]
    table = "| quantity | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)
    print(table)
    print(json.dumps({"w1": w1, "w2": w2, "sim1": sim1, "sim2": sim2}))
    if a.write:
        section = (
            "<!-- bench_decide:start -->\n## Decide over the catalog (`bench/bench_decide.py`)\n\n"
            f"Run on {time.strftime('%Y-%m-%d')} with `.venv/bin/python bench/bench_decide.py --write` "
            "(wall time; the host is shared with other jobs).\n\n"
            + table
            + "\n<!-- bench_decide:end -->"
        )
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text()
        if "<!-- bench_decide:start -->" in text:
            text = re.sub(
                r"<!-- bench_decide:start -->.*?<!-- bench_decide:end -->",
                section,
                text,
                flags=re.S,
            )
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        readme.write_text(text)


if __name__ == "__main__":
    main()
