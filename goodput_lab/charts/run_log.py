"""Figures for the Run log page (pure builders: polars in, plotly figure out)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

from goodput_lab.models.outputs import format_value

from . import style

TEMPLATE = style.TEMPLATE
MEASURED = style.COLORS["blue"]
PREDICTED = style.COLORS["orange"]
WHAT_IF = style.COLORS["green"]


#: Below this many hours a run's times are drawn in minutes (an 18-minute run's hour ticks
#: read 0, 0, 0 or 0.1, 0.1 at one decimal).
MINUTES_BELOW_H = 2.0
#: Tick labels with as many decimals as the ticks need, never repeating (d3 format: thousands
#: separators, up to 6 decimals with trailing zeros trimmed).
TICKS = ",~f"


def time_unit(hours: float) -> tuple[float, str, str]:
    """How to draw a time whose largest value is ``hours`` [h]: (factor from hours, axis
    unit, unit word): minutes below :data:`MINUTES_BELOW_H`, else hours."""
    return (60.0, "min", "minutes") if hours < MINUTES_BELOW_H else (1.0, "h", "hours")


def bucket_unit(
    buckets: pl.DataFrame, what_if: pl.DataFrame | None = None
) -> tuple[float, str, str]:
    """The unit of :func:`bucket_chart` for these bars (:func:`time_unit` of the largest
    one), for the bucket table under it to use the same."""
    columns = [buckets["measured_hours"], buckets["predicted_hours"]]
    if what_if is not None:
        columns.append(what_if["what_if_hours"])
    return time_unit(max((float(y.max() or 0.0) for y in columns), default=0.0))


def bucket_chart(buckets: pl.DataFrame, what_if: pl.DataFrame | None = None) -> go.Figure:
    """Badput per bucket: measured next to the fitted model's prediction, in hours (in
    minutes when the largest bar is under :data:`MINUTES_BELOW_H` hours).

    ``buckets`` needs ``bucket_label``, ``measured_hours``, ``predicted_hours``;
    ``what_if`` (optional) ``bucket_label`` and ``what_if_hours`` for a third bar.
    """
    labels = style.wrap_all(buckets["bucket_label"].to_list(), 14)
    bars = [
        (labels, buckets["measured_hours"], "Measured (this run)", MEASURED, "measured"),
        (labels, buckets["predicted_hours"], "Predicted (fitted scenario)", PREDICTED, "predicted"),
    ]
    if what_if is not None:
        wrapped = style.wrap_all(what_if["bucket_label"].to_list(), 14)
        bars.append(
            (wrapped, what_if["what_if_hours"], "What-if (sidebar scenario)", WHAT_IF, "what-if")
        )
    factor, unit, word = bucket_unit(buckets, what_if)
    fig = go.Figure()
    for x, y, name, color, tag in bars:
        fig.add_bar(
            x=x,
            y=factor * y.to_numpy(),
            name=name,
            marker_color=color,
            hovertemplate=f"%{{x}}: %{{y:,.2f}} {unit}<extra>{tag}</extra>",
        )
    style.drop_empty(fig)
    style.layout(
        fig,
        "Badput per bucket: measured vs predicted",
        subtitle=f"{word.capitalize()} of the run's wall time lost in each bucket",
        x_title="Badput bucket",
        y_title=f"Wall time of the run ({unit})",
        legend=True,
        height=440,
    )
    fig.layout.barmode = "group"
    style.axis(fig, "y", tickformat=TICKS)
    return fig


def goodput_over_time_chart(df: pl.DataFrame, predicted_pct: float) -> go.Figure:
    """Cumulative goodput of the run over time against the fitted scenario's Monte Carlo
    P5-P95 and P25-P75 bands (when the run was simulated) and the analytic prediction; time
    in hours, or minutes for a run under :data:`MINUTES_BELOW_H` hours.

    ``df`` needs ``hours`` and ``measured``, and ``p5``, ``p25``, ``p75``, ``p95``
    (fractions) for the bands.
    """
    factor, unit, _ = time_unit(float(df["hours"].max() or 0.0))
    x = factor * df["hours"].to_numpy()
    simulated = "p5" in df.columns
    fig = go.Figure()
    bands = (
        ("p5", "p95", "rgba(255,127,14,0.16)", "Predicted P5-P95"),
        ("p25", "p75", "rgba(255,127,14,0.32)", "Predicted P25-P75"),
    )
    for lo, hi, color, name in bands if simulated else ():
        fig.add_scatter(
            x=x,
            y=100 * df[hi].to_numpy(),
            mode="lines",
            line_width=0,
            showlegend=False,
            hoverinfo="skip",
        )
        fig.add_scatter(
            x=x,
            y=100 * df[lo].to_numpy(),
            mode="lines",
            line_width=0,
            fill="tonexty",
            fillcolor=color,
            name=name,
            hoverinfo="skip",
        )
    fig.add_scatter(
        x=x,
        y=100 * df["measured"].to_numpy(),
        mode="lines",
        name="Measured (this run)",
        line={"color": MEASURED, "width": 2.5},
        hovertemplate=f"%{{x:,.1f}} {unit}: %{{y:.2f}}%<extra>measured</extra>",
    )
    fig.add_hline(
        y=predicted_pct,
        line_dash="dash",
        line_color=PREDICTED,
        annotation_text=f"predicted {format_value('predicted_goodput', predicted_pct / 100)}",
        annotation_position="bottom right",
    )
    floor = float(100 * df["p5"].min()) if simulated else predicted_pct
    lo = min(float(100 * df["measured"].min()), floor, predicted_pct)
    style.layout(
        fig,
        "Goodput of the run so far",
        subtitle=(
            "Cumulative, against the fitted scenario's simulated runs of the same length"
            if simulated
            else "Cumulative, against the fitted scenario's prediction (no simulated band: "
            "the run is shorter than the simulator's one-hour floor)"
        ),
        x_title=f"Time since job start ({unit})",
        y_title="Cumulative goodput (%)",
        height=440,
    )
    style.axis(fig, "y", range=[max(0.0, lo - 5.0), 100.0], ticksuffix="%")
    style.axis(fig, "x", tickformat=TICKS)
    return fig
