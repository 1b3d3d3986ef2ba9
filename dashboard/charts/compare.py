"""Figures for the Compare page (pure: data -> go.Figure)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

TEMPLATE = "plotly_white"


def savings_waterfall(rows: pl.DataFrame, total_usd_per_day: float) -> go.Figure:
    """Savings per day of the candidate, split by loss component and running cost.

    ``rows`` needs ``label`` and ``usd_per_day`` (positive = the candidate saves money).
    """
    labels = [*rows["label"].to_list(), "Savings per day"]
    values = [*rows["usd_per_day"].to_list(), total_usd_per_day]
    text = [f"${v:+,.0f}" if abs(v) >= 0.5 else "" for v in values]
    fig = go.Figure(
        go.Waterfall(
            x=labels,
            y=values,
            measure=["relative"] * rows.height + ["total"],
            text=text,
            textposition="outside",
            textfont={"size": 12},
            increasing={"marker": {"color": "#2ca02c"}},
            decreasing={"marker": {"color": "#d62728"}},
            totals={"marker": {"color": "#1f77b4"}},
            connector={"line": {"color": "#888", "width": 1}},
            hovertemplate="%{x}: %{text}/day<extra></extra>",
        )
    )
    fig.update_layout(
        title="Where the difference comes from (candidate vs baseline)",
        xaxis_title="Component",
        yaxis_title="Savings (USD/day)",
        template=TEMPLATE,
        showlegend=False,
        margin={"t": 60, "b": 40},
    )
    return fig


def loss_bars(labels: list[str], baseline: list[float], candidate: list[float]) -> go.Figure:
    """Minutes lost per day by component, baseline and candidate side by side."""
    fig = go.Figure()
    fig.add_bar(x=labels, y=baseline, name="Baseline")
    fig.add_bar(x=labels, y=candidate, name="Candidate")
    fig.update_layout(
        title="Time lost per day by component",
        xaxis_title="Component",
        yaxis_title="Lost time (minutes/day)",
        barmode="group",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig
