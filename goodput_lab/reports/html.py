"""One self-contained HTML file: plotly.js embedded, opens offline, all user text escaped.

``render_html(report)`` is the interactive file users send around; with ``for_print=True``
the same document gets fixed-size, non-interactive charts and print page breaks, which
:mod:`goodput_lab.reports.pdf` prints to PDF with Chromium.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

import plotly.graph_objects as go
import polars as pl

from goodput_lab.models._text import counted
from goodput_lab.models.outputs import format_usd

from .content import Metric, Report

#: Printed charts: narrower than A4's 184 mm between the margins (695 CSS px).
PRINT_WIDTH_PX = 680
PRINT_HEIGHT_PX = 360
#: Tallest printed chart: A4's 267 mm between the margins is 1,009 CSS px.
PRINT_MAX_HEIGHT_PX = 900

CSS = """
:root { --ink:#1d2433; --muted:#5b6475; --line:#d9dee7; --accent:#1f4e9c; --bg:#f5f7fb; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: var(--ink);
       margin: 0 auto; max-width: 1100px; padding: 24px 32px; line-height: 1.4; font-size: 14px; }
header.report { border-bottom: 3px solid var(--accent); padding-bottom: 10px; margin-bottom: 16px; }
header.report h1 { margin: 0 0 4px 0; font-size: 26px; color: var(--accent); }
header.report .scenario { font-size: 17px; font-weight: 600; margin: 2px 0; }
header.report .meta { color: var(--muted); font-size: 12.5px; }
h2 { font-size: 18px; color: var(--accent); border-bottom: 1px solid var(--line);
     padding-bottom: 3px; margin: 22px 0 10px 0; break-after: avoid; page-break-after: avoid; }
h3 { font-size: 15px; margin: 14px 0 6px 0; break-after: avoid; }
p.note, .muted { color: var(--muted); font-size: 12px; }
.summary { background: var(--bg); border-left: 4px solid var(--accent); padding: 8px 14px;
           margin: 8px 0 14px 0; }
.summary ul { margin: 4px 0; padding-left: 18px; }
.summary li { margin: 3px 0; }
.cards { display: grid; grid-template-columns: repeat(5, 1fr); gap: 8px; margin: 8px 0 6px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 7px 9px; background: #fff;
        break-inside: avoid; }
.card .label { font-size: 11px; color: var(--muted); }
.card .value { font-size: 17px; font-weight: 700; white-space: nowrap; }
.card.key .value { color: var(--accent); }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; margin: 6px 0 10px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left;
         vertical-align: top; }
/* Headers are words and wrap at their spaces ("Price per instance-hour ($/h)" on two or
   three lines): a header is never wider than its column.  In a table of fixed column widths
   a long value wraps inside its cell too ("$98.32/instance-h (scenario, as of 2023-07)"),
   instead of running into the next column; figures of other tables stay on one line. */
th { background: var(--bg); font-weight: 600; white-space: normal; overflow-wrap: break-word; }
td.num, th.num { text-align: right; }
td.num { white-space: nowrap; }
tr { break-inside: avoid; page-break-inside: avoid; }
table.fixed { table-layout: fixed; }
table.fixed td { overflow-wrap: break-word; }
table.fixed td.num { white-space: normal; }
tr.total td { font-weight: 700; border-top: 2px solid var(--ink); }
table.metrics td.gap, table.metrics th.gap { padding-left: 18px; }
table.assumptions td { font-size: 11.5px; }
table.assumptions td.src { color: var(--muted); font-size: 10.5px; }
.key-name { color: var(--muted); font-size: 10px; font-family: "DejaVu Sans Mono", monospace; }
.figure { break-inside: avoid; page-break-inside: avoid; margin: 6px 0; }
.savings { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; }
dl.methods .method { break-inside: avoid; page-break-inside: avoid; }
dl.methods dt { font-weight: 600; margin-top: 8px; }
dl.methods dd { margin: 2px 0 0 0; font-size: 12.5px; }
pre.toml { background: var(--bg); border: 1px solid var(--line); padding: 8px; font-size: 10.5px;
           white-space: pre-wrap; word-break: break-word; }
footer { margin-top: 24px; color: var(--muted); font-size: 11px; border-top: 1px solid var(--line);
         padding-top: 6px; }
