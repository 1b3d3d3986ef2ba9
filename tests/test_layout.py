"""The layout shows the architecture (README, "Where things are"): ``dashboard/`` is the
Streamlit app alone, and the code the pages, the command line and the reports share lives in
the import package, which never imports Streamlit, so a report cannot depend on the app."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("cli", "views", "reports", "charts", "engine")


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", [f"goodput_lab/{p}" for p in SHARED] + ["models"])
def test_shared_code_never_imports_streamlit_or_the_app(folder):
    files = _files(folder)
    assert files, folder
    bad = {
        str(f.relative_to(ROOT)): sorted(
            m
            for m in _imports(f)
            if m.split(".")[0] == "streamlit" or m.startswith("goodput_lab.dashboard")
        )
        for f in files
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_check_sees_a_streamlit_import(tmp_path):
    """The rule above can fail: a file with a function-level Streamlit import is caught."""
    f = tmp_path / "page.py"
    f.write_text(
        "def draw():\n    import streamlit as st\n    from goodput_lab.dashboard import state\n"
    )
    assert _imports(f) == {"streamlit", "goodput_lab.dashboard"}


def test_dashboard_holds_the_streamlit_app_alone():
    """No command line, report, chart builder, view-model or engine left in ``dashboard/``."""
    folders = {p.name for p in (ROOT / "dashboard").iterdir() if p.is_dir()}
    assert folders <= {"app_pages", "components", "static", "__pycache__"}, folders
    for f in _files("dashboard"):
        text = f.read_text()
        assert "argparse" not in _imports(f), f
        assert "plotly.graph_objects" not in _imports(f) or f.parent.name == "app_pages", f
        assert "def register(" not in text, f  # a subcommand belongs in goodput_lab/cli


# --------------------------------------------------------------------------- pages only place
#: Calls that turn a figure into text (goodput_lab/views/display.py, models/outputs.py):
#: a page places what a view returns and never calls these inside its own sentences.
FORMATTERS = frozenset(
    {
        "format_value",
        "format_usd",
        "format_savings",
        "cell",
        "change",
        "field_value",
        "tile",
        "interval_text",
        "singular",
    }
)
#: (page, line text) a page may keep although the check flags it, each with the reason.
ALLOWED: dict[tuple[str, str], str] = {}
#: Pages whose sentences have not moved into their view yet (issue 26, item 5).
NOT_YET = {
    "compare.py",
    "sensitivity.py",
}


def _called(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def number_formatting(source: str) -> list[tuple[int, str]]:
    """Where a page's source formats a number itself: an f-string field with a format spec
    (``{x:,}``, ``{x:.2f}``, ``{x:g}``), a registry formatter called inside an f-string,
    ``"..." % x``, ``.format(...)`` and ``round(...)``; (line, what) pairs."""
    tree = ast.parse(source)
    formatters = set(FORMATTERS)
    for node in ast.walk(tree):  # aliases: ``fv = display.format_value``
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute | ast.Name):
            if _called(node.value) in FORMATTERS:
                formatters.update(t.id for t in node.targets if isinstance(t, ast.Name))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            if node.format_spec is not None:
                found.append((node.lineno, "format spec in an f-string"))
            found += [
                (node.lineno, f"{_called(sub.func)}() in an f-string")
                for sub in ast.walk(node.value)
                if isinstance(sub, ast.Call) and _called(sub.func) in formatters
            ]
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant | ast.JoinedStr)
        ):
            found.append((node.lineno, "%-formatting"))
        elif isinstance(node, ast.Call) and _called(node.func) in ("format", "round"):
            found.append((node.lineno, f"{_called(node.func)}()"))
    return sorted(found)


PAGES = sorted((ROOT / "dashboard" / "app_pages").glob("*.py"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_format_no_number(page):
    """Pages only place what their view module returns (captions, tiles, tables built from
    the registries), so a page and its report cannot word a figure differently."""
    if page.name in NOT_YET:
        pytest.skip("not moved yet")
    lines = page.read_text().splitlines()
    bad = [
        f"{page.name}:{n}: {what}: {lines[n - 1].strip()}"
        for n, what in number_formatting(page.read_text())
        if (page.name, lines[n - 1].strip()) not in ALLOWED
    ]
    assert bad == []


def test_the_number_check_can_fail():
    """Each kind of number formatting is seen (the check above is not vacuous)."""
    source = (
        'st.caption(f"{x:,.0f} GB")\n'
        "st.caption(f\"lost {display.format_value('goodput', g)}\")\n"
        'st.caption("%.1f%%" % share)\n'
        'st.caption("{:,}".format(n))\n'
        "st.metric('Nodes', round(n))\n"
        "fv = display.format_value\n"
        'st.caption(f"lost {fv(\'goodput\', g)}")\n'  # an alias is seen through
        'st.caption(f"{name} and {plain(text)}")\n'  # placing text: not flagged
    )
    assert [n for n, _ in number_formatting(source)] == [1, 2, 3, 4, 5, 7]
    assert "format spec" in number_formatting(source)[0][1]
