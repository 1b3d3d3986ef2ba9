"""The sidebar: preset picker and a what-if widget for every scenario field."""

from __future__ import annotations

import streamlit as st

from dashboard import state
from models import FIELDS, SECTIONS
from models.catalog import Instance

SECTION_TITLES = {
    "cluster": "Cluster",
    "reliability": "Reliability",
    "recovery": "Recovery times",
    "checkpoint": "Checkpointing",
    "pricing": "Pricing",
    "workload": "Workload",
}
OPEN_SECTIONS = {"cluster", "reliability", "recovery", "checkpoint"}


def _numeric_widget(key: str) -> None:
    f = FIELDS[key]
    wk = state.widget_key(key)
    current = st.session_state.get(wk, state.to_display(key, f.default))
    unit = f.unit if f.scale == 1.0 else "%"
    label = f"{f.label} ({unit})" if unit else f.label
    if f.ui_min is not None and f.ui_max is not None:
        lo, hi = f.ui_min * f.scale, f.ui_max * f.scale
        step = (f.ui_step or 1.0) * f.scale
        if f.kind == "int":
            lo, hi, step = int(lo), int(hi), max(1, int(step))
            current = int(current)
            st.session_state[wk] = current
            lo, hi = min(lo, current), max(hi, current)
        else:
            lo, hi, step = float(lo), float(hi), float(step)
            current = float(current)
            st.session_state[wk] = current
            lo, hi = min(lo, current), max(hi, current)
        st.slider(label, min_value=lo, max_value=hi, step=step, key=wk, help=f.help)
    else:
        st.number_input(label, key=wk, help=f.help)


def show(catalog: dict[str, Instance]) -> None:
    """Draw the sidebar; widget values live in session state (see dashboard.state)."""
    state.ensure_initialised()
    sb = st.sidebar
    with sb:
        st.selectbox(
            "Preset scenario",
            state.preset_names(),
            key=state.PRESET_KEY,
            on_change=state.on_preset_change,
            help="Loads a scenario from data/scenarios/; every field below can then be changed.",
        )
        st.text_input("Scenario name", key=state.NAME_KEY, max_chars=200)
        for section, fields in SECTIONS.items():
            with st.expander(
                SECTION_TITLES.get(section, section.title()), expanded=section in OPEN_SECTIONS
            ):
                for f in fields:
                    wk = state.widget_key(f.key)
                    if f.key == "cluster.instance":
                        names = list(catalog)
                        if st.session_state.get(wk) not in names:
                            st.session_state[wk] = names[0]
                        st.selectbox(f.label, names, key=wk, help=f.help)
                    elif f.key == "checkpoint.interval_minutes":
                        st.checkbox(
                            "Use the optimal interval",
                            key=wk + state.OPTIMAL_SUFFIX,
                            help="Exact minimiser of Daly's expected wall time (Lambert W).",
                        )
                        if not st.session_state.get(wk + state.OPTIMAL_SUFFIX):
                            _numeric_widget(f.key)
                    elif f.optional:
                        st.checkbox("Use the catalog price", key=wk + state.CATALOG_PRICE_SUFFIX)
                        if not st.session_state.get(wk + state.CATALOG_PRICE_SUFFIX):
                            st.number_input(
                                f"{f.label} ({f.unit})",
                                min_value=float(f.min or 0.0),
                                max_value=float(f.max or 1e6),
                                key=wk,
                                help=f.help,
                            )
                    elif f.kind in ("int", "float"):
                        _numeric_widget(f.key)
