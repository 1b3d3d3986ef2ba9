"""Issue 18: every simulation's work is bounded before it starts and while it runs.

Regression tests named after the defects found: the interrupted-recovery loop that never
ended (``recovery.replacement_minutes=10080``), sizes the old check accepted (Weibull
renewals at long horizons, tiny ``days``), and a property over random valid scenarios that
each either finishes or is refused within its stated budget.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest
from goodput_lab.models import FIELDS, Scenario, ValidationError, load_preset, resolve_inputs
from goodput_lab.models import montecarlo as mc
from goodput_lab.models.budget import Budget, BudgetExceeded, Cancelled
from goodput_lab.models.montecarlo import (
    MIN_DAYS,
    check_size,
    estimate_work,
    params_from_inputs,
    simulate_inputs,
    simulate_params,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _params(updates=None, preset="aws-16k-h100"):
    return params_from_inputs(resolve_inputs(load_preset(preset).replace(updates or {})))


def test_issue18_interrupted_recovery_with_a_week_long_replacement_ends():
    """4 failures/day and a 7-day replacement: a recovery almost never completes (e^-28).

    It used to restart forever; now a recovery still interrupted past the wall-time cap
    (4 x the work) leaves its run unfinished, after ~16 failures per run.
    """
    p = _params({"recovery.replacement_minutes": 10080})
    res = simulate_params(p, 5, 1.0, rng=0, budget=Budget(max_seconds=10.0))
    assert res.unfinished == 5
    assert np.all(np.isnan(res.time_to_finish_days))
    assert res.failures.sum() < 200  # about 4/day x 4.1 days x 5 runs
    assert res.events_simulated < 400
    assert np.all((res.goodput >= 0) & (res.goodput <= 1))


def test_issue18_recovery_loop_checks_the_budget():
    """One run, 2,000 failures/day and a week-long replacement: the whole run is one
    recovery chain of ~8,000 restarts inside one call of the recovery loop, so only a check
    inside that loop can see the cancel request (the event loop checks once or twice)."""
    p = _params({"recovery.replacement_minutes": 10080, "reliability.node_failure_rate_per_day": 1})
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) >= 5

    with pytest.raises(Cancelled):
        simulate_params(p, 1, 1.0, rng=0, budget=Budget(cancel=cancel))
    assert len(calls) == 5


def test_issue18_a_run_past_its_time_budget_stops_with_the_nearest_size(monkeypatch):
    """A fake clock that advances 20 ms per check: the run needs ~1,230 checks (~25 s), so
    it stops after ~500 checks at its 10 s budget, about 40% through, with a ValidationError
    naming trials and a smaller allowed number (0.8 x 400 x 10/25 ≈ 130).  (Random streams
    in blocks of 100 runs, as the chunks of 100 this was measured with.)"""
    monkeypatch.setattr(mc, "STREAM_TRIALS", 100)
    ticks = itertools.count()
    budget = Budget(max_seconds=10.0, clock=lambda: 0.02 * next(ticks))
    with pytest.raises(BudgetExceeded) as exc:
        simulate_params(_params(), 400, 30.0, rng=1, chunk_trials=100, budget=budget)
    assert exc.value.field == "trials"
    msg = str(exc.value)
    assert "400 trials x 30 days stopped at its time budget of 10 s after" in msg
    most = int(msg.split("allowed: about trials <= ")[1].rstrip(")").replace(",", ""))
    assert 80 <= most <= 200


def test_issue18_weibull_renewals_at_long_horizons_are_refused_before_running():
    """1 trial x 3,650 days x 200,000 nodes, Weibull shape 0.3 (accepted before: 226 s, 1.26 GB)."""
    p = _params({"cluster.nodes": 200_000, "reliability.weibull_shape": 0.3})
    start = time.perf_counter()
    with pytest.raises(ValidationError) as exc:
        simulate_params(p, 1, 3650.0, rng=0)
    assert time.perf_counter() - start < 1.0  # refused from the prediction, nothing ran
    assert exc.value.field == "days"
    msg = exc.value.message
    assert "(limit 300 s)" in msg
    assert "400 failures/day (cluster.nodes x reliability.node_failure_rate_per_day)" in msg
    assert "per-node Weibull renewals (reliability.weibull_shape)" in msg
    most = float(msg.rsplit("allowed: days <= ", 1)[1].rstrip(")"))
    # the nearest allowed value: it fits, and 5% more does not
    assert check_size(1, most, p) is not None
    with pytest.raises(ValidationError):
        check_size(1, most * 1.05, p)


@pytest.mark.parametrize("days", [1e-300, 1e-9, 0.04])
def test_issue18_tiny_days_are_refused_not_reported_as_full_goodput(days):
    with pytest.raises(ValidationError) as exc:
        simulate_params(_params(), 5, days, rng=0)
    assert exc.value.field == "days"
    assert "goodput would read close to 100%" in exc.value.message
    assert "[0.04167, 3,650] (one hour to ten years)" in exc.value.message


def test_issue18_window_shorter_than_one_checkpoint_segment_is_refused():
    """interval 600 min + 60 s save = 601 min: a 0.25-day window (360 min) holds no save."""
    p = _params({"checkpoint.interval_minutes": 600.0})
    with pytest.raises(ValidationError) as exc:
        check_size(10, 0.25, p)
    assert exc.value.field == "days"
    assert "(allowed: days >= 0.4174)" in exc.value.message
    assert check_size(10, 0.42, p) is not None


def test_refusal_names_trials_when_fewer_trials_fit():
    """2,000 runs x 365 days of the headline preset: ~16 s predicted vs a 10 s budget."""
    p = _params()
    with pytest.raises(ValidationError) as exc:
        check_size(2000, 365.0, p, max_seconds=10.0, chunk_trials=500)
    assert exc.value.field == "trials"
    most = int(exc.value.message.split("allowed: trials <= ")[1].split(" ")[0].replace(",", ""))
    assert check_size(most, 365.0, p, max_seconds=10.0, chunk_trials=500) is not None
    with pytest.raises(ValidationError):
        check_size(most + 1, 365.0, p, max_seconds=10.0, chunk_trials=500)


def test_estimate_follows_the_simulated_event_count():
    """Events per run ≈ λT(1 + e^{−λR}) + 2sT: within 15% of the simulated count."""
    for updates in (
        {},
        {"reliability.node_failure_rate_per_day": 0.05},  # 100/day, R = 11 min: q = 0.53
        {"network.fabric_events_per_day": 50.0},
        {"recovery.replacement_minutes": 600.0},  # goodput ~0: runs go to the cap
    ):
        p = _params(updates)
        est = estimate_work(p, 200, 10.0)
        res = simulate_params(p, 200, 10.0, rng=3, record_timeline=False)
        assert res.events_simulated == pytest.approx(est.events, rel=0.15), updates


def test_spare_repairs_drawn_in_one_call_keep_the_seeded_results(monkeypatch):
    """The per-node repair loop became one vectorised draw in the same order: results of a
    seeded run with spares and correlated failures are those of the loop (values recorded
    from the loop version: 300 runs x 10 days, seed 7, chunks of 128, which were the random
    stream blocks then: STREAM_TRIALS = 128 here); the first run's goodput recorded again
    when repairs came to run side by side, 0.8857852607255704 -> 0.8857463721710207 (the
    draws, failures and events are the same)."""
    monkeypatch.setattr(mc, "STREAM_TRIALS", 128)
    updates = {
        "cluster.spare_nodes": 3,
        "checkpoint.correlated_fraction": 0.5,
        "checkpoint.correlated_nodes": 4,
    }
    res = simulate_inputs(
        resolve_inputs(load_preset("aws-16k-h100").replace(updates)),
        300,
        10.0,
        rng=7,
        chunk_trials=128,
    )
    assert res.goodput[:3].tolist() == [0.8857463721710207, 0.8961848124446236, 0.8726850356852687]
    assert int(res.failures.sum()) == 13468
    assert res.events_simulated == 26843


def test_budget_rejects_non_positive_limits():
    with pytest.raises(ValidationError):
        Budget(max_seconds=0)
    with pytest.raises(ValidationError):
        Budget(max_events=-1)


# --------------------------------------------------------------------------- property
_CATALOG_NAMES = None


def _numeric(f):
    """Uniform or log-uniform draws over a field's whole allowed range."""
    lo, hi = float(f.min), float(f.max)
    uniform = st.floats(lo, hi, allow_nan=False)
    if lo > 0:
        log = st.floats(math.log(lo), math.log(hi)).map(math.exp)
    else:
        log = st.floats(math.log(1e-4), math.log(max(hi, 2e-4))).map(math.exp)
    # A field whose default is None ("not set": the model derives it) is drawn from its range.
    options = (uniform, log) if f.default is None else (uniform, log, st.just(f.default))
    value = st.one_of(*options).map(lambda x: min(max(x, lo), hi))
    return value.map(round) if f.kind == "int" else value