"""

PRINT_CSS = """
@page { size: A4; margin: 14mm 13mm 16mm 13mm; }
body { max-width: none; padding: 0; font-size: 12px; overflow-wrap: anywhere; }
.cards { grid-template-columns: repeat(4, minmax(0, 1fr)); }
.savings { grid-template-columns: repeat(4, minmax(0, 1fr)); }
.card { min-width: 0; }
.card .value { font-size: 14px; white-space: normal; overflow-wrap: anywhere; }
table { font-size: 11px; }
th, td { overflow-wrap: anywhere; padding: 3px 4px; }
td.num, th.num { white-space: normal; overflow-wrap: normal; }
table.assumptions td.num { overflow-wrap: anywhere; }
.pagebreak { break-before: page; page-break-before: always; }
header.report h1 { font-size: 24px; }
"""


def esc(text: object) -> str:
    """Escape user or data text for HTML element content and attribute values."""
    return html.escape(str(text), quote=True)


def _breakable(text: object) -> str:
    """``esc(text)`` with a line-break opportunity after every underscore, so an identifier
    such as UNPRODUCTIVE_CHECKPOINT_SAVE_TIME wraps at its words in a narrow printed column
    instead of being cut inside one ("..._TIM / E")."""
    return esc(text).replace("_", "_<wbr>")


def _table(
    df: pl.DataFrame,
    columns: Sequence[tuple[str, str, str]],
    *,
    css_class: str = "",
    total: dict[str, str] | None = None,
    widths: Sequence[float] = (),
) -> str:
    """An HTML table from ``df``: columns are (column, header, kind) with kind in
    {"text", "num", "src", "field", "id"} ("id": an identifier that may wrap after its
    underscores); every cell is escaped.  ``widths`` (percent, one per
    column) fixes the columns' widths, so a column of long text cannot squeeze the others."""
    head = "".join(
        f'<th class="{"num" if kind == "num" else ""}">{esc(header)}</th>'
        for _col, header, kind in columns
    )
    body = []
    for row in df.iter_rows(named=True):
        cells = []
        for col, _header, kind in columns:
            value = row.get(col, "")
            if kind == "field":
                sub = row.get("field", "")
                cells.append(
                    f'<td>{esc(value)}<div class="key-name">{esc(sub)}</div></td>'
                    if sub
                    else f"<td>{esc(value)}</td>"
                )
            else:
                cls = {"num": "num", "src": "src"}.get(kind, "")
                text = _breakable(value) if kind == "id" else esc(value)
                cells.append(f'<td class="{cls}">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    if total:
        cells = []
        for col, _header, kind in columns:
            cls = "num" if kind == "num" else ""
            cells.append(f'<td class="{cls}">{esc(total.get(col, ""))}</td>')
        body.append('<tr class="total">' + "".join(cells) + "</tr>")
    cols = ""
    if widths:
        css_class = (css_class + " fixed").strip()
        cols = "<colgroup>" + "".join(f'<col style="width:{w:g}%">' for w in widths) + "</colgroup>"
    cls = f' class="{css_class}"' if css_class else ""
    return f"<table{cls}>{cols}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _cards(metrics: Sequence[Metric], key_ids: Sequence[str] = ()) -> str:
    out = []
    for m in metrics:
        cls = "card key" if m.key in key_ids else "card"
        out.append(
            f'<div class="{cls}" data-key="{esc(m.key)}"><div class="label">{esc(m.label)}</div>'
            f'<div class="value">{esc(m.text)}</div></div>'
        )
    return '<div class="cards">' + "".join(out) + "</div>"


def _is_zero(text: str) -> bool:
    """A figure shown as zero: it has digits and all of them are 0 ("$0", "0.00%")."""
    return bool(re.search(r"[0-9]", text)) and not re.search(r"[1-9]", text)


def _zero_note(labels: Sequence[str]) -> str:
    if not labels:
        return ""
    return (
        '<p class="note zero">Zero in this scenario (the feature is off or the cause '
        f"absent), not listed: {esc(', '.join(labels))}.</p>"
    )


def _metric_rows(metrics: Sequence[Metric]) -> str:
    """Metrics as a two-pair-per-row table (label, value, label, value); metrics that are
    zero (features that are off) are named in a line under it instead of a row each."""
    zero = [m.label for m in metrics if _is_zero(m.text)]
    metrics = [m for m in metrics if not _is_zero(m.text)]
    if not metrics:
        return _zero_note(zero)
    half = (len(metrics) + 1) // 2
    left, right = list(metrics[:half]), list(metrics[half:])
    rows = []
    for i, a in enumerate(left):
        b = right[i] if i < len(right) else None
        cells = f'<td>{esc(a.label)}</td><td class="num">{esc(a.text)}</td>'
        if b is not None:
            cells += f'<td class="gap">{esc(b.label)}</td><td class="num">{esc(b.text)}</td>'
        else:
            cells += '<td class="gap"></td><td></td>'
        rows.append(f"<tr>{cells}</tr>")
    head = (
        '<tr><th>Metric</th><th class="num">Value</th>'
        '<th class="gap">Metric</th><th class="num">Value</th></tr>'
    )
    table = f'<table class="metrics"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
    return table + _zero_note(zero)


class _Figures:
    """Render figures; the first one carries plotly.js (include_plotlyjs=True), once."""

    def __init__(self, for_print: bool):
        self.for_print = for_print
        self.first = True

    def __call__(self, fig: go.Figure, div_id: str) -> str:
        config = {"displaylogo": False, "responsive": not self.for_print}
        height = PRINT_HEIGHT_PX
        if self.for_print:
            config["staticPlot"] = True
            fig = go.Figure(fig)
            # a chart that asks for more height (one bar per rung) keeps it, within a page
            height = min(max(PRINT_HEIGHT_PX, fig.layout.height or 0), PRINT_MAX_HEIGHT_PX)
            fig.update_layout(width=PRINT_WIDTH_PX, height=height)
        out = fig.to_html(
            full_html=False,
            include_plotlyjs=self.first,
            div_id=div_id,
            config=config,
            default_height=f"{height}px" if self.for_print else "430px",
        )
        self.first = False
        return f'<div class="figure">{out}</div>'


def render_html(report: Report, *, for_print: bool = False) -> str:
    """The whole report as one HTML document (UTF-8 text)."""
    ev = report.evaluation
    m = ev.metrics
    figure = _Figures(for_print)
    brk = '<div class="pagebreak"></div>' if for_print else ""
    parts: list[str] = []
    cmp = report.comparison

    subtitle = esc(report.scenario.name)
    blocks = report.comparisons
    if cmp is not None:
        cands = [b.comparison.candidate.scenario.name for b in blocks] or [
            cmp.candidate.scenario.name
        ]
        subtitle = f"Baseline: {esc(cmp.baseline.scenario.name)}" + "".join(
            f"<br>Candidate{'' if len(cands) == 1 else f' {i}'}: {esc(n)}"
            for i, n in enumerate(cands, 1)
        )
    parts.append(
        '<header class="report">'
        f"<h1>{esc(report.title)}</h1>"
        f'<div class="scenario" id="scenario-name">{subtitle}</div>'
        f'<div class="meta">Generated {esc(report.generated.isoformat())} by Goodput Lab · '
        f"{esc(ev.instance.instance)} ({esc(ev.instance.accelerators_per_node)} × "
        f"{esc(ev.instance.accelerator)}) × {counted(report.scenario['cluster.nodes'], 'node')} = "
        f"{counted(m['accelerators'], 'accelerator')}</div>"
        "</header>"
    )

    # ---- summary and headline
    parts.append("<h2>Summary</h2>")
    items = list(report.summary)
    for i, b in enumerate(blocks or (), 1):
        c = b.comparison
        who = (
            "The candidate" if len(blocks) == 1 else f"Candidate {i} ({c.candidate.scenario.name})"
        )
        verb = "saves" if c.savings_usd_per_day >= 0 else "costs"
        items.insert(
            i - 1,
            f"{who} changes goodput by {c.goodput_delta * 100:+.2f} points and {verb} "
            f"{format_usd(abs(c.savings_usd_per_day), 'day')} "
            f"({format_usd(abs(c.savings_usd_per_year))} per year) "
            "against the baseline below."
            + (
                f" {b.changed.height} inputs differ: the figures are their combined effect."
                if b.changed.height > 1
                else ""
            ),
        )
    parts.append(
        '<div class="summary"><ul>' + "".join(f"<li>{esc(s)}</li>" for s in items) + "</ul></div>"
    )
    if report.scenario.description:
        parts.append(f'<p class="note">{esc(report.scenario.description)}</p>')
    label = "Headline metrics" + (" (baseline)" if cmp is not None else "")
    parts.append(f"<h3>{label}</h3>")
    parts.append(_cards(report.headline, ("goodput", "lost_usd_per_day", "usd_per_day_per_0p1pp")))

    # ---- comparison
    if blocks:
        parts.append('<h2 id="comparison">Comparison and savings</h2>')
    for i, b in enumerate(blocks, 1):
        c = b.comparison
        if len(blocks) > 1:
            parts.append(
                f'<h3 id="comparison-{i}">Candidate {i}: {esc(c.candidate.scenario.name)}</h3>'
            )
        cards = [
            ("goodput_delta", "Goodput change", f"{c.goodput_delta * 100:+.2f} points"),
            ("savings_usd_per_day", "Savings per day", format_usd(c.savings_usd_per_day)),
            (
                "savings_usd_per_month",
                "Savings per month",
                format_usd(c.savings_usd_per_month),
            ),
            (
                "savings_usd_per_year",
                "Savings per year",
                format_usd(c.savings_usd_per_year),
            ),
        ]
        parts.append(
            '<div class="savings">'
            + "".join(
                f'<div class="card key" data-key="{k}"><div class="label">{esc(lbl)}</div>'
                f'<div class="value">{esc(v)}</div></div>'
                for k, lbl, v in cards
            )
            + "</div>"
        )
        parts.append(
            _table(
                b.table,
                [
                    ("metric", "Metric", "text"),
                    ("baseline", "Baseline", "num"),
                    ("candidate", "Candidate", "num"),
                    ("change", "Change", "num"),
                ],
            )
        )
        if b.changed.height:
            head = "What the candidate changes"
            if b.changed.height > 1:
                head += f" ({b.changed.height} inputs: the savings are their combined effect)"
            parts.append(f"<h4>{esc(head)}</h4>")
            parts.append(
                _table(
                    b.changed,
                    [
                        ("label", "Assumption", "field"),
                        ("baseline", "Baseline", "num"),
                        ("candidate", "Candidate", "num"),
                    ],
                )
            )
        else:
            parts.append('<p class="note">The two scenarios have identical inputs.</p>')
        if b.figure is not None:
            parts.append(figure(b.figure, f"fig-comparison-{i}" if i > 1 else "fig-comparison"))

    # ---- losses
    where = " (baseline)" if cmp is not None else ""
    parts.append(f'<h2 id="losses">Where the time and money go{where}</h2>')
    parts.append(figure(report.figures["waterfall"], "fig-waterfall"))
    shown = report.losses.filter(
        (pl.col("minutes_per_day").round(1) != 0)
        | (pl.col("usd_per_day").round(0) != 0)
        | (pl.col("goodput_points").round(2) != 0)
    )
    zero_losses = [
        lbl for lbl in report.losses["label"].to_list() if lbl not in set(shown["label"])
    ]
    losses = shown.with_columns(
        pl.col("minutes_per_day").map_elements(lambda v: f"{v:,.1f}", return_dtype=pl.String),
        pl.col("usd_per_day").map_elements(lambda v: f"${v:,.0f}", return_dtype=pl.String),
        pl.col("usd_per_year").map_elements(lambda v: f"${v:,.0f}", return_dtype=pl.String),
        pl.col("goodput_points").map_elements(lambda v: f"{v:.2f}", return_dtype=pl.String),
    )
    total = {
        "label": "Total lost",
        "minutes_per_day": f"{m['lost_minutes_per_day']:,.1f}",
        "usd_per_day": f"${m['lost_usd_per_day']:,.0f}",
        "usd_per_year": f"${m['lost_usd_per_year']:,.0f}",
        "goodput_points": f"{(1 - m['goodput']) * 100:.2f}",
    }
    parts.append(
        _table(
            losses,
            [
                ("label", "Loss component", "text"),
                ("minutes_per_day", "Minutes/day", "num"),
                ("usd_per_day", "USD/day", "num"),
                ("usd_per_year", "USD/year", "num"),
                ("goodput_points", "Goodput points", "num"),
            ],
            total=total,
        )
    )
    parts.append(_zero_note(zero_losses))
    extra = [
        f"{what} ({format_usd(m[key], 'day')})"
        for what, key in (
            ("idle spare nodes", "spare_usd_per_day"),
            ("checkpoint storage", "storage_usd_per_day"),
        )
        if m.get(key, 0.0) > 0
    ]
    if extra:  # lost per day = (1 − g) × cluster + spares + storage: the table has the first
        parts.append(f'<p class="note">Lost per day also includes {esc(" and ".join(extra))}.</p>')
    parts.append(figure(report.figures["goodput_vs_rate"], "fig-goodput-vs-rate"))

    # ---- Monte Carlo
    if report.montecarlo is not None:
        mc = report.montecarlo
        parts.append('<h2 id="montecarlo">Monte Carlo percentiles</h2>')
        parts.append(
            f'<p class="note">{counted(mc.trials, "simulated run")}, seed {esc(mc.seed)}. '
            f"{esc(mc.note)}</p>"
        )
        for t in (mc.table, mc.spread):
            if t is None:
                continue
            first = t.columns[0]
            parts.append(_table(t, [(c, c, "text" if c == first else "num") for c in t.columns]))
        if mc.figure is not None:
            parts.append(figure(mc.figure, "fig-montecarlo"))

    # ---- optional model sections
    for sec in report.sections:
        parts.append(f'<h2 id="section-{esc(sec.id)}">{esc(sec.title)}</h2>')
        if sec.intro:
            parts.append(f"<p>{esc(sec.intro)}</p>")
        if sec.metrics:
            parts.append(_metric_rows(sec.metrics))
        if sec.table is not None and sec.table.height:
            cols = sec.table_columns or tuple((c, c, "text") for c in sec.table.columns)
            parts.append(_table(sec.table, cols, widths=sec.column_widths))
        for note in sec.notes:
            parts.append(f'<p class="note">{esc(note)}</p>')
        if sec.figure is not None:
            parts.append(figure(sec.figure, f"fig-{sec.id}"))

    # ---- assumptions
    parts.append(brk + '<h2 id="assumptions">Assumptions and their sources</h2>')
    parts.append(
        '<p class="note">Every input of the model, the value used in this report, the '
        "registry default and where the default comes from.</p>"
    )
    parts.append(
        _table(
            report.assumptions,
            [
                ("label", "Assumption", "field"),
                ("value", "Value", "num"),
                ("default", "Default", "num"),
                ("source / meaning", "Source / meaning", "src"),
            ],
            css_class="assumptions",
            widths=(24, 20, 14, 42),
        )
    )

    # ---- methods
    parts.append('<h2 id="methods">Methods</h2>')
    parts.append(
        '<dl class="methods">'
        + "".join(
            f'<div class="method"><dt>{esc(t)}</dt><dd>{esc(d)}</dd></div>'
            for t, d in report.methods
        )
        + "</dl>"
    )
    parts.append("<h3>Reproduce this report</h3>")
    parts.append(
        '<p class="note">Save the scenario below as scenario.toml and run '
        "<code>goodput report scenario.toml -o report.html</code>.</p>"
    )
    parts.append(f'<pre class="toml">{esc(report.scenario.to_toml())}</pre>')
    for i, b in enumerate(blocks, 1):
        label = "Candidate scenario" + (f" {i}" if len(blocks) > 1 else "") + " (--compare):"
        parts.append(f'<p class="note">{esc(label)}</p>')
        parts.append(f'<pre class="toml">{esc(b.comparison.candidate.scenario.to_toml())}</pre>')
    parts.append(
        "<footer>Goodput Lab · analytical model of failures, recovery and checkpoints; every "
        "figure is derivable from the assumptions above.</footer>"
    )

    css = CSS + (PRINT_CSS if for_print else "")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(report.title)} — {esc(report.scenario.name)}</title>"
        f"<style>{css}</style></head><body>" + "\n".join(parts) + "</body></html>\n"
    )
