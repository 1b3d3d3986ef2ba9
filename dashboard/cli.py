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
import subprocess
import sys
from pathlib import Path
from typing import Any

from models import ValidationError, compare, evaluate, load_catalog
from models.fields import FIELDS
from models.scenario import Scenario

EXIT_USAGE = 2

#: Further subcommands, one module each, exposing ``register(subparsers)``; the handler
#: set with ``set_defaults(func=...)`` returns an exit status and may raise ValidationError.
COMMAND_MODULES: list[str] = [
    "dashboard.commands.report",
    "dashboard.commands.fit",
    "dashboard.commands.simulate",
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage too)
        sys.stderr.write(f"goodput: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _fields_help() -> str:
    lines = ["scenario fields (use with --set section.key=value):"]
    for f in FIELDS.values():
        lines.append(f"  {f.key:<42} {f.allowed()}")
    return "\n".join(lines)


def _load(path: str, sets: list[str] | None = None) -> Scenario:
    scenario = Scenario.load(path)
    return scenario.with_overrides(sets) if sets else scenario


def _catalog(args: argparse.Namespace):
    return load_catalog(args.catalog) if getattr(args, "catalog", None) else load_catalog()


def _fmt_pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _fmt_usd(x: float) -> str:
    return f"${x:,.0f}"


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


def cmd_evaluate(args: argparse.Namespace) -> int:
    ev = evaluate(_load(args.scenario, args.set), _catalog(args))
    if args.json:
        _print_json(ev.to_json_dict())
        return 0
    m = ev.metrics
    print(ev.scenario.name)
    print(
        f"  failures per day          {m['failures_per_day']:.3f}  (MTBF {m['mtbf_hours']:.2f} h)"
    )
    print(f"  lost per failure          {m['minutes_lost_per_failure']:.1f} min (first order)")
    print(f"  checkpoint interval       {m['checkpoint_interval_minutes']:.1f} min")
    print(f"  goodput (Daly exact)      {_fmt_pct(m['goodput'])}")
    print(f"  goodput (first order)     {_fmt_pct(m['goodput_first_order'])}")
    print(f"  cluster cost per day      {_fmt_usd(m['cluster_usd_per_day'])}")
    print(f"  lost per day              {_fmt_usd(m['lost_usd_per_day'])}")
    v = ev.value_of_reliability
    print(
        f"  value of 0.1 pp lower node failure rate: +{100 * v['goodput_gain_per_0p1pp']:.2f}"
        f" goodput points, {_fmt_usd(v['usd_per_day_per_0p1pp'])}/day"
    )
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    c = compare(_load(args.baseline), _load(args.candidate), _catalog(args))
    if args.json:
        _print_json(c.to_json_dict())
        return 0
    print(f"baseline : {c.baseline.scenario.name}  goodput {_fmt_pct(c.baseline['goodput'])}")
    print(f"candidate: {c.candidate.scenario.name}  goodput {_fmt_pct(c.candidate['goodput'])}")
    print(f"goodput delta      {100 * c.goodput_delta:+.2f} points")
    print(f"savings per day    {_fmt_usd(c.savings_usd_per_day)}")
    print(f"savings per year   {_fmt_usd(c.savings_usd_per_day * 365.25)}")
    return 0


def cmd_instances(args: argparse.Namespace) -> int:
    cat = _catalog(args)
    rows = []
    for inst in cat.values():
        row = dict(inst.__dict__)
        row["price_known"] = inst.usd_per_hour is not None
        rows.append(row)
    if args.json:
        _print_json({"instances": rows})
        return 0
    print(
        f"{'instance':<22}{'accelerator':<16}{'n':>3}{'BF16 TF/chip':>14}{'EFA Gb/s':>10}{'$/h':>12}"
    )
    for r in rows:
        price = f"{r['usd_per_hour']:.2f}" if r["price_known"] else "enter price"
        print(
            f"{r['instance']:<22}{r['accelerator']:<16}{r['accelerators_per_node']:>3}"
            f"{r['bf16_dense_tflops']:>14g}{r['efa_gbps']:>10g}{price:>12}"
        )
    return 0


def cmd_dashboard(args: argparse.Namespace) -> int:
    app = Path(__file__).resolve().parent / "app.py"
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

    i = sub.add_parser("instances", help="list the instance catalog")
    i.add_argument("--catalog", help="instance catalog CSV (default data/instances.csv)")
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_instances)

    d = sub.add_parser("dashboard", help="start the Streamlit dashboard")
    d.add_argument("--port", type=int, default=8501)
    d.set_defaults(func=cmd_dashboard)

    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ValidationError as exc:
        sys.stderr.write(f"goodput: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. `goodput instances | head`
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
