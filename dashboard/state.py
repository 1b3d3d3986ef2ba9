"""Scenario <-> Streamlit session state.

Each scenario field has one widget whose key is ``w:<section.key>`` and whose value is in
display units (fractions shown in %, see ``Field.scale``).  ``load_scenario`` writes a
scenario into those keys (preset picker, uploads, shared links); ``scenario_from_state``
reads them back through the one validation in :class:`models.Scenario`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from models import FIELDS, Scenario
from models.scenario import load_preset, preset_paths

DEFAULT_PRESET = "aws-16k-h100"
NAME_KEY = "w:name"
DESC_KEY = "scenario_description"
PRESET_KEY = "preset"
OPTIMAL_SUFFIX = ":optimal"
CATALOG_PRICE_SUFFIX = ":catalog"


def widget_key(field_key: str) -> str:
    return f"w:{field_key}"


def to_display(field_key: str, value: Any) -> Any:
    f = FIELDS[field_key]
    if isinstance(value, int | float) and not isinstance(value, bool) and f.kind == "float":
        return float(value) * f.scale
    return value


def from_display(field_key: str, value: Any) -> Any:
    f = FIELDS[field_key]
    if isinstance(value, int | float) and not isinstance(value, bool) and f.kind == "float":
        return float(value) / f.scale
    return value


def load_scenario(scenario: Scenario) -> None:
    """Write every field of ``scenario`` into the widget keys."""
    ss = st.session_state
    ss[NAME_KEY] = scenario.name
    ss[DESC_KEY] = scenario.description
    for key, f in FIELDS.items():
        value = scenario[key]
        if key == "checkpoint.interval_minutes":
            optimal = value == "optimal"
            ss[widget_key(key) + OPTIMAL_SUFFIX] = optimal
            ss[widget_key(key)] = float(f.default) if optimal else float(value)
            continue
        if f.optional:
            ss[widget_key(key) + CATALOG_PRICE_SUFFIX] = value is None
            ss[widget_key(key)] = float(value if value is not None else 0.0)
            continue
        ss[widget_key(key)] = to_display(key, value)


def ensure_initialised() -> None:
    if PRESET_KEY not in st.session_state:
        st.session_state[PRESET_KEY] = DEFAULT_PRESET
        load_scenario(load_preset(DEFAULT_PRESET))


def on_preset_change() -> None:
    load_scenario(load_preset(st.session_state[PRESET_KEY]))


def scenario_from_state() -> Scenario:
    """The scenario the widgets describe (raises models.ValidationError if invalid)."""
    ss = st.session_state
    values: dict[str, Any] = {}
    for key, f in FIELDS.items():
        wk = widget_key(key)
        if wk not in ss:
            continue
        if key == "checkpoint.interval_minutes" and ss.get(wk + OPTIMAL_SUFFIX):
            values[key] = "optimal"
        elif f.optional and ss.get(wk + CATALOG_PRICE_SUFFIX, False):
            values[key] = None
        else:
            values[key] = from_display(key, ss[wk])
    meta = {"name": ss.get(NAME_KEY) or "Untitled scenario", "description": ss.get(DESC_KEY, "")}
    return Scenario.from_dict({**values, **meta})


def preset_names() -> list[str]:
    return list(preset_paths())
