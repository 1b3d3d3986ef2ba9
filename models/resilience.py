"""What each resilience feature is worth: features as transformations of a scenario, and the ladder.

A **feature** (hot spares, in-memory checkpoints, in-process restart ...) is a function from
one :class:`~models.scenario.Scenario` to another: it changes the fields of the mechanism it
acts on (:data:`FEATURES`; each entry says which mechanism, what it costs and where its
figures come from).  Its cost is in the new scenario too — spare nodes are paid
(``cluster.spare_nodes``), detection compute and replicated state take throughput
(``resilience.overhead_fraction``), health checks lengthen a replacement — so the evaluation
of the new scenario already counts it: lost $/day = (1 − goodput) · cluster $/day + spares.

The **ladder** applies features one after the other, from the scenario as given (the
baseline rung) to the last one.  Every rung *is* a scenario: ``evaluate(rung.scenario)``
reproduces its figures.  A rung's saving is the previous rung's lost $/day minus its own,
so the savings add up to the first rung's loss minus the last one's.  Without a given order
the ladder is built greedily: at each rung the feature that saves the most next.

Feature parameters that depend on *which* failures a feature can handle come from the causes
(:class:`models.failure_modes.FailureModes`: Llama 3 405B by default, or a fitted failure
log): in-process restarts only help failures that leave the node healthy, peers only
restore state that a single-node failure left on a healthy replica, lemon eviction only
removes the lemons ``goodput fit`` found.  Each rung's failure-related saving is then split
over the causes the feature acts on, in proportion to their counts.

Formulas and sources of every mechanism: ``docs/resilience.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import checkpoint as ck
from .catalog import Instance, load_catalog
from .errors import ValidationError
from .evaluate import evaluate_arrays, resolve_inputs
from .failure_modes import FailureMode, FailureModes, lemon_rate_factor
from .fields import FIELDS
from .outputs import LOSS_COMPONENTS
from .references import REFERENCES
from .scenario import Scenario

MINUTES_PER_DAY = 1440.0
BASELINE = "baseline"
MAX_SPARES = 200

#: Loss components caused by failures (split over causes); the rest are not failure losses.
FAILURE_COMPONENTS = (
    "detection",
    "replacement",
    "restart",
    "restore",
    "warmup",
    "rework",
    "fallback_rework",
    "corrupt_checkpoint",
    "sdc_rollback",
)


# --------------------------------------------------------------------------- features
@dataclass(frozen=True)
class Param:
    """One parameter of a feature: its default, where the default comes from, and the
    values ``--param`` accepts (0 to ``max``; whole numbers when ``integer``)."""

    default: float
    unit: str
    basis: str
    max: float = math.inf
    integer: bool = False


@dataclass(frozen=True)
class Context:
    """What the features read besides the scenario: causes, lemon nodes, parameters."""

    modes: FailureModes
    lemon_failure_share: float = 0.0
    lemon_node_share: float = 0.0
    params: Mapping[str, float] = field(default_factory=dict)
    catalog: Mapping[str, Instance] | None = None
    tiers: Mapping[str, ck.Tier] | None = None

    def param(self, feature: Feature, name: str) -> float:
        return float(self.params.get(f"{feature.key}.{name}", feature.params[name].default))


@dataclass(frozen=True)
class Feature:
    """A resilience feature as a transformation of a scenario.

    ``apply(scenario, context)`` returns the changed field values (``{field key: value}``)
    and the assumptions they rest on (``[(what, value text, basis)]``).  ``acts_on`` picks
    the node-failure causes whose losses the feature reduces (None: it acts on no failure
    cause); ``other_classes`` the failure classes beyond node failures it also acts on
    (:data:`OTHER_CLASSES`: fabric aborts, domain and switch events, job-level
    interruptions), its saving split over them by the time they wait for a repair
    (``by_wait``) or by count.
    """

    key: str
    label: str
    mechanism: str
    cost: str
    references: tuple[str, ...]
    params: Mapping[str, Param]
    acts_on_text: str
    acts_on: Callable[[FailureMode], bool] | None
    apply: Callable[[Scenario, Context, Feature], tuple[dict[str, Any], list[tuple[str, str, str]]]]
    other_classes: tuple[str, ...] = ()
    by_wait: bool = False

    @property
    def source(self) -> str:
        """The feature's sources as one line of citations."""
        return "; ".join(
            f"{REFERENCES[r].citation} ({REFERENCES[r].where})" for r in self.references
        )

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "feature": self.key,
            "label": self.label,
            "mechanism": self.mechanism,
            "cost": self.cost,
            "acts_on": self.acts_on_text,
            "parameters": [
                {"name": f"{self.key}.{n}", "default": p.default, "unit": p.unit, "basis": p.basis}
                for n, p in self.params.items()
            ],
            "references": list(self.references),
            "source": self.source,
        }


def _min(s: Scenario, key: str, value: float) -> float:
    """The scenario's value of ``key`` or ``value``, whichever is lower (a feature never
    makes a stage slower than the scenario already has it)."""
    return min(float(s[key]), float(value))


def _share_text(x: float) -> str:
    return f"{100 * x:.1f}%"


def _hot_spares(s: Scenario, ctx: Context, f: Feature):
    want = ctx.params.get("hot_spares.spares")
    if want is None:
        from .optimize import recommend_spares  # local: optimize imports evaluate

        inputs = resolve_inputs(s, ctx.catalog, ctx.tiers)
        want = recommend_spares(inputs, MAX_SPARES).spares
        basis = (
            "the count that minimises lost $/day here (models.optimize.recommend_spares, "
            "M/G/∞ repair pool), at least one"
        )
    else:
        basis = "given"
    spares = max(int(s["cluster.spare_nodes"]), int(want), 1)
    return (
        {"cluster.spare_nodes": spares},
        [("hot spares", f"{spares} nodes", basis)],
    )


def _domain_spares(s: Scenario, ctx: Context, f: Feature):
    """Spares by scale-up domain: the cheaper of in-domain spare nodes and whole spare
    domains (models.optimize.recommend_domain_spares), or the count given."""
    in_dom = ctx.params.get("domain_spares.in_domain")
    whole = ctx.params.get("domain_spares.spare_domains")
    if in_dom is None and whole is None:
        from .optimize import recommend_domain_spares  # local: optimize imports evaluate

        rec = recommend_domain_spares(resolve_inputs(s, ctx.catalog, ctx.tiers))
        if rec is None or rec.best.policy == "none":
            why = "a scale-up domain is one node" if rec is None else "no policy saves money"
            return {}, [("spares by domain", "none", why)]
        b = rec.best
        in_dom = b.count if b.policy == "in_domain" else 0
        whole = b.count if b.policy == "spare_domains" else 0
        basis = (
            f"the cheaper policy here (models.optimize.recommend_domain_spares): {b.label()}, "
            f"{b.spare_usd_per_day:,.0f} USD/day of spares"
        )
    else:
        basis = "given"
    changes = {
        "cluster.spare_nodes_per_domain": int(in_dom or 0),
        "cluster.spare_domains": int(whole or 0),
    }
    text = f"{changes['cluster.spare_nodes_per_domain']} per domain, {changes['cluster.spare_domains']} whole domains"
    return changes, [("spares by domain", text, basis)]


