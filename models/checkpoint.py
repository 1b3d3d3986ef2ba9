"""Checkpoint tiers: size, save/restore time per tier, optimal intervals, two-level
strategies and the survival of in-memory checkpoint replicas.

All functions are numpy-vectorised (scalars or arrays in, same shape out; floats for
all-scalar input).  Times are in seconds (``_s``) for transfers and in minutes
(``_minutes``) for intervals and waste, bandwidths in GB/s (10^9 B/s), sizes in GB or TB.

Notation (``docs/references.md#notation``): M = job MTBF, δ (C) = blocking save time,
R = restart time, τ (T) = compute time between checkpoints.  Two-level strategy: level 1
(CPU memory with peer replicas, or local NVMe) every T₁, level 2 (shared file system or
object store) every T₂; a fraction φ of failures destroys every level-1 copy of some shard
and falls back to level 2.

References
----------
[1] J. W. Young, "A first order approximation to the optimum checkpoint interval",
    CACM 17(9):530-531, 1974. doi:10.1145/361147.361115
[2] J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart
    dumps", FGCS 22(3):303-312, 2006 (eq. 37). doi:10.1016/j.future.2004.11.016
[3] Z. Wang et al., "GEMINI: Fast Failure Recovery in Distributed Training with In-Memory
    Checkpoints", SOSP 2023. doi:10.1145/3600006.3613145
[4] A. Moody et al., "Design, Modeling, and Evaluation of a Scalable Multi-level
    Checkpointing System" (SCR), SC 2010. doi:10.1109/SC.2010.18
[5] Amazon SageMaker HyperPod managed tiered checkpointing (API ClusterTieredStorageConfig):
    CPU memory first, replicated across nodes, periodic persistence to Amazon S3.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from ._csv import read_text_file, strict_records
from ._resources import data_path
from ._tools import (
    MINUTES_PER_DAY,
    ZERO,
    as_float_array,
    fits_into,
    is_zero,
    like_input,
    product_into,
    sqrt_over,
    sum_into,
)
from .choices import DurableTier, Placement, SaveMode, Strategy, Timings, values
from .errors import ValidationError
from .goodput import (
    exact_optimal_interval_minutes,
    goodput_exact,
    waste_first_order,
    young_interval_minutes,
)

__all__ = [
    "TIER_NAMES",
    "Tier",
    "checkpoint_shard_GB",
    "checkpoint_size_TB",
    "daly_first_order_interval_minutes",
    "daly_higher_order_interval_minutes",
    "exact_optimal_interval_minutes",
    "fallback_fraction",
    "load_tiers",
    "parse_tiers",
    "probability_block_destroys_group",
    "probability_random_failures_destroy_group",
    "probability_replicas_lost_in_window",
    "tier_transfer_seconds",
    "two_level_goodput",
    "two_level_optimal_intervals_minutes",
    "two_level_waste_first_order",
    "young_interval_minutes",
]

# --------------------------------------------------------------------------- tier table
DEFAULT_TIERS = data_path("checkpoint_tiers.csv")
MAX_TIERS_BYTES = 256 * 1024
#: Tiers the strategies need, in the order of the page's table.
TIER_NAMES: tuple[str, ...] = ("memory", "nvme", "shared_fs", "object_store")


@dataclass(frozen=True)
class Tier:
    """One checkpoint tier.  Units are in the names; ``None`` = no such limit.

    For ``memory`` the write bandwidth is the device-to-host snapshot (PCIe) and the read
    bandwidth the peer-to-peer network path used both to replicate a shard and to fetch it
    back after a node is replaced.  A shared file system's aggregate bandwidth is
    ``throughput_MBps_per_TiB × provisioned_TiB`` when both are given (FSx for Lustre).
    """

    tier: str
    label: str
    write_GBps_per_node: float
    read_GBps_per_node: float
    aggregate_write_GBps: float | None
    aggregate_read_GBps: float | None
    throughput_MBps_per_TiB: float | None
    provisioned_TiB: float | None
    fixed_seconds: float
    capacity_GB_per_node: float | None
    source: str

    def aggregate_GBps(self, which: str) -> float:
        """Aggregate cap for ``"write"`` or ``"read"`` [GB/s]; ``inf`` when uncapped."""
        caps = []
        explicit = self.aggregate_write_GBps if which == "write" else self.aggregate_read_GBps
        if explicit is not None:
            caps.append(explicit)
        if self.throughput_MBps_per_TiB is not None and self.provisioned_TiB is not None:
            caps.append(self.throughput_MBps_per_TiB * self.provisioned_TiB / 1000.0)
        return min(caps) if caps else math.inf


_TIER_COLUMNS = [f.name for f in fields(Tier)]
_TIER_TEXT = {"tier", "label", "source"}
_TIER_OPTIONAL = {
    "aggregate_write_GBps",
    "aggregate_read_GBps",
    "throughput_MBps_per_TiB",
    "provisioned_TiB",
    "capacity_GB_per_node",
}
_TIER_POSITIVE = {"write_GBps_per_node", "read_GBps_per_node"}


def parse_tiers(text: str, origin: str = "checkpoint tiers") -> dict[str, Tier]:
    """Parse the tier CSV into ``{tier: Tier}``, strictly.

    Missing or unknown columns, unknown or duplicate tier names, missing tiers, empty
    required cells, non-numbers, negative or non-finite numbers and zero bandwidths raise
    :class:`ValidationError` naming the row and column.

    Parameters
    ----------
    text : str
        CSV text with one row per tier.
    origin : str
        Name of the source, used in error messages.

    Returns
    -------
    dict of str to Tier
        The tiers by name.

    Raises
    ------
    ValidationError
        Naming the row and column of the first bad cell.
    """
    out: dict[str, Tier] = {}
    records = strict_records(
        text, _TIER_COLUMNS, optional=_TIER_OPTIONAL, text_columns=_TIER_TEXT, origin=origin
    )
    for rowno, kw in records:
        if kw["tier"] not in TIER_NAMES:
            raise ValidationError(
                f"{origin} row {rowno}, column tier",
                f"{kw['tier']!r} is not a tier; allowed: " + ", ".join(TIER_NAMES),
            )
        for col in (*_TIER_POSITIVE, *_TIER_OPTIONAL):
            if kw[col] == 0:
                raise ValidationError(
                    f"{origin} row {rowno}, column {col}",
                    "'0' must be > 0 (leave empty for no limit)",
                )
        tier = Tier(**kw)  # type: ignore[arg-type]
        if tier.tier in out:
            raise ValidationError(f"{origin} row {rowno}, column tier", "duplicate tier")
        out[tier.tier] = tier
    absent = [t for t in TIER_NAMES if t not in out]
    if absent:
        raise ValidationError(origin, "missing tier row(s): " + ", ".join(absent))
    return {t: out[t] for t in TIER_NAMES}


def load_tiers(path: str | Path | None = None) -> dict[str, Tier]:
    """Load the tier table at ``path``, else ``$GOODPUT_CHECKPOINT_TIERS``, else the default
    ``data/checkpoint_tiers.csv``.

    Parameters
    ----------
    path : str or Path or None
        CSV file of tiers; None for the environment variable or the default file.

    Returns
    -------
    dict of str to Tier
        The tiers by name (:func:`parse_tiers`).
    """
    p = Path(path or os.environ.get("GOODPUT_CHECKPOINT_TIERS") or DEFAULT_TIERS)
    try:
        st = p.stat()
    except OSError as exc:
        raise ValidationError(str(p), f"cannot be read ({exc.strerror})") from None
    return dict(_load_tiers_cached(str(p), st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=8)
def _load_tiers_cached(path: str, _mtime_ns: int, _size: int) -> dict[str, Tier]:
    p = Path(path)
    text = read_text_file(p, MAX_TIERS_BYTES)
    return parse_tiers(text, origin=p.name)


def tiers_to_csv(tiers: dict[str, Tier]) -> str:
    """CSV text that :func:`parse_tiers` reads back to the same tiers.

    Parameters
    ----------
    tiers : dict of str to Tier
        The tiers by name.

    Returns
    -------
    str
        CSV text.
    """
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=_TIER_COLUMNS, lineterminator="\n")
    w.writeheader()
    for t in tiers.values():
        w.writerow({c: "" if getattr(t, c) is None else getattr(t, c) for c in _TIER_COLUMNS})
    return buf.getvalue()


# --------------------------------------------------------------------------- sizes, times
def checkpoint_size_TB(params_billion, bytes_per_param):
    """Full checkpoint size S = P · b [TB] (10^12 B).

    Mixed-precision Adam keeps bf16 weights, fp32 master weights and two fp32 moments,
    ≈ 14-16 B/parameter (docs/references.md#checkpoint-size); BLOOM-176B's 2.3 TB is ≈ 13 B/param.

    Parameters
    ----------
    params_billion : array_like
        P, model parameters [billion].
    bytes_per_param : array_like
        b, checkpoint bytes per parameter [B].

    Returns
    -------
    float or ndarray
        S [TB].

    Examples
    --------
    >>> checkpoint_size_TB(405.0, 16.0)
    6.48
    """
    out = as_float_array(params_billion) * 1e9 * as_float_array(bytes_per_param) / 1e12
    return like_input(out, params_billion, bytes_per_param)


def checkpoint_shard_GB(params_billion, bytes_per_param, nodes, out=None):
    """Checkpoint bytes each node saves when the state is sharded evenly: S / N [GB].

    Parameters
    ----------
    params_billion : array_like
        P, model parameters [billion].
    bytes_per_param : array_like
        b, checkpoint bytes per parameter [B].
    nodes : array_like
        N, nodes sharing the state [count].
    out : ndarray, optional
        Memory to write the result into when it has the result's shape (the same
        division: the same values); the result is then ``out``.

    Returns
    -------
    float or ndarray
        S / N [GB].

    Examples
    --------
    >>> round(checkpoint_shard_GB(405.0, 16.0, 2000), 6)
    3.24
    """
    s = as_float_array(checkpoint_size_TB(params_billion, bytes_per_param)) * 1000.0
    n = as_float_array(nodes)
    if fits_into(out, s, n):
        return np.divide(s, n, out=out)
    return like_input(s / n, params_billion, bytes_per_param, nodes)


def tier_transfer_seconds(
    shard_GB, nodes, GBps_per_node, aggregate_GBps=np.inf, fixed_seconds=0.0, copies=1.0
):
    """Time for every node to move ``copies`` shards through a tier at once [s].

    t = t₀ + copies · shard / min(b_node, B_aggregate / N): each node is limited by its own
    bandwidth or by its fair share of the tier's aggregate cap (FSx for Lustre provisions
    ``MB/s per TiB × TiB``), whichever is lower, plus a fixed coordination time t₀.

    Parameters
    ----------
    shard_GB : array_like
        Shard each node moves [GB].
    nodes : array_like
        N, nodes moving at once [count].
    GBps_per_node : array_like
        b_node, bandwidth of one node to the tier [GB/s].
    aggregate_GBps : array_like
        B_aggregate, the tier's total bandwidth cap [GB/s]; inf for none.
    fixed_seconds : array_like
        t₀, fixed coordination time [s].
    copies : array_like
        Shards each node moves [count].

    Returns
    -------
    float or ndarray
        t [s].

    Examples
    --------
    >>> tier_transfer_seconds(3.24, 2000, 25.0, 100.0)  # 100 GB/s shared by 2,000 nodes
    64.8
    """
    shard = as_float_array(shard_GB)
    per_node = _per_node_GBps(GBps_per_node, aggregate_GBps, nodes)
    out = as_float_array(fixed_seconds) + as_float_array(copies) * shard / per_node
    shape = np.broadcast_shapes(out.shape, np.shape(nodes))  # uncapped: N is not in it
    if out.shape != shape:
        out = np.broadcast_to(out, shape).copy()
    return like_input(out, shard_GB, nodes, GBps_per_node, aggregate_GBps, fixed_seconds, copies)


def _per_node_GBps(GBps_per_node, aggregate_GBps, nodes) -> np.ndarray:
    """A node's bandwidth through a tier when every node uses it at once, min(b_node,
    B_aggregate / N) [GB/s] (:func:`tier_transfer_seconds`)."""
    b, aggregate = as_float_array(GBps_per_node), as_float_array(aggregate_GBps)
    if aggregate.ndim == 0 and aggregate == np.inf:  # no shared cap: b_node, no array pass
        return b
    return np.minimum(b, aggregate / as_float_array(nodes))


# --------------------------------------------------------------------------- intervals
def daly_first_order_interval_minutes(save_minutes, mtbf_minutes, restart_minutes, out=None):
    """Daly's first-order optimum τ = √(2δ(M + R)) [min] ([2], docs/references.md#checkpoint-interval).

    Parameters
    ----------
    save_minutes : array_like
        δ, blocking save time [min].
    mtbf_minutes : array_like
        M, job mean time between failures [min].
    restart_minutes : array_like
        R, recovery time per failure [min].
    out : ndarray, optional
        Memory to write the result into when it has the result's shape (the same
        operations: the same values); the result is then ``out``.

    Returns
    -------
    float or ndarray
        τ [min].

    Examples
    --------
    >>> round(daly_first_order_interval_minutes(1.0, 360.0, 11.0), 4)
    27.2397
    """
    d = as_float_array(save_minutes)
    with np.errstate(invalid="ignore"):  # δ = 0 with M = inf has no optimum: NaN
        tau = sqrt_over(
            2.0 * d * (as_float_array(mtbf_minutes) + as_float_array(restart_minutes)), out
        )
    return like_input(tau, save_minutes, mtbf_minutes, restart_minutes)


def daly_higher_order_interval_minutes(save_minutes, mtbf_minutes, *, root=None, out=None):
    """Daly's higher-order optimum ([2] eq. 37) [min].

    τ = √(2δM)·[1 + ⅓√(δ/(2M)) + (1/9)(δ/(2M))] − δ for δ < 2M, else τ = M (also LLNL/scr
    ``scripts/python/scr_ckpt_interval.py``).

    Parameters
    ----------
    save_minutes : array_like
        δ, blocking save time [min].
    mtbf_minutes : array_like
        M, job mean time between failures [min].
    root : array_like, optional
        √(2δM) [min] (Young's interval, :func:`models.goodput.young_interval_minutes`) when
        the caller has it; computed here when None.
    out : ndarray, optional
        Memory to write the result into when it has the result's shape (the same
        operations: the same values), where δ < 2M everywhere.

    Returns
    -------
    float or ndarray
        τ [min].

    Examples
    --------
    >>> round(daly_higher_order_interval_minutes(1.0, 360.0), 4)
    26.1703
    """
    d = as_float_array(save_minutes)
    m = as_float_array(mtbf_minutes)
    two_m = 2.0 * m  # computed once: the ratio and the test share it
    with np.errstate(invalid="ignore", divide="ignore"):
        x = d / two_m
        if root is None:
            root = np.sqrt(2.0 * d * m)
        if isinstance(x, np.ndarray) and x.ndim:
            # 1 + √x/3 + x/9 in that order, over the two temporaries √x and x
            bracket = np.sqrt(x)
            bracket /= 3.0
            np.add(1.0, bracket, out=bracket)
            x /= 9.0
            bracket += x
        else:
            bracket = 1.0 + np.sqrt(x) / 3.0 + x / 9.0
        scaled = root * bracket
        below = d < two_m
        everywhere = below.all()
        tau = np.subtract(scaled, d, out=out if fits_into(out, scaled, d) and everywhere else None)
    tau = tau if everywhere else np.where(below, tau, m)
    return like_input(tau, save_minutes, mtbf_minutes)


def two_level_waste_first_order(
    failures_l1_per_day,
    failures_l2_per_day,
    interval1_minutes,
    interval2_minutes,
    save1_minutes,
    save2_minutes,
    restart1_minutes,
    restart2_minutes,
):
    """First-order waste of a two-level strategy (docs/references.md#two-level-checkpointing, after [4]) [fraction].

    W = C₁/T₁ + C₂/T₂ + λ₁(T₁/2 + R₁) + λ₂(T₂/2 + R₂), λ per minute; λ₁ are the failures
    recoverable from level 1, λ₂ those that fall back to level 2.

    Parameters
    ----------
    failures_l1_per_day : array_like
        λ₁, failures restored from level 1 [per day].
    failures_l2_per_day : array_like
        λ₂, failures that fall back to level 2 [per day].
    interval1_minutes, interval2_minutes : array_like
        T₁, T₂, compute time between checkpoints of each level [min].
    save1_minutes, save2_minutes : array_like
        C₁, C₂, blocking save time of each level [min].
    restart1_minutes, restart2_minutes : array_like
        R₁, R₂, recovery time of a failure of each class [min].

    Returns
    -------
    float or ndarray
        W [fraction].

    Examples
    --------
    >>> round(two_level_waste_first_order(3.6, 0.4, 5.0, 60.0, 0.02, 1.0, 5.0, 7.0), 6)
    0.049694
    """
    # each failure class pays its own level's Young-style waste (models.goodput)
    w = as_float_array(
        waste_first_order(failures_l1_per_day, restart1_minutes, interval1_minutes, save1_minutes)
    ) + as_float_array(
        waste_first_order(failures_l2_per_day, restart2_minutes, interval2_minutes, save2_minutes)
    )
    return like_input(
        w,
        failures_l1_per_day,
        failures_l2_per_day,
        interval1_minutes,
        interval2_minutes,
        save1_minutes,
        save2_minutes,
        restart1_minutes,
        restart2_minutes,
    )


def two_level_goodput(
    failures_l1_per_day,
    failures_l2_per_day,
    interval1_minutes,
    interval2_minutes,
    save1_minutes,
    save2_minutes,
    restart1_minutes,
    restart2_minutes,
):
    """Goodput of a two-level strategy: the product of Daly's exact efficiencies per
    failure class, g = T_s/T_w(λ₁, R₁, T₁, C₁) · T_s/T_w(λ₂, R₂, T₂, C₂) [fraction].

    The two failure classes are independent Poisson processes; each factor is Daly's exact
    expectation [2] for its class alone, and 1 − g agrees with
    :func:`two_level_waste_first_order` to first order.  With λ₂ = 0 and C₂ = 0 it is the
    single-level :func:`models.goodput.goodput_exact`.

    Parameters
    ----------
    failures_l1_per_day : array_like
        λ₁, failures restored from level 1 [per day].
    failures_l2_per_day : array_like
        λ₂, failures that fall back to level 2 [per day].
    interval1_minutes, interval2_minutes : array_like
        T₁, T₂, compute time between checkpoints of each level [min].
    save1_minutes, save2_minutes : array_like
        C₁, C₂, blocking save time of each level [min].
    restart1_minutes, restart2_minutes : array_like
        R₁, R₂, recovery time of a failure of each class [min].

    Returns
    -------
    float or ndarray
        g [fraction].

    Examples
    --------
    >>> round(two_level_goodput(3.6, 0.4, 5.0, 60.0, 0.02, 1.0, 5.0, 7.0), 4)
    0.9515
    """
    a = as_float_array(
        goodput_exact(failures_l1_per_day, restart1_minutes, interval1_minutes, save1_minutes)
    )
    b = _absent_level_goodput(
        a, failures_l2_per_day, restart2_minutes, interval2_minutes, save2_minutes
    )
    if b is None:
        b = as_float_array(
            goodput_exact(failures_l2_per_day, restart2_minutes, interval2_minutes, save2_minutes)
        )
    # x·1 = x exactly: an absent level that costs nothing leaves the level-1 goodput as is
    product = a if b.ndim == 0 and b == 1.0 and a.ndim else a * b
    return like_input(
        product,
        failures_l1_per_day,
        failures_l2_per_day,
        interval1_minutes,
        interval2_minutes,
        save1_minutes,
        save2_minutes,
        restart1_minutes,
        restart2_minutes,
    )


def _absent_level_goodput(a, lam, restart, interval, save):
    """:func:`models.goodput.goodput_exact` of a level with no failures (λ one number, 0),
    one number and no array pass, when its interval and save are one number each, every
    recovery is finite (e^{0·R} = 1 exactly; NaN for R = ±inf or NaN, whose goodput is 0)
    and the level-1 goodput ``a`` has the scenarios' shape; else None (computed in full)."""
    if not (is_zero(lam) and np.ndim(interval) == 0 and np.ndim(save) == 0):
        return None
    restart = as_float_array(restart)
    a_shape = np.shape(a)
    if np.broadcast_shapes(a_shape, restart.shape) != a_shape:
        return None
    if not np.isfinite(restart).all():
        return None
    return as_float_array(goodput_exact(lam, 0.0, interval, save))


def two_level_optimal_intervals_minutes(
    save1_minutes, save2_minutes, failures_l1_per_day, failures_l2_per_day, exact=True
):
    """Optimal pair (T₁*, T₂*) of a two-level strategy [min].

    Minimising :func:`two_level_waste_first_order` separates: each level follows Young
    with its own failure class, T₁* = √(2C₁/λ₁), T₂* = √(2C₂/λ₂) (docs/references.md#two-level-checkpointing).
    With ``exact=True`` each factor of :func:`two_level_goodput` is minimised exactly
    (Lambert W, :func:`models.goodput.exact_optimal_interval_minutes`), which is the exact
    maximiser of that product.  ``inf`` for a level with no failures.

    Parameters
    ----------
    save1_minutes, save2_minutes : array_like
        C₁, C₂, blocking save time of each level [min].
    failures_l1_per_day, failures_l2_per_day : array_like
        λ₁, λ₂, failures of each class [per day].
    exact : bool
        Minimise Daly's exact factors (True) or the first-order waste (False).

    Returns
    -------
    tuple of (float or ndarray)
        (T₁*, T₂*) [min]; inf for a level with no failures.

    Examples
    --------
    >>> [round(t, 3) for t in two_level_optimal_intervals_minutes(0.02, 1.0, 3.6, 0.4, False)]
    [4.0, 84.853]
    """
    with np.errstate(divide="ignore"):
        l1 = as_float_array(failures_l1_per_day)
        l2 = as_float_array(failures_l2_per_day)
        m1 = np.where(l1 > 0, MINUTES_PER_DAY / np.where(l1 > 0, l1, 1.0), np.inf)
        m2 = np.where(l2 > 0, MINUTES_PER_DAY / np.where(l2 > 0, l2, 1.0), np.inf)
    f = exact_optimal_interval_minutes if exact else young_interval_minutes
    t1 = like_input(np.asarray(f(save1_minutes, m1)), save1_minutes, failures_l1_per_day)
    t2 = like_input(np.asarray(f(save2_minutes, m2)), save2_minutes, failures_l2_per_day)
    return t1, t2


# --------------------------------------------------------------------------- survival
def _log_comb(n, k):
    from scipy.special import gammaln  # imported on first use: only spread replicas need it

    return gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)


