"""The evaluation chain: failures → checkpoint plan → step time → goodput → cost.

Like pvlib's ModelChain, the chain is a fixed sequence of small steps, each a pure function
that returns a frozen result object and reads only the inputs and the results of the steps
before it.  Nothing downstream overwrites a figure an upstream step produced:
:meth:`ChainResult.metrics` refuses a key that two steps both report.

Every step is vectorised: the numeric inputs may be scalars or numpy arrays that broadcast
together (sweeps, heatmaps and the optimizer evaluate thousands of scenarios in one call).
Choices (checkpoint strategy, MFU basis ...) are enums of :mod:`models.choices` and are scalars.

Inputs are the flat mapping built by :func:`models.evaluate.resolve_inputs`: ``section.key``
numbers for every numeric field, the ``instance.*`` specs of the node type, the
``tier.<name>.<param>`` checkpoint tier parameters, the choices as enums, and
``checkpoint.interval_optimal`` (bool).  A mapping built by hand may leave fields out: they
take their registry default (and the default tier table).

The maths of each step lives in the domain modules (:mod:`models.reliability`,
:mod:`models.checkpoint`, :mod:`models.goodput`, :mod:`models.compute`,
:mod:`models.network`); the steps only compose them.  Formulas and sources:
``docs/references.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from . import checkpoint as ck
from . import compute as cm
from . import goodput as gp
from . import network as net
from . import reliability as rel
from ._tools import HOURS_PER_DAY, MINUTES_PER_DAY, as_float_array
from .choices import CHOICE_ENUMS, DurableTier, MfuBasis, Placement, SaveMode, Strategy, Timings
from .fields import FIELDS
from .outputs import LOSS_COMPONENTS

SECONDS_PER_DAY = 86_400.0
MAX_INTERVAL_MINUTES = 10_080.0  # an 'optimal' interval with no finite optimum: one week
MIN_INTERVAL_MINUTES = 0.1


# --------------------------------------------------------------------------- inputs
def number(x: Mapping[str, Any], key: str) -> np.ndarray:
    """Numeric input ``key`` as a float array; the field default when absent, NaN for an
    unknown ``instance.*`` spec."""
    if key in x:
        return as_float_array(x[key])
    if key.startswith("instance."):
        return as_float_array(np.nan)
    return as_float_array(FIELDS[key].default)


def choice(x: Mapping[str, Any], key: str):
    """Choice input ``key`` as its enum (the field default when absent)."""
    enum = CHOICE_ENUMS[key]
    return enum(x.get(key, FIELDS[key].default))


class _Result:
    """Common behaviour of the step results: their outputs as a flat ``{key: array}``."""

    #: fields that are intermediate quantities for later steps, not reported outputs
    internal: ClassVar[tuple[str, ...]] = ()

    def metrics(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name not in self.internal:
                out[f.name] = getattr(self, f.name)
        return out


# --------------------------------------------------------------------------- 1. failures
@dataclass(frozen=True)
class FailureProcess(_Result):
    """Step 1: how often the job stops and how long a node takes to come back."""

    node_failures_per_day: np.ndarray
    fabric_failures_per_day: np.ndarray
    failures_per_day: np.ndarray
    mtbf_hours: np.ndarray
    probability_no_spare: np.ndarray
    replacement_minutes_expected: np.ndarray
    fabric_events_per_day: np.ndarray
    fabric_stall_minutes_per_day: np.ndarray
    detection_minutes: np.ndarray
    restart_minutes: np.ndarray

    internal = ("detection_minutes", "restart_minutes")

    @cached_property  # read by the checkpoint plan and the goodput step: computed once
    def recovery_before_restore_minutes(self) -> np.ndarray:
        """Detection + replacement + restart [min]: what every failure pays before restore."""
        return self.detection_minutes + self.replacement_minutes_expected + self.restart_minutes


def failure_process(x: Mapping[str, Any]) -> FailureProcess:
    """Failures per day λ = N·r + fabric aborts, MTBF, the hot-spare pool and fabric stalls.

    λ_node = N·r (superposed independent Poisson processes); fabric events whose reroute
    outlasts the collective timeout abort the job (:func:`models.network.fabric_failures_per_day`),
    shorter ones stall it (:func:`models.network.fabric_stall_minutes_per_day`); the expected
    replacement time mixes the hot-spare swap and the replacement path with the probability
    that no spare is free (M/G/∞ repair pool, :func:`models.reliability.probability_no_spare`).
    """
    nodes = number(x, "cluster.nodes")
    node = as_float_array(
        rel.cluster_failures_per_day(nodes, number(x, "reliability.node_failure_rate_per_day"))
    )
    events = number(x, "network.fabric_events_per_day")
    reroute = number(x, "network.reroute_seconds")
    timeout = number(x, "network.collective_timeout_seconds")
    fabric = as_float_array(net.fabric_failures_per_day(events, reroute, timeout))
    lam = node + fabric
    p_none = as_float_array(
        rel.probability_no_spare(
            lam, number(x, "reliability.repair_hours"), number(x, "cluster.spare_nodes")
        )
    )
    repl = as_float_array(
        rel.expected_replacement_minutes(
            p_none,
            number(x, "recovery.replacement_minutes"),
            number(x, "recovery.hot_spare_swap_minutes"),
        )
    )
    shape = np.broadcast(lam, repl).shape
    return FailureProcess(
        node_failures_per_day=node,
        fabric_failures_per_day=np.broadcast_to(fabric, shape),
        failures_per_day=lam,
        mtbf_hours=as_float_array(rel.mtbf_hours(lam)),
        probability_no_spare=p_none,
        replacement_minutes_expected=repl,
        fabric_events_per_day=np.broadcast_to(events, shape),
        fabric_stall_minutes_per_day=np.broadcast_to(
            as_float_array(net.fabric_stall_minutes_per_day(events, reroute, timeout)), shape
        ),
        detection_minutes=number(x, "recovery.detection_minutes"),
        restart_minutes=number(x, "recovery.restart_minutes"),
    )


# --------------------------------------------------------------------------- 2. checkpoints
@dataclass(frozen=True)
class CheckpointPlan(_Result):
    """Step 2: where checkpoints go, how long they take, how often, and which failures fall
    back to the durable tier.  Level 1 serves most failures; level 2 (two-level strategies
    only) serves the share φ that lose every level-1 copy."""

    checkpoint_interval_minutes: np.ndarray
    optimal_checkpoint_interval_minutes: np.ndarray
    young_interval_minutes: np.ndarray
    daly_first_order_interval_minutes: np.ndarray
    daly_higher_order_interval_minutes: np.ndarray
    durable_interval_minutes: np.ndarray
    optimal_durable_interval_minutes: np.ndarray
    save_seconds: np.ndarray
    restore_seconds: np.ndarray
    durable_save_seconds: np.ndarray
    durable_write_seconds: np.ndarray
    durable_restore_seconds: np.ndarray
    fallback_fraction: np.ndarray
    fallback_failures_per_day: np.ndarray
    checkpoint_size_TB: np.ndarray
    checkpoint_shard_GB_per_node: np.ndarray
    memory_required_GB_per_node: np.ndarray
    tier_memory_save_seconds: np.ndarray
    tier_memory_restore_seconds: np.ndarray
    tier_nvme_save_seconds: np.ndarray
    tier_nvme_restore_seconds: np.ndarray
    tier_shared_fs_save_seconds: np.ndarray
    tier_shared_fs_restore_seconds: np.ndarray
    tier_object_store_save_seconds: np.ndarray
    tier_object_store_restore_seconds: np.ndarray
    # per level, in minutes, for the goodput step
    two_level: bool
    failures_l1_per_day: np.ndarray
    save1_minutes: np.ndarray
    save2_minutes: np.ndarray
    restore1_minutes: np.ndarray
    restore2_minutes: np.ndarray
    stale1_minutes: np.ndarray
    stale2_minutes: np.ndarray
    interval2_minutes: np.ndarray

    internal = (
        "two_level",
        "failures_l1_per_day",
        "save1_minutes",
        "save2_minutes",
        "restore1_minutes",
        "restore2_minutes",
        "stale1_minutes",
        "stale2_minutes",
        "interval2_minutes",
    )


def _tier_params(x: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    has_tiers = any(k.startswith("tier.") for k in x)
    default = {} if has_tiers else ck.tier_inputs(ck.load_tiers())
    return {
        name: {
            p: x.get(f"tier.{name}.{p}", default.get(f"tier.{name}.{p}")) for p in ck.TIER_PARAMS
        }
        for name in ck.TIER_NAMES
    }


def checkpoint_plan(x: Mapping[str, Any], failures: FailureProcess) -> CheckpointPlan:
    """Save/restore times per level (:func:`models.checkpoint.strategy_levels`), the share of
    failures that fall back to the durable tier, and the intervals.

    The optimal level-1 interval is the exact minimiser of Daly's expected wall time
    (:func:`models.goodput.exact_optimal_interval_minutes`, Lambert W) for the failures level 1
    serves, λ₁ = λ − λ₂; an asynchronous checkpoint cannot start before the previous one is
    written, so the optimum is at least the write time.  ``checkpoint.interval_minutes =
    'optimal'`` uses it (capped at one week when there is no finite optimum).
    """
    strategy = choice(x, "checkpoint.strategy")
    lv = ck.strategy_levels(
        strategy=strategy,
        durable_tier=choice(x, "checkpoint.durable_tier"),
        timings=choice(x, "checkpoint.timings"),
        save_mode=choice(x, "checkpoint.save_mode"),
        placement=choice(x, "checkpoint.replica_placement"),
        nodes=number(x, "cluster.nodes"),
        node_failure_rate_per_day=number(x, "reliability.node_failure_rate_per_day"),
        failures_per_day=failures.node_failures_per_day,
        params_billion=number(x, "workload.params_billion"),
        bytes_per_param=number(x, "checkpoint.bytes_per_param"),
        replicas=number(x, "checkpoint.memory_replicas"),
        rereplication_minutes=number(x, "checkpoint.rereplication_minutes"),
        node_loss_fraction=number(x, "checkpoint.node_loss_fraction"),
        correlated_fraction=number(x, "checkpoint.correlated_fraction"),
        correlated_nodes=number(x, "checkpoint.correlated_nodes"),
        measured_save_seconds=number(x, "checkpoint.save_seconds"),
        measured_restore_minutes=number(x, "recovery.restore_minutes"),
        tiers=_tier_params(x),
    )
    two = strategy.two_level
    lam = failures.failures_per_day
    lam2 = lv["failures_l2_per_day"]
    lam1 = lam - lam2
    c1, c2 = lv["save1_minutes"], lv["save2_minutes"]
    r1 = failures.recovery_before_restore_minutes + lv["restore1_minutes"] + lv["stale1_minutes"]
    mtbf1_min = as_float_array(rel.mtbf_hours(lam1)) * 60.0
    mtbf2_min = as_float_array(rel.mtbf_hours(lam2)) * 60.0
    min1 = np.where(lv["stale1_minutes"] > 0, lv["write1_minutes"], 0.0)
    tau_opt = np.maximum(as_float_array(gp.exact_optimal_interval_minutes(c1, mtbf1_min)), min1)
    tau = number(x, "checkpoint.interval_minutes")
    if np.any(x.get("checkpoint.interval_optimal", False)):
        tau = np.where(
            np.isnan(tau), np.clip(tau_opt, MIN_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES), tau
        )
    tau = np.broadcast_to(tau, np.broadcast(tau, lam).shape)
    t2_opt = np.maximum(
        as_float_array(gp.exact_optimal_interval_minutes(c2, mtbf2_min)),
        np.maximum(lv["write2_minutes"], tau),
    )
    t2 = number(x, "checkpoint.durable_interval_minutes") if two else as_float_array(1.0)
    tiers = {
        f"tier_{name}_{what}_seconds": lv[f"tier_{name}_{what}_seconds"]
        for name in ck.TIER_NAMES
        for what in ("save", "restore")
    }
    return CheckpointPlan(
        checkpoint_interval_minutes=tau,
        optimal_checkpoint_interval_minutes=tau_opt,
        young_interval_minutes=as_float_array(gp.young_interval_minutes(c1, mtbf1_min)),
        daly_first_order_interval_minutes=as_float_array(
            ck.daly_first_order_interval_minutes(c1, mtbf1_min, r1)
        ),
        daly_higher_order_interval_minutes=as_float_array(
            ck.daly_higher_order_interval_minutes(c1, mtbf1_min)
        ),
        durable_interval_minutes=t2 if two else tau,
        optimal_durable_interval_minutes=t2_opt if two else tau_opt,
        save_seconds=c1 * 60.0,
        restore_seconds=lv["restore1_minutes"] * 60.0,
        durable_save_seconds=(c2 if two else c1) * 60.0,
        durable_write_seconds=(lv["write2_minutes"] if two else lv["write1_minutes"]) * 60.0,
        durable_restore_seconds=(lv["restore2_minutes"] if two else lv["restore1_minutes"]) * 60.0,
        fallback_fraction=lv["fallback_fraction"] if two else as_float_array(0.0),
        fallback_failures_per_day=lam2,
        checkpoint_size_TB=lv["size_TB"],
        checkpoint_shard_GB_per_node=lv["shard_GB"],
        memory_required_GB_per_node=lv["memory_required_GB_per_node"],
        **tiers,
        two_level=two,
        failures_l1_per_day=lam1,
        save1_minutes=c1,
        save2_minutes=c2,
        restore1_minutes=lv["restore1_minutes"],
        restore2_minutes=lv["restore2_minutes"],
        stale1_minutes=lv["stale1_minutes"],
        stale2_minutes=lv["stale2_minutes"],
        interval2_minutes=t2,
    )


# --------------------------------------------------------------------------- 3. step time
@dataclass(frozen=True)
class StepTime(_Result):
    """Step 3: one optimizer step without failures, and whether the job fits in memory."""

    mfu_basis: str
    allreduce_ms: np.ndarray
    allreduce_exposed_ms: np.ndarray
    tp_comm_ms: np.ndarray
    pp_comm_ms: np.ndarray
    compute_seconds_per_step: np.ndarray
    bubble_seconds_per_step: np.ndarray
    step_seconds: np.ndarray
    scaling_efficiency: np.ndarray
    effective_mfu: np.ndarray
    compute_share_of_step: np.ndarray
    compute_phase_mfu: np.ndarray
    mfu_gap_exceeded: np.ndarray
    exposed_comm_fraction_of_step: np.ndarray
    bubble_fraction_of_step: np.ndarray
    steps_to_train: np.ndarray
    data_parallel_size: np.ndarray
    memory_per_accel_GB: np.ndarray
    memory_usable_per_accel_GB: np.ndarray
    memory_fits: np.ndarray
    min_nodes_to_fit: np.ndarray
    training_flops: np.ndarray

    internal = ("mfu_basis",)  # text: reported by Evaluation.texts


def step_time(x: Mapping[str, Any]) -> StepTime:
    """Seconds per step and memory fit (:func:`models.compute.step_model`)."""
    basis = choice(x, "workload.mfu_basis")
    s = cm.step_model(x, end_to_end=basis is MfuBasis.END_TO_END)
    return StepTime(mfu_basis=basis.value, **s)


# --------------------------------------------------------------------------- 4. goodput
@dataclass(frozen=True)
class GoodputResult(_Result):
    """Step 4: the share of wall time that advances training, and where the rest goes."""

    goodput: np.ndarray
    goodput_first_order: np.ndarray
    recovery_minutes_per_failure: np.ndarray
    rework_minutes_per_failure: np.ndarray
    minutes_lost_per_failure: np.ndarray
    lost_minutes_per_day: np.ndarray
    checkpoint_overhead_fraction: np.ndarray
    level1_waste_fraction: np.ndarray
    level2_waste_fraction: np.ndarray
    loss_minutes_per_day: dict[str, np.ndarray]

    internal = ("loss_minutes_per_day",)

    def metrics(self) -> dict[str, Any]:
        out = super().metrics()
        for name, minutes in self.loss_minutes_per_day.items():
            out[f"loss_{name}_minutes_per_day"] = minutes
        return out


def _share(part, total):
    """part / total, with 1 for the first class when the total is 0 (no failures)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, part / np.where(total > 0, total, 1.0), 1.0)