def _health_checks(s: Scenario, ctx: Context, f: Feature):
    factor = lemon_rate_factor(ctx.lemon_failure_share, ctx.lemon_node_share)
    check = ctx.param(f, "check_minutes")
    rate = float(s["reliability.node_failure_rate_per_day"]) * factor
    return (
        {
            "reliability.node_failure_rate_per_day": rate,
            "recovery.replacement_minutes": float(s["recovery.replacement_minutes"]) + check,
        },
        [
            (
                "lemon nodes' share of failures",
                _share_text(ctx.lemon_failure_share),
                "from `goodput fit` on a failure log (--fit); 0 when none is given",
            ),
            (
                "lemon nodes' share of nodes",
                _share_text(ctx.lemon_node_share),
                "from `goodput fit`",
            ),
            ("failure rate factor", f"{factor:.4f}", "(1 − L)/(1 − ℓ), models.failure_modes"),
            ("check on each node joining", f"{check:g} min", f.params["check_minutes"].basis),
        ],
    )


def _auto_recovery(s: Scenario, ctx: Context, f: Feature):
    d = _min(s, "recovery.detection_minutes", ctx.param(f, "detection_minutes"))
    h = _min(s, "recovery.hang_detection_minutes", ctx.param(f, "hang_detection_minutes"))
    r = _min(s, "recovery.restart_minutes", ctx.param(f, "restart_minutes"))
    return (
        {
            "recovery.detection_minutes": d,
            "recovery.hang_detection_minutes": h,
            "recovery.restart_minutes": r,
        },
        [
            ("crash detection", f"{d:g} min", f.params["detection_minutes"].basis),
            ("hang detection (heartbeat)", f"{h:g} min", f.params["hang_detection_minutes"].basis),
            ("automatic relaunch", f"{r:g} min", f.params["restart_minutes"].basis),
        ],
    )


def _memory_checkpoints(s: Scenario, ctx: Context, f: Feature):
    durable = s["checkpoint.interval_minutes"]
    if s["checkpoint.strategy"] != "durable_only" or durable == "optimal":
        durable = s["checkpoint.durable_interval_minutes"]
    replicas = max(int(s["checkpoint.memory_replicas"]), int(ctx.param(f, "replicas")))
    return (
        {
            "checkpoint.strategy": "memory+durable",
            "checkpoint.timings": "tier_model",
            "checkpoint.interval_minutes": "optimal",
            "checkpoint.durable_interval_minutes": float(durable),
            "checkpoint.memory_replicas": replicas,
        },
        [
            ("in-memory replicas", str(replicas), f.params["replicas"].basis),
            (
                "durable checkpoints",
                f"every {float(durable):g} min",
                "the scenario's durable cadence, unchanged",
            ),
            (
                "save and restore times",
                "tier model",
                "data/checkpoint_tiers.csv (the measured times describe the durable tier only)",
            ),
            ("level-1 interval", "optimal", "Daly's exact optimum for the failures level 1 serves"),
        ],
    )


def snapshot_seconds(s: Scenario, tiers: Mapping[str, ck.Tier] | None = None) -> float:
    """Device-to-host snapshot of one checkpoint shard per node through the memory tier [s]:
    what an asynchronous save blocks training for (data/checkpoint_tiers.csv).

    Parameters
    ----------
    s : Scenario
        The scenario (model size, nodes, memory tier).
    tiers : Mapping[str, Tier], optional
        Checkpoint tier table keyed by tier name; default ``data/checkpoint_tiers.csv``.

    Returns
    -------
    float
        Snapshot time [s].
    """
    mem = (tiers if tiers is not None else ck.load_tiers())["memory"]
    shard = ck.checkpoint_shard_GB(
        s["workload.params_billion"], s["checkpoint.bytes_per_param"], s["cluster.nodes"]
    )
    agg = mem.aggregate_GBps("write")
    return float(
        ck.tier_transfer_seconds(
            shard, s["cluster.nodes"], mem.write_GBps_per_node, agg, mem.fixed_seconds
        )
    )


def async_save_seconds(s: Scenario, tiers: Mapping[str, ck.Tier] | None = None) -> float:
    """The blocking save [s] a scenario with measured saves states once its saves are
    asynchronous: its measured save or the device-to-host snapshot of its own nodes
    (:func:`snapshot_seconds`), whichever is shorter, to the millisecond.  The snapshot
    depends on the node count (a shard per node), so a configuration with other nodes than
    the scenario needs its own (QA 26: decide set the 1,152-node snapshot, 1.005 s, on a
    956-node choice whose snapshot is 1.006 s).

    Parameters
    ----------
    s : Scenario
        The scenario with its measured (synchronous) save and its node count.
    tiers : Mapping[str, Tier], optional
        Checkpoint tier table keyed by tier name; default ``data/checkpoint_tiers.csv``.

    Returns
    -------
    float
        Blocking save [s].
    """
    return round(min(float(s["checkpoint.save_seconds"]), snapshot_seconds(s, tiers)), 3)


def _async_saves(s: Scenario, ctx: Context, f: Feature):
    changes: dict[str, Any] = {"checkpoint.save_mode": "async"}
    notes = [("save mode", "asynchronous", "training waits for the device-to-host copy only")]
    if s["checkpoint.timings"] == "measured":
        snap = async_save_seconds(s, ctx.tiers)
        changes["checkpoint.save_seconds"] = snap
        notes.append(
            (
                "blocking save",
                f"{snap:.2f} s",
                "shard through the memory tier's device-to-host path (data/checkpoint_tiers.csv)",
            )
        )
    return changes, notes


def _in_process(s: Scenario, ctx: Context, f: Feature):
    share = ctx.modes.in_process_fraction
    t = ctx.param(f, "restart_minutes")
    return (
        {
            "resilience.in_process_fraction": share,
            "resilience.in_process_restart_minutes": t,
        },
        [
            (
                "failures recovered in process",
                _share_text(share),
                f"causes that leave the node healthy ({ctx.modes.source})",
            ),
            ("in-process restart", f"{t:g} min", f.params["restart_minutes"].basis),
        ],
    )