SIM_FIELDS = [
    k
    for k, f in FIELDS.items()
    if f.kind in ("int", "float") and f.min is not None and f.max is not None
    if k.split(".")[0] in ("cluster", "reliability", "recovery", "checkpoint", "network")
    or k.startswith("simulation.")
]
CHOICES = [k for k, f in FIELDS.items() if f.kind == "choice"]


@st.composite
def scenarios(draw):
    updates = {}
    for key in draw(st.lists(st.sampled_from(SIM_FIELDS), max_size=8, unique=True)):
        updates[key] = draw(_numeric(FIELDS[key]))
    for key in draw(st.lists(st.sampled_from(CHOICES), max_size=3, unique=True)):
        updates[key] = draw(st.sampled_from(FIELDS[key].choices))
    return Scenario.default().replace(updates)


BUDGET_SECONDS = 0.5


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    scenario=scenarios(),
    trials=st.integers(1, 50),
    days=st.floats(MIN_DAYS, 60.0),
)
def test_random_valid_scenarios_finish_or_refuse_within_their_budget(
    catalog, scenario, trials, days
):
    """Property (issue 18 acceptance): with a 0.5 s budget every random valid scenario is
    refused from the prediction, stopped at the budget, or finishes; never later than the
    budget plus one loop pass and the result's assembly (0.5 s allowed for both)."""
    try:
        inputs = resolve_inputs(scenario, catalog)
    except ValidationError:
        return
    p = params_from_inputs(inputs)
    start = time.monotonic()
    try:
        res = simulate_params(
            p, trials, days, rng=0, record_timeline=False, budget=Budget(BUDGET_SECONDS)
        )
    except ValidationError as exc:
        assert exc.field in ("trials", "days"), exc
        assert "allowed" in exc.message or "lower" in exc.message
    else:
        assert res.goodput.shape == (trials,)
        assert np.all((res.goodput >= 0) & (res.goodput <= 1 + 1e-12))
    assert time.monotonic() - start < BUDGET_SECONDS + 0.5