def probability_random_failures_destroy_group(nodes, replicas, simultaneous_failures):
    """Probability that k simultaneous random node losses destroy every replica of some
    shard, with the N nodes in ⌊N/m⌋ disjoint replica groups of m [fraction].

    Exact inclusion-exclusion over the G = ⌊N/m⌋ groups:
    P = 1 − Σ_j (−1)^j C(G, j) C(N − jm, k − jm) / C(N, k).
    Its first term μ = G·C(N−m, k−m)/C(N, k) is Gemini's [3] expression
    N·C(N−m, k−m) / (m·C(N, k)) (the expected number of destroyed groups, a union bound,
    exact when k < 2m); P = 0 when k < m and 1 for m = 1.  The alternating sum loses precision when μ is
    large, so for μ > 5 the Poisson limit 1 − e^(−μ) (≥ 0.993) is returned instead, and the
    sum stops after 60 terms (each below μ^j/j!).

    Parameters
    ----------
    nodes : int
        N, nodes of the job [count].
    replicas : int
        m, nodes in a replica group [count].
    simultaneous_failures : int
        k, nodes lost at once [count].

    Returns
    -------
    float
        P [probability].

    Examples
    --------
    >>> round(probability_random_failures_destroy_group(2000, 2, 8), 6)  # union bound 0.014007
    0.013954
    """
    n = as_float_array(nodes)
    m = as_float_array(replicas)
    k = as_float_array(simultaneous_failures)
    n, m, k = np.broadcast_arrays(n, m, k)
    g = np.floor(n / m)
    log_total = _log_comb(n, k)
    valid = (k >= m) & (g >= 1)
    with np.errstate(invalid="ignore"):
        mu = np.where(
            valid,
            np.exp(
                np.log(np.maximum(g, 1.0)) + _log_comb(n - m, np.where(valid, k - m, 0)) - log_total
            ),
            0.0,
        )
    jmax = min(int(np.max(np.floor(k / m))) if k.size else 0, 60)
    survive = np.zeros(n.shape)
    for j in range(jmax + 1):
        ok = (j * m <= k) & (j <= g)
        with np.errstate(invalid="ignore"):
            term = np.exp(
                _log_comb(g, np.where(ok, j, 0))
                + _log_comb(n - j * m, np.where(ok, k - j * m, 0))
                - log_total
            )
        survive = survive + np.where(ok, (-1.0) ** j * term, 0.0)
    p = np.where(mu > 5.0, -np.expm1(-mu), np.clip(1.0 - survive, 0.0, 1.0))
    p = np.where(m <= 1, 1.0, p)  # a single copy: any loss destroys it
    p = np.where(valid, p, 0.0)
    return like_input(p, nodes, replicas, simultaneous_failures)