def goodput_step(failures: FailureProcess, plan: CheckpointPlan) -> GoodputResult:
    """Daly's exact goodput per failure class, times the share not stalled by reroutes.

    g = T_s/T_w(λ₁, R₁, τ₁, δ₁) · T_s/T_w(λ₂, R₂, τ₂, δ₂) · (1 − s), s = fabric stall/1440
    (:func:`models.checkpoint.two_level_goodput`, Daly 2006).  The loss breakdown takes each
    component's first-order minutes per day and scales them so that they add up to the exact
    loss (1 − g/(1 − s))·1440; the fabric stall adds g/(1 − s)·s·1440, so all components sum
    to (1 − g)·1440.
    """
    p = plan
    lam = failures.failures_per_day
    lam1, lam2 = p.failures_l1_per_day, p.fallback_failures_per_day
    r0 = failures.recovery_before_restore_minutes
    r1 = r0 + p.restore1_minutes + p.stale1_minutes
    r2 = r0 + p.restore2_minutes + p.stale2_minutes
    tau, t2, c1, c2 = (
        p.checkpoint_interval_minutes,
        p.interval2_minutes,
        p.save1_minutes,
        p.save2_minutes,
    )
    s1, s2 = _share(lam1, lam), _share(lam2, lam)
    if p.two_level:
        r_total = r0 + s1 * p.restore1_minutes + s2 * p.restore2_minutes
    else:
        r_total = r0 + p.restore1_minutes
    g0 = as_float_array(ck.two_level_goodput(lam1, lam2, tau, t2, c1, c2, r1, r2))
    # each level's first-order waste once; their sum is ck.two_level_waste_first_order
    w1 = as_float_array(gp.waste_first_order(lam1, r1, tau, c1))
    w2 = as_float_array(gp.waste_first_order(lam2, r2, t2, c2))
    g1 = np.clip(1.0 - (w1 + w2), 0.0, 1.0)
    rework = s1 * (tau / 2.0 + p.stale1_minutes) + s2 * (t2 / 2.0 + p.stale2_minutes)
    det, restart = failures.detection_minutes, failures.restart_minutes
    comp = {
        "detection": lam * det,
        "replacement": lam * failures.replacement_minutes_expected,
        "restart": lam * restart,
        "restore": lam1 * p.restore1_minutes + lam2 * p.restore2_minutes,
        "rework": lam1 * (tau / 2.0 + p.stale1_minutes),
        "fallback_rework": lam2 * (t2 / 2.0 + p.stale2_minutes),
        "checkpoint_save": MINUTES_PER_DAY * (c1 / tau + c2 / t2),
    }
    total_fo = sum(comp.values())
    exact_loss = (1.0 - g0) * MINUTES_PER_DAY
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(total_fo > 0, exact_loss / np.where(total_fo > 0, total_fo, 1), 0.0)
    stall = failures.fabric_stall_minutes_per_day / MINUTES_PER_DAY
    g = g0 * (1.0 - stall)
    losses = {name: comp[name] * scale for name in comp}
    losses["fabric_stall"] = g0 * stall * MINUTES_PER_DAY
    assert set(losses) == set(LOSS_COMPONENTS)
    return GoodputResult(
        goodput=g,
        goodput_first_order=g1 * (1.0 - stall),
        recovery_minutes_per_failure=r_total,
        rework_minutes_per_failure=rework,
        minutes_lost_per_failure=r_total + rework,
        lost_minutes_per_day=(1.0 - g) * MINUTES_PER_DAY,
        checkpoint_overhead_fraction=1.0 - 1.0 / ((1.0 + c1 / tau) * (1.0 + c2 / t2)),
        level1_waste_fraction=w1,
        level2_waste_fraction=w2,
        loss_minutes_per_day=losses,
    )


