"""The analytic hot-spare pool against the Monte Carlo simulator, which replays it node by
node: multi-node failures send g nodes to repair and need g free spares, repair times are
lognormal (docs/references.md#hot-spare-pool).

Tolerance: 4 standard errors of the simulated mean + 0.0003, the allowance for the one thing
the analytic pool simplifies on purpose (the number in repair taken as Poisson, where batches
make it more variable).  The test also checks that counting one node per failure, as the
model once did, falls outside it.
"""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import evaluate_arrays, load_preset, resolve_inputs
from goodput_lab.models.montecarlo import simulate_inputs
from scipy import stats

SIGMAS, ALLOWANCE = 4.0, 3e-4


def _inputs(spares: int, **changes) -> dict:
    x = dict(resolve_inputs(load_preset("aws-16k-h100")))
    x.update({"cluster.spare_nodes": float(spares), **changes})
    return x


def test_pool_probability_by_hand():
    """4 failures/day, 8.4% of them taking out 8 nodes, 24 h repairs, 8 spares:
    ν = 4·(1 + 0.084·7) = 6.352 nodes/day into repair, μ = 6.352;
    P = 0.916·P(Poisson(μ) ≥ 8) + 0.084·P(Poisson(μ) ≥ 1) (scipy.stats.poisson)."""
    x = _inputs(8)
    assert x["checkpoint.correlated_fraction"] == 0.084 and x["checkpoint.correlated_nodes"] == 8
    mu = 4.0 * (1.0 + 0.084 * 7.0) * x["reliability.repair_hours"] / 24.0
    expected = 0.916 * stats.poisson.sf(7, mu) + 0.084 * stats.poisson.sf(0, mu)
    got = evaluate_arrays(x)
    assert float(got["probability_no_spare"]) == pytest.approx(expected, rel=1e-12)
    repl = (
        expected * x["recovery.replacement_minutes"]
        + (1 - expected) * x["recovery.hot_spare_swap_minutes"]
    )
    assert float(got["replacement_minutes_expected"]) == pytest.approx(repl, rel=1e-12)
    # a pool smaller than a multi-node failure never covers one: P_g = 1
    small = evaluate_arrays(_inputs(4))
    p4 = 0.916 * stats.poisson.sf(3, mu) + 0.084
    assert float(small["probability_no_spare"]) == pytest.approx(p4, rel=1e-12)


@pytest.mark.parametrize("spares", [8, 16])
def test_analytic_pool_matches_the_simulated_one(spares):
    x = _inputs(spares)
    run = simulate_inputs(x, 3000, 30.0, rng=1)
    g = np.asarray(run.goodput)
    mean, se = g.mean(), g.std(ddof=1) / np.sqrt(g.size)
    tol = SIGMAS * se + ALLOWANCE
    assert abs(float(evaluate_arrays(x)["goodput"]) - mean) <= tol
    if spares == 8:  # one node per failure (no multi-node failures in the pool): too high
        one_each = float(
            evaluate_arrays(_inputs(spares, **{"checkpoint.correlated_fraction": 0.0}))["goodput"]
        )
        assert one_each - mean > tol


def test_short_of_spares_against_scipy():
    """models.reliability.probability_short_of_spares over arrays, against the mixture of
    scipy.stats.poisson tails; with no multi-node failures it is probability_no_spare."""
    from goodput_lab.models import reliability as rel

    lam = np.array([0.5, 4.0, 20.0, 4.0])
    multi = np.array([0.1, 0.336, 2.0, 0.0])
    g = np.array([4.0, 8.0, 16.0, 8.0])
    s = np.array([2.0, 8.0, 40.0, 3.0])
    mu = (lam + multi * (g - 1.0)) * 24.0 / 24.0
    share = multi / lam
    expected = (1 - share) * stats.poisson.sf(s - 1, mu) + share * stats.poisson.sf(s - g, mu)
    got = rel.probability_short_of_spares(lam, multi, g, 24.0, s)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert rel.probability_short_of_spares(4.0, 0.0, 8, 24.0, 3) == rel.probability_no_spare(
        4.0, 24.0, 3
    )
    assert rel.probability_short_of_spares(0.0, 0.0, 8, 24.0, 3) == 0.0  # no failures
