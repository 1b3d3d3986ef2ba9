"""The sidebar: preset picker, TOML download/upload and a what-if widget for every field.

It also keeps the address bar in step with the scenario (see :mod:`dashboard.state`), so a
copied link reproduces what is on screen.
"""

from __future__ import annotations

import re

import streamlit as st
from goodput_lab.dashboard import state
from goodput_lab.dashboard.text import plain
from goodput_lab.models import FIELDS, SECTIONS, Scenario, ValidationError
from goodput_lab.models.catalog import Instance

SECTION_TITLES = {
    "cluster": "Cluster",
    "reliability": "Reliability",
    "recovery": "Recovery times",
    "checkpoint": "Checkpointing",
    "pricing": "Pricing",
    "storage": "Checkpoint storage",
    "workload": "Workload",
    "network": "Network",
    "simulation": "Monte Carlo spread",
}
OPEN_SECTIONS = {"cluster", "reliability", "recovery", "checkpoint"}
#: Checkbox label of an optional number (ticked = leave it to the model's default source).
OPTIONAL_LABELS = {
    "pricing.usd_per_instance_hour": "Use the public price of the pricing model",
    "pricing.overrun_usd_per_instance_hour": "Use the on-demand price after a block",
}


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


def _file_name(scenario: Scenario) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", scenario.name.lower()).strip("-")[:60]
    return f"{slug or 'scenario'}.toml"


def _current() -> Scenario | None:
    try:
        return state.scenario_from_state()
    except ValidationError:
        return None  # the page shows the error; nothing to download or share yet


def _notice() -> None:
    notice = st.session_state.pop(state.NOTICE_KEY, None)
    if notice:
        kind, text = notice
        (st.error if kind == "error" else st.success)(plain(text))  # echoes user text


def _files(scenario: Scenario | None) -> None:
    with st.expander("Save / load scenario (TOML)", expanded=False):
        st.download_button(
            "Download this scenario",
            data=scenario.to_toml() if scenario else "",
            file_name=_file_name(scenario) if scenario else "scenario.toml",
            mime="application/toml",
            disabled=scenario is None,
            key="scenario_download",
            help="Every field as TOML; `goodput evaluate FILE` and the upload below read it.",
        )
        st.file_uploader(
            "Upload a scenario",
            type=["toml"],
            key=state.UPLOAD_KEY,
            on_change=state.on_upload,
            help="A TOML scenario like data/scenarios/*.toml (at most 256 KiB). It is "
            "validated first; an invalid file changes nothing.",
        )


def show(catalog: dict[str, Instance]) -> None:
    """Draw the sidebar; widget values live in session state (see dashboard.state)."""
    state.ensure_initialised(catalog)
    _notice()
    scenario = _current()
    if scenario is not None:
        state.sync_url(scenario)
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
        _files(scenario)
        for section, fields in SECTIONS.items():
            with st.expander(
                SECTION_TITLES.get(section, section.title()), expanded=section in OPEN_SECTIONS
            ):
                for f in fields:
                    wk = state.widget_key(f.key)
                    if f.key == "cluster.instance":
                        names = list(catalog)
                        if st.session_state.get(wk) not in names:  # reported, then replaced
                            bad = str(st.session_state.get(wk))[:80]
                            st.error(
                                plain(
                                    f"cluster.instance {bad!r} is not in the catalog; "
                                    f"showing {names[0]} instead."
                                )
                            )
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
                    elif f.kind == "str":
                        st.text_input(f.label, key=wk, max_chars=f.max_length, help=f.help)
                    elif f.optional:
                        st.checkbox(
                            OPTIONAL_LABELS.get(f.key) or f.none_label or "Use the catalog price",
                            key=wk + state.CATALOG_PRICE_SUFFIX,
                        )
                        if not st.session_state.get(wk + state.CATALOG_PRICE_SUFFIX):
                            st.number_input(
                                f"{f.label} ({f.unit})",
                                min_value=float(f.min or 0.0),
                                max_value=float(f.max or 1e6),
                                key=wk,
                                help=f.help,
                            )
                    elif f.kind == "choice":
                        if st.session_state.get(wk) not in f.choices:
                            st.session_state[wk] = f.default
                        st.selectbox(f.label, f.choices, key=wk, help=f.help)
                    elif f.kind in ("int", "float"):
                        _numeric_widget(f.key)
