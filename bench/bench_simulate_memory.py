"""Benchmark: ``goodput simulate`` at its own memory limit, peak resident memory measured.

    .venv/bin/python bench/bench_simulate_memory.py [--write]

``goodput simulate`` refuses a run whose predicted memory (``models.montecarlo.estimate_work``)
is over ``MAX_BYTES`` and promises that an accepted run stays within it.  For each term of
the memory model (many trials; per-node Weibull renewals; the hot-spare repair ring), this
finds the largest size the command accepts (bisection on the command's own refusal, in
process), then runs ``goodput simulate`` at that size in a fresh process and reads its peak
resident set size (``ru_maxrss`` of the child).  The promise holds when the peak, the
whole process (interpreter, numpy and the models included), is at most ``MAX_BYTES``.
``--write`` replaces the "simulate at its memory limit" section of bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput_lab.models import ValidationError, load_preset, resolve_inputs  # noqa: E402
from goodput_lab.models.montecarlo import MAX_BYTES, check_size  # noqa: E402

START, END = "<!-- bench_simulate_memory:start -->", "<!-- bench_simulate_memory:end -->"
GOODPUT = [sys.executable, "-m", "goodput_lab._console"]

#: (label, fixed --set values, the varied flag or field, its lower and upper search bound)
CASES = [
    ("many trials (1 day)", {}, "--trials", 1_000, 1_000_000, "1"),
    ("many trials (2 days)", {}, "--trials", 1_000, 1_000_000, "2"),
    (
        "per-node Weibull renewals",
        {"reliability.weibull_shape": 0.7},
        "cluster.nodes",
        100,
        200_000,
        "1",
    ),
]


def _accepted(sets: dict, flag: str, value: int, days: str, trials: int) -> bool:
    s = load_preset("aws-16k-h100").replace(
        {**sets, **({flag: value} if not flag.startswith("--") else {})}
    )
    t = value if flag == "--trials" else trials
    try:
        check_size(t, float(days), resolve_inputs(s))
    except ValidationError:
        return False
    return True


def _largest(sets, flag, lo, hi, days, trials) -> int:
    while hi - lo > max(1, lo // 200):
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if _accepted(sets, flag, mid, days, trials) else (lo, mid)
    return lo


def _peak(args: list[str]) -> tuple[int, float, float, str]:
    """(exit status, peak RSS of that child [bytes], seconds, its last stderr line)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [*GOODPUT, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, text=True
    )
    err = proc.stderr.read() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    secs = time.perf_counter() - t0
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return proc.returncode, usage.ru_maxrss * 1024.0, secs, last


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rows = []
    # the interpreter with numpy and the models loaded, doing almost nothing
    rc, base, secs, _ = _peak(["simulate", "aws-16k-h100", "--trials", "1", "--days", "1"])
    rows.append(("baseline: 1 trial x 1 day", "-", f"{base / 1e9:.2f}", "-", f"{secs:.1f}", rc))
    for label, sets, flag, lo, hi, days in CASES:
        trials = 1_000
        value = _largest(sets, flag, lo, hi, days, trials)
        args = ["simulate", "aws-16k-h100", "--days", days, "--json"]
        args += ["--trials", str(value if flag == "--trials" else trials)]
        for k, v in {**sets, **({flag: value} if not flag.startswith("--") else {})}.items():
            args += ["--set", f"{k}={v}"]
        est = re.search(r"~([\d.e+]+) GB", _peak_estimate(args))
        rc, peak, secs, err = _peak(args)
        rows.append(
            (
                f"{label}: {flag} {value:,}",
                est.group(1) if est else "?",
                f"{peak / 1e9:.2f}",
                "yes" if peak <= MAX_BYTES else "NO",
                f"{secs:.1f}",
                rc,
            )
        )
        print(rows[-1], err, flush=True)
    head = (
        f"`goodput simulate` at the largest size it accepts, peak resident memory of the whole "
        f"process (limit {MAX_BYTES / 1e9:g} GB; {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}; {time.strftime('%Y-%m-%d')}):\n\n"
        "| run | predicted GB | peak RSS GB | within the limit | seconds | exit |\n"
        "|---|---|---|---|---|---|\n"
    )
    table = head + "".join(f"| {' | '.join(str(c) for c in r)} |\n" for r in rows)
    print(table)
    if a.write:
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text(encoding="utf-8")
        block = f"{START}\n{table}{END}"
        if START in text:
            text = re.sub(
                re.escape(START) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S
            )
        else:
            text = text.rstrip("\n") + "\n\n## simulate at its memory limit\n\n" + block + "\n"
        readme.write_text(text, encoding="utf-8")


def _peak_estimate(args: list[str]) -> str:
    """The command's stderr estimate line, from a run refused at once (--trials checked
    first is not possible), so: the same check in process."""
    from goodput_lab.cli.main import build_parser, load_scenario

    ns = build_parser().parse_args(args)
    s = load_scenario(ns.scenario, ns.set)
    est = check_size(int(ns.trials), float(ns.days), resolve_inputs(s))
    return f"~{est.memory_bytes / 1e9:.3g} GB" + json.dumps({})


if __name__ == "__main__":
    main()
