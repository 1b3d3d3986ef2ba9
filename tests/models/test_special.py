"""models/special.py: the real Lambert W₀ and the Poisson tail against scipy and a 50-digit
reference, over the whole domain (branch point, interior, next to 0)."""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from goodput_lab.models.goodput import exact_optimal_interval_minutes
from goodput_lab.models.special import (
    LAMBERTW0_ACCURACY,
    lambertw0,
    lambertw0_exp,
    poisson_sf,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import lambertw, pdtrc
from scipy.stats import poisson

INV_E = 1.0 / math.e


def _z_grid() -> np.ndarray:
    """The domain [−1/e, 0]: uniform, log-spaced towards the branch point and towards 0."""
    z = np.concatenate(
        [
            np.linspace(-INV_E, 0.0, 20_001),
            -INV_E + np.logspace(-16, -0.5, 400),
            -np.logspace(-320, -0.44, 400),
            [-INV_E, -0.25, -0.0, 0.0, -5e-324],
        ]
    )
    return z[(z >= -INV_E) & (z <= 0)]


def _reference_w(z: Decimal, t: Decimal) -> Decimal:
    """W₀(z) to ~50 digits by Halley's iteration in decimal arithmetic; t = 1 + e·z."""
    with localcontext() as ctx:
        ctx.prec = 60
        if z == 0:
            return Decimal(0)
        p = (2 * t).sqrt()
        w = Decimal(-1) + p - p * p / 3 + Decimal(11) / 72 * p**3 if p < 1 else z - z * z
        for _ in range(200):
            w1 = w + 1
            if w1 == 0:
                break
            ew = w.exp()
            f = w * ew - z
            step = f / (ew * w1 - (w + 2) * f / (2 * w1))
            w -= step
            if abs(step) <= abs(w) * Decimal("1e-45"):
                break
        return w


def _rel(a: float, ref: Decimal) -> float:
    if ref == 0:
        return abs(a)
    return abs(float((Decimal(a) - ref) / ref))


def test_lambertw0_matches_scipy_to_the_stated_accuracy():
    """Relative difference ≤ 1e-14 wherever scipy is itself accurate; next to the branch
    point both are limited by the rounding of z (W moves by ~δ/p for a change δ of
    1 + e·z), so the allowance there is that conditioning bound plus 1e-14."""
    z = _z_grid()
    ours = lambertw0(z)
    ref = lambertw(z).real
    p = np.sqrt(2.0 * np.clip(1.0 + math.e * z, 0.0, None))
    ok = ~np.isnan(ref)  # scipy gives NaN exactly at the double nearest −1/e
    allow = LAMBERTW0_ACCURACY * np.abs(ref) + np.where(p > 0, 4e-16 / np.maximum(p, 1e-300), 0)
    assert np.all(np.abs(ours[ok] - ref[ok]) <= allow[ok])
    interior = ok & (p > 0.01)
    rel = np.abs(ours[interior] - ref[interior]) / np.maximum(np.abs(ref[interior]), 1e-300)
    assert rel.max() <= LAMBERTW0_ACCURACY
    assert np.isnan(ref).sum() <= 2 and np.all(np.isfinite(ours))


def test_lambertw0_matches_a_50_digit_reference_everywhere():
    z = np.concatenate(
        [
            -INV_E + np.logspace(-16, -0.5, 60),
            np.linspace(-0.36, -1e-3, 60),
            -np.logspace(-300, -3, 30),
        ]
    )
    with localcontext() as ctx:
        ctx.prec = 60
        e = Decimal(1).exp()
        worst = 0.0
        for zi in z:
            zd = Decimal(float(zi))
            t = 1 + e * zd
            if t < 0:
                continue
            worst = max(worst, _rel(float(lambertw0(float(zi))), _reference_w(zd, t)))
    assert worst <= LAMBERTW0_ACCURACY


def test_lambertw0_exp_keeps_full_accuracy_at_the_branch_point():
    """q = 0 is the branch point itself; z = −e^{−(1+q)} is never formed in double."""
    qs = np.concatenate([np.logspace(-300, 2.5, 120), [1e-17, 1e-9, 1.0 / 720.0]])
    w = lambertw0_exp(qs)
    with localcontext() as ctx:
        ctx.prec = 60
        worst = 0.0
        for q, wi in zip(qs, w, strict=True):
            qd = Decimal(float(q))
            z = -((-(1 + qd)).exp())
            t = 1 - (-qd).exp()
            worst = max(worst, _rel(float(wi), _reference_w(z, t)))
    assert worst <= LAMBERTW0_ACCURACY
    # and it agrees with scipy wherever scipy's z is well conditioned
    far = qs > 1e-4
    with np.errstate(under="ignore"):
        sc = lambertw(-np.exp(-(1.0 + qs[far]))).real
    assert np.allclose(w[far], sc, rtol=LAMBERTW0_ACCURACY, atol=0)


def test_lambertw0_edges_and_types():
    assert lambertw0(-INV_E) == -1.0
    assert lambertw0(0.0) == 0.0
    assert math.isnan(lambertw0(-0.4))  # below the branch point
    assert math.isnan(lambertw0(0.1))  # outside the branch this module covers
    assert math.isnan(lambertw0(float("nan")))
    assert isinstance(lambertw0(-0.1), float)
    assert lambertw0([-0.1, -0.2]).shape == (2,)
    assert lambertw0_exp(0.0) == -1.0
    assert lambertw0_exp(math.inf) == 0.0
    assert math.isnan(lambertw0_exp(-1e-3))


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=-INV_E * (1 - 1e-6), max_value=-1e-300))
def test_lambertw0_solves_its_defining_equation(z):
    w = lambertw0(z)
    assert w >= -1.0
    assert w * math.exp(w) == pytest.approx(z, rel=4 * LAMBERTW0_ACCURACY)


def test_exact_optimal_interval_is_unchanged_from_the_scipy_formula():
    d = np.array([0.0, 1e-6, 0.01, 1.0, 60.0, 1000.0, 1e5])
    m = np.array([720.0, 720.0, 30.0, 720.0, 60.0, 10.0, 1.0])
    ours = exact_optimal_interval_minutes(d, m)
    with np.errstate(under="ignore"):
        w = lambertw(-np.exp(-(1.0 + d / m))).real
    theirs = m * (1.0 + np.where(d > 0, w, -1.0))
    conditioned = d / m > 1e-4  # scipy's z = −e^{−(1+q)} loses ~√ε as q → 0
    assert np.allclose(ours[conditioned], theirs[conditioned], rtol=1e-12, atol=1e-12)
    # there ours follows the branch series τ/M = p − p²/3 + 11/72·p³ − ..., p = √(2(1 − e^{−q}))
    q = 1e-6 / 720.0
    p = math.sqrt(-2.0 * math.expm1(-q))
    series = 720.0 * (p - p * p / 3.0 + 11.0 / 72.0 * p**3 - 43.0 / 540.0 * p**4)
    assert ours[1] == pytest.approx(series, rel=1e-13)
    assert abs(theirs[1] / series - 1.0) > 1e-9  # scipy is off by ~4e-8 there
    assert exact_optimal_interval_minutes(1.0, 720.0) == pytest.approx(37.284, abs=5e-4)
    assert exact_optimal_interval_minutes(1.0, math.inf) == math.inf


def test_poisson_sf_matches_scipy():
    s = np.arange(0, 300)[:, None]
    mu = np.concatenate([[0.0, 1e-9], np.logspace(-6, 3.2, 300)])[None, :]
    ours = poisson_sf(s, mu)
    theirs = poisson.sf(s - 1, mu)
    assert np.all(ours[0] == 1.0)  # s = 0: always
    big = theirs > 1e-290
    assert np.allclose(ours[big], theirs[big], rtol=1e-11, atol=0)
    assert np.all(np.abs(ours - theirs) <= 1e-12)
    # past the numpy range it is scipy's pdtrc itself
    assert poisson_sf(1000, 990.0) == pytest.approx(pdtrc(999, 990.0), rel=1e-15)
    assert poisson_sf(4, 4.0) == pytest.approx(0.5665, abs=5e-5)
    assert isinstance(poisson_sf(2, 1.0), float)
    assert math.isnan(poisson_sf(2, float("nan")))