def _checkpointless(s: Scenario, ctx: Context, f: Feature):
    share = ctx.modes.peer_fraction
    t = ctx.param(f, "transfer_minutes")
    o = ctx.param(f, "overhead")
    changes: dict[str, Any] = {
        "resilience.peer_recovery_fraction": share,
        "resilience.peer_restore_minutes": t,
        "resilience.overhead_fraction": _add_overhead(s, o),
        "checkpoint.interval_minutes": "optimal",
    }
    return (
        changes,
        [
            (
                "failures recovered from peers",
                _share_text(share),
                f"single-node causes: a healthy replica holds their state ({ctx.modes.source})",
            ),
            ("state transfer from a peer", f"{t:g} min", f.params["transfer_minutes"].basis),
            ("throughput for the replicated state", _share_text(o), f.params["overhead"].basis),
            (
                "checkpoint interval",
                "optimal",
                "re-optimised for the failures still restored from checkpoints",
            ),
        ],
    )


def _in_force(s: Scenario, key: str) -> Any:
    """The value of field ``key`` that ``s`` runs with: a durable-only strategy checkpoints
    to the durable tier every ``checkpoint.interval_minutes``, so that is its durable cadence
    (its ``durable_interval_minutes`` field is not read); every other field as it stands."""
    if (
        key == "checkpoint.durable_interval_minutes"
        and s["checkpoint.strategy"] == "durable_only"
        and s["checkpoint.interval_minutes"] != "optimal"
    ):
        return float(s["checkpoint.interval_minutes"])
    return s[key]


def _add_overhead(s: Scenario, o: float) -> float:
    """Overheads compound: (1 − o_total) = (1 − o_now)(1 − o).  Not clamped: a total past
    the field's range is refused by the scenario's validation, naming the field."""
    now = float(s["resilience.overhead_fraction"])
    return 1.0 - (1.0 - now) * (1.0 - o)


def _stragglers(s: Scenario, ctx: Context, f: Feature):
    removed = ctx.param(f, "removed")
    o = ctx.param(f, "overhead")
    slow = float(s["resilience.straggler_slowdown"])
    return (
        {
            "resilience.straggler_slowdown": slow * (1.0 - removed),
            "resilience.overhead_fraction": _add_overhead(s, o),
        },
        [
            (
                "straggler slowdown in the scenario",
                _share_text(slow),
                "resilience.straggler_slowdown (measure it: what-if analysis, arXiv:2505.05713)",
            ),
            ("share of it removed", _share_text(removed), f.params["removed"].basis),
            ("detection compute", _share_text(o), f.params["overhead"].basis),
        ],
    )


def _sdc_detection(s: Scenario, ctx: Context, f: Feature):
    delay = _min(s, "resilience.sdc_detection_minutes", ctx.param(f, "delay_minutes"))
    o = ctx.param(f, "overhead")
    return (
        {
            "resilience.sdc_detection_minutes": delay,
            "resilience.overhead_fraction": _add_overhead(s, o),
        },
        [
            (
                "silent data corruption in the scenario",
                _share_text(float(s["reliability.sdc_fraction"])),
                f"reliability.sdc_fraction (the causes give {_share_text(ctx.modes.sdc_fraction)})",
            ),
            ("detection delay", f"{delay:g} min", f.params["delay_minutes"].basis),
            ("check compute", _share_text(o), f.params["overhead"].basis),
        ],
    )


def _elastic(s: Scenario, ctx: Context, f: Feature):
    share = ctx.modes.elastic_fraction
    t = ctx.param(f, "reconfigure_minutes")
    return (
        {
            "resilience.elastic_fraction": share,
            "resilience.elastic_reconfigure_minutes": t,
        },
        [
            (
                "failures the job runs through degraded",
                _share_text(share),
                f"single-node causes: one data-parallel replica dropped ({ctx.modes.source})",
            ),
            ("shrink and grow back", f"{t:g} min each", f.params["reconfigure_minutes"].basis),
        ],
    )


def _validation(s: Scenario, ctx: Context, f: Feature):
    v = ctx.param(f, "seconds")
    return (
        {"checkpoint.validation": "fallback", "checkpoint.validation_seconds": v},
        [
            (
                "corrupt level-1 checkpoints in the scenario",
                _share_text(float(s["checkpoint.corrupt_fraction"])),
                "checkpoint.corrupt_fraction",
            ),
            ("validation per restore", f"{v:g} s", f.params["seconds"].basis),
            (
                "on a corrupt checkpoint",
                "fall back to the next tier",
                "instead of the restart loop (Megatron-LM issue 5281)",
            ),
        ],
    )


def _all(c: FailureMode) -> bool:
    return not c.silent


ASSUMED = "our assumption (no published figure)"

