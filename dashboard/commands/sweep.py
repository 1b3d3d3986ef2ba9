"""``goodput sweep SCENARIO --vary field=lo:hi:n [--vary ...] [--trials N] [--days D]
[--seed S] [--workers N | --scheduler ADDRESS] -o results.parquet [--json]``.

Evaluates the scenario at every point of the grid of the varied fields (first --vary
slowest) on dask.distributed: a LocalCluster of worker processes by default, or an existing
cluster by address (docs/scaling.md).  One Parquet row per point: the varied fields, every
analytic figure and, with --trials N, the Monte Carlo mean, standard error and P5/P50/P95 of
goodput, time to finish and lost dollars.  Point i draws its trials from the seed's i-th
spawned SeedSequence, so the results do not depend on the number of workers.  Finished
batches are kept in OUTPUT.parts/ until the end: running an interrupted sweep again
evaluates only the missing points.
"""

from __future__ import annotations

import argparse
import sys
import time

from goodput_lab.dashboard.cli import catalog_from_args, load_scenario, print_json
from goodput_lab.dashboard.commands.simulate import MAX_SEED, _days, _int_arg
from goodput_lab.models import FIELDS, ValidationError, resolve_inputs
from goodput_lab.models.montecarlo import MAX_TRIALS
from goodput_lab.models.sweep import parse_axis

MAX_WORKERS = 1024


class _Bar:
    """A progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.on = self.stream.isatty()
        self.t0 = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.on:
            return
        width = 30
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        secs = time.perf_counter() - self.t0
        self.stream.write(f"\rsweep [{bar}] {done:,}/{total:,} points  {secs:6.1f} s")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def cmd_sweep(args: argparse.Namespace) -> int:
    from goodput_lab.dashboard.services.sweep import SweepSpec, run_sweep

    axes = tuple(parse_axis(v) for v in args.vary or [])
    trials = _int_arg("--trials", 0, MAX_TRIALS)(args.trials)
    days = _days(args.days)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    workers = _int_arg("--workers", 1, MAX_WORKERS)(args.workers) if args.workers else None
    if workers and args.scheduler:
        raise ValidationError("--workers", "use --workers N or --scheduler ADDRESS, not both")
    scenario = load_scenario(args.scenario, args.set)
    # every axis end must make a valid scenario (cross-field rules, the price in force)
    for a in axes:
        for v in {a.lo, a.hi}:
            scenario.replace({a.key: round(v) if FIELDS[a.key].kind == "int" else v})
    inputs = resolve_inputs(scenario, catalog_from_args(args))
    spec = SweepSpec(inputs, axes, trials, days, seed, scenario.name)
    try:
        summary = run_sweep(
            spec, args.output, workers=workers, scheduler=args.scheduler, progress=_Bar()
        )
    except ValidationError as exc:
        if exc.field in ("trials", "days"):  # name the flag, as typed
            raise ValidationError(f"--{exc.field}", exc.message) from None
        raise
    except KeyboardInterrupt:
        sys.stderr.write(
            f"\ngoodput: sweep interrupted; finished batches are kept in {args.output}.parts, "
            "run the same command to resume\n"
        )
        return 130
    out = {"scenario_name": scenario.name, **summary.to_json_dict()}
    if args.json:
        print_json(out)
        return 0
    what = f"{trials:,} trials x {days:g} days each" if trials else "analytic"
    print(f"{scenario.name}: {summary.points:,} points ({what}), seed {seed}")
    print(f"  varied          {', '.join(a.spec() for a in axes)}")
    print(
        f"  engine          {summary.engine}, {summary.workers} workers "
        f"(cluster start {summary.cluster_start_seconds:.1f} s)"
    )
    print(
        f"  evaluated       {summary.points_evaluated:,} points in {summary.seconds:.2f} s"
        + (f" ({summary.points_resumed:,} resumed)" if summary.points_resumed else "")
    )
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
        help="a numeric field and N linearly spaced values from LO to HI (repeat per field)",
    )
    p.add_argument(
        "--trials",
        default="0",
        help=f"Monte Carlo runs per point, 0..{MAX_TRIALS:,} (default 0: analytic only)",
    )
    p.add_argument("--days", default="30", help="Monte Carlo horizon in days (default 30)")
    p.add_argument("--seed", default="0", help="random seed, a non-negative integer (default 0)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", help="worker processes of a local cluster (default: cores)")
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://HOST:8786)")
    p.add_argument("-o", "--output", required=True, help="results file (.parquet)")
    p.add_argument("--set", action="append", metavar="SECTION.KEY=VALUE", help="override a field")
    p.add_argument("--catalog", help="instance catalog CSV (default data/instances.csv)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_sweep)