def probability_block_destroys_group(block_nodes, replicas):
    """Probability that losing b *adjacent* nodes destroys a whole replica group when the
    m replicas of each shard sit on m adjacent nodes (groups aligned every m nodes, block
    start uniform) [fraction].

    P = 0 for b < m; (b − m + 1)/m for m ≤ b < 2m − 1; 1 for b ≥ 2m − 1.  Models a leaf
    switch, rack or power event when replicas are placed on neighbouring nodes, as in
    HyperPod's "adjacent nodes" [5].

    Parameters
    ----------
    block_nodes : array_like
        b, adjacent nodes lost at once [count].
    replicas : array_like
        m, replicas of each shard on adjacent nodes [count].

    Returns
    -------
    float or ndarray
        P [probability].

    Examples
    --------
    >>> probability_block_destroys_group(2, 2), probability_block_destroys_group(3, 3)
    (0.5, 0.3333333333333333)
    """
    b = as_float_array(block_nodes)
    m = as_float_array(replicas)
    p = np.clip((b - m + 1.0) / m, 0.0, 1.0)
    return like_input(p, block_nodes, replicas)


def probability_replicas_lost_in_window(node_failure_rate_per_day, replicas, window_minutes):
    """Probability that after one node loss the other m − 1 holders of its shard are all lost
    before re-replication completes [fraction].

    Each surviving holder fails within the window w with q = 1 − exp(−r·w) (r per minute);
    P = q^(m−1) (= 1 for m = 1: the only copy was on the lost node).

    Parameters
    ----------
    node_failure_rate_per_day : array_like
        r, failures per node per day [per node-day].
    replicas : array_like
        m, holders of each shard [count].
    window_minutes : array_like
        w, re-replication window [min].

    Returns
    -------
    float or ndarray
        q^(m−1) [probability].

    Examples
    --------
    >>> round(probability_replicas_lost_in_window(0.002, 2, 10.0), 9)
    1.3889e-05
    """
    r = as_float_array(node_failure_rate_per_day) / MINUTES_PER_DAY
    q = -np.expm1(-r * as_float_array(window_minutes))
    p = q ** (as_float_array(replicas) - 1.0)
    return like_input(p, node_failure_rate_per_day, replicas, window_minutes)


