"""Figures for the Optimizer page (pure: data -> go.Figure)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl

TEMPLATE = "plotly_white"


def interval_chart(curve: pl.DataFrame, current: float, recommended: float) -> go.Figure:
    """Lost USD/day against checkpoint interval (log axis), current and optimum marked."""
    x = curve["interval_minutes"].to_numpy()
    y = curve["lost_usd_per_day"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(x=x, y=y, mode="lines", name="Lost per day")
    for at, name, colour in ((current, "Current", "black"), (recommended, "Recommended", "green")):
        fig.add_scatter(
            x=[at],
            y=[float(np.interp(np.log(at), np.log(x), y))],
            mode="markers",
            name=f"{name}: {at:.1f} min",
            marker={"size": 12, "color": colour, "symbol": "diamond"},
        )
    fig.update_layout(
        title="Cost of the checkpoint interval",
        xaxis_title="Checkpoint interval (minutes, log scale)",
        yaxis_title="Lost (USD/day)",
        xaxis_type="log",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def spares_chart(table: pl.DataFrame, recommended: int, current: int) -> go.Figure:
    """Net savings per day against the number of hot spares (vs none), optimum marked."""
    s = table["spares"].to_numpy()
    v = table["net_savings_usd_per_day"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        x=s, y=v, mode="lines+markers", name="Net savings vs no spares", marker={"size": 4}
    )
    fig.add_hline(y=0, line={"color": "#888", "width": 1})
    for at, name, colour in ((current, "Current", "black"), (recommended, "Recommended", "green")):
        fig.add_scatter(
            x=[at],
            y=[float(v[at])],
            mode="markers",
            name=f"{name}: {at} spares",
            marker={"size": 12, "color": colour, "symbol": "diamond"},
        )
    fig.update_layout(
        title="Do hot spares pay for themselves?",
        xaxis_title="Hot spare nodes",
        yaxis_title="Net savings vs no spares (USD/day)",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def instance_chart(table: pl.DataFrame, current: str) -> go.Figure:
    """Cost to train the workload per instance type (feasible ones), current highlighted."""
    t = table.filter(pl.col("feasible"))
    names = t["instance"].to_list()
    fig = go.Figure(
        go.Bar(
            x=names,
            y=t["cost_to_train_usd"].to_numpy() / 1e6,
            marker_color=["#ff7f0e" if n == current else "#1f77b4" for n in names],
            text=[f"{d:,.0f} d" for d in t["time_to_train_days"].to_list()],
            textposition="outside",
            hovertemplate="%{x}: $%{y:,.1f}M<extra></extra>",
        )
    )
    fig.update_layout(
        title="Cost to train the workload by instance type (days on the bars)",
        xaxis_title="Instance type",
        yaxis_title="Cost to train (million USD)",
        template=TEMPLATE,
        showlegend=False,
    )
    return fig
