"""Figures for the Monte Carlo page (pure: data in, go.Figure out)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl
from plotly.subplots import make_subplots

TEMPLATE = "plotly_white"
COLORS = {
    "training": "#2ca02c",
    "detection": "#ff7f0e",
    "replacement": "#d62728",
    "restart": "#9467bd",
    "restore": "#1f77b4",
    "stall": "#8c564b",
    "spot": "#e377c2",
}


def histogram_cdf(
    values: np.ndarray, analytic: float, title: str, x_title: str, bins: int = 50
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
            name="Trials",
            marker_color="#1f77b4",
            opacity=0.75,
        ),
        secondary_y=False,
    )
    xs = np.sort(v)
    cdf = np.arange(1, xs.size + 1) / max(xs.size, 1) * 100.0
    step = max(1, xs.size // 400)  # keep the figure small
    fig.add_trace(
        go.Scatter(x=xs[::step], y=cdf[::step], mode="lines", name="CDF", line_color="#d62728"),
        secondary_y=True,
    )
    if np.isfinite(analytic):
        fig.add_vline(
            x=analytic,
            line_dash="dash",
            line_color="#2ca02c",
            annotation_text="analytic",
            annotation_position="top left",
        )
    fig.update_layout(
        title=title,
        template=TEMPLATE,
        bargap=0.02,
        legend={"orientation": "h", "y": -0.3, "x": 0},
        margin={"b": 90},
    )
    fig.update_xaxes(title_text=x_title)
    fig.update_yaxes(title_text="Share of trials (%)", secondary_y=False)
    fig.update_yaxes(
        title_text="Cumulative share (%)",
        range=[0, 100],
        tickvals=[0, 25, 50, 75, 100],
        showgrid=False,
        secondary_y=True,
    )
    return fig


def bands_chart(bands: pl.DataFrame, analytic_pct: float) -> go.Figure:
    """Cumulative goodput over the run: p5-p95 and p25-p75 bands, median, analytic line."""
    day = bands["day"].to_numpy()
    fig = go.Figure()
    for lo, hi, color, name in (
        ("p5", "p95", "rgba(31,119,180,0.18)", "p5-p95"),
        ("p25", "p75", "rgba(31,119,180,0.38)", "p25-p75"),
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
            x=day, y=bands["p50"].to_numpy(), mode="lines", name="median", line_color="#1f77b4"
        )
    )
    fig.add_hline(
        y=analytic_pct,
        line_dash="dash",
        line_color="#2ca02c",
        annotation_text="analytic (long run)",
    )
    fig.update_layout(
        title="Goodput so far, by day of the run (percentile bands over trials)",
        xaxis_title="Day of the run (days)",
        yaxis_title="Cumulative goodput (%)",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25, "x": 0},
    )
    return fig


def timeline_chart(segments: pl.DataFrame, labels: dict[str, str], hours: float) -> go.Figure:
    """Gantt-like view of one trial: one row per state, bars from start to end (hours)."""
    fig = go.Figure()
    for state, label in labels.items():
        seg = segments.filter(pl.col("state") == state)
        if seg.height == 0:
            continue
        start = seg["start_hours"].to_numpy()
        dur = seg["end_hours"].to_numpy() - start
        fig.add_trace(
            go.Bar(
                y=[label] * seg.height,
                x=dur,
                base=start,
                orientation="h",
                name=label,
                marker_color=COLORS.get(state, "#7f7f7f"),
                hovertemplate="%{y}: %{base:.2f} h + %{x:.3f} h<extra></extra>",
            )
        )
    fig.update_layout(
        title="One simulated run: what happened when (zoom out for the whole run)",
        xaxis_title="Time since start (hours)",
        yaxis_title="State",
        barmode="overlay",
        template=TEMPLATE,
        xaxis_range=[0, hours],
        yaxis={"categoryorder": "array", "categoryarray": list(labels.values())[::-1]},
        showlegend=False,
    )
    return fig
