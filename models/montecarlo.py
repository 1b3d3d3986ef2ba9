"""Monte Carlo simulation of a training run: how bad can a month get, not just on average.

The simulator replays a training job, trial by trial but vectorised across trials with numpy
(every step of the loop advances all unfinished trials at once).  Each trial runs until a
fixed amount of compute work (``work_days``, by default the horizon ``days``) is committed; the
goodput over the first ``days`` of wall time and the wall time to finish are recorded.

Process (units: minutes inside, days/hours at the interface)
------------------------------------------------------------
* Work is cut into segments of τ₁ compute followed by a blocking save δ₁ (the level-1
  checkpoint); with a two-level strategy (``checkpoint.strategy``) every k-th segment also pays
  the durable save δ₂ and becomes durable (k·τ₁ ≈ ``checkpoint.durable_interval_minutes``).
  Without it every checkpoint is durable.  Checkpoints are computed in closed form between
  events.  All of these times come from the chain (:func:`models.chain.run_chain`, the
  figures of :func:`models.evaluate.evaluate_arrays`).
* Node failures: exponential (superposed, rate N·r) or, when ``reliability.weibull_shape`` ≠ 1,
  N independent per-node Weibull renewal processes started in equilibrium (the first gap is
  the stationary forward-recurrence time, so the mean rate stays N·r from day 0), after
  Schroeder & Gibson [3].  A share ``checkpoint.correlated_fraction`` of node failures takes
  out ``checkpoint.correlated_nodes`` nodes at once (one job failure, several spares).  Fabric
  events that outlast the collective timeout are further Poisson job failures
  (:func:`models.network.fabric_failures_per_day`).
* A failure loses the work since the last checkpoint that survives it: with two levels a
  failure falls back to the durable tier with the analytic model's probability
  ``fallback_fraction`` (every level-1 copy lost, Gemini [4]), else restores from level 1.
  It then costs detection + replacement + restart + restore.  A failure during recovery
  restarts the recovery, as in Daly's model [2], and its repair runs beside any still under
  way: the job waits for the last of them
  (:func:`models.reliability.overlapping_repairs_minutes`).  Replacement is a hot-spare
  swap while a spare is free, else ``recovery.replacement_minutes``; every failed node goes
  to repair for a lognormal time (mean ``reliability.repair_hours``, shape
  ``simulation.repair_sigma``) and
  then rejoins the pool — the M/G/∞ picture of
  :func:`models.reliability.probability_no_spare`.
* Fabric events shorter than the timeout pause training (no work lost) for the reroute time,
  drawn lognormal with the recovery spread.
* Spot (``pricing.model = 'spot'``): reclaimed instances are a second Poisson stream (rate
  N·r_spot) with a notice.  When the checkpoint that survives losing the node can be written
  within the notice (``spot_save_fits_notice`` of the analytic chain), the work done so far,
  the current segment's partial work included, is kept: the run pauses for the save,
  replacement, restart and restore, and the partial work stays protected until the segment's
  own checkpoint.  Otherwise the interruption is a node failure (rework since the last
  surviving checkpoint).

With exponential failures, fixed recovery times, no spares and no extra tiers the expected wall
time to finish T_s of work is exactly Daly's T_w (docs/references.md#expected-wall-time-and-goodput,
:func:`models.goodput.expected_wall_time_ratio`); tests/validation checks that.

References
----------
[1] J. W. Young, CACM 17(9):530-531, 1974. doi:10.1145/361147.361115
[2] J. T. Daly, FGCS 22(3):303-312, 2006. doi:10.1016/j.future.2004.11.016
[3] B. Schroeder and G. Gibson, "A large-scale study of failures in high-performance
    computing systems", DSN 2006. doi:10.1109/DSN.2006.5
[4] Z. Wang et al., "Gemini: Fast failure recovery in distributed training with in-memory
    checkpoints", SOSP 2023. doi:10.1145/3600006.3613145
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from math import gamma as gamma_fn  # scalar shape; scipy.special would slow every CLI start
from typing import Any

import numpy as np

from ._text import counted
from ._tools import MINUTES_PER_DAY
from .budget import MAX_SECONDS, Budget, BudgetExceeded
from .chain import (
    ChainResult,
    CheckpointPlan,
    FailureProcess,
    run_chain,
    spot_level1_survives,
)
from .checkpoint import probability_replicas_lost_in_window
from .errors import ValidationError
from .fields import _fmt
from .inputs import Inputs, as_inputs
from .pricing import DAYS_PER_MONTH
from .recovery import draw_stage

#: Limits of one simulation call: checked before it starts (:func:`check_size`, which
#: predicts the work) and while it runs (a :class:`~models.budget.Budget`).
MAX_TRIALS = 1_000_000
MAX_DAYS = 3650.0
MIN_DAYS = 1.0 / 24.0  # one hour: a shorter window sees almost no failure or checkpoint
MAX_EXPECTED_EVENTS = 400_000_000
MAX_WALL_FACTOR = 4.0
MAX_BYTES = 2.0e9  # predicted memory of one call, the whole process included
#: Memory model terms measured with bench/bench_simulate_memory.py (peak RSS of `goodput
#: simulate`): 55 MB for the process with numpy and the models loaded, 2,047 B per trial
#: beyond it (the model had 1,560: 996,097 trials were accepted and peaked at 2.09 GB).
PROCESS_BYTES = 80e6
FLOATS_PER_TRIAL = 75.0  # per-trial results and summaries, besides 3 time grids
WEIBULL_CHUNK_DRAWS = 20_000_000  # per-node renewal draws held at once (chunks shrink)
SPARE_CHUNK_CELLS = 25_000_000  # repair ring-buffer cells held at once (chunks shrink)
#: Trials that share one random stream (one child of the seed, ``Generator.spawn``), fewer
#: when memory caps a block (:func:`stream_block_trials`).  A result depends on the seed and
#: this block only, never on how a caller groups blocks into chunks (a page's progress bar,
#: ``chunk_trials``, ``chunks=``): the page, ``simulate``, ``plan`` and ``ladder`` agree.
STREAM_TRIALS = 10_000
#: Cost model of :func:`estimate_work` [s], measured on one core (bench/bench_montecarlo.py)
SEC_PER_PASS = 1.3e-4  # one pass of the event loop over a chunk (numpy call overhead)
SEC_PER_PASS_WEIBULL = 2.4e-4
SEC_PER_EVENT = 1.5e-6  # one event of one trial
SEC_PER_EVENT_PER_SPARE_SLOT = 6e-9  # spare bookkeeping, per slot of the repair buffer
SEC_PER_WEIBULL_DRAW = 3e-7

TIMELINE_EVENTS = (
    "start",
    "failure",
    "correlated_failure",
    "silent_corruption",
    "fallback_to_durable",
    "detected",
    "replaced",
    "restarted",
    "restored",
    "corrupt_checkpoint",
    "warmed_up",
    "stall",
    "stall_end",
    "spot_notice",
    "finish",
)


@dataclass(frozen=True)
class SimulationParams:
    """Numbers the simulator needs, in minutes, taken from the analytic path."""

    nodes: int
    node_rate_per_min: float  # independent node failures (Poisson or Weibull renewals)
    extra_rate_per_min: float  # other job failures (fabric events past the timeout), Poisson
    extra_hang_minutes: float  # such a failure first hangs the job until the timeout fires
    weibull_shape: float
    corr_fraction: float  # share of node failures that take out corr_nodes nodes at once
    corr_nodes: int
    stall_rate_per_min: float
    stall_minutes: float
    detection: float
    replacement: float
    swap: float
    restart: float
    restore: float  # durable tier (level 2, or the only level)
    memory_restore: float  # level 1 when two-level
    spread: float
    repair_minutes: float
    repair_sigma: float
    spares: int
    seg_compute: float  # τ₁
    seg_save: float  # δ₁
    durable_ratio: float  # r = durable interval / τ₁ (1: every checkpoint is durable)
    durable_extra_save: float  # δ₂
    p_fallback: float  # probability that a failure loses every level-1 copy
    cluster_usd_per_min: float
    spare_usd_per_min: float
    goodput_analytic: float
    interval_minutes: float
    spot_rate_per_min: float = 0.0  # Spot interruptions of the whole job
    spot_saved: bool = True  # the surviving checkpoint fits in the notice: no work lost
    spot_save_minutes: float = 0.0  # that save
    spot_level1_survives: bool = True  # it is level 1 (else the durable tier)
    spot_p_fallback: float = 1.0  # an unsaved interruption loses every level-1 copy
    # recovery stages as distributions and resilience features (models/recovery.py,
    # models/resilience.py); the defaults are the simulator as it was before them
    detection_dist: str = "fixed"
    replacement_dist: str = "lognormal"
    restart_dist: str = "lognormal"
    restore_dist: str = "lognormal"
    warmup_dist: str = "lognormal"
    hang_fraction: float = 0.0  # share of non-silent failures detected by timeout
    hang_detection: float = 0.0
    warmup: float = 0.0
    in_process_fraction: float = 0.0  # recovered in process: no replacement, no relaunch
    in_process_restart: float = 0.0
    peer_fraction: float = 0.0  # state copied from peers: no rework, no checkpoint restore
    peer_restore: float = 0.0
    elastic_fraction: float = 0.0  # run degraded through a replacement
    elastic_reconfigure: float = 0.0
    elastic_capacity: float = 0.0  # share of the cluster dropped while degraded
    sdc_fraction: float = 0.0  # silent data corruption: found sdc_delay later, rolled back
    sdc_delay: float = 0.0
    corrupt_fraction: float = 0.0  # a level-1 restore loads a corrupt checkpoint
    corrupt_loop: float = 0.0  # restart-loop minutes before the fallback (0 when validated)
    work_factor: float = 1.0  # throughput left after stragglers and feature overheads
    storage_usd_per_min: float = 0.0  # the durable checkpoint tier's storage (chain's figure)
    lost_usd_per_month: float = math.nan  # the chain's closed form, shown beside the runs
    # failure domains (models/chain.py domain_layout): rates of the whole job, per minute
    domain_rate_per_min: float = 0.0  # domain events: the domain out until repaired
    domain_p_fallback: float = 1.0  # a domain event leaves no reachable level-1 copy
    switch_rate_per_min: float = 0.0  # switch events: the job waits for the switch repair
    job_rate_per_min: float = 0.0  # job-level interruptions: no node to replace
    domains: int = 1  # scale-up domains of the job (a node failure hits one at random)
    spare_per_domain: int = 0  # in-domain spare nodes of each domain
    spare_domains: int = 0  # whole spare domains
    domain_repair: float = 0.0  # mean repair of a domain hit by a domain event [min]
    switch_repair: float = 0.0  # mean switch repair [min]
    slow_rate_per_min: float = 0.0  # fail-slow nodes: a slow window, then an eviction
    slow_minutes: float = 0.0  # full-speed minutes a slow window costs (slowdown x detection)
    retry_q: float = 1.0  # share of restart attempts that succeed
    retry_cost: float = 0.0  # wall time of a failed attempt [min]

    @property
    def domains_on(self) -> bool:
        """Whether any failure-domain class or spare of that kind is present (else the
        simulator draws exactly as before them)."""
        return bool(
            self.domain_rate_per_min > 0
            or self.switch_rate_per_min > 0
            or self.job_rate_per_min > 0
            or self.spare_per_domain > 0
            or self.spare_domains > 0
        )

    @property
    def job_failure_rate_per_min(self) -> float:
        """Job failures per minute that the simulator counts [1/min]: node failures (each
        node's renewal rate; fail-slow evictions among them), other job failures, domain,
        switch and job-level events, and Spot interruptions whose state does not survive
        the notice (a saved one is not a failure).  Times an expected wall time it is the
        closed form of the failures per run (Wald's identity: E[N(T)] = λ·E[T] for a
        Poisson stream stopped at the run's end)."""
        spot = 0.0 if self.spot_saved else self.spot_rate_per_min
        return (
            self.nodes * self.node_rate_per_min
            + self.extra_rate_per_min
            + self.domain_rate_per_min
            + self.switch_rate_per_min
            + self.job_rate_per_min
            + spot
        )

    @property
    def extended(self) -> bool:
        """Whether any recovery stage or resilience feature departs from the defaults (these
        draw from a separate random stream, so the default path's draws are unchanged)."""
        return bool(
            self.detection_dist != "fixed"
            or self.replacement_dist != "lognormal"
            or self.restart_dist != "lognormal"
            or self.restore_dist != "lognormal"
            or self.hang_fraction > 0
            or self.warmup > 0
            or self.in_process_fraction > 0
            or self.peer_fraction > 0
            or self.elastic_fraction > 0
            or self.sdc_fraction > 0
            or self.corrupt_fraction > 0
        )


def _num(value: Any) -> float:
    """One input or figure as a float (an empty optional number is NaN)."""
    return float(np.asarray(value, dtype=float))


def _failed_attempt(x: Inputs, failures: FailureProcess) -> float:
    """What a failed restart attempt costs [min]: recovery.failed_attempt_minutes, else (NaN,
    empty) a whole restart (scheduling and rendezvous plus the chain's communicator set-up)."""
    given = _num(x.recovery.failed_attempt_minutes)
    if math.isnan(given):
        return _num(x.recovery.restart_minutes) + _num(failures.comm_init_minutes)
    return given


def _segment_params(plan: CheckpointPlan) -> dict[str, Any]:
    """Checkpoint segment of the simulator, from the chain's checkpoint plan: level-1
    interval tau and save [min], and with two levels the durable ratio k = max(1, durable
    interval / tau), the extra durable save [min], the durable restore [min] and the share
    of failures falling back to it [fraction]."""
    tau = _num(plan.checkpoint_interval_minutes)
    save1 = _num(plan.save_seconds) / 60.0
    restore1 = _num(plan.restore_seconds) / 60.0
    durable_iv = _num(plan.durable_interval_minutes)
    p_fb = _num(plan.fallback_fraction)
    two_level = p_fb > 0 or durable_iv != tau
    if two_level:
        ratio = max(1.0, durable_iv / tau)
        extra = _num(plan.durable_save_seconds) / 60.0
        restore2 = _num(plan.durable_restore_seconds) / 60.0
    else:
        ratio, extra, restore2, p_fb = 1.0, 0.0, restore1, 1.0
    return {
        "tau": tau,
        "save1": save1,
        "restore1": restore1,
        "two_level": two_level,
        "ratio": ratio,
        "extra": extra,
        "restore2": restore2,
        "p_fb": p_fb,
    }


def _spot_params(x: Inputs, r: ChainResult, node_rate: float, two_level: bool) -> dict[str, Any]:
    """Spot interruptions: rate [per min] = the chain's interruptions per day / 1440, whether
    the notice save fits, and the chance q that the level-1 replicas are lost in the
    re-replication window (models.checkpoint.probability_replicas_lost_in_window), 1 with
    one level."""
    ck_in = x.checkpoint
    replicas = _num(ck_in.memory_replicas)
    survives = bool(spot_level1_survives(ck_in.strategy, replicas))
    if two_level and survives:
        q = float(
            probability_replicas_lost_in_window(
                node_rate, replicas, _num(ck_in.rereplication_minutes)
            )
        )
    else:
        q = 1.0
    plan = r.checkpoint
    return {
        "spot_rate_per_min": _num(r.failures.spot_interruptions_per_day) / MINUTES_PER_DAY,
        "spot_saved": _num(plan.spot_save_fits_notice) > 0.5,
        "spot_save_minutes": _num(plan.spot_notice_save_seconds) / 60.0,
        "spot_level1_survives": survives,
        "spot_p_fallback": q if two_level else 1.0,
    }


def _recovery_params(x: Inputs, r: ChainResult) -> dict[str, Any]:
    """Recovery stages [min], their distributions and the resilience shares [fraction]
    (in-process restart, peer restore, elastic continuation, SDC, corrupt checkpoints); the
    restart loop of a corrupt checkpoint and the throughput kept are the chain's."""
    from .chain import _replica_share, _throughput_factor  # local: chain imports nothing here

    rec, res, sim = x.recovery, x.resilience, x.simulation
    f = r.failures
    return {
        "detection": _num(rec.detection_minutes),
        "replacement": _num(rec.replacement_minutes),
        "swap": _num(rec.hot_spare_swap_minutes),
        "retry_q": _num(rec.retry_success_fraction),
        "spread": _num(sim.recovery_spread),
        "repair_minutes": _num(x.reliability.repair_hours) * 60.0,
        "repair_sigma": _num(sim.repair_sigma),
        "detection_dist": str(sim.detection_distribution),
        "replacement_dist": str(sim.replacement_distribution),
        "restart_dist": str(sim.restart_distribution),
        "restore_dist": str(sim.restore_distribution),
        "warmup_dist": str(sim.warmup_distribution),
        "hang_fraction": _num(rec.hang_fraction),
        "hang_detection": _num(rec.hang_detection_minutes),
        "warmup": _num(rec.warmup_minutes),
        "in_process_fraction": _num(res.in_process_fraction),
        "in_process_restart": _num(res.in_process_restart_minutes),
        "peer_fraction": _num(res.peer_recovery_fraction),
        "peer_restore": _num(res.peer_restore_minutes),
        "elastic_fraction": _num(res.elastic_fraction),
        "elastic_reconfigure": _num(res.elastic_reconfigure_minutes),
        "elastic_capacity": _num(_replica_share(x)),
        "sdc_fraction": _num(x.reliability.sdc_fraction),
        "sdc_delay": _num(res.sdc_detection_minutes),
        "corrupt_fraction": _num(r.checkpoint.corrupt_fraction),
        "corrupt_loop": _num(r.checkpoint.restart_loop_minutes),
        "work_factor": _num(_throughput_factor(f.straggler_slowdown, f.overhead_fraction)),
    }


def _domain_params(x: Inputs, f: FailureProcess) -> dict[str, Any]:
    """Failure domains: the chain's domain, switch and job-level rates [per min], its
    scale-up domains, the in-domain and whole-domain spares and the repairs [min]."""
    from .chain import domain_fallback  # local: chain imports nothing here

    rel, ck_in = x.reliability, x.checkpoint
    return {
        "domain_p_fallback": _num(
            domain_fallback(ck_in.strategy, ck_in.memory_replicas, ck_in.replica_placement, f)
        ),
        "domain_rate_per_min": _num(f.domain_failures_per_day) / MINUTES_PER_DAY,
        "switch_rate_per_min": _num(f.switch_failures_per_day) / MINUTES_PER_DAY,
        "job_rate_per_min": _num(f.job_interruptions_per_day) / MINUTES_PER_DAY,
        "domains": max(1, round(_num(f.scaleup_domains))),
        "spare_per_domain": int(_num(x.cluster.spare_nodes_per_domain)),
        "spare_domains": int(_num(x.cluster.spare_domains)),
        "domain_repair": _num(rel.domain_repair_hours) * 60.0,
        "switch_repair": _num(rel.switch_repair_hours) * 60.0,
    }


#: The input sections the simulator reads (each must hold every field of its section).
_SECTIONS_READ = (
    "cluster",
    "reliability",
    "network",
    "checkpoint",
    "recovery",
    "resilience",
    "simulation",
)


def params_from_inputs(inputs: Mapping[str, Any]) -> SimulationParams:
    """Build :class:`SimulationParams` from the chain's results and the typed inputs.

    Everything that the analytic model derives is taken from the chain
    (:func:`models.chain.run_chain`, the same figures as
    :func:`models.evaluate.evaluate_arrays`), so the simulator follows it: the checkpoint
    interval (``'optimal'`` resolved), the level-1 save/restore and the durable save/restore
    and interval of the checkpoint strategy (:mod:`models.checkpoint`), the share of failures
    that fall back to the durable tier, the job failure rate including fabric events that
    outlast the collective timeout, the Spot, domain, switch and fail-slow rates, the price
    in force and the storage cost.  The rest are the scenario's inputs, read from their
    sections (:class:`models.inputs.Inputs`) with no default of the simulator's own: a field
    missing from ``inputs`` is an error naming it.  With two levels the durable interval is
    rounded to a whole number k of level-1 intervals.

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Resolved inputs (:func:`models.evaluate.resolve_inputs`, or a copy with some values
        replaced), each scalar in the unit of its field in :mod:`models.fields`.

    Returns
    -------
    SimulationParams
        Per-minute rates [per min], durations [min], prices [USD/min] and shares
        [fraction] for one simulated configuration.

    Raises
    ------
    models.inputs.MissingInput
        A registry field is not in ``inputs`` (the message names it).
    """
    x = as_inputs(inputs)
    for section in _SECTIONS_READ:  # a missing field is named before the chain defaults it
        getattr(x, section)
    r = run_chain(x)
    f, plan, cost = r.failures, r.checkpoint, r.cost
    nodes = int(_num(x.cluster.nodes))
    node_rate = _num(x.reliability.node_failure_rate_per_day)
    seg = _segment_params(plan)
    slow_day = _num(f.fail_slow_events_per_day)
    lam_total = (
        _num(f.failures_per_day)
        - _num(f.domain_failures_per_day)
        - _num(f.switch_failures_per_day)
        - _num(f.job_interruptions_per_day)
        - slow_day
    )
    net = x.network
    fabric = _num(net.fabric_events_per_day)
    reroute_s = _num(net.reroute_seconds)
    timeout_s = _num(net.collective_timeout_seconds)
    stall_rate = fabric if reroute_s <= timeout_s else 0.0
    price = _num(cost.usd_per_instance_hour_effective)
    spares = int(_num(x.cluster.spare_nodes))
    v = _num(plan.validation_minutes)
    return SimulationParams(
        nodes=nodes,
        # fail-slow nodes are evicted like failed nodes: they join the node failures
        node_rate_per_min=(node_rate + slow_day / max(nodes, 1)) / MINUTES_PER_DAY,
        extra_rate_per_min=max(0.0, lam_total - nodes * node_rate) / MINUTES_PER_DAY,
        extra_hang_minutes=timeout_s / 60.0 if reroute_s > timeout_s else 0.0,
        weibull_shape=_num(x.reliability.weibull_shape),
        corr_fraction=_num(x.checkpoint.correlated_fraction),
        # a multi-node event takes at most the whole cluster, as in the analytic model
        # (models.checkpoint.strategy_levels)
        corr_nodes=max(1, min(int(_num(x.checkpoint.correlated_nodes)), int(nodes))),
        stall_rate_per_min=stall_rate / MINUTES_PER_DAY,
        stall_minutes=reroute_s / 60.0,
        restart=_num(x.recovery.restart_minutes) + _num(f.comm_init_minutes),
        slow_rate_per_min=slow_day / MINUTES_PER_DAY,
        slow_minutes=_num(f.fail_slow_minutes_per_day) / slow_day if slow_day > 0 else 0.0,
        retry_cost=_failed_attempt(x, f),
        restore=seg["restore2"] + v,
        memory_restore=seg["restore1"] + v,
        spares=spares,
        seg_compute=seg["tau"],
        seg_save=seg["save1"],
        durable_ratio=seg["ratio"],
        durable_extra_save=seg["extra"],
        p_fallback=seg["p_fb"],
        cluster_usd_per_min=nodes * price / 60.0,
        spare_usd_per_min=spares * price / 60.0,
        goodput_analytic=_num(r.goodput.goodput),
        interval_minutes=seg["tau"],
        storage_usd_per_min=_num(cost.storage_usd_per_day) / MINUTES_PER_DAY,
        lost_usd_per_month=_num(cost.lost_usd_per_month),
        **_domain_params(x, f),
        **_spot_params(x, r, node_rate, seg["two_level"]),
        **_recovery_params(x, r),
    )


@dataclass
class SimulationResult:
    """Distributions from :func:`simulate`; one entry per trial unless said otherwise.

    Attributes
    ----------
    goodput : productive compute / wall time over the first ``days`` [fraction].  Productive
        compute counts committed work plus the compute in progress at the horizon.
    time_to_finish_days : wall time to commit ``work_days`` of compute [day]; NaN if a trial
        had not finished after ``max_wall_factor × work_days``.
    cost_usd : cluster + spare cost of that wall time [USD] (the instances, as the chain's
        ``cost_to_train_usd``).
    lost_usd : cost of paid time that did not advance training, plus spares and the durable
        tier's storage over the wall time [USD] (:func:`models.pricing.lost_usd_per_day`).
    failures, stalls, fallbacks : per-trial counts of job failures, fabric stalls and
        failures that fell back from the in-memory to the durable tier.
    grid_days, goodput_bands : cumulative goodput W(t)/t percentiles over time
        (``{5: array, 25: ..., 50: ..., 75: ..., 95: ...}`` over ``grid_days[1:]``).
    timeline : one sample trial as ``(event, t_minutes)`` tuples, events from TIMELINE_EVENTS.
    timeline_saves : that trial's blocking checkpoint saves as ``(start, end)`` minutes.
    timeline_rework : that trial's compute lost to failures as ``(start, end)`` minutes: from
        the completion of the last checkpoint that survived a failure to the failure (with a
        fallback to the durable tier this can reach back before earlier recoveries).
    events_simulated : failures, recoveries, stalls and finishes processed (all trials).
    checkpoints_simulated : checkpoint saves completed (computed in closed form).
    """

    trials: int
    days: float
    work_days: float
    goodput: np.ndarray
    time_to_finish_days: np.ndarray
    cost_usd: np.ndarray
    lost_usd: np.ndarray
    failures: np.ndarray
    stalls: np.ndarray
    fallbacks: np.ndarray
    grid_days: np.ndarray
    goodput_bands: dict[int, np.ndarray]
    timeline: list[tuple[str, float]]
    events_simulated: int
    checkpoints_simulated: int
    goodput_analytic: float
    interval_minutes: float
    params: SimulationParams | None = field(default=None, repr=False)
    work_grid_minutes: np.ndarray | None = field(default=None, repr=False)
    timeline_saves: list[tuple[float, float]] = field(default_factory=list, repr=False)
    timeline_rework: list[tuple[float, float]] = field(default_factory=list, repr=False)
    spot_interruptions: np.ndarray | None = None  # per trial: Spot interruptions (both kinds)

    # ------------------------------------------------------------------ summaries
    @property
    def goodput_mean(self) -> float:
        return float(np.mean(self.goodput))

    @property
    def goodput_stderr(self) -> float:
        n = self.goodput.size
        return float(np.std(self.goodput, ddof=1) / math.sqrt(n)) if n > 1 else float("nan")

    def goodput_percentile(self, q: float) -> float:
        """Percentile ``q`` of the runs' goodput.

        Parameters
        ----------
        q : float
            Percentile [0-100].

        Returns
        -------
        float
            Goodput at that percentile [fraction].
        """
        return float(np.percentile(self.goodput, q))

    @property
    def unfinished(self) -> int:
        return int(np.isnan(self.time_to_finish_days).sum())

    @property
    def time_to_finish_analytic_days(self) -> float:
        """Daly's expected wall time for ``work_days`` of compute: T_s / goodput [day]."""
        g = self.goodput_analytic
        return self.work_days / g if g > 0 else float("inf")

    def _lost_per_month(self) -> np.ndarray:
        """Lost dollars per month (365.25/12 days) of wall time, per finished run [USD]."""
        ok = np.isfinite(self.lost_usd) & np.isfinite(self.time_to_finish_days)
        ok &= self.time_to_finish_days > 0
        return self.lost_usd[ok] / self.time_to_finish_days[ok] * DAYS_PER_MONTH

    def summary(self) -> dict[str, float]:
        """Plain floats: means, percentiles, standard errors (NaN where no trial finished).

        Returns
        -------
        dict[str, float]
            Goodput figures [fraction], times to finish [day], costs and losses [USD, or
            USD/month for ``*_per_month``], mean failures and unfinished runs [count].
        """
        t = self.time_to_finish_days[np.isfinite(self.time_to_finish_days)]
        lost = self.lost_usd[np.isfinite(self.lost_usd)]
        cost = self.cost_usd[np.isfinite(self.cost_usd)]
        return {
            "goodput_mean": self.goodput_mean,
            "goodput_p5": self.goodput_percentile(5),
            "goodput_p50": self.goodput_percentile(50),
            "goodput_p95": self.goodput_percentile(95),
            "goodput_stderr": self.goodput_stderr,
            "goodput_analytic": self.goodput_analytic,
            "time_to_finish_mean_days": _mean(t),
            "time_to_finish_p5_days": _pct(t, 5),
            "time_to_finish_p50_days": _pct(t, 50),
            "time_to_finish_p95_days": _pct(t, 95),
            "time_to_finish_stderr_days": _stderr(t),
            "time_to_finish_analytic_days": self.time_to_finish_analytic_days,
            "cost_mean_usd": _mean(cost),
            "lost_mean_usd": _mean(lost),
            "lost_p95_usd": _pct(lost, 95),
            # per month of wall time: each run's loss over its own wall time to finish
            "lost_mean_usd_per_month": _mean(self._lost_per_month()),
            "lost_p50_usd_per_month": _pct(self._lost_per_month(), 50),
            "lost_p95_usd_per_month": _pct(self._lost_per_month(), 95),
            **self._analytic_lost(),
            "failures_mean": float(np.mean(self.failures)),
            "failures_analytic": self._analytic_failures(),
            "unfinished_trials": float(self.unfinished),
        }

    def _analytic_failures(self) -> float:
        """The closed form of the mean failures per run: the counted job-failure rate
        times Daly's expected wall time (:attr:`SimulationParams.job_failure_rate_per_min`)
        [count].  NaN without a finite wall time, and where the product does not hold
        (:meth:`failures_closed_form_gap` says why)."""
        p, wall = self.params, self.time_to_finish_analytic_days
        if p is None or not math.isfinite(wall) or self.failures_closed_form_gap():
            return math.nan
        return p.job_failure_rate_per_min * wall * MINUTES_PER_DAY

    def failures_closed_form_gap(self) -> str:
        """Why the failures per run have no closed form here, in words; "" when they have
        one (:meth:`_analytic_failures`)."""
        p = self.params
        if p is None:
            return "no simulator parameters"
        if p.weibull_shape != 1.0:
            return "Weibull node failures are renewals, not a Poisson stream"
        if p.extended:
            return (
                "resilience features or recovery distributions leave part of the wall time "
                "unexposed to new failures (silent corruption found later, for one)"
            )
        if p.spot_rate_per_min > 0 and p.spot_saved:
            return "Spot interruptions saved within their notice pause the job without failing"
        return ""

    def _analytic_lost(self) -> dict[str, float]:
        """The closed form's lost dollars per run (Daly's expected wall time at the analytic
        goodput; storage and spares included, as the chain's ``lost_usd_per_day``) and per
        month of wall time (the chain's ``lost_usd_per_month``) [USD]."""
        g, p = self.goodput_analytic, self.params
        if p is None or not (g > 0):
            return {"lost_analytic_usd": math.nan, "lost_analytic_usd_per_month": math.nan}
        wall = self.time_to_finish_analytic_days * MINUTES_PER_DAY
        lost = float(_lost_usd(p, wall, self.work_days * MINUTES_PER_DAY))
        # per month: the chain's lost_usd_per_month (the Overview's lost per day)
        return {"lost_analytic_usd": lost, "lost_analytic_usd_per_month": p.lost_usd_per_month}


def _lost_usd(p: SimulationParams, wall_min, work_min):
    """Lost dollars of runs that took ``wall_min`` of wall time to commit ``work_min`` of
    compute [USD]: :func:`models.pricing.lost_usd_per_day` at goodput work / wall, times
    the wall time, written so that no division rounds it: (wall − work)·cluster +
    wall·(spares + storage)."""
    wall = np.asarray(wall_min, dtype=float)
    out = (wall - work_min) * p.cluster_usd_per_min + wall * p.spare_usd_per_min
    if p.storage_usd_per_min:
        out = out + wall * p.storage_usd_per_min
    return out


def _mean(x: np.ndarray) -> float:
    return float(np.mean(x)) if x.size else float("nan")


def _pct(x: np.ndarray, q: float) -> float:
    return float(np.percentile(x, q)) if x.size else float("nan")


def _stderr(x: np.ndarray) -> float:
    return float(np.std(x, ddof=1) / math.sqrt(x.size)) if x.size > 1 else float("nan")


# ---------------------------------------------------------------------- validation
@dataclass(frozen=True)
class WorkEstimate:
    """The work a simulation call is predicted to do, before it starts.

    ``seconds`` follows a cost model measured on one core of a 2-core development machine
    (``bench/bench_montecarlo.py``): loop passes (one numpy pass over a chunk's trials for
    each event, including the restarts of interrupted recoveries) plus per-trial events,
    per-node Weibull draws and spare bookkeeping.  It is an estimate; the :class:`Budget`
    checked inside the loops is the hard limit.
    """

    trials: int
    days: float
    chunk_trials: int
    chunks: int
    wall_cap_days: float  # a run still unfinished at this wall time stops
    wall_days: float  # expected wall time of one run (Daly's, at most the cap)
    events_per_run: float
    events: float
    loop_passes: float  # sequential passes of the event loops, all chunks
    weibull_draws: float
    memory_bytes: float
    seconds: float


def _layout(
    p: SimulationParams,
    days: float,
    work_days: float | None,
    max_wall_factor: float,
) -> tuple[float, int, float, int]:
    """(horizon [min], work segments, wall-time cap [min], trials per stream block) of a
    call; the block depends on the scenario and the window, not on the caller's chunks."""
    horizon = float(days) * MINUTES_PER_DAY
    work_min = float(days if work_days is None else work_days) * MINUTES_PER_DAY
    # work per minute of compute after stragglers and overheads
    need = max(1, math.ceil(work_min / (p.seg_compute * p.work_factor) - 1e-9))
    cap = max(max_wall_factor * need * (p.seg_compute + p.seg_save + p.durable_extra_save), horizon)
    chunk = STREAM_TRIALS
    if p.weibull_shape != 1.0:
        chunk = max(1, min(chunk, 2_000_000 // max(p.nodes, 1)))
        if p.node_rate_per_min > 0:  # renewals up to the cap, per trial
            per_trial = p.nodes * (1.0 + p.node_rate_per_min * cap)
            chunk = max(1, min(chunk, int(WEIBULL_CHUNK_DRAWS // per_trial)))
    if p.spares > 0:  # the repair ring buffer holds spares + 2 x correlated nodes per trial
        chunk = max(1, min(chunk, SPARE_CHUNK_CELLS // _spare_slots(p)))
    return horizon, need, cap, chunk


def _spare_slots(p: SimulationParams) -> int:
    return p.spares + max(64, 2 * p.corr_nodes)


def stream_block_trials(
    p: SimulationParams,
    days: float,
    *,
    work_days: float | None = None,
    max_wall_factor: float = MAX_WALL_FACTOR,
) -> int:
    """Trials per random stream of a call (STREAM_TRIALS, fewer when memory caps a block).

    Parameters
    ----------
    p : the simulator's inputs.
    days : horizon [day].
    work_days : compute each run must commit [day]; default ``days``.
    max_wall_factor : wall-time cap as a multiple of the compute [1].

    Returns
    -------
    int
        Trials simulated with one child stream of the seed [trials]; block ``b`` holds
        trials ``b·n`` to ``(b + 1)·n − 1``.  ``chunks=[b]`` with ``chunk_trials=1`` runs
        exactly block ``b``.
    """
    return _layout(p, days, work_days, max_wall_factor)[3]


def estimate_work(
    p: SimulationParams,
    trials: int,
    days: float,
    *,
    work_days: float | None = None,
    chunk_trials: int = 10_000,
    grid_points: int = 61,
    max_wall_factor: float = MAX_WALL_FACTOR,
) -> WorkEstimate:
    """Predict events, loop passes, memory and seconds of a call (see :class:`WorkEstimate`).

    With job failures at rate λ (node failures plus fabric failures past the timeout),
    stalls at rate s, recovery time R and an expected wall time T per run (work / Daly's
    goodput, at most the wall-time cap): events per run ≈ λT(2 − q) + 2sT(1 − q), where
    q = 1 − e^{−λR} is the share of failures that strike during a recovery (each restarts
    it) and 1 − q the share of time up (stalls strike only then).  Loop passes per chunk of
    n trials ≈ (λ + s)(1 − q)·T' + λT'·(1 + (1 − q)·ln n / (−ln q)) with
    T' = min(cap, 2T): the recovery loop runs until the longest chain of
    restarts in the chunk ends (the expected maximum of n geometric chains).

    Parameters
    ----------
    p : SimulationParams
        The simulator's inputs (rates [per min], durations [min]).
    trials : int
        Independent runs [count].
    days : float
        Horizon over which goodput is measured [day].
    work_days : float, optional
        Compute each run must commit [day]; default ``days``.
    chunk_trials : int
        Trials per chunk [count] (rounded up to whole stream blocks).
    grid_points : int
        Points of the goodput-over-time grid [count].
    max_wall_factor : float
        Wall-time cap as a multiple of the compute [-].

    Returns
    -------
    WorkEstimate
        Predicted events [count], loop passes [count], memory [bytes] and time [s].
    """
    _, need, cap, chunk = _layout(p, days, work_days, max_wall_factor)
    n = min(chunk, trials)
    chunks = math.ceil(trials / chunk)
    lam = p.nodes * p.node_rate_per_min + p.extra_rate_per_min + p.spot_rate_per_min
    s = p.stall_rate_per_min
    g = p.goodput_analytic
    work = need * p.seg_compute
    wall = min(cap, work / g) if math.isfinite(g) and g > 0 else cap
    wall_seq = min(cap, 2.0 * wall)
    recovery = max(0.0, p.detection + p.replacement + p.restart + p.restore)
    a = math.exp(-lam * recovery)  # share of failures whose recovery ends uninterrupted
    events_per_run = lam * wall * (1.0 + a) + 2.0 * s * wall * a + 1.0
    if a >= 1.0:
        chain = 1.0
    elif a <= 0.0:
        chain = 1.0 + math.log(max(n, 1))
    else:
        chain = 1.0 + a * math.log(max(n, 1)) / -math.log1p(-a)
    passes = chunks * ((lam + s) * a * wall_seq + lam * wall_seq * chain + 1.0)
    weibull = p.weibull_shape != 1.0 and p.node_rate_per_min > 0
    draws = trials * p.nodes * (1.0 + p.node_rate_per_min * cap) if weibull else 0.0
    slots = _spare_slots(p) if p.spares > 0 else 0
    memory = PROCESS_BYTES + trials * (3.0 * max(2, grid_points) + FLOATS_PER_TRIAL) * 8.0
    memory += n * slots * 16.0
    if weibull:
        memory += n * p.nodes * (24.0 + 40.0 * (1.0 + p.node_rate_per_min * cap))
    per_pass = SEC_PER_PASS_WEIBULL if weibull else SEC_PER_PASS
    seconds = (
        passes * per_pass
        + trials * events_per_run * (SEC_PER_EVENT + slots * SEC_PER_EVENT_PER_SPARE_SLOT)
        + draws * SEC_PER_WEIBULL_DRAW
    )
    return WorkEstimate(
        trials=int(trials),
        days=float(days),
        chunk_trials=chunk,
        chunks=chunks,
        wall_cap_days=cap / MINUTES_PER_DAY,
        wall_days=wall / MINUTES_PER_DAY,
        events_per_run=events_per_run,
        events=trials * events_per_run,
        loop_passes=passes,
        weibull_draws=draws,
        memory_bytes=memory,
        seconds=seconds,
    )


def _check_trials_days(trials: Any, days: Any) -> float:
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer):
        raise ValidationError("trials", f"{trials!r:.80} is not an integer in [1, {MAX_TRIALS:,}]")
    if not 1 <= trials <= MAX_TRIALS:
        raise ValidationError(
            "trials", f"{trials} is out of range (an integer in [1, {MAX_TRIALS:,}])"
        )
    allowed = f"a number of days in [{_fmt(round(MIN_DAYS, 5))}, {_fmt(MAX_DAYS)}] (one hour to ten years)"
    try:
        d = float(days)
    except (TypeError, ValueError, OverflowError):
        raise ValidationError("days", f"{days!r:.80} is not {allowed}") from None
    if not (math.isfinite(d) and 0 < d <= MAX_DAYS):
        raise ValidationError("days", f"{days!r:.80} is out of range ({allowed})")
    if d < MIN_DAYS:
        raise ValidationError(
            "days",
            f"{d:g} is too short ({allowed}: a window under an hour sees almost no failure, "
            "recovery or checkpoint, so its goodput would read close to 100%)",
        )
    return d


def _fits(est: WorkEstimate, max_events: float, max_seconds: float) -> bool:
    return est.events <= max_events and est.seconds <= max_seconds and est.memory_bytes <= MAX_BYTES


def _largest(ok: Callable[[float], bool], lo: float, hi: float, integer: bool) -> float | None:
    """Largest x in [lo, hi] with ok(x) (ok is monotone: true up to some x), or None."""
    if not ok(lo):
        return None
    for _ in range(60):
        if (hi - lo <= 1) if integer else (hi - lo <= 1e-3 * hi):
            break
        mid = (lo + hi) // 2 if integer else (lo + hi) / 2.0
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def _drivers(p: SimulationParams, est: WorkEstimate) -> str:
    """The scenario fields that make a run long, most important first (for messages)."""
    parts, long_runs = [], []
    node_per_day = p.nodes * p.node_rate_per_min * MINUTES_PER_DAY
    if node_per_day > 0:
        parts.append(
            f"{node_per_day:,.4g} failures/day (cluster.nodes x "
            "reliability.node_failure_rate_per_day)"
        )
    fabric = (p.extra_rate_per_min + p.stall_rate_per_min) * MINUTES_PER_DAY
    if fabric > 0:
        parts.append(f"{fabric:,.4g} fabric events/day (network.fabric_events_per_day)")
    if est.wall_days >= est.wall_cap_days * 0.999 and est.wall_cap_days > est.days:
        long_runs.append(f"runs with goodput near 0 go on to the {est.wall_cap_days:.3g}-day cap")
    elif p.seg_save > p.seg_compute:
        long_runs.append("saves longer than the interval (checkpoint.save_seconds)")
    if est.weibull_draws > 0:
        parts.append("per-node Weibull renewals (reliability.weibull_shape)")
    if p.spares > 0 and _spare_slots(p) > 1000:
        parts.append("repair bookkeeping (cluster.spare_nodes, checkpoint.correlated_nodes)")
    return "; ".join(parts[:2] + long_runs) or "this scenario"


def _over(est: WorkEstimate, max_events: float, max_seconds: float) -> str:
    """What the predicted work exceeds, e.g. '~58 s (limit 5 s)'."""
    out = []
    if est.seconds > max_seconds:
        out.append(f"~{est.seconds:,.2g} s (limit {max_seconds:g} s)")
    if est.events > max_events:
        out.append(f"~{est.events:,.2g} events (limit {max_events:.2g})")
    if est.memory_bytes > MAX_BYTES:
        out.append(f"~{est.memory_bytes / 1e9:.2g} GB (limit {MAX_BYTES / 1e9:g} GB)")
    return ", ".join(out)


def check_size(
    trials: Any,
    days: Any,
    inputs: Any = None,
    max_events: float = MAX_EXPECTED_EVENTS,
    *,
    max_seconds: float = MAX_SECONDS,
    work_days: float | None = None,
    chunk_trials: int = 10_000,
    grid_points: int = 61,
    max_wall_factor: float = MAX_WALL_FACTOR,
) -> WorkEstimate | None:
    """Raise ValidationError for sizes we refuse to run; else return the predicted work.

    Without ``inputs`` only ``trials`` (an integer in [1, MAX_TRIALS]) and ``days`` (in
    [MIN_DAYS, MAX_DAYS]) are checked.  ``inputs`` (flat inputs or :class:`SimulationParams`)
    adds the scenario: the window must hold one checkpoint interval and its save, and the
    predicted work (:func:`estimate_work`) must stay within ``max_events`` events,
    ``max_seconds`` seconds and MAX_BYTES of memory.  A refusal names ``trials`` or
    ``days`` with the nearest allowed value, or the scenario fields that make even one
    short run too large.

    Parameters
    ----------
    trials : Any
        Independent runs [count], as the user gave it.
    days : Any
        Horizon [day], as the user gave it.
    inputs : Mapping[str, Any] or SimulationParams, optional
        The scenario; without it only the sizes are checked.
    max_events : float
        Largest predicted number of simulated events allowed [count].
    max_seconds : float
        Largest predicted run time allowed [s].
    work_days : float, optional
        Compute each run must commit [day]; default ``days``.
    chunk_trials : int
        Trials per chunk [count].
    grid_points : int
        Points of the goodput-over-time grid [count].
    max_wall_factor : float
        Wall-time cap as a multiple of the compute [-].

    Returns
    -------
    WorkEstimate or None
        The predicted work (:func:`estimate_work`), or None without ``inputs``.

    Raises
    ------
    ValidationError
        When the size or the predicted work is out of range.
    """
    d = _check_trials_days(trials, days)
    if inputs is None:
        return None
    p = inputs if isinstance(inputs, SimulationParams) else params_from_inputs(inputs)
    segment = p.seg_compute + p.seg_save
    if d * MINUTES_PER_DAY < segment:
        raise ValidationError(
            "days",
            f"{d:g} is shorter than one checkpoint interval and its save ({segment:.4g} min "
            f"= {segment / MINUTES_PER_DAY:.4g} days: checkpoint.interval_minutes + "
            "checkpoint.save_seconds); a shorter window sees no save and no rework "
            f"(allowed: days >= {segment / MINUTES_PER_DAY:.4g})",
        )
    kw = {
        "work_days": work_days,
        "chunk_trials": chunk_trials,
        "grid_points": grid_points,
        "max_wall_factor": max_wall_factor,
    }
    est = estimate_work(p, int(trials), d, **kw)
    if _fits(est, max_events, max_seconds):
        return est
    min_days = max(MIN_DAYS, segment / MINUTES_PER_DAY)

    def ok_trials(t: float) -> bool:
        return _fits(estimate_work(p, int(t), d, **kw), max_events, max_seconds)

    def ok_days(x: float) -> bool:
        return _fits(estimate_work(p, int(trials), x, **kw), max_events, max_seconds)

    most_trials = _largest(ok_trials, 1, int(trials), integer=True)
    most_days = _largest(ok_days, min_days, d, integer=False) if d > min_days else None
    runs = counted(int(trials), "trial")  # "1 trial", as the CLI
    what = f"{runs} x {d:g} days would take {_over(est, max_events, max_seconds)}"
    why = _drivers(p, est)
    if most_trials is not None and most_trials >= 1:
        alt = f" or days <= {most_days:.3g}" if most_days else ""
        raise ValidationError(
            "trials", f"{what}: {why} (allowed: trials <= {int(most_trials):,}{alt})"
        )
    if most_days is not None:
        raise ValidationError("days", f"{what}: {why} (allowed: days <= {most_days:.3g})")
    raise ValidationError("days", f"{what} even for 1 trial: {why} (lower these scenario fields)")


# ---------------------------------------------------------------------- random helpers
def _lognormal(rng: np.random.Generator, mean: float, cv: float, size: int) -> np.ndarray:
    """Lognormal draws with the given mean and coefficient of variation (cv=0: constant)."""
    if mean <= 0:
        return np.zeros(size)
    if cv <= 0:
        return np.full(size, mean)
    s2 = math.log1p(cv * cv)
    return rng.lognormal(math.log(mean) - s2 / 2.0, math.sqrt(s2), size)


def _lognormal_sigma(rng: np.random.Generator, mean: float, sigma: float, size: int):
    if mean <= 0:
        return np.zeros(size)
    if sigma <= 0:
        return np.full(size, mean)
    return rng.lognormal(math.log(mean) - sigma * sigma / 2.0, sigma, size)


def weibull_failure_times(
    n_trials: int,
    nodes: int,
    rate_per_min: float,
    shape: float,
    horizon_min: float,
    rng: np.random.Generator,
    budget: Budget | None = None,
) -> np.ndarray:
    """Node failure times of ``nodes`` stationary Weibull renewal processes per trial.

    Returns an ``(n_trials, K)`` array of sorted times [min] padded with ``inf``.  The mean
    gap is 1/rate; scale = mean / Γ(1 + 1/k).  The first gap is the equilibrium
    forward-recurrence time U·L with L length-biased: (L/scale)^k ~ Gamma(1 + 1/k), so the
    expected count in [0, H] is exactly nodes·rate·H (renewal theory, Cox 1962).
    ``budget`` is checked on every round of renewals.

    Parameters
    ----------
    n_trials : int
        Independent runs [count].
    nodes : int
        Renewal processes per run [count].
    rate_per_min : float
        Failure rate of one node [per node-min].
    shape : float
        Weibull shape k [-] (1: exponential gaps).
    horizon_min : float
        Time span to cover [min].
    rng : numpy.random.Generator
        Random stream.
    budget : Budget, optional
        Checked on every round of renewals.

    Returns
    -------
    numpy.ndarray
        ``(n_trials, K)`` sorted failure times [min], padded with ``inf``.
    """
    if rate_per_min <= 0:
        return np.full((n_trials, 1), np.inf)
    scale = (1.0 / rate_per_min) / gamma_fn(1.0 + 1.0 / shape)
    g = rng.standard_gamma(1.0 + 1.0 / shape, size=(n_trials, nodes))
    first = rng.random((n_trials, nodes)) * scale * g ** (1.0 / shape)
    trial_ids, _ = np.nonzero(first < horizon_min)
    times = first[first < horizon_min]
    all_t, all_id = [times], [trial_ids]
    cur, cur_id = times, trial_ids
    while cur.size:
        if budget is not None:
            budget.check()
        cur = cur + scale * rng.weibull(shape, cur.size)
        keep = cur < horizon_min
        cur, cur_id = cur[keep], cur_id[keep]
        all_t.append(cur)
        all_id.append(cur_id)
    t = np.concatenate(all_t)
    ids = np.concatenate(all_id)
    order = np.lexsort((t, ids))
    t, ids = t[order], ids[order]
    counts = np.bincount(ids, minlength=n_trials)
    out = np.full((n_trials, int(counts.max(initial=0)) + 1), np.inf)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    pos = np.arange(t.size) - starts[ids]
    out[ids, pos] = t
    return out


# ---------------------------------------------------------------------- the simulator
class _Chunk:
    """State of one chunk of trials; arrays indexed by local trial number."""

    def __init__(
        self, p: SimulationParams, n: int, rng, horizon, work_segments, grid, cap, budget=None
    ):
        self.p, self.n, self.rng = p, n, rng
        self.budget: Budget | None = budget  # checked on every pass of the event loops
        self.horizon, self.cap, self.grid = horizon, cap, grid
        self.need = work_segments
        self.t = np.zeros(n)
        self.m = np.zeros(n, dtype=np.int64)  # committed segments
        self.o = np.zeros(n)  # time already spent in the current segment
        self.done = np.zeros(n, dtype=bool)
        self.finish = np.full(n, np.nan)
        self.failures = np.zeros(n, dtype=np.int64)
        self.stalls = np.zeros(n, dtype=np.int64)
        self.fallbacks = np.zeros(n, dtype=np.int64)
        self.spot = np.zeros(n, dtype=np.int64)
        self.prot = np.zeros(n)  # partial work of the current segment saved in a Spot notice
        self.gw = np.zeros((n, grid.size))  # work at grid times
        self.gp = np.ones(n, dtype=np.int64)  # next grid index (grid[0] = 0 has work 0)
        self.events = 0
        self.checkpoints = 0
        s = p.seg_compute + p.seg_save
        self.s = s
        self.r = p.durable_ratio
        self.two = p.durable_ratio > 1.0 or p.p_fallback < 1.0
        self.d2 = p.durable_extra_save
        self.mean_seg = s + self.d2 / self.r
        self.weib = None
        self.ptr = None
        if p.weibull_shape != 1.0 and p.node_rate_per_min > 0:
            self.weib = weibull_failure_times(
                n, p.nodes, p.node_rate_per_min, p.weibull_shape, cap, rng, budget
            )
            self.ptr = np.zeros(n, dtype=np.int64)
        # features beyond the defaults draw from their own stream (the default path's draws
        # stay as they were); spawning does not advance ``rng``
        self.aux = rng.spawn(1)[0] if p.extended else None
        self.lam_node = p.nodes * p.node_rate_per_min
        self.use_spares = p.spares > 0
        if self.use_spares:
            self.kb = _spare_slots(p)
            self.buf = np.full((n, self.kb), -np.inf)
            self.wp = np.zeros(n, dtype=np.int64)
        # failure domains: the classes beyond nodes and fabric, and the domains' spare pools
        # (slot k of a pool holds when its spare is back from repair; -inf: free)
        self.dom = p.domains_on
        # fail-slow windows run on, exposed to failures, with the work they did not do owed:
        # the offset into the current segment may then be below 0
        self.behind = p.slow_rate_per_min > 0
        self.lam_new = p.domain_rate_per_min + p.switch_rate_per_min + p.job_rate_per_min
        self.cum_rates = np.cumsum(
            [
                self.lam_node,
                p.extra_rate_per_min,
                p.domain_rate_per_min,
                p.switch_rate_per_min,
                p.job_rate_per_min,
            ]
        )
        if p.spare_per_domain > 0:
            self.dbuf = np.full((n, p.domains, p.spare_per_domain), -np.inf)
        if p.spare_domains > 0:
            self.sbuf = np.full((n, p.spare_domains), -np.inf)
        self.timeline: list[tuple[str, float]] | None = None
        self.saves: list[tuple[float, float]] = []
        self.rework: list[tuple[float, float]] = []
        self._ckpt_time: dict[int, float] = {0: 0.0}  # sample trial: segment -> completion

    # --- segment arithmetic -------------------------------------------------------
    def _cum(self, m0, j):
        """Time to complete j segments after m0 committed ones (durable extra every k-th)."""
        if self.d2 == 0.0:
            return j * self.s
        return j * self.s + self.d2 * (self._n_durable(m0 + j) - self._n_durable(m0))

    def _n_durable(self, m):
        """Durable checkpoints among the first m: the first level-1 checkpoint at or after
        each multiple of the durable interval is also written to the durable tier."""
        return np.floor(m / self.r + 1e-9).astype(np.int64)

    def _segments_done(self, m0, e):
        """Largest j with _cum(m0, j) <= e (e includes the offset into the current segment)."""
        j = np.floor(e / self.mean_seg).astype(np.int64)
        if self.d2 == 0.0:
            # a fail-slow window leaves the offset below 0 (work still owed): no segment done
            return np.maximum(j, 0) if self.behind else j
        j = np.maximum(j - 2, 0)
        for _ in range(8):
            up = self._cum(m0, j + 1) <= e
            if not up.any():
                break
            j = j + up
        return j

    def _work_at(self, m0, o0, e):
        """Work (committed + in progress) after elapsed e from state (m0, o0) [min]."""
        ee = e + o0
        j = self._segments_done(m0, ee)
        r = ee - self._cum(m0, j)
        if self.behind:
            r = np.maximum(r, 0.0)
        w = (m0 + j) * self.p.seg_compute + np.minimum(r, self.p.seg_compute)
        return np.minimum(w, self.need * self.p.seg_compute)

    def _trace_up(self, t0: float, m0: int, o0: float, t_end: float) -> None:
        """The sample trial's blocking saves in the up period [t0, t_end] (entered with m0
        committed segments and o0 minutes into the next), and when each checkpoint completed."""
        if t_end <= t0:
            return
        tau1 = self.p.seg_compute
        j = int(self._segments_done(np.array([m0]), np.array([t_end - t0 + o0]))[0])
        js = np.arange(0, j + 2)
        cum = self._cum(np.full(js.size, m0), js).astype(float)
        seg_start = t0 - o0 + cum[:-1]
        seg_end = t0 - o0 + cum[1:]
        save_start = np.maximum(seg_start + tau1, t0)
        save_end = np.minimum(seg_end, t_end)
        keep = save_end > save_start
        self.saves.extend(zip(save_start[keep].tolist(), save_end[keep].tolist(), strict=True))
        for k in range(1, j + 1):
            self._ckpt_time[m0 + k] = float(seg_end[k - 1])

    # --- grid recording -----------------------------------------------------------
    def _record(self, idx, t_end, value_fn):
        gsize = self.grid.size
        while idx.size:
            gi = self.gp[idx]
            ok = gi < gsize
            ok[ok] = self.grid[gi[ok]] <= t_end[ok]
            if not ok.any():
                return
            idx, t_end = idx[ok], t_end[ok]
            gi = gi[ok]
            self.gw[idx, gi] = value_fn(idx, self.grid[gi], ok)
            self.gp[idx] += 1
            value_fn = _narrow(value_fn, ok)

    # --- failure source -----------------------------------------------------------
    def _next_failure(self, idx, t0):
        """(time, is_correlated, is_node, kind) of the next job failure after t0 for trials
        idx.

        Exponential: one superposed Poisson stream (node + other failures); Weibull: the
        next pre-generated node renewal, or an earlier Poisson 'other' failure.  A node
        failure is a correlated multi-node one with probability ``corr_fraction``.  ``kind``
        is None without failure-domain classes, else the class of each failure: 0 node,
        1 fabric, 2 domain event, 3 switch event, 4 job-level interruption.
        """
        if self.lam_new > 0:
            return self._next_failure_classes(idx, t0)
        tf, corr, node = self._next_failure_nodes(idx, t0)
        return tf, corr, node, None

    def _next_failure_classes(self, idx, t0):
        """:meth:`_next_failure` with the failure-domain classes: one more superposed
        Poisson stream (domain, switch and job-level events) split by its rates."""
        p, rng, n = self.p, self.rng, idx.size
        lam_old = self.lam_node + p.extra_rate_per_min
        if self.weib is None:
            lam = lam_old + self.lam_new
            tf = t0 + rng.exponential(1.0 / lam, n)
            kind = np.searchsorted(self.cum_rates, rng.random(n) * lam, side="right")
            kind = np.minimum(kind, 4)
        else:
            tf, _, node = self._next_failure_nodes(idx, t0)
            kind = np.where(node, 0, 1)
            tx = t0 + rng.exponential(1.0 / self.lam_new, n)
            new = tx < tf
            u = rng.random(n) * self.lam_new + lam_old
            kind = np.where(new, np.minimum(np.searchsorted(self.cum_rates, u, "right"), 4), kind)
            tf = np.minimum(tf, tx)
        node = kind == 0
        if p.corr_fraction > 0:
            corr = node & (rng.random(n) < p.corr_fraction)
        else:
            corr = np.zeros(n, dtype=bool)
        return tf, corr, node, kind

    def _next_failure_nodes(self, idx, t0):
        """(time, is_correlated, is_node) of the next node or fabric failure after t0."""
        p, rng, n = self.p, self.rng, idx.size
        if self.weib is None:
            lam = self.lam_node + p.extra_rate_per_min
            if lam <= 0:
                return np.full(n, np.inf), np.zeros(n, dtype=bool), np.ones(n, dtype=bool)
            tf = t0 + rng.exponential(1.0 / lam, n)
            if p.extra_rate_per_min > 0:
                node = rng.random(n) < self.lam_node / lam
            else:
                node = np.ones(n, dtype=bool)
        else:
            tf = np.maximum(self.weib[idx, self.ptr[idx]], t0)
            node = np.ones(n, dtype=bool)
            if p.extra_rate_per_min > 0:
                tx = t0 + rng.exponential(1.0 / p.extra_rate_per_min, n)
                node = tf <= tx
                tf = np.minimum(tf, tx)
        if p.corr_fraction > 0:
            corr = node & (rng.random(n) < p.corr_fraction)
        else:
            corr = np.zeros(n, dtype=bool)
        return tf, corr, node

    def _consume(self, idx, node):
        if self.weib is not None:
            self.ptr[idx[node]] += 1

    def _classes(self, n: int):
        """Per-failure classes (silent, hang, in_process, peer, elastic), drawn from the
        auxiliary stream so that the default path's draws are unchanged (all False then)."""
        p = self.p
        if not p.extended:
            none = np.zeros(n, dtype=bool)
            return none, none, none, none, none
        u = self.aux.random((5, n))
        silent = u[0] < p.sdc_fraction
        hang = ~silent & (u[1] < p.hang_fraction)
        in_process = ~silent & (u[2] < p.in_process_fraction)
        peer = ~silent & (u[3] < p.peer_fraction)
        elastic = ~silent & ~in_process & (u[4] < p.elastic_fraction)
        return silent, hang, in_process, peer, elastic

    def _recovery(self, idx, tf, corr, node, memory_lost, classes=None, kind=None):
        """Stage times (det, repl, restart, restore, warm-up) for failures at tf."""
        p, rng, n = self.p, self.rng, idx.size
        silent, hang, in_process, peer, elastic = classes or self._classes(n)
        handled = None
        if self.dom:
            kind = np.where(node, 0, 1) if kind is None else kind
            # a domain or switch event waits for hardware: no restart in place mends it
            in_process = in_process & (kind != 2) & (kind != 3)
            base_dom, handled = self._domain_replacement(idx, tf, kind, in_process)
            det = np.where(kind == 1, p.detection + p.extra_hang_minutes, p.detection)
            elastic = elastic & ~handled
        else:
            det = np.where(node, p.detection, p.detection + p.extra_hang_minutes)
        if self.use_spares:
            q = np.where(corr, p.corr_nodes, 1)
            in_rep = (self.buf[idx] > tf[:, None]).sum(axis=1)
            use_spare = p.spares - in_rep >= q
            base = np.where(use_spare, p.swap, p.replacement)
            # every failed node goes to repair (an in-process restart keeps its nodes): one
            # draw per node, in the order of a loop over node i = 0..q-1 of every failure (one
            # call: the same stream, no Python loop)
            keep = ~in_process if handled is None else ~in_process & ~handled
            ri, rtf, rcorr = idx[keep], tf[keep], np.asarray(corr)[keep]
            n0 = ri.size
            ci = ri[rcorr]
            extra = (p.corr_nodes - 1) * ci.size
            draws = _lognormal_sigma(rng, p.repair_minutes, p.repair_sigma, n0 + extra)
            self.buf[ri, self.wp[ri] % self.kb] = rtf + draws[:n0]
            if extra:
                i = np.arange(1, p.corr_nodes)[:, None]
                col = (self.wp[ci][None, :] + i) % self.kb
                row = np.broadcast_to(ci[None, :], col.shape)
                start = np.broadcast_to(rtf[rcorr][None, :], col.shape)
                self.buf[row, col] = start + draws[n0:].reshape(col.shape)
            self.wp[ri] += q[keep]
        else:
            use_spare = np.zeros(n, dtype=bool)
            base = np.full(n, p.replacement)
        if handled is not None:
            base = np.where(handled, base_dom, base)
        if p.spread > 0:
            s2 = math.log1p(p.spread**2)
            mult = rng.lognormal(-s2 / 2.0, math.sqrt(s2), (3, n))
        else:
            mult = np.ones((3, n))
        retries = 0.0
        if p.retry_q < 1.0:  # failed attempts before the one that works (geometric)
            retries = p.retry_cost * (rng.geometric(p.retry_q, n) - 1)
        if not p.extended:
            repl = base * mult[0]
            rst = p.restart * mult[1] + retries
            rsto = np.where(memory_lost, p.restore, p.memory_restore) * mult[2]
            return det, repl, rst, rsto, np.zeros(n)
        aux = self.aux
        for row, dist in enumerate((p.replacement_dist, p.restart_dist, p.restore_dist)):
            if dist != "lognormal":
                mult[row] = draw_stage(aux, dist, 1.0, p.spread, n)
        if p.detection_dist != "fixed":
            det = det * draw_stage(aux, p.detection_dist, 1.0, p.spread, n)
        det = np.where(hang, p.hang_detection, det)
        det = np.where(silent, 0.0, det)  # its delay is a pause before the recovery
        repl = np.where(in_process, 0.0, base * mult[0])
        degraded = elastic & ~use_spare
        repl = np.where(degraded, 2.0 * p.elastic_reconfigure + repl * p.elastic_capacity, repl)
        rst = np.where(in_process, p.in_process_restart, p.restart) * mult[1] + retries
        rsto = np.where(memory_lost, p.restore, p.memory_restore)
        rsto = np.where(peer, p.peer_restore, rsto) * mult[2]
        warm = np.zeros(n)
        if p.warmup > 0:
            warm = p.warmup * draw_stage(aux, p.warmup_dist, 1.0, p.spread, n)
        return det, repl, rst, rsto, warm

    def _domain_replacement(self, idx, tf, kind, in_process):
        """(replacement base time, handled) of failures of the failure-domain classes.

        A node failure takes a free in-domain spare of its domain (drawn uniformly among
        the job's domains), else its group moves to a free spare domain; a domain event
        takes a free spare domain, else waits for the domain's repair; a switch event waits
        for the switch's repair; a job-level interruption replaces nothing.  A spare that is
        used leaves for a lognormal repair (``repair_sigma``) and is free again after it.
        Node failures that find neither (and fabric failures) are not handled here: they
        take the hot-spare / replacement path of before.
        """
        p, rng, n = self.p, self.rng, idx.size
        base = np.zeros(n)
        handled = kind >= 3  # switch waits for its repair; job-level replaces nothing
        base[kind == 3] = p.switch_repair
        nodes = np.flatnonzero((kind == 0) & ~in_process)
        if p.spare_per_domain > 0 and nodes.size:
            d = rng.integers(0, p.domains, nodes.size)
            slots = self.dbuf[idx[nodes], d]
            free = slots <= tf[nodes, None]
            has = free.any(axis=1)
            j = free.argmax(axis=1)
            hit = nodes[has]
            draws = _lognormal_sigma(rng, p.repair_minutes, p.repair_sigma, hit.size)
            self.dbuf[idx[hit], d[has], j[has]] = tf[hit] + draws
            base[hit] = p.swap
            handled[hit] = True
            nodes = nodes[~has]
        doms = np.flatnonzero(kind == 2)
        if p.spare_domains > 0:
            cand = np.concatenate([nodes, doms])
            if cand.size:
                slots = self.sbuf[idx[cand]]
                free = slots <= tf[cand, None]
                has = free.any(axis=1)
                j = free.argmax(axis=1)
                hit = cand[has]
                is_dom = kind[hit] == 2
                mean = np.where(is_dom, p.domain_repair, p.repair_minutes)
                draws = _lognormal_sigma(rng, 1.0, p.repair_sigma, hit.size) * mean
                self.sbuf[idx[hit], j[has]] = tf[hit] + draws
                base[hit] = p.swap
                handled[hit] = True
        wait = (kind == 2) & ~handled
        base[wait] = p.domain_repair
        handled |= wait
        return base, handled

    def _skip(self, idx, t):
        """Per-node renewals before t (failures during a pause) are skipped."""
        if self.weib is None:
            return
        while True:
            late = self.weib[idx, self.ptr[idx]] < t
            if not late.any():
                return
            self.ptr[idx[late]] += 1

    # --- main loop ----------------------------------------------------------------
    def run(self, record_timeline: bool) -> None:
        p, rng = self.p, self.rng
        tl = [("start", 0.0)] if record_timeline else None
        tau1 = p.seg_compute
        while True:
            a = np.flatnonzero(~self.done)
            if a.size == 0:
                break
            if self.budget is not None:
                self.budget.check(self.events)
            t0, m0, o0 = self.t[a], self.m[a], self.o[a]
            tf, corr, node, kind = self._next_failure(a, t0)
            if p.stall_rate_per_min + p.slow_rate_per_min > 0:
                ts = t0 + rng.exponential(
                    1.0 / (p.stall_rate_per_min + p.slow_rate_per_min), a.size
                )
            else:
                ts = np.full(a.size, np.inf)
            if p.spot_rate_per_min > 0:
                tsp = t0 + rng.exponential(1.0 / p.spot_rate_per_min, a.size)
            else:
                tsp = np.full(a.size, np.inf)
            t_fin = t0 + self._cum(m0, self.need - m0) - o0
            ev = np.minimum(np.minimum(tf, ts), tsp)
            fin = t_fin <= ev
            over = ~fin & (ev > self.cap)
            # grid points inside the up period [t0, min(ev, t_fin)]
            up_end = np.minimum(np.where(fin, t_fin, ev), self.cap)
            if tl is not None and a[0] == 0:
                self._trace_up(float(t0[0]), int(m0[0]), float(o0[0]), float(up_end[0]))
            self._record(a, up_end, _UpWork(self, t0, m0, o0))
            # finished trials
            if fin.any():
                fi = a[fin]
                self.finish[fi] = t_fin[fin]
                self.done[fi] = True
                self.checkpoints += int((self.need - m0[fin]).sum())
                self.m[fi] = self.need
                self.events += fi.size
                self.gw[fi] = np.where(
                    self.grid[None, :] >= t_fin[fin][:, None], self.need * tau1, self.gw[fi]
                )
                self.gp[fi] = self.grid.size
                if tl is not None and fi[0] == 0:
                    tl.append(("finish", float(t_fin[fin][0])))
            if over.any():  # still running at the wall-time cap: unfinished
                self.done[a[over]] = True
            # fabric stalls
            st_ = ~fin & ~over & (ts < tf) & (ts <= tsp)
            if st_.any():
                si = a[st_]
                e = ts[st_] - t0[st_] + o0[st_]
                j = self._segments_done(m0[st_], e)
                self.checkpoints += int(j.sum())
                mm = m0[st_] + j
                oo = e - self._cum(m0[st_], j)
                d = _lognormal(rng, p.stall_minutes, p.spread, si.size)
                end = ts[st_] + d
                if p.slow_rate_per_min > 0:
                    # a fail-slow window: the job runs on (exposed to failures) and owes the
                    # full-speed minutes the window cost (slowdown x time to detect)
                    share = p.slow_rate_per_min / (p.stall_rate_per_min + p.slow_rate_per_min)
                    slow = rng.random(si.size) < share
                    d = np.where(slow, _lognormal(rng, p.slow_minutes, p.spread, si.size), d)
                    end = np.where(slow, ts[st_], ts[st_] + d)
                    w = mm * tau1 + np.clip(oo, 0.0, tau1)
                    oo = np.where(slow, oo - d, oo)
                else:
                    w = mm * tau1 + np.minimum(oo, tau1)
                self._record(si, end, _Const(w, si))
                self.m[si], self.o[si], self.t[si] = mm, oo, end
                self.prot[si] = np.where(j > 0, 0.0, self.prot[si])
                self.stalls[si] += 1
                self.events += 2 * si.size
                if tl is not None and si[0] == 0:
                    tl += [("stall", float(ts[st_][0])), ("stall_end", float(ts[st_][0] + d[0]))]
            # Spot interruptions
            sp = ~fin & ~over & ~st_ & (tsp < tf)
            if sp.any():
                if p.spot_saved:
                    self._spot_saved(a[sp], tsp[sp], t0[sp], m0[sp], o0[sp], tl)
                else:
                    self.spot[a[sp]] += 1
                    z = np.zeros(int(sp.sum()), dtype=bool)
                    self._fail(a[sp], tsp[sp], z, ~z, t0[sp], m0[sp], o0[sp], tl, spot=True)
            # failures
            fl = ~fin & ~over & ~st_ & ~sp
            if fl.any():
                kf = None if kind is None else kind[fl]
                self._fail(a[fl], tf[fl], corr[fl], node[fl], t0[fl], m0[fl], o0[fl], tl, kind=kf)
        self.timeline = tl

    def _spot_saved(self, si, tsp, t0, m0, o0, tl) -> None:
        """A Spot interruption whose checkpoint fits in the notice: nothing is lost.

        The work done so far (the current segment's partial compute included) is saved; the
        run pauses for the save, a replacement (hot spare or provider), the restart, the
        restore and the warm-up, then resumes where it was.  The partial work stays protected
        against a later failure until the segment's own checkpoint is taken.
        """
        p, tau1 = self.p, self.p.seg_compute
        e = tsp - t0 + o0
        j = self._segments_done(m0, e)
        self.checkpoints += int(j.sum())
        mm = m0 + j
        oo = np.minimum(e - self._cum(m0, j), tau1)
        node = np.ones(si.size, dtype=bool)
        lost = np.full(si.size, not p.spot_level1_survives)
        none = np.zeros(si.size, dtype=bool)  # a reclaim is none of the failure classes
        _, repl, rst, rsto, warm = self._recovery(si, tsp, ~node, node, lost, (none,) * 5)
        save = _lognormal(self.rng, p.spot_save_minutes, p.spread, si.size)
        t_end = tsp + save + repl + rst + rsto + warm
        self._record(si, t_end, _Const(mm * tau1 + oo, si))
        self.m[si], self.o[si], self.t[si] = mm, oo, t_end
        self.prot[si] = oo
        self.spot[si] += 1
        self.events += 2 * si.size
        if tl is not None and si[0] == 0:
            tl += [("spot_notice", float(tsp[0])), ("restored", float(t_end[0]))]
        over = t_end > self.cap
        if over.any():
            self.done[si[over]] = True

    def _fail(self, fi, tf, corr, node, t0, m0, o0, tl, spot: bool = False, kind=None) -> None:
        """Failures at tf (``spot``: Spot interruptions whose save did not fit the notice;
        ``kind``: the failure classes of :meth:`_next_failure`): the recovery chain
        (:meth:`_recover_chain`), then the rollback to the last surviving checkpoint
        (:meth:`_revert`)."""
        elapsed = tf - t0 + o0
        j = self._segments_done(m0, elapsed)
        self.checkpoints += int(j.sum())
        mm = m0 + j
        if not spot:  # a reclaimed instance is not one of the per-node failure renewals
            self._consume(fi, node)
        t_end, lost_any, rollback = self._recover_chain(fi, tf, corr, node, kind, spot, tl)
        self._revert(fi, tf, m0, j, mm, elapsed, lost_any, rollback, t_end, tl)

    def _recover_chain(self, fi, tf, corr, node, kind, spot, tl):
        """Resolve the recovery of failures at tf, restarting it while failures (or unsaved
        Spot interruptions) hit during it, each waiting for its own repair and for any still
        under way: end time of recovery [min], whether level 1 was lost [bool], and whether
        any failure of the chain rolls back (not recovered from peers) [bool], per failing
        trial."""
        p, rng = self.p, self.rng
        ext = p.extended
        is_spot = np.full(fi.size, spot)
        idx, t_fail, c, nd, kd = fi, tf, corr, node, kind
        lost_any = np.zeros(fi.size, dtype=bool)
        rollback = np.ones(fi.size, dtype=bool) if not ext else np.zeros(fi.size, dtype=bool)
        pos = np.arange(fi.size)
        t_end = np.empty(fi.size)
        repairs_end = np.full(fi.size, -np.inf)  # when the repairs under way are done [min]
        spot_hits = p.spot_rate_per_min > 0 and not p.spot_saved  # Spot joins the failures
        while idx.size:
            if self.two:
                share = np.where(is_spot, p.spot_p_fallback, p.p_fallback)
                if kd is not None and p.domain_rate_per_min > 0:  # a block of npd nodes
                    share = np.where((kd == 2) & ~is_spot, p.domain_p_fallback, share)
                lost = rng.random(idx.size) < share
            else:
                lost = np.ones(idx.size, dtype=bool)
            classes = tuple(k & ~is_spot for k in self._classes(idx.size))
            silent, peer = classes[0], classes[3]
            if ext:
                lost = lost | silent  # rolled back past the corruption: the durable tier
                rollback[pos] |= ~peer
            lost_any[pos] |= lost
            self.failures[idx] += 1
            self.events += idx.size
            det, repl, rst, rsto, warm = self._recovery(
                idx, t_fail, c, nd, lost_any[pos], classes, kd
            )
            if ext:
                start = t_fail + np.where(silent, p.sdc_delay, 0.0)  # running on bad state
                self._skip(idx, start)
            else:
                start = t_fail
            # repairs run side by side: one still in progress is waited out, not restarted
            # or forgotten (the busy period of models.reliability.overlapping_repairs_minutes)
            repl = np.maximum(repl, repairs_end[pos] - start - det)
            repairs_end[pos] = start + det + repl
            dur = det + repl + rst + rsto + warm if ext else det + repl + rst + rsto
            if tl is not None and idx[0] == 0:
                self._trace_recovery(
                    tl, t_fail, start, c, silent, lost_any[pos], (det, repl, rst, rsto, warm)
                )
            t_next, c_next, n_next, k_next = self._next_failure(idx, start)
            s_next = np.zeros(idx.size, dtype=bool)
            if spot_hits:  # an unsaved Spot interruption also restarts the recovery
                t_spot = start + rng.exponential(1.0 / p.spot_rate_per_min, idx.size)
                s_next = t_spot < t_next
                t_next = np.where(s_next, t_spot, t_next)
                c_next = c_next & ~s_next
            hit = t_next < start + dur
            t_end[pos[~hit]] = (start + dur)[~hit]
            self.events += int((~hit).sum())
            # a recovery still interrupted past the wall-time cap never ends in time: the
            # trial is unfinished whatever follows, so stop restarting it
            past = hit & (t_next > self.cap)
            if past.any():
                t_end[pos[past]] = t_next[past]
                hit &= ~past
            if not hit.any():
                break
            if self.budget is not None:
                self.budget.check(self.events)
            self._consume(idx[hit], n_next[hit] & ~s_next[hit])
            self.spot[idx[hit & s_next]] += 1
            idx, t_fail, c, nd = idx[hit], t_next[hit], c_next[hit], n_next[hit] | s_next[hit]
            kd = None if k_next is None else np.where(s_next[hit], 0, k_next[hit])
            is_spot = s_next[hit]
            pos = pos[hit]
        return t_end, lost_any, rollback

    def _trace_recovery(self, tl, t_fail, start, c, silent, lost, stages_min) -> None:
        """Append the sample run's failure and its recovery stages to the timeline ``tl``:
        each stage ends at start + the cumulative stage durations [min]."""
        p = self.p
        det, repl, rst, rsto, warm = stages_min
        name = "correlated_failure" if c[0] else "failure"
        if silent[0]:
            name = "silent_corruption"
        while tl and tl[-1][1] > t_fail[0]:  # an interrupted recovery
            tl.pop()
        tl.append((name, float(t_fail[0])))
        if lost[0] and self.two:
            tl.append(("fallback_to_durable", float(t_fail[0])))
        acc = float(start[0])
        stages = [("detected", det), ("replaced", repl), ("restarted", rst)]
        stages.append(("restored", rsto))
        if p.extended and p.warmup > 0:
            stages.append(("warmed_up", warm))
        for nm, x in stages:
            acc += float(x[0])
            tl.append((nm, acc))

    def _revert(self, fi, tf, m0, j, mm, elapsed, lost_any, rollback, t_end, tl) -> None:
        """Work reverts to the last surviving checkpoint: work = m_new * tau + min(offset,
        tau) [min], m_new the durable segment count when level 1 was lost, the segments done
        otherwise, the current one kept when every failure was recovered from peers."""
        p, tau1 = self.p, self.p.seg_compute
        ext = p.extended
        durable = np.ceil(self._n_durable(mm) * self.r - 1e-9).astype(np.int64)
        m_new = np.where(lost_any, durable, mm)
        offset = np.zeros(fi.size)
        kept = np.zeros(fi.size, dtype=bool)
        if ext:
            keep = ~rollback  # every failure of the chain recovered from peers: no rework
            kept = keep
            m_new = np.where(keep, mm, m_new)
            offset = np.where(keep, elapsed - self._cum(m0, j), 0.0)
            if p.corrupt_fraction > 0:
                t_end, m_new = self._corrupt_restore(
                    fi, rollback, lost_any, mm, durable, t_end, m_new, tl
                )
        # work saved in a Spot notice earlier in this segment survives (unless level 1 is lost)
        saved = np.where((j == 0) & ~lost_any, self.prot[fi], 0.0)
        offset = np.where(offset > 0, offset, saved)
        self.prot[fi] = np.where(offset == saved, saved, 0.0)
        if tl is not None and fi[0] == 0 and not kept[0]:
            # the sample run's rework: from when it last had the work it restarts from (the
            # completion of the checkpoint it restores, plus work saved in a Spot notice)
            start = self._ckpt_time.get(int(m_new[0]), 0.0) + float(offset[0])
            if tf[0] > start:
                self.rework.append((start, float(tf[0])))
        if self.two:
            self.fallbacks[fi] += lost_any.astype(np.int64)
        work = m_new * tau1 + np.minimum(offset, tau1)
        self._record(fi, t_end, _Const(work, fi))
        self.m[fi], self.o[fi], self.t[fi] = m_new, offset, t_end
        over = t_end > self.cap
        if over.any():
            oi = fi[over]
            self.done[oi] = True

    def _corrupt_restore(self, fi, rollback, lost_any, mm, durable, t_end, m_new, tl):
        """A level-1 restore that finds a corrupt checkpoint: with probability
        corrupt_fraction it costs the restart loop plus the next restore [min] and falls
        back one tier (durable with two levels, the previous segment with one)."""
        p = self.p
        # a restore from level 1 (with one level, every rollback is one)
        bad = rollback & (self.aux.random(fi.size) < p.corrupt_fraction)
        if self.two:
            bad &= ~lost_any
        if self.two:
            m_fallback, restore_next = durable, p.restore
        else:
            m_fallback, restore_next = np.maximum(mm - 1, 0), p.memory_restore
        found = t_end.copy()
        t_end = t_end + np.where(bad, p.corrupt_loop + restore_next, 0.0)
        m_new = np.where(bad, m_fallback, m_new)
        if tl is not None and fi[0] == 0 and bad[0]:
            tl += [("corrupt_checkpoint", float(found[0])), ("restored", float(t_end[0]))]
        return t_end, m_new


def _narrow(fn, ok):
    return fn.narrow(ok)


class _UpWork:
    """Work at grid time g during an up period started at (t0, m0, o0)."""

    def __init__(self, chunk: _Chunk, t0, m0, o0):
        self.c, self.t0, self.m0, self.o0 = chunk, t0, m0, o0

    def __call__(self, idx, g, ok):
        t0, m0, o0 = self.t0[ok], self.m0[ok], self.o0[ok]
        return self.c._work_at(m0, o0, g - t0)

    def narrow(self, ok):
        return _UpWork(self.c, self.t0[ok], self.m0[ok], self.o0[ok])


class _Const:
    def __init__(self, value, idx):
        self.value = np.asarray(value, dtype=float)

    def __call__(self, idx, g, ok):
        return self.value[ok]

    def narrow(self, ok):
        return _Const(self.value[ok], None)


def simulate_inputs(
    inputs: Mapping[str, Any],
    trials: int = 1000,
    days: float = 30.0,
    *,
    work_days: float | None = None,
    rng: Any = None,
    chunk_trials: int = 10_000,
    progress: Callable[[int, int], None] | None = None,
    grid_points: int = 61,
    max_wall_factor: float = MAX_WALL_FACTOR,
    record_timeline: bool = True,
    budget: Budget | None = None,
) -> SimulationResult:
    """Simulate ``trials`` training runs from the flat inputs of ``models.resolve_inputs``.

    Parameters
    ----------
    inputs : flat ``section.key`` numbers (see :func:`models.evaluate.resolve_inputs`).
    trials : number of independent runs.
    days : horizon over which goodput is measured [day].
    work_days : compute each run must commit [day of failure-free compute]; default
        ``days``.  Rounded up to whole checkpoint segments.
    rng : None, a seed or a ``np.random.Generator`` (SPEC 7); each block of
        :func:`stream_block_trials` trials gets its own child stream (``Generator.spawn``),
        so the seed alone fixes the result, whatever the chunks.
    chunk_trials : trials per call of ``progress`` (rounded up to whole stream blocks); it
        does not change the figures.
    progress : called as ``progress(trials_done, trials)`` after each chunk.
    grid_points : points of the goodput-over-time grid in [0, days].
    max_wall_factor : a run still unfinished after this × work_days of wall time stops
        (its time to finish is NaN).
    budget : the :class:`~models.budget.Budget` of the call (default: MAX_SECONDS of wall
        time and MAX_EXPECTED_EVENTS events).  The predicted work must fit in it before the
        simulation starts (:func:`check_size`), and it is checked on every pass of the
        event loops; past it the call stops with a ValidationError naming ``trials`` or
        ``days`` and the nearest allowed value.

    Returns
    -------
    SimulationResult
        Per-run goodput [fraction], time to finish [day], cost and lost cost [USD],
        failures, stalls and fallbacks [count], goodput bands over time and a sample
        timeline; its goodput_analytic is the closed form (Daly 2006 interval,
        :func:`models.evaluate.evaluate_arrays`) for comparison.

    Examples
    --------
    >>> from models import Scenario, resolve_inputs
    >>> res = simulate_inputs(resolve_inputs(Scenario.default()), trials=200, days=30, rng=1)
    >>> round(res.goodput_mean, 2), round(res.goodput_analytic, 2)
    (0.89, 0.89)
    """
    p = params_from_inputs(inputs)
    return simulate_params(
        p,
        trials,
        days,
        work_days=work_days,
        rng=rng,
        chunk_trials=chunk_trials,
        progress=progress,
        grid_points=grid_points,
        max_wall_factor=max_wall_factor,
        record_timeline=record_timeline,
        budget=budget,
    )


def _check_work_days(days: Any, work_days: Any) -> None:
    """Refuse a compute per run outside (0, MAX_DAYS] [day] (``days`` when not given)."""
    try:
        wd = float(days if work_days is None else work_days)
    except (TypeError, ValueError):
        wd = math.nan
    if not (math.isfinite(wd) and 0 < wd <= MAX_DAYS):
        raise ValidationError(
            "work_days", f"{work_days!r:.80} is out of range (0, {_fmt(MAX_DAYS)}]"
        )


def _run_blocks(
    p: SimulationParams,
    trials: int,
    days: float,
    gen: np.random.Generator,
    layout: tuple[float, int, float, int],
    grid: np.ndarray,
    *,
    chunk_trials: int,
    chunks: Sequence[int] | None,
    record_timeline: bool,
    progress: Callable[[int, int], None] | None,
    budget: Budget,
    est: WorkEstimate | None,
) -> tuple[list[_Chunk], tuple[list, list, list]]:
    """Run the selected chunks of stream blocks: block b draws from child b of ``gen`` (the
    same whatever the chunking); each block's work is scaled by the work factor. Returns
    the run blocks and the sample run's (timeline, saves, rework) from block 0."""
    horizon, need, cap, block = layout
    f = p.work_factor
    n_blocks = math.ceil(trials / block)
    children = gen.spawn(n_blocks)  # child b is the same whatever the number spawned
    per_chunk = max(1, math.ceil(max(1, int(chunk_trials)) / block))  # blocks per chunk
    chunk = per_chunk * block
    n_chunks = math.ceil(n_blocks / per_chunk)
    parts = []
    timeline: list[tuple[str, float]] = []
    saves: list[tuple[float, float]] = []
    rework: list[tuple[float, float]] = []
    done = 0
    selected = range(n_chunks) if chunks is None else sorted(set(chunks))
    budget.start()
    for ci in selected:
        if not 0 <= ci < n_chunks:
            raise ValidationError("chunks", f"{ci} is out of range (0 to {n_chunks - 1})")
        for bi in range(ci * per_chunk, min(n_blocks, (ci + 1) * per_chunk)):
            n = min(block, trials - bi * block)
            try:
                ch = _Chunk(p, n, children[bi], horizon, need, grid, cap, budget)
                ch.run(record_timeline and bi == 0)
            except BudgetExceeded as exc:
                raise _stopped(exc, budget, est, int(trials), float(days)) from None
            budget.events_before += ch.events
            if f != 1.0:
                ch.gw *= f
            if bi == 0 and ch.timeline is not None:
                timeline, saves, rework = ch.timeline, ch.saves, ch.rework
            parts.append(ch)
            done += n
        if progress is not None:
            progress(
                done,
                trials if chunks is None else sum(min(chunk, trials - c * chunk) for c in selected),
            )
    return parts, (timeline, saves, rework)


def simulate_params(
    p: SimulationParams,
    trials: int = 1000,
    days: float = 30.0,
    *,
    work_days: float | None = None,
    rng: Any = None,
    chunk_trials: int = 10_000,
    progress: Callable[[int, int], None] | None = None,
    grid_points: int = 61,
    max_wall_factor: float = MAX_WALL_FACTOR,
    record_timeline: bool = True,
    chunks: Sequence[int] | None = None,
    keep_work_grid: bool = False,
    budget: Budget | None = None,
) -> SimulationResult:
    """:func:`simulate_inputs` from ready :class:`SimulationParams` (same keywords).

    Useful as a cache key: two scenarios with the same params simulate identically.
    ``chunks`` runs only those chunk numbers (chunks of ``chunk_trials`` rounded up to whole
    stream blocks; the streams are the same as in a full run), and
    ``keep_work_grid`` keeps each trial's work-over-time so that :func:`merge_results` can
    put chunks run separately back together (e.g. one cached call per chunk behind a
    progress bar).

    Parameters
    ----------
    p : SimulationParams
        The simulator's inputs (:func:`params_from_inputs`).
    trials : int
        Independent runs [count].
    days : float
        Horizon over which goodput is measured [day].
    work_days : float, optional
        Compute each run must commit [day]; default ``days``.
    rng : None, int or numpy.random.Generator
        Seed or generator; each stream block gets its own child stream.
    chunk_trials : int
        Trials per chunk [count]; does not change the figures.
    progress : callable, optional
        Called as ``progress(trials_done, trials)`` after each chunk.
    grid_points : int
        Points of the goodput-over-time grid [count].
    max_wall_factor : float
        Wall-time cap as a multiple of the compute [-].
    record_timeline : bool
        Record the sample run's timeline.
    chunks : sequence of int, optional
        Chunk numbers to run [count]; default all.
    keep_work_grid : bool
        Keep each run's work over time, for :func:`merge_results`.
    budget : Budget, optional
        Time and event budget of the call.

    Returns
    -------
    SimulationResult
        As :func:`simulate_inputs`, for the runs of the chunks run.
    """
    _check_work_days(days, work_days)
    budget = budget if budget is not None else Budget()
    est = check_size(
        trials,
        days,
        p,
        min(budget.max_events, MAX_EXPECTED_EVENTS),
        max_seconds=budget.max_seconds,
        work_days=work_days,
        chunk_trials=chunk_trials,
        grid_points=grid_points,
        max_wall_factor=max_wall_factor,
    )
    try:
        gen = np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise ValidationError(
            "seed", f"{rng!r:.80} is not a seed (a non-negative integer or a numpy Generator)"
        ) from None
    horizon, need, cap, block = _layout(p, days, work_days, max_wall_factor)
    grid = np.linspace(0.0, horizon, max(2, int(grid_points)))
    parts, traces = _run_blocks(
        p,
        trials,
        days,
        gen,
        (horizon, need, cap, block),
        grid,
        chunk_trials=chunk_trials,
        chunks=chunks,
        record_timeline=record_timeline,
        progress=progress,
        budget=budget,
        est=est,
    )
    return _result(p, parts, days, horizon, need, grid, traces, keep_work_grid)


def _result(
    p: SimulationParams,
    parts: Sequence[_Chunk],
    days: float,
    horizon: float,
    need: int,
    grid: np.ndarray,
    traces: tuple[list, list, list],
    keep_work_grid: bool,
) -> SimulationResult:
    """Gather run blocks into a :class:`SimulationResult`: goodput = work at the horizon /
    horizon [fraction], cost = wall time [min] x (cluster + spares) [USD/min], lost USD
    (:func:`_lost_usd`), work per run = segments x tau x work factor [min]."""
    timeline, saves, rework = traces
    f = p.work_factor
    done = sum(c.gw.shape[0] for c in parts)
    events = sum(c.events for c in parts)
    checkpoints = sum(c.checkpoints for c in parts)
    gw = np.concatenate([c.gw for c in parts])
    finish = np.concatenate([c.finish for c in parts])
    goodput = gw[:, -1] / horizon
    bands = _bands(gw, grid)
    wall_min = finish
    cost = wall_min * (p.cluster_usd_per_min + p.spare_usd_per_min)
    work_done = need * p.seg_compute * f
    lost = _lost_usd(p, wall_min, work_done)
    return SimulationResult(
        trials=done,
        days=float(days),
        work_days=work_done / MINUTES_PER_DAY,
        goodput=goodput,
        time_to_finish_days=finish / MINUTES_PER_DAY,
        cost_usd=cost,
        lost_usd=lost,
        failures=np.concatenate([c.failures for c in parts]),
        stalls=np.concatenate([c.stalls for c in parts]),
        fallbacks=np.concatenate([c.fallbacks for c in parts]),
        grid_days=grid / MINUTES_PER_DAY,
        goodput_bands=bands,
        timeline=timeline,
        events_simulated=int(events),
        checkpoints_simulated=int(checkpoints),
        goodput_analytic=p.goodput_analytic,
        interval_minutes=p.interval_minutes,
        params=p,
        work_grid_minutes=gw if keep_work_grid else None,
        timeline_saves=saves,
        timeline_rework=rework,
        spot_interruptions=np.concatenate([c.spot for c in parts]),
    )


def _stopped(
    exc: BudgetExceeded, budget: Budget, est: WorkEstimate | None, trials: int, days: float
) -> BudgetExceeded:
    """The budget error of a stopped run, with the nearest size that would fit its budget."""
    done = max(budget.spent_events, 1)
    predicted = est.events if est is not None else float(done)
    by_time = budget.elapsed / budget.max_seconds
    by_events = done / budget.max_events
    limit = (
        f"its time budget of {budget.max_seconds:g} s"
        if by_time >= by_events
        else f"its budget of {budget.max_events:.2g} events"
    )
    projected = max(predicted / done, 1.0) * max(by_time, by_events)  # whole run, in budgets
    scale = 0.8 / projected if projected > 0 else 0.0
    if trials * scale >= 1:
        hint, name = f"about trials <= {int(trials * scale):,}", "trials"
    elif days * scale >= MIN_DAYS:
        hint, name = f"about days <= {days * scale:.3g} at 1 trial", "days"
    else:
        hint, name = "lower the failure and stall rates or the recovery times", "days"
    return BudgetExceeded(
        name,
        f"{counted(trials, 'trial')} x {days:g} days stopped at {limit} "
        f"after {done:,} events "
        f"(~{predicted:,.2g} predicted; allowed: {hint})",
    )


def _bands(gw: np.ndarray, grid: np.ndarray) -> dict[int, np.ndarray]:
    with np.errstate(invalid="ignore", divide="ignore"):
        cum = gw[:, 1:] / grid[None, 1:]
    return {q: np.percentile(cum, q, axis=0) for q in (5, 25, 50, 75, 95)}


def merge_results(parts: Sequence[SimulationResult]) -> SimulationResult:
    """One result from chunks simulated separately (each with ``keep_work_grid=True``).

    Parameters
    ----------
    parts : sequence of SimulationResult
        Chunks of one call, each run with ``keep_work_grid=True``, in chunk order.

    Returns
    -------
    SimulationResult
        The runs of all parts [count of runs = sum of parts], goodput bands recomputed
        over all of them.
    """
    if not parts:
        raise ValidationError("parts", "at least one simulation result is needed")
    if any(r.work_grid_minutes is None for r in parts):
        raise ValidationError("parts", "every part needs keep_work_grid=True")
    first = parts[0]
    gw = np.concatenate([r.work_grid_minutes for r in parts])
    grid = first.grid_days * MINUTES_PER_DAY

    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(r, name) for r in parts])

    sample = next((r for r in parts if r.timeline), first)

    return SimulationResult(
        trials=int(sum(r.trials for r in parts)),
        days=first.days,
        work_days=first.work_days,
        goodput=cat("goodput"),
        time_to_finish_days=cat("time_to_finish_days"),
        cost_usd=cat("cost_usd"),
        lost_usd=cat("lost_usd"),
        failures=cat("failures"),
        stalls=cat("stalls"),
        fallbacks=cat("fallbacks"),
        grid_days=first.grid_days,
        goodput_bands=_bands(gw, grid),
        timeline=sample.timeline,
        events_simulated=int(sum(r.events_simulated for r in parts)),
        checkpoints_simulated=int(sum(r.checkpoints_simulated for r in parts)),
        goodput_analytic=first.goodput_analytic,
        interval_minutes=first.interval_minutes,
        params=first.params,
        work_grid_minutes=gw,
        timeline_saves=sample.timeline_saves,
        timeline_rework=sample.timeline_rework,
        spot_interruptions=cat("spot_interruptions")
        if all(r.spot_interruptions is not None for r in parts)
        else None,
    )


def simulate(scenario, trials: int = 1000, days: float = 30.0, *, catalog=None, **kwargs):
    """Simulate a :class:`models.Scenario` (see :func:`simulate_inputs` for the keywords).

    Parameters
    ----------
    scenario : Scenario
        The scenario to simulate.
    trials : int
        Independent runs [count].
    days : float
        Horizon over which goodput is measured [day].
    catalog : Mapping[str, Instance], optional
        Instance catalog for prices; default the shipped one.
    **kwargs
        Keywords of :func:`simulate_inputs` (``rng``, ``work_days`` ...).

    Returns
    -------
    SimulationResult
        As :func:`simulate_inputs`.
    """
    from .evaluate import resolve_inputs

    return simulate_inputs(resolve_inputs(scenario, catalog), trials, days, **kwargs)
