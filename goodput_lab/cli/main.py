"""The ``goodput`` command line (contract in README.md, 'Command line').

    goodput evaluate SCENARIO [--set section.key=value ...] [--catalog FILE] [--json]
    goodput compare BASELINE CANDIDATE [--set ...] [--set-candidate ...] [--json]
    goodput instances [--scenario S] [--deadline-days D] [--price NAME=USD] [--json]
    goodput optimize SCENARIO [--deadline-days D] [--json]
    goodput outputs [--json]
    goodput dashboard [--port P] [--host 127.0.0.1]

A SCENARIO is a TOML file or the name of a shipped preset (``aws-16k-h100``).

JSON output is one object with plain floats whose key suffix names the unit.  Errors exit
with status 2 and one line on stderr naming the field and the problem, no traceback.

Start-up time rule: ``goodput evaluate`` must answer within about 3x the time Python takes to
import numpy (bench/bench_engine.py).  Building the parser imports this module and every
module in :data:`COMMAND_MODULES`, so at module level they import only the standard library,
numpy and the light parts of ``goodput_lab.models``; heavy libraries (scipy.stats and
scipy.optimize, polars, plotly, streamlit, dask.distributed, pyarrow) and the models that
need them (fitting, optimize, reports, the sweep engine) are imported inside the handler
that uses them.  tests/cli/test_cli_imports.py checks this in a subprocess.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import signal
import subprocess
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.models import ValidationError, compare, evaluate, load_catalog
from goodput_lab.models._text import rate_interval_note
from goodput_lab.models._tools import json_finite
from goodput_lab.models.choices import choice_words
from goodput_lab.models.errors import cut_values, escape_controls
from goodput_lab.models.evaluate import step_gaps, step_reason
from goodput_lab.models.fields import FIELDS
from goodput_lab.models.outputs import (
    NOT_IN_PRACTICE,
    OUTPUTS,
    failure_domain_keys,
    fallback_share_of_failures,
    finishes_in_practice,
    format_range,
    format_value,
    json_ready,
)
from goodput_lab.models.pricing import price_follows_note
from goodput_lab.models.scenario import (
    RATE_FIELD,
    RATE_INTERVAL_FIELDS,
    Scenario,
    effective_params_billion,
    follow_edits,
    resolve_scenario,
)
from goodput_lab.models.uncertainty import HEADLINE_INTERVALS

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
#: A time to train past this many days (about 270 years) is shown in words, not digits.
MAX_SHOWN_DAYS = 100_000.0

#: Further subcommands, one module each, exposing ``register(subparsers)``; the handler
#: set with ``set_defaults(func=...)`` returns an exit status and may raise ValidationError.
COMMAND_MODULES: list[str] = [
    "goodput_lab.cli.report",
    "goodput_lab.cli.fit",
    "goodput_lab.cli.simulate",
    "goodput_lab.cli.plan",
    "goodput_lab.cli.reconcile",
    "goodput_lab.cli.ladder",
    "goodput_lab.cli.sweep",
    "goodput_lab.cli.decide",
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
    if not sets:
        return scenario
    # provenance follows the overrides: a typed price is "entered", a kept name says
    # "Modified from ...", a price entered for another instance type is dropped
    # (models.scenario.follow_edits)
    edited = scenario.with_overrides(sets)
    explicit = {item.split("=", 1)[0].strip() for item in sets}
    for note in (
        price_follows_note(scenario, edited, explicit),
        interval_follows_note(scenario, edited, explicit),
    ):
        if note and note not in _NOTES:
            _NOTES.append(note)  # said on stderr when the command succeeds (main)
    return follow_edits(scenario, edited, explicit)


def interval_follows_note(base: Scenario, edited: Scenario, explicit: set[str]) -> str:
    """What a ``--set`` of the failure rate alone did to the scenario's stated 80% interval
    of it (moved with the rate, or emptied for the fleet prior:
    models.scenario.interval_follows_rate), in the sidebar's words; "" when nothing moved."""
    was = tuple(base[k] for k in RATE_INTERVAL_FIELDS)
    now = tuple(edited[k] for k in RATE_INTERVAL_FIELDS)
    if None in was or now == was or RATE_FIELD not in explicit:
        return ""
    if set(RATE_INTERVAL_FIELDS) & explicit:  # the user's own interval: nothing followed
        return ""
    scale = FIELDS[RATE_FIELD].scale  # the sidebar's display unit, % per node-day
    return rate_interval_note(
        (was[0] * scale, was[1] * scale),
        (None, None) if None in now else (now[0] * scale, now[1] * scale),
        f"set {RATE_INTERVAL_FIELDS[0]} and {RATE_INTERVAL_FIELDS[1]} to state another",
    )


#: Notes about how the inputs were read, said once on stderr after a command that succeeded
#: (a bad input's message stays the one line it is).
_NOTES: list[str] = []


