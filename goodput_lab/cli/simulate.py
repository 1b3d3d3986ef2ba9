"""``goodput simulate SCENARIO.toml [--trials N] [--days D] [--seed S] [--set k=v] [--json]``.

Runs the Monte Carlo simulator (models/montecarlo.py) on a scenario and prints the goodput
distribution next to the analytic (Daly) value.  JSON keys: goodput_mean, goodput_p5,
goodput_p50, goodput_p95, goodput_stderr, goodput_analytic, trials, events_simulated,
seconds, plus time-to-finish and cost percentiles.  Sizes that would exhaust memory or time
are refused with exit status 2 and one line naming the flag and its allowed range.
"""

from __future__ import annotations

import argparse
import math
import time

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.cli.main import (
    catalog_from_args,
    catalog_option,
    json_option,
    load_scenario,
    print_json,
    print_price_vintage,
    set_option,
)
from goodput_lab.models import ValidationError, resolve_inputs
from goodput_lab.models._text import counted
from goodput_lab.models.montecarlo import (
    MAX_DAYS,
    MAX_TRIALS,
    MIN_DAYS,
    check_size,
    simulate_inputs,
)
from goodput_lab.models.outputs import NOT_IN_PRACTICE, finishes_in_practice, format_value

MAX_SEED = 2**63 - 1


