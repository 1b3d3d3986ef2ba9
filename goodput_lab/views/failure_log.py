"""Tables behind the Failure log page: parse + fit an upload, results as polars frames.

No Streamlit here and no model math: everything numeric comes from models.failure_log and
models.fitting.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import polars as pl

from goodput_lab.models import FIELDS, ValidationError
from goodput_lab.models._csv import CLI_MAP_HINT
from goodput_lab.models._resources import data_path
from goodput_lab.models._text import counted
from goodput_lab.models.failure_log import (
    MAX_LOG_BYTES,
    MAX_LOG_ROWS,
    FailureLog,
    parse_failure_log,
    stated_nodes,
    stated_nodes_row,
)
from goodput_lab.models.fitting import LogFit, fit_failure_log, incident_gaps_h, tbf_survival
from goodput_lab.models.outputs import format_apart
from goodput_lab.views import display

SAMPLE_LOG = data_path("failure_logs", "synthetic-sample.csv")


@dataclass(frozen=True)
class FittedLog:
    log: FailureLog
    fit: LogFit


def sample_log_bytes() -> bytes:
    """The shipped SYNTHETIC sample log (scripts/make_sample_log.py)."""
    return SAMPLE_LOG.read_bytes()


#: The page's box for the fleet size (named in its messages, as the CLI names --nodes).
NODES_LABEL = "Nodes observed"
#: The page's column pickers (what the CLI's --map does).
MAPPING_LABEL = "Column mapping"
#: The "Use the fitted values" button's help.
APPLY_HELP = (
    "Sets the sidebar's node failure rate, the per-node Weibull shape, the job-level "
    "interruption rate (when the log marks any), the rate's 80% interval (low, high: the "
    "interval Decide and the headline ranges integrate) and, when the log gives downtimes, "
    "the mean repair time and its lognormal shape to the fitted values: the ones goodput "
    "fit prints as --set."
)


def page_message(exc: ValidationError) -> str:
    """A reader's message as the page says it: the column pickers, not the CLI's --map."""
    return CLI_MAP_HINT.sub(f"or pick one under {MAPPING_LABEL}", str(exc))


def fit_log(data: bytes, mapping: Mapping[str, str] | None, nodes: int | None) -> FittedLog:
    """Parse and fit; raises models.ValidationError naming row and column on bad input.  A
    node count equal to the log's ``# nodes=N`` comment (the box's default) is that
    comment's: a count below the log's distinct nodes names its row, not the box."""
    log = parse_failure_log(data, mapping)
    stated = stated_nodes_row(data)
    row = stated[1] if stated is not None and nodes == stated[0] else None
    return FittedLog(
        log=log, fit=fit_failure_log(log, nodes, nodes_field=NODES_LABEL, stated_row=row)
    )


def _repair_rows(fit: LogFit) -> list[dict[str, object]]:
    """The repair time's rows of :func:`estimates_table` (models.fitting.fit_repair_times):
    none when the log gives no downtime, or too few to fit."""
    r = fit.repair
    if r is None:
        return []
    given = f"{r['repairs']:,} node failures' downtimes"
    boot = "percentile bootstrap (999 resamples)"
    rows: list[dict[str, object]] = [
        {
            "key": "repair_hours_mean",
            "est": r["repair_hours_mean"],
            "lo": r["repair_hours_mean_lo"],
            "hi": r["repair_hours_mean_hi"],
            "method": f"mean of {given}; {boot}",
        },
        {
            "key": "repair_hours_median",
            "est": r["repair_hours_median"],
            "method": f"median of {given}",
        },
    ]
    if not math.isnan(r["repair_sigma"]):
        rows.append(
            {
                "key": "repair_sigma",
                "est": r["repair_sigma"],
                "lo": r["repair_sigma_lo"],
                "hi": r["repair_sigma_hi"],
                "method": f"σ = √(2·ln(mean / median)); {boot}",
            }
        )
    return rows


def estimates_table(fit: LogFit) -> pl.DataFrame:
    """Fitted quantities with their interval and method, every figure from the registry."""
    t = fit.tbf
    rows = [
        {
            "key": "fitted_node_failure_rate_per_day",
            "est": fit.node_failure_rate_per_day,
            "lo": fit.node_failure_rate_per_day_lo,
            # no upper end without node-days: a log naming no node, no fleet size entered
            "hi": None
            if math.isnan(fit.node_failure_rate_per_day_hi)
            else fit.node_failure_rate_per_day_hi,
            "method": "node incidents / node-days; exact Poisson interval of the node incidents",
        },
        {
            "key": "fitted_job_mtbf_hours",
            "est": t["exp_mean_h"],
            "lo": 1 / t["exp_rate_per_h_hi"],
            "hi": 1 / t["exp_rate_per_h_lo"],
            "method": "MLE = mean gap; interval from the rate's",
        },
        {
            "key": "fitted_weibull_shape",
            "label": "Job TBF Weibull shape k",
            "est": t["weibull_shape"],
            "lo": t["weibull_shape_lo"],
            "hi": t["weibull_shape_hi"],
            "method": "MLE; profile-likelihood interval",
        },
        {
            "key": "fitted_weibull_scale_hours",
            "label": "Job TBF Weibull scale η",
            "est": t["weibull_scale_h"],
            "lo": t["weibull_scale_h_lo"],
            "hi": t["weibull_scale_h_hi"],
            "method": "MLE; Wald interval on log scale (observed information)",
        },
    ]
    n = fit.node_tbf
    if n is not None:
        rows.insert(
            1,
            {
                "key": "fitted_weibull_shape",
                "label": "Per-node Weibull shape k",
                "est": n["weibull_shape"],
                "lo": n["weibull_shape_lo"],
                "hi": n["weibull_shape_hi"],
                "method": f"censored MLE ({n['n_gaps']:,.0f} + {n['n_censored']:,.0f} censored "
                "gaps, no lemons); profile likelihood",
            },
        )
    rows += _repair_rows(fit)
    # the job's Weibull where the gaps have no spread to fit one (models.fitting.fit_tbf)
    rows = [r for r in rows if not math.isnan(r["est"])]
    pct = f"{fit.confidence:.0%}"
    heads = ("Estimate", f"Lower ({pct})", f"Upper ({pct})")
    table = display.metric_rows(
        rows, list(zip(("est", "lo", "hi"), heads, strict=True)), label="Quantity"
    )
    # an interval whose ends would read as its estimate gets the decimals that tell them
    # apart (QA pass 26: "1.00 | 1.00 | 1.00" for 0.997-1.004)
    cells = {h: list(table[h]) for h in heads}
    for i, r in enumerate(rows):
        if r.get("lo") is not None and r.get("hi") is not None:
            est, ends = format_apart(r["key"], r["est"], [r["lo"], r["hi"]])
            for h, text in zip(heads, (est, *ends), strict=True):
                cells[h][i] = text
    return table.with_columns(
        *(pl.Series(h, cells[h], dtype=pl.String) for h in heads),
        pl.Series("Method", [r["method"] for r in rows]),
    )


def goodness_of_fit_table(fit: LogFit) -> pl.DataFrame:
    """AIC, log-likelihood and KS distance per model, formatted for display."""
    t = fit.tbf
    rows = [
        {
            "model": name,
            "log_likelihood": t[f"loglik_{k}"],
            "aic": t[f"aic_{k}"],
            "ks_distance": t[f"ks_{k}"],
            "ks_p_value": t[f"ks_{k}_p_optimistic"],
        }
        for name, k in (("Exponential", "exponential"), ("Weibull", "weibull"))
        if not math.isnan(t[f"aic_{k}"])  # no Weibull where every gap is the same
    ]
    return display.table(
        rows, [("model", "Model"), "log_likelihood", "aic", "ks_distance", "ks_p_value"]
    )


def cause_table(fit: LogFit) -> pl.DataFrame:
    """Per-cause failures, shares (log vs Llama 3) and rates per node-day (raw numbers)."""
    df = pl.DataFrame(fit.causes)
    return df.select(
        "label",
        "group",
        "failures",
        (pl.col("share") * 100).alias("share_pct"),
        (pl.col("llama3_share") * 100).alias("llama3_share_pct"),
        pl.col("share").alias("cause_share"),
        pl.col("llama3_share").alias("llama3_cause_share"),
        pl.col("failures").alias("failure_count"),
        pl.col("rate_per_node_day").alias("cause_rate_per_node_day"),
        pl.col("rate_per_node_day_lo").alias("rate_lo"),
        pl.col("rate_per_node_day_hi").alias("rate_hi"),
        "causes_in_log",
    ).sort("failures", descending=True)


def cause_display(causes: pl.DataFrame, confidence: float) -> pl.DataFrame:
    """:func:`cause_table` for people: counts, shares and rates with their interval in one
    column; what the log calls each cause is :func:`cause_names_caption` (as two interval
    columns and a tenth of names the table ran past the page at 1,024 px)."""
    pct = f"{confidence:.0%}"
    rate = display.OUTPUTS["cause_rate_per_node_day"]
    rows = causes.to_dicts()

    def interval(r: dict) -> str:
        lo, hi = (display.cell(rate, r[k]) for k in ("rate_lo", "rate_hi"))
        return display.MISSING if display.MISSING in (lo, hi) else f"{lo}–{hi}"

    base = display.table(
        rows,
        [
            ("label", "Cause"),
            ("group", "Group"),
            "failure_count",
            "cause_share",
            "llama3_cause_share",
            ("cause_rate_per_node_day", "Rate (% per node-day)"),
        ],
    )
    return base.with_columns(pl.Series(f"{pct} interval", [interval(r) for r in rows]))


def cause_names_caption(causes: pl.DataFrame) -> str:
    """Under :func:`cause_display`: the log's own words for each cause ("" when it has none);
    the words are the log's, so a page escapes them."""
    parts = [
        f"{r['label']}: {r['causes_in_log']}"
        for r in causes.iter_rows(named=True)
        if r["causes_in_log"]
    ]
    return ("As the log names them — " + "; ".join(parts) + ".") if parts else ""