def catalog_from_args(args: argparse.Namespace):
    """The ``--catalog`` file when given, else the default catalog."""
    return load_catalog(args.catalog) if getattr(args, "catalog", None) else load_catalog()


def _fmt_pct(x: float) -> str:
    """A goodput as the registry writes it (80.92%; 0.000000026%, not 0.00%)."""
    return format_value("goodput", x)


def _fmt_usd(x: float) -> str:
    """$190,340, or −$219,115 with a true minus sign (never $-219,115)."""
    return f"−${-x:,.0f}" if round(x) < 0 else f"${abs(x):,.0f}"


def print_json(obj: Any) -> None:
    """One JSON object on stdout; NaN/inf are not valid JSON, so they must be None already.
    Whole counts are written as integers (:func:`models.outputs.json_ready`)."""
    sys.stdout.write(json.dumps(json_ready(obj), indent=2, allow_nan=False) + "\n")


def print_price_vintage(scenario: Scenario, catalog) -> None:
    """Said once per command: the scenario's own price is older than the public one, and
    how to use the public one instead (models.pricing.price_vintage)."""
    from goodput_lab.models.pricing import PRICE_FIELD, price_vintage

    inst = catalog.get(scenario["cluster.instance"])
    v = price_vintage(scenario, inst) if inst is not None else None
    if v is not None:
        print(f"note: {v.sentence()}")
        print(f"      for the public price: --set {PRICE_FIELD}= (empty)")


def cmd_evaluate(args: argparse.Namespace) -> int:
    ev = evaluate(load_scenario(args.scenario, args.set), catalog_from_args(args))
    if args.json:
        print_json(ev.to_json_dict())
        return 0
    m = ev.metrics
    print(ev.scenario.name)
    # the registry's words for figures without a bound (no failures: "MTBF inf h" before)
    mtbf = format_value("mtbf_hours", m["mtbf_hours"])
    failures = format_value("failures_per_day", m["failures_per_day"], unit=False)
    print(f"  failures per day          {failures}  (MTBF {mtbf})")
    _print_failure_domains(m)
    lost = format_value("minutes_lost_per_failure", m["minutes_lost_per_failure"])
    print(f"  lost per failure          {lost} (first order)")
    sc = ev.scenario
    print(
        f"  checkpoints               {choice_words('checkpoint.strategy', sc['checkpoint.strategy'])}"
        f", every {format_value('checkpoint_interval_minutes', m['checkpoint_interval_minutes'])}"
        f" (optimal {format_value('optimal_checkpoint_interval_minutes', m['optimal_checkpoint_interval_minutes'])}"
        f", Young {format_value('young_interval_minutes', m['young_interval_minutes'])})"
    )
    print(
        f"  save / restore            {m['save_seconds']:.1f} s / {m['restore_seconds']:.1f} s;"
        + _fallback_text(m, sc["checkpoint.strategy"])
    )
    print(f"  goodput (Daly exact)      {_fmt_pct(m['goodput'])}")
    print(
        f"  goodput (first order)     {format_value('goodput_first_order', m['goodput_first_order'])}"
    )
    if note := ev.texts["progress_note"]:
        print(f"  note: {note}")
    if ev.texts["layout_note"]:
        print(f"  note: {ev.texts['layout_note']}")
    print(f"  cluster cost per day      {_fmt_usd(m['cluster_usd_per_day'])}")
    print(
        f"  lost per day              {_fmt_usd(m['lost_usd_per_day'])} (of which checkpoint "
        f"storage {_fmt_usd(m['storage_usd_per_day'])}, idle spare nodes "
        f"{_fmt_usd(m['spare_usd_per_day'])})"
    )
    _print_time_to_train(ev)
    for key in ("recompute_note", "batch_note"):  # what the step model chose or averaged
        if ev.texts[key]:
            print(f"  note: {ev.texts[key]}")
    if line := _intervals_line(m, ev.scenario):
        print(line)
    v = ev.value_of_reliability
    print(
        "  value of 0.1 pp lower node failure rate: "
        f"{format_value('goodput_gain_per_0p1pp', v['goodput_gain_per_0p1pp'], signed=True, unit=False)}"
        f" goodput points, {_fmt_usd(v['usd_per_day_per_0p1pp'])}/day"
    )
    print_price_vintage(ev.scenario, {ev.instance.instance: ev.instance})
    return 0


def _print_failure_domains(m: Mapping[str, Any]) -> None:
    """The failure classes and scale-up domains, as the Overview and the report give them
    (models.outputs.failure_domain_keys: only where a class beyond node failures or a domain
    spare is present), one registry figure a line under the failures per day."""
    from goodput_lab.models.evaluate import hot_spare_pool_text

    keys = failure_domain_keys(m)
    if not keys:
        return
    print(
        f"  failure classes           {format_value('scaleup_domains', m['scaleup_domains'])} of "
        f"{format_value('nodes_per_domain', m['nodes_per_domain'])}; repairs run side by side "
        "(docs/references.md#failure-domains)"
    )
    for key in keys:
        o = OUTPUTS[key]
        says_unit = "per day" in o.label.lower()  # "Node failures per day 2.19"
        print(f"    {o.label.lower():<40} {format_value(key, m[key], unit=not says_unit)}")
    if pool := hot_spare_pool_text(m):  # the node path behind the domain spares, as the Overview
        print(f"    {'then the hot-spare pool':<40} {pool}")


