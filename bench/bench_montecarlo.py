"""Benchmark: Monte Carlo simulator vs a plain SimPy model of the same process.

    .venv/bin/python bench/bench_montecarlo.py [--trials 10000] [--days 30]
        [--simpy-trials 1000] [--repeat 3] [--write]

Times ``models.montecarlo.simulate_inputs`` on the headline baseline (2,000 p5.48xlarge,
4 failures/day, exponential) for 10,000 trials x 30 days on one core, and the SimPy reference
(bench/simpy_reference.py) on a subset of trials in the same run; the speed ratio is the SimPy
time per trial over ours.  Agreement: the difference of the two mean goodputs (and mean
times to finish) in units of their combined standard error.  ``--write`` replaces the
"Monte Carlo" section of bench/README.md with the table.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import math
import platform
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import simpy  # noqa: E402
import simpy_reference  # noqa: E402
from goodput_lab.models import Scenario, resolve_inputs  # noqa: E402
from goodput_lab.models.montecarlo import params_from_inputs, simulate_inputs  # noqa: E402

SCENARIO = ROOT / "data" / "scenarios" / "aws-16k-h100.toml"
START, END = "<!-- bench_montecarlo:start -->", "<!-- bench_montecarlo:end -->"


def _z(a: np.ndarray, b: np.ndarray) -> float:
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    return float((a.mean() - b.mean()) / se)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=10_000)
    ap.add_argument("--days", type=float, default=30.0)
    ap.add_argument("--simpy-trials", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="update bench/README.md")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    scenario = Scenario.load(SCENARIO)
    inputs = resolve_inputs(scenario)
    p = params_from_inputs(inputs)
    simulate_inputs(inputs, 200, args.days, rng=0)  # warm-up (imports, caches)

    times, cpu, res = [], [], None
    for i in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        res = simulate_inputs(inputs, args.trials, args.days, rng=i, record_timeline=False)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    ours_s = min(times)
    ours_cpu = min(cpu)
    ours_per_trial = ours_s / args.trials  # wall
    ours_events = res.events_simulated

    t0, c0 = time.perf_counter(), time.process_time()
    ref = simpy_reference.run(p, args.simpy_trials, args.days, seed=12345)
    simpy_s = time.perf_counter() - t0
    simpy_cpu = time.process_time() - c0
    simpy_per_trial = simpy_s / args.simpy_trials
    simpy_events = sum(r.events for r in ref)
    ref_g = np.array([r.goodput for r in ref])
    ref_t = np.array([r.finish_minutes for r in ref]) / 1440.0
    ref_fail = np.array([r.failures for r in ref])
    # the same stochastic events (failures + recoveries + finishes) as ours, for events/s
    simpy_stochastic = int(2 * ref_fail.sum() + len(ref))

    z_g = _z(res.goodput, ref_g)
    z_t = _z(res.time_to_finish_days, ref_t)
    ratio = simpy_per_trial / ours_per_trial
    ratio_cpu = (simpy_cpu / args.simpy_trials) / (ours_cpu / args.trials)
    cores = os.cpu_count()
    rows = [
        (
            "machine",
            f"{platform.processor() or platform.machine()}, {cores} cores (run pinned to 1)",
        ),
        (
            "python / numpy / simpy",
            f"{platform.python_version()} / {np.__version__} / {simpy.__version__}",
        ),
        (
            "scenario",
            f"{SCENARIO.name}: {p.nodes:,} nodes, {p.nodes * p.node_rate_per_min * 1440:g} failures/day, exponential",
        ),
        ("ours: trials x days", f"{args.trials:,} x {args.days:g} (best of {args.repeat})"),
        (
            "ours: wall time (CPU time)",
            f"{ours_s:.3f} s ({ours_cpu:.3f} s); runs: {', '.join(f'{t:.3f}' for t in times)}",
        ),
        ("load average at start (1 min)", f"{load:.1f}"),
        (
            "ours: events simulated",
            f"{ours_events:,} (failures, recoveries, finishes); {res.checkpoints_simulated:,} checkpoints in closed form",
        ),
        ("ours: events/s", f"{ours_events / ours_s:,.0f}"),
        ("SimPy: trials x days", f"{args.simpy_trials:,} x {args.days:g}"),
        (
            "SimPy: wall time",
            f"{simpy_s:.2f} s (CPU {simpy_cpu:.2f} s) = {simpy_per_trial * 1e3:.2f} ms/trial; {simpy_per_trial * args.trials:,.0f} s extrapolated to {args.trials:,} trials",
        ),
        (
            "SimPy: events/s",
            f"{simpy_stochastic / simpy_s:,.0f} of the same kind ({simpy_events / simpy_s:,.0f} counting each compute and save step)",
        ),
        (
            "speed ratio (SimPy time/trial ÷ ours)",
            f"{ratio_cpu:,.0f}x on CPU time, {ratio:,.0f}x on wall time",
        ),
        (
            "goodput mean: ours vs SimPy",
            f"{res.goodput_mean:.5f} ± {res.goodput_stderr:.5f} vs {ref_g.mean():.5f} ± {ref_g.std(ddof=1) / math.sqrt(ref_g.size):.5f} (z = {z_g:+.2f}); analytic {res.goodput_analytic:.5f}",
        ),
        (
            "days to finish: ours vs SimPy",
            f"{res.time_to_finish_days.mean():.4f} vs {ref_t.mean():.4f} (z = {z_t:+.2f}); analytic {res.time_to_finish_analytic_days:.4f}",
        ),
        (
            "targets",
            f"<= 1 s: {'met' if ours_s <= 1.0 else 'NOT met'} (CPU: {'met' if ours_cpu <= 1.0 else 'NOT met'}); >= 50x SimPy: {'met' if ratio_cpu >= 50 else 'NOT met'} (CPU time); agreement |z| < 4: {'yes' if max(abs(z_g), abs(z_t)) < 4 else 'NO'}",
        ),
    ]
    table = "| quantity | value |\n|---|---|\n" + "\n".join(f"| {a} | {b} |" for a, b in rows)
    print(table)
    if args.write:
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text()
        section = (
            f"{START}\n## Monte Carlo simulator vs SimPy (`bench/bench_montecarlo.py`)\n\n"
            f"Run on {time.strftime('%Y-%m-%d')} with "
            f"`.venv/bin/python bench/bench_montecarlo.py --write`. Ours runs all trials; "
            "SimPy runs a subset in the same process right after, and the ratio compares time "
            "per trial. The host is shared with other jobs: CPU time (process_time) is the "
            "measure that contention does not inflate; wall time is shown too. Both draw their "
            "own random numbers (z = difference of means over the "
            "combined standard error).\n\n"
            f"{table}\n{END}"
        )
        if START in text:
            text = re.sub(
                re.escape(START) + ".*?" + re.escape(END), lambda _: section, text, flags=re.S
            )
        else:
            text = text.rstrip() + "\n\n" + section + "\n"
        readme.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