def lemon_table(fit: LogFit) -> pl.DataFrame:
    schema = {
        "node_id": pl.String,
        "failures": pl.Int64,
        "expected_failures": pl.Float64,
        "p_value": pl.Float64,
        "p_value_bonferroni": pl.Float64,
    }
    return pl.DataFrame(fit.lemons, schema=schema)


def lemon_display(lemons: pl.DataFrame) -> pl.DataFrame:
    rows = [{**r, "failure_count": r["failures"]} for r in lemons.iter_rows(named=True)]
    return display.table(
        rows,
        [
            ("node_id", "Node"),
            "failure_count",
            "expected_failures",
            "p_value",
            "p_value_bonferroni",
        ],
    )


def survival_frames(fitted: FittedLog) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(empirical, fitted) survival of time between incidents, hours."""
    s = tbf_survival(incident_gaps_h(fitted.log.time_h), fitted.fit.tbf)
    empirical = pl.DataFrame({"tbf_h": s["empirical_h"], "survival": s["empirical_survival"]})
    fitted_df = pl.DataFrame(
        {
            "tbf_h": s["grid_h"],
            "exponential": s["exponential_survival"],
            "weibull": s["weibull_survival"],
        }
    )
    return empirical, fitted_df


# --------------------------------------------------------------------------- page text
# What the Failure log page shows, ready to place (the page formats no number itself);
# ``esc`` escapes user text (a file's name) for the page.
UPLOAD_HELP = (
    "One row per node failure: timestamp (ISO 8601), node id, cause, downtime in "
    f"minutes. At most 10 MB (server.maxUploadSize) and {MAX_LOG_ROWS:,} rows."
)


def upload_too_large(name: str, size: int, esc: Callable[[str], str] = str) -> str:
    """The error for a file over :data:`MAX_LOG_BYTES`."""
    return f"{esc(name)} is {size:,} bytes; a failure log may be at most {MAX_LOG_BYTES:,} bytes."


def default_nodes(data: bytes) -> int:
    """The page's fleet-size default: the ``# nodes=N`` comment the log states
    (models.failure_log.stated_nodes, as ``goodput fit`` reads it), else 0 (distinct ids)."""
    try:
        return stated_nodes(data) or 0
    except ValidationError:  # unreadable text: the fit says why
        return 0


def fit_caption(
    source: str, fit: LogFit, esc: Callable[[str], str] = str, stated: int | None = None
) -> str:
    """What was fitted: failures, incidents, span and nodes, and where the node count came
    from (``stated``: the count the log's ``# nodes=N`` comment gives)."""
    if fit.nodes == 0:
        return (
            f"{esc(source)}: {counted(fit.n_failures, 'failure')}, "
            f"{counted(fit.n_incidents, 'incident')} (identical timestamps = one incident) over "
            f"{fit.span_days:.1f} days, every one marked as the job's own: the log names no "
            f"node (enter the fleet under {NODES_LABEL} for the node failure rate's upper bound)"
        )
    if fit.nodes_from_log:
        origin = (
            " (distinct node ids in the log: nodes that never failed are not in it, so unless "
            f"the fleet is just these nodes the rate is too high; enter the fleet under "
            f"{NODES_LABEL})"
        )
    elif stated and fit.nodes == stated:
        origin = f" (stated in the log's comment # nodes={stated}; change it under {NODES_LABEL})"
    else:
        origin = f" (entered under {NODES_LABEL})"
    return (
        f"{esc(source)}: {counted(fit.n_failures, 'failure')}, "
        f"{counted(fit.n_incidents, 'incident')} (identical timestamps = one incident) over "
        f"{fit.span_days:.1f} days on {counted(fit.nodes, 'node')}" + origin
    )


def fit_tiles(fit: LogFit) -> list[dict[str, str]]:
    """Four tiles: the fitted node failure rate and per-node Weibull shape (their intervals
    in the help), the job's MTBF and the lemon-node count."""
    pct = f"{fit.confidence:.0%}"
    key = "fitted_node_failure_rate_per_day"
    rate = display.tile(key, fit.node_failure_rate_per_day)
    if fit.nodes == 0:
        rate["help"] = (
            f"No node failures; the log names no node, so the {pct} upper end needs the fleet "
            f"size ({NODES_LABEL}). " + rate["help"]
        )
    else:
        rate["help"] = (
            f"{pct} interval {display.cell(key, fit.node_failure_rate_per_day_lo)}"
            f" to {display.cell(key, fit.node_failure_rate_per_day_hi)}% "
            "(exact Poisson, of the node incidents). " + rate["help"]
        )
    n = fit.node_tbf
    shape = display.tile("fitted_weibull_shape", None if n is None else n["weibull_shape"])
    shape["label"] = "Weibull shape per node"
    shape["help"] = (
        f"Not estimable: {fit.node_tbf_why}."
        if n is None
        else f"{pct} interval {n['weibull_shape_lo']:.2f}–{n['weibull_shape_hi']:.2f} "
        "(censored MLE, profile likelihood, lemon nodes left out); below 1 means decreasing "
        "hazard. This is what the Monte Carlo simulator uses for each node."
    )
    return [
        rate,
        shape,
        display.tile("fitted_job_mtbf_hours", fit.tbf["exp_mean_h"]),
        display.tile("lemon_nodes", len(fit.lemons)),
    ]


#: Scenario fields holding a failure rate -> the output registry's format for them (% per
#: node-day, as the fit's tiles and tables show the rate), one format wherever a page shows
#: a rate.
RATE_FORMATS = {
    "reliability.node_failure_rate_per_day": "node_failure_rate_per_day",
    "reliability.node_failure_rate_low": "node_failure_rate_low",
    "reliability.node_failure_rate_high": "node_failure_rate_high",
}


#: Units of scenario inputs that are durations -> the output registry's format for that
#: unit (one decimal: "0.7 min", "30.0 min", "44.9 s"), as the recovery stages and the
#: fitted times read on the pages and in the CLI.
DURATION_FORMATS = {"min": "detection_minutes_expected", "s": "save_seconds"}


def input_value(key: str, value: object) -> str:
    """A scenario input as the page shows it: a failure rate in the registry's format for
    the rate (:data:`RATE_FORMATS`; an empty interval end is the fleet prior's), a duration
    in minutes or seconds in the registry's format for it (:data:`DURATION_FORMATS`: a
    fitted detection read "0.7095 min → 3 min"), anything else as
    :func:`display.field_value`."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if key in RATE_FORMATS and number:
        return display.format_value(RATE_FORMATS[key], value)
    if key in RATE_FORMATS and value is None:  # an empty interval end: the fleet prior's
        return "the fleet prior"
    if number and FIELDS[key].unit in DURATION_FORMATS:
        return display.format_value(DURATION_FORMATS[FIELDS[key].unit], value)
    return display.field_value(key, value)


def applied_message(applied: Mapping[str, float]) -> str:
    """After the "Use the fitted values" button: the inputs now set, in words."""
    return "Scenario updated: " + ", ".join(
        f"{FIELDS[key].label} = {input_value(key, value)}" for key, value in applied.items()
    )


def regular_gaps_text(fit: LogFit) -> str:
    """Why the job's Weibull is not estimable (models.fitting.fit_tbf), in words: every time
    between incidents is the same, or they differ by seconds around their mean."""
    mean = display.format_value("fitted_job_mtbf_hours", fit.tbf["exp_mean_h"])
    spread_s = fit.job_gap_spread_h * 3600.0
    # below 0.1 ms the gaps are equal: hours since 1970 carry ~0.2 µs of rounding
    if spread_s < 1e-4:
        return f"every time between incidents is {mean}"
    if spread_s < 60:
        spread = f"{spread_s:.3g} s"
    elif spread_s < 3600:
        spread = f"{spread_s / 60:.3g} min"
    else:
        spread = f"{spread_s / 3600:.3g} h"
    return f"the times between incidents differ by at most {spread} around {mean}"


def goodness_of_fit_text(fit: LogFit) -> str:
    """Which model AIC prefers and the likelihood-ratio test of exponential within Weibull
    (Markdown)."""
    t = fit.tbf
    intro = (
        "The chart and the tests below are for the **job's** time between incidents (all "
        "nodes pooled), which tends to exponential even when each node is Weibull; the "
        "per-node shape above is what the Monte Carlo simulator uses.\n\n"
    )
    if math.isnan(t["weibull_shape"]):
        why = regular_gaps_text(fit)
        return intro + (
            f"**Goodness of fit.** {why[0].upper()}{why[1:]}: too little spread to fit a "
            "Weibull (its likelihood still rises at shape 100), so only the exponential is "
            "fitted."
        )
    better = "Weibull" if t["aic_weibull"] < t["aic_exponential"] else "exponential"
    return intro + (
        f"**Goodness of fit.** AIC prefers the **{better}** model. Likelihood-ratio test of "
        f"exponential (k = 1) within Weibull: D = {t['lr_statistic']:,.2f}, "
        f"{display.p_text('p_value', t['lr_p_value'])}. KS p-values below are "
        "optimistic because the parameters were estimated from the same data."
    )


def lemon_caption(fit: LogFit) -> str:
    """How lemon nodes are flagged, with this log's counts."""
    n = fit.n_failures - fit.n_job_failures
    if n == 0:
        return "Test: no node failed in this log, so there is no node to flag."
    return (
        f"Test: under 'all {fit.nodes:,} nodes alike', a node's count is Binomial(n = "
        f"{n:,}, 1/{fit.nodes:,}); flagged when P(X ≥ count) × {fit.nodes:,} "
        "(Bonferroni) < 0.05. The test assumes memoryless nodes: with a per-node Weibull "
        "shape well below 1, failures cluster on a node by themselves and more nodes are "
        "flagged."
    )


def duplicates_text(duplicates: tuple[tuple[int, int], ...]) -> str:
    """What the reader dropped as repeated rows (models.failure_log.drop_duplicate_rows), in
    words, the first three named by row; "" when none was."""
    if not duplicates:
        return ""
    named = ", ".join(f"row {r} repeats row {first}" for r, first in duplicates[:3])
    more = len(duplicates) - 3
    tail = f" and {more:,} more" if more > 0 else ""
    verb = "repeats" if len(duplicates) == 1 else "repeat"
    return (
        f"{counted(len(duplicates), 'row')} of the log {verb} an earlier row cell for cell "
        f"(the same time, node, cause and downtime) and are not counted: {named}{tail}."
    )


def job_level_text(fit: LogFit) -> str:
    """The job-level interruption rate on its own line (issue 28's failure domains): the
    incidents the log marks as the job's own (node id "job", "*", "-" ...), which do not
    grow with the node count and are kept out of the node failure rate."""
    if fit.job_interruptions_per_day is None:
        return (
            "Job-level interruptions: none marked in this log (a failure whose node id is "
            "job, *, - or none counts as the job's own: software, user, data; Kokolis et al. "
            "2024), so every incident is counted as a node failure."
        )
    key = "job_interruptions_per_day"
    pct = f"{fit.confidence:.0%}"
    return (
        f"Job-level interruptions: {counted(fit.n_job_incidents, 'incident')} marked as the "
        "job's own "
        f"(node id job, *, - …), {display.format_value(key, fit.job_interruptions_per_day)} "
        f"({pct} interval {display.format_value(key, fit.job_interruptions_per_day_lo)} to "
        f"{display.format_value(key, fit.job_interruptions_per_day_hi)}; exact Poisson). They "
        "do not grow with the node count and are left out of the node failure rate above "
        "(Kokolis et al. 2024); the button below sets them as the scenario's "
        f"{FIELDS['reliability.job_interruptions_per_day'].label}."
    )
