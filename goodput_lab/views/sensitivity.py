"""Tables behind the Sensitivity page: tornado rows and 2-D heatmap grids (polars)."""

from __future__ import annotations

import numpy as np
import polars as pl

from goodput_lab.models import FIELDS, Evaluation, Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models import sensitivity as sens
from goodput_lab.models.catalog import Instance
from goodput_lab.views import display

METRICS = {
    "goodput": ("Goodput", "%", 100.0),
    "lost_usd_per_day": ("Lost per day", "$/day", 1.0),
}
RATE = "reliability.node_failure_rate_per_day"
INTERVAL = "checkpoint.interval_minutes"
NODES = "cluster.nodes"
HEATMAPS = {
    "rate_x_interval": (INTERVAL, RATE),
    "nodes_x_rate": (NODES, RATE),
}


def _label(key: str) -> str:
    return display.field_label(key)


def tornado_table(
    scenario: Scenario, catalog: dict[str, Instance], fraction: float
) -> pl.DataFrame:
    """One row per input: its low/high value and both metrics there, sorted by goodput swing.

    Values are in display units (fractions in %).  Inputs with no effect on either metric
    are kept (``swing`` 0) so the page can say so.
    """
    t = sens.tornado(resolve_inputs(scenario, catalog), fraction, metrics=tuple(METRICS))
    rows = []
    for i, key in enumerate(t["keys"]):
        f = FIELDS[key]
        row = {
            "field": key,
            "label": _label(key),
            "base_value": t["base_value"][i] * f.scale,
            "low_value": t["low_value"][i] * f.scale,
            "high_value": t["high_value"][i] * f.scale,
            "base_text": display.field_value(key, _native(f, t["base_value"][i])),
            "low_text": display.field_value(key, _native(f, t["low_value"][i])),
            "high_text": display.field_value(key, _native(f, t["high_value"][i])),
            "clipped": bool(t["low_clipped"][i] or t["high_clipped"][i]),
        }
        for m, (_, _, scale) in METRICS.items():
            row[f"{m}_base"] = t["base"][m] * scale
            row[f"{m}_low"] = float(t["low"][m][i]) * scale
            row[f"{m}_high"] = float(t["high"][m][i]) * scale
            row[f"{m}_swing"] = float(t["swing"][m][i]) * scale
        rows.append(row)
    df = pl.DataFrame(rows)
    return df.sort(["goodput_swing", "lost_usd_per_day_swing"], descending=True)


def _native(f, value: float):
    """A swept value in the field's own type (ints stay whole)."""
    return round(float(value)) if f.kind == "int" else float(value)


def tornado_display(df: pl.DataFrame) -> pl.DataFrame:
    """The tornado table in words: each input's value and the values it is moved to."""
    rows = df.to_dicts()
    return pl.DataFrame(
        {
            "Input": [r["label"] for r in rows],
            "Scenario": [r["base_text"] for r in rows],
            "Lowered to": [r["low_text"] for r in rows],
            "Raised to": [r["high_text"] for r in rows],
        }
    )


def tornado_results_display(df: pl.DataFrame) -> pl.DataFrame:
    """Both metrics at each input's lowered and raised value (a second table beside
    :func:`tornado_display`: one table of both did not fit a 1,024-pixel window)."""
    rows = df.to_dicts()
    out = {"Input": [r["label"] for r in rows]}
    for m in METRICS:
        o = display.OUTPUTS[m]
        out[f"{o.label}, lowered"] = [
            display.format_value(m, r[f"{m}_low"] / METRICS[m][2]) for r in rows
        ]
        out[f"{o.label}, raised"] = [
            display.format_value(m, r[f"{m}_high"] / METRICS[m][2]) for r in rows
        ]
    return pl.DataFrame(out)


def moves(df: pl.DataFrame) -> pl.Series:
    """Whether each row of the tornado table moves goodput or the lost dollars per day."""
    return (df["goodput_swing"] + df["lost_usd_per_day_swing"]) > 0


def tornado_notes(df: pl.DataFrame) -> list[str]:
    """Under the tornadoes: the inputs with no effect, and the drawn inputs whose move stopped
    at the allowed range; each input under one heading (QA: "Commitment used", at 100% and
    with no effect under on-demand pricing, was under both)."""
    moving = moves(df)
    still = df.filter(~moving)["label"].to_list()
    clipped = df.filter(moving & df["clipped"])["label"].to_list()
    notes = []
    if still:
        notes.append(f"No effect on these two figures (at this scenario): {', '.join(still)}.")
    if clipped:
        notes.append(f"Stopped at the allowed range: {', '.join(clipped)}.")
    return notes


