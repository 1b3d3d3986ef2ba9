"""Figures as people read them: tables and tiles labelled and formatted from the output
registry (:mod:`models.outputs`), inputs from the field registry (:mod:`models.fields`).

Pages never format numbers themselves:

* a table goes through :func:`table` (headers in words with their unit, every cell a
  formatted string: money without cents above $1,000, percentages for fractions, "—" where a
  figure cannot be computed, with the reason in the row's note);
* a table whose rows are different figures (a metric per row, e.g. baseline against
  candidate) through :func:`metric_rows`;
* a tile through :func:`tile` (label, value and help naming meaning, formula and source);
* a scenario input through :func:`field_value` / :func:`field_label` / :func:`inputs_table`.

Column specs for :func:`table`: an output key; ``(key, header)`` to word the header (required
for text columns, which are not registered); ``(key, header, style)`` with style
``"savings"`` (cells read "saves $1,234" / "costs $567") or ``"signed"`` (+/− on changes,
percentages as points).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import polars as pl

from goodput_lab.models import FIELDS
from goodput_lab.models._text import SINGULAR_UNITS, with_unit
from goodput_lab.models.choices import CHOICE_WORDS as MODEL_CHOICE_WORDS
from goodput_lab.models.choices import choice_words as model_choice_words
from goodput_lab.models.outputs import (
    COMPACT_USD_FROM,
    NOT_IN_PRACTICE,
    OUTPUTS,
    RUN_FIGURES,
    Output,
    display_unit,
    finishes_in_practice,
    format_range,
    format_savings,
    format_usd,
    format_usd_compact,
    format_value,
    two_significant_digits,
)
from goodput_lab.models.pricing import TERMS, Price, as_of_phrase
from goodput_lab.models.uncertainty import HEADLINE_INTERVALS

MISSING = "—"


def singular(text: str) -> str:
    """ "1 nodes" -> "1 node", "1 sequences" -> "1 sequence" (any other text unchanged):
    the units of models._text.SINGULAR_UNITS, as the output registry writes them."""
    head, _, unit = text.partition(" ")
    return with_unit(head, unit) if unit in SINGULAR_UNITS else text


__all__ = ["OUTPUTS", "format_savings", "format_usd", "format_value"]  # re-exported for pages
STYLES = ("plain", "savings", "signed")


def _unknown(value: Any) -> bool:
    return value is None or (isinstance(value, float) and not math.isfinite(value))


def reads_zero(text: str) -> bool:
    """Whether a formatted figure shows no non-zero digit ("$0", "0.0", "−0.00 points")."""
    digits = [c for c in text if c.isdigit()]
    return not digits or set(digits) == {"0"}


def _small_change(o: Output, x: float, unit: bool) -> str:
    """A non-zero change too small for the registry's decimals, in two significant digits
    with its sign ("+0.026 days", "−0.0012 points"): "0.0" beside "costs $23" read as no
    change at all.  Money under half a dollar is "no change", as the charts' bars say."""
    sign = "+" if x > 0 else "−"
    if o.kind in ("usd", "usd_rate"):
        return "no change"
    points = o.kind in ("points", "points_size")
    text = sign + two_significant_digits(abs(x) * (100 if points else 1))
    u = "points" if points else display_unit(o)
    return with_unit(text, u) if unit and u else text


def cell(key: str | Output, value: Any, style: str = "plain") -> str:
    """One table cell: the value without its unit (the header carries it), "—" if unknown."""
    o = key if isinstance(key, Output) else OUTPUTS[key]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if o.kind == "bool":
        return "yes" if value else "no"
    if style == "savings":
        # in the registry's dollars, as the charts' bars write the same saving ("saves $1"
        # beside a "+$1/day" bar, not "saves $0.99"); "no change" where the bar says so
        text = format_value(o, abs(float(value)), unit=False)
        if reads_zero(text):
            return "no change"  # not "saves $0"
        return f"{'saves' if float(value) >= 0 else 'costs'} {text}"
    if style == "signed":
        return change(o, value, unit=False)
    return format_value(o, value, unit=False)


