"""The printed report of every preset in data/scenarios lays out inside the page (issue 31
item 7): no text cut or running outside the page or its table cell or tile, every table
that ranks shows its cost column, and no rows of zeros for features that are off.

All presets are printed in one Chromium session, once per test run (a module-scoped
fixture that the xdist workers share through ``tests.conftest.built_once``): before each is
printed, the layout Chromium prints (print media, A4's width between the margins) is
checked in the page itself: every piece of text in a table cell or tile lies inside that
cell or tile, and nothing is wider than the page.  The PDF is then read back with
``pdftotext -bbox``: every word lies inside the page, between its left and right margins.
"""

from __future__ import annotations

import html.parser
import re
import shutil
import subprocess

import pytest
from goodput_lab.models import ValidationError, load_preset

from goodput_lab.reports import build_report
from goodput_lab.reports.html import render_html
from goodput_lab.reports.pdf import PDF_OPTIONS, chromium_path, render_pdfs
from tests.conftest import DATA_DIR, built_once

PRESETS = sorted(p.stem for p in (DATA_DIR / "scenarios").glob("*.toml"))
MM = 72 / 25.4  # PDF points per millimetre
TOLERANCE_PT = 1.0


def _has_chromium() -> bool:
    try:
        chromium_path()
    except ValidationError:
        return False
    return True


pytestmark = [
    pytest.mark.skipif(
        shutil.which("pdftotext") is None or not _has_chromium(),
        reason="needs pdftotext (poppler-utils) and Chromium",
    ),
    pytest.mark.xdist_group("pdf-layout"),  # one worker prints (tasks.py: --dist loadgroup)
]