# --------------------------------------------------------------------------- 5. cost
@dataclass(frozen=True)
class Cost(_Result):
    """Step 5: dollars per day and to train, at the price in force."""

    usd_per_instance_hour: np.ndarray
    cluster_usd_per_day: np.ndarray
    spare_usd_per_day: np.ndarray
    total_usd_per_day: np.ndarray
    productive_usd_per_day: np.ndarray
    lost_usd_per_day: np.ndarray
    time_to_train_days: np.ndarray
    time_to_train_hours: np.ndarray
    cost_to_train_usd: np.ndarray
    usd_per_1e18_useful_flops: np.ndarray
    cost_to_train_compute_usd: np.ndarray
    cost_to_train_bubble_usd: np.ndarray
    cost_to_train_communication_usd: np.ndarray
    cost_within_mfu_bubble_usd: np.ndarray
    cost_within_mfu_communication_usd: np.ndarray
    cost_to_train_goodput_loss_usd: np.ndarray
    cost_to_train_spares_usd: np.ndarray
    loss_usd_per_day: dict[str, np.ndarray]

    internal = ("loss_usd_per_day",)

    def metrics(self) -> dict[str, Any]:
        out = super().metrics()
        for name, usd in self.loss_usd_per_day.items():
            out[f"loss_{name}_usd_per_day"] = usd
        return out


