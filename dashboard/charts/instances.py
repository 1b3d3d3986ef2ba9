"""Figures for the Instances page (pure: polars in, plotly figure out)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

TEMPLATE = "plotly_white"

COST_PARTS = [
    # end-to-end MFU basis: compute holds the whole productive step (comm and bubble inside
    # the MFU) and the two "added" parts below are 0; compute_only: they are added
    ("cost_compute_usd", "Productive steps at the stated MFU", "#2ca02c"),
    ("cost_communication_usd", "Added exposed communication (compute-only MFU)", "#1f77b4"),
    ("cost_bubble_usd", "Added pipeline bubble (compute-only MFU)", "#9467bd"),
    ("cost_failure_and_checkpoint_usd", "Failures and checkpoints", "#d62728"),
    ("cost_spares_usd", "Hot spares", "#7f7f7f"),
]


def _labels(df: pl.DataFrame) -> list[str]:
    return [
        f"{name} ×{nodes:,.0f}" + (" ★" if best else "")
        for name, nodes, best in zip(
            df["instance"].to_list(), df["nodes"].to_list(), df["cheapest"].to_list(), strict=True
        )
    ]


def time_to_train_chart(df: pl.DataFrame, deadline_days: float | None) -> go.Figure:
    """Days to train per instance (at its chosen node count), deadline as a line."""
    ok = df.filter(pl.col("time_to_train_days").is_not_nan())
    fig = go.Figure(
        go.Bar(
            x=_labels(ok),
            y=ok["time_to_train_days"].to_numpy(),
            marker_color=["#ff7f0e" if b else "#1f77b4" for b in ok["cheapest"].to_list()],
            hovertemplate="%{x}: %{y:.1f} days<extra></extra>",
        )
    )
    if deadline_days:
        fig.add_hline(
            y=deadline_days, line_dash="dash", line_color="black", annotation_text="deadline"
        )
    fig.update_layout(
        title="Time to train (failures, checkpoints and communication included)",
        xaxis_title="Instance × nodes",
        yaxis_title="Time to train (days)",
        template=TEMPLATE,
        showlegend=False,
        margin={"t": 60},
    )
    return fig


def cost_to_train_chart(df: pl.DataFrame) -> go.Figure:
    """Cost to train per priced instance, stacked by where the money goes (USD)."""
    ok = df.filter(pl.col("cost_to_train_usd").is_not_nan())
    x = _labels(ok)
    fig = go.Figure()
    for col, name, color in COST_PARTS:
        fig.add_bar(
            x=x,
            y=ok[col].to_numpy(),
            name=name,
            marker_color=color,
            hovertemplate=f"{name}: $%{{y:,.0f}}<extra></extra>",
        )
    fig.update_layout(
        barmode="stack",
        title="Cost to train, by component (★ = cheapest meeting the deadline)",
        xaxis_title="Instance × nodes (priced instances only)",
        yaxis_title="Cost to train (USD)",
        template=TEMPLATE,
        legend={"orientation": "v"},
        margin={"t": 60},
    )
    return fig


def ratio_chart(df: pl.DataFrame, reference: str) -> go.Figure:
    """Peak BF16 ratio vs modeled useful-throughput ratio per accelerator, vs reference."""
    ok = df.filter(pl.col("modeled_ratio_vs_reference").is_not_nan())
    fig = go.Figure()
    fig.add_bar(
        x=ok["instance"].to_list(),
        y=ok["peak_ratio_vs_reference"].to_numpy(),
        name="Peak BF16 spec ratio",
    )
    fig.add_bar(
        x=ok["instance"].to_list(),
        y=ok["modeled_ratio_vs_reference"].to_numpy(),
        name="Modeled useful FLOP/s ratio",
    )
    fig.update_layout(
        barmode="group",
        title=f"Per-accelerator speed relative to {reference}: spec sheet vs model",
        xaxis_title="Instance",
        yaxis_title=f"Ratio to {reference} (×)",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 60},
    )
    return fig
