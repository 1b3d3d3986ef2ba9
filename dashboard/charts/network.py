"""Figures for the Network page (pure: polars in, plotly figure out)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

TEMPLATE = "plotly_white"


def _per_fabric_lines(df: pl.DataFrame, y: str, title: str, y_title: str, current_nodes: float):
    fig = go.Figure()
    for (fabric,), part in df.group_by("fabric", maintain_order=True):
        fig.add_scatter(
            x=part["nodes"].to_numpy(), y=part[y].to_numpy(), mode="lines", name=str(fabric)
        )
    fig.add_vline(x=current_nodes, line_dash="dot", line_color="#888")
    fig.update_layout(
        title=title,
        xaxis_title="Nodes in the job (log scale)",
        yaxis_title=y_title,
        xaxis_type="log",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 60},
    )
    return fig


def allreduce_vs_nodes_chart(df: pl.DataFrame, current_nodes: float) -> go.Figure:
    """Data-parallel gradient synchronisation per step (ms) against nodes, per fabric."""
    fig = _per_fabric_lines(
        df,
        "allreduce_ms",
        "Gradient all-reduce per step vs nodes, by instance fabric",
        "All-reduce time per step (ms, log scale)",
        current_nodes,
    )
    fig.update_yaxes(type="log")
    return fig


def scaling_efficiency_chart(df: pl.DataFrame, current_nodes: float) -> go.Figure:
    """Scaling efficiency (compute / (compute + bubble + exposed comm), %) against nodes.

    Compute at the scenario MFU; with an end-to-end MFU this is informational (the step
    time does not use it), see :mod:`models.compute`.
    """
    fig = _per_fabric_lines(
        df,
        "scaling_efficiency_pct",
        "Scaling efficiency vs nodes: compute / (compute + bubble + exposed communication)",
        "Scaling efficiency (%)",
        current_nodes,
    )
    fig.update_yaxes(range=[0, 101])
    return fig


def reroute_chart(df: pl.DataFrame) -> go.Figure:
    """Money lost per day to fabric events for each labelled reroute time."""
    colors = ["#d62728" if f else "#1f77b4" for f in df["becomes_job_failure"].to_list()]
    fig = go.Figure(
        go.Bar(
            y=df["reroute"].to_list(),
            x=df["fabric_cost_usd_per_day"].to_numpy(),
            orientation="h",
            marker_color=colors,
            text=[
                f"${c:,.0f}/day, −{p:.3f} goodput pts"
                for c, p in zip(
                    df["fabric_cost_usd_per_day"].to_list(),
                    df["goodput_loss_points"].to_list(),
                    strict=True,
                )
            ],
            textposition="auto",
            hovertemplate="%{y}<br>%{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Cost of fabric reroute stalls (red: stall exceeds the collective timeout)",
        yaxis_title="Reroute mechanism (labelled input)",
        xaxis_title="Cost of fabric events (USD/day)",
        yaxis_autorange="reversed",
        template=TEMPLATE,
        showlegend=False,
        margin={"t": 60},
    )
    return fig


def fabric_value_chart(df: pl.DataFrame) -> go.Figure:
    """Savings per day (USD/day, negative = costs) of each what-if change of the fabric."""
    usd = df["savings_usd_per_day"].to_numpy()
    days = df["days_change"].to_numpy()
    text = [
        f"{'−' if u < 0 else '+'}${abs(u):,.0f}/day, {d:+.1f} days to train".replace("-", "−")
        for u, d in zip(usd, days, strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            y=df["change"].to_list(),
            x=usd,
            orientation="h",
            marker_color=["#2ca02c" if u >= 0 else "#d62728" for u in usd],
            text=text,
            textposition="auto",
            hovertemplate="%{y}<br>%{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Savings per day of each change to the network (green saves, red costs)",
        yaxis_title="Change to the network (all else as the scenario)",
        xaxis_title="Savings at the scenario's cluster cost (USD/day)",
        yaxis_autorange="reversed",
        template=TEMPLATE,
        showlegend=False,
        margin={"t": 60},
    )
    return fig
