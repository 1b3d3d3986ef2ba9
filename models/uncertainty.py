"""What the inputs are not sure of: the failure rate's and the step time's 80% intervals.

A buyer does not know the node failure rate of the cluster they will get, nor the step time
of a run nobody has done yet.  This module turns what *is* known into two distributions that
the decision (:mod:`models.decide`), ``goodput plan --deadline-days`` and the headline
intervals of ``goodput evaluate`` integrate over:

* **Failure rate** [per node-day]: the 80% interval ``reliability.node_failure_rate_low`` /
  ``_high`` when the scenario has one (``goodput fit`` and ``goodput reconcile
  --write-scenario`` write the exact Poisson interval of the log,
  :func:`rate_interval_from_counts`), else the *fleet prior*: the scenario's rate as the
  median and the spread of public fleets around it (:data:`FLEET_RATES_PER_1000_NODE_DAYS`,
  log standard deviation :data:`FLEET_PRIOR_SIGMA` of eight fleets, an 80% interval of
  rate ÷ 2.16 to rate × 2.16).
* **Step time** [s]: :func:`step_time_interval`, the one function that knows it.  It reads
  ``step_seconds_low`` / ``step_seconds_high`` from the chain's outputs when the step model
  provides them, else applies the stated provisional range :data:`STEP_TIME_REL_80`.

Each interval becomes a lognormal with the interval's ends as its 10th and 90th percentiles
(:func:`lognormal_from_interval`).  The two are independent.  The headline intervals
(:func:`headline_intervals`) evaluate the chain at quantiles of the rate and scale each
by quantiles of the step; the decision's prune uses a coarse product grid
(:func:`quantile_grid`); the Monte Carlo draws one (rate, step) pair per stratum of trials (:func:`strata`).  Sources and the
fleet table: ``docs/decide.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from .errors import ValidationError

#: z of the 90th percentile of the standard normal: an 80% interval is median·exp(±Z80·σ).
Z80 = NormalDist().inv_cdf(0.9)

_INV_CDF = np.vectorize(NormalDist().inv_cdf, otypes=[float])

#: Public fleet failure rates [failures per 1,000 node-days] (docs/decide.md).
FLEET_RATES_PER_1000_NODE_DAYS: dict[str, tuple[float, str]] = {
    "llama3_405b": (
        3.79,
        "Llama 3 405B pre-training: 419 unexpected interruptions on 16,384 H100 (2,048 nodes) "
        "in 54 days (Grattafiori et al. 2024, arXiv:2407.21783, section 3.3.4)",
    ),
    "rsc1": (
        6.50,
        "Meta RSC-1 (A100), 11 months of jobs (Kokolis et al. 2024, arXiv:2410.21680)",
    ),
    "rsc2": (
        2.34,
        "Meta RSC-2 (A100), 11 months of jobs (Kokolis et al. 2024, arXiv:2410.21680)",
    ),
    # the five below were first held out to test the three above (docs/failure-domains.md)
    "bloom_176b": (
        2.98,
        "BLOOM-176B, 48 nodes of 8 A100: a GPU died 'every week or so' (BigScience training "
        "chronicles, 2022)",
    ),
    "opt_175b": (
        9.22,
        "OPT-175B, 124 nodes of 8 A100: 8 hardware failures in the seven days from Christmas "
        "(Meta OPT logbook, 2022)",
    ),
    "lablup_b200": (
        4.51,
        "63 nodes of 8 B200: 10 GPU failures in 55 days, over Llama 3's GPU share of all "
        "causes (Lablup et al. 2026, arXiv:2605.09370)",
    ),
    "stepfun": (
        3.83,
        "400 GPU servers, 348 days: 529 incidents of 584 published faults as goodput fit "
        "reads them (StepFun InfiniteHBD fault trace, Shou et al., SIGCOMM 2025, "
        "arXiv:2502.03885)",
    ),
    "byterobust_dense": (
        1.31,
        "ByteDance's three-month dense job on 1,200 nodes of 8 Hopper GPUs: 143 incidents "
        "resolved by evicting machines (Wan et al., SOSP 2025, arXiv:2509.16293, Table 4)",
    ),
}


def _log_sd(values) -> float:
    x = np.log(np.asarray(values, dtype=float))
    return float(np.std(x, ddof=1))


#: Log standard deviation of the public fleets' rates: how far apart clusters run.  With the
#: scenario's rate as the median, the 80% interval is rate·exp(±Z80·σ) = rate ÷ / × 2.16
#: (eight fleets; the first three alone gave 1.93, and five held-out fleets showed it too
#: narrow: docs/failure-domains.md).
FLEET_PRIOR_SIGMA = _log_sd([v for v, _ in FLEET_RATES_PER_1000_NODE_DAYS.values()])
FLEET_PRIOR_FACTOR = math.exp(Z80 * FLEET_PRIOR_SIGMA)

#: Provisional 80% interval of the modelled step time, relative (low, high), used until the
#: step model reports its own ``step_seconds_low/high``: the step model's errors on runs
#: outside its validation table were 8-14% on average and optimistic more often than not
#: (docs/step-time.md, docs/decide.md), so the interval leans slower.
STEP_TIME_REL_80: tuple[float, float] = (0.92, 1.15)

#: Smallest low end of a rate interval relative to its high end (a log with no failure has
#: a Poisson interval that starts at 0; the lognormal needs a positive end).
MIN_LOW_OVER_HIGH = 1e-3


@dataclass(frozen=True)
class Interval:
    """An 80% interval [low, high] of a positive quantity, with where it comes from."""

    low: float
    high: float
    source: str

    @property
    def median(self) -> float:
        return math.sqrt(self.low * self.high)

    @property
    def sigma(self) -> float:
        """Log standard deviation of the lognormal whose 10th/90th percentiles are the ends."""
        return lognormal_from_interval(self.low, self.high)[1]

    def quantile(self, q) -> np.ndarray:
        """Quantiles ``q`` (0..1) of the lognormal fitted to the interval.

        Parameters
        ----------
        q : array_like
            Quantiles [fraction].

        Returns
        -------
        numpy.ndarray
            The quantity at each quantile, in its own unit, shaped like ``q``.
        """
        med, sig = lognormal_from_interval(self.low, self.high)
        qq = np.clip(np.ravel(np.asarray(q, dtype=float)), 1e-12, 1 - 1e-12)
        z = _INV_CDF(qq) if qq.size else qq
        return (med * np.exp(sig * z)).reshape(np.shape(q))

    def scaled(self, factor: float) -> Interval:
        """Interval with both ends multiplied by ``factor``.

        Parameters
        ----------
        factor : float
            Multiplier [-].

        Returns
        -------
        Interval
            The scaled interval, same source.
        """
        return Interval(self.low * factor, self.high * factor, self.source)

    def widened(self, factor: float) -> Interval:
        """The interval ``factor`` times as wide in log terms, about the same median."""
        med, sig = lognormal_from_interval(self.low, self.high)
        k = math.exp(Z80 * sig * factor)
        return Interval(med / k, med * k, f"{self.source}, widened {factor:g}x")


def lognormal_from_interval(low: float, high: float) -> tuple[float, float]:
    """(median, log standard deviation) of the lognormal with 10th/90th percentiles low, high.

    median = √(low·high), σ = ln(high/low) / (2·z₀.₉) with z₀.₉ = 1.2816.

    Parameters
    ----------
    low, high : float
        10th and 90th percentiles, in the quantity's unit (0 < low <= high).

    Returns
    -------
    tuple of float
        Median [the quantity's unit] and log standard deviation σ [-].

    Examples
    --------
    >>> m, s = lognormal_from_interval(1.0, 4.0)
    >>> round(m, 6), round(s, 4)
    (2.0, 0.5409)
    """
    lo, hi = float(low), float(high)
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > 0 and 0 <= lo <= hi):
        raise ValueError(f"not an interval of a positive quantity: [{lo!r}, {hi!r}]")
    lo = max(lo, hi * MIN_LOW_OVER_HIGH)
    return math.sqrt(lo * hi), math.log(hi / lo) / (2.0 * Z80)


def failure_rate_interval(scenario_or_inputs: Mapping[str, Any]) -> Interval:
    """The 80% interval of the node failure rate [per node-day] of a scenario (or its inputs).

    ``reliability.node_failure_rate_low`` / ``_high`` when both are set (the low end at most
    the rate, the high end at least the rate: a ValidationError names the field otherwise);
    one end alone keeps its ratio to the rate on the other side (a symmetric interval in log
    terms); neither: the fleet prior, rate ÷ / × :data:`FLEET_PRIOR_FACTOR`.  A rate of 0
    has the interval [0, 0], unless a high end is stated (a log with no node failure gives
    its exact upper bound): then [max(low, high · :data:`MIN_LOW_OVER_HIGH`), high].

    Parameters
    ----------
    scenario_or_inputs : Mapping[str, Any]
        A :class:`~models.scenario.Scenario` or its flat inputs, with
        ``reliability.node_failure_rate_per_day`` [per node-day] and optionally
        ``reliability.node_failure_rate_low`` / ``_high`` [per node-day].

    Returns
    -------
    Interval
        Low and high ends [per node-day] and their source.

    Examples
    --------
    >>> iv = failure_rate_interval({"reliability.node_failure_rate_per_day": 0.002})
    >>> round(iv.low, 6), round(iv.high, 6)
    (0.000926, 0.004319)
    """
    x = scenario_or_inputs
    rate = float(np.asarray(x["reliability.node_failure_rate_per_day"]))
    lo_v = _get(x, "reliability.node_failure_rate_low")
    hi_v = _get(x, "reliability.node_failure_rate_high")
    if lo_v is not None and lo_v > rate * (1 + 1e-9):
        raise ValidationError(
            "reliability.node_failure_rate_low",
            f"{lo_v:g} is out of range (at most the rate, {rate:g} per node-day)",
        )
    if hi_v is not None and hi_v < rate * (1 - 1e-9):
        raise ValidationError(
            "reliability.node_failure_rate_high",
            f"{hi_v:g} is out of range (at least the rate, {rate:g} per node-day)",
        )
    if rate <= 0:
        if hi_v is None or hi_v <= 0:
            return Interval(0.0, 0.0, "no failures (rate 0)")
        # no failure seen is not a rate of 0: a log without node failures gives the exact
        # upper bound (goodput fit), which the interval keeps
        low = max(lo_v or 0.0, hi_v * MIN_LOW_OVER_HIGH)
        return Interval(low, hi_v, "the scenario's interval (no failure seen)")
    if lo_v is not None and hi_v is not None:
        if hi_v <= 0:
            return Interval(0.0, 0.0, "no failures (interval [0, 0])")
        return Interval(max(lo_v, hi_v * MIN_LOW_OVER_HIGH), hi_v, "the scenario's interval")
    if hi_v is not None:
        return Interval(rate * rate / hi_v, hi_v, "the scenario's high end, symmetric in log")
    if lo_v is not None:
        lo = max(lo_v, rate * MIN_LOW_OVER_HIGH)
        return Interval(lo, rate * rate / lo, "the scenario's low end, symmetric in log")
    k = FLEET_PRIOR_FACTOR
    return Interval(rate / k, rate * k, "fleet prior (docs/decide.md)")


def _get(x: Mapping[str, Any], key: str) -> float | None:
    try:
        v = x[key]
    except KeyError:
        return None
    if v is None:
        return None
    v = float(np.asarray(v))
    return v if math.isfinite(v) else None


def step_time_interval(metrics: Mapping[str, Any]) -> Interval:
    """The 80% interval of the step time [s]: the ONE place that knows it.

    Reads ``step_seconds_low`` / ``step_seconds_high`` from the chain's outputs when the step
    model reports them; else the modelled ``step_seconds`` times :data:`STEP_TIME_REL_80`.

    Parameters
    ----------
    metrics : Mapping[str, Any]
        Chain outputs with ``step_seconds`` [s] and optionally ``step_seconds_low`` /
        ``step_seconds_high`` [s].

    Returns
    -------
    Interval
        Low and high ends [s] and their source.

    Examples
    --------
    >>> iv = step_time_interval({"step_seconds": 10.0})
    >>> round(iv.low, 2), round(iv.high, 2)
    (9.2, 11.5)
    """
    step = float(np.asarray(metrics["step_seconds"]))
    lo, hi = metrics.get("step_seconds_low"), metrics.get("step_seconds_high")
    if lo is not None and hi is not None:
        lo_f, hi_f = float(np.asarray(lo)), float(np.asarray(hi))
        if math.isfinite(lo_f) and math.isfinite(hi_f) and 0 < lo_f <= hi_f:
            return Interval(lo_f, hi_f, "the step model's interval (step_seconds_low/high)")
    a, b = STEP_TIME_REL_80
    return Interval(step * a, step * b, f"provisional -{1 - a:.0%}/+{b - 1:.0%} (docs/decide.md)")


def step_time_multipliers(metrics: Mapping[str, Any], q) -> np.ndarray:
    """Step-time quantiles ``q`` relative to the modelled step (dimensionless); 1 where the
    step cannot be modelled (the time to train is then undefined whatever the multiplier).

    Parameters
    ----------
    metrics : Mapping[str, Any]
        Chain outputs with ``step_seconds`` [s] (:func:`step_time_interval`).
    q : array_like
        Quantiles [fraction].

    Returns
    -------
    numpy.ndarray
        Step time at each quantile ÷ the modelled step time [-], shaped like ``q``.

    Examples
    --------
    >>> step_time_multipliers({"step_seconds": float("nan")}, [0.1, 0.9]).tolist()
    [1.0, 1.0]
    """
    step = float(np.asarray(metrics["step_seconds"]))
    if not (math.isfinite(step) and step > 0):
        return np.ones(np.shape(q))
    iv = step_time_interval(metrics)
    return iv.quantile(q) / step


def rate_quantiles(iv: Interval, q) -> np.ndarray:
    """Failure-rate quantiles ``q`` of ``iv`` [per node-day] (0 when the interval is [0, 0]).

    Parameters
    ----------
    iv : Interval
        80% interval of the failure rate [per node-day].
    q : array_like
        Quantiles [fraction].

    Returns
    -------
    numpy.ndarray
        Failure rate at each quantile [per node-day], shaped like ``q``.

    Examples
    --------
    >>> rate_quantiles(Interval(0.0, 0.0, "none"), [0.1, 0.9]).tolist()
    [0.0, 0.0]
    """
    if iv.high <= 0:
        return np.zeros(np.shape(q))
    return iv.quantile(q)


def quantile_grid(n: int = 9) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An n × n product grid of midpoint quantiles of two independent inputs, flattened:
    (q_rate, q_step, weight), each weight 1/n².

    Parameters
    ----------
    n : int
        Quantiles per input [count].

    Returns
    -------
    tuple of numpy.ndarray
        Rate quantiles, step quantiles [fraction] and weights [-], each of n² points.

    Examples
    --------
    >>> qr, qs, w = quantile_grid(2)
    >>> qr.tolist(), qs.tolist(), w.tolist()
    ([0.25, 0.25, 0.75, 0.75], [0.25, 0.75, 0.25, 0.75], [0.25, 0.25, 0.25, 0.25])
    """
    u = (np.arange(n) + 0.5) / n
    a, b = np.meshgrid(u, u, indexing="ij")
    return a.ravel(), b.ravel(), np.full(n * n, 1.0 / (n * n))


def strata(k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """k Latin-hypercube strata of (rate quantile, step quantile): each input's k midpoint
    quantiles once, paired by a random permutation (stratified sampling of both).

    Parameters
    ----------
    k : int
        Strata [count].
    rng : numpy.random.Generator
        Random stream for the pairing.

    Returns
    -------
    tuple of numpy.ndarray
        Rate quantiles and step quantiles [fraction], k each.
    """
    u = (np.arange(k) + 0.5) / k
    return u, u[rng.permutation(k)]


def weighted_quantile(values, weights, q: float) -> float:
    """The ``q`` quantile of a weighted sample (step interpolation of the weighted CDF).

    Parameters
    ----------
    values : array_like
        Sample, in its own unit.
    weights : array_like
        Non-negative weights [-], one per value.
    q : float
        Quantile [fraction].

    Returns
    -------
    float
        The quantile, in the sample's unit.
    """
    v = np.asarray(values, dtype=float)
    w = np.asarray(weights, dtype=float)
    ok = np.isfinite(v)
    if not ok.any():
        return math.nan
    v, w = v[ok], w[ok]
    order = np.argsort(v)
    v, w = v[order], w[order]
    c = np.cumsum(w) / w.sum()
    i = int(np.searchsorted(c, q - 1e-12, side="left"))
    return float(v[min(i, v.size - 1)])


#: Headline figures with an 80% interval from both uncertainties (registered in
#: models/outputs.py with computed_by = models.uncertainty.headline_intervals).
HEADLINE_KEYS = ("goodput", "lost_usd_per_day", "time_to_train_days", "total_cost_to_train_usd")
#: Each headline figure's 80% interval as (low key, high key) in the chain's outputs: the
#: time to train's are ``_p10/_p90``, since its ``_low/_high`` is the step model's interval
#: alone (:func:`models.chain.cost_step`); the others' ``_low/_high``.  Every view that
#: shows a headline interval reads its keys here (:func:`headline_intervals` writes them;
#: tests/models/test_uncertainty.py checks the two agree).
HEADLINE_INTERVALS = {
    "goodput": ("goodput_low", "goodput_high"),
    "lost_usd_per_day": ("lost_usd_per_day_low", "lost_usd_per_day_high"),
    "time_to_train_days": ("time_to_train_days_p10", "time_to_train_days_p90"),
    "total_cost_to_train_usd": ("total_cost_to_train_usd_low", "total_cost_to_train_usd_high"),
}


def headline_intervals(
    inputs: Mapping[str, Any], rate_points: int = 41, step_points: int = 401
) -> dict[str, float]:
    """80% intervals of goodput, lost $/day, time and total cost to train [their units].

    The chain is evaluated at ``rate_points`` midpoint quantiles of the failure rate's
    lognormal (:func:`failure_rate_interval`) and at its 10th and 90th percentiles, one
    vectorised call.  Goodput and the lost dollars do not depend on the step time and move
    one way with the rate: their ``_low`` and ``_high`` are their values at the rate's
    percentiles.  Time and cost to train scale with the step
    (T = steps · step · s / goodput; cost = T · cluster $/day + storage), so each rate's
    figure is multiplied by ``step_points`` midpoint quantiles of the step time's lognormal
    (:func:`step_time_interval`) without evaluating the chain again; their 10th and 90th
    percentiles over the rate × step product (equal weights) are their ``_low`` and
    ``_high``.  With the rate known exactly, the time to train's are the step model's own
    interval to within the step grid's spacing.  These combine the failure-rate and the
    step-time uncertainty; the time to train's are reported as
    ``time_to_train_days_p10/p90``, since ``time_to_train_days_low/high`` is the chain's
    interval of the step time alone (:func:`models.chain.cost_step`), which the instance
    ranking compares.

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Flat chain inputs (:func:`models.evaluate.resolve_inputs`).
    rate_points : int
        Failure-rate quantiles [count].
    step_points : int
        Step-time quantiles [count].

    Returns
    -------
    dict[str, float]
        ``<figure>_low`` / ``_high`` (goodput [fraction], lost [USD/day], total cost
        [USD]) and ``time_to_train_days_p10`` / ``_p90`` [day].
    """
    from .evaluate import evaluate_arrays

    base = evaluate_arrays(inputs)
    iv = failure_rate_interval(inputs)
    # the grid's quantiles, then the rate's own 10th and 90th percentiles
    q = np.append((np.arange(rate_points) + 0.5) / rate_points, [0.1, 0.9])
    mult = step_time_multipliers(base, (np.arange(step_points) + 0.5) / step_points)
    x = dict(inputs)
    if bool(inputs.get("checkpoint.interval_optimal", False)):
        # the interval is a decision taken at the scenario's rate, not re-optimised per rate
        x["checkpoint.interval_minutes"] = float(base["checkpoint_interval_minutes"])
        x["checkpoint.interval_optimal"] = False
    x["reliability.node_failure_rate_per_day"] = rate_quantiles(iv, q)
    m = evaluate_arrays(x)

    def col(key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(m[key], dtype=float), q.shape)

    out: dict[str, float] = {}
    # goodput falls and the lost dollars rise with the rate: their percentiles are the
    # figures at the rate's percentiles (exact, no grid)
    for low, high, key in (
        ("goodput_low", "goodput_high", "goodput"),
        ("lost_usd_per_day_low", "lost_usd_per_day_high", "lost_usd_per_day"),
    ):
        ends = col(key)[-2:]
        out[low], out[high] = float(np.min(ends)), float(np.max(ends))
    grid = slice(0, rate_points)
    cost = col("total_cost_to_train_usd")[grid, None]
    # the bill scales with the wall time: cost(s) = cost(1) · s for per-hour pricing
    per_hour = np.isfinite(col("total_usd_per_day")[grid, None])
    for (low, high), v in (
        # the chain's time_to_train_days_low/high is the step model's interval alone
        (("time_to_train_days_p10", "time_to_train_days_p90"),
         col("time_to_train_days")[grid, None] * mult),
        (("total_cost_to_train_usd_low", "total_cost_to_train_usd_high"),
         np.where(per_hour, cost * mult, cost)),
    ):  # fmt: skip
        v = np.ravel(v)
        out[low] = weighted_quantile(v, np.ones(v.size), 0.1)
        out[high] = weighted_quantile(v, np.ones(v.size), 0.9)
    return out


def rate_interval_from_counts(
    failures: float, node_days: float, level: float = 0.8
) -> tuple[float, float]:
    """Exact (Garwood) ``level`` interval of a Poisson rate [per node-day].

    low = χ²(α/2; 2k)/(2E), high = χ²(1 − α/2; 2k + 2)/(2E), α = 1 − level (low = 0 when
    k = 0).  Garwood, Biometrika 28:437-442, 1936.

    Parameters
    ----------
    failures : float
        Failures observed k [count].
    node_days : float
        Exposure E [node-day].
    level : float
        Confidence level [fraction].

    Returns
    -------
    tuple of float
        Low and high ends of the rate [per node-day].

    Examples
    --------
    >>> lo, hi = rate_interval_from_counts(10, 1000.0)
    >>> round(lo, 5), round(hi, 5)
    (0.00622, 0.01541)
    """
    from .fitting import poisson_rate_ci  # local: scipy.optimize loads only when needed

    lo, hi = poisson_rate_ci(float(failures), float(node_days), level)
    return float(lo), float(hi)


def fitted_rate_interval(
    rate: float, failures: float, level: float = 0.8
) -> tuple[float, float] | None:
    """The ``level`` interval of a rate fitted from ``failures`` events, around that rate.

    The exact Poisson (Garwood) interval relative to the count, applied to the fitted rate:
    [rate·χ²(α/2; 2k)/(2k), rate·χ²(1 − α/2; 2k + 2)/(2k)], so a two-day log (few failures)
    gets a wide interval and a thirty-day log of the same cluster a narrow one.  None when
    there is no failure (k = 0) or no rate.

    Parameters
    ----------
    rate : float
        Fitted failure rate [per node-day].
    failures : float
        Failures it was fitted from k [count].
    level : float
        Confidence level [fraction].

    Returns
    -------
    tuple of float or None
        Low and high ends [per node-day]; None without failures or rate.

    Examples
    --------
    >>> lo, hi = fitted_rate_interval(0.002, 10)
    >>> round(lo, 6), round(hi, 6)
    (0.001244, 0.003081)
    """
    k, r = float(failures), float(rate)
    if not (k > 0 and math.isfinite(r) and r > 0):
        return None
    lo, hi = rate_interval_from_counts(k, k, level)  # exposure k: relative to the count
    return r * lo, r * hi
