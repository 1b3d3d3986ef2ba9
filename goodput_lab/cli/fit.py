"""``goodput fit LOG.csv [--map col=name ...] [--nodes N] [--json]``.

Fits a failure log (CSV: timestamp, node id, cause, downtime in minutes) and prints the
failure rate per node-day and the Weibull shape of each node's time between failures
(the simulator's ``reliability.weibull_shape``) with their confidence intervals, a fit of the
job's time between failures, a goodness-of-fit summary, the nodes' repair time (from the
downtimes), per-cause rates on the Llama 3 taxonomy and lemon nodes.  The fitted values are printed as ``--set`` overrides for
``goodput evaluate``.  Methods: models/fitting.py.
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.cli.main import json_option, print_json
from goodput_lab.models._files import read_capped
from goodput_lab.models._text import counted
from goodput_lab.models.failure_log import (
    MAX_LOG_BYTES,
    parse_failure_log,
    parse_mapping,
    stated_nodes_row,
)
from goodput_lab.models.outputs import format_range, format_value

if TYPE_CHECKING:  # models.fitting needs scipy.stats: imported by the handler (cli.py rule)
    from goodput_lab.models.fitting import LogFit


def _nodes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of nodes") from None
    if not 1 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(
            f"{value} is out of range ({allowed_range('an integer', 1, 10_000_000)})"
        )
    return value


def read_log_bytes(path: str, max_bytes: int = MAX_LOG_BYTES) -> bytes:
    """Read a log file: a regular file, its size checked before reading (models._files)."""
    return read_capped(path, max_bytes)


def scenario_overrides(fit: LogFit) -> list[str]:
    """``--set`` strings carrying the fit into a scenario: the values the Failure log page's
    button applies (models.fitting.scenario_values, 6 significant digits)."""
    from goodput_lab.models.fitting import scenario_values

    return [f"{key}={value:.6g}" for key, value in scenario_values(fit)[0].items()]


def _print_cause_notes(fit: LogFit) -> None:
    """Why the causes' rates need not add up to the node failure rate: job-marked failures
    are in neither (models.fitting._cause_rates), and a moment's failures are one incident."""
    if fit.n_job_failures:
        print(
            f"    (the causes' rates leave out the {counted(fit.n_job_failures, 'failure')} "
            "marked as the job's own, as the node failure rate does: they are the job-level "
            "rate's)"
        )
    failures = fit.n_failures - fit.n_job_failures
    incidents = fit.n_incidents - fit.n_job_incidents
    if failures != incidents:
        node = "node " if fit.n_job_failures else ""
        print(
            f"    (the causes count {node}failures, {failures:,}; the node failure rate counts "
            f"{node}incidents, {incidents:,}: failures of several nodes at one moment are one "
            "incident, so the causes' rates add up to more)"
        )


def _print_job_weibull(fit: LogFit, pct: int) -> None:
    """The Weibull fit of the job's time between incidents and the goodness of fit, or why
    there is none (every gap the same or nearly: models.fitting.fit_tbf)."""
    from goodput_lab.views.failure_log import regular_gaps_text

    t = fit.tbf
    if math.isnan(t["weibull_shape"]):
        print(
            f"  job TBF Weibull            not estimable: {regular_gaps_text(fit)} (too "
            "little spread: the Weibull likelihood still rises at shape 100)"
        )
        print(
            f"  fit                        AIC exponential {t['aic_exponential']:.1f}; KS "
            f"distance {t['ks_exponential']:.3f}"
        )
        return
    scale = "fitted_weibull_scale_hours"
    print(
        f"  job TBF Weibull            shape {t['weibull_shape']:.3f} ({pct}% CI "
        f"{t['weibull_shape_lo']:.3f}–{t['weibull_shape_hi']:.3f}), scale "
        f"{format_value(scale, t['weibull_scale_h'])} ({pct}% CI "
        f"{format_range(scale, t['weibull_scale_h_lo'], t['weibull_scale_h_hi'])})"
    )
    better = "Weibull" if t["aic_weibull"] < t["aic_exponential"] else "exponential"
    print(
        f"  fit                        AIC exponential {t['aic_exponential']:.1f}, Weibull "
        f"{t['aic_weibull']:.1f} ({better} preferred); LR test of exponential p = "
        f"{t['lr_p_value']:.3g}; KS distance {t['ks_exponential']:.3f} / {t['ks_weibull']:.3f}"
    )


