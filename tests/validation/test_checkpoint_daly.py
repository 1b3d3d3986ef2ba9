"""Daly (FGCS 22(3), 2006) and Young (CACM 1974) optimum checkpoint intervals vs the exact
minimiser of Daly's expected wall time (docs/references.md#checkpoint-interval)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import checkpoint as ck
from goodput_lab.models import goodput as gp


def _scr_eq37(delta: float, mtbf: float) -> float:
    """Daly eq. 37 as written out independently (also LLNL/scr scr_ckpt_interval.py)."""
    if delta >= 2 * mtbf:
        return mtbf
    f = delta / (2 * mtbf)
    return math.sqrt(2 * delta * mtbf) * (1 + math.sqrt(f) / 3 + f / 9) - delta


@pytest.mark.parametrize(("delta", "mtbf"), [(1.0, 360.0), (5.0, 60.0), (0.1, 1e4), (90.0, 50.0)])
def test_higher_order_is_eq37(delta, mtbf):
    assert ck.daly_higher_order_interval_minutes(delta, mtbf) == pytest.approx(
        _scr_eq37(delta, mtbf), rel=1e-14
    )


def test_higher_order_tracks_the_exact_optimum():
    """Daly's estimate is within 0.04% of the exact (Lambert W) optimum for δ/M ≤ 0.1 and
    within 0.6% for δ/M ≤ 0.5, while Young's first-order τ drifts by more than 5% at 0.1."""
    m = 1000.0
    ratio = np.geomspace(1e-4, 0.5, 200)
    exact = ck.exact_optimal_interval_minutes(ratio * m, m)
    daly = ck.daly_higher_order_interval_minutes(ratio * m, m)
    young = ck.young_interval_minutes(ratio * m, m)
    rel = np.abs(daly - exact) / exact
    assert rel[ratio <= 0.1].max() < 4e-4
    assert rel.max() < 6e-3
    assert abs(young[ratio <= 0.1][-1] / exact[ratio <= 0.1][-1] - 1) > 0.05


def test_exact_optimum_minimises_expected_wall_time():
    """Brute force over τ on Daly's T_w: the Lambert-W optimum is the grid minimum."""
    for delta, lam, r in [(1.0, 4.0, 11.0), (0.02, 3.66, 9.0), (10.0, 20.0, 30.0)]:
        tau = ck.exact_optimal_interval_minutes(delta, 1440.0 / lam)
        grid = np.linspace(tau * 0.5, tau * 1.5, 20001)
        tw = gp.expected_wall_time_ratio(lam, r, grid, delta)
        assert grid[np.argmin(tw)] == pytest.approx(tau, rel=1e-4)
