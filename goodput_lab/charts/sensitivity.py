"""Figures for the Sensitivity page (pure: data -> go.Figure)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl

from . import style

TEMPLATE = style.TEMPLATE
#: the realistic region of a map: within this factor of the scenario on both axes
REALISTIC_FACTOR = 2.0


def tornado(df: pl.DataFrame, metric: str, label: str, unit: str, base: float) -> go.Figure:
    """Tornado: the metric at each input's low and high value, widest swing on top.

    ``df`` needs ``label``, ``low_text``/``high_text`` (the input values in words) and
    ``{metric}_low``/``_high``.
    """
    d = df.sort(f"{metric}_swing")
    # an input that does not move the metric has no bar: it is named under the title
    # instead of drawn as an empty row
    moves = pl.col(f"{metric}_swing").abs() > 1e-12
    still = d.filter(~moves)["label"].to_list()
    d = d.filter(moves)
    names = d["label"].to_list()
    lo = d[f"{metric}_low"].to_numpy()
    hi = d[f"{metric}_high"].to_numpy()
    fmt = "%{customdata[1]:.2f}%" if unit == "%" else "$%{customdata[1]:,.0f}"
    fig = go.Figure()
    for values, texts, name, color in (
        (lo, d["low_text"].to_list(), "Input lowered", style.COLORS["blue"]),
        (hi, d["high_text"].to_list(), "Input raised", style.COLORS["orange"]),
    ):
        fig.add_bar(
            y=names,
            x=values - base,
            base=base,
            orientation="h",
            name=name,
            marker_color=color,
            customdata=np.stack([np.asarray(texts, dtype=object), values], axis=1),
            hovertemplate="%{y} = %{customdata[0]}: " + fmt + "<extra></extra>",
        )
    fig.add_vline(x=base, line={"color": "black", "width": 1})
    style.layout(
        fig,
        f"{label}: each input moved alone",
        subtitle="All other inputs held at the scenario; widest swing on top"
        + (f". Not moving it: {', '.join(still)}" if still else ""),
        x_title=f"{label} ({unit})",
        height=max(340, 34 * len(names) + 170),
        margin_l=230,
    )
    fig.layout.barmode = "overlay"
    style.axis(fig, "y", tickfont={"size": 11})
    if unit == "%":
        style.axis(fig, "x", ticksuffix="%")
    else:
        style.axis(fig, "x", tickprefix="$", tickformat=",.0f")
    return fig


def colour_range(grid: dict) -> style.ColourRange:
    """The map's colour span: the metric's range where both inputs are within
    REALISTIC_FACTOR of the scenario's values (the extreme corners would spend the whole
    scale on themselves)."""
    x, y = np.asarray(grid["x"], float), np.asarray(grid["y"], float)
    f = REALISTIC_FACTOR

    def near(a: np.ndarray, now: float) -> np.ndarray:
        if now <= 0:
            return a <= np.nanmax(a) / 3
        return (a >= now / f) & (a <= now * f)

    mask = near(y, grid["y_now"])[:, None] & near(x, grid["x_now"])[None, :]
    return style.colour_range(np.asarray(grid["z"], float), mask, widen=0.05)


def clipped_note(grid: dict) -> str:
    """Words for what the colour scale leaves at its end colours (empty when nothing)."""
    r = colour_range(grid)
    if not r.clipped:
        return ""
    unit = grid["z_unit"]
    parts = []
    if r.clipped_low:
        parts.append(f"{r.clipped_low:.0%} of the map below {_z(r.zmin, unit)}")
    if r.clipped_high:
        parts.append(f"{r.clipped_high:.0%} above {_z(r.zmax, unit)}")
    return (
        f"{grid['title']}: colours span the region within {REALISTIC_FACTOR:g}× of this "
        f"scenario on both axes; " + " and ".join(parts) + " share the end colours."
    )


#: Axis ticks of the maps: thousands separated, as many decimals as the ticks need (d3).
TICKS = ",~f"


def _z(v: float, unit: str) -> str:
    return f"{v:.2f}%" if unit == "%" else f"${v:,.0f}"


def heatmap(grid: dict) -> go.Figure:
    """2-D map of a metric with the current scenario marked (``grid`` from services); the
    colour scale spans the realistic region and its ends say when values lie beyond."""
    r = colour_range(grid)
    unit = grid["z_unit"]
    ticks = np.linspace(r.zmin, r.zmax, 5)
    text = [_z(v, unit) for v in ticks]
    if r.clipped_low:
        text[0] = "≤ " + text[0]
    if r.clipped_high:
        text[-1] = "≥ " + text[-1]
    zfmt = "%{z:.2f}%" if unit == "%" else "$%{z:,.0f}"
    fig = go.Figure(
        go.Heatmap(
            x=grid["x"],
            y=grid["y"],
            z=grid["z"],
            zmin=r.zmin,
            zmax=r.zmax,
            colorscale="Viridis",
            reversescale=unit != "%",  # dark = bad: low goodput, high losses
            colorbar={
                "title": {"text": grid["z_label"], "side": "right"},
                "tickvals": ticks,
                "ticktext": text,
            },
            hovertemplate=f"{grid['x_label']}: %{{x:,.4g}}<br>{grid['y_label']}: %{{y:,.4g}}"
            f"<br>{zfmt}<extra></extra>",
        )
    )
    fig.add_scatter(
        x=[grid["x_now"]],
        y=[grid["y_now"]],
        mode="markers",
        marker={"symbol": "x", "size": 14, "color": "red", "line": {"width": 2}},
        name=f"{grid.get('marker_text', 'This scenario')}: {_z(grid['z_now'], unit)}",
    )
    style.layout(
        fig,
        grid.get("title") or grid["z_label"],
        subtitle="× marks this scenario",
        x_title=grid["x_label"],
        y_title=grid["y_label"],
        legend=True,
        height=460,
    )
    for which in ("x", "y"):  # "2,000 nodes" as everywhere else, not "2000"
        style.axis(fig, which, tickformat=TICKS)
    return fig
