"""Figures for the Instances page (pure: polars in, plotly figure out).

Bars are horizontal so instance names read in full; types that cannot be shown (no price,
cannot run) are left out of a chart and the page says why next to it.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import polars as pl

from goodput_lab.models.instances import nodes_text

from . import style

TEMPLATE = style.TEMPLATE

COST_PARTS = [
    # end-to-end MFU basis: computation holds the whole productive step (comm and bubble
    # inside the MFU) and the next two parts are 0 (and left out of the legend); modelled
    # and compute_only bases: they are the exposed time added to the computation
    ("cost_compute_usd", "Productive computation", style.COLORS["green"]),
    ("cost_communication_usd", "Exposed communication", style.COLORS["blue"]),
    ("cost_bubble_usd", "Pipeline bubble", style.COLORS["purple"]),
    ("cost_failure_and_checkpoint_usd", "Failures and checkpoints", style.COLORS["red"]),
    ("cost_spares_usd", "Spare nodes", style.COLORS["grey"]),
]


def _labels(df: pl.DataFrame) -> list[str]:
    """Each bar's instance and node count, with the paid spares its cost includes as the
    tables write them ("× 1,152 + 180 spare", :func:`models.instances.nodes_text`)."""
    spares = df["paid_spare_nodes"].to_list() if "paid_spare_nodes" in df.columns else None
    out = []
    for i, (name, nodes, best) in enumerate(
        zip(df["instance"].to_list(), df["nodes"].to_list(), df["cheapest"].to_list(), strict=True)
    ):
        paid = spares[i] if spares is not None and spares[i] is not None else 0.0
        count = nodes_text(nodes, paid) if paid > 0 else f"{nodes:,.0f} nodes"
        out.append((f"<b>{name} ★</b>" if best else name) + f"<br>× {count}")
    return out


def _whiskers(fig: go.Figure, y, point, lo, hi, span: str) -> None:
    """The 80% interval of each bar as a horizontal error bar (an invisible marker at the
    point), named in the chart's subtitle rather than a legend row (which would crowd
    1024 px); ``span`` is the hover text's range, in the figure's unit."""
    x = np.asarray(point, dtype=float)
    fig.add_scatter(
        y=y,
        x=point,
        mode="markers",
        marker={"size": 1, "color": "rgba(0,0,0,0)"},
        error_x={
            "type": "data",
            "symmetric": False,
            "array": np.asarray(hi, dtype=float) - x,  # NaN (no interval): nothing drawn
            "arrayminus": x - np.asarray(lo, dtype=float),
            "color": "#333333",
            "thickness": 1.5,
            "width": 6,
        },
        name="80% interval",
        showlegend=False,
        hovertemplate=f"80% interval: {span}<extra></extra>",
        customdata=np.column_stack([lo, hi]),
    )


def time_to_train_chart(df: pl.DataFrame, deadline_days: float | None) -> go.Figure:
    """Days to train per instance (at its chosen node count), deadline as a line, and the
    step time's 80% interval as whiskers (QA pass 19: the page showed none, while the CLI
    said 33.9 to 62.3 days against a 45-day deadline)."""
    ok = df.filter(pl.col("time_to_train_days").is_not_nan())
    days = ok["time_to_train_days"].to_list()
    fig = go.Figure(
        go.Bar(
            y=_labels(ok),
            x=days,
            orientation="h",
            marker_color=[
                style.COLORS["orange"] if b else style.COLORS["blue"] for b in ok["cheapest"]
            ],
            hovertemplate="%{y}: %{x:.1f} days<extra></extra>",
        )
    )
    whiskers = False
    label_x = days
    if "time_to_train_days_high" in ok.columns:
        hi = ok["time_to_train_days_high"].to_numpy().astype(float)
        lo = ok["time_to_train_days_low"].to_numpy().astype(float)
        whiskers = bool(np.isfinite(hi).any() and (hi > lo).any())
        if whiskers:
            _whiskers(
                fig,
                _labels(ok),
                days,
                lo,
                hi,
                "%{customdata[0]:,.1f} to %{customdata[1]:,.1f} days",
            )
            label_x = np.where(np.isfinite(hi), np.maximum(hi, days), days).tolist()
            days = [*days, *[float(v) for v in hi if np.isfinite(v)]]
    # each label after its bar's whisker, level, as on the cost chart: inside a short bar
    # Plotly turned it 90° (QA 27 #10, 1024 px), and inside a long one the whisker crossed it
    # (two no-break spaces clear the whisker's cap: SVG collapses plain ones)
    fig.add_scatter(
        y=_labels(ok),
        x=label_x,
        mode="text",
        text=[f"\u00a0\u00a0{d:,.1f} days" for d in ok["time_to_train_days"].to_list()],
        textposition="middle right",
        textfont={"size": 11},
        cliponaxis=False,
        showlegend=False,
        hoverinfo="skip",
    )
    if deadline_days:
        fig.add_vline(
            x=deadline_days,
            line_dash="dash",
            line_color="black",
            annotation_text=f"deadline {deadline_days:g} days",
            annotation_position="top",
            annotation_font_size=11,
        )
    top = max([*days, deadline_days or 0.0, 1.0])
    style.layout(
        fig,
        "Time to train",
        subtitle="Failures, checkpoints and communication included; orange ★: cheapest"
        + ("; whiskers: the step time's 80% interval" if whiskers else ""),
        x_title="Time to train (days)",
        legend=False,
        height=max(320, 62 * ok.height + 140),
        margin_l=150,
    )
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    style.axis(fig, "x", range=[0, top * 1.35])
    return fig


def cost_to_train_chart(df: pl.DataFrame) -> go.Figure:
    """Cost to train per priced instance, stacked by where the money goes (USD)."""
    ok = df.filter(pl.col("cost_to_train_usd").is_not_nan())
    y = _labels(ok)
    fig = go.Figure()
    for col, name, color in COST_PARTS:
        fig.add_bar(
            y=y,
            x=ok[col].to_numpy(),
            orientation="h",
            name=name,
            marker_color=color,
            hovertemplate=f"{name}: $%{{x:,.0f}}<extra></extra>",
        )
    style.drop_empty(fig)
    total = ok["cost_to_train_usd"].to_list()
    if "cost_to_train_usd_high" in ok.columns:
        hi = ok["cost_to_train_usd_high"].to_numpy()
        lo = ok["cost_to_train_usd_low"].to_numpy()
        if np.isfinite(hi).any() and (hi > lo).any():
            _whiskers(fig, y, total, lo, hi, "$%{customdata[0]:,.0f} to $%{customdata[1]:,.0f}")
            total_max = float(np.nanmax(hi))
            label_x = np.where(np.isfinite(hi), np.maximum(hi, total), total).tolist()
            whiskers = True
        else:
            total_max, label_x, whiskers = max(total, default=1.0), total, False
    else:
        total_max, label_x, whiskers = max(total, default=1.0), total, False
    fig.add_scatter(
        y=y,
        x=label_x,
        mode="text",
        # clear of the whisker's cap (two no-break spaces: SVG collapses plain ones)
        text=[
            ("\u00a0\u00a0" + t) if whiskers and t else t
            for t in style.bar_text("cost_to_train_usd", total)
        ],
        textposition="middle right",
        showlegend=False,
        hoverinfo="skip",
    )
    style.layout(
        fig,
        "Cost to train, by where the money goes",
        subtitle="Priced types only; ★ cheapest",
        x_title="Cost to train, instances ($)" + ("; whiskers: 80% interval" if whiskers else ""),
        height=max(320, 62 * ok.height + 160),
        margin_l=150,
    )
    fig.layout.barmode = "stack"
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    style.money_axis(fig, "x", total_max * 1.35)
    return fig


def ratio_note(df: pl.DataFrame, reference: str) -> str | None:
    """The one line that stands in for :func:`ratio_chart` when it would be empty (QA 27
    #5: p5.48xlarge, the reference, cannot train the p6e-gb200-nvl72 workload, every
    modelled ratio is NaN and the chart was a bare frame); None when the chart has bars."""
    if df["modeled_ratio_vs_reference"].is_not_nan().any():
        return None
    return (
        f"Speed per accelerator is not charted: its reference, {reference}, cannot train "
        "this workload, so there is no modelled ratio to it (why: under the side-by-side "
        "table)."
    )


def ratio_chart(df: pl.DataFrame, reference: str) -> go.Figure:
    """Peak BF16 ratio vs modeled useful-throughput ratio per accelerator, vs reference."""
    ok = df.filter(pl.col("modeled_ratio_vs_reference").is_not_nan())
    fig = go.Figure()
    fig.add_bar(
        x=ok["instance"].to_list(),
        y=ok["peak_ratio_vs_reference"].to_numpy(),
        name="Peak BF16 (spec sheet)",
        marker_color=style.COLORS["grey"],
        hovertemplate="%{x}: %{y:.2f}×<extra>peak</extra>",
    )
    fig.add_bar(
        x=ok["instance"].to_list(),
        y=ok["modeled_ratio_vs_reference"].to_numpy(),
        name="Useful FLOP/s over the run (model)",
        marker_color=style.COLORS["blue"],
        hovertemplate="%{x}: %{y:.2f}×<extra>model</extra>",
    )
    style.layout(
        fig,
        f"Speed per accelerator relative to {reference}",
        subtitle="Spec-sheet peak against what the model expects over the whole run",
        y_title=f"Ratio to {reference} (×)",
        height=420,
    )
    fig.layout.barmode = "group"
    return fig
