"""Cached entry points the pages call (Streamlit caching lives here, not in services)."""

from __future__ import annotations

import streamlit as st

from models import Evaluation, Scenario, evaluate, load_catalog
from models.catalog import Instance


@st.cache_resource(max_entries=4)
def catalog() -> dict[str, Instance]:
    return load_catalog()


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs={Scenario: hash})
def evaluation(scenario: Scenario) -> Evaluation:
    return evaluate(scenario, catalog())