def domain_event_fallback(nodes_per_domain, replicas, on_memory, adjacent_placement=True):
    """Probability that a scale-up domain event (a rack or UltraServer out until repaired)
    leaves some shard with no reachable level-1 copy, so the job restores from the durable
    tier [fraction].

    A domain event takes its npd nodes out at once, a block of adjacent nodes.  In-memory
    replicas on adjacent nodes are destroyed as by any block loss
    (:func:`probability_block_destroys_group` with b = npd); spread across failure domains
    (``checkpoint.replica_placement = 'spread'``) another domain keeps a copy: 0.  A local
    NVMe copy sits on its own node, out of reach with the domain: 1.

    Parameters
    ----------
    nodes_per_domain : array_like
        npd, nodes in a scale-up domain [count].
    replicas : array_like
        m, in-memory copies of each shard [count].
    on_memory : array_like
        1 where level 1 is CPU memory with peer replicas, 0 where it is local NVMe.
    adjacent_placement : array_like
        1 where the replicas sit on adjacent nodes, 0 where they are spread.

    Returns
    -------
    ndarray
        The probability [fraction].

    Examples
    --------
    >>> float(domain_event_fallback(18, 2, 1, 1)), float(domain_event_fallback(18, 2, 1, 0))
    (1.0, 0.0)
    >>> float(domain_event_fallback(2, 3, 1, 1)), float(domain_event_fallback(18, 2, 0, 0))
    (0.0, 1.0)
    """
    block = as_float_array(probability_block_destroys_group(nodes_per_domain, replicas))
    adjacent = as_float_array(adjacent_placement) > 0.5
    memory = as_float_array(on_memory) > 0.5
    out = np.where(memory, np.where(adjacent, block, 0.0), 1.0)
    return like_input(out, nodes_per_domain, replicas, on_memory, adjacent_placement)


