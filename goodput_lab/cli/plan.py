"""``goodput plan SCENARIO [--block-days D] [--deadline-days D] [--risk R] [--trials N]
[--seed S] [--json]``.

Capacity Block planning from the Monte Carlo time to finish (models/plan.py): the block
length for 50/90/99 % completion, for a block of D days the probability of finishing inside
it and the expected and P90 total cost including the overrun at the fallback price, the
cheapest purchasable block for a stated risk, the bill by pricing model side by side, and the
shared file system that loses the fewest dollars per day.  JSON keys: block_days_p50,
block_days_p90, block_days_p99, block_days, probability_finish_within_block,
expected_total_cost_usd, p90_total_cost_usd, cheapest_block_days, ..., curve, budget,
file_system.
"""

from __future__ import annotations

import argparse
import math

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.cli.main import (
    _money,
    catalog_from_args,
    catalog_option,
    json_option,
    load_scenario,
    print_json,
    print_price_vintage,
    set_option,
)
from goodput_lab.cli.simulate import MAX_SEED, _int_arg, say_estimate
from goodput_lab.models import ValidationError
from goodput_lab.models.montecarlo import MAX_TRIALS
from goodput_lab.models.outputs import format_range, format_value
from goodput_lab.models.pricing import price_date_phrase


def _number(flag: str, lo: float, hi: float, what: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValidationError(flag, f"{text[:80]!r} is not a number ({what})") from None
        if not math.isfinite(value):  # as --set says it
            raise ValidationError(flag, f"{text[:80]} is not a finite number ({what})")
        if not lo < value <= hi:
            raise ValidationError(flag, f"{text[:80]} is out of range ({what})")
        return value

    return parse


#: --block-days and --deadline-days: a positive number of days, at most ten years
DAYS_ALLOWED = allowed_range("a number of days", 0, 3650, low_open=True)


def _prices(pairs: list[str] | None) -> dict[str, float]:
    out: dict[str, float] = {}
    for item in pairs or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValidationError("--price", f"{item[:80]!r} is not MODEL=USD")
        # as goodput decide's --price: a price above 0 (for hardware you own, what an hour
        # of it costs you)
        out[name.strip()] = _number(
            f"--price {name.strip()[:40]}",
            0.0,
            10_000.0,
            allowed_range("a number", 0, 10_000, "USD/h", low_open=True),
        )(value)
    return out


def _pct(x) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.1f}%"


def _days(x) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{x:.2f}"


