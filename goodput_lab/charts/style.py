"""The house style of every chart: one place for what makes a figure readable in five seconds.

Builders call these instead of setting layout by hand:

* :func:`layout` — title (wrapped to fit a half-width column), optional subtitle, axis titles
  with units, legend above the plot (only when there is something to tell apart), margins.
* :func:`log_axis` — a log axis labelled at decades only (1, 10, 100, 1,000), or at 1-2-5
  steps when the data span less than two decades; never plotly's "5, 2, 1000, 5, 2".
* :func:`drop_empty` — removes traces that draw nothing (all zero or missing), so the legend
  lists only what is drawn.
* :func:`colour_range` — a colour scale spent on the realistic region around the scenario,
  with the clipped part named (for the colour bar's ticks and the caption).
* :func:`bar_text` — bar labels from the output registry, with no "−0.00": values that
  round to zero get no label.
* :func:`wrap` — category labels wrapped onto lines instead of slanted and overlapping.

Importing this module makes ``plotly_white`` plotly's default template (see TEMPLATE):
figures never set a template themselves, which keeps building one to a few milliseconds.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from goodput_lab.models.outputs import OUTPUTS, format_value

TEMPLATE = "plotly_white"
# The house template is plotly's default for every figure this process builds: a figure
# starts from the (pre-validated) default template almost for free, while assigning a
# template to each figure (update_layout(template=...)) costs 20-80 ms of validation.
pio.templates.default = TEMPLATE
FONT = "sans-serif"  # the browser's own: no web font is fetched
#: Charts take the page's full width; at a 1024 px window with the sidebar open that is about
#: 560 px: title lines that fit it (16 px font), subtitle lines (12 px).  The legend spans
#: the plot area only, the width less the margins (60 px left, 20 right): about 480 px, so
#: its rows are counted on that (counted on 560, the Checkpoints page's six strategies took
#: a third row at 1024 px that the top margin had no room for, over the subtitle).
TITLE_CHARS = 60
SUBTITLE_CHARS = 90
LEGEND_WIDTH_PX = 480
COLORS = {
    "blue": "#1f77b4",
    "orange": "#ff7f0e",
    "green": "#2ca02c",
    "red": "#d62728",
    "purple": "#9467bd",
    "brown": "#8c564b",
    "pink": "#e377c2",
    "grey": "#7f7f7f",
    "olive": "#bcbd22",
    "cyan": "#17becf",
}
SEQUENCE = tuple(COLORS.values())


def wrap(text: str, width: int) -> str:
    """``text`` wrapped with <br> at ``width`` characters (plotly does not wrap)."""
    return "<br>".join(textwrap.wrap(str(text), width)) or str(text)


def wrap_all(labels: Iterable[str], width: int = 14) -> list[str]:
    return [wrap(s, width) for s in labels]


def layout(
    fig: go.Figure,
    title: str,
    *,
    subtitle: str = "",
    x_title: str | None = None,
    y_title: str | None = None,
    legend: bool | None = None,
    height: int | None = None,
    margin_l: int = 60,
) -> go.Figure:
    """Apply the house layout: wrapped title and subtitle, axis titles, legend on top.

    ``margin_l`` [px] is the left margin (wide for long category labels); the legend spans
    the plot area beside it, so its rows are counted on what is left of the width."""
    t = wrap(title, TITLE_CHARS)
    lines = t.count("<br>") + 1
    title_cfg: dict = {
        "text": t,
        "x": 0,
        "xanchor": "left",
        "xref": "container",
        "y": 1,
        "yanchor": "top",
        "yref": "container",
        "pad": {"t": 14, "l": 8},
        "font": {"size": 16},
    }
    if subtitle:
        s = wrap(subtitle, SUBTITLE_CHARS)
        title_cfg["subtitle"] = {"text": s, "font": {"size": 12, "color": "#555"}}
        lines += s.count("<br>") + 1
    shown = [tr for tr in fig.data if tr.showlegend is not False and tr.name]
    if legend is None:
        legend = len(shown) > 1
    width = LEGEND_WIDTH_PX - (margin_l - 60)
    rows = legend_rows([str(tr.name) for tr in shown], width) if legend else 0
    top = 30 + 21 * lines + 21 * rows + (8 if rows else 0)
    # direct assignment: update_layout merges nested dicts property by property, ~30x slower
    lay = fig.layout
    lay.title = title_cfg
    lay.font = {"family": FONT}
    lay.showlegend = legend
    lay.legend = {
        "orientation": "h",
        "yanchor": "bottom",
        "y": 1.0,
        "xanchor": "left",
        "x": 0,
        "font": {"size": 11},
    }
    lay.margin = {"t": top, "l": margin_l, "r": 20, "b": 50}
    if height:
        lay.height = height
    if x_title is not None:
        axis(fig, "x", title={"text": x_title})
    if y_title is not None:
        axis(fig, "y", title={"text": y_title})
    return fig


def fit_rows(fig: go.Figure, labels: Sequence[str], rows: int | None = None, minimum: int = 380):
    """Height of a chart of horizontal category rows: each row as tall as the longest
    wrapped label (14 px a line and 8 between, at least 36: three lines need 50), the
    plot area on top of the margins :func:`layout` set for the title and legend rows.
    ``rows`` defaults to one per label (a waterfall adds its total row).  Call after
    :func:`layout`."""
    lines = max((str(label).count("<br>") + 1 for label in labels), default=1)
    per_row = max(36, 14 * lines + 8)
    n = len(labels) if rows is None else rows
    m = fig.layout.margin
    fig.layout.height = max(minimum, int((m.t or 0) + (m.b or 0) + per_row * n))


def axis(fig: go.Figure, which: str, **props) -> None:
    """Set properties of the first x or y axis directly (``update_xaxes`` walks every axis
    and merges property by property, which dominates a figure's build time)."""
    ax = fig.layout.xaxis if which.startswith("x") else fig.layout.yaxis
    for k, v in props.items():
        ax[k] = v


def legend_rows(names: Sequence[str], width_px: float = LEGEND_WIDTH_PX) -> int:
    """Rows a horizontal legend of ``names`` takes in a chart ``width_px`` wide (estimated
    from the label lengths), so the top margin leaves room for it above the plot.

    Plotly puts the names on one row when they all fit; otherwise it gives every name the
    widest one's width, so the rows are the names over how many of the widest fit a row
    (counted name by name, the Resilience cause chart's seven causes took seven rows at
    1,024 px where four were counted, over its subtitle)."""
    widths = [40 + 6.3 * len(name) for name in names]
    if not widths:
        return 0
    if sum(widths) <= width_px:
        return 1
    per_row = max(1, int(width_px // max(widths)))
    return math.ceil(len(widths) / per_row)


def log_ticks(lo: float, hi: float) -> tuple[list[float], list[str]]:
    """Tick values and labels for a log axis spanning [lo, hi] (both > 0): decades when the
    span is two decades or more, else 1-2-5 steps (at most about eight labels)."""
    lo, hi = float(lo), float(hi)
    if not (lo > 0 and hi > lo):
        return [], []
    d0, d1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))

    def inside(steps: tuple[float, ...]) -> list[float]:
        vals = [m * 10.0**d for d in range(d0, d1 + 1) for m in steps]
        return [v for v in vals if lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)]

    vals = inside((1.0,))
    if len(vals) < 3:  # less than two decades: 1-2-5 steps
        vals = inside((1.0, 2.0, 5.0))
    if len(vals) < 2:  # a span inside one 1-2-5 step: the ends too
        vals = sorted({lo, hi, *vals})
    powers = min(vals) < 1e-3 or max(vals) >= 1e7
    return vals, [tick_label(v, powers) for v in vals]