def fallback_fraction(
    nodes,
    node_failure_rate_per_day,
    replicas,
    window_minutes,
    node_loss_fraction,
    correlated_fraction,
    correlated_nodes,
    adjacent_placement=True,
):
    """Fraction φ of failures after which some shard has no level-1 copy left, so the job
    restores from the durable tier [fraction].

    φ = (1 − f_c)·h·q^(m−1) + f_c·P_c, where h = share of single-node failures that lose the
    node (and its memory/NVMe; software crashes keep it), q^(m−1) from
    :func:`probability_replicas_lost_in_window`, f_c = share of failures that are
    multi-node events losing b nodes at once, and P_c from
    :func:`probability_block_destroys_group` (replicas on adjacent nodes) or
    :func:`probability_random_failures_destroy_group` (replicas spread across racks).
    Local NVMe behaves as one replica (m = 1).

    Parameters
    ----------
    nodes : array_like
        N, nodes of the job [count].
    node_failure_rate_per_day : array_like
        r, failures per node per day [per node-day].
    replicas : array_like
        m, level-1 copies of each shard [count].
    window_minutes : array_like
        w, re-replication window [min].
    node_loss_fraction : array_like
        h, share of single-node failures that lose the node [fraction].
    correlated_fraction : array_like
        f_c, share of failures that are multi-node events [fraction].
    correlated_nodes : array_like
        b, nodes lost in such an event [count].
    adjacent_placement : bool
        Replicas on adjacent nodes (True) or spread across racks (False).

    Returns
    -------
    float or ndarray
        φ [fraction].

    Examples
    --------
    >>> round(fallback_fraction(2000, 0.002, 2, 10.0, 0.78, 0.084, 8, True), 6)
    0.08401
    """
    h = as_float_array(node_loss_fraction)
    fc = as_float_array(correlated_fraction)
    single = as_float_array(
        probability_replicas_lost_in_window(node_failure_rate_per_day, replicas, window_minutes)
    )
    adj = as_float_array(probability_block_destroys_group(correlated_nodes, replicas))
    adjacent = as_float_array(adjacent_placement) > 0
    if adjacent.all():  # no spread replicas: the random-loss probability is not needed
        rnd = adj
    else:
        rnd = as_float_array(
            probability_random_failures_destroy_group(
                nodes, replicas, np.minimum(as_float_array(correlated_nodes), as_float_array(nodes))
            )
        )
    pc = np.where(adjacent, adj, rnd)
    phi = np.clip((1.0 - fc) * h * single + fc * pc, 0.0, 1.0)
    return like_input(
        phi,
        nodes,
        node_failure_rate_per_day,
        replicas,
        window_minutes,
        node_loss_fraction,
        correlated_fraction,
        correlated_nodes,
        adjacent_placement,
    )