FEATURES: dict[str, Feature] = {
    f.key: f
    for f in (
        Feature(
            "hot_spares",
            "Hot spares",
            "Idle, paid nodes swap in for a failed one (recovery.hot_spare_swap_minutes) "
            "instead of waiting for a replacement, while the spare pool is not empty (M/G/∞ "
            "repair pool).",
            "The spare nodes, at the cluster's price per node.",
            ("opt_logbook2022", "kleinrock1975"),
            {
                "spares": Param(
                    math.nan,
                    "nodes",
                    "the count that minimises lost $/day",
                    max=FIELDS["cluster.spare_nodes"].max,
                    integer=True,
                )
            },
            "failures that need a replacement node",
            _all,
            _hot_spares,
        ),
        Feature(
            "domain_spares",
            "Spares by scale-up domain",
            "Spare nodes inside every NVLink domain (the job runs on fewer accelerators per "
            "domain) or whole idle spare domains: a failed tray is swapped inside its rack, or "
            "the rack's parallel group moves to a spare rack, instead of waiting for a repair "
            "(Erlang loss pools, docs/references.md#failure-domains).",
            "The spare nodes at the cluster's price per node; in-domain spares also shrink "
            "the job's share of each NVLink domain.",
            ("erlang1917", "aws_instances"),
            {
                "in_domain": Param(
                    math.nan,
                    "nodes per domain",
                    "the cheaper policy here",
                    max=FIELDS["cluster.spare_nodes_per_domain"].max,
                    integer=True,
                ),
                "spare_domains": Param(
                    math.nan,
                    "domains",
                    "the cheaper policy here",
                    max=FIELDS["cluster.spare_domains"].max,
                    integer=True,
                ),
            },
            "node failures and domain events",
            _all,
            _domain_spares,
            other_classes=("domain",),
            by_wait=True,
        ),
        Feature(
            "health_checks",
            "Deep health checks and lemon-node eviction",
            "Nodes whose failure history marks them as lemons (`goodput fit`) are evicted, "
            "so the other nodes' lower failure rate applies to the whole cluster; every node "
            "joining after a failure passes a health check first.",
            "A DCGM level-2 check on each replacement node (hot spares are checked while idle).",
            ("hyperpod_health_checks", "dcgm_diag", "kokolis2024"),
            {
                "check_minutes": Param(
                    2.0, "min", "DCGM diagnostics level 2, 'approximately two minutes'", 1440.0
                )
            },
            "hardware faults that recur on a node",
            lambda c: c.lemon_prone,
            _health_checks,
        ),
        Feature(
            "auto_recovery",
            "Automatic detection and auto-resume",
            "A launcher notices a crashed process at once and heartbeats notice a hang "
            "before the collective timeout; the job is relaunched without a person.",
            "Heartbeat and monitoring processes (negligible compute); a heartbeat set too "
            "short kills healthy jobs.",
            ("nvidia_resiliency", "minder2025", "hyperpod_auto_resume"),
            {
                "detection_minutes": Param(
                    1.0,
                    "min",
                    "Minder detects faulty machines in 3.6 s; 1 min to abort the job is " + ASSUMED,
                    1440.0,
                ),
                "hang_detection_minutes": Param(
                    5.0, "min", "NVIDIA resiliency extension rank heartbeat timeout 300 s", 1440.0
                ),
                "restart_minutes": Param(5.0, "min", ASSUMED, 1440.0),
            },
            "every failure's detection (hangs most)",
            _all,
            _auto_recovery,
            other_classes=("fabric", "domain", "switch", "job"),
        ),
        Feature(
            "memory_checkpoints",
            "In-memory tiered checkpoints",
            "Frequent checkpoints to CPU memory with copies on peer nodes, restored in "
            "seconds; the durable tier keeps its cadence and serves failures that lose every "
            "copy.",
            "CPU memory for the replicas (checkpoint shard × replicas per node).",
            ("hyperpod_tiered", "gemini2023"),
            {
                "replicas": Param(
                    2.0,
                    "copies",
                    "HyperPod replicates to other nodes; 2 is " + ASSUMED,
                    max=8,
                    integer=True,
                )
            },
            "every failure's rework and restore",
            _all,
            _memory_checkpoints,
            other_classes=("fabric", "domain", "switch", "job"),
        ),
        Feature(
            "async_saves",
            "Asynchronous checkpoint saves",
            "Training waits only for the device-to-host copy; the write to storage goes on "
            "in the background, so the checkpoint is usable a little later (staleness).",
            "Host memory for the staging copy; a failure before the write ends loses that "
            "checkpoint.",
            ("checkfreq2021", "datastates2024", "nvidia_resiliency"),
            {},
            "checkpoint saves (no failure cause)",
            None,
            _async_saves,
        ),
        Feature(
            "in_process_restart",
            "In-process restart",
            "Failures that leave the node healthy restart inside the running processes: no "
            "node replacement, no job relaunch (no new container, interpreter or CUDA "
            "context).",
            "Restartable training code; no throughput cost.",
            ("nvidia_resiliency", "hyperpod_checkpointless_blog"),
            {
                "restart_minutes": Param(
                    1.0,
                    "min",
                    "HyperPod reports 'sub-minute recovery from process-level failures'",
                    1440.0,
                )
            },
            "failures that leave the node healthy",
            lambda c: c.in_process and not c.silent,
            _in_process,
        ),
        Feature(
            "checkpointless",
            "Checkpointless peer recovery",
            "Model and optimizer state is replicated across node groups; after a "
            "single-node failure the replacement copies it from a healthy replica and "
            "training resumes from the previous step: no rework, no checkpoint restore.",
            "A second copy of the optimizer state in accelerator memory and its "
            "replication traffic.",
            ("hyperpod_checkpointless", "hyperpod_checkpointless_blog"),
            {
                "transfer_minutes": Param(
                    0.5, "min", "HyperPod: peer state transfer 'happens in seconds'", 1440.0
                ),
                "overhead": Param(0.01, "fraction", ASSUMED, max=0.9),
            },
            "single-node failures",
            lambda c: not c.multi_node and not c.silent,
            _checkpointless,
        ),
        Feature(
            "straggler_mitigation",
            "Straggler detection and mitigation",
            "Slow ranks are found by timing their kernels and replaced, removing most of "
            "the time the job waits for them.",
            "Profiling compute on every rank.",
            ("nvidia_resiliency", "lin2025_stragglers"),
            {
                "removed": Param(0.8, "fraction", ASSUMED, max=1.0),
                "overhead": Param(0.001, "fraction", ASSUMED, max=0.9),
            },
            "slow ranks (not a failure cause)",
            None,
            _stragglers,
        ),
        Feature(
            "sdc_detection",
            "Silent data corruption detection with rollback",
            "Periodic checks (re-running a step, loss and gradient monitors) find corruption "
            "within a check period instead of a day, so the rollback is shallow.",
            "The checks' compute.",
            ("llama3_2024", "nemo_resiliency"),
            {
                "delay_minutes": Param(60.0, "min", ASSUMED, 525_600.0),
                "overhead": Param(0.005, "fraction", ASSUMED, max=0.9),
            },
            "silent data corruption",
            lambda c: c.silent,
            _sdc_detection,
        ),
        Feature(
            "elastic",
            "Elastic degraded mode",
            "While a replacement node comes, the job drops the failed node's data-parallel "
            "replica and keeps training on the rest, then adds it back.",
            "Two reconfigurations per failure and the dropped replica's share of "
            "throughput while degraded.",
            ("hyperpod_elastic",),
            {"reconfigure_minutes": Param(1.0, "min", ASSUMED, 1440.0)},
            "single-node failures that wait for a replacement",
            lambda c: not c.multi_node and not c.silent,
            _elastic,
        ),
        Feature(
            "checkpoint_validation",
            "Checkpoint validation with fallback",
            "Every loaded checkpoint is validated; a corrupt one is skipped for the next "
            "tier (or the previous checkpoint) instead of sending the job round a restart "
            "loop.",
            "Validation time on every restore.",
            ("megatron_5281", "scr_174"),
            {"seconds": Param(10.0, "s", ASSUMED, 3600.0)},
            "every failure's restore",
            _all,
            _validation,
            other_classes=("fabric", "domain", "switch", "job"),
        ),
    )
}


