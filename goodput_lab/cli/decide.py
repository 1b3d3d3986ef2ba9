"""``goodput decide SCENARIO --deadline-days D --confidence P [--budget-usd B] [--trials N]
[--seed S] [--workers K | --scheduler ADDR] [--price [INSTANCE:]MODEL=USD] [-o FILE.json]
[--json]``.

The least expected-cost way to train the scenario's workload by day D with probability at
least P: instance type, node count, pricing model (On-Demand, Capacity Block length, and
Savings Plan or Spot when you give a rate), hot spares, checkpoint strategy and interval and
the resilience features worth adopting, chosen together (models/decide.py, docs/decide.md).
Candidates are pruned analytically, then the short list is simulated on Dask (a local
cluster by default; --workers 0 runs in this process) over the failure-rate and step-time
intervals.  With -o the answer is also written to FILE.json and finished simulations are
kept in FILE.json.parts/ until then: an interrupted decision run again resumes.  JSON keys:
choice, set, expected_total_cost_usd, total_cost_usd_p90, probability_finish_by_deadline,
runners_up, frontier, closest, would_take.  Exit status 0 when a configuration meets the
target, 1 when none does (the closest one and what it would take are still printed, and
``meets_target`` is false in the JSON), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from pathlib import Path

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.cli.main import (
    _money,
    catalog_from_args,
    catalog_option,
    json_option,
    load_scenario,
    print_json,
    set_option,
)
from goodput_lab.cli.simulate import MAX_SEED, _int_arg
from goodput_lab.models import ValidationError
from goodput_lab.models.outputs import json_ready

# The ranges goodput_lab.models.decide enforces, for --help without importing it at start-up
# (it needs scipy); tests/cli/test_qa_round.py checks them against its constants.
CONFIDENCE_ALLOWED = "a probability in [0.5, 0.999]"
TRIALS_ALLOWED = allowed_range("an integer", 100, 100_000)
DEADLINE_ALLOWED = allowed_range("a number of days", 0, 3650, low_open=True)
MAX_BUDGET_USD = 1e15
BUDGET_ALLOWED = f"a positive number of USD, at most {MAX_BUDGET_USD:,.0f}"

MAX_WORKERS = 1024
#: Exit status when no configuration meets the deadline, confidence and budget: the answer
#: (the closest configuration and what it would take) is still printed, as grep prints
#: nothing and exits 1 when nothing matches; bad input is 2.
NOTHING_MEETS = 1


class _Progress:
    """Progress lines on stderr: a bar on a terminal, a line per 10% otherwise."""

    def __init__(self, quiet: bool = False, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.quiet = quiet
        self.t0 = time.perf_counter()
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        if self.quiet or not total:
            return
        secs = time.perf_counter() - self.t0
        if self.tty:
            width = 30
            filled = int(width * done / total)
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\rdecide [{bar}] {done}/{total} configurations  {secs:6.1f} s")
            if done >= total:
                self.stream.write("\n")
        else:
            step = int(10 * done / total)
            if step == self.last:
                return
            self.last = step
            self.stream.write(f"decide: {done}/{total} configurations simulated ({secs:.1f} s)\n")
        self.stream.flush()


def _float(flag: str, text: str | None, lo: float, hi: float, what: str) -> float | None:
    if text is None:
        return None
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if math.isnan(v):  # "abc", "nan"
        raise ValidationError(flag, f"{text[:40]!r} is not a number ({what})")
    if not (math.isfinite(v) and lo <= v <= hi):
        raise ValidationError(flag, f"{text[:40]} is out of range ({what})")
    return v


def cmd_decide(args: argparse.Namespace) -> int:
    from goodput_lab.models.decide import (
        MAX_CONFIDENCE,
        MAX_DEADLINE_DAYS,
        MAX_TRIALS,
        MIN_CONFIDENCE,
        MIN_TRIALS,
        decide,
        parse_prices,
    )
    from goodput_lab.views.decide import dask_runner, fingerprint, finish_parts

    deadline = _float(
        "--deadline-days", args.deadline_days, 1e-9, MAX_DEADLINE_DAYS, DEADLINE_ALLOWED
    )
    confidence = _float(
        "--confidence", args.confidence, MIN_CONFIDENCE, MAX_CONFIDENCE, CONFIDENCE_ALLOWED
    )
    budget = _float("--budget-usd", args.budget_usd, 1e-9, MAX_BUDGET_USD, BUDGET_ALLOWED)
    trials = _int_arg("--trials", MIN_TRIALS, MAX_TRIALS)(args.trials)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    workers = None
    if args.workers is not None:
        workers = _int_arg("--workers", 0, MAX_WORKERS)(args.workers)
    out_path = Path(args.output) if args.output else None
    if out_path is not None:
        if out_path.suffix != ".json":
            raise ValidationError("-o", f"{str(out_path)[:80]!r} must end in .json")
        if not out_path.parent.is_dir():
            raise ValidationError("-o", f"the folder {str(out_path.parent)[:80]!r} does not exist")
    scenario = load_scenario(args.scenario, args.set)
    cat = catalog_from_args(args)
    prices = parse_prices(args.price, cat)
    instances = None
    if args.instances is not None:
        instances = [s.strip() for s in args.instances.split(",") if s.strip()]
        if not instances:  # QA 28 #16: "" searched every type without a word
            raise ValidationError(
                "--instances",
                f"{args.instances[:40]!r} names no instance type; allowed: " + ", ".join(cat),
            )
        for name in instances:
            if name not in cat:
                raise ValidationError(
                    "--instances",
                    f"{name[:40]!r} is not in the catalog; allowed: " + ", ".join(cat),
                )
    stats: dict = {}
    parts = None
    if out_path is not None:
        parts = out_path.with_name(out_path.name + ".parts")
    fp = fingerprint(
        {
            "scenario": dict(scenario.values),
            "deadline": deadline,
            "confidence": confidence,
            "budget": budget,
            "trials": trials,
            "seed": seed,
            "prices": sorted(f"{k}={v}" for k, v in prices.items()),
            "instances": instances,
        }
    )
    runner = dask_runner(workers, args.scheduler, parts, fp, stats)
    t0 = time.perf_counter()
    try:
        with runner:
            d = decide(
                scenario,
                deadline,
                confidence,
                budget_usd=budget,
                trials=trials,
                seed=seed,
                prices=prices,
                instances=instances,
                catalog=cat,
                runner=runner,
                progress=_Progress(quiet=args.quiet),
            )
    except KeyboardInterrupt:
        if parts is not None:
            sys.stderr.write(
                f"\ngoodput: decide interrupted; finished simulations are kept in {parts}, "
                "run the same command to resume\n"
            )
        return 130
    out = d.to_json_dict()
    out["seconds"] = time.perf_counter() - t0
    out["workers"] = stats.get("workers", 0)
    out["configurations_resumed"] = stats.get("resumed", 0)
    if out_path is not None:
        tmp = out_path.with_name(out_path.name + ".tmp")
        tmp.write_text(json.dumps(json_ready(out), indent=2, allow_nan=False))
        os.replace(tmp, out_path)
        if parts is not None:
            finish_parts(parts)
    if args.json:
        print_json(out)
    else:
        _print_text(d, out, args.scenario, args.set or [])
    return 0 if d.meets else NOTHING_MEETS


def _print_text(
    d, out: dict, scenario_arg: str = "SCENARIO", user_sets: list[str] | None = None
) -> None:
    from goodput_lab.models.decide import percent_target

    print(
        f"{d.scenario_name}: finish within {d.deadline_days:g} days with probability "
        f"{percent_target(d.confidence)}"
        + (f", P90 cost within {_money(d.budget_usd)}" if d.budget_usd else "")
    )
    print(f"  {d.sentence()}")
    if out["set"]:
        print("  as --set overrides: " + " ".join(f"--set {shlex.quote(s)}" for s in out["set"]))
    if out["choice"] and out["choice"]["block_days"]:
        print(
            f"  check it: goodput plan {shlex.quote(scenario_arg)} "
            f"{' '.join('--set ' + shlex.quote(s) for s in [*(user_sets or []), *out['set']])} "
            f"--block-days {out['choice']['block_days']:g} --deadline-days {d.deadline_days:g}"
            f" --trials {d.trials} --seed {d.seed}"
            " (its probability of finishing by the deadline integrates the same intervals as"
            " here on draws of its own, so it agrees within the Monte Carlo error; its block"
            " costs are at the point step time and failure rate)"
        )
    if not d.meets and out["would_take"]:
        print(f"  what it would take: {out['would_take'].get('text', '')}")
    from goodput_lab.views.decide import count_text, intervals_text

    print(f"  failure rate's {intervals_text(d)}")  # as the Decide page writes it

    print(
        f"  searched {count_text(d.analytic_candidates, 'candidate')} analytically, simulated "
        f"{count_text(d.simulated_configurations, 'configuration')} x "
        f"{count_text(d.trials, 'run')}"
    )
    if out["runners_up"]:
        print("  runners-up (best of each instance type and pricing model):")
        for r in out["runners_up"]:
            block = f" {r['block_days']:g}-day" if r["block_days"] else ""
            # no expected cost where runs never finish: its why_not says so (QA 28 #13)
            cost = r["expected_total_cost_usd"]
            print(
                f"    {r['instance']:<18} {r['nodes']:>6,} nodes {r['pricing_label'] + block:<26} "
                f"P {100 * (r['probability_finish_by_deadline'] or 0):5.1f}%  "
                f"{_money(cost) if cost is not None else 'unbounded':>14}  {r['why_not']}"
            )
    for line in out["what_would_change"]:
        print(f"  would change: {line}")
    for note in out["notes"]:
        print(f"  note: {note}")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "decide",
        help="instance, nodes, pricing, spares and checkpointing that finish by a deadline at "
        "least cost",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("scenario", help="scenario TOML file or preset name")
    p.add_argument("--deadline-days", required=True, help=f"the deadline D: {DEADLINE_ALLOWED}")
    p.add_argument(
        "--confidence",
        required=True,
        help=f"the probability P of finishing by D: {CONFIDENCE_ALLOWED}",
    )
    p.add_argument(
        "--budget-usd", help=f"the P90 total cost must be at most this: {BUDGET_ALLOWED}"
    )
    p.add_argument(
        "--trials",
        default="2000",
        help=f"Monte Carlo runs per configuration: {TRIALS_ALLOWED} (default 2000)",
    )
    p.add_argument("--seed", default="0", help="random seed, a non-negative integer (default 0)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers", help="worker processes of a local Dask cluster (default: cores; 0: no Dask)"
    )
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://HOST:8786)")
    p.add_argument(
        "--price",
        action="append",
        metavar="[INSTANCE:]MODEL=USD",
        help="a rate to consider (e.g. savings_plan_1y=38, p5en.48xlarge:spot=30); without an "
        "instance it is for the scenario's own type",
    )
    p.add_argument("--instances", help="comma-separated instance types to search (default all)")
    p.add_argument("-o", "--output", help="also write the answer to FILE.json (resumable)")
    set_option(p)
    catalog_option(p)
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    json_option(p)
    p.set_defaults(func=cmd_decide)
