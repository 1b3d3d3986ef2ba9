"""The ``goodput`` command line (contract in DESIGN.md).

    goodput evaluate SCENARIO.toml [--set section.key=value ...] [--catalog FILE] [--json]
    goodput compare BASELINE.toml CANDIDATE.toml [--json]
    goodput instances [--json]
    goodput dashboard

JSON output is one object with plain floats whose key suffix names the unit.  Errors exit
with status 2 and one line on stderr naming the field and the problem, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import signal
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from goodput_lab.models import ValidationError, compare, evaluate, load_catalog
from goodput_lab.models.errors import cut_values
from goodput_lab.models.fields import FIELDS
from goodput_lab.models.scenario import Scenario, resolve_scenario

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

#: Further subcommands, one module each, exposing ``register(subparsers)``; the handler
#: set with ``set_defaults(func=...)`` returns an exit status and may raise ValidationError.
COMMAND_MODULES: list[str] = [
    "goodput_lab.dashboard.commands.report",
    "goodput_lab.dashboard.commands.fit",
    "goodput_lab.dashboard.commands.simulate",
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage too)
        sys.stderr.write(f"goodput: {cut_values(message)}\n")
        raise SystemExit(EXIT_USAGE)


def _fields_help() -> str:
    lines = ["scenario fields (use with --set section.key=value):"]
    for f in FIELDS.values():
        lines.append(f"  {f.key:<42} {f.allowed()}")
    return "\n".join(lines)


def load_scenario(path: str, sets: list[str] | None = None) -> Scenario:
    """The scenario at ``path`` (a TOML file, or the name of a shipped preset such as
    ``aws-16k-h100``) with ``--set`` overrides applied (for every command)."""
    scenario = resolve_scenario(path)
    return scenario.with_overrides(sets) if sets else scenario


def catalog_from_args(args: argparse.Namespace):
    """The ``--catalog`` file when given, else the default catalog."""
    return load_catalog(args.catalog) if getattr(args, "catalog", None) else load_catalog()


def _fmt_pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _fmt_usd(x: float) -> str:
    return f"${x:,.0f}"


def print_json(obj: Any) -> None:
    """One JSON object on stdout; NaN/inf are not valid JSON, so they must be None already."""
    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


def cmd_evaluate(args: argparse.Namespace) -> int:
    ev = evaluate(load_scenario(args.scenario, args.set), catalog_from_args(args))
    if args.json:
        print_json(ev.to_json_dict())
        return 0
    m = ev.metrics
    print(ev.scenario.name)
    print(
        f"  failures per day          {m['failures_per_day']:.3f}  (MTBF {m['mtbf_hours']:.2f} h)"
    )
    print(f"  lost per failure          {m['minutes_lost_per_failure']:.1f} min (first order)")
    sc = ev.scenario
    print(
        f"  checkpoints               {sc['checkpoint.strategy']}, every "
        f"{m['checkpoint_interval_minutes']:.1f} min (optimal "
        f"{m['optimal_checkpoint_interval_minutes']:.1f}, Young {m['young_interval_minutes']:.1f})"
    )
    print(
        f"  save / restore            {m['save_seconds']:.1f} s / {m['restore_seconds']:.1f} s;"
        f" {100 * m['fallback_fraction']:.2f}% of failures fall back to the durable tier"
    )
    print(f"  goodput (Daly exact)      {_fmt_pct(m['goodput'])}")
    print(f"  goodput (first order)     {_fmt_pct(m['goodput_first_order'])}")
    print(f"  cluster cost per day      {_fmt_usd(m['cluster_usd_per_day'])}")
    print(f"  lost per day              {_fmt_usd(m['lost_usd_per_day'])}")
    if math.isfinite(m.get("time_to_train_days", math.nan)):
        print(
            f"  time / cost to train      {m['time_to_train_days']:.1f} days, "
            f"{_fmt_usd(m['cost_to_train_usd'])} (step {m['step_seconds']:.2f} s)"
        )
    elif m.get("memory_fits", 1.0) == 0.0:
        need = m.get("min_nodes_to_fit", math.nan)
        why = f"at least {need:,.0f} nodes" if math.isfinite(need) else "more memory per node"
        print(f"  time / cost to train      not computed: model states do not fit ({why})")
    v = ev.value_of_reliability
    print(
        f"  value of 0.1 pp lower node failure rate: +{100 * v['goodput_gain_per_0p1pp']:.2f}"
        f" goodput points, {_fmt_usd(v['usd_per_day_per_0p1pp'])}/day"
    )
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    c = compare(
        load_scenario(args.baseline), load_scenario(args.candidate), catalog_from_args(args)
    )
    if args.json:
        print_json(c.to_json_dict())
        return 0
    print(f"baseline : {c.baseline.scenario.name}  goodput {_fmt_pct(c.baseline['goodput'])}")
    print(f"candidate: {c.candidate.scenario.name}  goodput {_fmt_pct(c.candidate['goodput'])}")
    print(f"goodput delta      {100 * c.goodput_delta:+.2f} points")
    print(f"savings per day    {_fmt_usd(c.savings_usd_per_day)}")
    print(f"savings per year   {_fmt_usd(c.savings_usd_per_day * 365.25)}")
    return 0


def _name_values(pairs: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in pairs or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValidationError(f"--{what}", f"{item!r} is not INSTANCE=VALUE")
        out[name.strip()] = value.strip()
    return out


def _json_number(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def cmd_instances(args: argparse.Namespace) -> int:
    """The catalog plus, for the scenario's workload, time and cost to train on each type."""
    from goodput_lab.models.instances_compare import compare_instances

    cat = catalog_from_args(args)
    scenario = load_scenario(args.scenario, args.set) if args.scenario else Scenario.default()
    if args.set and not args.scenario:
        scenario = scenario.with_overrides(args.set)
    prices = _name_values(args.price, "price")
    mfus = _name_values(args.mfu, "mfu")
    for name in [*prices, *mfus]:
        if name not in cat:
            raise ValidationError(name, "is not in the catalog; allowed: " + ", ".join(cat))
    comparison = {
        r["instance"]: r
        for r in compare_instances(
            scenario, cat, deadline_days=args.deadline_days, prices=prices, mfus=mfus
        )
    }
    rows = []
    for inst in cat.values():
        row = dict(inst.__dict__)
        row["catalog_usd_per_hour"] = inst.usd_per_hour
        row.update(comparison[inst.instance])
        rows.append({k: _json_number(v) for k, v in row.items()})
    cheapest = next((r["instance"] for r in rows if r["cheapest"]), None)
    if args.json:
        print_json(
            {
                "scenario_name": scenario.name,
                "params_billion": scenario["workload.params_billion"],
                "tokens_trillion": scenario["workload.tokens_trillion"],
                "deadline_days": args.deadline_days,
                "cheapest": cheapest,
                "instances": rows,
            }
        )
        return 0
    dl = f", deadline {args.deadline_days:g} days" if args.deadline_days else ""
    print(
        f"{scenario['workload.params_billion']:g}B params on "
        f"{scenario['workload.tokens_trillion']:g}T tokens{dl}"
    )
    print(
        f"{'instance':<20}{'accel':<14}{'nodes':>7}{'$/h':>10}{'days':>8}{'cost':>15}"
        f"{'failure+ckpt':>14}{'comm':>13}{'$/1e18 FLOP':>12}"
    )

    def usd(x: Any) -> str:
        return "-" if x is None else _fmt_usd(x)

    def _comm_usd(r: dict) -> Any:  # added (compute_only) or inside the MFU (end_to_end)
        key = "cost_communication_within_mfu_usd" if r["mfu_basis"] == "end_to_end" else ""
        return r[key or "cost_communication_usd"]

    for r in rows:
        price = f"{r['usd_per_instance_hour']:.2f}" if r["price_known"] else "enter"
        days = "-" if r["time_to_train_days"] is None else f"{r['time_to_train_days']:.1f}"
        per = (
            "-"
            if r["usd_per_1e18_useful_flops"] is None
            else f"{r['usd_per_1e18_useful_flops']:.2f}"
        )
        mark = " *" if r["cheapest"] else ""
        nodes = f"{r['nodes']:,.0f}" if r["feasible"] else "-"
        print(
            f"{r['instance']:<20}{r['accelerator'][:13]:<14}{nodes:>7}{price:>10}"
            f"{days:>8}{usd(r['cost_to_train_usd']):>15}"
            f"{usd(r['cost_failure_and_checkpoint_usd']):>14}"
            f"{usd(_comm_usd(r)):>13}{per:>12}{mark}"
        )
        if r["reason"]:
            print(f"{'':<20}  {r['reason']}")
        if r["feasible"] and r["mfu_gap_exceeded"]:
            print(
                f"{'':<20}  modelled exposed communication + bubble "
                f"({r['exposed_comm_fraction_of_step']:.0%} of the step) exceed what an "
                f"end-to-end MFU of {r['mfu']:.0%} leaves: the MFU is optimistic here"
            )
        if not r["price_known"] and r["break_even_usd_per_hour"] is not None:
            print(
                f"{'':<20}  cheapest if your price is below "
                f"${r['break_even_usd_per_hour']:.2f}/instance-hour (--price NAME=USD)"
            )
    if cheapest:
        print(f"* cheapest: {cheapest}")
    if scenario["workload.mfu_basis"] == "end_to_end":
        print(
            "MFU basis end_to_end: comm = the part of compute time the network model puts in "
            "exposed communication (inside the MFU, not added)"
        )
    return 0


