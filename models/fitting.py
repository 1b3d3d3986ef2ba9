"""Fit failure models to a failure log: rates, time between failures, causes, lemon nodes.

What is fitted (all estimates are maximum likelihood, all intervals two-sided at
``confidence``):

* **Job time between failures (TBF)**.  Failures with an identical timestamp (e.g. one switch
  taking several nodes down) are one *incident*: one job interruption.  The gaps between
  consecutive incidents are fitted by an exponential (``scipy.stats.expon``, location 0) and a
  Weibull (``scipy.stats.weibull_min``, location 0) distribution.

  - Exponential rate CI: exact chi-square pivot, 2·λ·ΣX ~ χ²(2n) for n exponential gaps
    (Lawless, *Statistical Models and Methods for Lifetime Data*, 2nd ed., 2003, §3.2).
  - Weibull shape CI: profile likelihood, {k : 2[ℓ(k̂, λ̂) − ℓ_p(k)] ≤ χ²₁(confidence)} with
    ℓ_p(k) = n ln k − n ln(mean xᵏ) + (k − 1) Σ ln x − n (Lawless 2003, §5.1–5.2).
  - Weibull scale CI: Wald interval on ln(scale) from the observed information matrix.
  - Goodness of fit: AIC of both models; likelihood-ratio test of exponential (k = 1) inside
    Weibull, D = 2(ℓ_W − ℓ_E) ~ χ²₁; Kolmogorov–Smirnov distance of each fit.  The KS
    p-values use parameters estimated from the same data, so they are too large (the
    Lilliefors effect): read them as optimistic, and rely on the LR test and AIC.

* **Per-node TBF shape**: the Monte Carlo simulator treats ``reliability.weibull_shape`` as
  the shape of *each node's* renewal process, so that is what flows into the scenario.  It
  is fitted to the gaps between consecutive failures of the same node, with each node's time
  from its last failure to the end of the log as a right-censored observation (Weibull MLE
  with censoring, profile-likelihood CI for the shape), leaving out lemon nodes (a few
  fast-failing nodes pooled with the rest would mimic a decreasing hazard).  The job-level gaps above pool all
  nodes; their superposition tends to exponential even when each node is Weibull.
* **Failure rate per node-day** = node incidents k / node-days E, with the exact Poisson
  (Garwood 1936) interval of k over E: [χ²_{α/2}(2k), χ²_{1−α/2}(2k + 2)] / (2E), lower 0
  when k = 0 (as ``goodput reconcile`` does).  This is the scenario's
  ``reliability.node_failure_rate_per_day``.  When the log marks some failures as the job's
  own (node id ``job``, ``*``, ``-`` ..., :data:`JOB_NODE_IDS`), those incidents are left
  out of k and fitted as ``reliability.job_interruptions_per_day`` = job incidents / days,
  with the same exact interval: they do not scale with the node count (Kokolis et al.
  2024).  The interval counts the node incidents themselves: the incidents' interval
  scaled by the node share was as narrow as all incidents' (±20% for 2 node incidents
  among 52, QA pass 29).  Every rate is over the exposure the exponential MLE implies:
  n − 1 gaps of n incidents over the span are n incidents over span · n/(n − 1) days
  (E = nodes × that), so node and job-level rates add up to the incidents' rate, and a
  cause's rate below is its share of it.
* **Per-cause rates**: each failure's cause text is mapped onto the 18 root-cause categories
  of Llama 3 405B (arXiv:2407.21783, Table 5; ``data/failure_logs/llama3-root-causes.csv``);
  rates per node-day of the node failures over that exposure in node-days with exact Poisson
  (Garwood 1936) CIs.  Failures marked as the job's own count in a cause's failures and
  share, not in its rate per node-day: as from the node rate, they are left out of it (they
  are the job-level rate's).
* **Repair time**: the downtimes of node failures (not the job's own) give the mean repair,
  ``reliability.repair_hours`` (the spare pools' Erlang loss depends on the repair time only
  through its mean), and the shape of the lognormal with the log's mean and median,
  ``simulation.repair_sigma`` (:func:`fit_repair_times`; percentile bootstrap intervals).
* **Lemon nodes**: given n failures spread over N equally exposed nodes, a node's count is
  Binomial(n, 1/N) under "all nodes alike and memoryless" (with a per-node Weibull shape
  well below 1, failures cluster on a node by themselves and the test flags more nodes).  A node is a lemon when its upper-tail p-value
  P(X ≥ kᵢ) is below α/N (Bonferroni over the N nodes tested, family-wise error ≤ α).
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import optimize, stats
from scipy.special import logsumexp

from ._resources import data_path
from ._text import counted
from ._tools import HOURS_PER_DAY, as_float_array, like_input, six_digits
from .errors import ValidationError
from .failure_log import JOB_NODE_IDS, FailureLog, job_level_mask
from .fields import FIELDS

TAXONOMY_CSV = data_path("failure_logs", "llama3-root-causes.csv")
MIN_INCIDENTS = 3
UNMAPPED = "unmapped"

#: Cause text -> taxonomy category, first match wins (specific patterns before generic ones).
CAUSE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("silent_data_corruption", r"silent data corruption|\bsdc\b"),
    (
        "gpu_hbm3",
        r"\bhbm|gpu memory|gpu ecc|\b[ds]be\b|(single|double) bit ecc|uncorrectable ecc",
    ),
    ("gpu_sram", r"\bsram"),
    ("gpu_system_processor", r"\bgsp\b|gpu system processor"),
    # a GPU's own PCIe link, lost or not found: the GPU, not the network's links
    ("faulty_gpu", r"\bgpu\b.*\b(pci|pcie|link width|lost|not found)\b"),
    # fans and boards cool and carry the whole server: the chassis, not a GPU's sensor
    ("server_chassis", r"\bfans?\b|motherboard|chassis"),
    ("gpu_thermal", r"thermal|sensor|overheat|temperature"),
    ("nccl_watchdog", r"nccl|watchdog|collective timeout"),
    ("nic", r"\bnic\b|\befa\b|network (interface|adapter|card)|\bhca\b"),
    ("network_switch_cable", r"switch|cable|\blink\b|optic|transceiver|fabric|infiniband"),
    ("host_maintenance", r"maintenance"),
    ("ssd", r"\bssd|nvme|disk"),
    ("power_supply", r"power|\bpsu\b"),
    ("server_chassis", r"chassis"),
    ("io_expansion_board", r"io expansion|pcie|expansion board|riser"),
    ("dependency", r"dependency|storage service|scheduler"),
    ("system_memory", r"system memory|\bdimm|\bdram|host memory"),
    ("cpu", r"\bcpu\b|processor"),
    ("software_bug", r"software|\bbug|segfault|crash|exception|oom|out of memory"),
    ("faulty_gpu", r"\bgpu|\bxid|fell off the bus"),
)


@lru_cache(maxsize=1)
def llama3_taxonomy() -> tuple[dict[str, Any], ...]:
    """The Llama 3 405B root-cause table (arXiv:2407.21783, Table 5) from ``data/``.

    >>> sum(row["count"] for row in llama3_taxonomy())
    419

    Parameters
    ----------
    None
        The function takes no parameters.

    Returns
    -------
    tuple of dict
        One row per root-cause category: ``category``, ``label``, ``group``, ``count``
        [count] and ``percent_published`` [%].
    """
    with TAXONOMY_CSV.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return tuple(
        {**r, "count": int(r["count"]), "percent_published": float(r["percent_published"])}
        for r in rows
    )


def map_cause(text: str) -> str:
    """Map free-text cause onto a Llama 3 taxonomy category (``"unmapped"`` if none fits).

    >>> map_cause("GPU HBM3 uncorrectable ECC"), map_cause("NCCL watchdog timeout")
    ('gpu_hbm3', 'nccl_watchdog')

    Parameters
    ----------
    text : str
        Free-text cause of one failure, as the log gives it.

    Returns
    -------
    str
        A category of :func:`llama3_taxonomy`, or ``"unmapped"``.
    """
    norm = re.sub(r"[_\-/]+", " ", str(text).strip().lower())
    categories = {r["category"]: r for r in llama3_taxonomy()}
    key = norm.replace(" ", "_")
    if key in categories:
        return key
    for r in categories.values():
        if norm == r["label"].lower():
            return r["category"]
    for category, pattern in CAUSE_PATTERNS:
        if re.search(pattern, norm):
            return category
    return UNMAPPED


# --------------------------------------------------------------------------- rates
def poisson_rate_ci(count, exposure, confidence=0.95):
    """Exact (Garwood 1936) confidence interval of a Poisson rate count / exposure.

    lower = χ²_{α/2}(2k) / (2E), upper = χ²_{1−α/2}(2k + 2) / (2E), lower = 0 when k = 0
    (Garwood, Biometrika 28:437, 1936).  Units: those of 1 / exposure (e.g. per node-day).

    Parameters
    ----------
    count : observed events k [-].
    exposure : exposure E, e.g. node-days [node·day].
    confidence : two-sided level, e.g. 0.95.

    Returns
    -------
    (lower, upper) rate bounds [1/exposure unit].

    Examples
    --------
    >>> lo, hi = poisson_rate_ci(10, 1000.0)
    >>> round(lo, 6), round(hi, 6)
    (0.004795, 0.01839)
    """
    k = as_float_array(count)
    e = as_float_array(exposure)
    a = 1.0 - float(confidence)
    lo = np.where(k > 0, stats.chi2.ppf(a / 2, 2 * np.maximum(k, 1e-300)) / (2 * e), 0.0)
    hi = stats.chi2.ppf(1 - a / 2, 2 * k + 2) / (2 * e)
    return like_input(lo, count, exposure), like_input(hi, count, exposure)


def exponential_rate_ci(n_gaps, total_time, confidence=0.95):
    """Exact CI of an exponential rate from n complete gaps summing to ``total_time``.

    2·λ·T ~ χ²(2n), so λ ∈ [χ²_{α/2}(2n), χ²_{1−α/2}(2n)] / (2T) (Lawless 2003, §3.2).

    Parameters
    ----------
    n_gaps : int or array_like
        Complete gaps observed [count].
    total_time : float or array_like
        Sum of the gaps [h] (or any time unit; the rate is per that unit).
    confidence : float
        Two-sided level of the interval [fraction].

    Returns
    -------
    tuple of (float or ndarray, float or ndarray)
        Lower and upper bounds of the rate [per unit of ``total_time``].

    Examples
    --------
    >>> lo, hi = exponential_rate_ci(10, 100.0)
    >>> round(lo, 5), round(hi, 5)
    (0.04795, 0.17085)
    """
    n = as_float_array(n_gaps)
    t = as_float_array(total_time)
    a = 1.0 - float(confidence)
    lo = stats.chi2.ppf(a / 2, 2 * n) / (2 * t)
    hi = stats.chi2.ppf(1 - a / 2, 2 * n) / (2 * t)
    return like_input(lo, n_gaps, total_time), like_input(hi, n_gaps, total_time)


# --------------------------------------------------------------------------- TBF fits
def _weibull_profile_loglik(k: float, x: np.ndarray) -> float:
    """ℓ_p(k) = n ln k − n ln(mean xᵏ) + (k − 1) Σ ln x − n (scale profiled out)."""
    lx = np.log(x)
    n = x.size
    # log(mean(x^k)) computed stably via logsumexp
    lmean = float(np.logaddexp.reduce(k * lx) - math.log(n))
    return n * math.log(k) - n * lmean + (k - 1.0) * float(lx.sum()) - n


def weibull_observed_information(shape, scale, x):
    """Observed information matrix of the Weibull log-likelihood in (shape k, scale λ).

    With z = x/λ: −∂²ℓ/∂k² = n/k² + Σ zᵏ ln²z; −∂²ℓ/∂λ² = (k/λ²)[(k + 1) Σ zᵏ − n];
    −∂²ℓ/∂k∂λ = −(1/λ)[Σ zᵏ − n] − (k/λ) Σ zᵏ ln z (Lawless 2003, §5.2).

    Parameters
    ----------
    shape : float
        Weibull shape k [-].
    scale : float
        Weibull scale λ [h].
    x : ndarray
        Observed gaps [h].

    Returns
    -------
    ndarray
        2 × 2 observed information matrix in (k, λ).

    Examples
    --------
    >>> info = weibull_observed_information(1.0, 1.0, np.array([0.5, 1.0, 1.5]))
    >>> round(float(info[1, 1]), 6)
    3.0
    """
    x = np.asarray(x, dtype=float)
    k, lam = float(shape), float(scale)
    z = x / lam
    lz = np.log(z)
    zk = z**k
    n = x.size
    i_kk = n / k**2 + float(np.sum(zk * lz**2))
    i_ll = (k / lam**2) * ((k + 1) * float(np.sum(zk)) - n)
    i_kl = -(1 / lam) * (float(np.sum(zk)) - n) - (k / lam) * float(np.sum(zk * lz))
    return np.array([[i_kk, i_kl], [i_kl, i_ll]])


def _weibull_mle_shape(ly: np.ndarray) -> float | None:
    """The Weibull shape's maximum-likelihood estimate of gaps whose logarithms are ``ly``
    (rescaled to mean 1; location 0), or None when the likelihood still rises at
    :data:`WEIBULL_SHAPE_MAX`.

    Decided from the likelihood, not from a tolerance on the gaps: the profile
    log-likelihood ℓ_p(k) is strictly concave in k (its score n/k + Σ ln y − n·Σ yᵏ ln y /
    Σ yᵏ falls with k: the last term is a mean of ln y weighted by yᵏ, whose derivative in
    k is that weighting's variance of ln y, ≥ 0), so a positive score at the top of the
    shape range means the likelihood is still rising there and its maximum lies beyond.
    Every gap the same: it rises without bound; gaps seconds apart (a nightly job killing a
    node, QA pass 29): it peaks at a shape in the thousands.  A shape past
    WEIBULL_SHAPE_MAX is a coefficient of variation under ~1.3% (≈ 1.28/k), clockwork
    rather than a lifetime distribution, and its interval and the scale's Wald interval are
    numerically meaningless.  Otherwise the root of the score equation (Lawless 2003,
    eq. 5.1.6), unique by the concavity.

    Parameters
    ----------
    ly : numpy.ndarray
        Logarithms of the gaps rescaled to mean 1 [-].

    Returns
    -------
    float or None
        The shape [-], or None when it lies beyond the range.
    """
    if _profile_score(WEIBULL_SHAPE_MAX, ly) > 0:
        return None
    if _profile_score(WEIBULL_SHAPE_MIN, ly) < 0:  # gaps spread over e^±60: none real
        raise ValidationError(
            "failure log",
            f"the Weibull fit did not converge (shape below {WEIBULL_SHAPE_MIN:g})",
        )
    return float(
        optimize.brentq(
            _profile_score, WEIBULL_SHAPE_MIN, WEIBULL_SHAPE_MAX, args=(ly,), xtol=1e-12,
            rtol=1e-12,
        )
    )  # fmt: skip


def fit_tbf(gaps_h, confidence: float = 0.95) -> dict[str, float]:
    """Fit exponential and Weibull distributions to times between failures [h].

    Returns a flat dict (units in key names): exponential rate, mean and CI; Weibull
    shape (profile-likelihood CI), scale (Wald CI on the log scale) and mean; log
    likelihoods, AIC, LR-test p-value of exponential vs Weibull, KS distances and their
    (optimistic, see module docstring) p-values.

    Parameters
    ----------
    gaps_h : array_like
        Times between failures [h].
    confidence : float
        Two-sided level of every interval [fraction].

    Returns
    -------
    dict of str to float
        Exponential rate [per h] and mean [h] with CIs; Weibull shape [-], scale [h] and mean
        [h] with CIs; log likelihoods, AIC, LR-test p-value, KS distances and p-values [-].
        Every Weibull figure (:data:`WEIBULL_TBF_KEYS`) is NaN when the gaps are all the
        same or nearly (seconds apart in days): the Weibull likelihood then still rises at
        shape :data:`WEIBULL_SHAPE_MAX` (without bound when they are all the same).

    Examples
    --------
    >>> r = fit_tbf([1.0, 2.0, 3.0, 4.0])
    >>> r["exp_rate_per_h"], r["exp_mean_h"]
    (0.4, 2.5)
    """
    x = np.asarray(gaps_h, dtype=float)
    n = x.size
    if n < MIN_INCIDENTS - 1 or not np.all(np.isfinite(x)) or np.any(x <= 0):
        raise ValidationError(
            "failure log",
            f"needs at least {MIN_INCIDENTS} failures at distinct times to fit (has {n + 1})",
        )
    unit = float(x.mean())  # rescaled to mean 1: the shape is scale-free, the scale rescales
    y = x / unit
    # --- exponential (MLE scale = mean)
    _, exp_scale = stats.expon.fit(y, floc=0)
    rate = 1.0 / (exp_scale * unit)
    rate_lo, rate_hi = exponential_rate_ci(n, float(x.sum()), confidence)
    ll_exp = float(np.sum(stats.expon.logpdf(y, scale=exp_scale))) - n * math.log(unit)
    # --- Weibull (MLE with location fixed at 0): None when its likelihood still rises at
    # the top of the shape range (clockwork gaps: the exponential alone, Weibull figures NaN)
    shape = _weibull_mle_shape(np.log(y))
    if shape is None:
        return _exponential_only(n, rate, rate_lo, rate_hi, ll_exp, y, exp_scale)
    scale = float(np.mean(y**shape) ** (1.0 / shape))
    ll_max = _weibull_profile_loglik(shape, y)
    crit = stats.chi2.ppf(confidence, 1) / 2.0

    def g(k: float) -> float:
        return ll_max - _weibull_profile_loglik(k, y) - crit

    shape_lo = _bracket_root(g, shape, 0.01)
    shape_hi = _bracket_root(g, shape, 200.0)
    info = weibull_observed_information(shape, scale, y)
    try:
        cov = np.linalg.inv(info)
        se_log_scale = math.sqrt(max(cov[1, 1], 0.0)) / scale
    except np.linalg.LinAlgError:
        se_log_scale = math.inf
    zq = stats.norm.ppf(0.5 + confidence / 2)
    ll_w = ll_max - n * math.log(unit)
    lr = max(0.0, 2.0 * (ll_w - ll_exp))
    ks_exp = stats.kstest(y, stats.expon(scale=exp_scale).cdf)
    ks_w = stats.kstest(y, stats.weibull_min(shape, scale=scale).cdf)
    scale_h = scale * unit
    return {
        "n_gaps": int(n),  # a whole count: JSON writes it as 12, not 12.0
        "exp_rate_per_h": float(rate),
        "exp_rate_per_h_lo": float(rate_lo),
        "exp_rate_per_h_hi": float(rate_hi),
        "exp_mean_h": float(1.0 / rate),
        "weibull_shape": float(shape),
        "weibull_shape_lo": float(shape_lo),
        "weibull_shape_hi": float(shape_hi),
        "weibull_scale_h": float(scale_h),
        "weibull_scale_h_lo": float(scale_h * math.exp(-zq * se_log_scale)),
        "weibull_scale_h_hi": float(scale_h * math.exp(zq * se_log_scale)),
        "weibull_mean_h": float(scale_h * math.gamma(1.0 + 1.0 / shape)),
        "loglik_exponential": ll_exp,
        "loglik_weibull": float(ll_w),
        "aic_exponential": 2.0 * 1 - 2.0 * ll_exp,
        "aic_weibull": 2.0 * 2 - 2.0 * float(ll_w),
        "lr_statistic": float(lr),
        "lr_p_value": float(stats.chi2.sf(lr, 1)),
        "ks_exponential": float(ks_exp.statistic),
        "ks_exponential_p_optimistic": float(ks_exp.pvalue),
        "ks_weibull": float(ks_w.statistic),
        "ks_weibull_p_optimistic": float(ks_w.pvalue),
    }


#: The Weibull keys of :func:`fit_tbf`, NaN when the gaps have too little spread to fit one
WEIBULL_TBF_KEYS = (
    "weibull_shape",
    "weibull_shape_lo",
    "weibull_shape_hi",
    "weibull_scale_h",
    "weibull_scale_h_lo",
    "weibull_scale_h_hi",
    "weibull_mean_h",
    "loglik_weibull",
    "aic_weibull",
    "lr_statistic",
    "lr_p_value",
    "ks_weibull",
    "ks_weibull_p_optimistic",
)


def _exponential_only(n, rate, rate_lo, rate_hi, ll_exp, y, exp_scale) -> dict[str, float]:
    """:func:`fit_tbf` of gaps that are (nearly) all the same: the exponential fit, and NaN
    for every Weibull figure (:data:`WEIBULL_TBF_KEYS`), which such gaps cannot estimate."""
    ks_exp = stats.kstest(y, stats.expon(scale=exp_scale).cdf)
    return {
        "n_gaps": int(n),
        "exp_rate_per_h": float(rate),
        "exp_rate_per_h_lo": float(rate_lo),
        "exp_rate_per_h_hi": float(rate_hi),
        "exp_mean_h": float(1.0 / rate),
        **dict.fromkeys(WEIBULL_TBF_KEYS, math.nan),
        "loglik_exponential": ll_exp,
        "aic_exponential": 2.0 * 1 - 2.0 * ll_exp,
        "ks_exponential": float(ks_exp.statistic),
        "ks_exponential_p_optimistic": float(ks_exp.pvalue),
    }


#: The range of the job's Weibull shape fitted [-]: past the top the gaps are too regular
#: for a Weibull (:func:`fit_tbf`), below the bottom no real log's gaps reach
WEIBULL_SHAPE_MIN, WEIBULL_SHAPE_MAX = 0.02, 100.0


def _profile_score(k: float, ly: np.ndarray) -> float:
    """dℓ_p/dk = n/k + Σ ln y − n Σ yᵏ ln y / Σ yᵏ of complete gaps with logs ``ly``
    (Lawless 2003, eq. 5.1.6), strictly decreasing in k; computed stably."""
    n = ly.size
    w = np.exp(k * ly - np.max(k * ly))
    return n / k + float(ly.sum()) - n * float(np.sum(w * ly) / np.sum(w))


def _bracket_root(g, start: float, end: float) -> float:
    """Root of g between ``start`` (g < 0) and ``end``; ``end`` itself if g never crosses."""
    if g(end) < 0:
        return end
    return float(optimize.brentq(g, min(start, end), max(start, end), xtol=1e-10, rtol=1e-10))


def incident_gaps_h(time_h) -> np.ndarray:
    """Hours between consecutive distinct failure times (identical times = one incident).

    >>> incident_gaps_h([0.0, 2.0, 2.0, 5.0]).tolist()
    [2.0, 3.0]

    Parameters
    ----------
    time_h : array_like
        Failure times [h].

    Returns
    -------
    ndarray
        Gaps between consecutive distinct failure times [h].
    """
    return np.diff(np.unique(np.asarray(time_h, dtype=float)))


def tbf_survival(gaps_h, tbf: dict[str, float], n_grid: int = 200) -> dict[str, np.ndarray]:
    """Empirical and fitted survival P(TBF > t) of times between failures.

    Empirical: S(t_(i)) = 1 − (i − 0.5)/n at the sorted gaps (Hazen plotting position).
    Fitted: exp(−λt) and exp(−(t/η)ᵏ) on a log-spaced grid [h].

    Parameters
    ----------
    gaps_h : array_like
        Times between failures [h].
    tbf : dict of str to float
        The fit of :func:`fit_tbf` on those gaps.
    n_grid : int
        Points of the log-spaced grid of the fitted curves [count].

    Returns
    -------
    dict of str to ndarray
        Sorted gaps [h] and their empirical survival [fraction]; the grid [h] and the
        exponential and Weibull survival on it [fraction].

    Examples
    --------
    >>> s = tbf_survival([1.0, 2.0, 3.0, 4.0], fit_tbf([1.0, 2.0, 3.0, 4.0]), n_grid=3)
    >>> s["empirical_survival"].tolist()
    [0.875, 0.625, 0.375, 0.125]
    """
    x = np.sort(np.asarray(gaps_h, dtype=float))
    n = x.size
    lo = max(float(x[0]) / 2.0, 1e-6)
    t = np.geomspace(lo, float(x[-1]) * 1.5, n_grid)
    return {
        "empirical_h": x,
        "empirical_survival": 1.0 - (np.arange(1, n + 1) - 0.5) / n,
        "grid_h": t,
        "exponential_survival": np.exp(-tbf["exp_rate_per_h"] * t),
        # NaN where the gaps have no spread to fit a Weibull (fit_tbf)
        "weibull_survival": np.exp(-((t / tbf["weibull_scale_h"]) ** tbf["weibull_shape"])),
    }


def node_gaps_h(time_h, node_id, end_h: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per-node times between failures [h]: complete gaps and right-censored residuals.

    For each node, the gaps between its consecutive failures are complete; the time from
    its last failure to the end of observation ``end_h`` (default: the last failure in the
    log) is right-censored.  The time before a node's first failure is not used (the
    likelihood is conditioned on the first event, Lawless 2003, §1.4).

    Parameters
    ----------
    time_h : array_like
        Failure times [h].
    node_id : array_like of str
        Node of each failure.
    end_h : float, optional
        End of observation [h]; default: the last failure time.

    Returns
    -------
    tuple of (ndarray, ndarray)
        Complete per-node gaps [h] and right-censored residuals [h].

    Examples
    --------
    >>> g, c = node_gaps_h([0.0, 1.0, 3.0, 4.0], ["a", "b", "a", "a"], end_h=10.0)
    >>> g.tolist(), sorted(c.tolist())
    ([3.0, 1.0], [6.0, 9.0])
    """
    t = np.asarray(time_h, dtype=float)
    ids = np.asarray(node_id)
    if t.size == 0:
        return np.empty(0), np.empty(0)
    end = float(t.max()) if end_h is None else float(end_h)
    order = np.lexsort((t, ids))
    t, ids = t[order], ids[order]
    same = ids[1:] == ids[:-1]
    gaps = np.diff(t)[same]
    last = np.r_[~same, True]
    censored = end - t[last]
    return gaps[gaps > 0], censored[censored > 0]


def fit_weibull_censored(gaps_h, censored_h=(), confidence: float = 0.95) -> dict[str, float]:
    """Weibull MLE of renewal gaps with right-censoring, shape CI by profile likelihood.

    With d complete gaps tᵢ and censored times cⱼ, the scale profiles out as
    η̂(k)ᵏ = (Σ tᵢᵏ + Σ cⱼᵏ) / d, giving ℓ_p(k) = d ln k − d ln η̂(k)ᵏ + (k − 1) Σ ln tᵢ − d;
    k̂ solves dℓ_p/dk = 0 (Lawless 2003, §5.2.2).  The exponential rate is d / (Σt + Σc).

    Parameters
    ----------
    gaps_h : array_like
        Complete gaps [h].
    censored_h : array_like
        Right-censored times [h].
    confidence : float
        Two-sided level of the shape interval [fraction].

    Returns
    -------
    dict of str to float
        Weibull shape [-] with its profile-likelihood CI, scale [h], exponential rate [per h]
        the counts of complete and censored gaps [count] and the log likelihood [-].

    Examples
    --------
    >>> r = fit_weibull_censored([1.0, 2.0, 3.0], [4.0])
    >>> round(r["exp_rate_per_h"], 4)
    0.3
    """
    x = np.asarray(gaps_h, dtype=float)
    c = np.asarray(censored_h, dtype=float)
    d = x.size
    if d < 2 or not (np.all(x > 0) and np.all(np.isfinite(x)) and np.all(c > 0)):
        raise ValidationError(
            "failure log",
            f"has {d} repeat failures of the same node; the per-node Weibull shape needs at "
            "least 2 (a longer log or a bigger fleet)",
        )
    unit = float(np.mean(np.r_[x, c]))
    y, z = x / unit, c / unit
    ly = np.log(y)
    lall = np.log(np.r_[y, z])
    sum_ly = float(ly.sum())

    def loglik(k: float) -> float:
        return (
            d * math.log(k) - d * (float(logsumexp(k * lall)) - math.log(d)) + (k - 1) * sum_ly - d
        )

    def score(k: float) -> float:
        w = np.exp(k * lall - np.max(k * lall))
        return d / k + sum_ly - d * float(np.sum(w * lall) / np.sum(w))

    if score(100.0) > 0 or score(0.01) < 0:
        raise ValidationError("failure log", "the per-node Weibull fit did not converge")
    shape = float(optimize.brentq(score, 0.01, 100.0, xtol=1e-12, rtol=1e-12))
    ll_max = loglik(shape)
    crit = stats.chi2.ppf(confidence, 1) / 2.0

    def g(k: float) -> float:
        return ll_max - loglik(k) - crit

    scale = unit * math.exp((float(logsumexp(shape * lall)) - math.log(d)) / shape)
    total = float(x.sum() + c.sum())
    return {
        "n_gaps": int(d),  # whole counts: JSON writes them as 12, not 12.0
        "n_censored": int(c.size),
        "weibull_shape": shape,
        "weibull_shape_lo": _bracket_root(g, shape, 0.005),
        "weibull_shape_hi": _bracket_root(g, shape, 200.0),
        "weibull_scale_h": scale,
        "exp_rate_per_h": d / total,
        "loglik_weibull": ll_max - d * math.log(unit),
    }


# --------------------------------------------------------------------------- lemon nodes
def lemon_p_values(counts, total_failures, nodes):
    """Upper-tail p-values P(X ≥ k) for X ~ Binomial(n, 1/N), one per node count k.

    Under "every node fails at the same rate", each of n failures hits a given node of N
    with probability 1/N.

    Parameters
    ----------
    counts : int or array_like
        Failures of each node, k [count].
    total_failures : int
        Failures in the log, n [count].
    nodes : int
        Nodes observed, N [count].

    Returns
    -------
    float or ndarray
        P(X ≥ k) per node [fraction], shaped like ``counts``.

    Examples
    --------
    >>> round(lemon_p_values(3, 10, 10), 5)  # P(Binomial(10, 0.1) >= 3)
    0.07019
    """
    k = as_float_array(counts)
    n = as_float_array(total_failures)
    big_n = as_float_array(nodes)
    p = stats.binom.sf(k - 1, n, 1.0 / big_n)
    return like_input(p, counts, total_failures, nodes)


# --------------------------------------------------------------------------- job level
def split_job_level(time_h, node_ids) -> tuple[int, int]:
    """(node incidents, job-level incidents) of a log: incidents are distinct failure
    times; one counts as job-level when every failure at that time is marked job-level
    (:func:`job_level_mask`).  Kokolis et al. 2024 (arXiv:2410.21680) show why the two
    differ: small jobs fail far more often than nodes × the node rate predicts.

    Parameters
    ----------
    time_h : array_like
        Failure times [h].
    node_ids : array_like of str
        Node id of each failure.

    Returns
    -------
    tuple of (int, int)
        Node incidents and job-level incidents [count].
    """
    t = np.asarray(time_h, dtype=float)
    job = job_level_mask(node_ids)
    if t.size == 0:
        return 0, 0
    times, inverse = np.unique(t, return_inverse=True)
    node_at = np.bincount(inverse, weights=~job, minlength=times.size) > 0
    return int(node_at.sum()), int((~node_at).sum())


# --------------------------------------------------------------------------- repair times
#: Fewest downtimes a repair time is fitted from [count]
MIN_REPAIRS = 5
#: Bootstrap resamples of the repair figures' intervals, and their fixed seed (the same log
#: gives the same interval every time)
REPAIR_BOOTSTRAP_RESAMPLES = 999
REPAIR_BOOTSTRAP_SEED = 20261206


def _repair_statistics(minutes, axis=-1):
    """(mean [h], lognormal shape) of downtimes [min] along ``axis``: σ = √(2·ln(mean/median)),
    0 where the mean is not above the median (a bootstrap draw's, not the point estimate)."""
    mean = np.mean(minutes, axis=axis)
    median = np.median(minutes, axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(median > 0, mean / median, np.inf)
    return np.stack([mean / 60.0, np.sqrt(2.0 * np.log(np.maximum(ratio, 1.0)))])


def fit_repair_times(downtime_minutes, confidence: float = 0.95) -> dict[str, float] | None:
    """The repair time of failed nodes from a log's downtimes: the mean, the median and the
    shape of the lognormal with that mean and median.

    The mean is what the analytic model needs: Erlang's loss formula, which gives the chance
    that a failure finds no free spare, depends on the repair time's distribution only
    through its mean (its insensitivity, ``erlang1917``; Kleinrock 1975 §3.7), and repairs
    running side by side cost Daly's recovery at the mean repair
    (:func:`models.reliability.overlapping_repairs_minutes`).  The simulator draws repairs
    from a lognormal of mean ``reliability.repair_hours`` and shape
    ``simulation.repair_sigma`` (repair times are lognormal in the LANL data,
    ``schroeder2006``); the lognormal whose median e^μ and mean e^(μ + σ²/2) are the log's
    has σ = √(2·ln(mean/median)), so the simulator keeps both the log's mean and its typical
    repair.  Intervals: percentile bootstrap (``efron1993`` ch. 13) of
    :data:`REPAIR_BOOTSTRAP_RESAMPLES` resamples with a fixed seed.

    Parameters
    ----------
    downtime_minutes : array_like
        Each node failure's downtime, the time its node was out of service [min]; NaN
        (not given) is left out.
    confidence : float
        Two-sided level of the intervals [fraction].

    Returns
    -------
    dict of str to float, or None
        ``repairs`` [count] and ``repairs_zero`` (downtimes of 0) [count],
        ``repair_hours_median``, ``repair_hours_mean``, ``repair_hours_mean_lo``,
        ``repair_hours_mean_hi`` [h], ``repair_sigma``, ``repair_sigma_lo``,
        ``repair_sigma_hi`` [-] (``repair_sigma`` 0 where every downtime is the same, NaN
        where the mean is below the median: no lognormal has them); None with fewer than
        :data:`MIN_REPAIRS` downtimes.
    """
    d = np.asarray(downtime_minutes, dtype=float)
    d = d[np.isfinite(d)]
    if d.size < MIN_REPAIRS:
        return None
    mean_h, sigma = _repair_statistics(d)
    median_h = float(np.median(d)) / 60.0
    if float(mean_h) < median_h * (1.0 - 1e-12):
        sigma = math.nan  # skewed left: no lognormal has this mean and median
    if np.all(d == d[0]):  # every resample is the sample: no spread to bootstrap
        lo = hi = np.array([mean_h, sigma])
    else:
        ci = stats.bootstrap(
            (d,),
            _repair_statistics,
            n_resamples=REPAIR_BOOTSTRAP_RESAMPLES,
            method="percentile",
            confidence_level=confidence,
            rng=np.random.default_rng(REPAIR_BOOTSTRAP_SEED),
            vectorized=True,
            batch=max(1, min(REPAIR_BOOTSTRAP_RESAMPLES, 4_000_000 // d.size)),
        ).confidence_interval
        lo, hi = np.asarray(ci.low, dtype=float), np.asarray(ci.high, dtype=float)
    nan = math.isnan(sigma)
    return {
        "repairs": int(d.size),
        "repairs_zero": int(np.sum(d == 0.0)),
        "repair_hours_median": median_h,
        "repair_hours_mean": float(mean_h),
        "repair_hours_mean_lo": float(lo[0]),
        "repair_hours_mean_hi": float(hi[0]),
        "repair_sigma": float(sigma),
        "repair_sigma_lo": math.nan if nan else float(lo[1]),
        "repair_sigma_hi": math.nan if nan else float(hi[1]),
    }


# --------------------------------------------------------------------------- orchestrator
@dataclass(frozen=True)
class LogFit:
    """Everything fitted from one failure log (see the module docstring for methods)."""

    #: nodes observed [count]; 0 when the log names no node (every failure is marked as the
    #: job's own) and no fleet size is given
    nodes: int
    nodes_from_log: bool
    n_failures: int
    n_incidents: int
    span_days: float
    confidence: float
    tbf: dict[str, float]
    node_failure_rate_per_day: float
    #: the rate's exact Poisson interval [per node-day]; the high end NaN without node-days
    #: (``nodes`` 0: a log naming no node, no fleet size given)
    node_failure_rate_per_day_lo: float
    node_failure_rate_per_day_hi: float
    causes: list[dict[str, Any]] = field(default_factory=list)
    lemons: list[dict[str, Any]] = field(default_factory=list)
    lemon_alpha: float = 0.05
    #: median downtime of the node failures (not the job's own) [min]; NaN when none is given
    median_downtime_minutes: float = math.nan
    node_tbf: dict[str, float] | None = None
    #: why ``node_tbf`` is None ("no node failed twice", "the repeat failures are all on the
    #: 2 lemon nodes, which the per-node fit leaves out" ...); "" when it is fitted
    node_tbf_why: str = ""
    #: job-level interruptions per day (failures the log marks as the job's own, node id
    #: "job", "*", "-" ...) with their interval; None when the log marks none
    job_interruptions_per_day: float | None = None
    job_interruptions_per_day_lo: float | None = None
    job_interruptions_per_day_hi: float | None = None
    n_job_incidents: int = 0
    #: failures the log marks as the job's own (not incidents: rows); the lemon test and the
    #: per-node shape count only the other n_failures - n_job_failures [count]
    n_job_failures: int = 0
    #: the node failures' repair time (:func:`fit_repair_times`); None when the log gives
    #: fewer than :data:`MIN_REPAIRS` downtimes
    repair: dict[str, float] | None = None
    #: downtimes the log gives for node failures (not the job's own) [count]
    n_downtimes: int = 0
    #: (row, earlier row) of the rows the reader dropped as repeats
    #: (:func:`models.failure_log.drop_duplicate_rows`)
    duplicates: tuple[tuple[int, int], ...] = ()
    #: longest less shortest time between incidents [h]: how far from clockwork gaps are
    #: whose Weibull is not estimable (:func:`fit_tbf`), 0 when they are all the same
    job_gap_spread_h: float = 0.0

    @property
    def node_incidents(self) -> int:
        """Incidents with a node to blame, k of the node failure rate [count]."""
        return self.n_incidents - self.n_job_incidents

    @property
    def node_days(self) -> float:
        """The node exposure E of the node failure rate, nodes × span · n/(n − 1) [node·day]
        (:func:`fit_failure_log`); 0 when the log names no node and no fleet size is given."""
        return self.nodes * self.span_days * self.n_incidents / (self.n_incidents - 1)

    @property
    def weibull_shape(self) -> float | None:
        """Per-node Weibull shape (the scenario's ``reliability.weibull_shape``, which the
        Monte Carlo simulator applies to each node's renewal process); None if not estimable."""
        return None if self.node_tbf is None else self.node_tbf["weibull_shape"]

    def to_json_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nodes": self.nodes,
            "nodes_from_log": self.nodes_from_log,
            "failures": self.n_failures,
            "incidents": self.n_incidents,
            "span_days": self.span_days,
            "confidence_level": self.confidence,  # its intervals' level, as reconcile names it
            "node_failure_rate_per_day": self.node_failure_rate_per_day,
            "node_failure_rate_per_day_lo": self.node_failure_rate_per_day_lo,
            "node_failure_rate_per_day_hi": _json_number(self.node_failure_rate_per_day_hi),
            "median_downtime_minutes": (
                None if math.isnan(self.median_downtime_minutes) else self.median_downtime_minutes
            ),
            **{f"job_{k}": _json_number(v) for k, v in self.tbf.items()},
            **{f"node_{k}": v for k, v in (self.node_tbf or {}).items()},
            "weibull_shape": self.weibull_shape,
            "job_incidents": self.n_job_incidents,
            "job_interruptions_per_day": self.job_interruptions_per_day,
            "job_interruptions_per_day_lo": self.job_interruptions_per_day_lo,
            "job_interruptions_per_day_hi": self.job_interruptions_per_day_hi,
            "causes": self.causes,
            "lemon_test": "binomial upper tail per node, Bonferroni over "
            f"{counted(self.nodes, 'node')}, "
            f"alpha {self.lemon_alpha:g}",
            "lemon_nodes": self.lemons,
            "duplicates": len(self.duplicates),
            **{k: _json_number(v) for k, v in (self.repair or dict.fromkeys(REPAIR_KEYS)).items()},
        }
        return out


#: The keys of :func:`fit_repair_times`, in its order (``goodput fit --json`` writes them,
#: null when the log gives too few downtimes)
REPAIR_KEYS = (
    "repairs",
    "repairs_zero",
    "repair_hours_median",
    "repair_hours_mean",
    "repair_hours_mean_lo",
    "repair_hours_mean_hi",
    "repair_sigma",
    "repair_sigma_lo",
    "repair_sigma_hi",
)


def _json_number(value: float | None) -> float | None:
    """A figure as JSON writes it: None (null) for a missing or NaN value."""
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def _observed_nodes(
    log: FailureLog, nodes: int | None, field: str, stated_row: int | None = None
) -> tuple[int, bool]:
    """``(N, from_log)``: the nodes observed [count] (``nodes``, checked to be a whole number
    of at least the distinct real nodes in the log and at least 1, or those distinct nodes:
    0 when the log names no node, every failure marked as the job's own) and whether N came
    from the log.  Job-level marks (:data:`JOB_NODE_IDS`) are not nodes.  ``stated_row``: the
    row of the log's ``# nodes=N`` comment when ``nodes`` is its count, which a count below
    the distinct nodes then blames instead of ``field`` (QA pass 29)."""
    distinct = max(1, log.distinct_nodes)
    if nodes is None:
        big_n, from_log = log.distinct_nodes, True
    else:
        if isinstance(nodes, bool) or not isinstance(nodes, int | np.integer):
            raise ValidationError(field, f"{nodes!r} is not a whole number of nodes")
        if stated_row is not None and nodes < distinct:
            remedy = f"give {field}" if field.startswith("-") else f"enter the fleet under {field}"
            raise ValidationError(
                f"row {stated_row}",
                f"the comment '# nodes={nodes}' states {counted(nodes, 'node')}, fewer than the "
                f"{distinct:,} distinct nodes in the log: correct the comment or {remedy}",
            )
        if not distinct <= nodes <= 10_000_000:
            what = "distinct node" if distinct == 1 else f"{distinct:,} distinct nodes"
            raise ValidationError(
                field,
                f"{nodes:,} is out of range (at least the {what} in the log, at most 10,000,000)",
            )
        big_n, from_log = int(nodes), False
    return big_n, from_log


def _cause_rates(log: FailureLog, node_days: float, confidence: float) -> list[dict]:
    """One row per Llama 3 category (and the unmapped causes, if any): failures k, share
    k / n, rate k_node / node-days [per node-day] (``node_days``: the exposure the node
    failure rate implies, :func:`fit_failure_log`) with its exact Poisson interval, next to the
    Llama 3 count of 419 interruptions (arXiv:2407.21783, Table 5).  k_node leaves out the
    failures marked as the job's own (:func:`job_level_mask`), as the node rate does: they
    are no node's, and are fitted as the job-level rate.  With no node-days (a log that
    names no node and no fleet size) the rates are 0 with no upper end (None)."""
    uniq, inverse = np.unique(log.cause, return_inverse=True)  # map each distinct text once
    mapped = np.array([map_cause(c) for c in uniq], dtype=object)[inverse].astype(str)
    on_node = ~job_level_mask(log.node_id)
    rows = []
    for r in (
        *llama3_taxonomy(),
        {
            "category": UNMAPPED,
            "label": "Unmapped",
            "group": "-",
            "count": 0,
            "percent_published": 0.0,
        },
    ):
        k = int(np.sum(mapped == r["category"]))
        if k == 0 and r["category"] == UNMAPPED:
            continue
        k_node = int(np.sum((mapped == r["category"]) & on_node))
        lo, hi = _node_rate_ci(k_node, node_days, confidence)
        # the log's three most frequent names of the cause (ties alphabetically)
        names, counts = np.unique(log.cause[mapped == r["category"]], return_counts=True)
        examples = [str(names[j]) for j in np.lexsort((names, -counts))[:3]]
        rows.append(
            {
                "category": r["category"],
                "label": r["label"],
                "group": r["group"],
                "failures": k,
                "share": k / len(log),
                "rate_per_node_day": k_node / node_days if node_days > 0 else 0.0,
                "rate_per_node_day_lo": lo,
                "rate_per_node_day_hi": None if math.isnan(hi) else hi,
                "llama3_failures": r["count"],
                "llama3_share": r["count"] / 419.0,
                "causes_in_log": ", ".join(examples),
            }
        )
    return rows


def _lemon_nodes(log: FailureLog, big_n: int, lemon_alpha: float) -> list[dict]:
    """Nodes whose failure count is improbably high under a uniform spread of the n node
    failures over N nodes: Bonferroni-corrected p-value N * p < ``lemon_alpha``, sorted by
    p-value.  Failures marked as the job's own (:data:`JOB_NODE_IDS`) are no node's."""
    node_ids = log.node_id[~job_level_mask(log.node_id)]
    ids, counts = np.unique(node_ids, return_counts=True)
    n_fail = int(node_ids.size)
    if n_fail == 0:  # no node failed (nor, without a fleet size, any node to test)
        return []
    p = np.asarray(lemon_p_values(counts, n_fail, big_n), dtype=float)
    flagged = np.flatnonzero(p * big_n < lemon_alpha)
    return sorted(
        (
            {
                "node_id": str(ids[i]),
                "failures": int(counts[i]),
                "expected_failures": n_fail / big_n,
                "p_value": float(p[i]),
                "p_value_bonferroni": float(min(1.0, p[i] * big_n)),
            }
            for i in flagged
        ),
        key=lambda d: d["p_value"],
    )


def _node_shape(log: FailureLog, lemons: list[dict], confidence: float) -> tuple[dict | None, str]:
    """The per-node Weibull fit on the nodes that are not lemons (pooling a few fast-failing
    nodes with the rest mimics a decreasing hazard, a mixture of rates, which the lemon test
    reports) nor the job's own marks (no node's renewal process) and ""; or None and why
    the shape is not estimable: no node failed twice, too few repeat failures, or the
    repeat failures are on the lemon nodes the fit leaves out (QA pass 29)."""
    on_node = ~job_level_mask(log.node_id)
    keep = on_node & ~np.isin(log.node_id, [lemon["node_id"] for lemon in lemons])
    end = float(log.time_h[-1])
    gaps, censored = node_gaps_h(log.time_h[keep], log.node_id[keep], end)
    if gaps.size < 2:
        every = node_gaps_h(log.time_h[on_node], log.node_id[on_node], end)[0].size
        return None, _too_few_repeats(gaps.size, every - gaps.size, len(lemons))
    try:
        return fit_weibull_censored(gaps, censored, confidence), ""
    except ValidationError as exc:
        return None, exc.message


def _too_few_repeats(kept: int, on_lemons: int, lemons: int) -> str:
    """Why the per-node shape is not estimable: ``kept`` repeat failures (complete per-node
    gaps) outside the lemons, fewer than 2, and ``on_lemons`` on the ``lemons`` lemon nodes
    (which the per-node fit leaves out) [count]."""
    if not on_lemons:
        if not kept:
            return "no node failed twice"
        return "only 1 repeat failure of a node; the shape needs at least 2"
    which = f"the {counted(lemons, 'lemon node')}"
    if not kept:
        return f"the repeat failures are all on {which}, which the per-node fit leaves out"
    return (
        f"{counted(kept, 'repeat failure')} outside {which}, which the per-node fit leaves "
        "out; the shape needs at least 2"
    )


def _median_or_nan(x: np.ndarray) -> float:
    """The median of the finite values [their unit]; NaN when none is."""
    finite = x[np.isfinite(x)]
    return float(np.median(finite)) if finite.size else math.nan


def _node_rate_ci(k: int, node_days: float, confidence: float) -> tuple[float, float]:
    """(low, high) [per node-day] of k node failures over ``node_days`` [node·day]: the exact
    Poisson interval (:func:`poisson_rate_ci`, ``garwood1936``; low 0 and high the exact
    bound χ²_{1−α/2}(2)/(2E) when k = 0, as ``goodput reconcile`` gives); (0, NaN) without
    node-days (a log naming no node, no fleet size given): no upper bound to give."""
    if node_days <= 0:
        return 0.0, math.nan
    lo, hi = poisson_rate_ci(k, node_days, confidence)
    return float(lo), float(hi)


def _job_level_rate(n_job: int, days: float, confidence: float):
    """(rate, low, high) [per day] of the incidents a log marks as the job's own over the
    exposure ``days`` [d] the node rate implies (exact Poisson interval, ``garwood1936``);
    (None, None, None) when the log marks none."""
    if not n_job:
        return None, None, None
    if days <= 0:
        return math.inf, None, None
    lo, hi = poisson_rate_ci(n_job, days, confidence)
    return n_job / days, float(lo), float(hi)


def fit_failure_log(
    log: FailureLog,
    nodes: int | None = None,
    *,
    confidence: float = 0.95,
    lemon_alpha: float = 0.05,
    nodes_field: str = "--nodes",
    stated_row: int | None = None,
) -> LogFit:
    """Fit a parsed failure log (methods in the module docstring).

    Parameters
    ----------
    log : FailureLog
        Parsed log (:func:`models.failure_log.parse_failure_log`).
    nodes : int or None
        Nodes observed during the log [count]; default: distinct node ids in the log, not
        counting the job-level marks of :data:`JOB_NODE_IDS` (nodes that never failed are
        then missing, so the per-node rate is an upper bound).
    confidence : float
        Two-sided level of every interval [fraction].
    lemon_alpha : float
        Family-wise error rate of the lemon-node test [fraction].
    nodes_field : str
        Name of the ``nodes`` input in messages (the CLI's ``--nodes``, a page's box).
    stated_row : int or None
        The row of the log's ``# nodes=N`` comment when ``nodes`` is the count it states
        (:func:`models.failure_log.stated_nodes_row`): a count below the log's distinct
        nodes is then blamed on that comment, not on ``nodes_field``.

    Returns
    -------
    LogFit
        Time between failures (exponential and Weibull), node failure rate [per node-day]
        with its interval, per-cause rates against Llama 3 (arXiv:2407.21783, Table 5),
        lemon nodes, median downtime [min], job-level interruptions [per day] and the
        node failures' repair time (:func:`fit_repair_times`; the job's own failures have
        no node to repair).
    """
    big_n, from_log = _observed_nodes(log, nodes, nodes_field, stated_row)
    if not 0.5 <= confidence < 1.0:
        raise ValidationError("confidence", f"{confidence!r} is out of range ([0.5, 1))")
    if not 0.0 < lemon_alpha < 1.0:
        raise ValidationError("lemon_alpha", f"{lemon_alpha!r} is out of range ((0, 1))")
    incidents = np.unique(log.time_h)
    if incidents.size < MIN_INCIDENTS:
        raise ValidationError(
            "failure log",
            f"has {counted(incidents.size, 'distinct failure time')}; fitting needs at least "
            f"{MIN_INCIDENTS}",
        )
    gaps = np.diff(incidents)
    tbf = fit_tbf(gaps, confidence)
    span_days = float((incidents[-1] - incidents[0]) / HOURS_PER_DAY)
    # the exposure the rates imply: the exponential MLE counts n − 1 gaps of n incidents
    # over the span, i.e. n incidents over span · n/(n − 1) days; every rate (node, job-level,
    # each cause) is over it, so that a cause holding every failure of a log without
    # simultaneous failures reads the node failure rate, and node and job-level rates add
    # up to the incidents' (QA pass 26)
    days = span_days * incidents.size / (incidents.size - 1)
    node_days = big_n * days
    rows = _cause_rates(log, node_days, confidence)
    n_fail = len(log)
    lemons = _lemon_nodes(log, big_n, lemon_alpha)
    node_tbf, node_tbf_why = _node_shape(log, lemons, confidence)
    # job-level interruptions, when the log marks them: the node rate counts only the
    # incidents with a node to blame, its interval the exact Poisson one of those incidents
    # (not the interval of all incidents scaled by their share: QA pass 29)
    n_node, n_job = split_job_level(log.time_h, log.node_id)
    node_lo, node_hi = _node_rate_ci(n_node, node_days, confidence)
    node_downtimes = log.downtime_minutes[~job_level_mask(log.node_id)]
    job, job_lo, job_hi = _job_level_rate(n_job, days, confidence)
    return LogFit(
        nodes=big_n,
        nodes_from_log=from_log,
        n_failures=n_fail,
        n_incidents=int(incidents.size),
        span_days=span_days,
        confidence=confidence,
        tbf=tbf,
        node_failure_rate_per_day=n_node / node_days if node_days > 0 else 0.0,
        node_failure_rate_per_day_lo=node_lo,
        node_failure_rate_per_day_hi=node_hi,
        causes=rows,
        lemons=lemons,
        lemon_alpha=lemon_alpha,
        median_downtime_minutes=_median_or_nan(node_downtimes),
        node_tbf=node_tbf,
        node_tbf_why=node_tbf_why,
        job_interruptions_per_day=job,
        job_interruptions_per_day_lo=job_lo,
        job_interruptions_per_day_hi=job_hi,
        n_job_incidents=n_job,
        n_job_failures=int(job_level_mask(log.node_id).sum()),
        repair=fit_repair_times(node_downtimes, confidence),
        n_downtimes=int(np.sum(np.isfinite(node_downtimes))),
        duplicates=log.duplicates,
        job_gap_spread_h=float(np.ptp(gaps)),
    )


#: The scenario fields a fitted log sets (``goodput fit``'s ``--set`` line, the Failure log
#: page's button): the rate, the per-node shape, the job-level rate, the rate's 80% interval,
#: the nodes' mean repair time and the shape of its lognormal.
RATE_FIELD = "reliability.node_failure_rate_per_day"
SHAPE_FIELD = "reliability.weibull_shape"
JOB_FIELD = "reliability.job_interruptions_per_day"
INTERVAL_FIELDS = ("reliability.node_failure_rate_low", "reliability.node_failure_rate_high")
#: their level: the 80% interval ``goodput decide`` integrates (models.uncertainty)
INTERVAL_LEVEL = 0.8
REPAIR_FIELD = "reliability.repair_hours"
REPAIR_SIGMA_FIELD = "simulation.repair_sigma"


def _repair_values(fit: LogFit) -> tuple[list[tuple[str, float | None, str]], list[str]]:
    """The repair time a log gives, as (field, fitted value or None, why None) rows, and the
    one message when the log's downtimes are too few to fit (none when it gives none)."""
    r = fit.repair
    if r is None:
        if fit.n_downtimes == 0:
            return [], []
        return [], [
            f"{REPAIR_FIELD} and {REPAIR_SIGMA_FIELD}: not estimable from this log (it gives "
            f"{counted(fit.n_downtimes, 'downtime')} of node failures; fitting needs at least "
            f"{MIN_REPAIRS}); left unchanged"
        ]
    sigma = None if math.isnan(r["repair_sigma"]) else r["repair_sigma"]
    return [
        (REPAIR_FIELD, r["repair_hours_mean"], ""),
        (REPAIR_SIGMA_FIELD, sigma, "the downtimes' mean is below their median: no lognormal"),
    ], []


def scenario_values(fit: LogFit) -> tuple[dict[str, float], list[str]]:
    """The scenario fields a fitted log sets, and why any is left unchanged.

    The node failure rate, the per-node Weibull shape, the job-level interruption rate (when
    the log marks any), and, with the rate, its 80% interval: the exact Poisson interval of
    the node incidents over the node exposure the rate uses (the rule of the fit's own
    interval, :func:`_node_rate_ci`; low 0 and the exact upper bound when no node failed;
    none without node-days), the one ``goodput decide`` and the headline intervals
    integrate; and, when the log gives
    downtimes, the nodes' mean repair time and its lognormal shape (:func:`fit_repair_times`).
    Each value is rounded to 6 significant digits, as ``goodput fit`` prints them; a value
    outside its field's range is left out with a message, as is a shape no node's repeat
    failures can estimate and a repair time too few downtimes give.

    Parameters
    ----------
    fit : LogFit
        A fitted failure log (:func:`fit_failure_log`).

    Returns
    -------
    tuple of (dict of str to float, list of str)
        Field key -> value [the field's unit: per node-day, -, per day, h], in the order
        rate, shape, job-level rate, interval low, interval high, repair time, repair shape;
        and one message per value left out.
    """
    values: dict[str, float] = {}
    problems: list[str] = []
    fitted: list[tuple[str, float | None, str]] = [
        (RATE_FIELD, fit.node_failure_rate_per_day, ""),
        (SHAPE_FIELD, fit.weibull_shape, fit.node_tbf_why or "no node failed twice"),
    ]
    if fit.job_interruptions_per_day is not None:
        fitted.append((JOB_FIELD, fit.job_interruptions_per_day, ""))
    _accept(fitted, values, problems)
    iv = _node_rate_ci(fit.node_incidents, fit.node_days, INTERVAL_LEVEL)
    if not math.isnan(iv[1]) and RATE_FIELD in values:
        for key, end in zip(INTERVAL_FIELDS, iv, strict=True):
            values[key] = six_digits(min(1.0, end))
    repair, too_few = _repair_values(fit)
    problems += too_few
    _accept(repair, values, problems)
    return values, problems


def _accept(fitted, values: dict[str, float], problems: list[str]) -> None:
    """Each (field, fitted value or None, why None) into ``values`` at 6 significant digits
    where its field's range holds it, else a message into ``problems``."""
    for key, value, why in fitted:
        f = FIELDS[key]
        if value is None:
            problems.append(f"{key}: not estimable from this log ({why}); left unchanged")
        elif not ((f.min is None or value >= f.min) and (f.max is None or value <= f.max)):
            problems.append(f"{key}: fitted {value:.4g} is out of range ({f.allowed()})")
        else:
            values[key] = six_digits(value)


__all__ = [
    "JOB_NODE_IDS",
    "LogFit",
    "exponential_rate_ci",
    "fit_failure_log",
    "fit_tbf",
    "fit_weibull_censored",
    "incident_gaps_h",
    "job_level_mask",
    "lemon_p_values",
    "llama3_taxonomy",
    "map_cause",
    "node_gaps_h",
    "poisson_rate_ci",
    "scenario_values",
    "split_job_level",
    "tbf_survival",
    "weibull_observed_information",
]
