"""``goodput ladder SCENARIO [--features a,b,...] [--trials N] [--fit LOG.csv] [--json]``.

What each resilience feature is worth, feature by feature: the rungs from the scenario as
given (the baseline) to every feature adopted, in the order given or in the recommended
order (greedy: the feature that saves the most next).  Each rung's lost $/day counts its
goodput losses and the cost of every feature adopted so far (spare nodes, detection
compute, replicated state); a rung's saving is the previous rung's lost $/day minus its
own, so the savings add up to the first rung's loss minus the last one's.  Every rung is a
scenario: its ``set`` list reproduces it with ``goodput evaluate SCENARIO --set ...``.
With ``--trials`` every rung is also simulated (P5/P95 of goodput and of lost $/day).
``--fit LOG.csv`` takes the causes and the lemon nodes from a failure log (``goodput fit``).
Features, mechanisms and sources: docs/resilience.md.
"""

from __future__ import annotations

import argparse

from goodput_lab.cli.main import (
    catalog_from_args,
    catalog_option,
    json_option,
    load_scenario,
    print_json,
    set_option,
)
from goodput_lab.cli.simulate import DAYS_ALLOWED
from goodput_lab.models import ValidationError
from goodput_lab.models._tools import json_finite


def _say_estimate(trials: int | None, days: float):
    """Tell stderr the whole ladder's predicted simulation time before it starts."""
    from goodput_lab.cli.simulate import say_estimate

    def say(rungs: int, seconds: float) -> None:
        say_estimate(f"{rungs} rungs x {trials:,} trials x {days:g} days, in all", seconds)

    return say


def _check_param_names(items: list[str] | None, features) -> None:
    """``--param`` items whose form is FEATURE.PARAM=VALUE but whose feature or parameter
    is unknown, refused naming what is wrong and what the feature has (QA: the message said
    "is not FEATURE.PARAM=VALUE" of 'domain_spares.count=-3', which is of that form); the
    values are checked by models.resilience.parse_params."""
    for item in items or []:
        name, sep, _ = item.partition("=")
        feature, dot, param = name.strip().partition(".")
        if not (sep and dot and feature and param):
            continue  # not of the form: parse_params says so and lists every parameter
        if feature not in features:
            raise ValidationError(
                "--param",
                f"{item[:80]!r}: no feature {feature[:40]!r}; features: " + ", ".join(features),
            )
        if param not in features[feature].params:
            raise ValidationError(
                "--param",
                f"{item[:80]!r}: {feature} has no parameter {param[:40]!r}; its parameters: "
                + ", ".join(f"{feature}.{p}" for p in features[feature].params),
            )


