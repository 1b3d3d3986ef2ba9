"""Tables behind the Failure log page: parse + fit an upload, results as polars frames.

No Streamlit here and no model math: everything numeric comes from models.failure_log and
models.fitting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl
from goodput_lab.models import FIELDS
from goodput_lab.models._resources import data_path
from goodput_lab.models.failure_log import FailureLog, parse_failure_log
from goodput_lab.models.fitting import LogFit, fit_failure_log, incident_gaps_h, tbf_survival

SAMPLE_LOG = data_path("failure_logs", "synthetic-sample.csv")
RATE_KEY = "reliability.node_failure_rate_per_day"
SHAPE_KEY = "reliability.weibull_shape"


@dataclass(frozen=True)
class FittedLog:
    log: FailureLog
    fit: LogFit


def sample_log_bytes() -> bytes:
    """The shipped SYNTHETIC sample log (scripts/make_sample_log.py)."""
    return SAMPLE_LOG.read_bytes()


def fit_log(data: bytes, mapping: Mapping[str, str] | None, nodes: int | None) -> FittedLog:
    """Parse and fit; raises models.ValidationError naming row and column on bad input."""
    log = parse_failure_log(data, mapping)
    return FittedLog(log=log, fit=fit_failure_log(log, nodes))


def estimates_table(fit: LogFit) -> pl.DataFrame:
    """Fitted quantities with their interval, unit and method."""
    t = fit.tbf
    rows = [
        (
            "Node failure rate",
            100 * fit.node_failure_rate_per_day,
            100 * fit.node_failure_rate_per_day_lo,
            100 * fit.node_failure_rate_per_day_hi,
            "% per node-day",
            "MLE; exact chi-square interval (exponential gaps)",
        ),
        (
            "Job MTBF (exponential)",
            t["exp_mean_h"],
            1 / t["exp_rate_per_h_hi"],
            1 / t["exp_rate_per_h_lo"],
            "h",
            "MLE = mean gap; interval from the rate's",
        ),
        (
            "Job TBF Weibull shape k",
            t["weibull_shape"],
            t["weibull_shape_lo"],
            t["weibull_shape_hi"],
            "",
            "MLE; profile-likelihood interval",
        ),
        (
            "Job TBF Weibull scale η",
            t["weibull_scale_h"],
            t["weibull_scale_h_lo"],
            t["weibull_scale_h_hi"],
            "h",
            "MLE; Wald interval on log scale (observed information)",
        ),
    ]
    n = fit.node_tbf
    if n is not None:
        rows.insert(
            1,
            (
                "Per-node Weibull shape k",
                n["weibull_shape"],
                n["weibull_shape_lo"],
                n["weibull_shape_hi"],
                "",
                f"censored MLE ({n['n_gaps']:.0f} + {n['n_censored']:.0f} censored gaps, "
                "no lemons); profile likelihood",
            ),
        )
    return pl.DataFrame(
        rows, schema=["quantity", "estimate", "lower", "upper", "unit", "method"], orient="row"
    )


def goodness_of_fit_table(fit: LogFit) -> pl.DataFrame:
    """AIC, log-likelihood and KS distance per model; LR test of exponential within Weibull."""
    t = fit.tbf
    return pl.DataFrame(
        {
            "model": ["Exponential", "Weibull"],
            "log_likelihood": [t["loglik_exponential"], t["loglik_weibull"]],
            "aic": [t["aic_exponential"], t["aic_weibull"]],
            "ks_distance": [t["ks_exponential"], t["ks_weibull"]],
            "ks_p_optimistic": [t["ks_exponential_p_optimistic"], t["ks_weibull_p_optimistic"]],
        }
    )


def cause_table(fit: LogFit) -> pl.DataFrame:
    """Per-cause failures, shares (log vs Llama 3) and rates per node-day in %."""
    df = pl.DataFrame(fit.causes)
    return df.select(
        "label",
        "group",
        "failures",
        (pl.col("share") * 100).alias("share_pct"),
        (pl.col("llama3_share") * 100).alias("llama3_share_pct"),
        (pl.col("rate_per_node_day") * 100).alias("rate_pct_per_node_day"),
        (pl.col("rate_per_node_day_lo") * 100).alias("rate_lo"),
        (pl.col("rate_per_node_day_hi") * 100).alias("rate_hi"),
        "causes_in_log",
    ).sort("failures", descending=True)


def lemon_table(fit: LogFit) -> pl.DataFrame:
    schema = {
        "node_id": pl.String,
        "failures": pl.Int64,
        "expected_failures": pl.Float64,
        "p_value": pl.Float64,
        "p_value_bonferroni": pl.Float64,
    }
    return pl.DataFrame(fit.lemons, schema=schema)


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


def scenario_values(fit: LogFit) -> tuple[dict[str, float], list[str]]:
    """Fitted values for the scenario fields, and messages for any outside a field's range."""
    values: dict[str, float] = {}
    problems: list[str] = []
    for key, value in ((RATE_KEY, fit.node_failure_rate_per_day), (SHAPE_KEY, fit.weibull_shape)):
        f = FIELDS[key]
        if value is None:
            problems.append(
                f"{key}: not estimable from this log (no node failed twice); left unchanged"
            )
        elif (f.min is not None and value < f.min) or (f.max is not None and value > f.max):
            problems.append(f"{key}: fitted {value:.4g} is out of range ({f.allowed()})")
        else:
            values[key] = float(value)
    return values, problems
