"""models/uncertainty.py: the failure-rate and step-time intervals and what integrates over them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import ValidationError, load_preset, resolve_inputs
from goodput_lab.models.decide import simulate_config
from goodput_lab.models.evaluate import evaluate_arrays
from goodput_lab.models.uncertainty import (
    FLEET_PRIOR_FACTOR,
    FLEET_PRIOR_SIGMA,
    STEP_TIME_REL_80,
    Z80,
    failure_rate_interval,
    fitted_rate_interval,
    headline_intervals,
    lognormal_from_interval,
    rate_interval_from_counts,
    step_time_interval,
)


def test_lognormal_through_an_80_interval_hand_computed():
    # median sqrt(1*4) = 2; sigma = ln 4 / (2 * 1.28155) = 0.54087
    m, s = lognormal_from_interval(1.0, 4.0)
    assert m == pytest.approx(2.0)
    assert s == pytest.approx(math.log(4.0) / (2 * 1.2815516), rel=1e-6)
    assert pytest.approx(1.2815516, rel=1e-7) == Z80


def test_fleet_prior_is_the_spread_of_eight_public_fleets_consistency():
    # Llama 3 3.79, RSC-1 6.50, RSC-2 2.34, BLOOM 2.98, OPT 9.22, a B200 cluster 4.51,
    # StepFun 3.83, ByteRobust's dense job 1.31 failures per 1,000 node-days (docs/decide.md)
    x = np.log([3.79, 6.50, 2.34, 2.98, 9.22, 4.51, 3.83, 1.31])
    assert pytest.approx(np.std(x, ddof=1)) == FLEET_PRIOR_SIGMA
    assert pytest.approx(2.160, abs=1e-3) == FLEET_PRIOR_FACTOR
    iv = failure_rate_interval({"reliability.node_failure_rate_per_day": 0.002})
    assert (iv.low, iv.high) == pytest.approx((0.002 / 2.1597, 0.002 * 2.1597), rel=1e-4)
    assert iv.median == pytest.approx(0.002)


def test_garwood_80_interval_from_chi_square_tables():
    # chi2(0.10; 20) = 12.443, chi2(0.90; 22) = 30.813 (standard tables): 10 failures in
    # 1,000 node-days -> [0.00622, 0.01541] per node-day
    lo, hi = rate_interval_from_counts(10, 1000.0)
    assert lo == pytest.approx(12.443 / 2000, rel=1e-4)
    assert hi == pytest.approx(30.813 / 2000, rel=1e-4)
    flo, fhi = fitted_rate_interval(0.01, 10)
    assert (flo, fhi) == pytest.approx((lo, hi), rel=1e-9)
    assert fitted_rate_interval(0.01, 0) is None


def test_fewer_failures_give_a_wider_fitted_interval():
    short = fitted_rate_interval(0.004, 8)  # two days of a 1,000-node cluster
    long = fitted_rate_interval(0.004, 120)  # thirty days of it
    assert short[1] / short[0] > 2.0 * (long[1] / long[0]) > 2.0


def test_interval_ends_on_the_wrong_side_of_the_rate_name_the_field():
    x = {"reliability.node_failure_rate_per_day": 0.002, "reliability.node_failure_rate_low": 0.003}
    with pytest.raises(ValidationError) as e:
        failure_rate_interval(x)
    assert e.value.field == "reliability.node_failure_rate_low"
    y = {
        "reliability.node_failure_rate_per_day": 0.002,
        "reliability.node_failure_rate_high": 0.001,
    }
    with pytest.raises(ValidationError) as e:
        failure_rate_interval(y)
    assert e.value.field == "reliability.node_failure_rate_high"


def test_one_end_alone_is_mirrored_in_log_terms():
    iv = failure_rate_interval(
        {
            "reliability.node_failure_rate_per_day": 0.002,
            "reliability.node_failure_rate_high": 0.008,
        }
    )
    assert iv.low == pytest.approx(0.0005) and iv.median == pytest.approx(0.002)


def test_step_time_interval_reads_the_step_models_interval_when_present():
    assert step_time_interval({"step_seconds": 10.0}).low == pytest.approx(10 * STEP_TIME_REL_80[0])
    iv = step_time_interval(
        {"step_seconds": 10.0, "step_seconds_low": 8.0, "step_seconds_high": 13.0}
    )
    assert (iv.low, iv.high) == (8.0, 13.0)
    assert "step_seconds_low" in iv.source


def test_headline_intervals_bracket_the_point_and_widen_with_the_rate_interval():
    sc = load_preset("llama3-70b")
    x = resolve_inputs(sc)
    m = evaluate_arrays(x)
    h = headline_intervals(x)
    for key in ("goodput", "lost_usd_per_day", "total_cost_to_train_usd"):
        assert h[f"{key}_low"] < float(m[key]) < h[f"{key}_high"], key
    days = float(m["time_to_train_days"])
    assert h["time_to_train_days_p10"] < days < h["time_to_train_days_p90"]
    iv = failure_rate_interval(x).widened(3.0)
    w = headline_intervals(
        {
            **x,
            "reliability.node_failure_rate_low": iv.low,
            "reliability.node_failure_rate_high": iv.high,
        }
    )
    assert w["goodput_high"] - w["goodput_low"] > 2.0 * (h["goodput_high"] - h["goodput_low"])


def test_goodput_interval_is_goodput_at_the_rates_percentiles():
    """Goodput falls with the rate, so its 10th percentile is its value at the rate's 90th
    (hand-evaluated with the chain here).  The 9 × 9 grid used before read the ninth of 81
    points, all at the rate's 94th percentile: aws-16k-h100's goodput_low was 79.85%, for
    82.27% at the rate's 90th percentile (80.56% since the prior spans eight fleets)."""
    x = resolve_inputs(load_preset("aws-16k-h100"))
    base = evaluate_arrays(x)
    iv = failure_rate_interval(x)
    h = headline_intervals(x)
    for rate, key in ((iv.high, "goodput_low"), (iv.low, "goodput_high")):
        y = {
            **x,
            "reliability.node_failure_rate_per_day": rate,
            "checkpoint.interval_minutes": float(base["checkpoint_interval_minutes"]),
            "checkpoint.interval_optimal": False,
        }
        assert h[key] == pytest.approx(float(evaluate_arrays(y)["goodput"]), rel=1e-12), key
    assert h["goodput_low"] == pytest.approx(0.8056, abs=5e-5)


