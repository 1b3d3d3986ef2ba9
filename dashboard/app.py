"""Goodput Lab dashboard: ``streamlit run dashboard/app.py``.

The sidebar (export and share, preset, essentials, advanced groups) is drawn here for every
page; each page reads the current scenario with :func:`dashboard.page_context.current` and
holds layout only.  Standards every page follows are in dashboard/README.md.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from goodput_lab.dashboard import cache
from goodput_lab.dashboard.components import sidebar

PAGES_DIR = Path(__file__).resolve().parent / "app_pages"
#: A local file: a Material icon as page_icon makes the browser fetch it from a font host.
FAVICON = Path(__file__).resolve().parent / "static" / "favicon.png"

st.set_page_config(page_title="Goodput Lab", page_icon=str(FAVICON), layout="wide")

#: Sidebar navigation, grouped: what the cluster loses, then tools to decide what to change.
PAGES = {
    "Analyse": [
        st.Page(
            str(PAGES_DIR / "overview.py"),
            title="Overview",
            icon=":material/dashboard:",
            default=True,
        ),
        st.Page(str(PAGES_DIR / "checkpoints.py"), title="Checkpoints", icon=":material/save:"),
        st.Page(str(PAGES_DIR / "network.py"), title="Network", icon=":material/lan:"),
        st.Page(str(PAGES_DIR / "instances.py"), title="Instances", icon=":material/memory:"),
        st.Page(str(PAGES_DIR / "montecarlo.py"), title="Monte Carlo", icon=":material/casino:"),
        st.Page(
            str(PAGES_DIR / "failure_log.py"), title="Failure log", icon=":material/receipt_long:"
        ),
        st.Page(str(PAGES_DIR / "run_log.py"), title="Run log", icon=":material/timeline:"),
    ],
    "Decide": [
        st.Page(str(PAGES_DIR / "compare.py"), title="Compare", icon=":material/compare_arrows:"),
        st.Page(str(PAGES_DIR / "sensitivity.py"), title="Sensitivity", icon=":material/tune:"),
        st.Page(str(PAGES_DIR / "optimizer.py"), title="Optimizer", icon=":material/target:"),
        st.Page(str(PAGES_DIR / "plan.py"), title="Plan", icon=":material/event_available:"),
        st.Page(
            str(PAGES_DIR / "resilience.py"),
            title="Resilience",
            icon=":material/health_and_safety:",
        ),
    ],
}

page = st.navigation(PAGES)
sidebar.show(cache.catalog())
page.run()