def cmd_plan(args: argparse.Namespace) -> int:
    from goodput_lab.models.evaluate import resolve_inputs  # heavy imports: at run time only
    from goodput_lab.models.optimize import recommend_file_system
    from goodput_lab.models.plan import (
        budget_by_pricing_model,
        entered_prices,
        json_date,
        no_block_price,
        plan_capacity_block,
    )

    trials = _int_arg("--trials", 1, MAX_TRIALS)(args.trials)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    risk = _number("--risk", 0.0, 0.999, "a probability in (0, 1)")(args.risk)
    block = None
    if args.block_days is not None:
        block = _number("--block-days", 0.0, 3650.0, DAYS_ALLOWED)(args.block_days)
    prices = _prices(args.price)
    deadline = None
    if args.deadline_days is not None:
        deadline = _number("--deadline-days", 0.0, 3650.0, DAYS_ALLOWED)(args.deadline_days)
    scenario = load_scenario(args.scenario, args.set)
    cat = catalog_from_args(args)
    entered_prices(prices)  # checks --price before the work
    estimates: dict[str, float] = {}
    # a type without a public block price: the bill and the file system all the same
    no_block = no_block_price(scenario, cat, prices=prices)
    plan = None
    try:
        if not no_block:
            plan = plan_capacity_block(
                scenario,
                trials=trials,
                seed=seed,
                block_days=block,
                risk=risk,
                catalog=cat,
                prices=prices or None,  # a block rate, the On-Demand rate after the block
                on_estimate=lambda d, sec, mem: (
                    estimates.update(seconds=sec)
                    or say_estimate(f"{trials:,} runs of {d:,.1f} days of compute", sec, mem)
                ),
            )
    except ValidationError as exc:  # name the flag, as typed
        if exc.field in ("trials", "risk", "block_days"):
            flag = "--" + exc.field.replace("_", "-")
            raise ValidationError(flag, exc.message) from None
        if exc.field == "days":  # the run's own length (plan has no --days): the workload
            raise ValidationError("workload (days of compute)", exc.message) from None
        raise
    budget = budget_by_pricing_model(scenario, cat, prices, plan)
    by_deadline = None
    if deadline is not None:  # the scenario as it stands, any pricing model (models/decide.py)
        from goodput_lab.models.decide import probability_finish_by_deadline

        by_deadline = probability_finish_by_deadline(
            scenario,
            deadline,
            trials=trials,
            seed=seed,
            block_days=plan.block_days if plan is not None else None,
            catalog=cat,
        )
    fs = None
    if scenario["checkpoint.durable_tier"] == "shared_fs":
        rec = recommend_file_system(resolve_inputs(scenario, cat))
        fs = {
            "file_system_TiB": rec.provisioned_TiB,
            "file_system_throughput_MBps_per_TiB": rec.throughput_MBps_per_TiB,
            "storage_usd_per_day": rec.storage_usd_per_day,
            "save_seconds": rec.save_seconds,
            "lost_usd_per_day": rec.lost_usd_per_day,
            "file_system_savings_usd_per_day": rec.savings_usd_per_day,
            "current": {
                "file_system_TiB": rec.current_provisioned_TiB,
                "file_system_throughput_MBps_per_TiB": rec.current_throughput_MBps_per_TiB,
                "storage_usd_per_day": rec.current_storage_usd_per_day,
                "save_seconds": rec.current_save_seconds,
                "lost_usd_per_day": rec.current_lost_usd_per_day,
            },
            "at_search_limit": rec.at_search_limit,
            "assumed_save_seconds": rec.assumed_save_seconds,
            "deliverable_save_seconds": rec.deliverable_save_seconds,
            "warning": rec.warning,
        }
        fs = {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in fs.items()
        }
    if args.json:
        out = plan.to_json_dict() if plan is not None else {"no_capacity_block": no_block}
        out["budget"] = [
            {
                k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in r.items()
            }
            | ({"price_as_of": json_date(r["price_as_of"])} if "price_as_of" in r else {})
            for r in budget
        ]
        out["file_system"] = fs
        if by_deadline is not None:
            out.update(by_deadline)
        out["estimated_seconds"] = estimates.get("seconds")
        print_json(out)
        return 0
    if plan is None:
        print(f"{scenario.name}: {no_block}")
    else:
        _print_block(plan, trials, seed, scenario.name)
    if by_deadline is not None:
        b = by_deadline
        print(
            f"  finishes within {b['deadline_days']:g} days with probability "
            f"{_pct(b['probability_finish_by_deadline'])} (failure rate "
            f"{format_range('node_failure_rate_low', b['node_failure_rate_low'], b['node_failure_rate_high'])}"
            " per node-day and the step-time interval integrated; docs/decide.md)"
        )
    for note in plan.notes if plan is not None else ():
        print(f"  note: {note}")
    _print_bill(budget, fs)
    print_price_vintage(scenario, cat)
    return 0


