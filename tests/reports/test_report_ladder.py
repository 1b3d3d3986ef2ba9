"""The report gains the resilience ladder, and its ladder matches `goodput ladder --json`."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from goodput_lab.models import load_preset
from goodput_lab.models.outputs import format_value

from goodput_lab.cli.main import main
from goodput_lab.reports import build_report, render
from goodput_lab.reports.tables import report_table
from goodput_lab.views.display import change

DATE = __import__("datetime").date(2026, 12, 2)


class _SectionTable(HTMLParser):
    """Rows (cell texts) of the first table after the heading with id ``section``."""

    def __init__(self, section: str):
        super().__init__()
        self.section, self.inside, self.done = section, False, False
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "h2" and dict(attrs).get("id") == self.section:
            self.inside = True
        elif self.inside and not self.done and tag == "tr":
            self.rows.append([])
        elif self.inside and not self.done and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None
        elif self.inside and tag == "table":
            self.done = True

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


@pytest.fixture(scope="module")
def ladder_json():
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ladder", "aws-16k-h100", "--json"]) == 0
    return json.loads(buf.getvalue())


@pytest.fixture(scope="module")
def report(catalog):
    return build_report(load_preset("aws-16k-h100"), catalog=catalog, generated=DATE)


def test_html_report_ladder_matches_the_json(report, ladder_json):
    html = render(report, ".html").decode()
    parser = _SectionTable("section-resilience")
    parser.feed(html)
    head, *rows = parser.rows
    assert head[:6] == [
        "Rung",
        "Feature",
        "Goodput",
        "Lost per day",
        "Goodput gained",
        "Saves per day",
    ]
    rungs = ladder_json["rungs"]
    assert len(rows) == len(rungs)
    for row, r in zip(rows, rungs, strict=True):
        assert row[2] == format_value("goodput", r["goodput"])
        # cells without '/day' under headers that say it; a rung that moves nothing reads
        # 'no change' (views.resilience, aa4fd64)
        assert row[3] == format_value("lost_usd_per_day", r["lost_usd_per_day"], unit=False)
        if r["feature"] != "baseline":
            assert row[1] == r["label"]
            assert row[5] == change("delta_usd_per_day", r["delta_usd_per_day"], unit=False)
            assert row[4] == change("delta_goodput_points", r["delta_goodput_points"])
    assert 'id="fig-resilience"' in html  # the waterfall
    assert "Resilience ladder" in html  # and its method


def test_csv_report_ladder_matches_the_json_exactly(ladder_json, catalog):
    table = report_table(
        build_report(load_preset("aws-16k-h100"), catalog=catalog, generated=DATE, detail=False)
    )
    lad = table.filter(table["table"] == "resilience_ladder")
    values = dict(zip(lad["key"].to_list(), lad["value"].to_list(), strict=True))
    for i, r in enumerate(ladder_json["rungs"]):
        for key in ("goodput", "lost_usd_per_day", "delta_goodput_points", "delta_usd_per_day"):
            assert values[f"rung_{i}.{key}"] == r[key]
