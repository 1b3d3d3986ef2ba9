"""Figures for the Checkpoints page (pure builders: DataFrame -> go.Figure)."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import polars as pl

from goodput_lab.models.outputs import format_savings

from . import style

TEMPLATE = style.TEMPLATE
COLORS = ("#d62728", "#ff7f0e", "#8c564b", "#1f77b4", "#2ca02c", "#9467bd")


DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


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
            # a dash of its own: two strategies with the same curve (durable only, async and
            # memory + durable, async on llama3-70b) both stay visible, one through the other
            line={"color": color, "dash": DASHES[i % len(DASHES)]},
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
    style.layout(
        fig,
        "Waste against the checkpoint interval",
        subtitle="★ marks each strategy's optimum (Daly's exact expectation)",
        x_title="Level-1 checkpoint interval (min, log scale)",
        y_title="Wall-clock time wasted (%)",
        height=460,
    )
    style.log_axis(fig, "x", curves["interval_minutes"].to_numpy())
    style.axis(fig, "y", range=[0, min(top, 100.0)], ticksuffix="%")
    return fig


def strategy_chart(table: pl.DataFrame) -> go.Figure:
    """Goodput per strategy as dots on a goodput axis that starts near the lowest (a dot, not
    a bar: a bar's length would read as the goodput itself from a cut axis), each labelled
    with what it saves or costs per day versus the first row (this scenario)."""
    goodput = [100.0 * g for g in table["goodput"].to_list()]
    savings = table["savings_usd_per_day"].to_list()
    names = table["strategy"].to_list()
    labels = [
        f"<b>{n}</b>"
        if i == 0
        else f"{n}<br><span style='font-size:10px'>{format_savings(s)}</span>"
        for i, (n, s) in enumerate(zip(names, savings, strict=True))
    ]
    fig = go.Figure(
        go.Scatter(
            y=labels,
            x=goodput,
            mode="markers+text",
            marker={
                "size": 14,
                "color": [COLORS[i % len(COLORS)] for i in range(table.height)],
                "line": {"width": 1, "color": "#333"},
            },
            text=[f"{g:.2f}%" for g in goodput],
            textposition="middle right",
            cliponaxis=False,
            hovertemplate="%{y}: goodput %{x:.2f}%<extra></extra>",
        )
    )
    lo = max(0.0, math.floor(min(goodput) - 3.0)) if goodput else 0.0
    style.layout(
        fig,
        "Goodput of each strategy, and what it saves",
        subtitle="Against this scenario (bold); alternatives use tier-model times and the "
        "optimal interval" + (f"; the axis starts at {lo:.0f}%" if lo > 0 else ""),
        x_title="Goodput (% of wall-clock time)",
        legend=False,
        height=460,
        margin_l=170,
    )
    # goodput ends at 100%: the dots' labels sit to their right, into the right margin
    style.axis(fig, "x", range=[lo, 100.0], ticksuffix="%", showgrid=True)
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    fig.layout.margin.r = 70
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
    style.layout(
        fig,
        "Failures that destroy every in-memory copy",
        subtitle="They fall back to the durable tier; dotted line: replicas chosen above",
        x_title="In-memory replicas per shard",
        y_title="Share of failures (%, log scale)",
        height=460,
    )
    style.drop_empty(fig)
    # whole decades around the points, so the highest one sits under a labelled tick (QA 18:
    # the 1-replica point above the top tick, 10, could not be read)
    v = survival["fallback_probability"].to_numpy() * 100
    v = v[np.isfinite(v) & (v > 0)]
    if v.size:
        lo, hi = 10.0 ** math.floor(math.log10(v.min())), 10.0 ** math.ceil(math.log10(v.max()))
        style.log_axis(fig, "y", [lo, hi], range=[math.log10(lo), math.log10(hi)])
    else:
        style.log_axis(fig, "y", v)
    style.axis(fig, "x", dtick=1)
    return fig
