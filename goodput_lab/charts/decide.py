"""Figures for the Decide page (pure: data in, go.Figure out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from . import style


def frontier_chart(
    rows: Sequence[Mapping[str, Any]], target: float, deadline_days: float
) -> go.Figure:
    """Expected total cost against P(finish by the deadline), one colour per instance type;
    frontier points filled, the others open; the choice marked; the target as a line."""
    fig = go.Figure()
    names = sorted({r["instance"] for r in rows})
    colours = {n: style.SEQUENCE[i % len(style.SEQUENCE)] for i, n in enumerate(names)}
    for n in names:
        pts = [r for r in rows if r["instance"] == n]
        fig.add_scatter(
            x=[100 * r["probability_finish_by_deadline"] for r in pts],
            y=[r["expected_total_cost_usd"] / 1e6 for r in pts],
            mode="markers",
            name=n,
            marker={
                "color": colours[n],
                "size": [10 if r["on_frontier"] else 7 for r in pts],
                "symbol": ["circle" if r["on_frontier"] else "circle-open" for r in pts],
            },
            customdata=[[r["nodes"], r["pricing"]] for r in pts],
            hovertemplate="%{customdata[0]:,} nodes, %{customdata[1]}<br>P %{x:.1f}%<br>"
            "$%{y:.2f}M expected<extra>" + n + "</extra>",
        )
    chosen = [r for r in rows if r["chosen"]]
    if chosen:
        c = chosen[0]
        fig.add_scatter(
            x=[100 * c["probability_finish_by_deadline"]],
            y=[c["expected_total_cost_usd"] / 1e6],
            mode="markers",
            name=f"Choice: {c['instance']} × {c['nodes']:,}, {c['pricing']}",
            marker={
                "size": 20,
                "color": style.COLORS["red"],
                "symbol": "star",
                "line": {"width": 1.5, "color": "black"},
            },
            hoverinfo="skip",
        )
    ys = [r["expected_total_cost_usd"] / 1e6 for r in rows]
    if ys:
        lo, hi = min(ys), max(ys)
        if hi - lo < 1e-9:  # one option (or equal costs): a line of no length was not drawn
            pad = max(abs(hi) * 0.02, 0.01)
            lo, hi = lo - pad, hi + pad
        fig.add_scatter(
            x=[100 * target, 100 * target],
            y=[lo, hi],
            mode="lines",
            line={"dash": "dash", "color": style.COLORS["grey"]},
            name=f"Target: {100 * target:.3g}%",  # 99.9%, not 100%
            hoverinfo="skip",
        )
    style.layout(
        fig,
        "Expected cost against the chance of finishing in time",
        subtitle=f"Every simulated option; filled: the cost-probability frontier "
        f"(no option is cheaper and at least as likely to finish within {deadline_days:g} days)",
        x_title=f"P(finish within {deadline_days:g} days) (%)",
        y_title="Expected total cost (million USD)",
        height=460,
    )
    # the whole probability scale, so the target's line is drawn wherever the options lie
    # (an axis ending at the options' 90% hid a 90% target in the plot's edge)
    style.axis(fig, "x", range=[-3.0, 103.0])
    return fig