def change(key: str | Output, delta: Any, *, unit: bool = True) -> str:
    """A difference as people read it: "+4.03 points" for fractions, "−$8,360/day", "no
    change" for 0."""
    o = key if isinstance(key, Output) else OUTPUTS[key]
    if _unknown(delta):
        return MISSING
    if o.kind in ("text", "bool"):
        return "changed" if delta else "no change"
    x = float(delta)
    if x == 0:
        return "no change"
    if o.kind == "percent":
        o = OUTPUTS["goodput_delta"]  # fraction change: points
    text = format_value(o, x, unit=unit, signed=True)
    return _small_change(o, x, unit) if reads_zero(text) else text


def _label_names(label: str, unit: str) -> bool:
    """Whether ``label`` already says ``unit`` ("Nodes" says nodes, "Failures per day" says
    per day, "Model FLOPs per token" says FLOP); only word units (not "s", "h", "$", "%")."""
    u = unit.lower()
    if not (u.startswith("per ") or (len(u) >= 3 and u.isalpha())):
        return False
    return re.search(rf"\b{re.escape(u)}s?\b", label.lower()) is not None


def header(key: str | Output) -> str:
    """A table header from the registry: the label with its display unit ("Step time (s)",
    "Lost per day ($)": the period once, :meth:`Output.header`), the label alone when it
    already says the unit ("Nodes", not
    "Nodes (nodes)"; "Failures per day", not "Failures per day (per day)")."""
    o = key if isinstance(key, Output) else OUTPUTS[key]
    unit = display_unit(o)
    return o.label if unit and _label_names(o.label, unit) else o.header()


def _spec(col: str | tuple) -> tuple[str, str | None, str]:
    if isinstance(col, str):
        return col, None, "plain"
    if len(col) == 2:
        return col[0], col[1], "plain"
    key, head, style = col
    if style not in STYLES:
        raise ValueError(f"column {key!r}: style must be one of {STYLES}")
    return key, head, style


