"""Cached entry points of the Compare, Sensitivity and Optimizer pages.

Streamlit caching lives at this layer (services stay Streamlit-free).  Keys are the
scenario's hash plus the page's own settings, so moving a page-only control (tornado range,
heatmap colour, deadline) reuses the scenario's results, and returning to an earlier slider
position is instant.  ``max_entries`` bounds memory.
"""

from __future__ import annotations

import streamlit as st

from dashboard import cache
from dashboard.services import compare as cmp_svc
from dashboard.services import optimizer as opt_svc
from dashboard.services import sensitivity as sens_svc
from models import Scenario

_HASH = {Scenario: hash}


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_HASH)
def comparison(baseline: Scenario, candidate: Scenario):
    return cmp_svc.run(baseline, candidate, cache.catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_HASH)
def tornado_table(scenario: Scenario, fraction: float):
    return sens_svc.tornado_table(scenario, cache.catalog(), fraction)


@st.cache_data(max_entries=128, show_spinner=False, hash_funcs=_HASH)
def heatmap(scenario: Scenario, kind: str, metric: str):
    return sens_svc.heatmap(scenario, cache.catalog(), kind, metric)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_HASH)
def recommendation(scenario: Scenario):
    return opt_svc.recommend(scenario, cache.catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_HASH)
def interval_curve(scenario: Scenario):
    return opt_svc.interval_curve(scenario, cache.catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_HASH)
def instance_table(scenario: Scenario, deadline_days: float | None):
    return opt_svc.instance_table(scenario, cache.catalog(), deadline_days)
