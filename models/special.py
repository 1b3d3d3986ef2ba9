"""Special functions in plain numpy: the real Lambert W₀ and the Poisson upper tail.

The evaluation chain needs two special functions.  scipy has both, but its ``lambertw`` is
complex-valued (about 60% of the time of a million-scenario evaluation) and importing
``scipy.special`` or ``scipy.stats`` takes longer than the whole of a ``goodput evaluate``
should.  These versions are real, vectorised and import nothing but numpy; tests compare them
with scipy over their whole domain (``tests/models/test_special.py``).

References
----------
[1] R. M. Corless, G. H. Gonnet, D. E. G. Hare, D. J. Jeffrey and D. E. Knuth, "On the
    Lambert W function", Advances in Computational Mathematics 5:329-359, 1996.
    doi:10.1007/BF02124750 (series about the branch point, eqs. 4.22-4.24; Halley's
    iteration, eq. 5.9).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ._tools import as_float_array, like_input

__all__ = [
    "LAMBERTW0_ACCURACY",
    "lambertw0",
    "lambertw0_exp",
    "poisson_sf",
]

#: Stated accuracy of :func:`lambertw0` / :func:`lambertw0_exp`: relative error of W₀ below
#: this (tests check it against scipy.special.lambertw and the defining equation).  Next to
#: the branch point z = −1/e, where dW/dz is unbounded, :func:`lambertw0` is limited by z
#: itself: a rounding error δ in 1 + e·z moves W by about √(2δ) (scipy's too);
#: :func:`lambertw0_exp` takes 1 + e·z as an argument and keeps full accuracy there.
LAMBERTW0_ACCURACY = 1e-14


def _branch_series(n: int) -> tuple[float, ...]:
    """μ_0 ... μ_{n−1} of W₀ = Σ μ_k p^k, p = √(2(1 + e·z)), by the recurrence of [1]
    eqs. 4.23-4.24 in exact fractions: −1, 1, −1/3, 11/72, −43/540, 769/17280, ..."""
    mu, alpha = [Fraction(-1), Fraction(1)], [Fraction(2), Fraction(-1)]
    for k in range(2, n):
        alpha.append(sum((mu[j] * mu[k + 1 - j] for j in range(2, k)), Fraction(0)))
        mu.append(
            Fraction(k - 1, k + 1) * (mu[k - 2] / 2 + alpha[k - 2] / 4)
            - alpha[k] / 2
            - mu[k - 1] / (k + 1)
        )
    return tuple(float(m) for m in mu)


_BRANCH_SERIES = _branch_series(22)
#: Below this p the branch-point series alone is exact to double precision (the first
#: omitted term is |μ₂₂|·p²² < 1e-17).  Most optimal-interval arguments fall here
#: (δ/M ≈ 1e-3 gives p ≈ 0.05).
_SERIES_ONLY_P = 0.25
#: Where the Taylor series about 0 takes over from the branch series as the starting guess.
_TAYLOR_FROM_Z = -0.25


def _series(p: np.ndarray) -> np.ndarray:
    """Σ μ_k p^k by Horner's rule, in place (p is finite or NaN: starting from the last
    coefficient is starting from 0·p + μ₂₁)."""
    w = np.full(np.shape(p), _BRANCH_SERIES[-1])
    for c in reversed(_BRANCH_SERIES[:-1]):
        w *= p
        w += c
    return w


def _halley(z: np.ndarray, p: np.ndarray) -> np.ndarray:
    """W₀ by two Halley steps on f(w) = w·eʷ − z ([1] eq. 5.9) from the branch series
    (z ≤ −0.25, relative error < 1e-6) or z − z² + 3/2·z³ − 8/3·z⁴ + 125/24·z⁵
    (z > −0.25, < 1e-2); cubic convergence takes either to double precision."""
    taylor = z * (1.0 + z * (-1.0 + z * (1.5 + z * (-8.0 / 3.0 + z * (125.0 / 24.0)))))
    w = np.where(z > _TAYLOR_FROM_Z, taylor, _series(p))
    for _ in range(2):
        ew = np.exp(w)
        f = w * ew - z
        w1 = w + 1.0
        w = w - f / (ew * w1 - (w + 2.0) * f / (2.0 * w1))
    return w


def _w0_core(z, p: np.ndarray) -> np.ndarray:
    """W₀(z) for z in [−1/e, 0], given p = √(2(1 + e·z)) computed accurately by the caller:
    the branch-point series where p < 0.25, Halley's iteration elsewhere (each only on the
    elements that need it).  ``z`` may be a function of no arguments returning z: it is
    then called only when some element needs Halley's iteration."""
    near = p < _SERIES_ONLY_P
    if near.all():
        return _series(p)
    z = np.asarray(z() if callable(z) else z)
    if not near.any():
        return _halley(z, p)
    out = np.empty(np.broadcast(z, p).shape)
    out[near] = _series(p[near])
    far = ~near
    out[far] = _halley(z[far], p[far])
    return out


