"""Figures for the Network page (pure: polars in, plotly figure out)."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import polars as pl

from . import style

TEMPLATE = style.TEMPLATE


#: Line dashes taken in turn with the colours: fabrics of equal speed draw the same line,
#: and a dash keeps the one underneath visible
DASHES = ("solid", "dash", "dot", "dashdot")


def _per_fabric_lines(df: pl.DataFrame, y: str, current_nodes: float) -> go.Figure:
    fig = go.Figure()
    for i, ((name,), part) in enumerate(df.group_by("instance", maintain_order=True)):
        fig.add_scatter(
            x=part["nodes"].to_numpy(),
            y=part[y].to_numpy(),
            mode="lines",
            name=str(name),
            line={
                "color": style.SEQUENCE[i % len(style.SEQUENCE)],
                "dash": DASHES[i % len(DASHES)],
            },
            customdata=part["fabric"].to_list(),
            hovertemplate="%{customdata}<br>%{x:,.0f} nodes: %{y:,.3g}<extra></extra>",
        )
    # the line is a shape (data values on a log axis); its label an annotation at the foot
    # of the line (above the plot it ran into the legend), whose x on a log axis is the
    # logarithm (a data value there was read as 10^x and stretched the
    # axis until every line sat in its first few pixels)
    fig.add_vline(x=current_nodes, line_dash="dot", line_color="#888")
    if current_nodes > 0:
        fig.add_annotation(
            x=math.log10(current_nodes),
            y=0.0,
            yref="paper",
            text="this scenario",
            showarrow=False,
            xanchor="left",
            yanchor="bottom",
            xshift=3,
            font={"size": 10, "color": "#555"},
        )
    return fig


def allreduce_vs_nodes_chart(df: pl.DataFrame, current_nodes: float) -> go.Figure:
    """Data-parallel gradient synchronisation per step (ms) against nodes, per instance; node
    counts with one data-parallel replica, which reduce nothing, are left out (0 has no
    place on a log axis: the line fell to the bottom there)."""
    df = df.filter(pl.col("allreduce_ms") > 0)
    fig = _per_fabric_lines(df, "allreduce_ms", current_nodes)
    style.layout(
        fig,
        "Gradient all-reduce per step",
        subtitle="Against nodes in the job, for each instance's fabric (EFA and scale-up); "
        "none with one data-parallel replica",
        x_title="Nodes in the job (log scale)",
        y_title="All-reduce per step (ms, log scale)",
        height=480,
        legend=True,  # one line (the only type that runs it) still says whose it is
    )
    style.log_axis(fig, "x", df["nodes"].to_numpy())
    style.log_axis(fig, "y", df["allreduce_ms"].to_numpy())
    return fig


def scaling_efficiency_chart(df: pl.DataFrame, current_nodes: float) -> go.Figure:
    """Scaling efficiency (compute / (compute + bubble + exposed comm), %) against nodes.

    Compute at the scenario MFU; with an end-to-end MFU this is informational (the step
    time does not use it), see :mod:`models.compute`.
    """
    fig = _per_fabric_lines(df, "scaling_efficiency_pct", current_nodes)
    style.layout(
        fig,
        "Scaling efficiency against nodes",
        subtitle="compute / (compute + bubble + exposed communication), per instance",
        x_title="Nodes in the job (log scale)",
        y_title="Scaling efficiency (%)",
        height=480,
        legend=True,
    )
    style.log_axis(fig, "x", df["nodes"].to_numpy())
    style.axis(fig, "y", range=[0, 101], ticksuffix="%")
    return fig


def reroute_chart(df: pl.DataFrame) -> go.Figure:
    """Money lost per day to fabric events for each labelled reroute time."""
    colors = [style.COLORS["red"] if f else style.COLORS["blue"] for f in df["becomes_job_failure"]]
    cost = df["fabric_cost_usd_per_day"].to_list()
    pts = df["fabric_goodput_loss"].to_list()
    # the dollars over the goodput points: on one line the longest label ran past the
    # plot at 1,024 px
    text = [
        "<br>".join(t for t in (c, p) if t) or "no cost"
        for c, p in zip(
            style.bar_text("fabric_cost_usd_per_day", cost),
            style.bar_text("fabric_goodput_loss", [-x for x in pts]),
            strict=True,
        )
    ]
    fig = go.Figure(
        go.Bar(
            y=style.wrap_all(df["reroute"].to_list(), 34),
            x=df["fabric_cost_usd_per_day"].to_numpy(),
            orientation="h",
            marker_color=colors,
            text=text,
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}<br>%{text}<extra></extra>",
        )
    )
    top = max(cost) if cost else 0.0  # (the range leaves 45% for the labels)
    # the colour key names only the colours drawn
    if any(bool(f) for f in df["becomes_job_failure"]):
        key = "Red: the stall outlasts the collective timeout and the job restarts"
    else:
        key = "Every stall here ends before the collective timeout: none restarts the job"
    style.layout(
        fig,
        "Cost of fabric reroute stalls",
        subtitle=key,
        x_title="Cost of fabric events ($/day)",
        legend=False,
        height=380,
        margin_l=250,
    )
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    style.axis(fig, "x", range=[0, max(top * 1.45, 1.0)], tickprefix="$", tickformat=",.0f")
    return fig


def fabric_value_chart(df: pl.DataFrame) -> go.Figure:
    """Savings per day ($/day, negative = costs) of each what-if change of the fabric."""
    usd = df["savings_usd_per_day"].to_numpy()
    days = df["days_change"].to_numpy()
    money = style.bar_text("savings_usd_per_day", usd, signed=True)
    change = style.bar_text("time_to_train_change_days", days, signed=True)
    hover = [
        ", ".join(t for t in (m, f"{d} to train" if d else "") if t) or "no change"
        for m, d in zip(money, change, strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            y=style.wrap_all(df["change"].to_list(), 24),
            x=usd,
            orientation="h",
            marker_color=[style.COLORS["green"] if u >= 0 else style.COLORS["red"] for u in usd],
            text=[m or "no change" for m in money],
            textposition="outside",
            cliponaxis=False,
            customdata=hover,
            hovertemplate="%{y}<br>%{customdata}<extra></extra>",
        )
    )
    style.layout(
        fig,
        "Savings per day of each change to the network",
        subtitle="Green saves, red costs; everything else as in the scenario",
        x_title="Savings at the scenario's cluster cost ($/day)",
        legend=False,
        height=360,
        margin_l=190,
    )
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    lo, hi = float(min(usd.min(), 0.0)), float(max(usd.max(), 0.0))
    pad = 0.4 * (hi - lo) if hi > lo else 1.0  # room for the labels outside the bars
    style.money_axis(fig, "x", hi + pad, lo - pad)
    return fig