def table(
    rows: pl.DataFrame | Iterable[Mapping[str, Any]],
    columns: Sequence[str | tuple],
) -> pl.DataFrame:
    """A display table: one string column per registry key, headed by its label and unit.

    ``columns`` are output keys, ``(key, header)`` pairs to override a header, or
    ``(key, header, style)`` (module docstring).  A key that is not in the registry is
    allowed only with a header, and only for words (names, roles, bases): a number in such a
    column is refused, since every figure shown is registered.
    """
    data = rows.to_dicts() if isinstance(rows, pl.DataFrame) else [dict(r) for r in rows]
    out: dict[str, list[str]] = {}
    for col in columns:
        key, head, style = _spec(col)
        if key in OUTPUTS:
            o = OUTPUTS[key]
            out[head or header(o)] = [cell(o, r.get(key), style) for r in data]
            continue
        if head is None:
            raise KeyError(f"{key!r} is not in the output registry (models/outputs.py)")
        values = [r.get(key) for r in data]
        if any(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise TypeError(f"column {key!r} holds numbers: register it in models/outputs.py")
        out[head] = [MISSING if v is None or v == "" else str(v) for v in values]
    return pl.DataFrame(out, schema=dict.fromkeys(out, pl.String))


def metric_rows(
    rows: Iterable[Mapping[str, Any]],
    values: Sequence[tuple[str, str]],
    changes: Sequence[tuple[str, str]] = (),
    *,
    label: str = "Figure",
) -> pl.DataFrame:
    """A table with one figure per row: each row has ``key`` (an output key, which formats
    the row), optionally ``label`` (else the key's label) and value columns; ``values`` are
    (column, header) formatted with the row's own unit, ``changes`` (column, header) as
    differences ("+4.03 points", "−$8,360/day", "no change").  A row's ``keys`` maps a
    column to another output key that formats it (a goodput's standard error in points
    beside the goodput in %)."""
    out: dict[str, list[str]] = {label: []}
    for _, head in (*values, *changes):
        out[head] = []
    for r in rows:
        o = OUTPUTS[r["key"]]
        out[label].append(r.get("label") or o.label)
        for col, head in values:
            v = r.get(col)
            oc = OUTPUTS[r.get("keys", {}).get(col, r["key"])]
            out[head].append(MISSING if _unknown(v) else format_value(oc, v))
        for col, head in changes:
            out[head].append(change(o, r.get(col)))
    return pl.DataFrame(out, schema=dict.fromkeys(out, pl.String))


def p_text(key: str, value: Any) -> str:
    """A test's p-value as a sentence writes it: "p = 0.034", or "p < 0.001" (the registry's
    "< 0.001" after "p =" read "p = < 0.001")."""
    text = format_value(key, value)
    return f"p {text}" if text.startswith(("<", ">")) else f"p = {text}"


def runs_text(n: int) -> str:
    """A count in a choice of runs or points ("1,000"): Streamlit's sliders and dropdowns
    show an option's str ("1000") unless given this as ``format_func``."""
    return f"{int(n):,}"


def delta(text: str) -> dict[str, str]:
    """``st.metric`` keywords for a change written as :func:`change` writes it: the text and
    its arrow.  Streamlit reads the direction from a leading ASCII hyphen only, so a
    decrease written with the minus sign (−13.8 min) would get an up arrow."""
    arrow = "down" if text.startswith(("−", "-")) else "up" if text.startswith("+") else "off"
    return {"delta": text, "delta_arrow": arrow}


def tile(
    key: str, value: Any, *, signed: bool = False, savings: bool = False, unit: bool = True
) -> dict[str, str]:
    """Keyword arguments for ``st.metric``: label, value text and help (meaning, formula,
    source) from the registry.  ``savings=True`` puts the verb in the label ("Saves per
    day" / "Costs per day", value "$8,360", never a minus sign); ``unit=False`` leaves out a unit the label already names ("Lost per
    month (P95)": "$17,116,446")."""
    o = OUTPUTS[key]
    label = o.label
    if o.label_says_period():
        unit = False  # "Lost per day": "$503,135", not "$503,135/day"
    help_ = o.help()
    if _unknown(value):
        text = MISSING
    elif savings:
        per = o.unit.split("/", 1)[1] if "/" in o.unit else "day"
        label = f"{'Saves' if float(value) >= 0 else 'Costs'} per {per}"
        text = format_usd(abs(float(value)))
    elif signed:
        text = change(o, value, unit=unit)
    else:
        text = singular(format_value(o, value, unit=unit))
    number = isinstance(value, int | float) and not isinstance(value, bool)
    big = number and not _unknown(value) and abs(float(value)) >= COMPACT_USD_FROM
    if o.kind == "usd" and not signed and big:  # "$436,357,575" overflows a tile at 1024 px
        amount = abs(float(value)) if savings else float(value)
        suffix = text[len(format_usd(amount)) :]  # "/day" when the unit is written
        help_ = f"{help_} Exact: {text}."
        text = format_usd_compact(amount) + suffix
    return {"label": label, "value": text, "help": help_}


#: Figures whose only interval is the step time's (no failure-rate spread computed for them):
#: the tile says so.
STEP_ONLY_INTERVALS = frozenset({"cost_to_train_usd"})


def interval_text(key: str, values: Mapping[str, Any]) -> str:
    """``80% range 96.33–97.32%`` for a figure with an 80% interval in ``values`` (the
    headline one where there is one, models.uncertainty.headline_intervals, as goodput
    evaluate and the report give it), else ""."""
    lo_k, hi_k = HEADLINE_INTERVALS.get(key, (f"{key}_low", f"{key}_high"))
    lo, hi = values.get(lo_k), values.get(hi_k)
    if _unknown(lo) or _unknown(hi):
        return ""
    o = OUTPUTS[key]
    head = "80% range (step time only)" if key in STEP_ONLY_INTERVALS else "80% range"
    if o.kind == "usd" and max(abs(float(lo)), abs(float(hi))) >= COMPACT_USD_FROM:
        return f"{head} {format_usd_compact(lo)}–{format_usd_compact(hi)}"  # as the tile
    unit = not o.label_says_period()  # as the tile: "Lost per day" $505,992, $323,191–$839,520
    # the unit once, after the range: 68.1–121.0 days, 96.33–97.32% (dollars keep their $)
    return f"{head} {format_range(o, lo, hi, unit=unit)}"


# --------------------------------------------------------------------------- inputs
#: Choices shown in words (the stored value stays the registry's): the models' words
#: (:data:`models.choices.CHOICE_WORDS`, which goodput decide's answer reads too) and the
#: pricing models' labels.
CHOICE_WORDS: dict[str, dict[str, str]] = {
    "pricing.model": {m.value: t.label for m, t in TERMS.items()},  # "On-Demand"
    **MODEL_CHOICE_WORDS,
}


def choice_words(key: str, value: str) -> str:
    """A choice as words, as the sidebar's dropdown and the Overview's inputs table show it
    ("tier_model" -> "From tier bandwidths"); the raw value stays what links, TOML and
    ``--set`` use (:func:`models.choices.choice_words`, with the pricing models' labels)."""
    words = CHOICE_WORDS.get(key, {}).get(value)
    return words or model_choice_words(key, value)


def field_unit(key: str) -> str:
    """Unit an input is shown in: % for fractions shown as percentages, else its own."""
    f = FIELDS[key]
    if f.scale == 100.0:
        return "%"
    if f.unit.startswith("USD/"):
        return "$/" + f.unit[4:]
    return f.unit


def field_label(key: str) -> str:
    """``Nodes in the job (nodes)``: the input's label with its display unit."""
    f = FIELDS[key]
    unit = field_unit(key)
    if not unit or f.label.endswith(f"({unit})"):  # "Micro-batch (sequences)" says it
        return f.label
    return f"{f.label} ({unit})"


def input_decimals(key: str, shown: float) -> int | None:
    """Decimals of a float input shown as a slider, ``shown`` in its display unit (% for
    fractions): those of the slider's step (0.01% steps: "0.20%"), more where the value is
    finer than the step, up to four significant digits (63.96% on a 1% slider).  The
    sidebar's slider and every table of inputs (:func:`field_value`) write it so, and agree;
    None for an input without a slider.

    Examples: the node failure rate 0.2% reads "0.20%" on the slider and in the tables."""
    f = FIELDS[key]
    if f.kind != "float" or f.widget != "slider":
        return None
    step = (f.ui_step or 1.0) * f.scale  # as the sidebar steps it
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    digits = f"{abs(float(shown)):.4g}"
    if "e" not in digits and "." in digits:
        decimals = max(decimals, len(digits.split(".", 1)[1]))
    return decimals


def _number(x: float, kind: str) -> str:
    if kind == "int":
        return f"{x:,.0f}"
    if x == 0:
        return "0"
    a = abs(x)
    if a >= 1000:
        return f"{x:,.0f}" if x == round(x) else f"{x:,.1f}"
    text = f"{x:.4g}" if a >= 1e-3 else f"{x:.3g}"
    return text.replace("-", "−")


def field_value(key: str, value: Any, *, unit: bool = True, price: Price | None = None) -> str:
    """A scenario input as people read it: "2,000 nodes", "0.20%", "$98.32/instance-h",
    "optimal", "from the catalog"."""
    f = FIELDS[key]
    if key == "pricing.usd_per_instance_hour" and (value is None and price is not None):
        value = price.usd_per_instance_hour
    if value is None:
        if key == "pricing.usd_per_instance_hour":
            return "catalog price"
        return "not set" if f.kind == "str" else "derived"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    x = float(value)
    if f.unit.startswith("USD"):
        text = f"${x:,.2f}" if abs(x) < 1000 else f"${x:,.0f}"
        return text + ("/" + f.unit.split("/", 1)[1] if unit and "/" in f.unit else "")
    decimals = input_decimals(key, x * f.scale)
    if decimals is not None:  # as the sidebar's slider writes it ("0.20%", not "0.2%")
        text = f"{x * f.scale:,.{decimals}f}".replace("-", "−")
        if f.scale == 100.0:
            return text + ("%" if unit else "")
    elif f.scale == 100.0:
        return _number(x * 100, "float") + ("%" if unit else "")
    else:
        text = _number(x, f.kind)
    u = field_unit(key)
    return singular(f"{text} {u}") if unit and u else text


def inputs_table(scenario, price: Price | None = None, keys: Iterable[str] | None = None):
    """Every input (or ``keys``) with its value, default and full source, in words (the
    inputs' keys for ``--set`` are in the CSV export and ``goodput evaluate --help``)."""
    rows = []
    for key in keys or FIELDS:
        f = FIELDS[key]
        value = scenario[key]
        source = f.help
        shown = field_value(key, value, price=price)
        default = field_value(key, f.default)
        if f.kind == "choice":  # "On-Demand", not "on_demand": the sidebar's words
            shown = choice_words(key, value) if value is not None else shown
            default = choice_words(key, f.default) if f.default is not None else default
        if key == "pricing.usd_per_instance_hour" and price is not None:
            origin = "catalog" if value is None else "scenario"
            when = as_of_phrase(price.as_of)
            shown = f"${price.usd_per_instance_hour:,.2f}/instance-h ({origin}, {when})"
            source = price.source
        rows.append(
            {
                "Input": f.label,
                "Value": shown,
                "Default": default,
                "Source / meaning": source,
            }
        )
    return pl.DataFrame(rows, schema=dict.fromkeys(rows[0], pl.String) if rows else None)


def display_unit_of(key: str) -> str:
    """The unit an output's header shows (re-exported for chart axis titles)."""
    return display_unit(OUTPUTS[key])


def tile_rows(values: Mapping[str, Any], *rows: Sequence[str]) -> list[list[tuple[dict, str]]]:
    """Rows of registry tiles for output keys: per key, the ``st.metric`` keyword arguments
    (:func:`tile`) and the 80% interval's text under it (:func:`interval_text`, "" when the
    figure has none).  A figure of the whole run where the run does not finish in practice
    (goodput under 1%, :func:`models.outputs.finishes_in_practice`) reads "—" with
    :data:`NOT_FINISHING` under it, not 64,820,175,270.2 days."""
    done = finishes_in_practice(values.get("goodput", math.nan))
    out = []
    for keys in rows:
        row = []
        for k in keys:
            if k in RUN_FIGURES and not done:
                t = tile(k, None)
                row.append(({**t, "help": f"{NOT_FINISHING} {t['help']}"}, NOT_FINISHING))
            else:
                row.append((tile(k, values.get(k)), interval_text(k, values)))
        out.append(row)
    return out


#: Under a figure of a run that does not finish in practice (:func:`tile_rows`).
NOT_FINISHING = f"The run {NOT_IN_PRACTICE}: goodput under 1% of the paid time."


def deadline_used(deadline_days: float | None) -> str:
    """The sentence every ranking shows: which deadline [days] the ranking used (None: none)."""
    if deadline_days is None:
        return (
            "Ranked without a deadline (as `goodput instances` and `goodput optimize` without "
            "--deadline-days): every type at the scenario's accelerator count."
        )
    return (
        f"Ranked with a deadline of {deadline_days:g} days (as `--deadline-days "
        f"{deadline_days:g}`): per type, the cheapest node count that trains within it."
    )


def public_price_caption(price: Price | None, label: str) -> str:
    """Under the price field while the catalog's price is used: the public price in force
    [USD/instance-h] under the pricing model named ``label``, with its date."""
    if price is None:
        return "No public price for this instance under this pricing model: enter yours."
    return (
        f"Public {label} price: ${price.usd_per_instance_hour:,.2f}/instance-h "
        f"({as_of_phrase(price.as_of)})."
    )


def missing_reasons_text(
    df: pl.DataFrame,
    name: str = "instance",
    reason: str = "reason",
    *,
    fmt_name: Callable[[str], str] = str,
    fmt_why: Callable[[str], str] = str,
) -> str:
    """Under a table: why a figure is missing (—), one clause per row of ``df`` that has a
    ``reason``; "" when none does.  ``fmt_name`` and ``fmt_why`` style the clauses (the
    page bolds the names in Markdown, a report prints them plain)."""
    notes = [(r[name], r[reason]) for r in df.iter_rows(named=True) if r[reason]]
    if not notes:
        return ""
    return (
        f"Why a figure is missing ({MISSING}): "
        + "; ".join(f"{fmt_name(n)}: {fmt_why(w)}" for n, w in notes)
        + "."
    )