def _print_time_to_train(ev) -> None:
    """The time and cost to train, or why there are none: a run that does not finish in
    practice (goodput under 1%, models.outputs.finishes_in_practice) or past
    :data:`MAX_SHOWN_DAYS`, a step the configuration cannot run."""
    m = ev.metrics
    if not finishes_in_practice(m["goodput"]) and m.get("memory_fits", 1.0):
        print(f"  time / cost to train      {NOT_IN_PRACTICE} (goodput under 1% of the paid time)")
    elif m.get("time_to_train_days", math.nan) > MAX_SHOWN_DAYS and m.get("memory_fits", 1.0):
        print(f"  time / cost to train      over {MAX_SHOWN_DAYS:,.0f} days: it would not finish")
    elif math.isfinite(m.get("time_to_train_days", math.nan)):
        print(
            f"  time / cost to train      {format_value('time_to_train_days', m['time_to_train_days'])}, "
            f"{_fmt_usd(m['cost_to_train_usd'])} for the instances, "
            f"{_fmt_usd(m['total_cost_to_train_usd'])} with checkpoint storage "
            f"(step {format_value('step_seconds', m['step_seconds'])})"
        )
    elif m.get("memory_fits", 1.0) == 0.0:
        print(f"  time / cost to train      not computed: {step_reason(ev)}")


def _intervals_line(m: Mapping[str, Any], sc: Scenario) -> str:
    """The headline figures' 80% intervals, as the Overview's tiles and the report give
    them (models.uncertainty.headline_intervals; the step's from the step model), or "".
    A figure without spread (no failures; a stated MFU's step) is left out."""

    def span(key: str, low: str | None = None, high: str | None = None) -> str:
        lo, hi = m.get(low or f"{key}_low"), m.get(high or f"{key}_high")
        if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
            return ""
        if lo >= hi:
            return ""
        return format_range(key, lo, hi)

    parts = []
    if goodput := span("goodput", *HEADLINE_INTERVALS["goodput"]):
        parts.append(f"goodput {goodput}")
    days_keys = HEADLINE_INTERVALS["time_to_train_days"]
    days = span("time_to_train_days", *days_keys)
    # past it, or under 1% goodput: the time to train line says the run would not finish
    if days and m[days_keys[1]] <= MAX_SHOWN_DAYS and finishes_in_practice(m["goodput"]):
        # P10–P90 over the failure rate's and the step's intervals together, not the step
        # model's time_to_train_days_low/high of --json: the text says which (QA 27 #8)
        parts.append(f"time to train P10–P90 (all inputs) {days}")
    if step := span("step_seconds"):
        stated = sc["workload.step_settings_stated"] == "on"
        note = "" if stated else " (recomputation, overlap and interleaving assumed, not stated)"
        parts.append(f"step {step}{note}")
    return "  80% intervals             " + "; ".join(parts) if parts else ""


def load_side(side: str, path: str, sets: list[str] | None) -> Scenario:
    """:func:`load_scenario` for one side of a comparison, its errors naming the side
    ("candidate aws-16k-h100: cluster.nodes: ...")."""
    try:
        return load_scenario(path, sets)
    except ValidationError as exc:
        raise ValidationError(f"{side} {path}: {exc.field}", exc.message) from None


def cmd_compare(args: argparse.Namespace) -> int:
    sets = args.set or []
    own = args.set_candidate or []
    c = compare(
        load_side("baseline", args.baseline, sets),
        load_side("candidate", args.candidate, sets + own),
        catalog_from_args(args),
    )
    gaps = step_gaps(c)
    if args.json:
        print_json(_compare_json(c, gaps))
        return 0
    b_name, c_name = c.baseline.scenario.name, c.candidate.scenario.name
    if b_name == c_name:  # the two lines would read alike: say what sets them apart
        c_name += f" (+ {' '.join(own)})" if own else f" ({args.candidate})"
        b_name += "" if own else f" ({args.baseline})"
    print(f"baseline : {b_name}  goodput {_fmt_pct(c.baseline['goodput'])}")
    print(f"candidate: {c_name}  goodput {_fmt_pct(c.candidate['goodput'])}")
    first = format_value(
        "goodput_delta_first_order", c.goodput_delta_first_order, signed=True, unit=False
    )
    delta = format_value("goodput_delta", c.goodput_delta, signed=True)
    print(f"goodput delta      {delta}        (first order: {first})")
    print(f"savings per day    {_fmt_usd(c.savings_usd_per_day)}")
    print(f"savings per year   {_fmt_usd(c.savings_usd_per_year)}")
    _print_savings_parts(c)
    if gaps:
        print(f"note: {gaps}; the savings count goodput and running cost only (no step-time part)")
    diffs = c.differences()
    if diffs:
        print("what differs:")
        for key, b, v in diffs:
            print(f"  {key:<42} {_show(key, b)} -> {_show(key, v)}")
    return 0