def _print_repair(fit: LogFit) -> None:
    """The node failures' repair time (models.fitting.fit_repair_times), when the log gives
    downtimes: the mean the spare pools need, the median and the simulator's lognormal shape."""
    r = fit.repair
    if r is None:
        if fit.n_downtimes:
            print(
                f"  repair time                not fitted: {counted(fit.n_downtimes, 'downtime')} "
                "of node failures in the log, fewer than 5"
            )
        return
    pct = round(fit.confidence * 100)
    hours = "repair_hours_mean"
    zero = f", {r['repairs_zero']:,} of them 0" if r["repairs_zero"] else ""
    print(
        f"  repair time per failure    mean {format_value(hours, r['repair_hours_mean'])} "
        f"({pct}% CI {format_range(hours, r['repair_hours_mean_lo'], r['repair_hours_mean_hi'])}"
        ", bootstrap), median "
        f"{format_value('repair_hours_median', r['repair_hours_median'])} "
        f"({counted(r['repairs'], 'downtime')} of node failures{zero})"
    )
    if math.isnan(r["repair_sigma"]):
        print("  repair lognormal shape     not estimable (the mean is below the median)")
    else:
        print(
            f"  repair lognormal shape     {format_value('repair_sigma', r['repair_sigma'])} "
            f"({pct}% CI {format_range('repair_sigma', r['repair_sigma_lo'], r['repair_sigma_hi'])}"
            "): the lognormal with this "
            "mean and median"
        )


def _print_nodes_and_rate(fit: LogFit, pct: int, stated: int | None) -> None:
    """The nodes line and the node failure rate with its exact Poisson interval (of the
    node incidents over the node-days: models.fitting._node_rate_ci), or, for a log that
    names no node and no fleet size, that it names none and the rate has no upper bound."""
    from goodput_lab.views.run_log import rate_range, rate_text

    rate = rate_text(fit.node_failure_rate_per_day)
    if fit.nodes == 0:
        print(
            "  nodes                      none: every failure is marked as the job's own (node "
            "id job, *, - …), so the log names no node; pass --nodes for the fleet"
        )
        print(
            f"  node failure rate          {rate} (no node failures; its upper bound needs the "
            "fleet size: pass --nodes)"
        )
        return
    nodes_note = (
        " (distinct node ids in the log: a fleet's nodes that never failed are not in it, so the "
        "rate below is too high by the fleet size over this; pass --nodes)"
        if fit.nodes_from_log
        else (" (stated in the log's comment; --nodes to change)" if stated else "")
    )
    print(f"  nodes                      {fit.nodes:,}{nodes_note}")
    # the registry's format, as the Failure log and Run log pages write the rate
    print(
        f"  node failure rate          {rate} ({pct}% CI "
        f"{rate_range(fit.node_failure_rate_per_day_lo, fit.node_failure_rate_per_day_hi)}"
        ", exact Poisson)"
    )


