"""The one page list matches the page files, and the app draws every page it names."""

from __future__ import annotations

from pathlib import Path

from goodput_lab.dashboard.navigation import PAGE_SPECS, PAGES

APP_PAGES = Path(__file__).resolve().parents[2] / "dashboard" / "app_pages"


def test_every_page_file_is_listed_once_and_nothing_else():
    files = sorted(p.stem for p in APP_PAGES.glob("*.py") if not p.stem.startswith("_"))
    assert sorted(PAGES) == files
    assert len(set(PAGES)) == len(PAGES)


def test_titles_unique_and_groups_in_sidebar_order():
    assert len({p.title for p in PAGE_SPECS}) == len(PAGE_SPECS)
    groups = [p.group for p in PAGE_SPECS]
    assert groups == sorted(groups, key=["Analyse", "Decide"].index)  # no group split in two