def _compare_json(c, gaps: str) -> dict[str, Any]:
    """The comparison's JSON; where a step time is not computed, the figures that rest on
    it are null (not r = 1 and $0) and ``reason`` says which side and why."""
    out = c.to_json_dict()
    if gaps:
        out["productive_time_ratio"] = None
        out["step_time_savings_usd_per_day"] = None
        for row in out["savings_by_component"]:
            if row["component"] == "step_time":
                row["usd_per_day"] = None
        out["reason"] = gaps
    return out


def _signed_days(days: float) -> str:
    """+5.9 days, −43.9 days (a true minus sign, as the dollar lines beside it)."""
    return f"{days:+.1f} days".replace("-", "−")


def _print_savings_parts(c) -> None:
    """Where the savings per day come from (Comparison.savings_by_component: the parts
    add up to the total), then what one training run costs on each side."""
    parts = [r for r in c.savings_by_component() if round(r["usd_per_day"]) != 0]
    # one part that is the whole saving says nothing the total has not, unless it is the
    # step time (its line carries the time to train)
    alone = len(parts) == 1 and not round(parts[0]["usd_per_day"] - c.savings_usd_per_day)
    for r in parts:
        step = r["component"] == "step_time"
        if alone and not step:
            continue
        name = "step time" if step else r["label"].lower()
        extra = f" (time to train {_signed_days(c.time_to_train_delta_days)})" if step else ""
        print(f"of which {name} {_fmt_usd(r['usd_per_day'])}/day{extra}")
    b, n = c.baseline["cost_to_train_usd"], c.candidate["cost_to_train_usd"]
    if math.isfinite(b) and math.isfinite(n) and round(b) != round(n):  # NaN: not computed
        diff = f"{_fmt_usd(b - n)} saved" if b > n else f"{_fmt_usd(n - b)} more"
        print(f"cost to train, instances  {_fmt_usd(b)} -> {_fmt_usd(n)} per run ({diff})")


