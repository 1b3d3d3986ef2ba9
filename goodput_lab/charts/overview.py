"""Figures for the Overview page (pure builders: DataFrame -> go.Figure)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

from . import style

TEMPLATE = style.TEMPLATE


def loss_waterfall(losses: pl.DataFrame, goodput: float) -> go.Figure:
    """Waterfall from 100% ideal to achieved goodput, one bar per loss component, drawn
    horizontally so every component's name reads in full.

    ``losses`` needs columns ``label`` and ``goodput_points`` (percent of wall time).
    Components that round to zero are left out (they would only add a "−0.00" label); the
    bars still add up to the achieved goodput.
    """
    shown = losses.filter(pl.col("goodput_points").abs() >= 0.005)
    pts = shown["goodput_points"].to_list()
    labels = ["Ideal", *shown["label"].to_list(), "Achieved goodput"]
    values = [100.0] + [-v for v in pts] + [goodput * 100]
    measure = ["absolute"] + ["relative"] * shown.height + ["total"]
    text = ["100%"] + [f"−{v:.2f}" for v in pts] + [f"{goodput * 100:.2f}%"]
    fig = go.Figure(
        go.Waterfall(
            y=style.wrap_all(labels, 22),
            x=values,
            orientation="h",
            measure=measure,
            text=text,
            textposition="outside",
            cliponaxis=False,
            decreasing={"marker": {"color": style.COLORS["red"]}},
            totals={"marker": {"color": style.COLORS["green"]}},
            increasing={"marker": {"color": style.COLORS["blue"]}},
            connector={"line": {"color": "#888", "width": 1}},
            hovertemplate="%{y}: %{text}<extra></extra>",
        )
    )
    lo = max(0.0, min(goodput * 100 - 5, 80.0))
    style.layout(
        fig,
        "Where the wall-clock time goes",
        subtitle="From 100% (no failures, no checkpoints) to the achieved goodput, in points "
        "of wall-clock time" + (f"; the axis starts at {lo:.0f}%" if lo > 0 else ""),
        x_title="Share of wall-clock time (%)",
        legend=False,
        height=430,
        margin_l=150,
    )
    style.axis(fig, "x", range=[lo, 104.5], ticksuffix="%")
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    return fig


#: The rate chart's subtitle on the dashboard, where the other inputs are the sidebar's.
RATE_CHART_SUBTITLE = "All other inputs as in the sidebar"


def goodput_vs_rate_chart(
    sweep: pl.DataFrame,
    current_rate_pct: float,
    current_goodput: float,
    subtitle: str = RATE_CHART_SUBTITLE,
) -> go.Figure:
    """Goodput against node failure rate (exact and first order), current point marked.

    ``subtitle`` says where the other inputs come from: the sidebar on the dashboard (the
    default); an exported report, which has no sidebar, names its own scenario."""
    fig = go.Figure()
    fig.add_scatter(
        x=sweep["node_failure_rate_pct"].to_numpy(),
        y=sweep["goodput_pct"].to_numpy(),
        name="Daly exact",
        mode="lines",
        line={"color": style.COLORS["blue"]},
        hovertemplate="%{x:.3f}% per node-day: goodput %{y:.2f}%<extra>Daly exact</extra>",
    )
    fig.add_scatter(
        x=sweep["node_failure_rate_pct"].to_numpy(),
        y=sweep["goodput_first_order_pct"].to_numpy(),
        name="First order (spreadsheet)",
        mode="lines",
        line={"dash": "dash", "color": style.COLORS["orange"]},
        hovertemplate="%{x:.3f}% per node-day: goodput %{y:.2f}%<extra>first order</extra>",
    )
    fig.add_scatter(
        x=[current_rate_pct],
        y=[current_goodput * 100],
        name=f"This scenario: {current_goodput * 100:.2f}%",
        mode="markers",
        marker={"size": 12, "symbol": "diamond", "color": "black"},
        hovertemplate="%{x:.3f}% per node-day: goodput %{y:.2f}%<extra>this scenario</extra>",
    )
    style.layout(
        fig,
        "Goodput against node failure rate",
        subtitle=subtitle,
        x_title="Node failure rate (% of nodes per day)",
        y_title="Goodput (% of wall-clock time)",
        height=430,
    )
    style.axis(fig, "x", ticksuffix="%")
    style.axis(fig, "y", ticksuffix="%")
    return fig
