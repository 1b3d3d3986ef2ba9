"""Goodput from failures and checkpoints: first-order waste and Daly's exact expectation.

Notation (docs/references.md#notation): M = job MTBF, δ = blocking checkpoint save time, R = restart
time (detection + replacement + restart + restore), τ = compute time between checkpoints.
Every function takes minutes and broadcasts over numpy arrays.

References
----------
[1] J. W. Young, "A first order approximation to the optimum checkpoint interval",
    CACM 17(9):530-531, 1974. doi:10.1145/361147.361115
[2] J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart
    dumps", Future Generation Computer Systems 22(3):303-312, 2006.
    doi:10.1016/j.future.2004.11.016
"""

from __future__ import annotations

import numpy as np

from ._tools import MINUTES_PER_DAY, as_float_array, fits_into, like_input, sqrt_over
from .special import lambertw0_exp


def lost_minutes_per_failure(restart_minutes, interval_minutes):
    """First-order time lost per failure: R + τ/2 [min].

    The rework term τ/2 is the mean progress since the last checkpoint when failures
    arrive uniformly within an interval (first order in τ/M, [1]).

    Parameters
    ----------
    restart_minutes : array_like
        R, recovery time per failure [min].
    interval_minutes : array_like
        τ, compute time between checkpoints [min].

    Returns
    -------
    float or ndarray
        R + τ/2 [min]; a float when every input is a scalar.

    Examples
    --------
    >>> lost_minutes_per_failure(10.0, 40.0)
    30.0
    """
    out = as_float_array(restart_minutes) + as_float_array(interval_minutes) / 2.0
    return like_input(out, restart_minutes, interval_minutes)


def waste_first_order(
    failures_per_day,
    restart_minutes,
    interval_minutes,
    save_minutes,
    *,
    save_share=None,
    half_interval=None,
    out=None,
):
    """First-order fraction of wall time wasted: W = δ/τ + λ·(τ/2 + R) [fraction].

    λ is taken per minute (failures_per_day / 1440).  Derived from [1]; minimising it in τ
    gives Young's τ = √(2δM).  W can exceed 1 when failures are so frequent that the
    first-order expansion is meaningless: callers report goodput as max(0, 1 − W).

    Parameters
    ----------
    failures_per_day : array_like
        λ, failures of the job per day [per day].
    restart_minutes : array_like
        R, recovery time per failure (detection + replacement + restart + restore) [min].
    interval_minutes : array_like
        τ, compute time between checkpoints [min].
    save_minutes : array_like
        δ, blocking save time of one checkpoint [min].
    save_share, half_interval : array_like, optional
        δ/τ [fraction] and τ/2 [min] when the caller has them (the same numbers, computed
        once for several figures); computed here when None.
    out : ndarray, optional
        Memory to write W into when it has its shape (the same addition: the same values).

    Returns
    -------
    float or ndarray
        W [fraction] (may exceed 1).

    Examples
    --------
    >>> round(waste_first_order(2.0, 10.0, 40.0, 0.0), 5)  # 2 × 30 min / 1440 min
    0.04167
    """
    lam = as_float_array(failures_per_day) / MINUTES_PER_DAY
    tau = as_float_array(interval_minutes)
    if save_share is None:
        save_share = as_float_array(save_minutes) / tau
    if half_interval is None:
        half_interval = tau / 2.0
    lost = lam * (half_interval + as_float_array(restart_minutes))
    if fits_into(out, save_share, lost):
        return np.add(save_share, lost, out=out)
    w = save_share + lost
    return like_input(w, failures_per_day, restart_minutes, interval_minutes, save_minutes)