def test_with_the_rate_known_the_time_to_train_interval_is_the_step_models():
    """With the rate known exactly ([r, r]) the only uncertainty left in the time to train
    is the step's, so its p10/p90 are the chain's time_to_train_days_low/high: within
    0.3% (the 401-point step grid's spacing near the 10th and 90th percentiles is about
    0.25%).  The 9 × 9 grid used before gave 135-287 days on llama3-70b for 144-268."""
    sc = load_preset("llama3-70b")
    r = sc["reliability.node_failure_rate_per_day"]
    x = resolve_inputs(
        sc.replace(
            {"reliability.node_failure_rate_low": r, "reliability.node_failure_rate_high": r}
        )
    )
    m = evaluate_arrays(x)
    h = headline_intervals(x)
    assert h["time_to_train_days_p10"] == pytest.approx(
        float(m["time_to_train_days_low"]), rel=3e-3
    )
    assert h["time_to_train_days_p90"] == pytest.approx(
        float(m["time_to_train_days_high"]), rel=3e-3
    )
    assert h["goodput_low"] == pytest.approx(h["goodput_high"])


def test_monte_carlo_mean_time_matches_daly_times_the_mean_step_multiplier():
    """With the rate known exactly ([r, r]) the mean simulated time to finish is Daly's
    expected wall time times E[s] = median·exp(σ²/2) of the step-time lognormal; tolerance
    4 standard errors + 0.3% (the analytic model's finite-run and spare approximations)."""
    sc = load_preset("llama3-8b")
    r = sc["reliability.node_failure_rate_per_day"]
    sc = sc.replace(
        {"reliability.node_failure_rate_low": r, "reliability.node_failure_rate_high": r}
    )
    x = resolve_inputs(sc)
    m = evaluate_arrays(x)
    res = simulate_config(x, 2000, 3, 0)
    t = res["time_to_finish_days"]
    assert np.isfinite(t).all()
    step = float(m["step_seconds"])
    iv = step_time_interval(m)  # the step model's own interval (issue 27)
    rel = (iv.low / step, iv.high / step)
    med, sig = lognormal_from_interval(*rel)
    expected = float(m["time_to_train_days"]) * med * math.exp(sig**2 / 2)
    se = t.std(ddof=1) / math.sqrt(t.size)
    assert abs(t.mean() - expected) <= 4 * se + 0.003 * expected
    # every run drew its own step multiplier: their spread is the interval's
    q10, q90 = np.quantile(res["step_multiplier"], [0.1, 0.9])
    assert (q10, q90) == pytest.approx(rel, rel=0.02)


def test_headline_interval_keys_are_the_ones_headline_intervals_writes():
    """The views read each headline figure's interval keys from HEADLINE_INTERVALS; they
    are exactly the keys headline_intervals writes, in HEADLINE_KEYS' order."""
    from goodput_lab.models.uncertainty import HEADLINE_INTERVALS, HEADLINE_KEYS

    h = headline_intervals(resolve_inputs(load_preset("llama3-70b")))
    assert tuple(HEADLINE_INTERVALS) == HEADLINE_KEYS
    assert [k for pair in HEADLINE_INTERVALS.values() for k in pair] == list(h)


def test_no_failure_seen_keeps_the_stated_upper_bound():
    """A log with no node failure fits the rate 0 with an exact upper bound (goodput fit,
    QA 29 #1: chi2(0.90; 2)/(2E) for its 80% high); the interval keeps it instead of [0, 0],
    so a decision with that log weighs the rates the log cannot rule out."""
    x = {
        "reliability.node_failure_rate_per_day": 0.0,
        "reliability.node_failure_rate_low": 0.0,
        "reliability.node_failure_rate_high": 0.00246706,
    }
    iv = failure_rate_interval(x)
    assert (iv.low, iv.high) == pytest.approx((0.00246706e-3, 0.00246706))
    assert "no failure seen" in iv.source
    # no high end stated: no failure is assumed
    plain = failure_rate_interval({"reliability.node_failure_rate_per_day": 0.0})
    assert (plain.low, plain.high) == (0.0, 0.0)