# --------------------------------------------------------------------------- the ladder
@dataclass(frozen=True)
class Rung:
    """One rung: the scenario with every feature so far, and its figures."""

    feature: str
    label: str
    scenario: Scenario
    metrics: dict[str, float]
    changes: tuple[tuple[str, Any, Any], ...]
    assumptions: tuple[tuple[str, str, str], ...]
    source: str
    references: tuple[str, ...]
    delta_goodput_points: float
    delta_usd_per_day: float
    savings_by_cause: tuple[dict[str, Any], ...] = ()
    montecarlo: dict[str, float] | None = None

    @property
    def goodput(self) -> float:
        return self.metrics["goodput"]

    @property
    def lost_usd_per_day(self) -> float:
        return self.metrics["lost_usd_per_day"]

    def set_arguments(self, base: Scenario) -> list[str]:
        """``--set section.key=value`` strings that turn ``base`` into this rung."""
        return [f"{k}={_set_text(v)}" for k, v in self.scenario.values.items() if base[k] != v]

    def to_json_dict(self, base: Scenario) -> dict[str, Any]:
        out: dict[str, Any] = {
            "feature": self.feature,
            "label": self.label,
            "goodput": self.goodput,
            "lost_usd_per_day": self.lost_usd_per_day,
            "delta_goodput_points": self.delta_goodput_points,
            "delta_usd_per_day": self.delta_usd_per_day,
            "source": self.source,
            "references": list(self.references),
            "changes": [{"field": k, "before": b, "after": a} for k, b, a in self.changes],
            "assumptions": [
                {"what": w, "value": v, "basis": basis} for w, v, basis in self.assumptions
            ],
            "set": self.set_arguments(base),
            "savings_by_cause": [dict(r) for r in self.savings_by_cause],
            "cluster_usd_per_day": self.metrics["cluster_usd_per_day"],
            "spare_usd_per_day": self.metrics["spare_usd_per_day"],
        }
        if self.montecarlo is not None:
            out.update(self.montecarlo)
        return out


def _set_text(v: Any) -> str:
    if isinstance(v, float):
        return repr(v)
    return str(v)


@dataclass(frozen=True)
class Ladder:
    """The rungs from the baseline to the last feature (see the module docstring)."""

    base: Scenario
    rungs: tuple[Rung, ...]
    order: str  # "given" or "recommended"
    modes: FailureModes
    trials: int | None = None
    days: float | None = None
    seed: int | None = None
    #: predicted seconds of the rungs' simulations together, before they ran
    estimated_seconds: float | None = None

    @property
    def total_delta_usd_per_day(self) -> float:
        return self.rungs[0].lost_usd_per_day - self.rungs[-1].lost_usd_per_day

    @property
    def total_delta_goodput_points(self) -> float:
        return 100.0 * (self.rungs[-1].goodput - self.rungs[0].goodput)

    @property
    def recommended_features(self) -> list[str]:
        """The leading features that each save money (in the recommended order these are
        the ones worth adopting here; the rest cost more than they save)."""
        out = []
        for r in self.rungs[1:]:
            if r.delta_usd_per_day <= 0:
                break
            out.append(r.feature)
        return out

    @property
    def last_recommended(self) -> Rung:
        """The rung after the last feature worth adopting (the baseline when none is)."""
        return self.rungs[len(self.recommended_features)]

    @property
    def recommended_delta_usd_per_day(self) -> float:
        """Saved per day by the features worth adopting alone (:attr:`recommended_features`):
        the baseline's lost dollars per day minus those of the rung after the last of them
        [USD/day].  The whole ladder's figure also counts rungs that cost more than they
        save."""
        return self.rungs[0].lost_usd_per_day - self.last_recommended.lost_usd_per_day

    @property
    def recommended_delta_goodput_points(self) -> float:
        """Goodput gained by the features worth adopting alone [points]."""
        return 100.0 * (self.last_recommended.goodput - self.rungs[0].goodput)

    def to_json_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scenario_name": self.base.name,
            "order": self.order,
            "features": [r.feature for r in self.rungs[1:]],
            "rungs": [r.to_json_dict(self.base) for r in self.rungs],
            "total_delta_usd_per_day": self.total_delta_usd_per_day,
            "total_delta_goodput_points": self.total_delta_goodput_points,
            "recommended_features": self.recommended_features,
            "recommended_delta_usd_per_day": self.recommended_delta_usd_per_day,
            "recommended_delta_goodput_points": self.recommended_delta_goodput_points,
            "failure_modes_source": self.modes.source,
            "feature_catalog": [FEATURES[k].to_json_dict() for k in FEATURES],
        }
        if self.trials is not None:
            out.update(
                {
                    "trials": self.trials,
                    "days": self.days,
                    "seed": self.seed,
                    "estimated_seconds": self.estimated_seconds,
                    "montecarlo_tolerance": MC_TOLERANCE_TEXT,
                }
            )
        return out


def _metrics(s: Scenario, ctx: Context) -> dict[str, float]:
    arrays = evaluate_arrays(resolve_inputs(s, ctx.catalog, ctx.tiers))
    return {k: float(np.asarray(v)) for k, v in arrays.items() if np.ndim(v) == 0}


def apply_feature(s: Scenario, key: str, ctx: Context) -> tuple[Scenario, list]:
    """``s`` with feature ``key`` adopted, and the assumptions it rests on.

    Parameters
    ----------
    s : Scenario
        The scenario before the feature.
    key : str
        Feature key (:data:`FEATURES`).
    ctx : Context
        Failure modes, lemon shares, feature parameters, catalog and tiers.

    Returns
    -------
    tuple of (Scenario, list)
        The scenario with the feature's field values set (in their fields' units), and
        the assumptions it rests on (text).
    """
    f = FEATURES[key]
    changes, notes = f.apply(s, ctx, f)
    notes = list(notes)
    return s.replace(_within_range(changes, notes)), notes


def _within_range(changes: Mapping[str, Any], notes: list) -> dict[str, Any]:
    """``changes`` with every number held to its field's range, and a note for each one
    held: a feature adopted on a scenario already at a field's limit (a replacement of
    10,080 minutes plus a health check, an overhead of 90% plus detection compute) stays
    at the limit instead of failing the whole ladder on a value the user never typed."""
    out = dict(changes)
    for k, v in changes.items():
        f = FIELDS[k]
        if not isinstance(v, int | float) or isinstance(v, bool):
            continue
        held = v
        if f.max is not None and v > f.max:
            held = f.max
        elif f.min is not None and v < f.min:
            held = f.min
        if held != v:
            out[k] = int(held) if f.kind == "int" else float(held)
            notes.append(
                (f"{k} held at its limit", f"{held:g}", f"this feature would take it to {v:g}")
            )
    return out


