"""``goodput sweep SCENARIO --vary field=lo:hi:n [--vary ...] [--trials N] [--days D]
[--seed S] [--workers N | --scheduler ADDRESS | --scheduler-file FILE] -o results.parquet
[--force] [--json]``.

Evaluates the scenario at every point of the grid of the varied fields (first --vary
slowest; an integer field's points must be whole numbers, n - 1 dividing hi - lo): in this
process with one worker, on a LocalCluster of worker processes (default one per core), or on
an existing Dask cluster by address or scheduler file (docs/scaling.md, docs/cluster.md).  One
Parquet row per point: the varied fields (integer fields as integers), every analytic figure
and, with --trials N, the Monte Carlo mean, standard error and P5/P50/P95 of goodput, time to
finish and lost dollars; the file's metadata records the sweep (scenario, grid, trials, seed,
version, fingerprint).  Point i draws its trials from the seed's i-th spawned SeedSequence, so
the results do not depend on the number of workers.  Before starting, a line on stderr gives
an estimate of the CPU and wall time (Monte Carlo work timed on a few points first).  One
sweep at a time writes an output (OUTPUT.lock).  With --trials, finished batches are kept in
OUTPUT.parts/ until the end: running an interrupted sweep again evaluates only the missing
points.  Running the same sweep again on its finished output evaluates nothing (the results
would be identical) and exits 0; an output that holds another sweep or any other file is
refused (exit 2, nothing written) unless --force replaces it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.cli.main import (
    catalog_from_args,
    catalog_option,
    json_option,
    load_scenario,
    print_json,
    set_option,
)
from goodput_lab.cli.simulate import MAX_SEED, _days, _int_arg
from goodput_lab.models import FIELDS, ValidationError, resolve_inputs
from goodput_lab.models.montecarlo import MAX_TRIALS
from goodput_lab.models.sweep import parse_axis

#: Seconds between progress lines when stderr is not a terminal (a log, CI, nohup).
PROGRESS_EVERY = 10.0


class _Bar:
    """Progress on stderr: a bar redrawn in place on a terminal; elsewhere a line every
    :data:`PROGRESS_EVERY` seconds (points done, elapsed, an estimate of what is left: at
    the rate so far of the estimated work when the engine reports it (:meth:`work`, batches
    differ in cost), else of the points)."""

    def __init__(self, stream=None, every: float = PROGRESS_EVERY) -> None:
        self.stream = stream or sys.stderr
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self.every = every
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.first: tuple[float, int] | None = None
        self.worked: tuple[float, float] | None = None  # (done, total) estimated CPU seconds
        self.worked_first = 0.0

    def work(self, done: float, total: float) -> None:
        """The estimated CPU seconds of the batches finished so far and of all of them (the
        engine calls this just before each progress call)."""
        self.worked = (float(done), float(total))

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        secs = now - self.t0
        if self.first is None or self.first[1] == done:
            self.first = (now, done)  # the rate counts from the first evaluated batch on
            self.worked_first = self.worked[0] if self.worked else 0.0
        if self.tty:
            width = 30
            filled = int(width * done / total) if total else width
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\rsweep [{bar}] {done:,}/{total:,} points  {secs:6.1f} s")
            if done >= total:
                self.stream.write("\n")
            self.stream.flush()
            return
        if done >= total or done == self.first[1] or now - self.last < self.every:
            return
        self.last = now
        t1, d1 = self.first
        if self.worked and self.worked[0] > self.worked_first and now > t1:
            w_done, w_total = self.worked
            rate = (w_done - self.worked_first) / (now - t1)
            still = max(0.0, w_total - w_done)
        else:
            rate = (done - d1) / (now - t1) if now > t1 and done > d1 else 0.0
            still = total - done
        left = f", about {_fmt(max(0.0, still / rate))} left" if rate > 0 else ""
        pct = 100.0 * done / total if total else 100.0
        self.stream.write(
            f"goodput: sweep {done:,}/{total:,} points ({pct:.0f}%), {_fmt(secs)} elapsed{left}\n"
        )
        self.stream.flush()


def _fmt(s: float) -> str:
    from goodput_lab.engine.sweep import _fmt_seconds

    return _fmt_seconds(s)


def _notice(line: str) -> None:
    sys.stderr.write(f"goodput: {line}\n")
    sys.stderr.flush()


def _seconds_arg(flag: str, text: str, lo: float, hi: float) -> float:
    try:
        x = float(text)
    except (TypeError, ValueError):
        x = math.nan
    if not (math.isfinite(x) and lo <= x <= hi):
        raise ValidationError(
            flag, f"{str(text)[:40]!r} is out of range ({allowed_range('seconds', lo, hi)})"
        )
    return x


def cmd_sweep(args: argparse.Namespace) -> int:
    from goodput_lab.engine.sweep import (
        MAX_WORKERS,
        SweepError,
        SweepSpec,
        check_output,
        run_sweep,
    )

    axes = tuple(parse_axis(v) for v in args.vary or [])
    trials = _int_arg("--trials", 0, MAX_TRIALS)(args.trials)
    days = _days(args.days)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    workers = _int_arg("--workers", 1, MAX_WORKERS)(args.workers) if args.workers else None
    stall = _seconds_arg("--stall-timeout", args.stall_timeout, 1, 7 * 86400)
    conn = _seconds_arg("--connect-timeout", args.connect_timeout, 0.1, 3600)
    check_output(args.output)  # before loading anything: a bad -o is refused at once
    scenario = load_scenario(args.scenario, args.set)
    # every axis end must make a valid scenario (cross-field rules, the price in force)
    for a in axes:
        for v in {a.lo, a.hi}:
            scenario.replace({a.key: round(v) if FIELDS[a.key].kind == "int" else v})
    inputs = resolve_inputs(scenario, catalog_from_args(args))
    spec = SweepSpec(inputs, axes, trials, days, seed, scenario.name, catalog=args.catalog)
    try:
        summary = run_sweep(
            spec,
            args.output,
            workers=workers,
            scheduler=args.scheduler,
            scheduler_file=args.scheduler_file,
            progress=_Bar(),
            notify=_notice,
            stall_timeout=stall,
            connect_timeout=conn,
            replace=args.force,
        )
    except SweepError as exc:
        sys.stderr.write(f"goodput: {exc}\n")
        return 1
    except ValidationError as exc:
        if exc.field in ("trials", "days"):  # name the flag, as typed
            raise ValidationError(f"--{exc.field}", exc.message) from None
        raise
    except KeyboardInterrupt:
        kept = " finished batches are kept in " + args.output + ".parts," if trials else ""
        sys.stderr.write(f"\ngoodput: sweep interrupted;{kept} run the same command to resume\n")
        return 130
    out = {"scenario_name": scenario.name, **summary.to_json_dict()}
    if args.json:
        print_json(out)
        return 0
    what = f"{trials:,} trials x {days:g} days each" if trials else "analytic"
    print(f"{scenario.name}: {summary.points:,} points ({what}), seed {seed}")
    print(f"  varied          {', '.join(a.spec() for a in axes)}")
    where = (
        "this process"
        if summary.engine == "local"
        else f"{summary.workers} workers (cluster start {summary.cluster_start_seconds:.1f} s)"
        if summary.engine == "dask"
        else "nothing to evaluate (the output already holds this sweep)"
        if not summary.written
        else "nothing to evaluate (every batch was kept by an interrupted run)"
    )
    print(f"  engine          {summary.engine}, {where}")
    print(
        f"  evaluated       {summary.points_evaluated:,} points in {summary.seconds:.2f} s"
        + (f" ({summary.points_resumed:,} resumed)" if summary.points_resumed else "")
    )
    if not summary.written:
        print(f"  kept            {summary.output} (already complete, not written again)")
    else:
        print(f"  written         {summary.output}")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "sweep",
        help="evaluate a grid of scenarios on Dask (analytic, or with Monte Carlo) to Parquet",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("scenario", help="scenario TOML file or preset name")
    p.add_argument(
        "--vary",
        action="append",
        metavar="SECTION.KEY=LO:HI:N",
        help="a numeric field and N linearly spaced values from LO to HI (repeat per field; "
        "for an integer field N - 1 must divide HI - LO, so that every point is whole)",
    )
    p.add_argument(
        "--trials",
        default="0",
        help=f"Monte Carlo runs per point, 0..{MAX_TRIALS:,} (default 0: analytic only)",
    )
    p.add_argument("--days", default="30", help="Monte Carlo horizon in days (default 30)")
    p.add_argument("--seed", default="0", help="random seed, a non-negative integer (default 0)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        help="local worker processes, 1..256 (default: one per core; fewer when the sweep has "
        "fewer batches or the machine fewer cores; 1 runs in this process)",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a running Dask scheduler (tcp://HOST:8786, tls://... with Dask's TLS config)",
    )
    where.add_argument(
        "--scheduler-file",
        metavar="FILE",
        help="the scheduler file a Dask cluster wrote (dask scheduler --scheduler-file, SLURM)",
    )
    p.add_argument(
        "--stall-timeout",
        default="600",
        metavar="SECONDS",
        help="stop, naming the stuck batches, when no batch finishes for this long (default 600)",
    )
    p.add_argument(
        "--connect-timeout",
        default="10",
        metavar="SECONDS",
        help="how long a scheduler has to answer as one (default 10)",
    )
    p.add_argument("-o", "--output", required=True, help="results file (.parquet)")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an output that holds another sweep or another file (without it such an "
        "output is refused); a finished output of this very sweep is kept as it is",
    )
    set_option(p)
    catalog_option(p)
    json_option(p)
    p.set_defaults(func=cmd_sweep)
