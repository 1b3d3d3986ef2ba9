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
