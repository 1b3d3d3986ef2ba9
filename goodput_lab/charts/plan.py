"""Figures for the Plan page (pure: data in, go.Figure out)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

from goodput_lab.models.outputs import format_value

from . import style

TEMPLATE = style.TEMPLATE
X_TITLE = "Capacity Block length (days; purchasable lengths)"


def _layout(
    fig: go.Figure, title: str, subtitle: str, y_title: str, x_range: tuple[float, float]
) -> None:
    style.layout(fig, title, subtitle=subtitle, x_title=X_TITLE, y_title=y_title, height=420)
    style.axis(fig, "x", range=list(x_range))


def completion_chart(
    curve: pl.DataFrame,
    chosen_days: float,
    chosen_probability_pct: float,
    target_pct: float,
    x_range: tuple[float, float],
) -> go.Figure:
    """Probability of finishing inside the block against its length, the choice marked."""
    fig = go.Figure()
    fig.add_scatter(
        x=curve["block_days"].to_numpy(),
        y=curve["probability_pct"].to_numpy(),
        mode="lines+markers",
        line_shape="hv",
        name="Finishes within the block",
        marker={"size": 6},
        hovertemplate="%{x:g} days: %{y:.1f}%<extra></extra>",
    )
    fig.add_scatter(
        x=[x_range[0], x_range[1]],
        y=[target_pct, target_pct],
        mode="lines",
        line={"dash": "dash", "color": style.COLORS["grey"]},
        name=f"Target: {target_pct:.0f}% chance to finish",
        hoverinfo="skip",
    )
    fig.add_scatter(
        x=[chosen_days],
        y=[chosen_probability_pct],
        mode="markers",
        # the registry's percentage, as the "Finishes within the block" tile (100.00%)
        name=f"Chosen: {chosen_days:g} days, "
        + format_value("probability_finish_within_block", chosen_probability_pct / 100.0),
        marker={"size": 14, "color": style.COLORS["red"], "symbol": "diamond"},
    )
    _layout(
        fig,
        "Probability of finishing inside the block",
        "Share of the simulated runs that finish before the block ends",
        "Probability of finishing (%)",
        x_range,
    )
    style.axis(fig, "y", range=[-3, 103], tickvals=[0, 25, 50, 75, 90, 100], ticksuffix="%")
    return fig


def cost_chart(
    curve: pl.DataFrame,
    chosen_days: float,
    chosen_expected_musd: float,
    chosen_p90_musd: float,
    x_range: tuple[float, float],
) -> go.Figure:
    """Expected and P90 total cost (block + overrun + storage) against block length."""
    x = curve["block_days"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        x=x,
        y=curve["expected_cost_musd"].to_numpy(),
        mode="lines+markers",
        name="Expected total cost",
        marker={"size": 6},
        hovertemplate="%{x:g} days: $%{y:,.2f}M<extra></extra>",
    )
    fig.add_scatter(
        x=x,
        y=curve["p90_cost_musd"].to_numpy(),
        mode="lines",
        line={"dash": "dot"},
        name="P90 total cost",
        hovertemplate="%{x:g} days: $%{y:,.2f}M<extra></extra>",
    )
    fig.add_scatter(
        x=[chosen_days, chosen_days],
        y=[chosen_expected_musd, chosen_p90_musd],
        mode="markers",
        name=f"Chosen: {chosen_days:g} days",
        marker={"size": 14, "color": style.COLORS["red"], "symbol": "diamond"},
        hovertemplate="%{x:g} days: $%{y:,.2f}M<extra></extra>",
    )
    _layout(
        fig,
        "Total cost by block length",
        "The block, the overrun at the fallback price and the storage",
        "Total cost ($ million)",
        x_range,
    )
    style.axis(fig, "y", tickprefix="$", ticksuffix="M", tickformat=",.4g")
    inside = curve.filter(
        (pl.col("block_days") >= x_range[0]) & (pl.col("block_days") <= x_range[1])
    )
    if inside.height:
        lo = min(inside["expected_cost_musd"].min(), chosen_expected_musd)
        hi = max(inside["p90_cost_musd"].max(), chosen_p90_musd)
        pad = 0.05 * (hi - lo) if hi > lo else 1.0
        style.axis(fig, "y", range=[lo - pad, hi + pad])
    return fig
