"""Cached entry points the pages call (Streamlit caching lives here, not in services).

Keys are the scenario's hash plus a page's own settings, so moving a page-only control
(tornado range, heatmap colour, deadline) reuses the scenario's results, and returning to an
earlier slider position is instant.  ``max_entries`` bounds memory.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import streamlit as st
from goodput_lab.dashboard.services import compare as cmp_svc
from goodput_lab.dashboard.services import instances as inst_svc
from goodput_lab.dashboard.services import network as net_svc
from goodput_lab.dashboard.services import optimizer as opt_svc
from goodput_lab.dashboard.services import plan as plan_svc
from goodput_lab.dashboard.services import resilience as res_svc
from goodput_lab.dashboard.services import run_log as run_log_svc
from goodput_lab.dashboard.services import sensitivity as sens_svc
from goodput_lab.models import Evaluation, Scenario, evaluate, load_catalog
from goodput_lab.models.catalog import Instance
from goodput_lab.models.timeline import Timeline


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
def optimization(scenario: Scenario, deadline_days: float | None):
    return opt_svc.recommend(scenario, catalog(), deadline_days)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def interval_curve(scenario: Scenario):
    return opt_svc.interval_curve(scenario, catalog())


# ---- Network and Instances pages
@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def network_scaling(scenario: Scenario):
    return net_svc.scaling_vs_nodes(scenario, catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def instance_ranking(scenario: Scenario, deadline, prices: tuple = (), mfus: tuple = ()):
    """``prices``/``mfus`` are tuples of (instance, value) pairs so that they hash.  The
    Optimizer (no overrides) and the Instances page share entries for the same inputs."""
    return inst_svc.ranking(scenario, catalog(), deadline, dict(prices), dict(mfus))


def instance_comparison(scenario: Scenario, deadline, prices: tuple, mfus: tuple):
    """``prices``/``mfus`` are tuples of (instance, value) pairs so that they hash."""
    return inst_svc.comparison(scenario, catalog(), deadline, dict(prices), dict(mfus))


# ---- Plan page
@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def block_plan(scenario: Scenario, trials: int, seed: int, block_days, risk: float):
    return plan_svc.plan(scenario, catalog(), trials, seed, block_days, risk)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def budget(scenario: Scenario, prices: tuple):
    """``prices`` is a tuple of (pricing model, USD/h) pairs so that it hashes."""
    return plan_svc.budget(scenario, catalog(), dict(prices))


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def file_system(scenario: Scenario):
    return plan_svc.file_system(scenario, catalog())


# ---- Run log page.  The parsed timeline is kept in a small LRU of our own, keyed on the
# file's SHA-256 and the renames: the parse draws progress into a bar the page owns, which a
# st.cache_data function cannot do (its drawing is replayed).  A sidebar change then re-fits
# and re-predicts (cached below) without reading the timeline again.
_TIMELINES: OrderedDict[tuple[str, tuple], Timeline] = OrderedDict()
_TIMELINES_MAX = 4
_TIMELINES_LOCK = threading.Lock()


def run_log_timeline(data: bytes, mapping: tuple, progress=None) -> tuple[str, Timeline]:
    """(digest, parsed timeline); ``mapping`` is a tuple of (key, name) pairs."""
    key = (hashlib.sha256(data).hexdigest(), mapping)
    with _TIMELINES_LOCK:
        hit = _TIMELINES.get(key)
        if hit is not None:
            _TIMELINES.move_to_end(key)
            return key[0], hit
    timeline = run_log_svc.parse(data, dict(mapping), progress=progress)
    with _TIMELINES_LOCK:
        _TIMELINES[key] = timeline
        while len(_TIMELINES) > _TIMELINES_MAX:
            _TIMELINES.popitem(last=False)
    return key[0], timeline


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def run_log_view(
    digest: str,
    mapping: tuple,
    scenario: Scenario,
    nodes: int | None,
    trials: int,
    seed: int,
    source: str,
    _timeline: Timeline,
):
    """Keyed on the timeline's digest (``_timeline`` itself is not hashed)."""
    return run_log_svc.run_log_view(_timeline, scenario, nodes, catalog(), trials, seed, source)


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