def parse_features(text: str | Sequence[str] | None) -> list[str] | None:
    """Feature keys from ``a,b,c`` (or a list); None for the recommended order.  Unknown or
    repeated names raise ValidationError naming ``--features`` and the allowed names.

    Parameters
    ----------
    text : str or sequence of str, optional
        Feature keys as typed (``--features``).

    Returns
    -------
    list of str or None
        Feature keys in order; None for the recommended order.
    """
    if text is None:
        return None
    items = [t.strip() for t in (text.split(",") if isinstance(text, str) else text)]
    items = [t for t in items if t]
    if not items:
        raise ValidationError("--features", "is empty; allowed: " + ", ".join(FEATURES))
    for t in items:
        if t not in FEATURES:
            raise ValidationError(
                "--features", f"{t[:80]!r} is not a feature; allowed: " + ", ".join(FEATURES)
            )
    dup = sorted({t for t in items if items.count(t) > 1})
    if dup:
        raise ValidationError("--features", "lists " + ", ".join(dup) + " more than once")
    return items


def parse_params(items: Sequence[str] | None) -> dict[str, float]:
    """``feature.name=value`` strings (``--param``) as a dict, validated against FEATURES.

    Parameters
    ----------
    items : sequence of str, optional
        ``feature.name=value`` strings as typed, each value in the parameter's unit.

    Returns
    -------
    dict[str, float]
        ``{"feature.name": value}`` in the parameter's unit.
    """
    out: dict[str, float] = {}
    for item in items or []:
        name, sep, raw = item.partition("=")
        name = name.strip()
        fkey, _, pname = name.partition(".")
        if not sep or fkey not in FEATURES or pname not in FEATURES[fkey].params:
            known = [f"{k}.{p}" for k, f in FEATURES.items() for p in f.params]
            raise ValidationError(
                "--param", f"{item[:80]!r} is not FEATURE.PARAM=VALUE; allowed: " + ", ".join(known)
            )
        try:
            value = float(raw)
        except ValueError:
            raise ValidationError(f"--param {name}", f"{raw[:80]!r} is not a number") from None
        p = FEATURES[fkey].params[pname]
        whole = " whole" if p.integer else ""
        allowed = f"a{whole} number in [0, {p.max:g}]" + (f" {p.unit}" if p.unit else "")
        if (
            not math.isfinite(value)
            or not 0 <= value <= p.max
            or (p.integer and value != round(value))
        ):
            raise ValidationError(f"--param {name}", f"{raw[:80]!r} is not allowed ({allowed})")
        out[name] = value
    return out


#: Failure classes beyond node failures: (class, its rate's output key, category, label,
#: the field of its repair wait [h] or None)
OTHER_CLASSES = (
    ("fabric", "fabric_failures_per_day", "fabric_aborts", "Fabric aborts", None),
    (
        "domain",
        "domain_failures_per_day",
        "domain_events",
        "Scale-up domain events (racks)",
        "reliability.domain_repair_hours",
    ),
    (
        "switch",
        "switch_failures_per_day",
        "switch_events",
        "Switch events",
        "reliability.switch_repair_hours",
    ),
    ("job", "job_interruptions_per_day", "job_interruptions", "Job-level interruptions", None),
)


def _cause_weights(
    feature: Feature, prev: Mapping[str, float], modes: FailureModes, scenario: Scenario
) -> tuple[dict[str, float], dict[str, str]]:
    """Shares of the rung's failure saving: the node-failure causes the feature acts on (the
    Llama 3 taxonomy's shares by count, :meth:`FailureModes.weights`) and the other classes
    it acts on (``feature.other_classes``), each class at its share of those acted on by
    count, or with ``feature.by_wait`` by rate × repair wait (node failures: the replacement
    path; domain and switch events: their repair): spare domains save mostly the 8-hour rack
    waits, not the swaps.  With labels by category.  A feature that acts on no cause splits
    over every node cause."""
    weights = modes.weights(feature.acts_on) if feature.acts_on is not None else {}
    if not weights:  # acts on no cause: failure losses change only as a side effect
        weights = modes.weights(lambda c: True)
    labels = {c.category: c.label for c in modes.causes}

    def wait(field: str | None) -> float:
        return 60.0 * float(scenario[field]) if feature.by_wait and field else 1.0

    others = {
        cat: (float(prev[key]) * wait(field), label)
        for name, key, cat, label, field in OTHER_CLASSES
        if name in feature.other_classes and float(prev.get(key, 0.0)) > 0
    }
    if not others:
        return weights, labels
    node = float(prev["node_failures_per_day"]) if weights else 0.0
    if feature.by_wait:
        node *= float(prev["replacement_path_minutes_expected"])
    acted = node + sum(rate for rate, _ in others.values())
    out = {cat: w * node / acted for cat, w in weights.items()}
    for cat, (rate, label) in others.items():
        out[cat], labels[cat] = rate / acted, label
    return out, labels


def _savings_by_cause(
    feature: Feature,
    prev: Mapping[str, float],
    cur: Mapping[str, float],
    modes: FailureModes,
    scenario: Scenario,
) -> tuple[dict[str, Any], ...]:
    """Where a rung's saving comes from: failure losses split over the causes and failure
    classes the feature acts on (by count, :func:`_cause_weights`), and the rest (spares,
    saves, stalls, throughput) as their own lines.  The lines add up to the rung's saving."""
    rows: list[dict[str, Any]] = []
    failure = sum(
        prev[f"loss_{c}_usd_per_day"] - cur[f"loss_{c}_usd_per_day"] for c in FAILURE_COMPONENTS
    )
    weights, labels = _cause_weights(feature, prev, modes, scenario)
    for cat, w in weights.items():
        rows.append({"category": cat, "label": labels[cat], "saving_usd_per_day": failure * w})
    for comp in LOSS_COMPONENTS:
        if comp in FAILURE_COMPONENTS:
            continue
        d = prev[f"loss_{comp}_usd_per_day"] - cur[f"loss_{comp}_usd_per_day"]
        if abs(d) >= 0.005:
            rows.append({"category": comp, "label": LOSS_COMPONENTS[comp], "saving_usd_per_day": d})
    spares = prev["spare_usd_per_day"] - cur["spare_usd_per_day"]
    if abs(spares) >= 0.005:
        label = "Spare nodes by domain" if feature.key == "domain_spares" else "Hot spare nodes"
        rows.append({"category": "spares", "label": label, "saving_usd_per_day": spares})
    return tuple(rows)