def heatmap(
    scenario: Scenario, catalog: dict[str, Instance], kind: str, metric: str, n: int = 61
) -> dict:
    """Grid for ``kind`` in HEATMAPS: axes, z matrix and current point, in display units.

    Returned as a dict of numpy arrays (a matrix, not a table) for the heatmap builder.

    Axes span from near zero to about 2.5× the current value (at least the slider span),
    so the current point sits inside the map.
    """
    x_key, y_key = HEATMAPS[kind]
    inputs = resolve_inputs(scenario, catalog)
    now = evaluate_arrays(inputs)
    x_now = float(now["checkpoint_interval_minutes"]) if x_key == INTERVAL else float(inputs[x_key])
    y_now = float(inputs[y_key])
    xs = _axis(x_key, x_now, n)
    ys = _axis(y_key, y_now, n)
    out = sens.grid(inputs, x_key, xs, y_key, ys, metrics=(metric,))
    scale = METRICS[metric][2]
    return {
        "x": xs * FIELDS[x_key].scale,
        "y": ys * FIELDS[y_key].scale,
        "z": np.asarray(out[metric]) * scale,
        "x_now": x_now * FIELDS[x_key].scale,
        "y_now": y_now * FIELDS[y_key].scale,
        "z_now": float(now[metric]) * scale,
        "x_label": _label(x_key),
        "y_label": _label(y_key),
        "z_label": f"{METRICS[metric][0]} ({METRICS[metric][1]})",
        "z_unit": METRICS[metric][1] if METRICS[metric][1] == "%" else "$",
        "title": f"{METRICS[metric][0]}: {FIELDS[x_key].label.lower()} × "
        f"{FIELDS[y_key].label.lower()}",
    }


def _axis(key: str, now: float, n: int) -> np.ndarray:
    """0 (or near it) to 3x the current value, so the current point sits a third of the way."""
    f = FIELDS[key]
    hi = 3.0 * now if now > 0 else (f.ui_max if f.ui_max is not None else 1.0)
    if f.max is not None:
        hi = min(hi, f.max)
    lo = 0.0 if key == RATE else max(f.min if f.min is not None else 0.0, hi / 1000.0)
    values = np.linspace(lo, hi, n)
    if f.kind == "int":
        values = np.unique(np.round(values).clip(min=max(1.0, f.min or 1.0)))
    return values


# --------------------------------------------------------------------------- risk map
#: The Monte Carlo risk map: a bad month (P5 goodput over the runs) on the
#: interval x failure-rate plane, evaluated on the sweep engine (Dask workers).
RISK_METRICS = {
    "goodput_p5": "Bad month: goodput P5 (%)",
    "goodput_mean": "Goodput, simulated mean (%)",
}


def risk_map_points(
    scenario: Scenario, catalog: dict[str, Instance], n: int
) -> tuple[dict, dict[str, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Flat inputs, the points (interval x rate, n x n, interval fastest) and the axes."""
    inputs = resolve_inputs(scenario, catalog)
    now = evaluate_arrays(inputs)
    xs = _axis(INTERVAL, float(now["checkpoint_interval_minutes"]), n)
    ys = _axis(RATE, float(inputs[RATE]), n)
    ys = ys[ys > 0] if ys.size > 1 else ys  # a failure-free row has no risk to show
    yy, xx = np.meshgrid(ys, xs, indexing="ij")
    return inputs, {INTERVAL: xx.reshape(-1), RATE: yy.reshape(-1)}, (xs, ys)


def risk_map_grid(
    rows: dict[str, np.ndarray],
    axes: tuple[np.ndarray, np.ndarray],
    metric: str,
    now: dict,
    trials: int,
) -> dict:
    """The heatmap dict of :func:`heatmap` for a finished risk map, in display units."""
    xs, ys = axes
    z = np.asarray(rows[metric], dtype=float).reshape(ys.size, xs.size) * 100.0
    return {
        "x": xs * FIELDS[INTERVAL].scale,
        "y": ys * FIELDS[RATE].scale,
        "z": z,
        "x_now": float(now["checkpoint_interval_minutes"]) * FIELDS[INTERVAL].scale,
        "y_now": float(now[RATE]) * FIELDS[RATE].scale,
        "z_now": float(now["goodput"]) * 100.0,
        "x_label": _label(INTERVAL),
        "y_label": _label(RATE),
        "z_label": RISK_METRICS[metric],
        "z_unit": "%",
        "title": f"{RISK_METRICS[metric].rsplit(' (', 1)[0]}, {trials:,} runs per point",
        "marker_text": "This scenario (analytic goodput)",
    }


def headline_tiles(ev: Evaluation) -> list[dict[str, str]]:
    """Goodput and lost per day of the scenario the sensitivities are taken around."""
    return [
        display.tile("goodput", ev["goodput"]),
        display.tile("lost_usd_per_day", ev["lost_usd_per_day"]),
    ]


def risk_map_intro(days: float) -> str:
    """The risk map's caption: what each point simulates (``days``-day runs [days])."""
    return (
        "How bad a month can get across checkpoint intervals and failure rates: every point "
        f"simulates that many {days:g}-day runs on the engine's worker processes "
        "(docs/scaling.md), so the rest of the app stays responsive while it runs."
    )


def risk_map_pending(points_per_axis: int, trials: int) -> str:
    """Before the risk map runs: its size [points x runs per point]."""
    return f"{points_per_axis**2:,} points x {trials:,} runs, not run yet."


#: A choice of runs or points as the page shows it ("1,000", not "1000").
runs_text = display.runs_text