def _print_text(fit: LogFit, path: str, stated: int | None = None) -> None:
    t = fit.tbf
    pct = round(fit.confidence * 100)
    print(
        f"{path}: {counted(fit.n_failures, 'failure')}, {counted(fit.n_incidents, 'incident')} "
        f"over {fit.span_days:.1f} days"
    )
    if fit.duplicates:
        from goodput_lab.views.failure_log import duplicates_text

        print(f"  duplicate rows             {duplicates_text(fit.duplicates)}")
    _print_nodes_and_rate(fit, pct, stated)
    if fit.job_interruptions_per_day is not None:
        print(
            f"  job-level interruptions    {fit.job_interruptions_per_day:.3f} per day "
            f"({pct}% CI {fit.job_interruptions_per_day_lo:.3f}-"
            f"{fit.job_interruptions_per_day_hi:.3f}, exact Poisson; "
            f"{counted(fit.n_job_incidents, 'incident')} marked as the job's own, left out of "
            "the node rate)"
        )
    print(f"  job MTBF (exponential)     {format_value('fitted_job_mtbf_hours', t['exp_mean_h'])}")
    n = fit.node_tbf
    if n is not None:
        print(
            f"  Weibull shape per node     {n['weibull_shape']:.3f} ({pct}% CI "
            f"{n['weibull_shape_lo']:.3f}–{n['weibull_shape_hi']:.3f}, profile likelihood; "
            f"{counted(n['n_gaps'], 'repeat gap')}, {n['n_censored']:,.0f} censored, lemons "
            "left out)"
        )
    else:
        print(f"  Weibull shape per node     not estimable: {fit.node_tbf_why}")
    _print_job_weibull(fit, pct)
    _print_repair(fit)
    print("  causes (Llama 3 taxonomy, arXiv:2407.21783 Table 5):")
    for c in sorted(fit.causes, key=lambda c: -c["failures"]):
        if c["failures"]:
            print(
                f"    {c['label']:<32}{c['failures']:>8,}  {100 * c['share']:5.1f}% "
                f"(Llama 3 {100 * c['llama3_share']:4.1f}%)  "
                f"{format_value('cause_rate_per_node_day', c['rate_per_node_day'])}/node-day"
            )
    _print_cause_notes(fit)
    if fit.lemons:
        print(
            f"  lemon nodes (binomial tail, Bonferroni over {counted(fit.nodes, 'node')}, "
            f"alpha {fit.lemon_alpha:g}):"
        )
        width = max(24, *(len(lemon["node_id"]) + 2 for lemon in fit.lemons))
        for lemon in fit.lemons:
            print(
                f"    {lemon['node_id']:<{width}}{counted(lemon['failures'], 'failure'):>12} "
                f"(expected {lemon['expected_failures']:.2f}, adjusted p {lemon['p_value_bonferroni']:.2g})"
            )
    else:
        print("  lemon nodes                none detected")
    sets = scenario_overrides(fit)
    if sets:
        if fit.nodes_from_log and fit.nodes:
            print(
                f"  use in a scenario (only if the fleet is {'this' if fit.nodes == 1 else 'these'} "
                f"{counted(fit.nodes, 'node')}; else "
                "rerun with --nodes):"
            )
            print("                             " + " ".join(f"--set {s}" for s in sets))
        else:
            print("  use in a scenario:         " + " ".join(f"--set {s}" for s in sets))
        if any(s.startswith("reliability.node_failure_rate_low=") for s in sets):
            print(
                "                             (the rate's low/high there are its 80% interval,"
                " the one goodput decide integrates; the CI above is 95%)"
            )


def cmd_fit(args: argparse.Namespace) -> int:
    from goodput_lab.models.fitting import fit_failure_log

    mapping = parse_mapping(args.map)
    data = read_log_bytes(args.log)
    log = parse_failure_log(data, mapping)
    # the fleet the log states (# nodes=N) unless --nodes says otherwise: distinct ids
    # undercount it (models.failure_log.stated_nodes_row); a count below them names its row
    found = stated_nodes_row(data) if args.nodes is None else None
    stated, row = found if found is not None else (None, None)
    fit = fit_failure_log(log, args.nodes if args.nodes is not None else stated, stated_row=row)
    if args.json:
        d = fit.to_json_dict()
        d["scenario_overrides"] = scenario_overrides(fit)
        print_json(d)
        return 0
    _print_text(fit, args.log, stated)
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "fit",
        help="fit failure rate, Weibull shape, causes and lemon nodes from a failure log CSV",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "log", metavar="LOG.csv", help="failure log (e.g. data/failure_logs/synthetic-sample.csv)"
    )
    p.add_argument(
        "--map",
        action="append",
        metavar="COLUMN=HEADER",
        help="use HEADER for COLUMN (timestamp, node_id, cause, downtime_minutes)",
    )
    p.add_argument(
        "--nodes",
        type=_nodes,
        metavar="N",
        help="nodes observed, at least the distinct node ids in the log (default: the log's "
        "'# nodes=N' comment before its header, else the distinct node ids in it)",
    )
    json_option(p)
    p.set_defaults(func=cmd_fit)