def _show(key: str, value: Any) -> str:
    if value is None:  # an empty optional field: a catalog figure, or derived
        return "(catalog)" if key.startswith("pricing.") or key.endswith("_gbps") else "(derived)"
    f = FIELDS[key]
    if f.scale == 100.0 and isinstance(value, float):
        return f"{100 * value:.4g}%"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _name_values(pairs: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in pairs or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValidationError(f"--{what}", f"{item[:80]!r} is not INSTANCE=VALUE")
        out[name.strip()] = value.strip()
    return out


def _fallback_text(m: dict[str, float], strategy: str = "") -> str:
    """How often the job restores from the durable tier: the share of node failures, and
    with domain events the rate of all fallbacks (each rack event is one; QA pass 20: "8.40%
    of failures" where a fifth of all failures fell back).  With durable_only checkpoints
    there is no faster tier to fall back from: every restore reads the durable tier."""
    if strategy == "durable_only":
        return " every restore reads the durable tier (single level)"  # as the page says
    share = format_value("fallback_fraction", m["fallback_fraction"])
    text = f" {share} of node failures fall back to the durable tier"
    dom = m.get("domain_failures_per_day", 0.0)
    if dom > 0 and m.get("fallback_failures_per_day", 0.0) > 0:
        # the Checkpoints page's rows, in the registry's formats
        every = format_value("fallback_share_of_failures", fallback_share_of_failures(m))
        text += (
            "; with domain events "
            f"{format_value('fallback_failures_per_day', m['fallback_failures_per_day'], unit=False)}"
            f" fallbacks/day, {every} of all failures"
        )
    return text


def _ranking_scenario(args: argparse.Namespace) -> Scenario:
    pos = getattr(args, "scenario_pos", None)
    if pos:  # `goodput instances SCENARIO`, as the other commands take it (QA pass 19)
        if args.scenario and args.scenario != pos:
            raise ValidationError(
                "--scenario", f"two scenarios given ({pos!r} and {args.scenario!r}); give one"
            )
        args.scenario = pos
    scenario = load_scenario(args.scenario, args.set) if args.scenario else Scenario.default()
    if args.set and not args.scenario:
        scenario = scenario.with_overrides(args.set)
    return scenario


def _usd_or_dash(x: Any, missing: str = "-") -> str:
    """:func:`_fmt_usd`, or ``missing`` when the amount is unknown (None, NaN, inf)."""
    return missing if x is None or not math.isfinite(x) else _fmt_usd(x)


def _money(x: Any) -> str:
    """Whole dollars as the commands write them (−$1,234), "n/a" when unknown (goodput plan
    and decide)."""
    return _usd_or_dash(x, "n/a")


def print_ranking(ranking) -> None:
    """The instance ranking as a text table (``goodput instances`` and ``goodput optimize``):
    the nodes column with the paid spares the cost includes ("1,152 + 180 spare")."""
    shown = {r.instance: r.nodes_text if r.feasible else "-" for r in ranking.rows}
    width = max(7, *(len(t) + 2 for t in shown.values()))
    print(
        f"{'instance':<20}{'accel':<14}{'nodes':>{width}}{'$/h':>10}{'days':>8}{'cost':>15}"
        f"{'failure+ckpt':>14}{'$/1e18 FLOP':>12}"
    )
    for r in ranking.rows:
        price = f"{r.usd_per_instance_hour:.2f}" if r.price_known else "enter"
        days = f"{r.time_to_train_days:.1f}" if math.isfinite(r.time_to_train_days) else "-"
        per = (
            f"{r.usd_per_1e18_useful_flops:.2f}"
            if math.isfinite(r.usd_per_1e18_useful_flops)
            else "-"
        )
        mark = " *" if r.cheapest else " ~" if r.too_close_to_call else ""
        print(
            f"{r.instance:<20}{r.accelerator[:13]:<14}{shown[r.instance]:>{width}}{price:>10}"
            f"{days:>8}"
            f"{_usd_or_dash(r.cost_to_train_usd):>15}"
            f"{_usd_or_dash(r.cost_failure_and_checkpoint_usd):>14}{per:>12}{mark}"
        )
        if r.reason:
            print(f"{'':<20}  {r.reason}")
        lo, hi = r.time_to_train_days_low, r.time_to_train_days_high
        if r.feasible and math.isfinite(lo) and math.isfinite(hi) and hi > lo:
            cost = ""
            if math.isfinite(r.cost_to_train_usd_low):  # ranges as the tiles write them
                cost = ", " + format_range(
                    "cost_to_train_usd", r.cost_to_train_usd_low, r.cost_to_train_usd_high
                )
            days = format_range("time_to_train_days", lo, hi)
            print(f"{'':<20}  step-time 80% interval: {days}{cost}")
        if r.price_note:
            print(f"{'':<20}  price: {r.price_note}")
        if r.feasible and r.mfu_gap_exceeded:
            print(
                f"{'':<20}  modelled exposed communication + bubble "
                f"({r.exposed_comm_fraction_of_step:.0%} of the step) exceed what an "
                f"end-to-end MFU of {r.mfu:.0%} leaves: the MFU is optimistic here"
            )
        if not r.price_known and math.isfinite(r.break_even_usd_per_hour):
            print(
                f"{'':<20}  cheapest if your price is below "
                f"${r.break_even_usd_per_hour:.2f}/instance-hour (--price NAME=USD)"
            )
    best = ranking.cheapest
    if best:
        spare = best.nodes_text.removeprefix(f"{best.nodes:,.0f}")  # " + 180 spare"
        print(f"* cheapest: {best.instance} x {best.nodes:,.0f} nodes{spare}")
        if ranking.too_close_to_call:
            print(f"~ {ranking.verdict()}")
        if risk := ranking.deadline_risk():
            print(f"! {risk}")
    for rule in ranking.rules():
        print(f"  {rule}")


def cmd_instances(args: argparse.Namespace) -> int:
    """The catalog plus, for the scenario's workload, time and cost to train on each type."""
    from goodput_lab.models.instances import rank_instances

    cat = catalog_from_args(args)
    scenario = _ranking_scenario(args)
    ranking = rank_instances(
        scenario,
        cat,
        deadline_days=args.deadline_days,
        prices=_name_values(args.price, "price"),
        mfus=_name_values(args.mfu, "mfu"),
    )
    # entries checked by the ranking first (names, ranges); then never ignored silently
    if args.mfu and scenario["workload.mfu_basis"] == "modelled":
        raise ValidationError(
            "--mfu",
            f"{args.mfu[0][:80]!r} is not read when the step time is modelled "
            "(workload.mfu_basis = modelled: the MFU is an outcome); to rank at a stated MFU "
            "add --set workload.mfu_basis=end_to_end",
        )
    if args.json:
        print_json(
            {
                "scenario_name": scenario.name,
                "params_billion": effective_params_billion(scenario),
                "tokens_trillion": scenario["workload.tokens_trillion"],
                **ranking.to_json_dict(),
            }
        )
        return 0
    dl = f", deadline {args.deadline_days:g} days" if args.deadline_days else ""
    print(
        f"{effective_params_billion(scenario):,.4g}B params on "
        f"{scenario['workload.tokens_trillion']:g}T tokens{dl}"
    )
    print_ranking(ranking)
    print_price_vintage(scenario, cat)
    return 0


def cmd_optimize(args: argparse.Namespace) -> int:
    """Recommended checkpoint interval, hot spares and instance type (models.optimize)."""
    from goodput_lab.models.optimize import optimize

    o = optimize(
        load_scenario(args.scenario, args.set), catalog_from_args(args), args.deadline_days
    )
    if args.json:
        print_json(json_finite(o.to_json_dict()))
        return 0
    iv, c = o.interval, o.comparison
    print(o.scenario.name)
    if note := c.baseline.texts["progress_note"]:
        print(f"  note: {note}")
    interval = format_value("recommended_checkpoint_interval_minutes", iv.interval_minutes)
    now = format_value("current_checkpoint_interval_minutes", iv.current_interval_minutes)
    print(
        f"  checkpoint interval   {interval} (now {now}; {iv.basis_text()}) saves "
        f"{_fmt_usd(iv.savings_usd_per_day)}/day"
    )
    # the recommended spares against the scenario's, at the recommended interval (QA 26:
    # "hot spares 0 (now 0)" were of the scenario's own domain spares, beside a
    # recommendation of 3 whole spare domains and 6 hot spares)
    print(
        f"  spares                {o.spares_text()} (now {o.current_spares_text()}) saves "
        f"{_fmt_usd(o.spares_savings_usd_per_day)}/day"
    )
    _print_spare_payoff(o)
    if o.domain_spares is not None:
        _print_domain_spares(o.domain_spares)
    alternative = o.alternative_text()
    instead = (
        f" (saves more than {alternative})"
        if o.spare_policy != "hot_spares" and alternative
        else ""
    )
    print(
        f"  recommended           every {interval} with {o.spares_text()}"
        f"{instead}: goodput {_fmt_pct(c.baseline['goodput'])} -> "
        f"{_fmt_pct(c.candidate['goodput'])}, saves {_fmt_usd(c.savings_usd_per_day)}/day"
    )
    from goodput_lab.models.pricing import as_of_phrase

    best = o.instances.cheapest
    if best is None:
        print("  instance type         none of the priced types can train this workload in time")
    else:
        print(
            f"  instance type         {best.instance} x {best.nodes:,.0f} nodes, "
            f"{best.time_to_train_days:.1f} days, {_fmt_usd(best.cost_to_train_usd)} "
            f"at ${best.usd_per_instance_hour:.2f}/h ({best.price_source}, "
            f"{as_of_phrase(best.price_as_of)})"
        )
        if o.instances.too_close_to_call:  # as goodput instances and the Instances page say
            print(f"                        {o.instances.verdict()}")
    print_price_vintage(o.scenario, catalog_from_args(args))
    return 0


def _print_spare_payoff(o) -> None:
    """At which node failure rates the recommendation's hot spares pay, beside its domain
    spares, as the Optimizer page writes the ranges (0.04–0.68%, not 0.0372%-0.6765%)."""
    from goodput_lab.views.optimizer import payoff_ranges_text

    _, ranges = payoff_ranges_text(
        o.scenario["reliability.node_failure_rate_per_day"], o.spare_payoff_rates_per_day
    )
    n = o.spare_payoff_spares
    beside = o.recommended_domain_spares_text()
    where = f" beside {beside}" if beside else ""
    who = "one hot spare" if n == 1 else f"{n} hot spares"
    if ranges:
        pay = "pays" if n == 1 else "pay"
        print(f"  {who}{where} {pay} off at node failure rates of {ranges} per day")
    else:
        pay = "does not" if n == 1 else "do not"
        print(f"  {who}{where} {pay} pay off at any node failure rate up to 100% per day")


def _print_domain_spares(ds) -> None:
    """The spares-by-domain policies alone, each saving against the scenario's own domain
    spares (models.optimize.recommend_domain_spares)."""
    b, i, d = ds.best, ds.best_in_domain, ds.best_spare_domains
    against = (
        f" against the scenario's {ds.current_label()},"
        if ds.current_in_domain or ds.current_spare_domains
        else ""
    )
    if b.savings_usd_per_day <= 0:  # none saves: not "no domain spares saves $0/day"
        print(
            "  spares by domain      no policy alone saves"
            + (f" against the scenario's {ds.current_label()}" if against else " money")
            + f" ({ds.domains} domains of {ds.nodes_per_domain} nodes)"
        )
        return
    print(
        f"  spares by domain      {b.label()} ({ds.domains} domains of "
        f"{ds.nodes_per_domain} nodes) saves {_fmt_usd(b.savings_usd_per_day)}/day{against} net "
        f"of the {_fmt_usd(b.spare_usd_per_day)}/day its spares cost"
    )

    def best(p) -> str:
        if p.policy == "none" or p.savings_usd_per_day <= 0:
            return "no count pays"
        return f"{p.label()}, {_fmt_usd(p.savings_usd_per_day)}/day"

    print(f"                        best in-domain: {best(i)}; best whole domains: {best(d)}")


def cmd_outputs(args: argparse.Namespace) -> int:
    """The output registry: every figure the tool reports, with unit, meaning, source and the
    function computing it."""
    from goodput_lab.models.outputs import SECTIONS, json_names, reference_text

    if args.json:
        print_json(
            {
                "outputs": [
                    {
                        "key": o.key,
                        "label": o.label,
                        "unit": o.unit,
                        "kind": o.kind,
                        "section": title,
                        "meaning": o.meaning,
                        "formula": o.formula,
                        "reference": o.reference,
                        "source": reference_text(o.reference),
                        "computed_by": "goodput_lab." + o.computed_by,
                        "json_names": json_names(o.key),
                    }
                    for _sid, title, outputs in SECTIONS
                    for o in outputs
                ]
            }
        )
        return 0
    for _sid, title, outputs in SECTIONS:
        print(f"{title}")
        for o in outputs:
            unit = f" [{o.unit}]" if o.unit else ""
            print(f"  {o.key}{unit}: {o.meaning}")
            if o.formula:
                print(f"      = {o.formula}")
            if names := json_names(o.key):
                print(f"      in --json as {', '.join(names)}")
            # bookkeeping (a sum, a count, an input read back) cites nothing: no empty "source:"
            source = reference_text(o.reference)
            print(
                f"      computed by goodput_lab.{o.computed_by}"
                + (f"; source: {source}" if source else "; bookkeeping, no source")
            )
    return 0


#: The settings of the repository's ``.streamlit/config.toml``, passed as flags: Streamlit
#: reads that file only from the working directory, and an installed ``goodput dashboard``
#: runs wherever the user is (a test keeps the two equal).
STREAMLIT_SETTINGS: dict[str, object] = {
    "server.address": "127.0.0.1",
    "server.maxUploadSize": 10,
    "server.maxMessageSize": 50,
    "server.headless": True,
    "server.runOnSave": False,
    "browser.gatherUsageStats": False,
    "runner.enforceSerializableSessionState": True,
    "runner.postScriptGC": False,
    "client.showErrorDetails": "type",
    "client.toolbarMode": "minimal",
    "client.showSidebarNavigation": True,
    "theme.base": "light",
    "theme.metricValueFontSize": "1.5rem",
    "theme.primaryColor": "#1f77b4",
    "theme.font": "sans serif",
}


def streamlit_flags(overrides: dict[str, object] | None = None) -> list[str]:
    """:data:`STREAMLIT_SETTINGS`, with ``overrides`` applied, as ``streamlit run`` flags."""
    return [
        f"--{k}={str(v).lower() if isinstance(v, bool) else v}"
        for k, v in {**STREAMLIT_SETTINGS, **(overrides or {})}.items()
    ]


def cmd_dashboard(args: argparse.Namespace) -> int:
    """Serve the app on ``--host`` (127.0.0.1 unless told otherwise) through
    :mod:`goodput_lab._streamlit`, which makes no outbound request."""
    from goodput_lab._extras import require

    if not 1 <= args.port <= 65535:
        allowed = allowed_range("an integer", 1, 65_535)
        raise ValidationError("--port", f"{args.port} is not allowed ({allowed})")
    if not args.host.strip() or any(c.isspace() for c in args.host):
        raise ValidationError("--host", f"{args.host!r} is not an address (e.g. 127.0.0.1)")
    require("dashboard", "dashboard")
    app = Path(str(resources.files("goodput_lab.dashboard"))) / "app.py"
    cmd = [sys.executable, "-m", "goodput_lab._streamlit", "run", str(app)]
    cmd += ["--server.port", str(args.port), *streamlit_flags({"server.address": args.host})]
    return subprocess.call(cmd)


def set_option(p: argparse.ArgumentParser) -> None:
    """``--set SECTION.KEY=VALUE`` (repeatable), worded the same on every subcommand."""
    p.add_argument("--set", action="append", metavar="SECTION.KEY=VALUE", help="override a field")


def catalog_option(p: argparse.ArgumentParser) -> None:
    """``--catalog CSV``, worded the same on every subcommand."""
    p.add_argument("--catalog", help="instance catalog CSV (default data/instances.csv)")


def json_option(p: argparse.ArgumentParser) -> None:
    """``--json``, worded the same on every subcommand that prints one JSON object."""
    p.add_argument("--json", action="store_true", help="print one JSON object")


#: ``goodput instances --mfu``: read only where the step time reads an MFU.
MFU_HELP = (
    "the MFU of one type (repeatable); only with a stated MFU (workload.mfu_basis = "
    "end_to_end or compute_only), refused under the modelled step"
)


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
    e.add_argument("scenario", help="scenario TOML file or preset name (see data/scenarios/)")
    set_option(e)
    catalog_option(e)
    json_option(e)
    e.set_defaults(func=cmd_evaluate)

    c = sub.add_parser("compare", help="goodput delta and savings of CANDIDATE over BASELINE")
    c.add_argument("baseline", help="scenario TOML file or preset name")
    c.add_argument("candidate", help="scenario TOML file or preset name")
    c.add_argument(
        "--set",
        action="append",
        metavar="SECTION.KEY=VALUE",
        help="override a field in both scenarios",
    )
    catalog_option(c)
    c.add_argument(
        "--set-candidate",
        action="append",
        metavar="SECTION.KEY=VALUE",
        help="override a field on the candidate only (e.g. network.inter_node_gbps=1600)",
    )
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_compare)

    i = sub.add_parser(
        "instances", help="the catalog with time and cost to train the scenario's workload"
    )
    catalog_option(i)
    i.add_argument(
        "scenario_pos",
        nargs="?",
        metavar="SCENARIO",
        help="scenario TOML or preset whose workload to train, as for the other commands "
        "(or --scenario; default: defaults)",
    )
    i.add_argument("--scenario", help="scenario TOML whose workload to train (default: defaults)")
    set_option(i)
    i.add_argument(
        "--deadline-days",
        type=float,
        help="pick, per instance, the cheapest node count that trains within this many days",
    )
    i.add_argument(
        "--price", action="append", metavar="INSTANCE=USD", help="your price per instance-hour"
    )
    i.add_argument("--mfu", action="append", metavar="INSTANCE=FRACTION", help=MFU_HELP)
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_instances)

    o = sub.add_parser(
        "optimize", help="recommended checkpoint interval, hot spares and instance type"
    )
    o.add_argument("scenario", help="scenario TOML file or preset name")
    set_option(o)
    o.add_argument(
        "--deadline-days",
        type=float,
        help="the instance type and node count must train within this many days",
    )
    catalog_option(o)
    json_option(o)
    o.set_defaults(func=cmd_optimize)

    out = sub.add_parser(
        "outputs", help="the output registry: every reported figure, its unit and source"
    )
    json_option(out)
    out.set_defaults(func=cmd_outputs)

    d = sub.add_parser(
        "dashboard",
        help="start the Streamlit dashboard (needs the [dashboard] extra)",
        description="Serve the dashboard on http://HOST:PORT. It listens on 127.0.0.1 only "
        "unless --host says otherwise and makes no outbound request; to share it, put it "
        "behind a reverse proxy with authentication (README, 'Run it').",
    )
    d.add_argument("--port", type=int, default=8501)
    d.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every "
        "interface, only behind a firewall or an authenticating proxy)",
    )
    d.set_defaults(func=cmd_dashboard)

    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(sub)
    return p