def _int_arg(flag: str, lo: int, hi: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            try:  # 1e9 and 2000.0 are whole numbers too
                as_float = float(text)
            except ValueError:
                as_float = math.nan
            if not (math.isfinite(as_float) and as_float == round(as_float)):
                raise ValidationError(
                    flag,
                    f"{text[:80]!r} is not a whole number ({allowed_range('an integer', lo, hi)})",
                ) from None
            value = int(as_float)
        if not lo <= value <= hi:
            raise ValidationError(
                flag, f"{value:,} is out of range ({allowed_range('an integer', lo, hi)})"
            )
        return value

    return parse


#: The Monte Carlo window the simulator takes (models.montecarlo: one hour to MAX_DAYS).
# (the hour to five decimals, 0.04167, as models.montecarlo's own message writes it)
DAYS_ALLOWED = (
    allowed_range("a number of days", round(MIN_DAYS, 5), MAX_DAYS) + ", at least one hour"
)


def _days(text: str) -> float:
    """``--days`` as the simulator takes it, refused in the simulator's range and words."""
    try:
        value = float(text)
    except ValueError:
        raise ValidationError("--days", f"{text[:80]!r} is not a number ({DAYS_ALLOWED})") from None
    if not math.isfinite(value):
        raise ValidationError("--days", f"{text[:80]} is not a finite number ({DAYS_ALLOWED})")
    if 0 < value < MIN_DAYS:
        raise ValidationError(
            "--days",
            f"{text[:80]} is too short ({DAYS_ALLOWED}: a window under an hour sees almost no "
            "failure, recovery or checkpoint, so its goodput would read close to 100%)",
        )
    if not MIN_DAYS <= value <= MAX_DAYS:
        raise ValidationError("--days", f"{text[:80]} is out of range ({DAYS_ALLOWED})")
    return value


def say_estimate(what: str, seconds: float, memory_bytes: float | None = None) -> None:
    """One line on stderr before a simulation starts: its predicted time (and memory)
    against the command's limits (models.montecarlo.check_size, models.budget)."""
    import sys

    from goodput_lab.models.budget import MAX_SECONDS
    from goodput_lab.models.montecarlo import MAX_BYTES

    mem = (
        f", ~{memory_bytes / 1e9:.2g} GB (limit {MAX_BYTES / 1e9:g} GB)"
        if memory_bytes is not None
        else ""
    )
    sys.stderr.write(
        f"goodput: simulating {what}: estimated ~{seconds:,.2g} s (limit {MAX_SECONDS:g} s){mem}\n"
    )
    sys.stderr.flush()


def _json_float(x: float):
    return float(x) if math.isfinite(x) else None


def cmd_simulate(args: argparse.Namespace) -> int:
    trials = _int_arg("--trials", 1, MAX_TRIALS)(args.trials)
    days = _days(args.days)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    scenario = load_scenario(args.scenario, args.set)
    inputs = resolve_inputs(scenario, catalog_from_args(args))
    start = time.perf_counter()
    try:  # refused before it starts if predicted too large, stopped if past its budget
        est = check_size(trials, days, inputs)
        say_estimate(f"{counted(trials, 'trial')} x {days:g} days", est.seconds, est.memory_bytes)
        res = simulate_inputs(inputs, trials, days, rng=seed)
    except ValidationError as exc:
        if exc.field in ("trials", "days"):  # name the flag, as typed
            raise type(exc)(f"--{exc.field}", exc.message) from None
        raise
    seconds = time.perf_counter() - start
    summary = res.summary()
    out = {
        "scenario_name": scenario.name,
        **{k: _json_float(v) for k, v in summary.items()},
        "trials": trials,
        "days": days,
        "seed": seed,
        "events_simulated": res.events_simulated,
        "checkpoints_simulated": res.checkpoints_simulated,
        "checkpoint_interval_minutes": res.interval_minutes,
        "seconds": seconds,
        "estimated_seconds": est.seconds,
    }
    if args.json:
        print_json(out)
        return 0
    # a closed form under 1% goodput: its time to finish (114,307,565,891.26 days) and
    # failures per run read "does not finish in practice" (models.outputs)
    from goodput_lab.views.montecarlo import finished_only, unfinished_warning  # (polars)

    done = finishes_in_practice(res.goodput_analytic)
    pct = lambda x: format_value("goodput", x)  # noqa: E731  (0.000000026%, not 0.00%)
    days_ = lambda x: f"{x:,.2f}" if math.isfinite(x) else "n/a"  # noqa: E731
    usd = lambda x: f"${x:,.0f}" if math.isfinite(x) else "n/a"  # noqa: E731
    print(f"{scenario.name}: {counted(trials, 'trial')} x {days:g} days (seed {seed})")
    # the standard error in points, as the Monte Carlo page's table (registry goodput_stderr)
    se = format_value("goodput_stderr", res.goodput_stderr)
    print(
        f"  goodput        mean {pct(res.goodput_mean)} ± {se} (1 s.e.)   analytic {pct(res.goodput_analytic)}"
    )
    print(
        f"  goodput        p5 {pct(summary['goodput_p5'])}  p50 {pct(summary['goodput_p50'])}"
        f"  p95 {pct(summary['goodput_p95'])}"
    )
    # most runs unfinished: the finished ones are the fast ones (views.montecarlo)
    low = "  [finished runs only: biased low]" if finished_only(res) else ""
    print(
        f"  days to finish {days:g} days of compute: mean "
        f"{days_(summary['time_to_finish_mean_days'])}"
        f"  p95 {days_(summary['time_to_finish_p95_days'])}"
        + (
            f"  (analytic {days_(summary['time_to_finish_analytic_days'])})"
            if done
            else f"  (analytic: {NOT_IN_PRACTICE})"
        )
        + low
    )
    print(
        f"  lost per run   mean {usd(summary['lost_mean_usd'])}  p95 {usd(summary['lost_p95_usd'])}"
        + low
    )
    closed = summary["failures_analytic"]
    print(
        f"  failures       mean {summary['failures_mean']:,.1f} per run"
        + (f"  (closed form {closed:,.1f})" if math.isfinite(closed) and done else "")
        + ("  [unfinished runs counted to the cap: biased low]" if low else "")
    )
    if res.unfinished:
        print(f"  unfinished     {unfinished_warning(res)}")
    print(f"  {res.events_simulated:,} events in {seconds:.2f} s")
    print_price_vintage(scenario, catalog_from_args(args))
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="Monte Carlo distribution of goodput, time to finish and lost dollars",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("scenario", help="scenario TOML file or preset name (see data/scenarios/)")
    p.add_argument(
        "--trials", default="1000", help=f"independent runs, 1..{MAX_TRIALS:,} (default 1000)"
    )
    p.add_argument(
        "--days",
        default="30",
        help=f"horizon: {DAYS_ALLOWED} (default 30)",
    )
    p.add_argument("--seed", default="0", help="random seed, a non-negative integer (default 0)")
    set_option(p)
    catalog_option(p)
    json_option(p)
    p.set_defaults(func=cmd_simulate)