def _print_block(p, trials: int, seed: int, name: str) -> None:
    """The Capacity Block part of goodput plan's text."""
    print(f"{name}: {trials:,} runs (seed {seed}), {p.compute_days:.1f} days of compute")
    print(
        f"  Capacity Block at ${p.block_price.usd_per_instance_hour:,.2f}/instance-h "
        f"({price_date_phrase(p.block_price)}); after the block "
        f"${p.overrun_price.usd_per_instance_hour:,.2f}/instance-h "
        f"({price_date_phrase(p.overrun_price)})"
    )
    # the risk lines below integrate the same intervals as "finishes within N days" (QA 28
    # #9: they were at the point estimates, under a header said once)
    print(f"  over both 80% intervals: {p.basis_text()}:")
    print(
        f"  block for 50% / 90% / 99% completion: {_days(p.block_days_p50)} / "
        f"{_days(p.block_days_p90)} / {_days(p.block_days_p99)} days"
    )
    print(
        f"  a {p.block_days:g}-day block: the run ends inside it with probability "
        f"{_pct(p.probability_finish_within_block)} (else it goes on after it at the overrun "
        f"price); expected total {_money(p.expected_total_cost_usd)},"
        f" P90 {_money(p.p90_total_cost_usd)} (block {_money(p.block_cost_usd)}, expected overrun "
        f"{_money(p.expected_overrun_cost_usd)})"
    )
    if math.isfinite(p.cheapest_block_days):
        print(
            f"  cheapest block with at most {p.risk:.0%} risk of the run outlasting it (over "
            f"both intervals): {p.cheapest_block_days:g} days, expected "
            f"{_money(p.cheapest_block_expected_total_cost_usd)}"
        )
        best = p.least_cost_block()
        if best is not None and best["block_days"] != p.cheapest_block_days:
            print(
                f"  least expected total over every block length: {best['block_days']:g} days, "
                f"expected {_money(best['expected_total_cost_usd'])}, P90 "
                f"{_money(best['p90_total_cost_usd'])} (the run outlasts it in "
                f"{_pct(1.0 - best['probability_finish'])} of runs and goes on at the overrun "
                "price, if that capacity is there)"
            )


def _print_bill(budget, fs) -> None:
    """The bill by pricing model and the file-system advice of goodput plan's text."""
    print("  bill by pricing model (expected run):")
    for r in budget:
        if not r["available"]:
            print(f"    {r['label']:<24} enter a price (--price {r['pricing_model']}=USD)")
            continue
        print(
            f"    {r['label']:<24} ${r['usd_per_instance_hour']:>8,.2f}/h  "
            f"{_money(r['total_usd_per_day']):>14}/day  {_money(r['total_usd_per_month']):>15}/month  "
            f"run {_money(r['total_cost_to_train_usd']):>15}  failures+checkpoints "
            f"{_money(r['failures_and_checkpoints_usd'])}"
        )
    if fs is not None:
        saved = fs["file_system_savings_usd_per_day"]
        verb = "saves" if saved >= 0 else "costs"  # more, when the current one is too slow
        print(
            f"  file system: {_file_system(fs)} {verb} {_money(abs(saved))}/day against the "
            f"current {_file_system(fs['current'])}"
        )
        if fs["warning"]:
            print(f"  note: {fs['warning']}")


def _file_system(fs: dict) -> str:
    """ "120 TiB at 1,000 MB/s/TiB": size and throughput tier in the registry's formats, as
    the Plan page's table writes them."""
    return (
        f"{format_value('file_system_TiB', fs['file_system_TiB'])} at "
        f"{format_value('file_system_throughput_MBps_per_TiB', fs['file_system_throughput_MBps_per_TiB'])}"
    )


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "plan",
        help="Capacity Block length, completion risk and total cost; the bill by pricing model",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("scenario", help="scenario TOML file or preset name")
    p.add_argument("--block-days", help="block length to evaluate, in days (default: cheapest)")
    p.add_argument(
        "--deadline-days",
        help="also report the probability that the scenario as it stands finishes within this "
        "many days (over the failure-rate and step-time intervals)",
    )
    p.add_argument(
        "--risk",
        default="0.1",
        help="largest accepted probability of not finishing in the block (default 0.1)",
    )
    p.add_argument(
        "--trials", default="1000", help=f"Monte Carlo runs, 1..{MAX_TRIALS:,} (default 1000)"
    )
    p.add_argument("--seed", default="0", help="random seed, a non-negative integer (default 0)")
    p.add_argument(
        "--price",
        action="append",
        metavar="MODEL=USD",
        help="a rate for one pricing model in the side-by-side bill (e.g. savings_plan_3y=40); "
        "capacity_block=USD is also the planned block's rate and on_demand=USD the rate of "
        "the hours after the block (unless pricing.overrun_usd_per_instance_hour is set)",
    )
    set_option(p)
    catalog_option(p)
    json_option(p)
    p.set_defaults(func=cmd_plan)
