"""Figures for the Checkpoints page (pure builders: DataFrame -> go.Figure)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl
from goodput_lab.models.outputs import format_savings

TEMPLATE = "plotly_white"
COLORS = ("#d62728", "#ff7f0e", "#8c564b", "#1f77b4", "#2ca02c", "#9467bd")


def waste_curve_chart(curves: pl.DataFrame, optima: pl.DataFrame) -> go.Figure:
    """Waste (1 − goodput) against the level-1 checkpoint interval, one U-curve per strategy,
    with each optimum marked."""
    fig = go.Figure()
    for i, name in enumerate(optima["strategy"].to_list()):
        part = curves.filter(pl.col("strategy") == name)
        color = COLORS[i % len(COLORS)]
        fig.add_scatter(
            x=part["interval_minutes"].to_numpy(),
            y=part["waste_pct"].to_numpy(),
            mode="lines",
            name=name,
            line={"color": color},
            legendgroup=name,
        )
        row = optima.row(i, named=True)
        fig.add_scatter(
            x=[row["interval_minutes"]],
            y=[row["waste_pct"]],
            mode="markers",
            marker={"symbol": "star", "size": 13, "color": color, "line": {"width": 1}},
            name=f"{name}: optimum {row['interval_minutes']:.1f} min",
            legendgroup=name,
            showlegend=False,
            hovertemplate="optimum %{x:.2f} min, waste %{y:.2f}%<extra></extra>",
        )
    top = float(optima["waste_pct"].max()) * 2.5 if optima.height else 100.0
    fig.update_layout(
        title="Waste vs checkpoint interval (★ = optimum, exact Daly)",
        xaxis_title="Level-1 checkpoint interval (min, log scale)",
        yaxis_title="Wall-clock time wasted (%)",
        xaxis_type="log",
        yaxis_range=[0, min(top, 100.0)],
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def strategy_chart(table: pl.DataFrame) -> go.Figure:
    """Goodput per strategy (bars), labelled with what each saves or costs per day versus the
    first row (this scenario)."""
    goodput = [100.0 * g for g in table["goodput"].to_list()]
    savings = table["savings_usd_per_day"].to_list()
    text = [
        f"{g:.2f}%" if i == 0 else f"{g:.2f}%<br>{format_savings(s)}"
        for i, (g, s) in enumerate(zip(goodput, savings, strict=True))
    ]
    fig = go.Figure(
        go.Bar(
            x=table["strategy"].to_list(),
            y=goodput,
            text=text,
            textposition="outside",
            marker_color=[COLORS[i % len(COLORS)] for i in range(table.height)],
            hovertemplate="%{x}: goodput %{y:.2f}%<extra></extra>",
        )
    )
    lo = max(0.0, min(goodput) - 5.0) if goodput else 0.0
    fig.update_layout(
        title="Strategies vs this scenario: goodput and savings per day",
        xaxis_title="Checkpoint strategy (alternatives: tier-model times, optimal interval)",
        yaxis_title="Goodput (% of wall-clock time)",
        yaxis_range=[lo, 101.0],
        template=TEMPLATE,
        showlegend=False,
    )
    return fig


def replica_chart(survival: pl.DataFrame, current_replicas: int | None = None) -> go.Figure:
    """Probability that a failure leaves some shard without an in-memory copy, per replica
    count and placement (log scale)."""
    fig = go.Figure()
    for i, placement in enumerate(("adjacent", "spread")):
        part = survival.filter(pl.col("placement") == placement)
        fig.add_scatter(
            x=part["replicas"].to_numpy(),
            y=part["fallback_probability"].to_numpy() * 100,
            mode="lines+markers",
            name=f"replicas on {placement} nodes",
            line={"color": COLORS[3 + i]},
        )
    if current_replicas is not None:
        fig.add_vline(x=current_replicas, line={"dash": "dot", "color": "#555"})
    fig.update_layout(
        title="Failures that destroy every in-memory copy of a shard",
        xaxis_title="In-memory replicas per shard",
        yaxis_title="Falls back to the durable tier (% of failures, log)",
        yaxis_type="log",
        yaxis_exponentformat="power",
        xaxis={"dtick": 1},
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig
