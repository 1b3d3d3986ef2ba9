"""The repair time of failed nodes fitted from a failure log's downtimes
(models.fitting.fit_repair_times): the mean the spare pools need, the median, and the shape
of the simulator's lognormal with that mean and median."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.fitting import (
    REPAIR_KEYS,
    fit_failure_log,
    fit_repair_times,
    scenario_values,
)
from goodput_lab.models.outputs import OUTPUTS
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA_DIR

LOGS = DATA_DIR / "failure_logs"


def test_hand_computed_mean_median_and_shape():
    """30, 60, 90, 120, 240 min: mean 108 min = 1.8 h, median 90 min = 1.5 h, and the
    lognormal with that mean and median has σ = √(2·ln 1.2) = 0.603857."""
    r = fit_repair_times([30.0, 60.0, 90.0, 120.0, 240.0])
    assert r["repairs"] == 5 and r["repairs_zero"] == 0
    assert r["repair_hours_mean"] == pytest.approx(1.8, rel=1e-12)
    assert r["repair_hours_median"] == pytest.approx(1.5, rel=1e-12)
    assert r["repair_sigma"] == pytest.approx(0.6038568651, rel=1e-9)
    assert r["repair_hours_mean_lo"] < 1.8 < r["repair_hours_mean_hi"]
    assert r["repair_sigma_lo"] <= r["repair_sigma"] <= r["repair_sigma_hi"]
    # the lognormal of that shape and median has the log's mean: e^(μ + σ²/2)
    assert 1.5 * math.exp(r["repair_sigma"] ** 2 / 2) == pytest.approx(1.8, rel=1e-12)


def test_equal_downtimes_have_no_spread_and_too_few_are_not_fitted():
    r = fit_repair_times([60.0] * 5)
    assert r["repair_sigma"] == 0.0
    assert r["repair_hours_mean_lo"] == r["repair_hours_mean_hi"] == 1.0
    assert fit_repair_times([60.0, 120.0, 30.0, np.nan, 10.0]) is None  # 4 given
    assert fit_repair_times([]) is None


def test_a_mean_below_the_median_has_no_lognormal_and_sets_no_shape():
    """Skewed left (one quick fix among long repairs): no lognormal has a mean below its
    median, so the shape is NaN in the fit, null in the JSON and left out of the scenario."""
    rows = "\n".join(
        f"2025-01-{d:02d}T{d * d % 24:02d}:00:00Z,n{d},GPU,{m}"
        for d, m in zip(range(1, 7), (600, 600, 600, 600, 600, 6), strict=True)
    )
    log = parse_failure_log("timestamp,node_id,cause,downtime_minutes\n" + rows)
    fit = fit_failure_log(log, 100)
    assert math.isnan(fit.repair["repair_sigma"])
    assert fit.to_json_dict()["repair_sigma"] is None
    values, problems = scenario_values(fit)
    assert values["reliability.repair_hours"] == pytest.approx(501.0 / 60.0, rel=1e-5)
    assert "simulation.repair_sigma" not in values
    assert any(p.startswith("simulation.repair_sigma: not estimable") for p in problems)


def test_the_jobs_own_failures_have_no_repair():
    """Rows marked as the job's own (node id 'job') have no node to repair: their downtime
    is not in the fit."""
    rows = [f"2025-01-{d:02d}T{d * d % 24:02d}:00:00Z,n{d},GPU,60" for d in range(1, 6)]
    rows.append("2025-01-07T03:00:00Z,job,software,6000")
    log = parse_failure_log("timestamp,node_id,cause,downtime_minutes\n" + "\n".join(rows))
    fit = fit_failure_log(log, 100)
    assert fit.repair["repairs"] == 5 and fit.n_downtimes == 5
    assert fit.repair["repair_hours_mean"] == 1.0


def test_a_log_without_downtimes_says_nothing_of_repairs():
    rows = "\n".join(f"2025-01-{d:02d}T{d * d % 24:02d}:00:00Z,n{d}" for d in range(1, 7))
    fit = fit_failure_log(parse_failure_log("timestamp,node_id\n" + rows), 100)
    assert fit.repair is None and fit.n_downtimes == 0
    values, problems = scenario_values(fit)
    assert not any("repair" in k for k in values) and not any("repair" in p for p in problems)
    assert all(fit.to_json_dict()[k] is None for k in REPAIR_KEYS)


def test_synthetic_sample_recovers_its_planted_repair_distribution():
    """scripts/make_sample_log.py planted lognormal downtimes of median 90 min and log-sd 1.0
    (the log's header): the fit's 95% intervals hold the planted shape and the planted mean
    90·e^(1/2) min = 2.473 h, and the median is within 10% of 1.5 h."""
    fit = fit_failure_log(parse_failure_log((LOGS / "synthetic-sample.csv").read_bytes()), 1024)
    r = fit.repair
    assert r["repairs"] == 797
    assert r["repair_sigma_lo"] < 1.0 < r["repair_sigma_hi"]
    assert r["repair_hours_mean_lo"] < 1.5 * math.exp(0.5) < r["repair_hours_mean_hi"]
    assert r["repair_hours_median"] == pytest.approx(1.5, rel=0.1)


def test_stepfun_trace_repairs_consistency():
    """StepFun's published fault trace (data/failure_logs/stepfun-infinitehbd-2024.csv, 584
    faults of 400 servers): a consistency test of the converted file, whose downtimes are
    the trace's fault_end − fault_start: median 20.39 h, mean 132.84 h, 14 of 0 minutes;
    the preset default of 24 h is inside neither the mean's interval nor near the mean."""
    fit = fit_failure_log(
        parse_failure_log((LOGS / "stepfun-infinitehbd-2024.csv").read_bytes()), 400
    )
    r = fit.repair
    assert (r["repairs"], r["repairs_zero"]) == (584, 14)
    assert r["repair_hours_median"] == pytest.approx(20.389, abs=0.001)
    assert r["repair_hours_mean"] == pytest.approx(132.840, abs=0.001)
    assert r["repair_sigma"] == pytest.approx(math.sqrt(2 * math.log(132.840 / 20.389)), abs=1e-4)
    assert 100.0 < r["repair_hours_mean_lo"] < 132.84 < r["repair_hours_mean_hi"] < 170.0
    values, _ = scenario_values(fit)
    assert values["reliability.repair_hours"] == 132.84
    assert values["simulation.repair_sigma"] == 1.93605