def expected_wall_time_ratio(failures_per_day, restart_minutes, interval_minutes, save_minutes):
    """Expected wall time per unit of solve time, T_w / T_s, for exponential failures.

    Daly [2]: T_w(τ) = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ.  Written with λ = 1/M so that
    λ = 0 gives the failure-free limit (τ+δ)/τ:
    T_w/T_s = e^{λR} · expm1(λ(τ+δ)) / (λτ).

    Parameters
    ----------
    failures_per_day : array_like
        λ, failures of the job per day [per day].
    restart_minutes : array_like
        R, recovery time per failure (detection + replacement + restart + restore) [min].
    interval_minutes : array_like
        τ, compute time between checkpoints [min].
    save_minutes : array_like
        δ, blocking save time of one checkpoint [min].

    Returns
    -------
    float or ndarray
        T_w/T_s [-], at least (τ + δ)/τ.

    Examples
    --------
    >>> round(expected_wall_time_ratio(0.0, 10.0, 40.0, 2.0), 6)  # no failures: (τ+δ)/τ
    1.05
    """
    lam = as_float_array(failures_per_day) / MINUTES_PER_DAY
    r = as_float_array(restart_minutes)
    tau = as_float_array(interval_minutes)
    d = as_float_array(save_minutes)
    seg = tau + d
    x = lam * seg
    # expm1(x)/x, with its Taylor series where x is so small (or subnormal) that the
    # division loses precision; this keeps T_w monotone in λ down to λ = 0.  (The series
    # only where some x needs it: most arrays of scenarios have none.)
    with np.errstate(over="ignore", invalid="ignore"):
        if _any_small(x):
            small = np.abs(x) < 1e-6
            xs = np.where(small, 1.0, x)
            growth = np.where(small, 1.0 + x / 2.0 + x * x / 6.0, np.expm1(xs) / xs)
        else:
            growth = np.expm1(x) / x
        ratio = lam * r
        if isinstance(ratio, np.ndarray) and ratio.ndim and ratio.shape == np.shape(growth):
            # e^{λR}·growth·(τ+δ)/τ in that order, each step written over one temporary
            np.exp(ratio, out=ratio)
            ratio *= growth
            ratio *= seg
            ratio /= tau
        else:
            ratio = np.exp(ratio) * growth * seg / tau
    return like_input(ratio, failures_per_day, restart_minutes, interval_minutes, save_minutes)


def _any_small(x) -> bool:
    """Whether some |x| < 1e-6 (NaN is not small): the smallest |x| NaN aside, in one
    reduction rather than a mask."""
    if not (isinstance(x, np.ndarray) and x.ndim and x.size):
        return bool((np.abs(x) < 1e-6).any())
    return bool(np.fmin.reduce(np.abs(x), axis=None) < 1e-6)


def goodput_exact(failures_per_day, restart_minutes, interval_minutes, save_minutes):
    """Expected goodput T_s / T_w for exponential failures (Daly [2], eq. for T_w) [fraction].

    Parameters
    ----------
    failures_per_day : array_like
        λ, failures of the job per day [per day].
    restart_minutes : array_like
        R, recovery time per failure (detection + replacement + restart + restore) [min].
    interval_minutes : array_like
        τ, compute time between checkpoints [min].
    save_minutes : array_like
        δ, blocking save time of one checkpoint [min].

    Returns
    -------
    float or ndarray
        T_s/T_w [fraction]; 0 where T_w overflows.

    Examples
    --------
    >>> round(goodput_exact(4.0, 11.0, 40.0, 1.0), 4)
    0.8934
    """
    ratio = as_float_array(
        expected_wall_time_ratio(failures_per_day, restart_minutes, interval_minutes, save_minutes)
    )
    # the ratio is a new array of its own: 1/ratio written over it
    g = np.divide(1.0, ratio, out=ratio) if ratio.ndim else 1.0 / ratio
    finite = np.isfinite(g)
    if not finite.all():
        g = np.where(finite, g, 0.0)
    return like_input(g, failures_per_day, restart_minutes, interval_minutes, save_minutes)


