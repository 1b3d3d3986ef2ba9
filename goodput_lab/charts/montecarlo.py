"""Figures for the Monte Carlo page (pure: data in, go.Figure out)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl
from plotly.subplots import make_subplots

from . import style

TEMPLATE = style.TEMPLATE
COLORS = {
    "training": "#2ca02c",
    "save": "#17becf",
    "rework": "#e377c2",
    "detection": "#ff7f0e",
    "replacement": "#d62728",
    "restart": "#9467bd",
    "restore": "#1f77b4",
    "stall": "#8c564b",
    "spot": "#e377c2",
}


def histogram_cdf(
    values: np.ndarray,
    analytic: float,
    title: str,
    x_title: str,
    bins: int = 50,
    subtitle: str = "",
) -> go.Figure:
    """Histogram (share of trials) with the empirical CDF on a second axis and the analytic
    value as a dashed line."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(
        go.Histogram(
            x=v,
            nbinsx=bins,
            histnorm="percent",
            name="Share of runs",
            marker_color="#1f77b4",
            opacity=0.75,
        ),
        secondary_y=False,
    )
    xs = np.sort(v)
    cdf = np.arange(1, xs.size + 1) / max(xs.size, 1) * 100.0
    step = max(1, xs.size // 400)  # keep the figure small
    fig.add_trace(
        go.Scatter(
            x=xs[::step],
            y=cdf[::step],
            mode="lines",
            name="Cumulative share (right axis)",
            line_color="#d62728",
        ),
        secondary_y=True,
    )
    if np.isfinite(analytic):
        fig.add_vline(
            x=analytic,
            line_dash="dash",
            line_color="#2ca02c",
            annotation_text="closed form",
            annotation_position="top left",
            annotation_font_size=11,
        )
    style.layout(fig, title, subtitle=subtitle, x_title=x_title, height=420)
    fig.layout.bargap = 0.02
    fig.layout.margin.r = 60
    fig.layout.yaxis.title = {"text": "Share of runs (%)"}
    y2 = fig.layout.yaxis2  # the cumulative share (secondary axis)
    y2.title = {"text": "Cumulative share (%)"}
    y2.range = [0, 100]
    y2.tickvals = [0, 25, 50, 75, 100]
    y2.showgrid = False
    return fig


def bands_chart(bands: pl.DataFrame, analytic_pct: float) -> go.Figure:
    """Cumulative goodput over the run: p5-p95 and p25-p75 bands, median, analytic line."""
    day = bands["day"].to_numpy()
    fig = go.Figure()
    for lo, hi, color, name in (
        ("p5", "p95", "rgba(31,119,180,0.18)", "P5 to P95 of runs"),
        ("p25", "p75", "rgba(31,119,180,0.38)", "P25 to P75"),
    ):
        fig.add_trace(
            go.Scatter(
                x=day,
                y=bands[hi].to_numpy(),
                mode="lines",
                line_width=0,
                showlegend=False,
                hoverinfo="skip",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=day,
                y=bands[lo].to_numpy(),
                mode="lines",
                line_width=0,
                fill="tonexty",
                fillcolor=color,
                name=name,
            )
        )
    fig.add_trace(
        go.Scatter(
            x=day, y=bands["p50"].to_numpy(), mode="lines", name="Median", line_color="#1f77b4"
        )
    )
    fig.add_hline(
        y=analytic_pct,
        line_dash="dash",
        line_color="#2ca02c",
        annotation_text="closed form (long run)",
        annotation_font_size=11,
    )
    style.layout(
        fig,
        "Goodput so far, by day of the run",
        subtitle="Percentile bands over the simulated runs; early days swing most",
        x_title="Day of the run (days)",
        y_title="Cumulative goodput (%)",
        height=420,
    )
    style.axis(fig, "y", ticksuffix="%")
    return fig


def timeline_chart(segments: pl.DataFrame, labels: dict[str, str], hours: float) -> go.Figure:
    """Gantt-like view of one simulated run: one row per state with the hours spent in it,
    bars from start to end (hours).  Checkpoint saves are short, so they are drawn as ticks
    that stay visible at any zoom; states that did not occur get no row."""
    fig = go.Figure()
    rows = []
    segs = {state: segments.filter(pl.col("state") == state) for state in labels}
    totals = [float((g["end_hours"] - g["start_hours"]).sum()) for g in segs.values() if g.height]
    # one unit for every row, the x axis's (hours): two decimals when a state is short
    decimals = 1 if min(totals, default=1.0) >= 0.05 else 2
    for state, label in labels.items():
        seg = segs[state]
        if seg.height == 0:
            continue
        start = seg["start_hours"].to_numpy()
        dur = seg["end_hours"].to_numpy() - start
        total = float(dur.sum())
        hours_text = f"{total:,.{decimals}f} h" if total >= 0.005 else "under 0.01 h"
        name = f"{label} · {hours_text}"
        rows.append(name)
        color = COLORS.get(state, "#7f7f7f")
        if state == "save":
            fig.add_trace(
                go.Scatter(
                    y=[name] * seg.height,
                    x=start + dur / 2,
                    mode="markers",
                    marker={"symbol": "line-ns", "size": 14, "line": {"width": 2, "color": color}},
                    name=name,
                    customdata=dur * 60,
                    hovertemplate="save at %{x:.2f} h, %{customdata:.1f} min<extra></extra>",
                )
            )
            continue
        fig.add_trace(
            go.Bar(
                y=[name] * seg.height,
                x=dur,
                base=start,
                orientation="h",
                name=name,
                marker_color=color,
                marker_line_width=0,
                hovertemplate="%{base:.2f} h to %{x:.2f} h later<extra>" + label + "</extra>",
            )
        )
    style.layout(
        fig,
        "One simulated run, hour by hour",
        subtitle="Training kept, checkpoint saves, rework (work a failure threw away) and "
        "recovery; row labels give the time in each state over this window",
        x_title="Time since the start of the run (hours)",
        legend=False,
        height=110 + 46 * max(len(rows), 1),
        margin_l=210,
    )
    fig.layout.barmode = "overlay"
    style.axis(fig, "x", range=[0, hours])
    style.axis(fig, "y", categoryorder="array", categoryarray=rows[::-1], tickfont={"size": 11})
    return fig
