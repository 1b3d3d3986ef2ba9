"""Tables behind the Overview page: assumptions, loss breakdown, goodput-vs-rate sweep."""

from __future__ import annotations

import numpy as np
import polars as pl
from goodput_lab.models import FIELDS, Evaluation, Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models.catalog import Instance
from goodput_lab.models.pricing import Price


def display_value(key: str, value) -> str:
    """A field value as shown to people (fractions shown in %, None as 'from catalog')."""
    f = FIELDS[key]
    if value is None:
        return "from catalog" if f.kind != "str" else "not set"
    if isinstance(value, str):
        return value
    if f.scale == 100.0:
        return f"{value * 100:.4g} %"
    if f.kind == "int":
        return f"{value:,}"
    return f"{value:,.6g}"


def assumptions_table(scenario: Scenario, instance: Instance, price: Price) -> pl.DataFrame:
    """Every input with its value, unit and provenance (for the page and the reports).

    The price row shows the price in force, wherever it comes from, with its source and date.
    """
    rows = []
    for key, f in FIELDS.items():
        value = scenario[key]
        source = f.help
        shown = display_value(key, value)
        if key == "pricing.usd_per_instance_hour":
            origin = "catalog" if value is None else "scenario"
            shown = f"{price.usd_per_instance_hour:,.4g} ({origin}, as of {price.as_of})"
            source = price.source
        rows.append(
            {
                "field": key,
                "label": f.label,
                "value": shown,
                "unit": f.unit,
                "default": display_value(key, f.default),
                "source / meaning": source,
            }
        )
    rows.append(
        {
            "field": "catalog." + instance.instance,
            "label": "Instance specs",
            "value": f"{instance.accelerators_per_node} × {instance.accelerator}",
            "unit": "",
            "default": "",
            "source / meaning": instance.source_specs,
        }
    )
    return pl.DataFrame(rows)


def loss_table(ev: Evaluation) -> pl.DataFrame:
    """Loss components in minutes/day, USD/day and goodput points (sums to 1 − goodput).

    The ``kind = "cost"`` rows (idle hot spares, checkpoint storage) cost dollars but no wall
    time; :func:`wall_time_losses` leaves them out (for the waterfall of wall time).
    """
    df = pl.DataFrame(ev.loss_breakdown())
    return df.with_columns((pl.col("fraction_of_wall_time") * 100).alias("goodput_points"))


def wall_time_losses(losses: pl.DataFrame) -> pl.DataFrame:
    """Only the components that take wall-clock time."""
    return losses.filter(pl.col("kind") == "time") if "kind" in losses.columns else losses


def goodput_vs_rate(
    scenario: Scenario, catalog: dict[str, Instance], max_rate: float | None = None, n: int = 121
) -> pl.DataFrame:
    """Goodput (exact and first order) and lost USD/day over a node-failure-rate sweep.

    One vectorised call of :func:`models.evaluate_arrays` over ``n`` rates.
    """
    inputs = resolve_inputs(scenario, catalog)
    r0 = float(scenario["reliability.node_failure_rate_per_day"])
    hi = max_rate if max_rate is not None else max(0.01, 2.5 * r0)
    rates = np.linspace(0.0, hi, n)
    out = evaluate_arrays({**inputs, "reliability.node_failure_rate_per_day": rates})
    return pl.DataFrame(
        {
            "node_failure_rate_pct": rates * 100,
            "goodput_pct": np.asarray(out["goodput"]) * 100,
            "goodput_first_order_pct": np.asarray(out["goodput_first_order"]) * 100,
            "lost_usd_per_day": np.asarray(out["lost_usd_per_day"]),
        }
    )
