"""Monte Carlo risk map: the bad-month goodput over interval x failure rate, run on the
sweep engine (Dask workers) so that the app keeps serving other sessions meanwhile.

``show(scenario, ev)`` draws the controls, starts the job on request, shows its progress
(polled every second by a fragment, without blocking the page) and the finished map.
"""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Evaluation, Scenario, ValidationError

from goodput_lab.charts.sensitivity import clipped_note, heatmap
from goodput_lab.engine import sweep as engine
from goodput_lab.views import sensitivity as svc

GRID_CHOICES = [6, 8, 12, 16]
TRIAL_CHOICES = [200, 500, 1000, 2000, 5000]
DAYS = 30.0
SEED = 0


def _job_key(scenario: Scenario, n: int, trials: int) -> tuple:
    return ("risk", hash(scenario), n, trials, DAYS, SEED)


def _start(scenario: Scenario, n: int, trials: int, key: tuple) -> None:
    inputs, cols, axes = svc.risk_map_points(scenario, cache.catalog(), n)
    spec = engine.SweepSpec(inputs, (), trials, DAYS, SEED)
    try:
        # the simulator's size limits, at the map's worst point, before any work starts
        engine.check_trials(spec, cols)
    except ValidationError as exc:
        st.error(f"Please fix this input — {plain(exc)}")
        return
    futures = engine.submit_points(
        cache.engine_client(), inputs, cols, trials=trials, days=DAYS, seed=SEED
    )
    cache.remember_job(key, {"futures": futures, "axes": axes})


def _finished(job: dict):
    """The rows when every batch is done (kept instead of the futures), else None."""
    if "rows" in job:
        return job["rows"]
    futures = job["futures"]
    if not all(f.done() for f in futures):
        return None
    job["rows"] = engine.gather_points(futures)  # raises a worker's error here
    del job["futures"]
    return job["rows"]


@st.fragment(run_every=1.0)
def _progress(key: tuple) -> None:
    job = cache.engine_jobs().get(key)
    if job is None or "rows" in job:
        return
    futures = job["futures"]
    done = sum(f.done() for f in futures)
    st.progress(
        done / len(futures), text=f"Running on the engine: {done} of {len(futures)} batches"
    )
    if done == len(futures):
        st.rerun(scope="app")


def show(scenario: Scenario, ev: Evaluation, key: str = "risk") -> None:
    st.subheader("Risk map (Monte Carlo)")
    st.caption(svc.risk_map_intro(DAYS))
    c1, c2, c3 = st.columns([1, 1, 1])
    n = c1.select_slider("Grid (points per axis)", GRID_CHOICES, value=8, key=f"{key}:n")
    trials = c2.select_slider(
        "Runs per point", TRIAL_CHOICES, value=500, key=f"{key}:trials", format_func=svc.runs_text
    )
    shown = c3.radio(
        "Colour by", list(svc.RISK_METRICS.values()), key=f"{key}:metric", horizontal=False
    )
    metric = next(k for k, v in svc.RISK_METRICS.items() if v == shown)
    job_key = _job_key(scenario, int(n), int(trials))
    job = cache.engine_jobs().get(job_key)
    if job is None:
        if st.button("Run the risk map", key=f"{key}:run", type="primary"):
            _start(scenario, int(n), int(trials), job_key)
            job = cache.engine_jobs().get(job_key)
        if job is None:
            st.caption(svc.risk_map_pending(int(n), int(trials)))
            return
    try:
        rows = _finished(job)
    except ValidationError as exc:
        cache.engine_jobs().pop(job_key, None)
        st.error(f"Please fix this input — {plain(exc)}")
        return
    if rows is None:
        _progress(job_key)
        return
    now = {
        "checkpoint_interval_minutes": ev["checkpoint_interval_minutes"],
        svc.RATE: scenario[svc.RATE],
        "goodput": ev["goodput"],
    }
    grid = svc.risk_map_grid(rows, job["axes"], metric, now, int(trials))
    st.plotly_chart(heatmap(grid), width="stretch", key=f"{key}:chart")
    note = clipped_note(grid)
    if note:
        st.caption(note)
