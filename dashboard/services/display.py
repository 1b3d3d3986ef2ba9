"""Figures as people read them: tables and tiles labelled and formatted from the output
registry (:mod:`models.outputs`).

Pages never format numbers themselves: a table goes through :func:`table` (headers in words
with their unit, every cell a formatted string: money without cents above $1,000,
percentages for fractions, "—" where a figure cannot be computed, with the reason in the
row's note), a tile through :func:`tile`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import polars as pl
from goodput_lab.models.outputs import OUTPUTS, Output, format_value

MISSING = "—"


def cell(key: str | Output, value: Any) -> str:
    """One table cell: the value without its unit (the header carries it), "—" if unknown."""
    o = key if isinstance(key, Output) else OUTPUTS[key]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if o.kind == "bool":
        return "yes" if value else "no"
    return format_value(o, value, unit=False)


def header(key: str) -> str:
    return OUTPUTS[key].header()


def table(
    rows: pl.DataFrame | Iterable[Mapping[str, Any]],
    columns: Sequence[str | tuple[str, str]],
) -> pl.DataFrame:
    """A display table: one string column per registry key, headed by its label and unit.

    ``columns`` are output keys, or ``(key, header)`` pairs to override a header.  A key that
    is not in the registry is allowed only with a header, and only for words (names, roles,
    bases): a number in such a column is refused, since every figure shown is registered.
    """
    data = rows.to_dicts() if isinstance(rows, pl.DataFrame) else [dict(r) for r in rows]
    out: dict[str, list[str]] = {}
    for col in columns:
        key, head = (col, None) if isinstance(col, str) else col
        if key in OUTPUTS:
            o = OUTPUTS[key]
            out[head or o.header()] = [cell(o, r.get(key)) for r in data]
            continue
        if head is None:
            raise KeyError(f"{key!r} is not in the output registry (models/outputs.py)")
        values = [r.get(key) for r in data]
        if any(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise TypeError(f"column {key!r} holds numbers: register it in models/outputs.py")
        out[head] = [MISSING if v is None else str(v) for v in values]
    return pl.DataFrame(out, schema=dict.fromkeys(out, pl.String))


def tile(key: str, value: Any, *, signed: bool = False) -> dict[str, str]:
    """Keyword arguments for ``st.metric``: label, value text and help (meaning, formula,
    source) from the registry."""
    o = OUTPUTS[key]
    text = (
        MISSING
        if value is None or (isinstance(value, float) and math.isnan(value))
        else (format_value(o, value, signed=signed))
    )
    return {"label": o.label, "value": text, "help": o.help()}
