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


def bucket_chart(buckets: pl.DataFrame, what_if: pl.DataFrame | None = None) -> go.Figure:
    """Badput per bucket in hours: measured next to the fitted model's prediction.

    ``buckets`` needs ``bucket_label``, ``measured_hours``, ``predicted_hours``;
    ``what_if`` (optional) ``bucket_label`` and ``what_if_hours`` for a third bar.
    """
    labels = style.wrap_all(buckets["bucket_label"].to_list(), 14)
    fig = go.Figure()
    fig.add_bar(
        x=labels,
        y=buckets["measured_hours"].to_numpy(),
        name="Measured (this run)",
        marker_color=MEASURED,
        hovertemplate="%{x}: %{y:,.2f} h<extra>measured</extra>",
    )
    fig.add_bar(
        x=labels,
        y=buckets["predicted_hours"].to_numpy(),
        name="Predicted (fitted scenario)",
        marker_color=PREDICTED,
        hovertemplate="%{x}: %{y:,.2f} h<extra>predicted</extra>",
    )
    if what_if is not None:
        fig.add_bar(
            x=style.wrap_all(what_if["bucket_label"].to_list(), 14),
            y=what_if["what_if_hours"].to_numpy(),
            name="What-if (sidebar scenario)",
            marker_color=WHAT_IF,
            hovertemplate="%{x}: %{y:,.2f} h<extra>what-if</extra>",
        )
    style.drop_empty(fig)
    style.layout(
        fig,
        "Badput per bucket: measured vs predicted",
        subtitle="Hours of the run's wall time lost in each bucket",
        x_title="Badput bucket",
        y_title="Wall time of the run (h)",
        legend=True,
        height=440,
    )
    fig.layout.barmode = "group"
    style.axis(fig, "y", tickformat=",.1f")
    return fig


def goodput_over_time_chart(df: pl.DataFrame, predicted_pct: float) -> go.Figure:
    """Cumulative goodput of the run over time against the fitted scenario's Monte Carlo
    P5-P95 and P25-P75 bands and the analytic prediction.

    ``df`` needs ``hours``, ``measured``, ``p5``, ``p25``, ``p75``, ``p95`` (fractions).
    """
    x = df["hours"].to_numpy()
    fig = go.Figure()
    bands = (
        ("p5", "p95", "rgba(255,127,14,0.16)", "Predicted P5-P95"),
        ("p25", "p75", "rgba(255,127,14,0.32)", "Predicted P25-P75"),
    )
    for lo, hi, color, name in bands if "p5" in df.columns else ():
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
        hovertemplate="%{x:,.1f} h: %{y:.2f}%<extra>measured</extra>",
    )
    fig.add_hline(
        y=predicted_pct,
        line_dash="dash",
        line_color=PREDICTED,
        annotation_text=f"predicted {format_value('predicted_goodput', predicted_pct / 100)}",
        annotation_position="bottom right",
    )
    floor = float(100 * df["p5"].min()) if "p5" in df.columns else predicted_pct
    lo = min(float(100 * df["measured"].min()), floor, predicted_pct)
    style.layout(
        fig,
        "Goodput of the run so far",
        subtitle="Cumulative, against the fitted scenario's simulated runs of the same length",
        x_title="Time since job start (h)",
        y_title="Cumulative goodput (%)",
        height=440,
    )
    style.axis(fig, "y", range=[max(0.0, lo - 5.0), 100.0], ticksuffix="%")
    style.axis(fig, "x", tickformat=",.0f")
    return fig
