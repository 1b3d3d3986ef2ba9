"""Goodput Lab dashboard: ``streamlit run dashboard/app.py``.

The sidebar (preset + what-if widgets) is drawn here for every page; each page reads the
current scenario with :func:`dashboard.page_context.current` and holds layout only.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard import cache
from dashboard.components import export_buttons, sidebar

PAGES_DIR = Path(__file__).resolve().parent / "app_pages"

st.set_page_config(page_title="Goodput Lab", page_icon="⏱️", layout="wide")

PAGES = [
    st.Page(str(PAGES_DIR / "overview.py"), title="Overview", icon="📊", default=True),
    st.Page(str(PAGES_DIR / "compare.py"), title="Compare", icon="⚖️"),
    st.Page(str(PAGES_DIR / "checkpoints.py"), title="Checkpoints", icon="💾"),
    st.Page(str(PAGES_DIR / "sensitivity.py"), title="Sensitivity", icon="🌪️"),
    st.Page(str(PAGES_DIR / "optimizer.py"), title="Optimizer", icon="🎯"),
    st.Page(str(PAGES_DIR / "failure_log.py"), title="Failure log", icon="🧾"),
    st.Page(str(PAGES_DIR / "network.py"), title="Network", icon="🕸️"),
    st.Page(str(PAGES_DIR / "instances.py"), title="Instances", icon="🖥️"),
    st.Page(str(PAGES_DIR / "montecarlo.py"), title="Monte Carlo", icon="🎲"),
]

page = st.navigation(PAGES)
sidebar.show(cache.catalog())
export_buttons.show()
page.run()