def test_lognormal_draws_give_back_their_shape():
    """Monte Carlo: 20,000 lognormal repairs of σ = 1.5 (median 10 h). The estimator's
    standard deviation at this size is about 0.014 (the bootstrap's half-width / 1.96), so
    0.06 is more than 4 of them; the 95% interval holds the true σ."""
    rng = np.random.default_rng(7)
    d = rng.lognormal(math.log(600.0), 1.5, 20_000)
    r = fit_repair_times(d)
    assert r["repair_sigma"] == pytest.approx(1.5, abs=0.06)
    assert (r["repair_sigma_hi"] - r["repair_sigma_lo"]) / (2 * 1.96) < 0.02
    assert r["repair_sigma_lo"] < 1.5 < r["repair_sigma_hi"]
    assert r["repair_hours_mean"] == pytest.approx(10.0 * math.exp(1.5**2 / 2), rel=0.05)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(1.0, 1e5), min_size=5, max_size=60),
    st.floats(0.01, 100.0),
)
def test_scaling_the_downtimes_scales_the_times_and_keeps_the_shape(minutes, c):
    """A change of unit (c × every downtime) multiplies every time by c and leaves the
    shape as it is: the bootstrap's fixed seed draws the same resamples."""
    a, b = fit_repair_times(minutes), fit_repair_times([c * m for m in minutes])
    for k in ("repair_hours_mean", "repair_hours_median", "repair_hours_mean_lo"):
        assert b[k] == pytest.approx(c * a[k], rel=1e-9)
    if math.isnan(a["repair_sigma"]):
        assert math.isnan(b["repair_sigma"])
    else:
        assert b["repair_sigma"] == pytest.approx(a["repair_sigma"], rel=1e-6, abs=1e-9)


def test_the_same_log_gives_the_same_interval_and_every_key_is_registered():
    d = np.random.default_rng(3).lognormal(4.0, 1.0, 300)
    assert fit_repair_times(d) == fit_repair_times(d)
    assert tuple(fit_repair_times(d)) == REPAIR_KEYS
    for k in REPAIR_KEYS:
        assert OUTPUTS[k].computed_by == "models.fitting.fit_repair_times"