def cost_step(x: Mapping[str, Any], step: StepTime, good: GoodputResult) -> Cost:
    """Cost per day and to train.

    cluster/day = N·price·24; lost/day = (1 − g)·cluster + spares; time to train =
    steps·step / g [s → days]; cost to train = days · (cluster + spares)/day.  Under
    ``end_to_end`` all productive time is compute (communication and bubble are inside the
    MFU; their ``cost_within_mfu_*`` shares are informational); under ``compute_only`` they are
    added costs.  Infeasible configurations (memory, TP outside the scale-up domain) give NaN
    times and costs.
    """
    price = number(x, "pricing.usd_per_instance_hour")
    nodes = number(x, "cluster.nodes")
    g = good.goodput
    cluster = nodes * price * HOURS_PER_DAY
    spare = number(x, "cluster.spare_nodes") * price * HOURS_PER_DAY
    total = cluster + spare
    train_s = step.steps_to_train * step.step_seconds
    with np.errstate(divide="ignore", invalid="ignore"):
        days = np.where(g > 0, train_s / SECONDS_PER_DAY / np.where(g > 0, g, 1.0), np.inf)
    cluster_cost = days * cluster
    productive_cost = cluster_cost * g
    fits = step.memory_fits > 0.5
    e2e = step.mfu_basis == MfuBasis.END_TO_END
    comm = step.exposed_comm_fraction_of_step
    bubble = step.bubble_fraction_of_step
    zero = productive_cost * 0.0  # NaN where the configuration cannot run
    if e2e:
        # no split exists when the modelled communication alone outlasts the step
        within = np.where(step.compute_share_of_step > 0, 1.0, np.nan)
        compute_cost = productive_cost * np.where(fits, 1.0, np.nan)
        added_bubble, added_comm = zero, zero
        within_bubble, within_comm = (
            productive_cost * bubble * within,
            productive_cost * comm * within,
        )
    else:
        compute_cost = productive_cost * step.compute_share_of_step
        added_bubble, added_comm = productive_cost * bubble, productive_cost * comm
        within_bubble, within_comm = zero, zero
    cost = days * total
    return Cost(
        usd_per_instance_hour=price * np.ones_like(g),
        cluster_usd_per_day=cluster,
        spare_usd_per_day=spare,
        total_usd_per_day=total,
        productive_usd_per_day=g * cluster,
        lost_usd_per_day=(1.0 - g) * cluster + spare,
        time_to_train_days=days,
        time_to_train_hours=days * HOURS_PER_DAY,
        cost_to_train_usd=cost,
        usd_per_1e18_useful_flops=cost / (step.training_flops / 1e18),
        cost_to_train_compute_usd=compute_cost,
        cost_to_train_bubble_usd=added_bubble,
        cost_to_train_communication_usd=added_comm,
        cost_within_mfu_bubble_usd=within_bubble,
        cost_within_mfu_communication_usd=within_comm,
        cost_to_train_goodput_loss_usd=cluster_cost * (1.0 - g),
        cost_to_train_spares_usd=days * spare,
        loss_usd_per_day={
            name: minutes / MINUTES_PER_DAY * cluster
            for name, minutes in good.loss_minutes_per_day.items()
        },
    )