# --------------------------------------------------------------------------- strategies
#: ``checkpoint.strategy`` values.
STRATEGIES: tuple[str, ...] = values(Strategy)
#: ``checkpoint.durable_tier`` values.
DURABLE_TIERS: tuple[str, ...] = values(DurableTier)
#: Numeric tier parameters passed to evaluate_arrays as ``tier.<name>.<param>``.
TIER_PARAMS: tuple[str, ...] = (
    "write_GBps_per_node",
    "read_GBps_per_node",
    "aggregate_write_GBps",
    "aggregate_read_GBps",
    "fixed_seconds",
)


def tier_inputs(tiers: dict[str, Tier]) -> dict[str, float]:
    """Flat numeric ``tier.<name>.<param>`` inputs for :func:`strategy_levels`.

    Parameters
    ----------
    tiers : dict of str to Tier
        The tiers by name.

    Returns
    -------
    dict of str to float
        ``tier.<name>.<param>`` values in the units their names carry [GB/s, s, TiB, MB/s per TiB];
        NaN where a size is not given.
    """
    out: dict[str, float] = {}
    for name, t in tiers.items():
        out[f"tier.{name}.write_GBps_per_node"] = t.write_GBps_per_node
        out[f"tier.{name}.read_GBps_per_node"] = t.read_GBps_per_node
        out[f"tier.{name}.aggregate_write_GBps"] = t.aggregate_GBps("write")
        out[f"tier.{name}.aggregate_read_GBps"] = t.aggregate_GBps("read")
        out[f"tier.{name}.fixed_seconds"] = t.fixed_seconds
        # size and throughput tier price the file system (models.pricing; NaN = not given)
        out[f"tier.{name}.provisioned_TiB"] = (
            float("nan") if t.provisioned_TiB is None else t.provisioned_TiB
        )
        out[f"tier.{name}.throughput_MBps_per_TiB"] = (
            float("nan") if t.throughput_MBps_per_TiB is None else t.throughput_MBps_per_TiB
        )
    return out


