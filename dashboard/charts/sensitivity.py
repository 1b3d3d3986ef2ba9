"""Figures for the Sensitivity page (pure: data -> go.Figure)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl

TEMPLATE = "plotly_white"


def tornado(df: pl.DataFrame, metric: str, label: str, unit: str, base: float) -> go.Figure:
    """Tornado: the metric at each input's low and high value, widest swing on top.

    ``df`` needs ``label``, ``low_value``, ``high_value``, ``{metric}_low``/``_high``.
    """
    d = df.sort(f"{metric}_swing")
    names = d["label"].to_list()
    lo = d[f"{metric}_low"].to_numpy()
    hi = d[f"{metric}_high"].to_numpy()
    fig = go.Figure()
    fig.add_bar(
        y=names,
        x=lo - base,
        base=base,
        orientation="h",
        name="Input lowered",
        marker_color="#1f77b4",
        customdata=np.stack([d["low_value"].to_numpy(), lo], axis=1),
        hovertemplate="%{y} = %{customdata[0]:.4g}: %{customdata[1]:.4g}<extra></extra>",
    )
    fig.add_bar(
        y=names,
        x=hi - base,
        base=base,
        orientation="h",
        name="Input raised",
        marker_color="#ff7f0e",
        customdata=np.stack([d["high_value"].to_numpy(), hi], axis=1),
        hovertemplate="%{y} = %{customdata[0]:.4g}: %{customdata[1]:.4g}<extra></extra>",
    )
    fig.add_vline(x=base, line={"color": "black", "width": 1})
    fig.update_layout(
        title=f"{label}: each input moved alone",
        xaxis_title=f"{label} ({unit})",
        yaxis_title="Input",
        barmode="overlay",
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.15},
        height=max(320, 40 * len(names) + 140),
    )
    return fig


def heatmap(grid: dict) -> go.Figure:
    """2-D map of a metric with the current scenario marked (``grid`` from services)."""
    fig = go.Figure(
        go.Heatmap(
            x=grid["x"],
            y=grid["y"],
            z=grid["z"],
            colorscale="Viridis",
            colorbar={"title": {"text": grid["z_label"]}},
            hovertemplate="x=%{x:.4g}<br>y=%{y:.4g}<br>%{z:.4g}<extra></extra>",
        )
    )
    fig.add_scatter(
        x=[grid["x_now"]],
        y=[grid["y_now"]],
        mode="markers",
        marker={"symbol": "x", "size": 14, "color": "red", "line": {"width": 2}},
        name=f"{grid.get('marker_text', 'This scenario')}: {grid['z_now']:.4g}",
    )
    fig.update_layout(
        title=grid.get("title") or grid["z_label"],
        xaxis_title=grid["x_label"],
        yaxis_title=grid["y_label"],
        template=TEMPLATE,
        legend={"orientation": "h", "y": -0.2},
    )
    return fig
