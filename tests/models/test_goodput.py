"""Reference values and properties of models.goodput and models.reliability."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import goodput as gp
from goodput_lab.models import reliability as rel
from hypothesis import given, settings
from hypothesis import strategies as st


def test_cluster_failures_and_mtbf_hand_computed():
    # 2,000 nodes at 0.1% per node-day = 2 failures/day = MTBF 12 h (docs/references.md#headline-claim)
    assert rel.cluster_failures_per_day(2000, 0.001) == pytest.approx(2.0)
    assert rel.mtbf_hours(2.0) == pytest.approx(12.0)
    assert math.isinf(rel.mtbf_hours(0.0))


def test_llama3_failure_rate_from_published_counts():
    # 419 unexpected interruptions, 2,048 nodes, 54 days (arXiv:2407.21783)
    rate = 419 / (2048 * 54)
    lam = rel.cluster_failures_per_day(2048, rate)
    assert lam == pytest.approx(7.759, abs=1e-3)
    assert rel.mtbf_hours(lam) == pytest.approx(3.093, abs=1e-3)
    assert rate * 100 == pytest.approx(0.379, abs=1e-3)


def test_probability_no_spare_is_poisson_tail():
    # mean in repair = 4/day × 1 day = 4; P(N >= 4) = 1 - sum_{k<4} e^-4 4^k/k!
    expected = 1 - math.exp(-4) * (1 + 4 + 8 + 64 / 6)
    assert rel.probability_no_spare(4.0, 24.0, 4) == pytest.approx(expected, rel=1e-12)
    assert rel.probability_no_spare(4.0, 24.0, 0) == 1.0
    assert rel.probability_no_spare(0.0, 24.0, 1) == pytest.approx(0.0)


def test_first_order_waste_hand_computed():
    # 2 failures/day × (10 + 40/2) min / 1440 min + 1/40 save overhead
    w = gp.waste_first_order(2.0, 10.0, 40.0, 1.0)
    assert w == pytest.approx(60 / 1440 + 1 / 40)
    assert gp.lost_minutes_per_failure(10.0, 40.0) == 30.0


def test_daly_expected_wall_time_hand_computed():
    # M = 720 min, R = 10, tau = 40, delta = 0: T_w/T_s = M e^{R/M} (e^{tau/M} - 1) / tau
    m = 720.0
    expected = m * math.exp(10 / m) * (math.exp(40 / m) - 1) / 40
    assert gp.expected_wall_time_ratio(2.0, 10.0, 40.0, 0.0) == pytest.approx(expected, rel=1e-12)
    assert gp.goodput_exact(2.0, 10.0, 40.0, 0.0) == pytest.approx(1 / expected, rel=1e-12)


def test_no_failures_goodput_is_save_overhead_only():
    assert gp.goodput_exact(0.0, 10.0, 40.0, 2.0) == pytest.approx(40 / 42)
    assert gp.goodput_first_order(0.0, 10.0, 40.0, 2.0) == pytest.approx(1 - 2 / 40)


def test_young_and_exact_optimum_reference_values():
    # Young: sqrt(2 · 1 · 720) = 37.947 min
    assert gp.young_interval_minutes(1.0, 720.0) == pytest.approx(math.sqrt(1440))
    tau = gp.exact_optimal_interval_minutes(1.0, 720.0)
    # the exact optimum satisfies e^{(tau+delta)/M} (1 - tau/M) = 1
    assert math.exp((tau + 1) / 720) * (1 - tau / 720) == pytest.approx(1.0, abs=1e-12)
    # and brute force over a fine grid agrees
    grid = np.linspace(5, 200, 200_001)
    best = grid[np.argmin(gp.expected_wall_time_ratio(2.0, 10.0, grid, 1.0))]
    assert tau == pytest.approx(best, abs=1e-3)


def test_scalar_list_and_array_inputs_keep_their_shape():
    assert isinstance(gp.goodput_exact(2.0, 10.0, 40.0, 1.0), float)
    arr = gp.goodput_exact(np.array([1.0, 2.0, 4.0]), 10.0, 40.0, 1.0)
    assert isinstance(arr, np.ndarray)
    assert arr.shape == (3,)
    grid = gp.goodput_exact(np.array([[1.0], [2.0]]), 10.0, np.array([20.0, 40.0, 60.0]), 1.0)
    assert grid.shape == (2, 3)
    assert grid[1, 1] == pytest.approx(gp.goodput_exact(2.0, 10.0, 40.0, 1.0))
    lst = rel.cluster_failures_per_day([1000, 2000], 0.001)
    np.testing.assert_allclose(lst, [1.0, 2.0])


rates = st.floats(0.0, 200.0, allow_nan=False)
minutes = st.floats(0.0, 600.0, allow_nan=False)
intervals = st.floats(0.5, 1000.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(lam=rates, r=minutes, tau=intervals, d=st.floats(0.0, 60.0))
def test_goodput_is_a_fraction(lam, r, tau, d):
    g = gp.goodput_exact(lam, r, tau, d)
    g1 = gp.goodput_first_order(lam, r, tau, d)
    assert 0.0 <= g <= 1.0
    assert 0.0 <= g1 <= 1.0


@settings(max_examples=200, deadline=None)
@given(lam=rates, extra=st.floats(0.0, 50.0), r=minutes, tau=intervals, d=st.floats(0.0, 60.0))
def test_goodput_non_increasing_in_failure_rate(lam, extra, r, tau, d):
    assert gp.goodput_exact(lam + extra, r, tau, d) <= gp.goodput_exact(lam, r, tau, d) + 1e-12


@settings(max_examples=200, deadline=None)
@given(lam=rates, r=minutes, extra=st.floats(0.0, 300.0), tau=intervals, d=st.floats(0.0, 60.0))
def test_goodput_non_increasing_in_recovery_time(lam, r, extra, tau, d):
    assert gp.goodput_exact(lam, r + extra, tau, d) <= gp.goodput_exact(lam, r, tau, d) + 1e-12


@settings(max_examples=300, deadline=None)
@given(
    lam=st.floats(0.0, 2.0),
    r=st.floats(0.0, 15.0),
    tau=st.floats(1.0, 30.0),
    d=st.floats(0.0, 0.3),
)
def test_first_order_and_exact_agree_when_losses_are_small(lam, r, tau, d):
    # total first-order waste <= ~3%: the two must agree within 1% (relative)
    w = gp.waste_first_order(lam, r, tau, d)
    if w <= 0.03:
        g = gp.goodput_exact(lam, r, tau, d)
        g1 = gp.goodput_first_order(lam, r, tau, d)
        assert abs(g - g1) / g < 0.01


# the factors goodput_step multiplies, each with an input that turns it on and the words
# of the registry's formula that name it (issue 26: the text named two of the six; the
# fail-slow share was the seventh, found by tests/models/test_formula_text.py)
GOODPUT_FACTORS = {
    "Daly per failure class": ({"reliability.node_failure_rate_per_day": 0.004}, "T_s/T_w"),
    "peer recovery": ({"resilience.peer_recovery_fraction": 0.5}, "e^{−λ_P·R_P/1440}"),
    "silent corruption": ({"reliability.sdc_fraction": 0.05}, "(1 + λ_S·Δ/1440)"),
    "Spot notice": (
        {"pricing.model": "spot", "pricing.spot_interruptions_per_node_day": 0.001},
        "1/(1 + λ_spot·R_spot/1440)",
    ),
    "fabric stall": ({"network.fabric_events_per_day": 20.0}, "s = fabric stall"),
    "fail-slow": ({"reliability.fail_slow_rate_per_day": 0.001}, "f = fail-slow"),
    "throughput": (
        {"resilience.straggler_slowdown": 0.02, "resilience.overhead_fraction": 0.01},
        "(1 − σ)(1 − o)",
    ),
}


@pytest.mark.parametrize("factor", list(GOODPUT_FACTORS))
def test_goodput_formula_text_names_every_factor_the_code_applies(factor):
    """Consistency of the registry's text with models.chain.goodput_step (its computed_by):
    each factor moves the figure, and the formula names it.  A factor added to the code
    without its words here, or words left in the text for a factor the code dropped, fail."""
    from goodput_lab.models import Scenario, evaluate
    from goodput_lab.models.outputs import OUTPUTS

    o = OUTPUTS["goodput"]
    assert o.computed_by == "models.chain.goodput_step"
    updates, words = GOODPUT_FACTORS[factor]
    assert words in o.formula, factor
    base = Scenario.default().replace({"pricing.usd_per_instance_hour": 50.0})
    on = base.replace(updates)
    # (peer recovery replaces a checkpoint restore and its rework: it raises goodput)
    assert abs(evaluate(on)["goodput"] - evaluate(base)["goodput"]) > 1e-6, factor
