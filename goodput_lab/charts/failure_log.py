"""Figures for the Failure log page (pure builders: polars in, plotly figure out)."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import polars as pl

from . import style

TEMPLATE = style.TEMPLATE


def survival_chart(empirical: pl.DataFrame, fitted: pl.DataFrame, shape: float) -> go.Figure:
    """Survival P(TBF > t) of the log against the exponential and Weibull fits, log axes.

    ``empirical`` needs ``tbf_h``, ``survival``; ``fitted`` needs ``tbf_h``, ``exponential``,
    ``weibull``.  On these axes an exponential bends down sharply; a Weibull with shape < 1
    (decreasing hazard) has a longer tail.
    """
    fig = go.Figure()
    fig.add_scatter(
        x=empirical["tbf_h"].to_numpy(),
        y=empirical["survival"].to_numpy(),
        mode="markers",
        name="Log (empirical)",
        marker={"size": 5, "color": "#444"},
        hovertemplate="%{x:.2f} h: %{y:.3f}<extra>log</extra>",
    )
    fig.add_scatter(
        x=fitted["tbf_h"].to_numpy(),
        y=fitted["exponential"].to_numpy(),
        mode="lines",
        name="Exponential fit",
        line={"color": "#1f77b4", "dash": "dash"},
    )
    if not math.isnan(shape):  # no Weibull where every gap is the same (fit_tbf)
        fig.add_scatter(
            x=fitted["tbf_h"].to_numpy(),
            y=fitted["weibull"].to_numpy(),
            mode="lines",
            name=f"Weibull fit (k = {shape:.2f})",
            line={"color": "#d62728"},
        )
    ymin = max(1e-4, float(empirical["survival"].min()) / 2)
    style.layout(
        fig,
        "Job time between failures: the log against the fits",
        subtitle="Survival P(time between incidents > t); an exponential bends down sharply, "
        "a Weibull with shape < 1 has a longer tail",
        x_title="Time between incidents (h, log scale)",
        y_title="Share of gaps longer than t (log scale)",
        height=440,
    )
    style.log_axis(fig, "x", empirical["tbf_h"].to_numpy())
    style.log_axis(fig, "y", [ymin, 1.0])
    style.axis(fig, "y", range=[math.log10(ymin), 0.05])
    return fig


def cause_chart(causes: pl.DataFrame) -> go.Figure:
    """Share of failures per cause in the log next to Llama 3 405B's shares (%).

    ``causes`` needs ``label``, ``share_pct``, ``llama3_share_pct``.
    """
    df = causes.sort("share_pct")
    fig = go.Figure()
    fig.add_bar(
        y=df["label"].to_list(), x=df["share_pct"].to_numpy(), orientation="h", name="This log"
    )
    fig.add_bar(
        y=df["label"].to_list(),
        x=df["llama3_share_pct"].to_numpy(),
        orientation="h",
        name="Llama 3 405B (arXiv:2407.21783)",
        marker={"color": "#bbb"},
    )
    style.layout(
        fig,
        "Failure causes: this log against Llama 3 405B",
        subtitle="Root causes on the Llama 3 taxonomy (arXiv:2407.21783 Table 5)",
        x_title="Share of failures (%)",
        height=max(360, 34 * df.height + 160),
        margin_l=200,
    )
    fig.layout.barmode = "group"
    style.axis(fig, "x", ticksuffix="%")
    return fig
