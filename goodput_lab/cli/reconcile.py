"""``goodput reconcile TIMELINE [--nodes N] [--scenario BASE] [--set k=v ...] [--map k=name ...]
[--trials N] [--seed S] [--write-scenario FILE.toml] [--json]``.

Reads a run's timeline (CSV or JSON lines, optionally gzip-compressed; or the records of
ml-goodput-measurement's GoodputRecorder), measures its goodput and badput buckets, fits the
scenario fields the run can tell (failure rate with its confidence interval, save, restore
and recovery times, step time, checkpoint interval), and sets the analytic prediction on the
fitted scenario (with the Monte Carlo P5-P95 band over the run's length) against what was
measured, bucket by bucket, in hours and dollars at the scenario's price.  `--set` changes
the fitted scenario for a what-if on the same run.  Format and definitions: docs/timeline.md.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from goodput_lab.cli.main import catalog_option, json_option

#: Largest timeline file read (compressed or not); the text cap is models.timeline's.
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_timeline_bytes(path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, refusing an oversized file before reading it."""
    from goodput_lab.models import ValidationError

    try:
        size = os.stat(path).st_size
        if size > max_bytes:
            raise ValidationError(
                path, f"{size:,} bytes is too large (at most {max_bytes:,} bytes)"
            )
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise ValidationError(path, f"cannot be read ({exc.strerror})") from None
    if len(data) > max_bytes:
        raise ValidationError(path, f"is too large (at most {max_bytes:,} bytes)")
    return data


def write_scenario(path: str, text: str) -> None:
    """Write the fitted scenario's TOML through the one safe writer (models._files)."""
    from goodput_lab.models._files import write_atomic

    write_atomic(path, text.encode("utf-8"), "--write-scenario")


def _print_text(r) -> None:
    from goodput_lab.models._text import counted, node_days, with_unit
    from goodput_lab.models.outputs import format_range
    from goodput_lab.models.outputs import format_value as fv
    from goodput_lab.views.run_log import duplicates_text, rate_range, rate_text, row_times

    m, f = r.measurement, r.fit
    d = r.to_json_dict()
    print(
        f"{r.source}: {r.timeline_format}, {r.timeline_rows:,} rows, {m.span_days:.2f} days "
        f"on {with_unit(f'{f.nodes:,}', 'nodes')} ({f.nodes_source})"
    )
    if r.timeline_duplicates:  # dropped, as goodput fit drops a failure log's
        print(f"  duplicate rows       {duplicates_text(r.timeline_duplicates, r.timeline_format)}")
    print(f"  measured goodput     {fv('measured_goodput', m.goodput)}")
    print(
        f"  predicted goodput    {fv('predicted_goodput', r.predicted_goodput)} "
        f"({fv('prediction_minus_measured', d['prediction_minus_measured'], signed=True)}); "
        + (
            "Monte Carlo P5-P95 "
            f"{format_range('predicted_goodput_p5', d['predicted_goodput_p5'], d['predicted_goodput_p95'])} "
            f"({d['monte_carlo_trials']:,} runs of {m.span_days:.2f} days, seed {r.seed})"
            if d["monte_carlo_trials"]
            else "no Monte Carlo band (run shorter than an hour)"
        )
    )
    print(
        f"  badput               {fv('run_badput_hours', d['run_badput_hours'])} of "
        f"{fv('run_wall_hours', d['run_wall_hours'])}, {fv('run_badput_usd', d['run_badput_usd'])}"
        f" at {fv('usd_per_instance_hour', d['usd_per_instance_hour'])} per node"
    )
    what = r.what_if is not None
    print(
        f"  {'bucket':<32}{'measured':>11}{'predicted':>11}{'measured $':>14}{'predicted $':>14}"
        + (f"{'what-if':>11}" if what else "")
    )
    for row in r.bucket_rows():
        # one unit per row, the measured time's (views.run_log.row_times)
        others = [("predicted_hours", row["predicted_hours"])]
        others += [("what_if_hours", row["what_if_hours"])] if what else []
        measured, predicted, *what_if = row_times(row["measured_hours"], *others)
        print(
            f"  {row['bucket_label']:<32}{measured:>11}{predicted:>11}"
            f"{fv('measured_usd', row['measured_usd']):>14}"
            f"{fv('predicted_usd', row['predicted_usd']):>14}"
            + (f"{what_if[0]:>11}" if what else "")
        )
    pct = f"{f.confidence:.0%}"
    # the registry's format, as the Run log page writes the rate (views.run_log.rate_text)
    print(
        f"  fitted failure rate  {rate_text(f.failure_rate_per_node_day)} "
        f"({pct} CI {rate_range(f.failure_rate_per_node_day_lo, f.failure_rate_per_node_day_hi)}"
        ", exact Poisson; "
        f"{counted(f.incidents, 'incident')} in {node_days(f.node_days)})"
    )
    fit = d["fitted"]
    for key, label in (
        ("save_seconds", "save"),
        ("restore_seconds", "restore"),
        ("recovery_minutes", "recovery"),
        ("step_seconds", "step"),
        ("checkpoint_interval_minutes", "interval"),
    ):
        print(f"  {'fitted ' + label:<21}{fv(key, fit[key])}")
    for note in r.notes:
        print(f"  not fitted: {note}")
    if d["scenario_overrides"]:
        print("  use in a scenario:   " + " ".join(f"--set {s}" for s in d["scenario_overrides"]))
    if what:
        w = d["what_if"]
        print(
            f"  what-if ({' '.join(w['what_if_set'])}): predicted "
            f"{fv('predicted_goodput', w['predicted_goodput'])} "
            f"({fv('goodput_delta', w['goodput_delta'])}); this run would have measured about "
            f"{fv('estimated_goodput', w['estimated_goodput'])}; "
            + _savings_text(w["savings_usd_per_day"], w["run_savings_usd"])
        )


