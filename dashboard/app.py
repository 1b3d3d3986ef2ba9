"""Goodput Lab dashboard: ``streamlit run dashboard/app.py``.

The sidebar (export and share, preset, essentials, advanced groups) is drawn here for every
page; each page reads the current scenario with :func:`dashboard.page_context.current` and
holds layout only.  Standards every page follows are in dashboard/README.md.
"""

from __future__ import annotations

from pathlib import Path

# imported whole before any session draws a chart: plotly peeks at a half-imported pandas
# when two first sessions start at once ("partially initialized module 'pandas'", QA 20)
import pandas  # noqa: F401
import streamlit as st
from goodput_lab.dashboard import cache
from goodput_lab.dashboard.components import sidebar
from goodput_lab.dashboard.navigation import PAGE_SPECS

PAGES_DIR = Path(__file__).resolve().parent / "app_pages"
#: A local file: a Material icon as page_icon makes the browser fetch it from a font host.
FAVICON = Path(__file__).resolve().parent / "static" / "favicon.png"

st.set_page_config(page_title="Goodput Lab", page_icon=str(FAVICON), layout="wide")

#: Sidebar navigation, grouped: what the cluster loses, then tools to decide what to change.
PAGES: dict[str, list] = {}
for spec in PAGE_SPECS:
    PAGES.setdefault(spec.group, []).append(
        st.Page(
            str(PAGES_DIR / f"{spec.slug}.py"),
            title=spec.title,
            icon=spec.icon,
            default=spec is PAGE_SPECS[0],
            # Streamlit serves the default page at the root and answers its own path with
            # "Page not found"; the path is left to DEFAULT_ALIAS below
            url_path=f"{spec.slug}-home" if spec is PAGE_SPECS[0] else None,
        )
    )
HOME = PAGES[PAGE_SPECS[0].group][0]


def _to_home() -> None:
    """``/overview`` (the first page's slug, as every other page is reached by its own):
    go to the root, where Streamlit serves the default page, keeping the link's query."""
    st.switch_page(HOME, query_params=st.query_params.to_dict())


#: A hidden page at the default page's slug, so a typed or shared ``/overview`` link opens it.
DEFAULT_ALIAS = st.Page(
    _to_home, title=PAGE_SPECS[0].title, url_path=PAGE_SPECS[0].slug, visibility="hidden"
)
PAGES[PAGE_SPECS[0].group].append(DEFAULT_ALIAS)

#: Tile labels wrap instead of ending in an ellipsis when four tiles share a row at 1024 px.
TILE_CSS = (
    "<style>[data-testid='stMetricLabel'], [data-testid='stMetricLabel'] * "
    "{white-space: normal !important; overflow: visible !important; "
    "text-overflow: clip !important;}</style>"
)

st.html(TILE_CSS)
page = st.navigation(PAGES)
if page.url_path == DEFAULT_ALIAS.url_path:
    # straight on to the root, before the sidebar reads the link: read here, its "could not
    # be read" notice would be spent on this run and the address bar reset to the preset
    page.run()
sidebar.show(cache.catalog())
sidebar.page_notice()
page.run()