#: e = _E_HI + _E_LO, with _E_HI split into two 26-bit halves (Dekker's exact product).
_E_HI = math.e
_E_LO = 1.4456468917292502e-16
_SPLIT = 134217729.0  # 2**27 + 1


def _one_plus_e_times(z: np.ndarray) -> np.ndarray:
    """1 + e·z without the cancellation of the rounded product next to z = −1/e.

    Dekker's two-product gives e_hi·z = prod + err exactly; 1 + prod is then exact
    (Sterbenz, prod ≈ −1), so the result carries the rounding of err + e_lo·z only.
    """
    prod = _E_HI * z
    c = _SPLIT * z
    z_hi = c - (c - z)
    z_lo = z - z_hi
    c = _SPLIT * _E_HI
    e_hi = c - (c - _E_HI)
    e_lo = _E_HI - e_hi
    err = ((e_hi * z_hi - prod) + e_hi * z_lo + e_lo * z_hi) + e_lo * z_lo
    return (1.0 + prod) + (err + _E_LO * z)


def lambertw0(z):
    """Principal branch of the Lambert W function, real, for z in [−1/e, 0] [dimensionless].

    W₀(z) is the solution w ≥ −1 of w·eʷ = z ([1]).  Relative accuracy
    :data:`LAMBERTW0_ACCURACY` (1e-14) except next to the branch point, where the rounding
    of z limits any method (see :func:`lambertw0_exp`); NaN outside [−1/e, 0].

    Parameters
    ----------
    z : array_like
        Argument in [−1/e, 0] [-].

    Returns
    -------
    float or ndarray
        W₀(z) [-], in [−1, 0]; NaN outside the domain.

    Examples
    --------
    >>> lambertw0(-1 / math.e)
    -1.0
    >>> round(lambertw0(-0.2), 12)  # scipy.special.lambertw(-0.2).real
    -0.259171101819
    """
    x = as_float_array(z)
    t = _one_plus_e_times(x)
    with np.errstate(invalid="ignore"):
        p = np.sqrt(2.0 * np.clip(t, 0.0, None))
        w = _w0_core(x, p)
    # the double nearest −1/e has |1 + e·z| < 1e-16: it is the branch point, W = −1
    w = np.where((t < -2e-16) | (x > 0) | np.isnan(x), np.nan, w)
    return like_input(w, z)


def lambertw0_exp(q):
    """W₀(−e^{−(1+q)}) for q ≥ 0 [dimensionless], accurate up to the branch point.

    The argument z = −e^{−(1+q)} sweeps [−1/e, 0) as q goes from 0 to ∞; passing q instead
    of z lets 1 + e·z = −expm1(−q) be computed without cancellation, so the result keeps
    :data:`LAMBERTW0_ACCURACY` even where W₀ meets −1 (q → 0, where a z rounded to double
    would cost √ε ≈ 1e-8).  This is the form Daly's exact optimal checkpoint interval needs
    (:func:`models.goodput.exact_optimal_interval_minutes`, q = δ/M).  NaN for q < 0.

    Parameters
    ----------
    q : array_like
        q ≥ 0 [-], e.g. δ/M.

    Returns
    -------
    float or ndarray
        W₀(−e^{−(1+q)}) [-], in [−1, 0); NaN for q < 0.

    Examples
    --------
    >>> lambertw0_exp(0.0)
    -1.0
    >>> round(lambertw0_exp(1.0 / 720.0), 10)  # δ = 1 min, M = 12 h (scipy: the same)
    -0.9482172029
    """
    x = as_float_array(q)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        # p = √(2·−expm1(−max(q, 0))), each step written over the one temporary
        p = np.clip(x, 0.0, None)
        if isinstance(p, np.ndarray) and p.ndim:
            np.negative(p, out=p)
            np.expm1(p, out=p)
            np.negative(p, out=p)
            np.multiply(2.0, p, out=p)
            np.sqrt(p, out=p)
        else:
            p = np.sqrt(2.0 * -np.expm1(-p))
        # z itself only where Halley's iteration needs it (small q: the series alone)
        w = _w0_core(lambda: -np.exp(-(1.0 + x)), p)
    valid = x >= 0
    if not x.ndim or not valid.all():  # NaN for q < 0 and q = NaN (no pass when all valid)
        w = np.where(valid, w, np.nan)
    return like_input(w, q)


# --------------------------------------------------------------------------- Poisson tail
#: Largest threshold s computed in numpy; beyond it (hot-spare pools of hundreds of nodes)
#: scipy.special.pdtrc is imported on first use.
_POISSON_NUMPY_MAX_S = 256
_LOG_FACTORIAL = np.concatenate(
    ([0.0], np.cumsum(np.log(np.arange(1.0, _POISSON_NUMPY_MAX_S + 2))))
)


def poisson_sf(s, mean):
    """P(X ≥ s) for X ~ Poisson(mean), s a whole number [probability].

    The same function as ``scipy.stats.poisson.sf(s − 1, mean)`` and
    ``scipy.special.pdtrc(s − 1, mean)`` (s is floored; P = 1 for s ≤ 0).  For s ≤ 256 it is
    summed in numpy: 1 − Σ_{j<s} e^{−μ}μʲ/j! when s ≤ μ (the result is then above about one
    half, so no cancellation), else Σ_{j≥s} e^{−μ}μʲ/j! from the log of its first term
    until the terms no longer change the sum.  Relative error below 1e-13 (tests compare
    with scipy); larger s use ``scipy.special.pdtrc``.

    Parameters
    ----------
    s : array_like
        Threshold, floored to a whole number [count].
    mean : array_like
        μ, mean of the Poisson variable [count].

    Returns
    -------
    float or ndarray
        P(X ≥ s) [probability].

    Examples
    --------
    >>> round(poisson_sf(4, 4.0), 4)
    0.5665
    >>> poisson_sf(0, 3.0)
    1.0
    """
    s_in, mu_in = s, mean
    mu = as_float_array(mean)
    k = np.floor(as_float_array(s))
    k, mu = np.broadcast_arrays(k, mu)
    out = np.ones(k.shape)
    need = (k > 0) & ~np.isnan(mu)
    out[np.isnan(mu) | np.isnan(k)] = np.nan
    if not need.any():
        return like_input(out, s_in, mu_in)
    big = need & (k > _POISSON_NUMPY_MAX_S)
    if big.any():
        from scipy.special import pdtrc  # only for pools too large to sum here

        out[big] = pdtrc(k[big] - 1.0, mu[big])
    small = need & ~big
    lower = small & (k <= mu)
    upper = small & (k > mu)
    if lower.any():
        kk, m = k[lower], mu[lower]
        term = np.exp(-m)
        acc = np.zeros_like(m)
        for j in range(int(kk.max())):
            acc = acc + np.where(j < kk, term, 0.0)
            term = term * m / (j + 1.0)
        out[lower] = np.clip(1.0 - acc, 0.0, 1.0)
    if upper.any():
        kk, m = k[upper], mu[upper]
        with np.errstate(divide="ignore"):
            log_first = -m + kk * np.log(m) - _LOG_FACTORIAL[kk.astype(np.int64)]
        term = np.exp(log_first)  # 0 when mean = 0
        acc = np.zeros_like(m)
        j = kk.copy()
        for _ in range(4 * _POISSON_NUMPY_MAX_S):  # ratio mean/(j+1) < 1 shrinks each step
            acc = acc + term
            j = j + 1.0
            term = term * m / j
            if not np.any(term > 1e-17 * acc):
                break
        out[upper] = acc
    return like_input(out, s_in, mu_in)