class _Escaping:
    """A text stream that writes every piece of text through :func:`escape_controls`
    (line breaks and tabs kept; a carriage return only where a piece starts with it, as a
    progress line redraws itself): a scenario name, file name or echoed value cannot send
    terminal escapes, bells or bidirectional overrides to the user's terminal."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        head = "\r" if text.startswith("\r") else ""
        return self._stream.write(head + escape_controls(text[len(head) :], keep="\n\t"))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _as_typed(field: str, parser: argparse.ArgumentParser, argv: list[str]) -> str:
    """The flag as the user typed it when ``field`` names a command's option by its
    argument name (``deadline_days`` -> ``--deadline-days``, ``output`` -> ``-o`` when
    ``-o`` was typed), else ``field`` unchanged (a scenario field, a row, a flag)."""
    name = field.removeprefix("--").replace("-", "_")
    if not name.isidentifier() or not argv:
        return field
    sub = next(
        (
            a.choices.get(argv[0])
            for a in parser._actions
            if isinstance(a, argparse._SubParsersAction)
        ),
        None,
    )
    for action in getattr(sub, "_actions", []):
        if action.option_strings and (action.dest == name or field in action.option_strings):
            typed = [o for o in action.option_strings if any(t.split("=")[0] == o for t in argv)]
            return (typed or sorted(action.option_strings, key=len))[-1]
    return field


def _terminated(signum, frame) -> None:
    raise SystemExit(128 + signum)  # unwinds like Ctrl-C: temporary files are removed


def main(argv: list[str] | None = None) -> int:
    try:  # `kill` (SIGTERM) unwinds too, so no temporary file is left behind
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread (e.g. called from a server)
        previous = None
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(sys.stdout), _Escaping(sys.stderr)
    parser = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        _NOTES.clear()
        rc = args.func(args)
        if rc == 0:
            for note in _NOTES:
                sys.stderr.write(f"note: {note}\n")
        return rc
    except ValidationError as exc:
        typed = sys.argv[1:] if argv is None else argv
        field = exc.field if parser is None else _as_typed(exc.field, parser, typed)
        sys.stderr.write(f"goodput: {field}: {exc.message}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. `goodput instances | head`
        return 0
    except KeyboardInterrupt:  # Ctrl-C: quietly, with the shell's status for SIGINT
        sys.stderr.write("goodput: interrupted\n")
        return EXIT_INTERRUPTED
    finally:
        sys.stdout, sys.stderr = streams
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    raise SystemExit(main())
