"""Tables and tile rows drawn one way on every page.

* :func:`show` — a display table (from :func:`goodput_lab.views.display.table`) as a
  static table: long text (sources, notes) wraps instead of being cut off, and every cell
  is text in the page (searchable, copyable, checked by the browser tests).
* :func:`tiles` — rows of ``st.metric`` tiles for output keys, labelled, formatted and
  explained (meaning, formula, source) from the output registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl
import streamlit as st
from goodput_lab.dashboard.text import plain

from goodput_lab.views import display


def show(df: pl.DataFrame, *, container=None) -> None:
    """Draw a display table (every cell already a formatted string)."""
    (container or st).table(df, hide_index=True)


def tiles(values: Mapping[str, Any], *rows: Sequence[str], container=None) -> None:
    """One row of metric tiles per sequence of output keys (values looked up in ``values``);
    a figure with an 80% interval (``<key>_low`` / ``<key>_high``) shows it as a range under
    the value."""
    c = container or st
    for row in display.tile_rows(values, *rows):
        cols = c.columns(len(row))
        for col, (tile, interval) in zip(cols, row, strict=True):
            col.metric(**tile)
            if interval:
                col.caption(interval)


def missing_reasons(df: pl.DataFrame, name: str = "instance", reason: str = "reason") -> None:
    """Under a table: why a figure is missing (—), one clause per row that has a reason
    (:func:`goodput_lab.views.display.missing_reasons_text`, names in bold)."""
    text = display.missing_reasons_text(
        df, name, reason, fmt_name=lambda n: f"**{plain(n)}**", fmt_why=plain
    )
    if text:
        st.caption(text)