def tick_label(v: float, powers: bool = False) -> str:
    """1,000 / 10 / 0.1 / 0.001, or 10⁻⁵ (``powers``, for axes reaching below 0.001)."""
    if v == 0:
        return "0"
    if powers and (abs(v) < 1 or abs(v) >= 1e7):
        exp = math.floor(math.log10(abs(v)))
        mant = v / 10**exp
        sup = str(exp).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
        return f"10{sup}" if abs(mant - 1) < 1e-9 else f"{mant:g}×10{sup}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:g}"


def log_axis(fig: go.Figure, which: str, values: Sequence[float] | np.ndarray, **kw) -> None:
    """Make the ``which`` ("x" or "y") axis logarithmic with readable ticks for ``values``."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v) & (v > 0)]
    if not v.size:
        axis(fig, which, type="log", **kw)
        return
    vals, text = log_ticks(float(v.min()), float(v.max()))
    axis(fig, which, type="log", tickmode="array", tickvals=vals, ticktext=text, **kw)


def _trace_values(tr) -> np.ndarray | None:
    horizontal = getattr(tr, "orientation", None) == "h"
    data = tr.x if horizontal else getattr(tr, "y", None)
    if tr.type == "heatmap":
        data = tr.z
    if data is None:
        return None
    try:
        return np.asarray(data, dtype=float).ravel()
    except (TypeError, ValueError):
        return None


def drop_empty(fig: go.Figure, tol: float = 0.0) -> go.Figure:
    """Remove traces whose values are all zero or missing (their legend entry would name
    something that is not drawn)."""
    keep = []
    for tr in fig.data:
        v = _trace_values(tr)
        if v is not None and v.size and tr.type in ("bar", "scatter", "waterfall"):
            finite = v[np.isfinite(v)]
            if not finite.size or np.all(np.abs(finite) <= tol):
                continue
        keep.append(tr)
    fig.data = tuple(keep)
    return fig


@dataclass(frozen=True)
class ColourRange:
    """A colour scale's span and what falls outside it."""

    zmin: float
    zmax: float
    clipped_low: float  # share of cells below zmin (0..1)
    clipped_high: float

    @property
    def clipped(self) -> bool:
        return self.clipped_low > 0 or self.clipped_high > 0


