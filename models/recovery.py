"""Recovery after a failure, stage by stage: expected values for the chain, draws for the Monte Carlo.

A failure costs five stages of whole-cluster time before training runs at full speed again:

1. **detection** — crash-type failures are noticed when a process exits
   (``recovery.detection_minutes``); hang-type failures only when a timeout fires
   (``recovery.hang_detection_minutes``, a share ``recovery.hang_fraction`` of failures);
2. **replacement** — a hot-spare swap while one is free, else the provider's replacement;
   an in-process restart skips it, and elastic training runs degraded through it;
3. **restart** — relaunching the job (or an in-process restart);
4. **restore** — loading the checkpoint (or copying state from a peer);
5. **warm-up** — full-speed-equivalent minutes until training runs at full speed.

The analytic chain uses each stage's mean (:func:`expected_detection_minutes`,
:func:`replacement_path_minutes`, :func:`restart_path_minutes`); the Monte Carlo draws each
stage from its distribution around that mean (:func:`draw_stage`).  Each stage's default
distribution and its source are in :data:`STAGE_DEFAULTS`.

References
----------
[1] B. Schroeder and G. Gibson, "A large-scale study of failures in high-performance
    computing systems", DSN 2006. doi:10.1109/DSN.2006.5 (repair times are lognormal)
[2] PyTorch documentation, torch.distributed.init_process_group (NCCL timeout 10 min).
[3] NVIDIA Resiliency Extension: hang detection by rank heartbeats, in-process restart.
    https://github.com/NVIDIA/nvidia-resiliency-ext
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._tools import as_float_array, like_input
from .choices import StageDistribution

STAGES = ("detection", "replacement", "restart", "restore", "warmup")


@dataclass(frozen=True)
class StageDefault:
    """The default distribution of one recovery stage and where it comes from."""

    stage: str
    distribution: StageDistribution
    source: str
    reference: str = ""


#: Default Monte Carlo distribution of each stage (fields ``simulation.<stage>_distribution``).
STAGE_DEFAULTS: dict[str, StageDefault] = {
    "detection": StageDefault(
        "detection",
        StageDistribution.FIXED,
        "Fixed at its mean: a hang is noticed when a timeout of fixed length fires; a crash "
        "when the launcher sees the process exit. 'uniform' models a fault landing at a "
        "random phase of a polling or heartbeat period.",
        "nvidia_resiliency",
    ),
    "replacement": StageDefault(
        "replacement",
        StageDistribution.LOGNORMAL,
        "Lognormal: repair and replacement times of HPC nodes are lognormal (LANL data).",
        "schroeder2006",
    ),
    "restart": StageDefault(
        "restart",
        StageDistribution.LOGNORMAL,
        "Lognormal with the recovery spread (our assumption; no published distribution).",
    ),
    "restore": StageDefault(
        "restore",
        StageDistribution.LOGNORMAL,
        "Lognormal with the recovery spread (our assumption; no published distribution).",
    ),
    "warmup": StageDefault(
        "warmup",
        StageDistribution.LOGNORMAL,
        "Lognormal with the recovery spread (our assumption; no published distribution).",
    ),
}


# --------------------------------------------------------------------------- expectations
def expected_detection_minutes(crash_minutes, hang_minutes, hang_fraction):
    """Mean detection time of a failure: E[D] = (1 − h)·d_crash + h·d_hang [min].

    Crash-type failures are noticed when a process exits (``d_crash``); hang-type failures
    only when a watchdog or heartbeat timeout fires (``d_hang``, e.g. PyTorch's 10 min NCCL
    timeout [2], or the resiliency extension's rank heartbeat [3]).

    Parameters
    ----------
    crash_minutes : detection time of a crash [min].
    hang_minutes : detection time of a hang, the timeout [min].
    hang_fraction : share of failures that hang [fraction].

    Returns
    -------
    float or ndarray
        E[D] [min].

    Examples
    --------
    >>> expected_detection_minutes(3.0, 10.0, 0.2)
    4.4
    """
    h = as_float_array(hang_fraction)
    out = (1.0 - h) * as_float_array(crash_minutes) + h * as_float_array(hang_minutes)
    return like_input(out, crash_minutes, hang_minutes, hang_fraction)


def elastic_replacement_minutes(replacement_minutes, reconfigure_minutes, lost_capacity):
    """Full-stop-equivalent minutes of a replacement the job runs through degraded [min].

    Elastic training drops the failed node's data-parallel replica (a share ``lost_capacity``
    of the cluster, = nodes per replica / nodes) instead of stopping, keeps training at
    1 − lost_capacity of full speed until the replacement arrives, then adds the replica
    back: 2·t_reconfigure + t_replacement·lost_capacity.

    Parameters
    ----------
    replacement_minutes : array_like
        t_replacement, time until the replacement node arrives [min].
    reconfigure_minutes : array_like
        t_reconfigure, time to drop or add back a replica [min].
    lost_capacity : array_like
        Share of the cluster in the dropped replica [fraction].

    Returns
    -------
    float or ndarray
        2·t_reconfigure + t_replacement·lost_capacity [min].

    Examples
    --------
    >>> elastic_replacement_minutes(60.0, 1.0, 8 / 2000)
    2.24
    """
    out = 2.0 * as_float_array(reconfigure_minutes) + as_float_array(
        replacement_minutes
    ) * as_float_array(lost_capacity)
    return like_input(out, replacement_minutes, reconfigure_minutes, lost_capacity)


def replacement_path_minutes(
    p_no_spare, replacement_minutes, swap_minutes, elastic_fraction, elastic_minutes
):
    """Mean replacement stage of a failure that needs a node [min].

    A free hot spare is swapped in (probability 1 − p); otherwise the job waits for the
    replacement, or, for a share e of such failures, runs through it degraded
    (:func:`elastic_replacement_minutes`):
    t = p·[(1 − e)·t_replace + e·t_elastic] + (1 − p)·t_swap.  With e = 0 this is
    :func:`models.reliability.expected_replacement_minutes`.

    Parameters
    ----------
    p_no_spare : array_like
        p, probability that no hot spare is free [probability].
    replacement_minutes : array_like
        t_replace, time to get a replacement node [min].
    swap_minutes : array_like
        t_swap, time to swap in a hot spare [min].
    elastic_fraction : array_like
        e, share of spare-less failures the job runs through degraded [fraction].
    elastic_minutes : array_like
        t_elastic, full-stop-equivalent minutes of such a failure [min].

    Returns
    -------
    float or ndarray
        Mean replacement stage t [min].

    Examples
    --------
    >>> replacement_path_minutes(1.0, 4.0, 1.0, 0.5, 2.0)
    3.0
    """
    p = as_float_array(p_no_spare)
    e = as_float_array(elastic_fraction)
    wait = (1.0 - e) * as_float_array(replacement_minutes) + e * as_float_array(elastic_minutes)
    out = p * wait + (1.0 - p) * as_float_array(swap_minutes)
    return like_input(
        out, p_no_spare, replacement_minutes, swap_minutes, elastic_fraction, elastic_minutes
    )


# --------------------------------------------------------------------------- draws
def stage_cv(distribution, spread: float) -> float:
    """Coefficient of variation of a stage drawn from ``distribution`` with ``spread``.

    Parameters
    ----------
    distribution : str
        Stage distribution: ``fixed``, ``lognormal``, ``gamma``, ``exponential`` or ``uniform``.
    spread : float
        Requested coefficient of variation [-] (used by lognormal and gamma).

    Returns
    -------
    float
        The coefficient of variation the distribution actually has [-].

    Examples
    --------
    >>> stage_cv("uniform", 0.3), stage_cv("exponential", 0.3), stage_cv("gamma", 0.3)
    (0.5773502691896258, 1.0, 0.3)
    """
    d = StageDistribution(distribution)
    if d is StageDistribution.FIXED:
        return 0.0
    if d is StageDistribution.EXPONENTIAL:
        return 1.0
    if d is StageDistribution.UNIFORM:
        return 1.0 / math.sqrt(3.0)
    return max(0.0, float(spread))


def draw_stage(
    rng: np.random.Generator, distribution, mean, spread: float, size: int
) -> np.ndarray:
    """``size`` draws of a stage with the given mean [min] (scalar or per-draw array).

    lognormal: σ² = ln(1 + cv²), μ = ln(mean) − σ²/2; gamma: shape 1/cv², scale mean·cv²;
    exponential: scale mean; uniform: on [0, 2·mean]; fixed (or cv 0, or mean 0): the mean.
    Every family keeps the mean, so the analytic model's expectation is unchanged.

    Parameters
    ----------
    rng : numpy.random.Generator
        Random generator the draws come from.
    distribution : str
        Stage distribution: ``fixed``, ``lognormal``, ``gamma``, ``exponential`` or ``uniform``.
    mean : float or ndarray
        Mean stage time [min], one number or one per draw.
    spread : float
        Coefficient of variation [-] (lognormal, gamma).
    size : int
        Number of draws [count].

    Returns
    -------
    ndarray
        ``size`` stage times [min], with the given mean.
    """
    m = np.broadcast_to(np.asarray(mean, dtype=float), (size,))
    d = StageDistribution(distribution)
    cv = stage_cv(d, spread)
    if cv <= 0 or size == 0:
        return m.astype(float).copy()
    if d is StageDistribution.LOGNORMAL:
        s2 = math.log1p(cv * cv)
        return m * rng.lognormal(-s2 / 2.0, math.sqrt(s2), size)
    if d is StageDistribution.GAMMA:
        k = 1.0 / (cv * cv)
        return m * rng.gamma(k, 1.0 / k, size)
    if d is StageDistribution.EXPONENTIAL:
        return m * rng.exponential(1.0, size)
    return m * rng.uniform(0.0, 2.0, size)  # uniform on [0, 2·mean]


__all__ = [
    "STAGES",
    "STAGE_DEFAULTS",
    "StageDefault",
    "draw_stage",
    "elastic_replacement_minutes",
    "expected_detection_minutes",
    "replacement_path_minutes",
    "stage_cv",
]


def restart_with_retries_minutes(
    restart_minutes, comm_init_seconds_per_gpu, gpus, retry_success_fraction, failed_attempt_minutes
):
    """Expected restart time when set-up grows with the job and attempts can fail [min].

    A restart is scheduling/rendezvous (``restart_minutes``) plus communicator set-up,
    c·G seconds for G accelerators: MegaScale (Jiang et al., NSDI'24, arXiv:2402.15627)
    measured 1,047 s at 2,048 GPUs before their optimisation and under 5 s after it (and
    under 30 s past 10,000 GPUs: linear in G at both constants).  An attempt succeeds with
    probability q; the failed ones, a geometric number with mean 1/q − 1, each cost
    ``failed_attempt_minutes`` (NaN: a whole restart):

        t = t_r + c·G/60 + (1/q − 1)·t_fail

    Parameters
    ----------
    restart_minutes : array_like
        t_r, scheduling and rendezvous time of one attempt [min].
    comm_init_seconds_per_gpu : array_like
        c, communicator set-up per accelerator [s].
    gpus : array_like
        G, accelerators of the job [count].
    retry_success_fraction : array_like
        q, probability that an attempt succeeds [probability].
    failed_attempt_minutes : array_like
        t_fail, cost of a failed attempt [min]; NaN for a whole restart.

    Returns
    -------
    float or ndarray
        Expected restart time t [min].

    Examples
    --------
    >>> round(restart_with_retries_minutes(2.0, 1047 / 2048, 2048, 1.0, float("nan")), 2)
    19.45
    >>> restart_with_retries_minutes(2.0, 0.0, 2048, 0.5, float("nan"))  # two attempts
    4.0
    """
    t_r = as_float_array(restart_minutes)
    one = t_r + as_float_array(comm_init_seconds_per_gpu) * as_float_array(gpus) / 60.0
    q = as_float_array(retry_success_fraction)
    fail = as_float_array(failed_attempt_minutes)
    fail = np.where(np.isnan(fail), one, fail)
    out = one + (1.0 / q - 1.0) * fail
    return like_input(out, restart_minutes, comm_init_seconds_per_gpu, gpus, retry_success_fraction)
