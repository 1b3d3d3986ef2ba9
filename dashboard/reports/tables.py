"""The report's numbers as one tidy table (polars), for CSV and Parquet.

One row per number: ``table`` (metrics, loss_breakdown, comparison), ``role`` (scenario,
baseline, candidate, comparison), ``scenario`` (its name), ``key`` (the JSON key of
``goodput evaluate --json``, or ``<component>.<column>`` for the breakdown), ``label``,
``value`` (Float64, in the unit the key names) and ``unit``.

Every CSV or Parquet file the project writes goes through :func:`table_bytes` /
:func:`write_table`, which first apply :func:`neutralise_formulas`: a text cell that a
spreadsheet would run as a formula (a scenario named ``=HYPERLINK(...)``) is written as text.
"""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl
from goodput_lab.models import Evaluation
from goodput_lab.models._files import write_atomic
from goodput_lab.models.references import REFERENCES

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
    return pl.DataFrame(rows, schema=SCHEMA)


#: First characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection:
#: equals, plus, minus, at, tab, carriage return).
FORMULA_START = r"^[=+\-@\t\r]"
FORMULA_SOURCE = REFERENCES["owasp_csv"]


def neutralise_formulas(table: pl.DataFrame) -> pl.DataFrame:
    """``table`` with every text cell that starts with ``= + - @``, tab or CR prefixed by a
    single quote, as OWASP recommends for CSV exports (:data:`FORMULA_SOURCE`); spreadsheets
    then show the text instead of running it.  Numeric columns are left as numbers (a
    negative value stays a number); text columns only, including inside lists.
    """
    exprs = []
    for name, dtype in table.schema.items():
        col = pl.col(name)
        if dtype == pl.String:
            exprs.append(_neutral(col).alias(name))
        elif dtype == pl.List(pl.String):
            exprs.append(col.list.eval(_neutral(pl.element())).alias(name))
    return table.with_columns(exprs) if exprs else table


def _neutral(expr: pl.Expr) -> pl.Expr:
    return pl.when(expr.str.contains(FORMULA_START)).then("'" + expr).otherwise(expr)


def table_bytes(table: pl.DataFrame, fmt: str) -> bytes:
    """``table`` as ``.csv`` or ``.parquet`` bytes, formula-like text neutralised."""
    safe = neutralise_formulas(table)
    buf = io.BytesIO()
    if fmt == ".csv":
        safe.write_csv(buf)
    elif fmt == ".parquet":
        safe.write_parquet(buf)
    else:
        raise ValueError(f"{fmt!r} is not .csv or .parquet")
    return buf.getvalue()


def write_table(table: pl.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
    """Write ``table`` as ``fmt`` (``.csv``/``.parquet``; default: the extension of
    ``path``): formula-like text neutralised, written atomically (a failed write keeps any
    previous file)."""
    p = Path(path)
    return write_atomic(p, table_bytes(table, fmt or p.suffix.lower()))


def write_csv(report: Report, path: str | Path) -> None:
    write_table(report_table(report), path, ".csv")


def write_parquet(report: Report, path: str | Path) -> None:
    write_table(report_table(report), path, ".parquet")


def read_table(path: str | Path) -> pl.DataFrame:
    """Read a table written by :func:`write_csv` or :func:`write_parquet`."""
    p = Path(path)
    if p.suffix.lower() == ".parquet":
        return pl.read_parquet(p)
    return pl.read_csv(p, schema=SCHEMA)