def _baseline_rung(scenario: Scenario, metrics: dict[str, float]) -> Rung:
    """The first rung: the scenario as given, no change, deltas of 0."""
    return Rung(
        feature=BASELINE,
        label=f"Baseline: {scenario.name}",
        scenario=scenario,
        metrics=metrics,
        changes=(),
        assumptions=(),
        source="",
        references=(),
        delta_goodput_points=0.0,
        delta_usd_per_day=0.0,
    )


def _next_feature(
    current: Scenario, remaining: list[str], given: bool, ctx: Context
) -> tuple[str, Scenario, list[str], dict[str, float]]:
    """The next rung's feature: the first remaining one in a given order, else (greedy) the
    one whose scenario loses the least USD/day (registry order breaks ties).  Returns the
    key, the scenario with it applied, its notes and its metrics."""
    if given:
        key = remaining[0]
        nxt, notes = apply_feature(current, key, ctx)
        return key, nxt, notes, _metrics(nxt, ctx)
    best = None
    for k in remaining:
        s_k, n_k = apply_feature(current, k, ctx)
        m_k = _metrics(s_k, ctx)
        if best is None or m_k["lost_usd_per_day"] < best[3]["lost_usd_per_day"] - 1e-9:
            best = (k, s_k, n_k, m_k)
    return best  # type: ignore[return-value]


def _spares_text(per_domain: float, domains: float) -> str:
    """Spares by domain in words: "2 per domain", "3 whole domains", or both."""
    parts = [f"{int(per_domain)} per domain"] if per_domain else []
    parts += [f"{int(domains)} whole domain{'s' if domains != 1 else ''}"] if domains else []
    return " and ".join(parts) or "none"


def _rung_label(f: Feature, cur: Scenario, nxt: Scenario) -> str:
    """The rung's name: the feature's label, and for spares the scenario already has, what
    the rung puts instead ("Hot spares (12 instead of 8)"), so that "worth adopting" does
    not read as if the scenario had none."""
    if f.key == "hot_spares" and int(cur["cluster.spare_nodes"]):
        was, now = int(cur["cluster.spare_nodes"]), int(nxt["cluster.spare_nodes"])
        return f"{f.label} ({now} instead of {was})" if now != was else f.label
    keys = ("cluster.spare_nodes_per_domain", "cluster.spare_domains")
    if f.key == "domain_spares" and any(int(cur[k]) for k in keys):
        (a, b), (c, d) = ([int(s[k]) for k in keys] for s in (cur, nxt))
        if (a, b) == (c, d):
            return f.label
        if not (a or c) or not (b or d):  # one kind of spare before and after: one unit
            unit = "whole domains" if b or d else "per domain"
            return f"{f.label} ({c or d} {unit} instead of {a or b})"
        return f"{f.label} ({_spares_text(c, d)} instead of {_spares_text(a, b)})"
    return f.label


def _feature_rung(
    base_name: str,
    key: str,
    cur: Rung,
    nxt: Scenario,
    notes: Sequence[str],
    m: Mapping[str, float],
    ctx: Context,
) -> Rung:
    """The rung that adds feature ``key`` to ``cur``: the fields it changes, Δgoodput =
    100·(g_next − g_cur) [percentage points] and the saving lost_cur − lost_next [USD/day]."""
    f = FEATURES[key]
    changes = tuple(
        (k, _in_force(cur.scenario, k), nxt[k])
        for k in FIELDS
        if cur.scenario[k] != nxt[k] and _in_force(cur.scenario, k) != nxt[k]
    )
    return Rung(
        feature=key,
        label=_rung_label(f, cur.scenario, nxt),
        scenario=nxt.replace(name=f"{base_name} + {key}"),
        metrics=m,
        changes=changes,
        assumptions=tuple(notes),
        source=f.source,
        references=f.references,
        delta_goodput_points=100.0 * (m["goodput"] - cur.metrics["goodput"]),
        delta_usd_per_day=cur.metrics["lost_usd_per_day"] - m["lost_usd_per_day"],
        savings_by_cause=_savings_by_cause(f, cur.metrics, m, ctx.modes, cur.scenario),
    )


def ladder(
    scenario: Scenario,
    features: Sequence[str] | str | None = None,
    *,
    modes: FailureModes | None = None,
    lemon_failure_share: float = 0.0,
    lemon_node_share: float = 0.0,
    params: Mapping[str, float] | None = None,
    trials: int | None = None,
    days: float = 30.0,
    seed: int = 0,
    catalog: Mapping[str, Instance] | None = None,
    on_estimate: Callable[[int, float], Any] | None = None,
) -> Ladder:
    """The resilience ladder of ``scenario`` (see the module docstring).

    Parameters
    ----------
    scenario : Scenario
        The baseline (first rung).
    features : sequence of str or str, optional
        Feature keys in order; None = the recommended order (greedy: at each rung the
        feature with the largest saving next).
    modes : FailureModes, optional
        The causes features read their shares from (default Llama 3 405B).
    lemon_failure_share, lemon_node_share : float
        Lemon nodes' share of failures and of nodes [fraction]
        (:func:`models.failure_modes.lemon_share_from_fit` on a ``goodput fit``).
    params : Mapping[str, float], optional
        Feature parameters ``{"feature.param": value}`` overriding the defaults, each in
        the parameter's unit.
    trials : int, optional
        With it, each rung is also simulated with this many runs [count]
        (models.montecarlo; the same seed for every rung, so rung-to-rung differences
        share their noise).  The limits hold for all rungs together
        (:func:`montecarlo_estimate`), checked before the first simulation.
    days : float
        Simulated window [day].
    seed : int
        Random seed [-].
    catalog : Mapping[str, Instance], optional
        Instance catalog keyed by node type; default the shipped one.
    on_estimate : callable, optional
        Called as ``on_estimate(rungs [count], seconds [s])`` with the predicted total
        before simulating.

    Returns
    -------
    Ladder
        The rungs in order, each with its metrics, Δgoodput [percentage points] and
        saving [USD/day] over the previous rung, and with ``trials`` its Monte Carlo
        goodput [fraction].
    """
    keys = parse_features(features)
    cat = catalog if catalog is not None else load_catalog()
    ctx = Context(
        modes=modes or FailureModes.llama3(),
        lemon_failure_share=float(lemon_failure_share),
        lemon_node_share=float(lemon_node_share),
        params=dict(params or {}),
        catalog=cat,
        tiers=ck.load_tiers(),
    )
    lemon_rate_factor(ctx.lemon_failure_share, ctx.lemon_node_share)  # validates
    base_m = _metrics(scenario, ctx)
    rungs = [_baseline_rung(scenario, base_m)]
    remaining = list(keys) if keys is not None else list(FEATURES)
    while remaining:
        cur = rungs[-1]
        key, nxt, notes, m = _next_feature(cur.scenario, remaining, keys is not None, ctx)
        remaining.remove(key)
        rungs.append(_feature_rung(scenario.name, key, cur, nxt, notes, m, ctx))
    estimate = None
    if trials is not None:
        from .budget import MAX_SECONDS, Budget

        ps, estimate = montecarlo_estimate(rungs, trials, days, ctx)
        if on_estimate is not None:
            on_estimate(len(rungs), estimate)
        budget = Budget(max_seconds=MAX_SECONDS)  # one budget: the limit is the command's
        rungs = [
            _with_montecarlo(r, trials, days, seed, p, budget)
            for r, p in zip(rungs, ps, strict=True)
        ]
    return Ladder(
        base=scenario,
        rungs=tuple(rungs),
        order="given" if keys is not None else "recommended",
        modes=ctx.modes,
        trials=trials,
        days=days if trials is not None else None,
        seed=seed if trials is not None else None,
        estimated_seconds=estimate,
    )