def cmd_dashboard(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:
        raise ValidationError("--port", f"{args.port} is not allowed (an integer in [1, 65535])")
    app = Path(str(resources.files("goodput_lab.dashboard"))) / "app.py"
    cmd = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(args.port)]
    return subprocess.call(cmd)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="goodput",
        description="What reliability, checkpointing, networking and instance choice are worth.",
        epilog=_fields_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    e = sub.add_parser(
        "evaluate",
        help="analytical goodput and cost of one scenario",
        epilog=_fields_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument("scenario", help="scenario TOML file (see data/scenarios/)")
    e.add_argument("--set", action="append", metavar="SECTION.KEY=VALUE", help="override a field")
    e.add_argument("--catalog", help="instance catalog CSV (default data/instances.csv)")
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.set_defaults(func=cmd_evaluate)

    c = sub.add_parser("compare", help="goodput delta and savings of CANDIDATE over BASELINE")
    c.add_argument("baseline")
    c.add_argument("candidate")
    c.add_argument("--catalog", help="instance catalog CSV (default data/instances.csv)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_compare)

    i = sub.add_parser(
        "instances", help="the catalog with time and cost to train the scenario's workload"
    )
    i.add_argument("--catalog", help="instance catalog CSV (default data/instances.csv)")
    i.add_argument("--scenario", help="scenario TOML whose workload to train (default: defaults)")
    i.add_argument("--set", action="append", metavar="SECTION.KEY=VALUE", help="override a field")
    i.add_argument(
        "--deadline-days",
        type=float,
        help="pick, per instance, the cheapest node count that trains within this many days",
    )
    i.add_argument(
        "--price", action="append", metavar="INSTANCE=USD", help="your price per instance-hour"
    )
    i.add_argument("--mfu", action="append", metavar="INSTANCE=FRACTION", help="override MFU")
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_instances)

    d = sub.add_parser("dashboard", help="start the Streamlit dashboard")
    d.add_argument("--port", type=int, default=8501)
    d.set_defaults(func=cmd_dashboard)

    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(sub)
    return p


def _terminated(signum, frame) -> None:
    raise SystemExit(128 + signum)  # unwinds like Ctrl-C: temporary files are removed


def main(argv: list[str] | None = None) -> int:
    try:  # `kill` (SIGTERM) unwinds too, so no temporary file is left behind
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread (e.g. called from a server)
        previous = None
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except ValidationError as exc:
        sys.stderr.write(f"goodput: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. `goodput instances | head`
        return 0
    except KeyboardInterrupt:  # Ctrl-C: quietly, with the shell's status for SIGINT
        sys.stderr.write("goodput: interrupted\n")
        return EXIT_INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    raise SystemExit(main())
