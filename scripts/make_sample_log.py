"""Write data/failure_logs/synthetic-sample.csv: a SYNTHETIC failure log from a fixed seed.

    .venv/bin/python scripts/make_sample_log.py            # rewrite the shipped sample
    .venv/bin/python scripts/make_sample_log.py -o x.csv --nodes 2048 --days 54 --seed 7
    .venv/bin/python scripts/make_sample_log.py -o long.csv --days 700 --start 2024-06-01

The log starts on ``--start`` (default 2026-01-05, the shipped sample's date); a log that
would run past today is refused in one line (the readers refuse future-dated failures).

The generating model (documented in data/README.md, parameters in the file's header):

* Every node fails as an independent Weibull(shape k) renewal process with mean gap
  1 / node_failure_rate_per_day days (the Monte Carlo simulator's model), started in
  equilibrium by a burn-in of ``BURN_IN_MEANS`` mean gaps before day 0; ``lemons`` nodes
  fail ``lemon_factor`` times as often.  Fitted rate and per-node shape can be checked
  against these known values.
* Each failure has a cause drawn with the Llama 3 405B root-cause shares
  (arXiv:2407.21783, Table 5; data/failure_logs/llama3-root-causes.csv), written with
  realistic free-text variants.  A network switch/cable failure takes a second, random
  node down at the same timestamp (one row each) with probability ``switch_pair_prob``.
* Downtime is lognormal (Schroeder & Gibson, DSN'06: repair times are lognormal) with the
  given median and log-sd, in minutes.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput_lab.models._files import check_output, write_atomic  # noqa: E402
from goodput_lab.models.fitting import llama3_taxonomy  # noqa: E402

OUT = ROOT / "data" / "failure_logs" / "synthetic-sample.csv"
BURN_IN_MEANS = 5.0
START = datetime(2026, 1, 5, tzinfo=UTC)

DEFAULTS = {
    "nodes": 1024,
    "days": 180.0,
    "node_failure_rate_per_day": 0.004,
    "weibull_shape": 0.75,
    "lemons": 2,
    "lemon_factor": 25.0,
    "switch_pair_prob": 0.5,
    "downtime_median_minutes": 90.0,
    "downtime_log_sd": 1.0,
    "seed": 20261202,
}

#: Free-text variants per category, as they might appear in an incident tracker.
VARIANTS = {
    "faulty_gpu": ("GPU fell off the bus", "faulty GPU", "Xid 79"),
    "gpu_hbm3": ("GPU HBM3 uncorrectable ECC", "HBM3 memory error"),
    "software_bug": ("software bug", "segfault in dataloader"),
    "network_switch_cable": ("network switch/cable", "IB link flap"),
    "host_maintenance": ("unplanned host maintenance",),
    "gpu_sram": ("GPU SRAM ECC",),
    "gpu_system_processor": ("GSP timeout",),
    "nic": ("NIC failure", "EFA device error"),
    "nccl_watchdog": ("NCCL watchdog timeout",),
    "silent_data_corruption": ("silent data corruption",),
    "gpu_thermal": ("GPU thermal sensor",),
    "ssd": ("SSD failure",),
    "power_supply": ("PSU failure",),
    "server_chassis": ("server chassis",),
    "io_expansion_board": ("IO expansion board",),
    "dependency": ("dependency (storage service)",),
    "cpu": ("CPU fault",),
    "system_memory": ("DIMM failure",),
}


def make_log_csv(
    *,
    nodes: int = DEFAULTS["nodes"],
    days: float = DEFAULTS["days"],
    node_failure_rate_per_day: float = DEFAULTS["node_failure_rate_per_day"],
    weibull_shape: float = DEFAULTS["weibull_shape"],
    lemons: int = DEFAULTS["lemons"],
    lemon_factor: float = DEFAULTS["lemon_factor"],
    switch_pair_prob: float = DEFAULTS["switch_pair_prob"],
    downtime_median_minutes: float = DEFAULTS["downtime_median_minutes"],
    downtime_log_sd: float = DEFAULTS["downtime_log_sd"],
    seed: int | np.random.Generator = DEFAULTS["seed"],
    header_comment: bool = True,
    start: datetime = START,
) -> str:
    """Return the CSV text of one synthetic failure log (model in the module docstring)."""
    rng = np.random.default_rng(seed)
    k = float(weibull_shape)
    mean_days = np.full(nodes, 1.0 / node_failure_rate_per_day)
    lemon_idx = rng.choice(nodes, size=lemons, replace=False)
    mean_days[lemon_idx] /= lemon_factor
    scale_days = mean_days / math.gamma(1 + 1 / k)
    # per-node renewal processes from -burn-in to `days`, vectorised in blocks of gaps
    t = -BURN_IN_MEANS * mean_days
    events: list[tuple[float, int]] = []
    alive = np.arange(nodes)
    while alive.size:
        t[alive] += scale_days[alive] * rng.weibull(k, alive.size)
        inside = alive[(t[alive] >= 0) & (t[alive] <= days)]
        events += [(float(t[i]), int(i)) for i in inside]
        alive = alive[t[alive] <= days]
    events.sort()
    tax = llama3_taxonomy()
    cats = [r["category"] for r in tax]
    probs = np.array([r["count"] for r in tax], dtype=float)
    probs /= probs.sum()
    lemon_ids = [f"node-{i:04d}" for i in lemon_idx]

    buf = io.StringIO()
    if header_comment:
        buf.write(
            "# SYNTHETIC failure log generated by scripts/make_sample_log.py (not real data)\n"
        )
        params = {
            "nodes": nodes,
            "days": days,
            "node_failure_rate_per_day": node_failure_rate_per_day,
            "weibull_shape": weibull_shape,
            "lemons": lemons,
            "lemon_factor": lemon_factor,
            "switch_pair_prob": switch_pair_prob,
            "downtime_median_minutes": downtime_median_minutes,
            "downtime_log_sd": downtime_log_sd,
            "seed": seed if isinstance(seed, int) else "generator",
        }
        buf.write("# " + ", ".join(f"{key}={v}" for key, v in params.items()) + "\n")
        buf.write(f"# lemon nodes planted: {', '.join(lemon_ids) or 'none'}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["timestamp", "node_id", "cause", "downtime_minutes"])
    for when, node in events:
        ts = (start + timedelta(days=when)).replace(microsecond=0)
        cat = cats[int(rng.choice(len(cats), p=probs))]
        variants = VARIANTS[cat]
        cause = variants[int(rng.integers(len(variants)))]
        hit = [f"node-{node:04d}"]
        if cat == "network_switch_cable" and rng.random() < switch_pair_prob:
            other = f"node-{int(rng.integers(nodes)):04d}"
            if other != hit[0]:
                hit.append(other)
        for name in hit:
            down = downtime_median_minutes * np.exp(downtime_log_sd * rng.standard_normal())
            w.writerow([ts.strftime("%Y-%m-%dT%H:%M:%SZ"), name, cause, f"{down:.1f}"])
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("-o", "--output", type=Path, default=OUT)
    for key, value in DEFAULTS.items():
        p.add_argument(f"--{key.replace('_', '-')}", type=type(value), default=value)
    p.add_argument("--start", default=START.date().isoformat(), help="first day, YYYY-MM-DD")
    args = p.parse_args(argv)
    try:
        start = datetime.fromisoformat(args.start).replace(tzinfo=UTC)
    except ValueError:
        sys.stderr.write(
            f"make_sample_log: --start {args.start[:40]!r} is not a date (YYYY-MM-DD)\n"
        )
        return 2
    end = start + timedelta(days=args.days)
    if end > datetime.now(UTC):
        sys.stderr.write(
            f"make_sample_log: --start {start.date()} + --days {args.days:g} ends on {end.date()}, "
            "in the future (the readers refuse future-dated failures); allowed: a start at "
            f"or before {(datetime.now(UTC) - timedelta(days=args.days)).date()}\n"
        )
        return 2
    try:
        check_output(args.output, "-o")  # a folder, a missing folder ...: before the work
    except ValueError as exc:  # models.ValidationError: one line, exit 2
        sys.stderr.write(f"make_sample_log: {exc}\n")
        return 2
    kwargs = {key: getattr(args, key) for key in DEFAULTS}
    text = make_log_csv(**kwargs, start=start)
    write_atomic(args.output, text.encode("utf-8"), "-o")
    rows = text.count("\n") - 4
    print(f"wrote {args.output} ({rows} failure rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
