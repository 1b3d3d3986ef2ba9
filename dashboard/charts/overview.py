"""Figures for the Overview page."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

TEMPLATE = "plotly_white"


def loss_waterfall(losses: pl.DataFrame, goodput: float) -> go.Figure:
    """Waterfall from 100% ideal to achieved goodput, one bar per loss component.

    ``losses`` needs columns ``label`` and ``goodput_points`` (percent of wall time).
    """
    labels = ["Ideal", *losses["label"].to_list(), "Achieved goodput"]
    values = [100.0] + [-v for v in losses["goodput_points"].to_list()] + [goodput * 100]
    measure = ["absolute"] + ["relative"] * losses.height + ["total"]
    text = ["100%"] + [f"−{v:.2f}" for v in losses["goodput_points"].to_list()]
    text += [f"{goodput * 100:.2f}%"]
    fig = go.Figure(
        go.Waterfall(
            x=labels,
            y=values,
            measure=measure,
            text=text,
            textposition="outside",
            decreasing={"marker": {"color": "#d62728"}},
            totals={"marker": {"color": "#2ca02c"}},
            increasing={"marker": {"color": "#1f77b4"}},
            connector={"line": {"color": "#888", "width": 1}},
            hovertemplate="%{x}: %{text}<extra></extra>",
        )
    )
    lo = max(0.0, min(goodput * 100 - 5, 80.0))
    fig.update_layout(
        title="Where the wall-clock time goes: ideal to achieved goodput",
        xaxis_title="Loss component",
        yaxis_title="Share of wall-clock time (%)",
        yaxis_range=[lo, 101.5],
        template=TEMPLATE,
        showlegend=False,
        margin={"t": 60, "b": 40},
    )
    return fig


def goodput_vs_rate_chart(
    sweep: pl.DataFrame, current_rate_pct: float, current_goodput: float
) -> go.Figure:
    """Goodput against node failure rate (exact and first order), current point marked."""
    fig = go.Figure()
    fig.add_scatter(
        x=sweep["node_failure_rate_pct"].to_numpy(),
        y=sweep["goodput_pct"].to_numpy(),
        name="Daly exact",
        mode="lines",
    )
    fig.add_scatter(
        x=sweep["node_failure_rate_pct"].to_numpy(),
        y=sweep["goodput_first_order_pct"].to_numpy(),
        name="First order",
        mode="lines",
        line={"dash": "dash"},
    )
    fig.add_scatter(
        x=[current_rate_pct],
        y=[current_goodput * 100],
        name="This scenario",
        mode="markers",
        marker={"size": 12, "symbol": "diamond", "color": "black"},
    )
    fig.update_layout(
        title="Goodput vs node failure rate",
        xaxis_title="Node failure rate (% of nodes per day)",
        yaxis_title="Goodput (% of wall-clock time)",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.2},
    )
    return fig