# --------------------------------------------------------------------------- Monte Carlo
#: Monte Carlo vs analytic, per rung: |mean − analytic| ≤ MC_SIGMAS standard errors +
#: MC_BIAS.  The bias term covers what the analytic model leaves out on purpose: goodput
#: over a finite window that starts at a fresh checkpoint, failures during one class's
#: recovery restarting another's (the classes are multiplied, Daly per class), and the
#: number of nodes in repair (the spare model takes it as Poisson; multi-node failures make
#: it more variable).
MC_SIGMAS = 4.0
MC_BIAS = 0.001
MC_TOLERANCE_TEXT = (
    f"|simulated mean − analytic goodput| ≤ {MC_SIGMAS:g} standard errors + {MC_BIAS:g} "
    "(model approximations: finite window, classes multiplied, nodes in repair taken as "
    "Poisson)"
)


def montecarlo_tolerance(stderr: float) -> float:
    """Allowed |simulated mean − analytic| for a rung [fraction of goodput].

    Parameters
    ----------
    stderr : float
        Standard error of the simulated mean goodput [fraction].

    Returns
    -------
    float
        MC_SIGMAS · stderr + MC_BIAS [fraction of goodput].

    Examples
    --------
    >>> round(montecarlo_tolerance(0.0005), 6)
    0.003
    """
    return MC_SIGMAS * stderr + MC_BIAS


def montecarlo_estimate(
    rungs: Sequence[Rung], trials: int, days: float, ctx: Context
) -> tuple[list[Any], float]:
    """Each rung's simulation inputs and the predicted seconds of simulating them all.

    The limits are the whole command's: every rung alone must pass
    :func:`models.montecarlo.check_size` (memory is per call, the rungs run one after
    another), and the rungs together must stay within :data:`models.budget.MAX_SECONDS`
    and :data:`models.montecarlo.MAX_EXPECTED_EVENTS`, else a ValidationError naming
    ``trials`` gives the total and the largest number of trials that fits.

    Parameters
    ----------
    rungs : sequence of Rung
        The ladder's rungs.
    trials : int
        Monte Carlo runs per rung [count].
    days : float
        Simulated window [day].
    ctx : Context
        Catalog and tiers of the ladder.

    Returns
    -------
    (params, seconds) : the rungs' :class:`models.montecarlo.SimulationParams` and the sum
        of their :func:`models.montecarlo.estimate_work` seconds [s].
    """
    from .budget import MAX_SECONDS
    from .montecarlo import MAX_EXPECTED_EVENTS, check_size, estimate_work, params_from_inputs

    ps = [params_from_inputs(resolve_inputs(r.scenario, ctx.catalog, ctx.tiers)) for r in rungs]
    for p in ps:
        check_size(trials, days, p)

    def work(t: int) -> tuple[float, float]:
        ests = [estimate_work(p, t, days) for p in ps]
        return sum(e.seconds for e in ests), sum(e.events for e in ests)

    seconds, events = work(trials)
    if seconds > MAX_SECONDS or events > MAX_EXPECTED_EVENTS:
        lo, hi = 0, trials  # the largest trials whose total fits (work grows with trials)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            sec, ev = work(mid)
            lo, hi = (mid, hi) if sec <= MAX_SECONDS and ev <= MAX_EXPECTED_EVENTS else (lo, mid)
        over = f"~{seconds:,.2g} s (limit {MAX_SECONDS:g} s)"
        if events > MAX_EXPECTED_EVENTS:
            over += f", ~{events:,.2g} events (limit {MAX_EXPECTED_EVENTS:.2g})"
        allowed = f"trials <= {lo:,}" if lo >= 1 else "fewer rungs (--features) or a shorter --days"
        raise ValidationError(
            "trials",
            f"{len(rungs)} rungs x {trials:,} trials x {days:g} days would take {over} in "
            f"all (allowed: {allowed})",
        )
    return ps, seconds


def _with_montecarlo(
    r: Rung, trials: int, days: float, seed: int, p: Any, budget: Any = None
) -> Rung:
    from .montecarlo import simulate_params
    from .pricing import lost_usd_per_day

    res = simulate_params(p, trials, days, rng=seed, record_timeline=False, budget=budget)
    g = res.goodput
    # the chain's lost per day at each run's goodput: spares and storage included
    lost = np.asarray(
        lost_usd_per_day(
            g,
            r.metrics["cluster_usd_per_day"],
            r.metrics["spare_usd_per_day"],
            r.metrics["storage_usd_per_day"],
        )
    )
    se = res.goodput_stderr
    mean = float(np.mean(g))
    mc = {
        "goodput_mc_mean": mean,
        "goodput_mc_stderr": se,
        "goodput_p5": float(np.percentile(g, 5)),
        "goodput_p95": float(np.percentile(g, 95)),
        "lost_usd_per_day_p5": float(np.percentile(lost, 5)),
        "lost_usd_per_day_p95": float(np.percentile(lost, 95)),
        "montecarlo_within_tolerance": bool(
            abs(mean - r.goodput) <= montecarlo_tolerance(se if np.isfinite(se) else 0.0)
        ),
    }
    return Rung(**{**r.__dict__, "montecarlo": mc})


__all__ = [
    "BASELINE",
    "FEATURES",
    "MC_BIAS",
    "MC_SIGMAS",
    "Context",
    "Feature",
    "Ladder",
    "Param",
    "Rung",
    "apply_feature",
    "async_save_seconds",
    "ladder",
    "montecarlo_tolerance",
    "parse_features",
    "parse_params",
    "snapshot_seconds",
]
