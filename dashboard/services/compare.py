"""Tables behind the Compare page: every metric side by side, the delta waterfall, savings."""

from __future__ import annotations

import math

import polars as pl
from goodput_lab.models import Comparison, Scenario, ValidationError, compare, load_preset
from goodput_lab.models.catalog import Instance
from goodput_lab.models.evaluate import LOSS_COMPONENTS

MINUTES_PER_DAY = 1440.0
DAYS_PER_YEAR = 365.25


def run(baseline: Scenario, candidate: Scenario, catalog: dict[str, Instance]) -> Comparison:
    """``models.compare`` (raises models.ValidationError for a bad scenario)."""
    return compare(baseline, candidate, catalog)


def metrics_table(cmp: Comparison) -> pl.DataFrame:
    """Every metric of both evaluations with the difference (candidate − baseline)."""
    b, c = cmp.baseline.metrics, cmp.candidate.metrics
    keys = [k for k in b if k in c]
    extra = [
        (k, cmp.baseline.value_of_reliability[k], cmp.candidate.value_of_reliability[k])
        for k in cmp.baseline.value_of_reliability
        if k in cmp.candidate.value_of_reliability
    ]
    rows = [(k, b[k], c[k]) for k in keys] + extra
    return pl.DataFrame(
        {
            "metric": [r[0] for r in rows],
            "baseline": [_finite(r[1]) for r in rows],
            "candidate": [_finite(r[2]) for r in rows],
            "delta": [_finite(r[2] - r[1]) for r in rows],
        },
        schema={
            "metric": pl.String,
            "baseline": pl.Float64,
            "candidate": pl.Float64,
            "delta": pl.Float64,
        },
    )


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def delta_waterfall(cmp: Comparison) -> pl.DataFrame:
    """Where the savings per day come from, one row per loss component plus running cost.

    Each component's contribution is its lower loss in minutes/day valued at the baseline's
    cluster cost per minute; the "step time" row is the value of faster (or slower) steps,
    g_c·(r − 1)·cluster_b with r the ratio of productive training times; the "running
    cost" row is the difference in what the two clusters cost per day (price, nodes, hot
    spares).  The rows add up to
    ``cmp.savings_usd_per_day`` because the loss components add up to 1 − goodput.
    Components come from ``models.evaluate.LOSS_COMPONENTS``, so new ones appear here.
    """
    b, c = cmp.baseline.metrics, cmp.candidate.metrics
    usd_per_min = b["cluster_usd_per_day"] / MINUTES_PER_DAY
    rows = []
    for name, label in LOSS_COMPONENTS.items():
        key = f"loss_{name}_minutes_per_day"
        saved_min = b.get(key, 0.0) - c.get(key, 0.0)
        rows.append(
            {
                "component": name,
                "label": label,
                "minutes_per_day_saved": saved_min,
                "goodput_points": saved_min / MINUTES_PER_DAY * 100,
                "usd_per_day": saved_min * usd_per_min,
            }
        )
    rows.append(
        {
            "component": "step_time",
            "label": "Step time (network, accelerator, parallelism)",
            "minutes_per_day_saved": 0.0,
            "goodput_points": 0.0,
            "usd_per_day": cmp.step_time_savings_usd_per_day,
        }
    )
    running = b["total_usd_per_day"] - c["total_usd_per_day"]
    rows.append(
        {
            "component": "running_cost",
            "label": "Running cost (price, nodes, spares)",
            "minutes_per_day_saved": 0.0,
            "goodput_points": 0.0,
            "usd_per_day": running,
        }
    )
    return pl.DataFrame(rows)


def savings(cmp: Comparison) -> dict[str, float]:
    """Savings per day, month (365.25/12 days) and year (365.25 days) [USD]."""
    d = cmp.savings_usd_per_day
    return {
        "per_day": d,
        "per_month": d * DAYS_PER_YEAR / 12,
        "per_year": d * DAYS_PER_YEAR,
        "goodput_delta": cmp.goodput_delta,
    }


CURRENT = "Current scenario (sidebar)"
UPLOAD = "Uploaded TOML file"
PRESET_PREFIX = "Preset: "


def sources(presets: list[str]) -> list[str]:
    """Choices for where a side of the comparison comes from."""
    return [CURRENT, *(PRESET_PREFIX + p for p in presets), UPLOAD]


def build(source: str, current: Scenario, upload: Scenario | None, edits: str) -> Scenario | None:
    """The scenario for one side: its source plus ``section.key=value`` edits (one a line).

    ``None`` when the source is an upload that has not happened yet.  Edits go through the
    same validation as the command line's ``--set`` (models.ValidationError names the field).
    """
    if source == CURRENT:
        base = current
    elif source == UPLOAD:
        if upload is None:
            return None
        base = upload
    elif source.startswith(PRESET_PREFIX):
        base = load_preset(source.removeprefix(PRESET_PREFIX))
    else:
        raise ValidationError("comparison source", f"{source!r} is not one of the choices")
    lines = [ln.strip() for ln in edits.splitlines() if ln.strip() and not ln.startswith("#")]
    return base.with_overrides(lines) if lines else base