def colour_range(
    z: np.ndarray, near: np.ndarray | None = None, *, widen: float = 0.1
) -> ColourRange:
    """Span of the colour scale: the range of ``z`` over ``near`` (a boolean mask of the
    realistic region, e.g. within 3× of the scenario on both axes), widened by ``widen`` of
    itself; cells outside it are clipped to the end colours.  Without a mask, the 5th to
    95th percentile."""
    a = np.asarray(z, dtype=float)
    finite = np.isfinite(a)
    if not finite.any():
        return ColourRange(0.0, 1.0, 0.0, 0.0)
    if near is not None and (np.asarray(near) & finite).any():
        region = a[np.asarray(near) & finite]
        lo, hi = float(region.min()), float(region.max())
    else:
        lo, hi = (float(x) for x in np.percentile(a[finite], [5, 95]))
    pad = (hi - lo) * widen if hi > lo else max(abs(hi) * 0.01, 1e-9)
    lo, hi = lo - pad, hi + pad
    full_lo, full_hi = float(a[finite].min()), float(a[finite].max())
    lo, hi = max(lo, full_lo), min(hi, full_hi)
    if hi <= lo:
        hi = lo + max(abs(lo) * 0.01, 1e-9)
    n = finite.sum()
    return ColourRange(lo, hi, float((a[finite] < lo).sum() / n), float((a[finite] > hi).sum() / n))


#: Below this many points the registry writes a size of points in two significant digits
#: (models.outputs.format_value: "0.0011 points", not "0.00 points").
_SMALL_POINTS = 0.005


def _two_digits_kept(text: str) -> str:
    """``−0.001 points`` as ``−0.0010 points``: the registry's two significant digits of a
    small size of points drop a trailing zero, and beside "−0.0011 points" on the next bar
    the one read as less precise than the other (QA 27 #11)."""
    number, sep, rest = text.partition(" ")
    significant = number.lstrip("+−-").replace(".", "").lstrip("0")
    if "." in number and len(significant) == 1:
        number += "0"
    return number + sep + rest


def bar_text(key: str, values: Iterable[float], *, signed: bool = False) -> list[str]:
    """Bar labels formatted by the output registry; a value that would print as zero
    ("0.00", "−0.00", "$0") gets no label; a small size of points keeps both of its two
    significant digits (:func:`_two_digits_kept`)."""
    points = OUTPUTS[key].kind in ("points", "points_size")
    out = []
    for v in values:
        if v is None or not math.isfinite(float(v)):
            out.append("")
            continue
        text = format_value(key, float(v), signed=signed)
        digits = [c for c in text if c.isdigit()]
        if not digits or set(digits) == {"0"}:
            out.append("")
            continue
        if points and 0 < abs(float(v)) * 100 < _SMALL_POINTS:
            text = _two_digits_kept(text)
        out.append(text)
    return out


def money_ticks(hi: float, n: int = 5, lo: float = 0.0) -> tuple[list[float], list[str]]:
    """Round dollar ticks from ``lo`` to about ``hi``: −$1M, $0, $50M, $100M … ($k, $M, $B)."""
    span = hi - lo
    if not (span > 0 and math.isfinite(span)):
        return [0.0], ["$0"]
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step)
    vals = [i * step for i in range(first, int(hi // step) + 2)]
    vals = [v for v in vals if lo - 1e-9 * step <= v <= hi + 1e-9 * step]
    return vals, [usd_short(v) for v in vals]


def usd_short(v: float) -> str:
    """$0, $500, $12k, $1.5M, $2B, −$3M."""
    a = abs(v)
    sign = "−" if v < 0 else ""
    for div, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if a >= div:
            return f"{sign}${a / div:,.4g}{suffix}"
    return f"{sign}${a:,.0f}"


def money_axis(fig: go.Figure, which: str, hi: float, lo: float = 0.0, **kw) -> None:
    """A dollar axis from ``lo`` to ``hi`` with round, short tick labels."""
    vals, text = money_ticks(hi, lo=lo)
    axis(fig, which, tickmode="array", tickvals=vals, ticktext=text, range=[lo, hi], **kw)
