"""The HTML report's tables in Debian's chromium at 1,440 and 1,024 px: no header wider
than its column or running into the next one, no value of a fixed-width table out of its
cell (QA pass: the instance-choice headers overlapped, 209 px of text in 135 px)."""

from __future__ import annotations

from goodput_lab.models import load_preset

from goodput_lab.reports import build_report, render

#: In the page: every table header's text inside its cell and clear of its neighbours; every
#: cell of a fixed-width table inside its cell.
_LAYOUT_JS = r"""
() => {
  const bad = [];
  const textBox = el => {
    const r = document.createRange(); r.selectNodeContents(el);
    const rs = [...r.getClientRects()].filter(x => x.width > 0);
    return rs.length ? {left: Math.min(...rs.map(x => x.left)),
                        right: Math.max(...rs.map(x => x.right))} : null;
  };
  document.querySelectorAll('table').forEach(t => {
    const ths = [...t.querySelectorAll('thead th')];
    const boxes = ths.map(textBox);
    ths.forEach((th, i) => {
      const cell = th.getBoundingClientRect(), b = boxes[i];
      if (b && (b.left < cell.left - 0.5 || b.right > cell.right + 0.5))
        bad.push(`header "${th.textContent}": text ${b.right - b.left | 0} px in ${cell.width | 0} px`);
      if (i && b && boxes[i - 1] && boxes[i - 1].right > b.left + 0.5)
        bad.push(`headers "${ths[i - 1].textContent}" and "${th.textContent}" overlap`);
    });
    if (t.classList.contains('fixed'))
      t.querySelectorAll('tbody td').forEach(td => {
        const cell = td.getBoundingClientRect(), b = textBox(td);
        if (b && (b.left < cell.left - 0.5 || b.right > cell.right + 0.5))
          bad.push(`cell "${td.textContent.slice(0, 40)}" runs out of its column`);
      });
  });
  return bad;
}
"""


def test_html_table_headers_wrap_inside_their_columns(tmp_path, catalog, browser):
    """The instance-choice table (and every other) at 1440 and 1024 px ("$98.32/instance-h
    (scenario, as of 2023-07)" in the assumptions ran across the next columns)."""
    path = tmp_path / "report.html"
    path.write_bytes(render(build_report(load_preset("aws-16k-h100"), catalog=catalog), ".html"))
    for width in (1440, 1024):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            page.goto(path.as_uri())
            assert page.locator("#section-instances").count() == 1
            assert page.evaluate(_LAYOUT_JS) == [], width
        finally:
            context.close()
