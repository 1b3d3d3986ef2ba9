"""Figures for the Optimizer page (pure: data -> go.Figure)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl

from goodput_lab.models.outputs import format_value

from . import style

TEMPLATE = style.TEMPLATE


def interval_chart(curve: pl.DataFrame, current: float, recommended: float) -> go.Figure:
    """Lost USD/day against checkpoint interval (log axis), current and optimum marked."""
    x = curve["interval_minutes"].to_numpy()
    y = curve["lost_usd_per_day"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        x=x,
        y=y,
        mode="lines",
        name="Lost per day",
        line={"color": style.COLORS["blue"]},
        hovertemplate="%{x:,.1f} min: $%{y:,.0f}/day<extra></extra>",
    )
    marks = ((current, "Current", "black"), (recommended, "Recommended", "green"))
    fmt = "checkpoint_interval_minutes"
    if format_value(fmt, current) == format_value(fmt, recommended):
        marks = ((recommended, "Current = recommended", "green"),)  # one marker, not two stacked
    for at, name, colour in marks:
        fig.add_scatter(
            x=[at],
            y=[float(np.interp(np.log(at), np.log(x), y))],
            mode="markers",
            name=f"{name}: {format_value(fmt, at)}",
            marker={"size": 12, "color": colour, "symbol": "diamond"},
            hovertemplate="%{x:,.1f} min: $%{y:,.0f}/day<extra></extra>",
        )
    style.layout(
        fig,
        "What the checkpoint interval costs",
        subtitle="Lost dollars per day, all else as in the scenario",
        x_title="Checkpoint interval (min, log scale)",
        y_title="Lost ($/day)",
        height=440,
    )
    style.log_axis(fig, "x", x)
    style.money_axis(fig, "y", float(np.nanmax(y)) * 1.05 if y.size else 1.0)
    return fig


def spares_chart(
    table: pl.DataFrame, recommended: int, current: int, beside: str = ""
) -> go.Figure:
    """Net savings per day against the number of hot spares (vs none), optimum marked;
    ``beside`` names the domain spares they are counted beside ("3 whole spare domains")."""
    s = table["spares"].to_numpy()
    v = table["net_savings_usd_per_day"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        x=s,
        y=v,
        mode="lines+markers",
        name="Net savings against no spares",
        marker={"size": 4},
        line={"color": style.COLORS["blue"]},
        hovertemplate="%{x} spares: $%{y:,.0f}/day<extra></extra>",
    )
    fig.add_hline(y=0, line={"color": "#888", "width": 1})
    marks = ((current, "Current", "black"), (recommended, "Best count", "green"))
    if current == recommended:
        marks = ((recommended, "Current = best count", "green"),)  # one marker, not two stacked
    for at, name, colour in marks:
        word = "spare" if at == 1 else "spares"
        fig.add_scatter(
            x=[at],
            y=[float(v[at])],
            mode="markers",
            name=f"{name}: {at} {word}",
            marker={"size": 12, "color": colour, "symbol": "diamond"},
            hovertemplate="%{x} spares: $%{y:,.0f}/day<extra></extra>",
        )
    style.layout(
        fig,
        "Do hot spares pay for themselves?",
        subtitle="Net of what the idle spares cost, at the recommended interval"
        + (f", beside {beside}" if beside else ""),
        x_title="Hot spare nodes",
        y_title="Net savings against no spares ($/day)",
        height=440,
    )
    lo, hi = float(np.nanmin(v)), float(np.nanmax(v))
    pad = (hi - lo) * 0.08 or 1.0
    style.money_axis(fig, "y", hi + pad, lo=min(lo - pad, 0.0))
    return fig


def instance_chart(table: pl.DataFrame, current: str) -> go.Figure:
    """Cost to train the workload per instance type (priced, able to run), current
    highlighted, days to train on the bars."""
    t = table.filter(pl.col("feasible") & pl.col("cost_to_train_usd").is_not_nan())
    names = t["instance"].to_list()
    cost = t["cost_to_train_usd"].to_list()
    fig = go.Figure(
        go.Bar(
            y=names,
            x=cost,
            orientation="h",
            marker_color=[
                style.COLORS["orange"] if n == current else style.COLORS["blue"] for n in names
            ],
            text=[
                f"{c} · {d:,.1f} days"
                for c, d in zip(
                    style.bar_text("cost_to_train_usd", cost),
                    t["time_to_train_days"].to_list(),
                    strict=True,
                )
            ],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}: $%{x:,.0f}<extra></extra>",
        )
    )
    style.layout(
        fig,
        "Cost to train the workload by instance type",
        subtitle="Priced types that can run it; orange: the scenario's own type",
        x_title="Cost to train, instances ($)",
        legend=False,
        height=max(300, 44 * len(names) + 150),
        margin_l=140,
    )
    style.axis(fig, "y", autorange="reversed")
    style.money_axis(fig, "x", max(cost, default=1.0) * 1.45)
    return fig
