"""Tables behind the Optimizer page: recommended interval, spares and instance, and savings."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from goodput_lab.models import Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models import optimize as opt
from goodput_lab.models.catalog import Instance


def interval_curve(scenario: Scenario, catalog: dict[str, Instance], n: int = 200) -> pl.DataFrame:
    """Goodput and lost USD/day over checkpoint intervals around the optimum (log-spaced)."""
    inputs = resolve_inputs(scenario, catalog)
    base = evaluate_arrays(inputs)
    tau_opt = float(base["optimal_checkpoint_interval_minutes"])
    now = float(base["checkpoint_interval_minutes"])
    centre = tau_opt if math.isfinite(tau_opt) else now
    lo = max(0.1, min(centre, now) / 8)
    hi = min(10_080.0, max(centre, now) * 8)
    taus = np.geomspace(lo, hi, n)
    out = evaluate_arrays(
        {**inputs, "checkpoint.interval_minutes": taus, "checkpoint.interval_optimal": False},
        broadcast=True,
    )
    return pl.DataFrame(
        {
            "interval_minutes": taus,
            "goodput_pct": np.asarray(out["goodput"]) * 100,
            "lost_usd_per_day": np.asarray(out["lost_usd_per_day"]),
        }
    )


def spares_view_limit(rec: opt.SpareRecommendation) -> int:
    """Largest spare count worth drawing: past break-even and the current count."""
    top = max(20, 2 * rec.break_even_spares + 2, rec.current_spares + 5, rec.spares + 5)
    return min(top, rec.savings_vs_none_usd_per_day.size - 1)


def spares_table(
    rec: opt.SpareRecommendation, price_usd_per_h: float, limit: int | None = None
) -> pl.DataFrame:
    """Net savings versus no spares and the marginal value of each spare [USD/day]."""
    n = rec.savings_vs_none_usd_per_day.size if limit is None else limit + 1
    sav = rec.savings_vs_none_usd_per_day[:n]
    marginal = np.concatenate([[0.0], rec.marginal_usd_per_day])[:n]
    return pl.DataFrame(
        {
            "spares": np.arange(sav.size),
            "net_savings_usd_per_day": sav,
            "marginal_usd_per_day": marginal,
            "spare_cost_usd_per_day": np.arange(sav.size) * price_usd_per_h * 24.0,
        }
    )


def recommend(
    scenario: Scenario, catalog: dict[str, Instance], deadline_days: float | None = None
) -> opt.Optimization:
    """Recommended interval, spares and instance type (:func:`models.optimize.optimize`)."""
    return opt.optimize(scenario, catalog, deadline_days)


def domain_spares_rows(rec: opt.DomainSpareRecommendation) -> list[dict]:
    """One row per spares-by-domain policy (:func:`models.optimize.recommend_domain_spares`),
    keyed by registry outputs, the recommended one marked."""
    rows = []
    for o in rec.options:
        rows.append(
            {
                "policy": o.label() + (" (recommended)" if o == rec.best else ""),
                "domain_spare_nodes": o.spare_nodes,
                "spare_usd_per_day": o.spare_usd_per_day,
                "goodput": o.goodput,
                "step_seconds": o.step_seconds,
                "savings_usd_per_day": o.savings_usd_per_day,
            }
        )
    return rows