def tier_times_seconds(tier: dict, shard_GB, nodes, replicas=1.0, out=(None, None)):
    """(write, sync save, restore) seconds of one tier from its ``tier_inputs`` parameters.

    Write: one shard through the tier's write path (for memory, the device-to-host snapshot
    an asynchronous save blocks on).  Save: the write, and for memory (m − 1) shard copies
    to peers over the network.  Restore: read the shard back (for memory, from a peer).
    The times are those of :func:`tier_transfer_seconds`, t₀ + copies · shard / bandwidth,
    with each per-node bandwidth (:func:`_per_node_GBps`) computed once.

    Parameters
    ----------
    tier : dict
        The tier's :func:`tier_inputs` parameters (without the ``tier.<name>.`` prefix), and
        ``is_memory``.
    shard_GB : array_like
        Shard of each node [GB].
    nodes : array_like
        N, nodes of the job [count].
    replicas : array_like
        m, copies of each shard (memory tier) [count].
    out : tuple of (ndarray or None)
        Memory to write the sync save and the restore into, each when it has the result's
        shape (the same operations: the same values).

    Returns
    -------
    tuple of ndarray
        (write, sync save, restore) [s].
    """
    shard = as_float_array(shard_GB)
    t0 = as_float_array(tier["fixed_seconds"])
    write_in = tier["write_GBps_per_node"], tier["aggregate_write_GBps"]
    read_in = tier["read_GBps_per_node"], tier["aggregate_read_GBps"]
    write_bw = _per_node_GBps(*write_in, nodes)
    # a tier that reads as fast as it writes (one number each): the same bandwidth and
    # restore as the write, computed once
    same = all(_one_and_equal(w, r) for w, r in zip(write_in, read_in, strict=True))
    read_bw = write_bw if same else _per_node_GBps(*read_in, nodes)
    memory = tier.get("is_memory")
    # (the memory tier's write is its snapshot, and its restore when it reads as fast: its
    # sync save adds the copies to peers)
    write = sum_into(out[0] if not memory else out[1] if same else None, t0, shard / write_bw)
    save = write
    if memory:  # and m − 1 copies to peers, no fixed time of their own
        save = sum_into(out[0], write, (as_float_array(replicas) - 1.0) * shard / read_bw)
    return write, save, write if same else sum_into(out[1], t0, shard / read_bw)


def _one_and_equal(a, b) -> bool:
    """Whether ``a`` and ``b`` are each one number (scalar or 0-d) and equal (NaN: no)."""
    if isinstance(a, float | int) and isinstance(b, float | int):  # (the common case)
        return a == b
    return np.ndim(a) == 0 and np.ndim(b) == 0 and bool(a == b)


def _tier_seconds(tiers, shard, nodes, m, out=None):
    """Per tier, (sync save, restore) seconds [s] (:func:`tier_times_seconds`), memory with
    ``m`` replicas, and the memory tier's write alone, the device-to-host snapshot [s];
    ``out``: memory for them by output key (``tier_<name>_save_seconds`` ...)."""
    per_tier: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name in TIER_NAMES:
        t = dict(tiers[name])
        t["is_memory"] = name == "memory"
        into = (
            (None, None)
            if out is None
            else tuple(out.get(f"tier_{name}_{what}_seconds") for what in ("save", "restore"))
        )
        reps = m if name == "memory" else 1.0
        write, save, restore = tier_times_seconds(t, shard, nodes, reps, into)
        per_tier[name] = save, restore
        if name == "memory":
            snapshot = write  # the device-to-host copy: what an asynchronous save blocks on
    return per_tier, snapshot


def _level_seconds(two, model, is_async, fast, durable, snapshot, meas_save, meas_restore):
    """Blocking save, restore, staleness and write seconds [s] of levels 1 and 2.

    Level 1 is the fast tier of a two-level strategy, else the durable tier.  Blocking save:
    synchronous = the write; asynchronous = min(snapshot, write) for level 1 and 0 for a
    two-level durable write (drained in the background).  Staleness = write − blocking time
    (asynchronous only).  ``model`` False: the measured save [s] and restore [min] set level 1
    (an asynchronous write still takes at least the tier's write time).
    """
    (fast_write, fast_restore), (d_write, d_restore) = fast, durable
    l1_write = fast_write if two else d_write
    l1_restore_model = fast_restore if two else d_restore
    l1_block_model = np.minimum(snapshot, l1_write) if is_async else l1_write
    meas_save = as_float_array(meas_save)
    l1_block = l1_block_model if model else meas_save
    l1_restore = l1_restore_model if model else as_float_array(meas_restore) * 60
    l1_stale = np.maximum(l1_write - l1_block, 0.0) if is_async else l1_block * 0.0
    zero = as_float_array(0.0)
    measured_write = np.maximum(l1_write, meas_save) if is_async else meas_save
    return {
        "save1_minutes": l1_block,
        "restore1_minutes": l1_restore,
        "stale1_minutes": l1_stale,
        "write1_minutes": l1_write if model else measured_write,
        "save2_minutes": (zero if is_async else d_write) if two else zero,
        "restore2_minutes": d_restore if two else zero,
        "stale2_minutes": d_write if (two and is_async) else zero,
        "write2_minutes": d_write if two else zero,
    }


