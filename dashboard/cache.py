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
from goodput_lab.models import Evaluation, Scenario, evaluate, load_catalog
from goodput_lab.models.catalog import Instance
from goodput_lab.models.timeline import Timeline

from goodput_lab.views import compare as cmp_svc
from goodput_lab.views import instances as inst_svc
from goodput_lab.views import network as net_svc
from goodput_lab.views import optimizer as opt_svc
from goodput_lab.views import plan as plan_svc
from goodput_lab.views import resilience as res_svc
from goodput_lab.views import run_log as run_log_svc
from goodput_lab.views import sensitivity as sens_svc


@st.cache_resource(max_entries=4)
def catalog() -> dict[str, Instance]:
    return load_catalog()


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs={Scenario: hash})
def evaluation(scenario: Scenario) -> Evaluation:
    return evaluate(scenario, catalog())


# ---- Overview
@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def goodput_vs_rate(scenario: Scenario):
    from goodput_lab.views import overview as ov_svc

    return ov_svc.goodput_vs_rate(scenario, catalog())


# ---- Checkpoints page (keyed on the scenario and the page's tier table)
@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def checkpoint_analysis(scenario: Scenario, tiers: dict):
    """(evaluation, strategy table, waste curves, their optima, replica survival)."""
    from goodput_lab.models import evaluate as _evaluate

    from goodput_lab.views import checkpoints as ck_svc

    ev = _evaluate(scenario, catalog(), tiers)
    curves, optima = ck_svc.waste_curves(scenario, catalog(), tiers)
    return (
        ev,
        ck_svc.strategy_table(scenario, catalog(), tiers),
        curves,
        optima,
        ck_svc.replica_survival(scenario, catalog(), tiers),
    )


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def memory_answer(scenario: Scenario, tiers: dict, replicas: int):
    from goodput_lab.views import checkpoints as ck_svc

    return ck_svc.memory_vs_scenario(scenario, catalog(), tiers, replicas)


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


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def fabric_value(scenario: Scenario):
    return net_svc.fabric_value(scenario, catalog())


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def instance_ranking(scenario: Scenario, deadline, prices: tuple = (), mfus: tuple = ()):
    """``prices``/``mfus`` are tuples of (instance, value) pairs so that they hash.  The
    Optimizer (no overrides) and the Instances page share entries for the same inputs."""
    return inst_svc.ranking(scenario, catalog(), deadline, dict(prices), dict(mfus))


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def instance_robustness(scenario: Scenario, deadline, prices: tuple = (), mfus: tuple = ()):
    """Break-even price and MFU of the ranking's verdict (same arguments as the ranking)."""
    ranking = instance_ranking(scenario, deadline, prices, mfus)
    return inst_svc.robustness(scenario, catalog(), ranking, dict(prices))


# ---- Plan page
@st.cache_data(max_entries=32, show_spinner=False, hash_funcs={Scenario: hash})
def block_plan(scenario: Scenario, trials: int, seed: int, block_days, risk: float):
    return plan_svc.plan(scenario, catalog(), trials, seed, block_days, risk)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Scenario: hash})
def budget(scenario: Scenario, prices: tuple, plan_args: tuple = ()):
    """``prices`` is a tuple of (pricing model, USD/h) pairs so that it hashes;
    ``plan_args`` (trials, seed, block days, risk) puts that :func:`block_plan`'s block in
    the Capacity Block row (one figure with the plan's tiles)."""
    plan = block_plan(scenario, *plan_args) if plan_args else None
    return plan_svc.budget(scenario, catalog(), dict(prices), plan)


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
    stated_nodes: int | None = None,
):
    """Keyed on the timeline's digest (``_timeline`` itself is not hashed); ``stated_nodes``
    the file's ``# nodes=N`` line."""
    return run_log_svc.run_log_view(
        _timeline, scenario, nodes, catalog(), trials, seed, source, stated_nodes
    )


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


# ---- Decide
@st.cache_data(max_entries=8, show_spinner=False, hash_funcs={Scenario: hash})
def decision(
    scenario: Scenario,
    deadline_days: float,
    confidence: float,
    budget_usd: float | None,
    instances: tuple[str, ...],
    trials: int,
    seed: int,
):
    """The Decide page's answer (``instances`` empty = the whole catalog)."""
    from goodput_lab.views import decide as dec_svc

    return dec_svc.run_decision(
        scenario,
        catalog(),
        deadline_days,
        confidence,
        budget_usd,
        instances or None,
        trials,
        seed,
    )


# ---- the sweep engine (Dask): heavy work runs on worker processes, not in the app
#: ``GOODPUT_DASK_SCHEDULER=tcp://host:8786`` sends the app's heavy work to a running
#: cluster (docs/scaling.md); otherwise a LocalCluster starts on first use, with one worker
#: per core minus one for the app (at least one).
SCHEDULER_ENV = "GOODPUT_DASK_SCHEDULER"


class _Engine:
    """Holds the client (a distributed.Client is awaitable, which st.cache_resource refuses
    to return) and the LocalCluster it runs on, if the app started one."""

    def __init__(self, client, cluster) -> None:
        self.client, self.cluster = client, cluster


@st.cache_resource(show_spinner="Starting the engine's workers…")
def _engine() -> _Engine:
    import os

    from goodput_lab.engine import sweep as engine

    address = os.environ.get(SCHEDULER_ENV) or None
    workers = None if address else max(1, (os.cpu_count() or 2) - 1)
    return _Engine(*engine.start_client(workers, address))


def engine_client():
    """One Dask client per app process, shared by every session."""
    return _engine().client


@st.cache_resource
def engine_jobs() -> dict:
    """Jobs on the engine, shared by every session: ``{key: futures or finished rows}``
    (the same map asked twice runs once).  Bounded by :func:`remember_job`."""
    return {}


MAX_ENGINE_JOBS = 32


def remember_job(key, value) -> None:
    jobs = engine_jobs()
    jobs[key] = value
    while len(jobs) > MAX_ENGINE_JOBS:
        jobs.pop(next(iter(jobs)))
