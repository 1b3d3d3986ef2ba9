"""Figures for the Compare page (pure: data -> go.Figure)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import polars as pl

from goodput_lab.models.outputs import format_savings

from . import style

TEMPLATE = style.TEMPLATE
#: colours of the baseline and up to three candidates
SCENARIO_COLORS = ("#7f7f7f", style.COLORS["blue"], style.COLORS["orange"], style.COLORS["purple"])


def savings_waterfall(rows: pl.DataFrame, total_usd_per_day: float, title: str = "") -> go.Figure:
    """Savings per day of a candidate, split by loss component and running cost.

    ``rows`` needs ``label`` and ``usd_per_day`` (positive = the candidate saves money).
    Horizontal, so every component's name reads in full; components that round to $0 are
    left out (they would only add a "$0" or "−0" label) and the bars still add up to the
    total.
    """
    shown = rows.filter(pl.col("usd_per_day").abs() >= 0.5)
    labels = [*shown["label"].to_list(), "Savings per day"]
    values = [*shown["usd_per_day"].to_list(), total_usd_per_day]
    text = [format_savings(v).replace("/day", "") for v in values]
    fig = go.Figure(
        go.Waterfall(
            y=style.wrap_all(labels, 24),
            x=values,
            orientation="h",
            measure=["relative"] * shown.height + ["total"],
            text=text,
            textposition="outside",
            cliponaxis=False,
            textfont={"size": 11},
            increasing={"marker": {"color": style.COLORS["green"]}},
            decreasing={"marker": {"color": style.COLORS["red"]}},
            totals={"marker": {"color": style.COLORS["blue"]}},
            connector={"line": {"color": "#888", "width": 1}},
            hovertemplate="%{y}: %{text} per day<extra></extra>",
        )
    )
    span = [0.0]
    acc = 0.0
    for v in values[:-1]:
        acc += v
        span.append(acc)
    span.append(total_usd_per_day)
    lo, hi = min(span), max(span)
    pad = (hi - lo) * 0.45 or max(abs(hi), 1.0)
    nothing = shown.height == 0 and abs(total_usd_per_day) < 0.5
    if nothing:  # a $1 axis read "$0 $0 $0 $1 $1 $1": a symmetric one around the one bar
        lo, hi, pad = -1000.0, 1000.0, 0.0
    style.layout(
        fig,
        title or "Where the savings come from",
        subtitle="The two scenarios cost the same per day"
        if nothing
        else "Per day against the baseline: green saves, red costs",
        x_title="Savings ($/day)",
        legend=False,
        height=max(300, 46 * len(labels) + 150),
        margin_l=170,
    )
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    style.money_axis(fig, "x", max(hi, 0.0) + pad, lo=min(lo, 0.0) - (pad if lo < 0 else 0.0))
    fig.layout.margin.r = 30
    return fig


def loss_bars(labels: list[str], series: Sequence[tuple[str, Sequence[float]]]) -> go.Figure:
    """Minutes lost per day by component, one bar per scenario (baseline first); components
    no scenario loses time to are left out."""
    keep = [i for i in range(len(labels)) if any(abs(v[i]) >= 0.05 for _, v in series)]
    fig = go.Figure()
    for j, (name, values) in enumerate(series):
        fig.add_bar(
            y=style.wrap_all([labels[i] for i in keep], 24),
            x=[values[i] for i in keep],
            orientation="h",
            name=name,
            marker_color=SCENARIO_COLORS[j % len(SCENARIO_COLORS)],
            hovertemplate="%{y}: %{x:,.1f} min/day<extra>" + name + "</extra>",
        )
    style.layout(
        fig,
        "Time lost per day, by component",
        subtitle="Baseline and each candidate",
        x_title="Lost time (min/day)",
        height=max(320, (14 * len(series) + 16) * len(keep) + 160),
        margin_l=170,
    )
    fig.layout.barmode = "group"
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    return fig
