"""The report's numbers as one tidy table (polars), for CSV and Parquet.

One row per figure: ``table`` (inputs, metrics, loss_breakdown, badput: ``<BUCKET>.<column>``
per ml-goodput-measurement bucket, comparison, montecarlo, resilience_ladder,
recommendations, instances: ``<instance>.<key>`` per catalog type),
``role`` (scenario, baseline, candidate, candidate 2 ..., comparison), ``scenario`` (its name), ``key`` (the
field key for inputs, the JSON key of ``goodput evaluate --json`` for outputs, or
``<component>.<column>`` for the breakdown), ``label``, ``value`` (Float64, in the unit the
key names; empty for text), ``text`` (the value as the dashboard and reports show it),
``unit`` and ``source`` (for an input, where its value or default comes from; for an output,
its meaning, formula and reference, from the output registry).  The inputs come first, so a
file handed on carries its assumptions next to its results.

Every CSV or Parquet file the project writes goes through :func:`table_bytes` /
:func:`write_table`.  A CSV file first goes through :func:`neutralise_formulas`: a text cell
that a spreadsheet would run as a formula (a scenario named ``=HYPERLINK(...)``) is written
as text.  A Parquet file keeps its text as it is: its cells are typed strings that no
spreadsheet runs as a formula, and the guard's quote would only corrupt them
(``'+0.27 points``).
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import polars as pl

from goodput_lab.models import Evaluation
from goodput_lab.models._files import write_atomic
from goodput_lab.models._text import counted
from goodput_lab.models.outputs import OUTPUTS
from goodput_lab.models.references import REFERENCES
from goodput_lab.views.overview import assumptions_table

from .content import Report, format_value

SCHEMA = {
    "table": pl.String,
    "role": pl.String,
    "scenario": pl.String,
    "key": pl.String,
    "label": pl.String,
    "value": pl.Float64,
    "text": pl.String,
    "unit": pl.String,
    "source": pl.String,
}

BREAKDOWN_COLUMNS = {
    "minutes_per_day": ("min/day", "loss_{}_minutes_per_day"),
    "usd_per_day": ("USD/day", "loss_{}_usd_per_day"),
    "fraction_of_wall_time": ("fraction", None),
}


def _row(table: str, role: str, name: str, key: str, value, **kw) -> dict:
    o = OUTPUTS.get(key)
    text_value = isinstance(value, str)
    return {
        "table": table,
        "role": role,
        "scenario": name,
        "key": key,
        "label": kw.get("label") or (o.label if o else key),
        "value": None if text_value or value is None else float(value),
        "text": kw.get("text") or (format_value(key, value) if o else str(value)),
        "unit": kw.get("unit", o.unit if o else ""),
        "source": kw.get("source") or (o.help() if o else ""),
    }


def _input_rows(ev: Evaluation, role: str) -> list[dict]:
    rows = []
    name = ev.scenario.name
    inputs = assumptions_table(ev.scenario, ev.instance, ev.price)
    for r in inputs.iter_rows(named=True):
        value = ev.scenario.values.get(r["field"])
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        rows.append(
            {
                "table": "inputs",
                "role": role,
                "scenario": name,
                "key": r["field"],
                "label": r["label"],
                "value": float(value) if numeric else None,
                "text": r["value"],
                "unit": r["unit"],
                "source": r["source / meaning"],
            }
        )
    return rows


def _evaluation_rows(ev: Evaluation, role: str) -> list[dict]:
    rows = _input_rows(ev, role)
    name = ev.scenario.name
    values = {**ev.metrics, **ev.value_of_reliability, **ev.texts}
    for key, value in values.items():
        rows.append(_row("metrics", role, name, key, value))
    cost_keys = {"spares": "spare_usd_per_day", "storage": "storage_usd_per_day"}
    for row in ev.loss_breakdown():
        for col, (unit, key_pattern) in BREAKDOWN_COLUMNS.items():
            key = key_pattern.format(row["component"]) if key_pattern else None
            if row.get("kind") == "cost":  # dollar-only lines: no wall time
                key = cost_keys[row["component"]] if col == "usd_per_day" else None
            if key:
                text = format_value(key, row[col])
            elif col == "minutes_per_day":
                text = f"{row[col]:,.1f} min/day"
            else:
                text = f"{100 * row[col]:.2f}% of wall time"
            rows.append(
                _row(
                    "loss_breakdown",
                    role,
                    name,
                    f"{row['component']}.{col}",
                    row[col],
                    label=f"{row['label']}: {col.replace('_', ' ')}",
                    text=text,
                    unit=unit,
                    source=OUTPUTS[key].help() if key else "",
                )
            )
    rows.extend(_badput_rows(ev, role))
    return rows


def _badput_rows(ev: Evaluation, role: str) -> list[dict]:
    """The predicted losses in ml-goodput-measurement's badput buckets
    (:meth:`Evaluation.badput`, ``goodput evaluate --json``'s ``badput``): per bucket,
    ``<BUCKET>.minutes_per_day`` and ``<BUCKET>.usd_per_day``."""
    rows = []
    source = OUTPUTS["badput_bucket"].help()
    for r in ev.badput():
        for col, words, unit, text in (
            (
                "minutes_per_day",
                "minutes per day",
                "min/day",
                f"{r['minutes_per_day']:,.1f} min/day",
            ),
            (
                "usd_per_day",
                "lost per day",
                "USD/day",
                format_value("lost_usd_per_day", r["usd_per_day"]),
            ),
        ):
            rows.append(
                _row(
                    "badput",
                    role,
                    ev.scenario.name,
                    f"{r['badput_bucket']}.{col}",
                    r[col],
                    label=f"{r['bucket_label']}: {words}",
                    text=text,
                    unit=unit,
                    source=source,
                )
            )
    return rows


def report_table(report: Report) -> pl.DataFrame:
    """Every figure of the report, inputs first, in one long table (module docstring)."""
    c = report.comparison
    cmps = [b.comparison for b in report.comparisons] or ([c] if c is not None else [])
    if not cmps:
        rows = _evaluation_rows(report.evaluation, "scenario")
    else:
        rows = _evaluation_rows(cmps[0].baseline, "baseline")
        for i, k in enumerate(cmps, 1):
            role = "candidate" if i == 1 else f"candidate {i}"
            rows += _evaluation_rows(k.candidate, role)
        for k in cmps:
            name = f"{k.baseline.scenario.name} -> {k.candidate.scenario.name}"
            for key, value in k.to_json_dict().items():
                # the figures, not savings_by_component's rows (the waterfall's, per part)
                if key.startswith(("goodput_delta", "savings_")) and not isinstance(value, list):
                    rows.append(_row("comparison", "comparison", name, key, value))
    if report.montecarlo is not None:
        mc = report.montecarlo
        for key, value in mc.values.items():
            rows.append(
                _row(
                    "montecarlo",
                    "scenario" if c is None else "baseline",
                    report.scenario.name,
                    key,
                    value,
                    label=f"Monte Carlo ({counted(mc.trials, 'run')}, seed {mc.seed}): "
                    + (OUTPUTS[key].label if key in OUTPUTS else key),
                )
            )
    if report.ladder is not None:
        rows.extend(_ladder_rows(report))
    rows.extend(_recommendation_rows(report))
    rows.extend(_record_rows(report, "instances", report.instances))
    return pl.DataFrame(rows, schema=SCHEMA)


def _recommendation_rows(report: Report) -> list[dict]:
    """The checkpoint and hot-spare recommendation (:attr:`Report.recommendations`, the
    full report's "Checkpointing and hot spares" section): its figures that the evaluation
    does not carry, as the section shows them."""
    role = "scenario" if report.comparison is None else "baseline"
    own = report.all_metrics
    return [
        _row(
            "recommendations",
            role,
            report.scenario.name,
            m.key,
            m.value,
            label=m.label,
            text=m.text,
            unit=m.unit,
        )
        for m in report.recommendations
        if m.key not in own
    ]


def _record_rows(report: Report, table: str, records) -> list[dict]:
    """A table of the report by row (:attr:`Report.instances`): ``<row>.<key>`` for each
    registered figure of each row, the row named by its first value (the instance type)."""
    rows = []
    role = "scenario" if report.comparison is None else "baseline"
    for rec in records:
        items = list(rec.items())
        if not items:
            continue
        name = str(items[0][1])
        for key, value in items[1:]:
            o = OUTPUTS.get(key)
            if o is None:
                continue
            numeric = isinstance(value, int | float) and not isinstance(value, bool)
            finite = numeric and math.isfinite(float(value))
            rows.append(
                {
                    "table": table,
                    "role": role,
                    "scenario": report.scenario.name,
                    "key": f"{name}.{key}",
                    "label": f"{name}: {o.label}",
                    "value": float(value) if finite else None,
                    "text": format_value(key, value) if value is not None else "n/a",
                    "unit": o.unit,
                    "source": o.help(),
                }
            )
    return rows


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
                _row(
                    "resilience_ladder",
                    "scenario" if report.comparison is None else "baseline",
                    report.scenario.name,
                    key,
                    data[key],
                    label=f"{i}. {data['label']}: {OUTPUTS[key].label}",
                    unit=unit,
                )
                | {"key": f"rung_{i}.{key}"}
            )
    return rows


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
    """``table`` as ``.csv`` bytes, formula-like text neutralised (OWASP's guard is for
    CSV files a spreadsheet opens), or as ``.parquet`` bytes with its text unchanged."""
    buf = io.BytesIO()
    if fmt == ".csv":
        neutralise_formulas(table).write_csv(buf)
    elif fmt == ".parquet":
        table.write_parquet(buf)
    else:
        raise ValueError(f"{fmt!r} is not .csv or .parquet")
    return buf.getvalue()


def write_table(table: pl.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
    """Write ``table`` as ``fmt`` (``.csv``/``.parquet``; default: the extension of
    ``path``): in a CSV file formula-like text neutralised (:func:`table_bytes`), written
    atomically (a failed write keeps any previous file)."""
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
