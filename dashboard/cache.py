"""Cached entry points the pages call (Streamlit caching lives here, not in services).

Keys are the scenario's hash plus a page's own settings, so moving a page-only control
(tornado range, heatmap colour, deadline) reuses the scenario's results, and returning to an
earlier slider position is instant.  ``max_entries`` bounds memory.
"""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard.services import compare as cmp_svc
from goodput_lab.dashboard.services import instances as inst_svc
from goodput_lab.dashboard.services import network as net_svc
from goodput_lab.dashboard.services import optimizer as opt_svc
from goodput_lab.dashboard.services import resilience as res_svc
from goodput_lab.dashboard.services import sensitivity as sens_svc
from goodput_lab.models import Evaluation, Scenario, evaluate, load_catalog
from goodput_lab.models.catalog import Instance


@st.cache_resource(max_entries=4)
def catalog() -> dict[str, Instance]:
    return load_catalog()


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs={Scenario: hash})
def evaluation(scenario: Scenario) -> Evaluation:
    return evaluate(scenario, catalog())


# ---- Compare, Sensitivity and Optimizer pages
@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def comparison(baseline: Scenario, candidate: Scenario):
    return cmp_svc.run(baseline, candidate, catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def tornado_table(scenario: Scenario, fraction: float):
    return sens_svc.tornado_table(scenario, catalog(), fraction)


@st.cache_data(max_entries=128, show_spinner=False, hash_funcs={Scenario: hash})
def heatmap(scenario: Scenario, kind: str, metric: str):
    return sens_svc.heatmap(scenario, catalog(), kind, metric)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def recommendation(scenario: Scenario):
    return opt_svc.recommend(scenario, catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def interval_curve(scenario: Scenario):
    return opt_svc.interval_curve(scenario, catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def instance_table(scenario: Scenario, deadline_days: float | None):
    return opt_svc.instance_table(scenario, catalog(), deadline_days)


# ---- Network and Instances pages
@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def network_scaling(scenario: Scenario):
    return net_svc.scaling_vs_nodes(scenario, catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def instance_comparison(scenario: Scenario, deadline, prices: tuple, mfus: tuple):
    """``prices``/``mfus`` are tuples of (instance, value) pairs so that they hash."""
    return inst_svc.comparison(scenario, catalog(), deadline, dict(prices), dict(mfus))


# ---- Resilience page
@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def resilience_ladder(scenario: Scenario, features: tuple[str, ...] | None, lemon_share: float):
    """The ladder (``features`` None = recommended order), analytic only."""
    return res_svc.run(scenario, catalog(), features, lemon_share)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs={Scenario: hash})
def resilience_montecarlo(
    scenario: Scenario,
    features: tuple[str, ...] | None,
    lemon_share: float,
    trials: int,
    seed: int,
):
    """The ladder with every rung simulated (``trials`` runs of 30 days, one seed)."""
    return res_svc.run(scenario, catalog(), features, lemon_share, trials=trials, seed=seed)