def goodput_first_order(failures_per_day, restart_minutes, interval_minutes, save_minutes):
    """max(0, 1 − W) with W from :func:`waste_first_order` [fraction].

    Parameters
    ----------
    failures_per_day : array_like
        λ, failures of the job per day [per day].
    restart_minutes : array_like
        R, recovery time per failure (detection + replacement + restart + restore) [min].
    interval_minutes : array_like
        τ, compute time between checkpoints [min].
    save_minutes : array_like
        δ, blocking save time of one checkpoint [min].

    Returns
    -------
    float or ndarray
        max(0, 1 − W), clipped to [0, 1] [fraction].
    """
    w = as_float_array(
        waste_first_order(failures_per_day, restart_minutes, interval_minutes, save_minutes)
    )
    g = np.clip(1.0 - w, 0.0, 1.0)
    return like_input(g, failures_per_day, restart_minutes, interval_minutes, save_minutes)


def young_interval_minutes(save_minutes, mtbf_minutes, out=None):
    """Young's optimum τ = √(2δM) [min] ([1]).

    Parameters
    ----------
    save_minutes : array_like
        δ, blocking save time [min].
    mtbf_minutes : array_like
        M, job mean time between failures [min].
    out : ndarray, optional
        Memory to write the result into when it has the result's shape (the same
        operations: the same values); the result is then ``out``.

    Returns
    -------
    float or ndarray
        τ_Young [min]; NaN for δ = 0 with M = inf.

    Examples
    --------
    >>> young_interval_minutes(1.0, 720.0)
    37.94733192202055
    """
    with np.errstate(invalid="ignore"):  # δ = 0 with M = inf has no optimum: NaN
        # a new array of its own: the root written over it, or into ``out``
        root = sqrt_over(2.0 * as_float_array(save_minutes) * as_float_array(mtbf_minutes), out)
    return like_input(root, save_minutes, mtbf_minutes)


def exact_optimal_interval_minutes(save_minutes, mtbf_minutes):
    """τ that minimises Daly's T_w exactly: τ = M·[1 + W₀(−e^{−(1+δ/M)})] [min].

    Setting dT_w/dτ = 0 gives e^{(τ+δ)/M}(1 − τ/M) = 1, solved by the principal branch of
    Lambert W (:func:`models.special.lambertw0_exp`, real, relative error < 1e-14); the
    optimum does not depend on R.  ``inf`` when M is infinite (no failures), 0 when saves
    are free (δ = 0).

    Parameters
    ----------
    save_minutes : array_like
        δ, blocking save time [min].
    mtbf_minutes : array_like
        M, job mean time between failures [min].

    Returns
    -------
    float or ndarray
        The optimal τ [min]; inf when M is infinite, 0 when δ = 0.

    Examples
    --------
    >>> round(exact_optimal_interval_minutes(1.0, 720.0), 3)
    37.284
    """
    d = as_float_array(save_minutes)
    m = as_float_array(mtbf_minutes)
    finite = np.isfinite(m) & (m > 0)
    if d.ndim == 0 and d == 0:  # free saves (an asynchronous durable level): W₀(−1/e) = −1
        tau = np.where(finite, 0.0, np.inf)
        return like_input(tau, save_minutes, mtbf_minutes)
    everywhere = bool(finite.all())  # then M as it is, no pass to mask it
    msafe = m if everywhere else np.where(finite, m, 1.0)
    # W₀(−e^{−(1+q)}), q = δ/M, real and exact up to the branch point q = 0 (δ = 0: W₀ = −1)
    w = as_float_array(lambertw0_exp(d / msafe))
    if w.ndim:  # a new array of its own: M·(1 + W) written over it
        np.add(1.0, w, out=w)
        tau = np.multiply(msafe, w, out=w) if w.shape == np.shape(msafe) else msafe * w
    else:
        tau = msafe * (1.0 + w)
    if not everywhere:
        tau = np.where(finite, tau, np.inf)
    return like_input(tau, save_minutes, mtbf_minutes)