def _fallback_share(two, on_memory, m, nodes, rate, window, loss, corr, corr_nodes, placement):
    """φ [fraction]: :func:`fallback_fraction` of a two-level strategy (NVMe holds one
    replica, memory ``m``); 1 for ``durable_only`` (every failure restores from the durable
    tier, which is then level 1)."""
    if not two:
        return as_float_array(1.0)
    return as_float_array(
        fallback_fraction(
            nodes,
            rate,
            m if on_memory else 1.0,
            window,
            loss,
            corr,
            corr_nodes,
            Placement(placement) is Placement.ADJACENT,
        )
    )


def strategy_levels(
    *,
    strategy: Strategy,
    durable_tier: DurableTier,
    timings: Timings,
    save_mode: SaveMode,
    placement: Placement,
    nodes,
    node_failure_rate_per_day,
    failures_per_day,
    params_billion,
    bytes_per_param,
    replicas,
    rereplication_minutes,
    node_loss_fraction,
    correlated_fraction,
    correlated_nodes,
    measured_save_seconds,
    measured_restore_minutes,
    tiers: dict[str, dict],
    out: Mapping[str, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Blocking save, restore, staleness and failure rate of the two levels of a strategy.

    Level 1 is what most failures restore from: the durable tier itself for
    ``durable_only``, local NVMe or CPU memory with ``replicas`` peer copies.  Level 2 is the
    durable tier for two-level strategies, and absent (λ₂ = 0, C₂ = 0) for ``durable_only``.
    Shard from :func:`checkpoint_shard_GB`, times from :func:`_level_seconds`, φ from
    :func:`fallback_fraction` (NVMe = one replica); every number broadcasts.

    Parameters
    ----------
    strategy, durable_tier, timings, save_mode, placement : enum
        The checkpoint choices (:mod:`models.choices`).
    nodes : array_like
        N, nodes of the job [count].
    node_failure_rate_per_day, failures_per_day : array_like
        Failures per node [per node-day] and of the job, λ [per day].
    params_billion, bytes_per_param : array_like
        Model parameters [billion] and checkpoint bytes per parameter [B].
    replicas, rereplication_minutes : array_like
        m, in-memory copies of each shard [count], and the window to re-replicate one [min].
    node_loss_fraction, correlated_fraction : array_like
        Shares of failures that lose the node, that are multi-node events [fraction].
    correlated_nodes : array_like
        Nodes lost in a multi-node event [count].
    measured_save_seconds, measured_restore_minutes : array_like
        Measured blocking save [s] and restore [min] (``timings = measured``).
    tiers : dict of str to dict
        Per tier, its :func:`tier_inputs` parameters.
    out : Mapping[str, ndarray] or None
        Rows to write tier seconds, shard and memory required into (same values), by key.

    Returns
    -------
    dict of str to ndarray
        ``save1_minutes`` ... [min], ``failures_l1_per_day`` ... [per day], φ [fraction],
        sizes [GB, TB] and per-tier ``tier_<name>_save_seconds`` ... [s].
    """
    strategy = Strategy(strategy)
    on_memory = strategy is Strategy.MEMORY_DURABLE
    m = as_float_array(replicas)
    dest = {} if out is None else out
    shard_out = dest.get("checkpoint_shard_GB_per_node")
    shard = as_float_array(checkpoint_shard_GB(params_billion, bytes_per_param, nodes, shard_out))
    per_tier, snapshot = _tier_seconds(tiers, shard, nodes, m, out)
    durable = (
        "object_store" if DurableTier(durable_tier) is DurableTier.OBJECT_STORE else "shared_fs"
    )
    two = strategy.two_level
    seconds = _level_seconds(
        two,
        Timings(timings) is Timings.TIER_MODEL,
        SaveMode(save_mode) is SaveMode.ASYNC,
        per_tier["memory" if on_memory else "nvme"],
        per_tier[durable],
        snapshot,
        measured_save_seconds,
        measured_restore_minutes,
    )
    lam = as_float_array(failures_per_day)
    rates = node_failure_rate_per_day, rereplication_minutes
    args = node_loss_fraction, correlated_fraction, correlated_nodes, placement
    phi = _fallback_share(two, on_memory, m, nodes, *rates, *args)
    out = {key: s / 60.0 for key, s in seconds.items()}
    out.update(
        fallback_fraction=phi,
        failures_l1_per_day=(1.0 - phi) * lam if two else lam,
        failures_l2_per_day=phi * lam if two else ZERO,  # absent: one number
        shard_GB=shard,
        size_TB=as_float_array(checkpoint_size_TB(params_billion, bytes_per_param)),
        memory_required_GB_per_node=product_into(dest.get("memory_required_GB_per_node"), shard, m),
        snapshot_seconds=snapshot,
    )
    for name, (save, restore) in per_tier.items():
        out[f"tier_{name}_save_seconds"] = save
        out[f"tier_{name}_restore_seconds"] = restore
    return out