# Run in the page before printing: text that leaves its cell or tile, and blocks wider
# than the printable width.  Returns [{text, where, by}] (by: CSS px outside).
LAYOUT_JS = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const cell of document.querySelectorAll('td, th, .card')) {
    const box = cell.getBoundingClientRect();
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      if (!node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        const by = Math.max(box.left - r.left, r.right - box.right,
                            box.top - r.top, r.bottom - box.bottom);
        if (by > 0.5) out.push({text: node.textContent.slice(0, 60),
                                where: cell.tagName + '.' + cell.className, by});
      }
    }
  }
  for (const el of document.querySelectorAll('body *')) {
    // inside a chart only the chart's own box counts (plotly measures text off-screen)
    if (el.closest('svg *, .js-plotly-tester, #js-plotly-tester')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 0.5 || r.left < -0.5)) {
      out.push({text: (el.textContent || '').trim().slice(0, 60), where: el.tagName,
                by: Math.max(r.right - width, -r.left)});
    }
  }
  return out;
}"""

RANKING_JS = """() => Array.from(document.querySelectorAll('h2')).filter(
  h => ['section-instances', 'section-resilience'].includes(h.id)).map(h => {
    let t = h.nextElementSibling;
    while (t && t.tagName !== 'TABLE') t = t.nextElementSibling;
    return {id: h.id, headers: Array.from(t.querySelectorAll('th')).map(x => x.textContent),
            rows: Array.from(t.querySelectorAll('tbody tr')).map(
              r => Array.from(r.cells).map(c => c.textContent))};
  })"""


def _report(preset: str):
    """The preset's report; one whose instance has no catalog price (megatron-1t: a DGX
    A100, which `goodput report` refuses until a price is entered) gets an illustrative
    price."""
    scenario = load_preset(preset)
    try:
        return build_report(scenario)
    except ValidationError as exc:
        assert exc.field == "pricing.usd_per_instance_hour", exc
        return build_report(scenario.with_overrides(["pricing.usd_per_instance_hour=40"]))


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """preset -> (report, layout problems, ranking tables, pdftotext -bbox words, page size);
    printed once per test run, whichever xdist worker asks first."""
    return built_once(tmp_path_factory, "pdf-layout", lambda: _print_all(tmp_path_factory))


def _print_all(tmp_path_factory):
    reports = [_report(p) for p in PRESETS]
    seen: dict[str, tuple] = {}

    def inspect(page, report):
        seen[report.scenario.name] = (page.evaluate(LAYOUT_JS), page.evaluate(RANKING_JS))

    pdfs = render_pdfs(reports, inspect)
    out = {}
    folder = tmp_path_factory.mktemp("pdf")
    for preset, report, data in zip(PRESETS, reports, pdfs, strict=True):
        path = folder / f"{preset}.pdf"
        path.write_bytes(data)
        xml = subprocess.run(
            ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', xml, re.S)
        words = [
            (int(n), float(x0), float(y0), float(x1), float(y1), w)
            for n, (_w, _h, body) in enumerate(pages, 1)
            for x0, y0, x1, y1, w in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">'
                r"(.*?)</word>",
                body,
            )
        ]
        size = (float(pages[0][0]), float(pages[0][1]))
        layout, ranking = seen[report.scenario.name]
        out[preset] = (report, layout, ranking, words, size)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_every_text_lies_inside_its_cell_and_the_page(printed, preset):
    _report, layout, _ranking, words, (width, height) = printed[preset]
    assert layout == [], f"{preset}: text outside its cell or the page: {layout[:5]}"
    assert words, "pdftotext found no text"
    left = float(PDF_OPTIONS["margin"]["left"].removesuffix("mm")) * MM - TOLERANCE_PT
    right = width - float(PDF_OPTIONS["margin"]["right"].removesuffix("mm")) * MM
    outside = [
        w for w in words if w[1] < left or w[3] > right + TOLERANCE_PT or w[2] < 0 or w[4] > height
    ]
    assert outside == [], f"{preset}: words outside the page's margins: {outside[:8]}"


@pytest.mark.parametrize("preset", PRESETS)
def test_ranking_tables_show_their_cost_column(printed, preset):
    _report, _layout, ranking, words, _size = printed[preset]
    cost_headers = {
        "section-instances": "Cost to train, instances ($)",  # the Instances page's own header
        "section-resilience": "Lost per day",
    }
    assert ranking, f"{preset}: no ranking table printed"
    text = " ".join(w[5] for w in words)
    for table in ranking:
        header = cost_headers[table["id"]]
        assert header in table["headers"], table["headers"]
        # printed, not cut off (a header wrapped over two lines interleaves with its
        # neighbours' words in reading order, so each word is looked for)
        assert all(w in text.split() for w in header.split()), header
        col = table["headers"].index(header)
        for row in table["rows"]:
            cell = row[col].strip()
            assert cell and (cell.startswith(("$", "−$", "-$")) or cell in ("n/a", "—")), row


class _Rows(html.parser.HTMLParser):
    """Rows of every table: (table class, row class, [(cell class, text)])."""

    def __init__(self):
        super().__init__()
        self.rows: list[tuple[str, str, list[tuple[str, str]]]] = []
        self._table = ""
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("class") or ""
        elif tag == "tr":
            self.rows.append((self._table, a.get("class") or "", []))
        elif tag in ("td", "th"):
            self._cell = [a.get("class") or "", ""]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1][2].append((self._cell[0], self._cell[1].strip()))
            self._cell = None


def _zero(text: str) -> bool:
    return bool(re.search(r"[0-9]", text)) and not re.search(r"[1-9]", text)


@pytest.mark.parametrize("preset", PRESETS)
def test_no_rows_of_zeros(printed, preset):
    report = printed[preset][0]
    parser = _Rows()
    parser.feed(render_html(report, for_print=True))
    for table, row_class, cells in parser.rows:
        figures = [t for cls, t in cells if cls == "num" and re.search(r"[0-9]", t)]
        if "assumptions" in table.split():
            continue  # inputs: a zero there says which feature is off
        if "metrics" in table.split():  # label, value, label, value: every value on its own
            assert not any(_zero(t) for t in figures), cells
        elif figures and row_class != "total":
            assert not all(_zero(t) for t in figures), cells


def test_a_zero_loss_is_named_under_the_table(printed):
    report = printed["aws-16k-h100"][0]
    doc = render_html(report, for_print=True)
    assert report.losses.filter(report.losses["usd_per_day"] == 0).height > 0
    assert "Warm-up after restart" in doc.split("not listed:")[1].split("</p>")[0]
