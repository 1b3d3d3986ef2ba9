"""Figures for the Resilience page and the report's ladder (pure: data -> go.Figure)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

from goodput_lab.views.display import change, header

from . import style

TEMPLATE = style.TEMPLATE
SAVES = style.COLORS["green"]
COSTS = style.COLORS["red"]
TOTAL = style.COLORS["blue"]
#: rung labels wrap at this many characters and get this much room on the left [px]
LABEL_CHARS = 24
LABEL_MARGIN = 180


def _wrap(label: str, width: int = 16) -> str:
    words, lines, cur = label.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    lines.append(cur)
    return "<br>".join(lines)


def ladder_waterfall(rungs: pl.DataFrame, unit: str = "$/day") -> go.Figure:
    """The ladder as a (horizontal) waterfall: the baseline, one bar per rung, the last rung.

    ``rungs`` is :func:`goodput_lab.views.resilience.rung_numbers`.  In $/day the bars are
    lost dollars per day (a rung that saves money shortens it, green; one that costs more
    than it saves lengthens it, red); in goodput points they are goodput (a gain is green).
    """
    labels = [f"{i}. {lab}" for i, lab in zip(rungs["rung"], rungs["label"], strict=True)]
    labels[0] = "Baseline"
    labels = style.wrap_all(labels, LABEL_CHARS)
    last = "After every rung"
    if unit == "$/day":
        start = rungs["lost_usd_per_day"][0]
        steps = [-d for d in rungs["delta_usd_per_day"].to_list()[1:]]
        end = rungs["lost_usd_per_day"][-1]
        text = [f"${start:,.0f}"]
        # a rung that moves nothing under a dollar reads "no change", not "costs $0"
        text += [
            "no change" if abs(v) < 0.5 else f"{'saves' if v < 0 else 'costs'} ${abs(v):,.0f}"
            for v in steps
        ]
        text.append(f"${end:,.0f}")
        inc, dec = COSTS, SAVES  # lost money going up is a cost
        title = "Lost per day, rung by rung"
        subtitle = "Goodput losses plus the cost of every feature adopted so far"
        axis = header("lost_usd_per_day")  # "Lost per day ($)": the period once
    else:
        start = rungs["goodput_pct"][0]
        steps = rungs["delta_goodput_points"].to_list()[1:]
        end = rungs["goodput_pct"][-1]
        # the registry's points format (true minus sign), as the ladder's table: "no change"
        # for none, a move under half a hundredth in two significant digits ("−0.0038
        # points" beside its "costs $180", not "no change")
        text = [
            f"{start:.2f}%",
            *(change("goodput_delta", v / 100.0) for v in steps),
            f"{end:.2f}%",
        ]
        inc, dec = SAVES, COSTS
        title = "Goodput, rung by rung"
        subtitle = "Each rung adopts one more feature"
        axis = "Goodput (% of wall-clock time)"
    fig = go.Figure(
        go.Waterfall(
            orientation="h",
            y=[*labels, last],
            x=[start, *steps, end],
            measure=["absolute"] + ["relative"] * len(steps) + ["total"],
            text=text,
            textposition="outside",
            cliponaxis=False,
            textfont={"size": 11},
            increasing={"marker": {"color": inc}},
            decreasing={"marker": {"color": dec}},
            totals={"marker": {"color": TOTAL}},
            connector={"line": {"color": "#888", "width": 1}},
            hovertemplate="%{y}: %{text}<extra></extra>",
        )
    )
    style.layout(
        fig,
        title,
        subtitle=subtitle,
        x_title=axis,
        legend=False,
        margin_l=LABEL_MARGIN,
    )
    style.fit_rows(fig, labels, rows=len(labels) + 1, minimum=360)  # and the last rung
    if unit != "$/day":
        values = rungs["goodput_pct"].to_list()
        lo, hi = max(0.0, min(values) - 2.0), min(100.0, max(values) + 1.5)
        # room on the right for the labels outside the bars; the subtitle says where the
        # axis starts, as the Overview's and Checkpoints' do
        style.axis(fig, "x", range=[lo, hi], ticksuffix="%")
        fig.layout.margin.r = max(fig.layout.margin.r or 0, 90)
        if lo > 0:
            fig.layout.title.subtitle.text = f"{subtitle}; the axis starts at {lo:.0f}%"
    else:
        top = max(rungs["lost_usd_per_day"].to_list())
        style.money_axis(fig, "x", top * 1.3)
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    return fig


def montecarlo_spread(mc: pl.DataFrame) -> go.Figure:
    """Simulated goodput per rung: P5–P95 band as error bars around the mean, and the
    analytic value (``mc`` is :func:`goodput_lab.views.resilience.montecarlo_numbers`);
    horizontal, one row per rung in ladder order."""
    y = style.wrap_all(mc["rung"].to_list(), LABEL_CHARS)
    mean = mc["mean_pct"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        y=y,
        x=mean,
        mode="markers",
        name="Simulated mean, P5–P95",
        marker={"size": 9, "color": TOTAL},
        error_x={
            "type": "data",
            "symmetric": False,
            "array": mc["p95_pct"].to_numpy() - mean,
            "arrayminus": mean - mc["p5_pct"].to_numpy(),
            "thickness": 1.5,
            "width": 6,
        },
        hovertemplate="%{y}<br>mean %{x:.2f}%<extra></extra>",
    )
    fig.add_scatter(
        y=y,
        x=mc["analytic_pct"].to_numpy(),
        mode="markers",
        name="Analytic (Daly)",
        marker={"size": 12, "symbol": "line-ns-open", "color": "black", "line": {"width": 2}},
        hovertemplate="%{y}<br>analytic %{x:.2f}%<extra></extra>",
    )
    style.layout(
        fig,
        "Monte Carlo spread per rung",
        subtitle="Goodput over the window: simulated mean with P5–P95, and the analytic value",
        x_title="Goodput (% of wall-clock time)",
        margin_l=LABEL_MARGIN,
    )
    style.fit_rows(fig, y)
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    style.axis(fig, "x", ticksuffix="%")
    return fig


def cause_bars(causes: pl.DataFrame) -> go.Figure:
    """Savings per day of each rung, stacked by cause (``causes`` from ``cause_long``);
    horizontal, one row per rung in ladder order."""
    fig = go.Figure()
    rung_order = style.wrap_all(dict.fromkeys(causes["rung"].to_list()), LABEL_CHARS)
    wrapped = dict(zip(dict.fromkeys(causes["rung"].to_list()), rung_order, strict=True))
    for cause in dict.fromkeys(causes["cause"].to_list()):
        sub = causes.filter(pl.col("cause") == cause)
        by_rung = dict(
            zip(
                [wrapped[r] for r in sub["rung"].to_list()],
                sub["usd_per_day"].to_list(),
                strict=True,
            )
        )
        fig.add_bar(
            y=rung_order,
            x=[by_rung.get(r, 0.0) for r in rung_order],
            name=cause,
            orientation="h",
            hovertemplate=f"{cause}<br>%{{y}}: $%{{x:,.0f}}/day<extra></extra>",
        )
    style.drop_empty(fig)
    style.layout(
        fig,
        "Where each rung's saving comes from",
        subtitle="By failure cause, or the other loss or cost it changes",
        x_title="Saving ($/day; negative = a cost)",
        margin_l=LABEL_MARGIN,
    )
    style.fit_rows(fig, rung_order)
    fig.layout.barmode = "relative"
    style.axis(fig, "y", autorange="reversed", tickfont={"size": 11})
    # stacked both ways: the axis spans each rung's negative and positive sums; tick labels
    # as amounts ("−$1,000"; a "$" prefix wrote "$−1,000")
    usd = causes.group_by("rung").agg(
        pl.col("usd_per_day").clip(upper_bound=0.0).sum().alias("neg"),
        pl.col("usd_per_day").clip(lower_bound=0.0).sum().alias("pos"),
    )
    lo = min(0.0, float(usd["neg"].min() or 0.0)) if usd.height else 0.0
    hi = max(0.0, float(usd["pos"].max() or 0.0)) if usd.height else 0.0
    pad = 0.05 * ((hi - lo) or 1.0)
    style.money_axis(fig, "x", hi + pad, lo=lo - pad if lo < 0 else 0.0)
    return fig