# --------------------------------------------------------------------------- the chain
@dataclass(frozen=True)
class ChainResult:
    """The five step results of one (vectorised) evaluation."""

    failures: FailureProcess
    checkpoint: CheckpointPlan
    step: StepTime
    goodput: GoodputResult
    cost: Cost

    def metrics(self) -> dict[str, Any]:
        """Every reported figure as ``{key: array}``; a key reported by two steps is an
        error (no step overwrites another's figure)."""
        out: dict[str, Any] = {}
        for part in (self.failures, self.checkpoint, self.step, self.goodput, self.cost):
            for key, value in part.metrics().items():
                if key in out:
                    raise RuntimeError(f"{key!r} is reported by two chain steps")
                out[key] = value
        return out


def run_chain(x: Mapping[str, Any]) -> ChainResult:
    """Evaluate the chain once: failures → checkpoint plan → step time → goodput → cost."""
    failures = failure_process(x)
    plan = checkpoint_plan(x, failures)
    step = step_time(x)
    good = goodput_step(failures, plan)
    return ChainResult(failures, plan, step, good, cost_step(x, step, good))


__all__ = [
    "ChainResult",
    "CheckpointPlan",
    "Cost",
    "DurableTier",
    "FailureProcess",
    "GoodputResult",
    "Placement",
    "SaveMode",
    "StepTime",
    "Strategy",
    "Timings",
    "checkpoint_plan",
    "cost_step",
    "failure_process",
    "goodput_step",
    "run_chain",
    "step_time",
]
