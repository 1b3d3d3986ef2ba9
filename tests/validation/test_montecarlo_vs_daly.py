"""Monte Carlo vs Daly's closed form (docs/references.md#expected-wall-time-and-goodput): mean wall time and optimal interval.

With exponential failures, fixed recovery times, no spares and a single checkpoint tier the
simulator's process is exactly the one Daly's expected wall time describes (a failure during
a segment or during the recovery restarts it), so the simulated mean wall time to finish T_s
of work must equal T_w = T_s · e^{λR}·expm1(λ(τ+δ))/(λτ) up to Monte Carlo noise.

Tolerance: 4 standard errors of the simulated mean (two-sided p ≈ 6e-5 for a correct model)
at a fixed seed.  Each test also checks that this tolerance is tight enough to matter.
"""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import Scenario, evaluate, resolve_inputs
from goodput_lab.models import goodput as gp
from goodput_lab.models.montecarlo import simulate_inputs

SIGMAS = 4.0
FIXED = {"simulation.recovery_spread": 0.0, "cluster.spare_nodes": 0}


def _inputs(updates):
    scenario = Scenario.default().replace({**FIXED, **updates})
    return scenario, resolve_inputs(scenario)


@pytest.mark.parametrize(
    ("rate", "tau", "save_s", "work_days"),
    [
        (0.002, 40.0, 60.0, 10.0),  # the headline baseline: 4 failures/day, R = 11 min
        (0.01, 20.0, 120.0, 5.0),  # 20 failures/day: far from first order (λτ ≈ 0.3)
    ],
)
def test_mean_wall_time_matches_daly(rate, tau, save_s, work_days):
    scenario, inputs = _inputs(
        {
            "reliability.node_failure_rate_per_day": rate,
            "checkpoint.interval_minutes": tau,
            "checkpoint.save_seconds": save_s,
        }
    )
    res = simulate_inputs(inputs, 400, work_days, rng=20261202, record_timeline=False)
    ev = evaluate(scenario)
    lam = ev["failures_per_day"]
    r_min = ev["recovery_minutes_per_failure"]
    assert r_min == pytest.approx(11.0)  # 3 detect + 4 replace + 2 restart + 2 restore
    assert (work_days * 1440) % tau == 0  # whole segments, so T_w is exact
    daly_days = work_days * gp.expected_wall_time_ratio(lam, r_min, tau, save_s / 60.0)
    t = res.time_to_finish_days
    assert res.unfinished == 0
    se = t.std(ddof=1) / np.sqrt(t.size)
    assert abs(t.mean() - daly_days) <= SIGMAS * se
    # the tolerance must be far tighter than the whole loss, or the test could not fail
    loss_days = daly_days - work_days * (tau + save_s / 60) / tau
    assert SIGMAS * se < 0.05 * loss_days
    if rate >= 0.01:
        # here it also tells Daly's process from one where failures during the recovery are
        # ignored: E = (1/λ + R)·expm1(λ(τ+δ))·T_s/τ instead of e^{λR}/λ·expm1(λ(τ+δ))·T_s/τ
        lam_min = lam / 1440.0
        no_restart = daly_days * (1.0 / lam_min + r_min) * lam_min / np.exp(lam_min * r_min)
        assert abs(no_restart - daly_days) > SIGMAS * se
    # efficiency T_s / E[T_w] is `goodput evaluate`'s number (delta method for its error)
    eff = work_days / t.mean()
    assert abs(eff - ev["goodput"]) <= SIGMAS * eff * se / t.mean()


def test_horizon_goodput_matches_evaluate():
    """Goodput over a 30-day window (work in progress counted) vs the long-run analytic one.

    The window starts right after a restart, as every renewal cycle does, so the bias is of
    order δ/H; 4 standard errors at 2,000 trials is ±0.0008 (docs/references.md#expected-wall-time-and-goodput model).
    """
    scenario, inputs = _inputs({})
    res = simulate_inputs(inputs, 2000, 30.0, rng=5, record_timeline=False)
    assert res.goodput_stderr < 0.0003
    assert abs(res.goodput_mean - evaluate(scenario)["goodput"]) <= SIGMAS * res.goodput_stderr


def test_best_simulated_interval_matches_exact_optimum():
    """argmax of simulated efficiency over τ agrees with M·[1 + W₀(−e^{−(1+δ/M)})].

    δ = 5 min, M = 6 h: τ* = 56.71 min.  The efficiency curve is flat at its top, so the
    simulated optimum is the vertex of a quadratic fit (in log τ) to the simulated
    efficiencies on a grid of 0.5-2 τ*, with common random numbers (one seed).  Stated
    tolerance: within 10% of τ*; the curve drops by ~3 goodput points at 0.5 τ* and 2 τ*,
    far more than the ±0.1 point noise per grid point, so a wrong optimum would show.
    """
    _, inputs = _inputs({"checkpoint.save_seconds": 300.0})
    mtbf_min = 1440.0 / 4.0
    tau_star = gp.exact_optimal_interval_minutes(5.0, mtbf_min)
    assert tau_star == pytest.approx(56.714, abs=1e-3)
    taus = tau_star * np.array([0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.12, 1.25, 1.4, 1.6, 1.8, 2.0])
    eff = []
    for tau in taus:
        res = simulate_inputs(
            {**inputs, "checkpoint.interval_minutes": tau},
            300,
            10.0,
            rng=7,
            record_timeline=False,
        )
        eff.append(res.work_days / res.time_to_finish_days.mean())
    eff = np.array(eff)
    c2, c1, _ = np.polyfit(np.log(taus), eff, 2)
    assert c2 < 0
    tau_sim = float(np.exp(-c1 / (2 * c2)))
    assert tau_sim == pytest.approx(tau_star, rel=0.10)
    assert eff.max() - min(eff[0], eff[-1]) > 0.02
