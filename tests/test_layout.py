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
#: Calls that turn a figure into text or build a tile or table from the registries
#: (goodput_lab/views/display.py, models/outputs.py): the view modules call them; a page
#: places what its view returns (st.caption(svc.x(...)), st.metric(**tile),
#: tables.show(df)) and calls none of them.
FORMATTERS = frozenset(
    {
        "format_value",
        "format_usd",
        "format_savings",
        "cell",
        "change",
        "field_value",
        "interval_text",
        "singular",
        "help_text",
        "tile",
        "metric_rows",
        "inputs_table",
    }
)
#: Modules a page has no reason to import once it only places view-models.
FORMATTING_MODULES = ("goodput_lab.views.display", "goodput_lab.models.outputs")
#: (page, line text) a page may keep although the check flags it, each with the reason.
#: Empty: every page places its view's text.
ALLOWED: dict[tuple[str, str], str] = {}


def _called(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def number_formatting(source: str) -> list[tuple[int, str]]:
    """Where a page's source formats a number itself: an f-string field with a format spec
    (``{x:,}``, ``{x:.2f}``, ``{x:g}``), a call of a registry formatter or tile/table
    builder (also under an alias: ``fv = display.format_value``, ``import ... as fv``),
    ``"..." % x``, ``.format(...)``, ``round(...)`` and an import of the formatting modules;
    (line, what) pairs."""
    tree = ast.parse(source)
    formatters = set(FORMATTERS)
    found = []
    for node in ast.walk(tree):  # aliases and imports first
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute | ast.Name):
            if _called(node.value) in FORMATTERS:
                formatters.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if node.module in FORMATTING_MODULES or full in FORMATTING_MODULES:
                    found.append((node.lineno, f"imports {full}"))
                if a.name in FORMATTERS and a.asname:
                    formatters.add(a.asname)
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, f"imports {a.name}")
                for a in node.names
                if a.name in FORMATTING_MODULES
            ]
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            found.append((node.lineno, "format spec in an f-string"))
        elif isinstance(node, ast.Call) and _called(node.func) in formatters:
            found.append((node.lineno, f"{_called(node.func)}()"))
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
COMPONENTS = sorted(
    p for p in (ROOT / "dashboard" / "components").glob("*.py") if p.name != "__init__.py"
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_format_no_number(page):
    """Pages only place what their view module returns (captions, tiles, tables built from
    the registries), so a page and its report cannot word a figure differently."""
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
        "st.caption('lost ' + fv('goodput', g))\n"  # an alias, outside an f-string
        "from goodput_lab.models.outputs import format_value as f2\n"
        "st.metric(**display.tile('goodput', g))\n"  # a tile built in the page
        'st.caption(f"{name} and {plain(text)}")\n'  # placing text: not flagged
        "st.caption(svc.interval_caption(m))\n"  # placing a view's caption: not flagged
    )
    found = number_formatting(source)
    assert [n for n, _ in found] == [1, 2, 3, 4, 5, 7, 8, 9]
    assert found[0][1] == "format spec in an f-string"
    assert number_formatting('st.caption(f"{x:,.0f}")') == [(1, "format spec in an f-string")]


@pytest.mark.parametrize("component", COMPONENTS, ids=lambda p: p.name)
def test_components_format_no_number(component):
    """The sidebar, tables, deadline control, risk map and export buttons place what the view
    modules build, as pages do (they may import goodput_lab.views.display to call its view
    builders such as ``tile_rows``, but format no figure themselves)."""
    found = [
        (n, what)
        for n, what in number_formatting(component.read_text())
        if not what.startswith("imports ")
    ]
    assert found == []
