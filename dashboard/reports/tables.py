"""The report's numbers as one tidy table (polars), for CSV and Parquet.

One row per number: ``table`` (metrics, loss_breakdown, comparison), ``role`` (scenario,
baseline, candidate, comparison), ``scenario`` (its name), ``key`` (the JSON key of
``goodput evaluate --json``, or ``<component>.<column>`` for the breakdown), ``label``,
``value`` (Float64, in the unit the key names) and ``unit``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
from goodput_lab.models import Evaluation

from .content import Report, metric_label, metric_unit

SCHEMA = {
    "table": pl.String,
    "role": pl.String,
    "scenario": pl.String,
    "key": pl.String,
    "label": pl.String,
    "value": pl.Float64,
    "unit": pl.String,
}

BREAKDOWN_COLUMNS = {
    "minutes_per_day": "min/day",
    "usd_per_day": "USD/day",
    "fraction_of_wall_time": "fraction",
}


def _evaluation_rows(ev: Evaluation, role: str) -> list[dict]:
    rows = []
    name = ev.scenario.name
    values = {**ev.metrics, **ev.value_of_reliability}
    for key, value in values.items():
        unit = metric_unit(key)
        rows.append(
            {
                "table": "metrics",
                "role": role,
                "scenario": name,
                "key": key,
                "label": metric_label(key),
                "value": float(value),
                "unit": "fraction" if unit == "%" else unit,
            }
        )
    for row in ev.loss_breakdown():
        for col, unit in BREAKDOWN_COLUMNS.items():
            rows.append(
                {
                    "table": "loss_breakdown",
                    "role": role,
                    "scenario": name,
                    "key": f"{row['component']}.{col}",
                    "label": f"{row['label']}: {col.replace('_', ' ')}",
                    "value": float(row[col]),
                    "unit": unit,
                }
            )
    return rows


def report_table(report: Report) -> pl.DataFrame:
    """Every number of the report in one long table (see the module docstring)."""
    c = report.comparison
    if c is None:
        rows = _evaluation_rows(report.evaluation, "scenario")
    else:
        rows = _evaluation_rows(c.baseline, "baseline") + _evaluation_rows(c.candidate, "candidate")
        name = f"{c.baseline.scenario.name} -> {c.candidate.scenario.name}"
        for key, value in c.to_json_dict().items():
            if key.startswith(("goodput_delta", "savings_")):
                rows.append(
                    {
                        "table": "comparison",
                        "role": "comparison",
                        "scenario": name,
                        "key": key,
                        "label": metric_label(key),
                        "value": float(value),
                        "unit": "fraction" if key.startswith("goodput") else metric_unit(key),
                    }
                )
    if report.montecarlo is not None:
        mc = report.montecarlo
        for key, value in mc.values.items():
            rows.append(
                {
                    "table": "montecarlo",
                    "role": "scenario" if c is None else "baseline",
                    "scenario": report.scenario.name,
                    "key": key,
                    "label": f"Monte Carlo ({mc.trials} runs, seed {mc.seed}): {key}",
                    "value": float(value),
                    "unit": "fraction" if key.startswith("goodput") else metric_unit(key),
                }
            )
    if report.ladder is not None:
        rows.extend(_ladder_rows(report))
    return pl.DataFrame(rows, schema=SCHEMA)


LADDER_COLUMNS = {
    "goodput": "fraction",
    "lost_usd_per_day": "USD/day",
    "delta_goodput_points": "points",
    "delta_usd_per_day": "USD/day",
}


def _ladder_rows(report: Report) -> list[dict]:
    """The resilience ladder: per rung, ``rung_<i>.<key>`` as in ``goodput ladder --json``."""
    rows = []
    lad = report.ladder
    for i, rung in enumerate(lad.rungs):
        data = rung.to_json_dict(lad.base)
        for key, unit in LADDER_COLUMNS.items():
            rows.append(
                {
                    "table": "resilience_ladder",
                    "role": "scenario" if report.comparison is None else "baseline",
                    "scenario": report.scenario.name,
                    "key": f"rung_{i}.{key}",
                    "label": f"{i}. {data['label']}: {metric_label(key)}",
                    "value": float(data[key]),
                    "unit": unit,
                }
            )
    return rows


def write_csv(report: Report, path: str | Path) -> None:
    report_table(report).write_csv(path)


def write_parquet(report: Report, path: str | Path) -> None:
    report_table(report).write_parquet(path)


def read_table(path: str | Path) -> pl.DataFrame:
    """Read a table written by :func:`write_csv` or :func:`write_parquet`."""
    p = Path(path)
    if p.suffix.lower() == ".parquet":
        return pl.read_parquet(p)
    return pl.read_csv(p, schema=SCHEMA)
