"""Every page meets the display standards (dashboard/README.md), checked on what AppTest
sees: no None/nan/inf and no unformatted long number in any table, tile or caption; chart
titles that fit; legends that list only what is drawn; no "−0.00" label; every tile's help
names its meaning and source."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from goodput_lab.dashboard.navigation import PAGES

from goodput_lab.charts.style import LEGEND_WIDTH_PX, SUBTITLE_CHARS, TITLE_CHARS, legend_rows
from tests.dashboard._pages import array, open_page

#: a bare None/nan/inf, or 7+ digits without thousands separators (dates and code aside)
BAD = re.compile(r"\b(None|nan|NaN|inf)\b|(?<![\d,.\-])\d{7,}(?![\d,])")


def _texts(at) -> list[str]:
    out = []
    for t in at.table:
        df = t.value
        out += [str(c) for c in df.columns] + [str(v) for v in df.values.ravel()]
    for m in at.metric:
        out += [m.label, m.value]
    out += [c.value for c in at.caption]
    out += [a.value for kind in ("success", "info", "warning") for a in at.get(kind)]
    return out


def repeats_its_unit(head: str) -> bool:
    """A header whose bracketed word unit the label already says: "Nodes (nodes)",
    "Failures per day (per day)"."""
    m = re.fullmatch(r"(.+) \(((?:per )?[A-Za-z]{3,})\)", head)
    if m and re.search(rf"\b{re.escape(m[2].lower())}s?\b", m[1].lower()):
        return True
    # a period the label says again after a slash: "Lost per day ($/day)"
    m = re.fullmatch(r"(.+) \([^()]*/([A-Za-z-]+)\)", head)
    return bool(m) and f"per {m[2].lower()}" in m[1].lower()


def test_registry_headers_do_not_repeat_their_unit():
    """QA: headers built from the output registry read "Nodes (nodes)"."""
    from goodput_lab.models.outputs import OUTPUTS

    from goodput_lab.views import display

    assert display.header("nodes") == "Nodes"
    assert display.header("failures_per_day") == "Failures per day"
    assert display.header("step_seconds") == "Step time (s)"  # a unit the label lacks stays
    # the period once: the label says per day, the unit the dollars (not "($/day)")
    assert display.header("lost_usd_per_day") == "Lost per day ($)"
    assert display.header("lost_minutes_per_day") == "Lost per day (min)"
    assert display.header("usd_per_instance_hour") == "Price per instance-hour ($/h)"
    assert repeats_its_unit("Lost per day ($/day)") and repeats_its_unit("Nodes (nodes)")
    assert not [display.header(k) for k in OUTPUTS if repeats_its_unit(display.header(k))]
    table = display.table([{"nodes": 2000, "lemon_nodes": 8}], ["nodes", "lemon_nodes"])
    assert table.columns == ["Nodes", "Lemon nodes"]


@pytest.mark.parametrize("page", PAGES)
def test_page_meets_the_display_standards(page):
    at = open_page(page)
    bad = [t for t in _texts(at) if BAD.search(t.replace("`", ""))]
    assert not bad, bad
    heads = [str(c) for t in at.table for c in t.value.columns]
    assert not [h for h in heads if repeats_its_unit(h)]
    # QA: run counts in sliders and dropdowns read "1000" and "20000"
    options = [str(o) for w in (*at.select_slider, *at.selectbox) for o in w.options]
    assert not [o for o in options if re.fullmatch(r"\d{4,}", o)], options
    for m in at.metric:
        assert m.proto.help, f"tile {m.label!r} has no help"
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        title = spec["layout"]["title"]
        for line in title["text"].split("<br>"):
            assert len(line) <= TITLE_CHARS, line  # fits a half-width column at 1024 px
        sub = title.get("subtitle", {}).get("text", "")
        for line in sub.split("<br>"):
            assert len(line) <= SUBTITLE_CHARS, line
        # the top margin leaves room for a shown legend's rows on the plot area's width at
        # 1024 px (the figure's less a wide left margin): it never covers the title
        names = [
            str(tr["name"]) for tr in spec["data"] if tr.get("showlegend", True) and tr.get("name")
        ]
        if spec["layout"].get("showlegend") and names:
            margin = spec["layout"]["margin"]
            lines = 1 + title["text"].count("<br>") + (1 + sub.count("<br>") if sub else 0)
            rows = legend_rows(names, LEGEND_WIDTH_PX - (margin.get("l", 60) - 60))
            assert margin["t"] >= 30 + 21 * (lines + rows), title["text"]
        for trace in spec["data"]:
            texts = trace.get("text")
            if isinstance(texts, list):
                assert not any(str(t).strip() in ("−0.00", "-0.00", "$−0") for t in texts)
            if trace.get("type") in ("bar",) and trace.get("showlegend", True):
                horizontal = trace.get("orientation") == "h"
                values = np.asarray(array(trace["x" if horizontal else "y"]), dtype=float)
                assert np.nanmax(np.abs(values)) > 0, (
                    f"legend entry {trace.get('name')} draws nothing"
                )


def test_dropdown_words_keep_the_spelling_their_help_uses():
    """A choice's dropdown words keep the capitals its field's help text gives the value
    ("DeepEP", not the capitalised raw value "Deepep")."""
    from goodput_lab.models import FIELDS

    from dashboard.components.sidebar import choice_words

    checked = 0
    for key, f in FIELDS.items():
        for value in f.choices or ():
            spelled = re.findall(rf"\b{re.escape(str(value))}\b", f.help, flags=re.IGNORECASE)
            proper = {w for w in spelled if w != str(value) and not w.islower()}
            for w in proper:
                checked += 1
                assert w in choice_words(key, str(value)), (key, value, w)
    assert checked >= 1  # the dispatcher's "DeepEP" at least