def cmd_ladder(args: argparse.Namespace) -> int:
    from goodput_lab.cli.simulate import MAX_SEED, _days, _int_arg
    from goodput_lab.models.montecarlo import MAX_TRIALS
    from goodput_lab.models.outputs import format_range, format_value
    from goodput_lab.models.resilience import (
        FEATURES,
        ladder,
        parse_features,
        parse_params,
    )

    features = parse_features(args.features)
    _check_param_names(args.param, FEATURES)
    params = parse_params(args.param)
    trials = _int_arg("--trials", 1, MAX_TRIALS)(args.trials) if args.trials else None
    days = _days(args.days)
    seed = _int_arg("--seed", 0, MAX_SEED)(args.seed)
    if args.nodes is not None and not args.fit:
        raise ValidationError(
            "--nodes", "counts the failure log's nodes; it has no effect without --fit LOG.csv"
        )
    scenario = load_scenario(args.scenario, args.set)
    modes, lemon = None, (0.0, 0.0)
    if args.fit:
        from goodput_lab.cli.fit import read_log_bytes
        from goodput_lab.models.failure_log import parse_failure_log
        from goodput_lab.models.failure_modes import FailureModes, lemon_share_from_fit
        from goodput_lab.models.fitting import fit_failure_log

        fit = fit_failure_log(parse_failure_log(read_log_bytes(args.fit)), args.nodes)
        modes = FailureModes.from_fit(fit, f"failure log {args.fit}")
        lemon = lemon_share_from_fit(fit)
    if trials is not None:
        from goodput_lab.models import resolve_inputs
        from goodput_lab.models.montecarlo import check_size

        try:
            check_size(trials, days, resolve_inputs(scenario, catalog_from_args(args)))
        except ValidationError as exc:  # name the flag, as typed
            raise ValidationError(f"--{exc.field}", exc.message) from None
    result = ladder(
        scenario,
        features,
        modes=modes,
        lemon_failure_share=lemon[0],
        lemon_node_share=lemon[1],
        params=params,
        trials=trials,
        days=days,
        seed=seed,
        catalog=catalog_from_args(args),
        on_estimate=_say_estimate(trials, days),
    )
    from goodput_lab.models.evaluate import progress_note

    note = progress_note(scenario, result.rungs[0].metrics)
    if args.json:
        print_json(json_finite({**result.to_json_dict(), "progress_note": note}))
        return 0
    order = "given order" if result.order == "given" else "recommended order (greedy)"
    print(f"{scenario.name}: resilience ladder, {order}")
    if note:  # the goodput in the registry's format, as the pages' banner
        print(f"  note: {note}")
    print(f"  causes: {result.modes.source}")
    w = max(50, *(len(r.label) + 1 for r in result.rungs[1:]))  # a rung's whole name
    head = (
        f"{'rung':<4} {'feature':<{w}}{'goodput':>9}{'lost/day':>13}{'points':>9}{'saves/day':>13}"
    )
    if trials is not None:
        head += f"{'goodput P5-P95 (MC)':>22}"
    print(head)
    for i, r in enumerate(result.rungs):
        label = r.label if i else "Baseline"
        line = (
            f"{i:<4} {label:<{w}}{format_value('goodput', r.goodput):>9}"
            f"{format_value('lost_usd_per_day', r.lost_usd_per_day, unit=False):>13}"
        )
        if i:
            line += (
                f"{format_value('delta_goodput_points', r.delta_goodput_points, unit=False, signed=True):>9}"
                f"{format_value('delta_usd_per_day', r.delta_usd_per_day, unit=False, signed=True):>13}"
            )
        else:
            line += f"{'':>9}{'':>13}"
        if r.montecarlo is not None:
            mc = r.montecarlo
            band = format_range("goodput_p5", mc["goodput_p5"], mc["goodput_p95"])
            line += f"{band:>22}"
        print(line)
    print(
        f"{'':<4} {'whole ladder':<{w}}{'':>9}{'':>13}"
        f"{format_value('delta_goodput_points', result.total_delta_goodput_points, unit=False, signed=True):>9}"
        f"{format_value('total_delta_usd_per_day', result.total_delta_usd_per_day, unit=False, signed=True):>13}"
    )
    worth = result.recommended_features
    if result.order == "recommended":
        names = ", ".join(r.label for r in result.rungs[1:] if r.feature in worth) or "none"
        saved = format_value(
            "recommended_delta_usd_per_day", result.recommended_delta_usd_per_day, unit=False
        )
        print(f"worth adopting here: {names} (together they save {saved}/day)")
    if trials is not None:
        from goodput_lab.models.resilience import MC_TOLERANCE_TEXT

        bad = [r.feature for r in result.rungs if not r.montecarlo["montecarlo_within_tolerance"]]
        print(
            f"Monte Carlo: {trials:,} runs x {days:g} days per rung (seed {seed}); "
            f"tolerance {MC_TOLERANCE_TEXT}: "
            + ("all rungs within it" if not bad else "outside it: " + ", ".join(bad))
        )
    print("each rung's settings: goodput ladder ... --json (rungs[].set); docs/resilience.md")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "ladder",
        help="what each resilience feature is worth, rung by rung",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scenario", help="scenario TOML file or preset name (see data/scenarios/)")
    p.add_argument(
        "--features",
        metavar="A,B,...",
        help="features in the order to adopt them (default: the recommended order); names: "
        "hot_spares, domain_spares, health_checks, auto_recovery, memory_checkpoints, async_saves, "
        "in_process_restart, checkpointless, straggler_mitigation, sdc_detection, elastic, "
        "checkpoint_validation",
    )
    p.add_argument("--trials", help="also simulate every rung with N Monte Carlo runs")
    p.add_argument("--days", default="30", help=f"Monte Carlo window: {DAYS_ALLOWED} (default 30)")
    p.add_argument("--seed", default="0", help="Monte Carlo seed (default 0)")
    p.add_argument(
        "--fit",
        metavar="LOG.csv",
        help="failure log: its causes and lemon nodes feed the features (see goodput fit)",
    )
    p.add_argument("--nodes", type=int, help="nodes observed in the --fit log")
    p.add_argument(
        "--param",
        action="append",
        metavar="FEATURE.PARAM=VALUE",
        help="override a feature parameter, e.g. hot_spares.spares=8",
    )
    set_option(p)
    catalog_option(p)
    json_option(p)
    p.set_defaults(func=cmd_ladder)