def _savings_text(per_day: float, per_run: float) -> str:
    """The what-if's savings in words, its sign as a verb: "saves $82,000/day, $164,000
    over the run", or "costs $72,966/day more, $145,932 more over the run" (QA 26: a bare
    "−$72,966/day" beside "+4.08 points" read as a cost cut)."""
    from goodput_lab.models.outputs import format_value as fv

    if not (math.isfinite(per_day) and math.isfinite(per_run)):  # no price: as the figures read
        return (
            f"savings {fv('savings_usd_per_day', per_day, signed=True)}, "
            f"{fv('run_savings_usd', per_run, signed=True)} over the run"
        )
    day, run = fv("savings_usd_per_day", abs(per_day)), fv("run_savings_usd", abs(per_run))
    if per_day < 0:
        return f"costs {day} more, {run} more over the run"
    return f"saves {day}, {run} over the run"


def cmd_reconcile(args: argparse.Namespace) -> int:
    from goodput_lab.cli.main import catalog_from_args, load_scenario, print_json
    from goodput_lab.cli.simulate import MAX_SEED, _int_arg
    from goodput_lab.models import Scenario, ValidationError
    from goodput_lab.models.montecarlo import MAX_TRIALS
    from goodput_lab.models.reconcile import check_nodes, reconcile, stated_timeline_nodes
    from goodput_lab.models.timeline import parse_mapping, parse_timeline

    nodes = None
    if args.nodes is not None:
        nodes = check_nodes(_int_arg("--nodes", 1, 10**9)(args.nodes))
    trials = _int_arg("--trials", 1, MAX_TRIALS)(args.trials)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    mapping = parse_mapping(args.map)
    if args.write_scenario:  # refused before any work: a bad name, a missing folder ...
        from goodput_lab.cli.report import (
            catalog_input,
            input_path,
            refuse_writing_over_an_input,
        )
        from goodput_lab.models._files import check_output

        if Path(args.write_scenario).suffix != ".toml":
            raise ValidationError(
                "--write-scenario", f"{args.write_scenario[:80]!r} must end in .toml"
            )
        # ... or one of the inputs, as goodput report -o (QA 29: --scenario was overwritten)
        inputs = [
            ("the --scenario base", input_path(args.scenario) if args.scenario else None),
            ("the timeline", Path(args.timeline)),
            catalog_input(args),
        ]
        refuse_writing_over_an_input(
            args.write_scenario, "--write-scenario", inputs, "the fitted scenario"
        )
        check_output(args.write_scenario, "--write-scenario")
    base = load_scenario(args.scenario) if args.scenario else Scenario.default()
    if args.set:  # validate the what-if changes before the work
        base.with_overrides(args.set)
    data = read_timeline_bytes(args.timeline)
    timeline = parse_timeline(data, mapping)
    r = reconcile(
        timeline,
        base,
        nodes=nodes,
        # the fleet the file states (# nodes=N) unless --nodes says otherwise, as goodput fit
        stated_nodes=stated_timeline_nodes(data) if nodes is None else None,
        sets=args.set,
        trials=trials,
        seed=seed,
        catalog=catalog_from_args(args),
        source=os.path.basename(args.timeline),
    )
    if args.write_scenario:
        write_scenario(args.write_scenario, r.fitted.to_toml())
    if args.json:
        d = r.to_json_dict()
        if args.write_scenario:
            d["scenario_written"] = args.write_scenario
        print_json(d)
        return 0
    _print_text(r)
    if args.write_scenario:
        print(f"  fitted scenario written to {args.write_scenario}")
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "reconcile",
        help="measured vs predicted goodput of a run's timeline, fitted parameters, what-if",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "timeline",
        metavar="TIMELINE",
        help="CSV or JSON lines (.gz allowed), e.g. data/timelines/example-run.csv",
    )
    p.add_argument(
        "--nodes",
        metavar="N",
        help="nodes the job ran on, at least the distinct nodes the timeline names (default: "
        "the file's '# nodes=N' comment before the header, else the base scenario's)",
    )
    p.add_argument(
        "--scenario",
        metavar="BASE",
        help="base scenario (TOML or preset) for what the run cannot tell: instance, price, "
        "workload, spares (default: the field defaults)",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="SECTION.KEY=VALUE",
        help="what-if: change the fitted scenario (repeatable)",
    )
    p.add_argument(
        "--map",
        action="append",
        metavar="KEY=NAME",
        help="the file's name for a column (timestamp, event, step, node_id) or an event "
        "(e.g. failure=NODE_DOWN)",
    )
    p.add_argument("--trials", default="1000", help="Monte Carlo runs for the band (default 1000)")
    p.add_argument("--seed", default="0", help="Monte Carlo random seed (default 0)")
    p.add_argument(
        "--write-scenario", metavar="FILE.toml", help="write the fitted scenario as TOML"
    )
    catalog_option(p)
    json_option(p)
    p.set_defaults(func=cmd_reconcile)
