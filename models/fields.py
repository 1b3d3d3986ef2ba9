"""The scenario schema: every input field, its type, unit, allowed range and source.

One registry drives validation, TOML in/out, ``--set section.key=value``, the dashboard's
what-if widgets, URL state and sensitivity analysis, so a field added here is everywhere.

Fields are grouped per section in separate tuples so that each domain (reliability,
checkpoint, network, ...) owns its own block.  Ranges are *validation* ranges (what the
model accepts); ``ui_min``/``ui_max`` are the default slider span in the dashboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .choices import (
    DurableTier,
    FailureScaling,
    GradientPrecision,
    MfuBasis,
    Mlp,
    MoeDispatcher,
    OnOff,
    Placement,
    Precision,
    PricingModel,
    Recompute,
    SaveMode,
    SoftwareStack,
    StageDistribution,
    Strategy,
    Timings,
    Validation,
    values,
)


@dataclass(frozen=True)
class Field:
    """One scenario input.

    Attributes
    ----------
    key : dotted ``section.name``.
    kind : ``"int"``, ``"float"``, ``"str"`` or ``"choice"``.
    default : value used when a scenario omits the field (``None`` = derived, see ``help``).
    min, max : inclusive allowed range for numbers (``None`` = unbounded on that side).
    unit : unit shown next to the value (``""`` for dimensionless).
    label : short human label.
    help : one or two sentences: meaning, and where the default comes from.
    choices : allowed values for ``kind="choice"``.
    optional : ``None`` is allowed (the model derives the value).
    special : string values allowed besides numbers, e.g. ``("optimal",)``.
    ui_min, ui_max, ui_step : dashboard slider span.
    scale : factor from stored value to displayed value (e.g. 100 for fractions shown in %).
    sensitivity : include in tornado/sensitivity sweeps.
    widget : dashboard input for numbers: ``"number"`` (typed, for wide-ranged values such
        as nodes, parameters, tokens, prices and times) or ``"slider"`` (a bounded range
        that is natural to sweep: shares, efficiencies, shapes; needs ``ui_min``/``ui_max``).
    none_label : for an optional field, what leaving it empty means (the dashboard's
        checkbox), e.g. "Use the catalog price".
    source : where the default comes from: a citation (paper, page, table), ``"derived"``
        (docs/references.md) or ``"user"``; every field added from now on names it.
    """

    key: str
    kind: str
    default: Any
    min: float | None = None
    max: float | None = None
    unit: str = ""
    label: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False
    special: tuple[str, ...] = ()
    ui_min: float | None = None
    ui_max: float | None = None
    ui_step: float | None = None
    scale: float = 1.0
    sensitivity: bool = True
    max_length: int = 200
    widget: str = "number"
    none_label: str = ""
    source: str = ""

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.key.split(".", 1)[1]

    def allowed(self) -> str:
        """Human description of the allowed values, used in error messages."""
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "str":
            opt = " (or omitted)" if self.optional else ""
            return f"a non-empty text of at most {self.max_length} characters{opt}"
        lo = "-inf" if self.min is None else _fmt(self.min)
        hi = "inf" if self.max is None else _fmt(self.max)
        what = "an integer" if self.kind == "int" else "a number"
        extra = "".join(f" or {s!r}" for s in self.special)
        # what leaving it empty means, where the field says (its none_label)
        empty = self.none_label[:1].lower() + self.none_label[1:]
        opt = f", or omitted: {empty}" if empty else ", or omitted to derive it"
        opt = opt if self.optional else ""
        unit = f" {self.unit}" if self.unit else ""
        return f"{what} in [{lo}, {hi}]{unit}{extra}{opt}"


def _fmt(x: float) -> str:
    """A range bound as people read it: whole numbers with separators (1,000,000, not
    1e+06), others as Python's shortest form (0.04167); a Python int exactly, however large
    (a seed's 9,223,372,036,854,775,807, not 9.22337e+18)."""
    if isinstance(x, int) and not isinstance(x, bool):
        return f"{x:,}"
    x = float(x)
    return f"{int(x):,}" if x.is_integer() and abs(x) < 1e16 else f"{x:g}"


CLUSTER_FIELDS: tuple[Field, ...] = (
    Field(
        "cluster.instance",
        "str",
        "p5.48xlarge",
        label="Instance type",
        help="Catalog name of the node type (data/instances.csv).",
        sensitivity=False,
    ),
    Field(
        "cluster.nodes",
        "int",
        2000,
        1,
        200_000,
        "nodes",
        "Nodes in the job",
        "Instances the training job runs on (2,000 p5.48xlarge = 16,000 H100).",
        ui_min=1,
        ui_max=20_000,
        ui_step=1,
    ),
    Field(
        "cluster.spare_nodes",
        "int",
        0,
        0,
        100_000,
        "nodes",
        "Hot spare nodes",
        "Idle, paid nodes kept ready to replace a failed one; they cut replacement time "
        "to recovery.hot_spare_swap_minutes while the pool is not empty.",
        ui_min=0,
        ui_max=200,
        ui_step=1,
    ),
    Field(
        "cluster.nodes_per_domain",
        "int",
        None,
        1,
        1024,
        "nodes",
        "Nodes per scale-up domain",
        "Nodes in one scale-up domain (rack, NVL72 UltraServer): the failure domain that a "
        "rack-level event takes out and on which tensor/expert-parallel groups are laid. "
        "Omit to derive it from the catalog: scale-up domain accelerators / accelerators per "
        "node (p6e-gb200.36xlarge: 72 / 4 = 18; p5.48xlarge: 8 / 8 = 1).",
        optional=True,
        ui_min=1,
        ui_max=72,
        ui_step=1,
        sensitivity=False,
        none_label="Derive from the catalog",
        source="derived",
    ),
    Field(
        "cluster.nodes_per_switch",
        "int",
        None,
        1,
        100_000,
        "nodes",
        "Nodes per switch",
        "Nodes behind one scale-out (leaf/top-of-rack) switch: what a switch event takes out. "
        "Omit to take one switch per scale-up domain (cluster.nodes_per_domain).",
        optional=True,
        ui_min=1,
        ui_max=128,
        ui_step=1,
        sensitivity=False,
        none_label="One per scale-up domain",
        source="derived",
    ),
    Field(
        "cluster.spare_nodes_per_domain",
        "int",
        0,
        0,
        1023,
        "nodes",
        "In-domain spare nodes",
        "Nodes of every scale-up domain kept out of the job as spares: the job runs on "
        "nodes_per_domain - this many nodes (fewer accelerators per NVLink domain, which the "
        "step model sees) and a failed node is swapped for one of them in "
        "recovery.hot_spare_swap_minutes while the domain has one free. Common practice for "
        "GB200 NVL72 is 16 of 18 trays in the job (64 of 72 GPUs).",
        ui_min=0,
        ui_max=8,
        ui_step=1,
        sensitivity=False,
        source="user",
    ),
    Field(
        "cluster.spare_domains",
        "int",
        0,
        0,
        10_000,
        "domains",
        "Spare domains",
        "Whole scale-up domains kept idle beside the job: a domain event, or a node failure "
        "that finds no in-domain spare, moves the domain's group onto a free one in "
        "recovery.hot_spare_swap_minutes; the broken domain returns to the pool once repaired.",
        ui_min=0,
        ui_max=16,
        ui_step=1,
        sensitivity=False,
        source="user",
    ),
    Field(
        "cluster.placement_group_nodes",
        "int",
        None,
        1,
        1024,
        "nodes",
        "Nodes per parallel group",
        "Nodes of one tensor/expert-parallel group, laid inside one scale-up domain: what a "
        "node failure idles when its domain has no free spare. Omit to take the job's whole "
        "share of a domain (one group per rack, e.g. EP 64 on NVL72).",
        optional=True,
        ui_min=1,
        ui_max=72,
        ui_step=1,
        sensitivity=False,
        none_label="The job's nodes of a domain",
        source="derived",
    ),
)

RELIABILITY_FIELDS: tuple[Field, ...] = (
    Field(
        "reliability.node_failure_rate_per_day",
        "float",
        0.002,
        0.0,
        1.0,
        "per node-day",
        "Node failure rate",
        "Job-stopping failures per node per day, as a fraction (0.001 = 0.1%). Llama 3 405B "
        "saw 419 unexpected interruptions on 2,048 nodes in 54 days = 0.379% (arXiv:2407.21783).",
        ui_min=0.0,
        ui_max=0.02,
        ui_step=0.0001,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "reliability.node_failure_rate_low",
        "float",
        None,
        0.0,
        1.0,
        "per node-day",
        "Failure rate, 80% interval low",
        "Lower end of the 80% interval of the node failure rate. `goodput fit` and "
        "`goodput reconcile --write-scenario` write it from the log's exact Poisson interval; "
        "left empty, the fleet prior of docs/decide.md applies (the rate divided by 2.16, the "
        "spread of eight public fleets). Decide, plan --deadline-days and the headline "
        "intervals integrate over it. An edit of the rate alone moves a stated interval with "
        "it (both ends times new/old rate).",
        optional=True,
        scale=100.0,
        sensitivity=False,
        none_label="Use the fleet prior",
        source="derived: a fitted log (goodput fit, reconcile), else the fleet prior of "
        "docs/decide.md (eight fleets: Llama 3 arXiv:2407.21783; Kokolis et al. "
        "arXiv:2410.21680; BLOOM; OPT; Lablup arXiv:2605.09370; StepFun arXiv:2502.03885; "
        "ByteRobust arXiv:2509.16293)",
    ),
    Field(
        "reliability.node_failure_rate_high",
        "float",
        None,
        0.0,
        1.0,
        "per node-day",
        "Failure rate, 80% interval high",
        "Upper end of the 80% interval of the node failure rate (see node_failure_rate_low); "
        "left empty, the rate times 2.16 (fleet prior, docs/decide.md).",
        optional=True,
        scale=100.0,
        sensitivity=False,
        none_label="Use the fleet prior",
        source="derived: a fitted log (goodput fit, reconcile), else the fleet prior of "
        "docs/decide.md (Llama 3 arXiv:2407.21783; Kokolis et al. arXiv:2410.21680)",
    ),
    Field(
        "reliability.repair_hours",
        "float",
        24.0,
        0.0,
        24.0 * 365,
        "h",
        "Repair time",
        "Mean time a failed node is out of service before it rejoins the spare pool "
        "(OPT-175B logbook: replacements 'can take hours').",
        ui_min=0.5,
        ui_max=168.0,
        ui_step=0.5,
    ),
    Field(
        "reliability.weibull_shape",
        "float",
        1.0,
        0.1,
        5.0,
        "",
        "Weibull shape of time between failures",
        "1 = exponential (memoryless, what the analytic model assumes). Field data show "
        "decreasing hazard, shape < 1 (Schroeder & Gibson, DSN'06). Used by the Monte Carlo "
        "simulator and fitted from failure logs; the mean rate stays node_failure_rate_per_day.",
        ui_min=0.3,
        ui_max=2.0,
        ui_step=0.05,
        widget="slider",
    ),
    Field(
        "reliability.failure_scaling",
        "choice",
        "mixed",
        label="Failure rate on other instance types",
        help="How the node failure rate carries over when the instance comparison and the "
        "optimizer move the job to a node type with a different number of accelerators: "
        "'per_node' keeps the rate per node, 'per_accelerator' scales it with accelerators per "
        "node, 'mixed' scales the accelerator_failure_share of it with accelerators and keeps "
        "the rest per node. The scenario's own instance is never rescaled.",
        choices=values(FailureScaling),
        sensitivity=False,
    ),
    Field(
        "reliability.accelerator_failure_share",
        "float",
        0.6396,
        0.0,
        1.0,
        "",
        "Failures that scale with accelerators",
        "Share of node failures caused by the accelerators themselves (used when "
        "failure_scaling = 'mixed'). Default: the GPU group of Llama 3 405B's 419 unexpected "
        "interruptions (faulty GPU, HBM3, SRAM, GPU system processor, SDC, thermal) = "
        "268/419 = 64.0% (arXiv:2407.21783 Table 5; data/failure_logs/llama3-root-causes.csv).",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.01,
        scale=100.0,
        sensitivity=False,
        widget="slider",
    ),
    Field(
        "reliability.sdc_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Silent data corruption share",
        "Share of failures that are silent data corruption: nothing stops, training goes on "
        "with wrong numbers until it is noticed (resilience.sdc_detection_minutes) and rolls "
        "back to the last checkpoint written before the corruption. Llama 3 405B: 6 of 419 "
        "unexpected interruptions (1.4%, arXiv:2407.21783 Table 5). Default 0.",
        ui_min=0.0,
        ui_max=0.1,
        ui_step=0.001,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "reliability.domain_failure_rate_per_day",
        "float",
        0.0,
        0.0,
        1.0,
        "per domain-day",
        "Domain event rate",
        "Events per scale-up domain per day that stop the job and take the whole domain "
        "(rack, UltraServer: NVLink switch tray, backplane, power shelf, cooling) out of "
        "service until repaired. Default 0 (no domain events). Not applied where a domain is "
        "one node (an 8-GPU server): its events are node failures, in the node rate.",
        ui_min=0.0,
        ui_max=0.05,
        ui_step=0.0005,
        scale=100.0,
        sensitivity=False,
        source="user",
    ),
    Field(
        "reliability.domain_repair_hours",
        "float",
        8.0,
        0.01,
        24.0 * 365,
        "h",
        "Domain repair time",
        "Mean time a domain hit by a domain event is out of service; the job waits for it "
        "when no spare domain is free. Default 8 h is our assumption (no published figure).",
        ui_min=0.5,
        ui_max=72.0,
        ui_step=0.5,
        sensitivity=False,
        source="our assumption (no published figure)",
    ),
    Field(
        "reliability.switch_failure_rate_per_day",
        "float",
        0.0,
        0.0,
        1.0,
        "per switch-day",
        "Switch event rate",
        "Events per scale-out switch per day that stop the job and take every node behind "
        "the switch (cluster.nodes_per_switch) out of service until the switch is repaired. "
        "Default 0.",
        ui_min=0.0,
        ui_max=0.05,
        ui_step=0.0005,
        scale=100.0,
        sensitivity=False,
        source="user",
    ),
    Field(
        "reliability.switch_repair_hours",
        "float",
        2.0,
        0.01,
        24.0 * 365,
        "h",
        "Switch repair time",
        "Mean time until a failed switch is replaced; the job waits for it. Default 2 h is "
        "our assumption (no published figure).",
        ui_min=0.1,
        ui_max=48.0,
        ui_step=0.1,
        sensitivity=False,
        source="our assumption (no published figure)",
    ),
    Field(
        "reliability.fail_slow_rate_per_day",
        "float",
        0.0,
        0.0,
        1.0,
        "per node-day",
        "Fail-slow rate",
        "Nodes per node-day that turn slow without failing (throttled GPU, degraded link): the "
        "synchronous job runs reliability.fail_slow_slowdown slower until the node is found "
        "(reliability.fail_slow_detection_minutes) and evicted like a failed node. Distinct "
        "from resilience.straggler_slowdown, a permanent overhead. Fleet studies (Alibaba "
        "FALCON; ByteDance straggler studies) find fail-slow waste can exceed fail-stop. "
        "Default 0.",
        ui_min=0.0,
        ui_max=0.01,
        ui_step=0.0001,
        scale=100.0,
        sensitivity=False,
        source="user (default: no fail-slow nodes)",
    ),
    Field(
        "reliability.fail_slow_slowdown",
        "float",
        0.5,
        0.0,
        1.0,
        "",
        "Fail-slow slowdown",
        "Share of the job's throughput lost while one fail-slow node is in it (a synchronous "
        "job runs at the slowest rank's pace). Default 0.5 is our assumption.",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
        sensitivity=False,
        widget="slider",
        source="our assumption (no published figure)",
    ),
    Field(
        "reliability.fail_slow_detection_minutes",
        "float",
        60.0,
        0.0,
        10_080.0,
        "min",
        "Time to detect a fail-slow node",
        "Time from a node turning slow to its eviction. Default 60 min is our assumption.",
        ui_min=0.0,
        ui_max=600.0,
        ui_step=5.0,
        sensitivity=False,
        source="our assumption (no published figure)",
    ),
    Field(
        "reliability.job_interruptions_per_day",
        "float",
        0.0,
        0.0,
        1000.0,
        "per day",
        "Job-level interruptions",
        "Interruptions per day of the job that do not scale with its nodes (software, user, "
        "data-loader, storage): no node goes to repair, the job restarts in place. Kokolis et "
        "al. 2024 (arXiv:2410.21680) find small jobs fail far more often than nodes x rate "
        "predicts. Default 0.",
        ui_min=0.0,
        ui_max=10.0,
        ui_step=0.1,
        sensitivity=False,
        source="Kokolis et al. 2024, arXiv:2410.21680 (docs/failure-domains.md)",
    ),
)

RECOVERY_FIELDS: tuple[Field, ...] = (
    Field(
        "recovery.detection_minutes",
        "float",
        3.0,
        0.0,
        1440.0,
        "min",
        "Detection",
        "Time from the fault to the job noticing it (NVIDIA resiliency heartbeat default is "
        "300 s after the first 1,800 s; ByteDance Minder detects in 3.6 s).",
        ui_min=0.0,
        ui_max=60.0,
        ui_step=0.5,
    ),
    Field(
        "recovery.replacement_minutes",
        "float",
        4.0,
        0.0,
        10_080.0,
        "min",
        "Replacement (no spare)",
        "Time to get a replacement node when no job-owned hot spare is free (provider pool, "
        "managed replacement or repair). Crusoe reports <5 min for H200 nodes.",
        ui_min=0.0,
        ui_max=240.0,
        ui_step=1.0,
    ),
    Field(
        "recovery.hot_spare_swap_minutes",
        "float",
        1.0,
        0.0,
        1440.0,
        "min",
        "Hot-spare swap",
        "Time to swap in a job-owned hot spare when one is free.",
        ui_min=0.0,
        ui_max=30.0,
        ui_step=0.5,
    ),
    Field(
        "recovery.restart_minutes",
        "float",
        2.0,
        0.0,
        1440.0,
        "min",
        "Restart",
        "Time to relaunch the job on the repaired node set (scheduler, container start, "
        "process-group and NCCL initialisation).",
        ui_min=0.0,
        ui_max=60.0,
        ui_step=0.5,
    ),
    Field(
        "recovery.restore_minutes",
        "float",
        2.0,
        0.0,
        1440.0,
        "min",
        "Checkpoint restore",
        "Time to load the last checkpoint into every node before training resumes.",
        ui_min=0.0,
        ui_max=60.0,
        ui_step=0.5,
    ),
    Field(
        "recovery.hang_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Hang-type failures",
        "Share of failures (silent data corruption aside) that hang the job instead of "
        "crashing it: no process exits, so they are noticed only when a watchdog or heartbeat "
        "timeout fires (recovery.hang_detection_minutes); crashes are noticed in "
        "recovery.detection_minutes. Default 0 (every failure crashes). Our classification of "
        "Llama 3 405B's causes gives 16% (data/failure_modes.csv).",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.01,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "recovery.hang_detection_minutes",
        "float",
        10.0,
        0.0,
        1440.0,
        "min",
        "Hang detection (timeout)",
        "Time until a hang is noticed: the timeout that fires. PyTorch's NCCL process-group "
        "timeout defaults to 10 min (torch.distributed docs); NVIDIA's resiliency extension "
        "rank heartbeat defaults to 300 s after an initial 1,800 s.",
        ui_min=0.0,
        ui_max=60.0,
        ui_step=0.5,
        sensitivity=False,
    ),
    Field(
        "recovery.comm_init_seconds_per_gpu",
        "float",
        0.0,
        0.0,
        10.0,
        "s/GPU",
        "Communicator set-up per GPU",
        "Restart stage: initialising the job's communicators (process groups, NCCL) grows "
        "with the accelerators in the job; this is its time per accelerator, added to "
        "recovery.restart_minutes (scheduling and rendezvous). MegaScale (NSDI'24, "
        "arXiv:2402.15627): 1,047 s at 2,048 GPUs before their fix (0.51 s/GPU), under 5 s "
        "after it (0.0024 s/GPU) and under 30 s beyond 10,000 GPUs. Default 0: included in "
        "recovery.restart_minutes, as before.",
        ui_min=0.0,
        ui_max=0.6,
        ui_step=0.001,
        sensitivity=False,
        source="MegaScale, NSDI 2024, arXiv:2402.15627 (docs/failure-domains.md)",
    ),
    Field(
        "recovery.retry_success_fraction",
        "float",
        1.0,
        0.01,
        1.0,
        "",
        "Restart attempts that succeed",
        "Share of automatic restart attempts that bring the job back; a failed attempt costs "
        "recovery.failed_attempt_minutes and is retried, so a recovery makes 1/fraction "
        "attempts on average. Default 1 (every restart works, as before); a public B200 fleet "
        "study reports automatic retries succeeding about one time in three.",
        ui_min=0.1,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
        sensitivity=False,
        widget="slider",
        source="user (default: every restart succeeds)",
    ),
    Field(
        "recovery.failed_attempt_minutes",
        "float",
        None,
        0.0,
        1440.0,
        "min",
        "Cost of a failed restart attempt",
        "Wall time a restart attempt that fails costs before the next one starts. Omit to "
        "take a whole restart (recovery.restart_minutes plus communicator set-up).",
        optional=True,
        ui_min=0.0,
        ui_max=60.0,
        ui_step=0.5,
        sensitivity=False,
        none_label="A whole restart",
        source="derived",
    ),
    Field(
        "recovery.warmup_minutes",
        "float",
        0.0,
        0.0,
        1440.0,
        "min",
        "Warm-up after restart",
        "Recovery stage 5: full-speed-equivalent minutes lost after the restore until training "
        "runs at full speed (first steps, communicator warm-up, data-loader refill). Default "
        "0 (not modelled before); HyperPod's checkpointless training names data-loader "
        "initialisation as one of the restart stages it shortens.",
        ui_min=0.0,
        ui_max=30.0,
        ui_step=0.5,
        sensitivity=False,
    ),
)

CHECKPOINT_FIELDS: tuple[Field, ...] = (
    Field(
        "checkpoint.interval_minutes",
        "float",
        40.0,
        0.1,
        10_080.0,
        "min",
        "Checkpoint interval",
        "Compute time between checkpoints; 'optimal' uses the exact minimiser of Daly's "
        "expected wall time. A failure loses on average half an interval of work (rework).",
        special=("optimal",),
        ui_min=1.0,
        ui_max=240.0,
        ui_step=1.0,
    ),
    Field(
        "checkpoint.save_seconds",
        "float",
        60.0,
        0.0,
        86_400.0,
        "s",
        "Blocking save time",
        "Measured time training is paused for each level-1 checkpoint save (for asynchronous "
        "saves, only the device-to-host snapshot). Used when checkpoint.timings = 'measured'; "
        "with 'tier_model' it is derived from data/checkpoint_tiers.csv.",
        ui_min=0.0,
        ui_max=600.0,
        ui_step=5.0,
    ),
    Field(
        "checkpoint.strategy",
        "choice",
        "durable_only",
        label="Checkpoint strategy",
        help="'durable_only': every checkpoint goes to the durable tier; 'memory+durable': "
        "frequent checkpoints in CPU memory with peer replicas (HyperPod managed tiered "
        "checkpointing, Gemini SOSP'23) plus durable ones every durable_interval_minutes; "
        "'nvme+durable': the same with local NVMe (lost with its node).",
        choices=values(Strategy),
        sensitivity=False,
    ),
    Field(
        "checkpoint.durable_tier",
        "choice",
        "shared_fs",
        label="Durable tier",
        help="Where durable checkpoints go: 'shared_fs' (FSx for Lustre-like, throughput scales "
        "with provisioned TiB) or 'object_store' (S3-like). Parameters: "
        "data/checkpoint_tiers.csv.",
        choices=values(DurableTier),
        sensitivity=False,
    ),
    Field(
        "checkpoint.timings",
        "choice",
        "measured",
        label="Save/restore times",
        help="'measured': level-1 save = checkpoint.save_seconds and restore = "
        "recovery.restore_minutes, as entered; 'tier_model': both derived from the checkpoint "
        "size and the tier bandwidths in data/checkpoint_tiers.csv. The durable level of a "
        "two-level strategy always comes from the tier table.",
        choices=values(Timings),
        sensitivity=False,
    ),
    Field(
        "checkpoint.save_mode",
        "choice",
        "sync",
        label="Save mode",
        help="'sync': training waits for the whole write; 'async': training waits only for "
        "the device-to-host snapshot, the write continues in the background (CheckFreq "
        "FAST'21, DataStates-LLM HPDC'24) and the checkpoint is usable once written.",
        choices=values(SaveMode),
        sensitivity=False,
    ),
    Field(
        "checkpoint.bytes_per_param",
        "float",
        16.0,
        0.1,
        64.0,
        "B/param",
        "Checkpoint bytes per parameter",
        "Mixed-precision Adam: bf16 weights + fp32 master weights + two fp32 moments ≈ 14-16 "
        "B/param (docs/references.md#checkpoint-size; BLOOM-176B's 2.3 TB checkpoint ≈ 13 B/param). Used "
        "with workload.params_billion, sharded evenly over the nodes.",
        ui_min=2.0,
        ui_max=32.0,
        ui_step=0.5,
        widget="slider",
    ),
    Field(
        "checkpoint.memory_replicas",
        "int",
        2,
        1,
        8,
        "copies",
        "In-memory replicas",
        "Copies of each shard kept in CPU memory on different nodes (memory+durable). "
        "HyperPod replicates to adjacent nodes without documenting the count; 2 is our "
        "assumption (docs/references.md#in-memory-replicas).",
        ui_min=1,
        ui_max=4,
        ui_step=1,
        widget="slider",
    ),
    Field(
        "checkpoint.durable_interval_minutes",
        "float",
        60.0,
        0.1,
        10_080.0,
        "min",
        "Durable checkpoint interval",
        "Compute time between durable checkpoints in a two-level strategy (HyperPod "
        "persists to S3 'periodically'; the value is our assumption). The optimal value is "
        "reported as optimal_durable_interval_minutes.",
        ui_min=5.0,
        ui_max=480.0,
        ui_step=5.0,
    ),
    Field(
        "checkpoint.rereplication_minutes",
        "float",
        10.0,
        0.0,
        1440.0,
        "min",
        "Re-replication window",
        "Time after a node loss until its shards have all their in-memory replicas again "
        "(replacement node up and refilled); a further loss of the other holders inside it "
        "destroys the shard. 10 min is our assumption (replacement 4 + restart 2 + copy).",
        ui_min=0.0,
        ui_max=120.0,
        ui_step=1.0,
    ),
    Field(
        "checkpoint.node_loss_fraction",
        "float",
        0.78,
        0.0,
        1.0,
        "",
        "Failures that lose the node",
        "Share of single-node failures after which the node (and its CPU memory and NVMe) is "
        "replaced; software crashes keep them. Llama 3 405B: ~78% of unexpected "
        "interruptions were hardware (arXiv:2407.21783).",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.01,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "checkpoint.correlated_fraction",
        "float",
        0.084,
        0.0,
        1.0,
        "",
        "Multi-node failure share",
        "Share of failures that take out several nodes at once (switch, cable, rack power). "
        "Llama 3 405B: network switch/cable 8.4% of interruptions (arXiv:2407.21783), used "
        "as an upper bound.",
        ui_min=0.0,
        ui_max=0.5,
        ui_step=0.005,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "checkpoint.correlated_nodes",
        "int",
        8,
        1,
        100_000,
        "nodes",
        "Nodes per multi-node failure",
        "Nodes lost together in a multi-node event (e.g. behind one leaf switch); our "
        "assumption. Replicas on adjacent nodes lose every copy when this is ≥ 2·replicas − 1. "
        "More than the cluster's nodes means the whole cluster (the models take the smaller).",
        ui_min=1,
        ui_max=64,
        ui_step=1,
    ),
    Field(
        "checkpoint.replica_placement",
        "choice",
        "adjacent",
        label="Replica placement",
        help="'adjacent': replicas on neighbouring nodes (HyperPod: 'adjacent nodes'), so a "
        "multi-node event can take every copy; 'spread': replicas in different failure "
        "domains, so a multi-node event acts like random node losses (Gemini SOSP'23).",
        choices=values(Placement),
        sensitivity=False,
    ),
    Field(
        "checkpoint.corrupt_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Corrupt level-1 checkpoints",
        "Probability that the level-1 checkpoint a recovery loads is corrupt (a bad write, a "
        "bad replica). Megatron-LM issue 5281: a replica-retrieved local checkpoint gave a "
        "not-a-number loss three steps after every load. Default 0.",
        ui_min=0.0,
        ui_max=0.2,
        ui_step=0.005,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "checkpoint.validation",
        "choice",
        "none",
        label="Checkpoint validation",
        help="'none': a loaded checkpoint is trusted, so a corrupt one loops through "
        "resilience.restart_loop_count restarts before someone falls back by hand (Megatron-LM "
        "issue 5281: 44 restarts of ~90 s); 'fallback': every restore is validated "
        "(checkpoint.validation_seconds) and a corrupt checkpoint is skipped for the next tier "
        "(two-level strategies) or the previous checkpoint.",
        choices=values(Validation),
        sensitivity=False,
    ),
    Field(
        "checkpoint.validation_seconds",
        "float",
        0.0,
        0.0,
        3600.0,
        "s",
        "Validation per restore",
        "Time to validate a loaded checkpoint (checksums, a test step) when "
        "checkpoint.validation = 'fallback'; paid on every restore.",
        ui_min=0.0,
        ui_max=120.0,
        ui_step=1.0,
        sensitivity=False,
    ),
)

PRICING_FIELDS: tuple[Field, ...] = (
    Field(
        "pricing.model",
        "choice",
        "on_demand",
        label="Pricing model",
        help="How the instances are paid for: 'on_demand' (per second, no commitment), "
        "'savings_plan_1y'/'savings_plan_3y' (an hourly commitment paid for every hour of a 1- "
        "or 3-year term), 'capacity_block' (EC2 Capacity Blocks for ML: 1-14 days in 1-day "
        "steps, then 7-day steps up to 182 days, up to 64 instances a block, paid up front), "
        "'spot' (interruptible with a two-minute notice), 'hyperpod' (SageMaker HyperPod ml.* "
        "instances) or 'custom'. Terms and sources: docs/pricing.md.",
        choices=values(PricingModel),
        sensitivity=False,
    ),
    Field(
        "pricing.usd_per_instance_hour",
        "float",
        None,
        0.0,
        10_000.0,
        "USD/instance-h",
        "Price per instance-hour",
        "The hourly rate of the pricing model. Omit to use the dated public price: the "
        "catalog's on-demand price (data/instances.csv) or the price table for the other "
        "models (data/prices_2024-12.csv); where neither has a public figure (Savings Plans, "
        "Spot, HyperPod, custom) enter yours, with its source and date below.",
        optional=True,
        ui_min=0.0,
        ui_max=200.0,
        ui_step=0.01,
    ),
    Field(
        "pricing.price_source",
        "str",
        None,
        label="Price source",
        help="Where the scenario's own price comes from (shown next to every dollar figure). "
        "Ignored when the catalog or price-table price is used.",
        optional=True,
        sensitivity=False,
        max_length=400,
    ),
    Field(
        "pricing.price_as_of",
        "str",
        None,
        label="Price date",
        help="When the scenario's own price was valid, e.g. 2023-07.",
        optional=True,
        sensitivity=False,
        max_length=40,
    ),
    Field(
        "pricing.commitment_utilization",
        "float",
        1.0,
        0.01,
        1.0,
        "",
        "Commitment used",
        "Savings Plans only: the share of the commitment term's hours that the committed "
        "spend does paid work (this run or any other). A Savings Plan is paid every hour of "
        "its 1- or 3-year term whether used or not (AWS Savings Plans FAQ), so the effective "
        "price is the rate divided by this share. 1 = the commitment is always used.",
        ui_min=0.05,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
    ),
    Field(
        "pricing.overrun_usd_per_instance_hour",
        "float",
        None,
        0.0,
        10_000.0,
        "USD/instance-h",
        "Overrun price after a Capacity Block",
        "What an hour costs once a Capacity Block has ended and the run is not finished "
        "(instances in a block are terminated at its end). Omit to use the on-demand price "
        "in force (the catalog's, or the scenario's own when the model is on_demand).",
        optional=True,
        ui_min=0.0,
        ui_max=200.0,
        ui_step=0.01,
        sensitivity=False,
    ),
    Field(
        "pricing.spot_interruptions_per_node_day",
        "float",
        0.0066,
        0.0,
        1.0,
        "per node-day",
        "Spot interruptions",
        "Spot only: interruptions per node per day, a second failure process next to node "
        "failures. AWS's Spot Instance Advisor publishes only buckets of the share of instances "
        "reclaimed per month (<5% ... >20%); the default is the lower edge of the highest "
        "bucket, 20%/month = 0.0066 per node-day, an assumption: enter your own.",
        ui_min=0.0,
        ui_max=0.05,
        ui_step=0.0005,
        scale=100.0,
    ),
    Field(
        "pricing.spot_notice_seconds",
        "float",
        120.0,
        0.0,
        3600.0,
        "s",
        "Spot interruption notice",
        "Warning before a Spot instance is reclaimed: two minutes (AWS, 'Spot Instance "
        "interruption notices', emitted on a best-effort basis). A checkpoint that can be "
        "written within it loses no work.",
        ui_min=0.0,
        ui_max=600.0,
        ui_step=10.0,
        sensitivity=False,
    ),
)

STORAGE_FIELDS: tuple[Field, ...] = (
    Field(
        "storage.retained_checkpoints",
        "int",
        2,
        1,
        10_000,
        "checkpoints",
        "Durable checkpoints kept",
        "Full checkpoints retained on the durable tier (object storage is billed per GB-month "
        "of what is kept; the shared file system must hold them). 2 = the last good one and "
        "the one being written (our assumption).",
        ui_min=1,
        ui_max=50,
        ui_step=1,
        sensitivity=False,
    ),
    Field(
        "storage.object_part_MB",
        "float",
        64.0,
        5.0,
        5120.0,
        "MB",
        "Object upload part size",
        "Each node uploads its shard to object storage in parts (S3 multipart upload allows "
        "parts of 5 MiB to 5 GiB); every part is one PUT request when saved and one GET when "
        "restored. 64 MB is our assumption.",
        ui_min=8.0,
        ui_max=1024.0,
        ui_step=8.0,
        sensitivity=False,
    ),
)

WORKLOAD_FIELDS: tuple[Field, ...] = (
    Field(
        "workload.params_billion",
        "float",
        405.0,
        0.001,
        100_000.0,
        "B params",
        "Model parameters",
        "Total parameter count in billions (Llama 3: 405; a mixture of experts counts every "
        "expert, DeepSeek-V3: 671). Leave empty to derive it from the shape (layers, hidden "
        "size, heads, FFN size, vocabulary, experts); a count given together with "
        "workload.layers must agree with the shape within 5%.",
        ui_min=1.0,
        ui_max=2000.0,
        ui_step=1.0,
        optional=True,
        none_label="Derive from the shape (layers, hidden size ...)",
    ),
    Field(
        "workload.tokens_trillion",
        "float",
        15.6,
        1e-6,
        10_000.0,
        "T tokens",
        "Training tokens",
        "Tokens to train on, in trillions (Llama 3 405B: 15.6T).",
        ui_min=0.1,
        ui_max=100.0,
        ui_step=0.1,
    ),
    Field(
        "workload.mfu_basis",
        "choice",
        "modelled",
        label="Step time basis",
        help="'modelled' (default): the step time comes from the system: compute at the "
        "accelerator's measured matmul efficiency, recomputation, tensor-, pipeline- and "
        "data-parallel communication over the catalog links, the pipeline bubble "
        "(docs/step-time.md); the MFU is an output and the network changes time to train. "
        "'end_to_end': a measured MFU (workload.mfu) is achieved model FLOP/s over the whole "
        "step, communication and bubble inside, as published figures are (PaLM App. B, "
        "arXiv:2204.02311), so bandwidth does not change the time. 'compute_only': the MFU "
        "is the compute phases' efficiency and modelled communication and bubble are added.",
        choices=values(MfuBasis),
        sensitivity=False,
    ),
    Field(
        "workload.mfu",
        "float",
        0.40,
        0.001,
        1.0,
        "",
        "Measured MFU",
        "Model FLOPs utilisation you measured (PaLM App. B definition), used only by the "
        "end_to_end and compute_only bases. Llama 3 405B: 38-43% BF16 MFU on H100 "
        "(arXiv:2407.21783).",
        ui_min=0.05,
        ui_max=0.8,
        ui_step=0.01,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "workload.layers",
        "int",
        None,
        1,
        100_000,
        "layers",
        "Layers",
        "Transformer layers (Llama 3 405B: 126, arXiv:2407.21783 Table 3). Leave empty to "
        "derive the depth from the parameter count and the other shape figures.",
        ui_min=1,
        ui_max=200,
        ui_step=1,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="Derive from the parameter count",
    ),
    Field(
        "workload.hidden_size",
        "int",
        16_384,
        64,
        1_000_000,
        "",
        "Hidden size (model dim)",
        "Model dimension h (Llama 3 405B: 16,384; 70B: 8,192, arXiv:2407.21783 Table 3): sets "
        "the activation sizes and the tensor- and pipeline-parallel messages.",
        ui_min=1024,
        ui_max=32_768,
        ui_step=1024,
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.attention_heads",
        "int",
        128,
        1,
        100_000,
        "heads",
        "Attention heads",
        "Query heads a (Llama 3 405B: 128). The attention scores, 5·a·s² bytes per sequence "
        "and layer, are what selective recomputation avoids storing (Korthikanti et al. 2022).",
        ui_min=1,
        ui_max=256,
        ui_step=1,
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.kv_heads",
        "int",
        None,
        1,
        100_000,
        "heads",
        "Key/value heads",
        "Key/value heads for grouped-query attention (Llama 3: 8). Empty = as many as "
        "attention heads (multi-head attention, GPT-3).",
        ui_min=1,
        ui_max=256,
        ui_step=1,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="Same as the attention heads (MHA)",
    ),
    Field(
        "workload.attention_head_dim",
        "float",
        None,
        1.0,
        4096.0,
        "",
        "Attention head dimension",
        "Mean of the query-key and value dimensions per head, when it is not hidden size / "
        "heads: sets the attention scores' FLOPs (4·s·a·d per token and layer). "
        "DeepSeek-V3's multi-head latent attention: (192 + 128)/2 = 160. Empty = h/a.",
        optional=True,
        sensitivity=False,
        none_label="Hidden size / attention heads",
        source="DeepSeek-AI 2024 (arXiv:2412.19437) §2.1.1 (MLA dimensions)",
    ),
    Field(
        "workload.attention_params_million",
        "float",
        None,
        0.001,
        100_000.0,
        "M params",
        "Attention weights per layer",
        "One layer's query, key, value and output projection weights, when they are not "
        "2h² + 2h²·kv/a: multi-head latent attention's low-rank projections (DeepSeek-V2: "
        "149.2M; DeepSeek-V3: 187.1M). They count in the parameters, the FLOPs per token and "
        "the weights each GEMM reads. Empty = derived from the heads.",
        optional=True,
        sensitivity=False,
        none_label="From the heads (2h² + 2h²·kv/a)",
        source="DeepSeek-AI 2024 (arXiv:2405.04434) §2.1 and its released configuration "
        "(q_lora_rank 1536, kv_lora_rank 512, head dimensions 128 + 64 and 128)",
    ),
    Field(
        "workload.ffn_hidden_size",
        "int",
        None,
        1,
        10_000_000,
        "",
        "FFN hidden size",
        "Feed-forward width f (Llama 3 405B: 53,248). Empty = 4·h for GeLU, (8/3)·h for "
        "SwiGLU, which keeps the MLP at 8h² parameters.",
        ui_min=1024,
        ui_max=131_072,
        ui_step=1024,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="4·h (GeLU) or 8/3·h (SwiGLU)",
    ),
    Field(
        "workload.mlp",
        "choice",
        "swiglu",
        label="MLP type",
        help="'swiglu': gated, three matrices h×f (Llama); 'gelu': two matrices (GPT-3, "
        "Megatron-LM).",
        choices=values(Mlp),
        sensitivity=False,
    ),
    Field(
        "workload.vocab_size",
        "int",
        128_256,
        1,
        10_000_000,
        "tokens",
        "Vocabulary",
        "Vocabulary size V (Llama 3: 128,256; GPT-3: 50,257; Megatron-LM: 51,200); the input "
        "embedding and output layer hold 2·V·h parameters (untied).",
        ui_min=1000,
        ui_max=256_000,
        ui_step=1000,
    ),
    Field(
        "workload.sequence_length",
        "int",
        8192,
        1,
        10_000_000,
        "tokens",
        "Sequence length",
        "Tokens per training sequence s (Llama 3 405B pre-training: 8,192; GPT-3: 2,048).",
        ui_min=512,
        ui_max=131_072,
        ui_step=512,
    ),
    Field(
        "workload.global_batch_million_tokens",
        "float",
        16.0,
        0.001,
        10_000.0,
        "M tokens",
        "Global batch (tokens per step)",
        "Tokens per optimizer step, in millions, used when workload.global_batch_sequences is "
        "empty. Llama 3 405B ended pre-training at 16M (arXiv:2407.21783 §3.4.1).",
        ui_min=0.5,
        ui_max=64.0,
        ui_step=0.5,
    ),
    Field(
        "workload.global_batch_sequences",
        "int",
        None,
        1,
        100_000_000,
        "sequences",
        "Global batch (sequences)",
        "Sequences per optimizer step B (Llama 3 405B: 2,048 of 8,192 tokens; GPT-3 175B: "
        "1,536 in Narayanan et al. 2021). Empty = global batch tokens / sequence length; when "
        "both are given they must agree within 10%.",
        ui_min=1,
        ui_max=16_384,
        ui_step=1,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="From the global batch in tokens",
    ),
    Field(
        "workload.micro_batch_sequences",
        "int",
        1,
        1,
        100_000,
        "sequences",
        "Micro-batch (sequences)",
        "Sequences per micro-batch b (Megatron-LM --micro-batch-size). Activations grow with "
        "it; the pipeline runs m = B/(d·b) micro-batches per step.",
        ui_min=1,
        ui_max=32,
        ui_step=1,
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.micro_batches",
        "int",
        None,
        1,
        100_000,
        "",
        "Micro-batches per step",
        "Micro-batches each pipeline runs per step, m. Empty = B/(d·b) from the micro-batch "
        "size; when set it wins and each micro-batch holds B/(d·m) sequences, which must be "
        "at least one. Bubble = (p−1)/v of a micro-batch's time (Narayanan et al. 2021).",
        ui_min=1,
        ui_max=256,
        ui_step=1,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="Derive from the micro-batch size",
    ),
    Field(
        "workload.tensor_parallel",
        "int",
        8,
        1,
        1024,
        "ranks",
        "Tensor-parallel size",
        "Accelerators sharing each layer; must fit in one NVLink/NeuronLink domain. Llama 3 "
        "405B: 8 (arXiv:2407.21783 Table 4).",
        ui_min=1,
        ui_max=72,
        ui_step=1,
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.sequence_parallel",
        "choice",
        "on",
        label="Sequence parallelism",
        help="'on': tensor-parallel ranks also split the layer-norm and dropout activations "
        "along the sequence (all-gather + reduce-scatter instead of all-reduce, the same "
        "traffic), Korthikanti et al. 2022.",
        choices=values(OnOff),
        sensitivity=False,
    ),
    Field(
        "workload.pipeline_parallel",
        "int",
        16,
        1,
        1024,
        "stages",
        "Pipeline-parallel size",
        "Pipeline stages p (default: Llama 3 405B's 16, with an interleaved schedule, "
        "arXiv:2407.21783 Table 4). 1 = no pipeline and no bubble (pair it with ZeRO-3 to "
        "fit large models).",
        ui_min=1,
        ui_max=64,
        ui_step=1,
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.pipeline_virtual_stages",
        "int",
        8,
        1,
        1024,
        "chunks",
        "Interleaved chunks per stage",
        "Model chunks per pipeline stage v (Megatron-LM's interleaved 1F1B schedule): the "
        "bubble shrinks to (p−1)/v micro-batch times, activations of the first stage grow by "
        "1 + (p−1)/(p·v) and pipeline messages by v (Narayanan et al. 2021; Korthikanti et "
        "al. 2022). 1 = plain 1F1B; the default 8 (one layer per chunk for Llama 3 405B on 16 "
        "stages) is our assumption: Meta does not publish it.",
        ui_min=1,
        ui_max=16,
        ui_step=1,
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.balanced_stages",
        "choice",
        "off",
        label="Pipeline stages balanced",
        help="'off': every stage holds L/p layers and the last one also the output layer "
        "(Megatron-LM's default), so it sets the pace; 'on': layers are moved off the last "
        "stage so that every stage does the same work (Llama 3 removes one layer from the "
        "first and the last stage, arXiv:2407.21783 §3.3.2).",
        choices=values(OnOff),
        sensitivity=False,
    ),
    Field(
        "workload.last_stage_layers",
        "float",
        None,
        0.0,
        10_000.0,
        "layers",
        "Layers on the last pipeline stage",
        "Transformer layers on the pipeline stage that also holds the output layer and the "
        "multi-token-prediction modules, the other layers split evenly over the other "
        "stages (a Megatron-Core pipeline layout; DeepSeek-V3's recipe on 16 stages puts 1 "
        "of its 61 layers there, and 13 on the last of 4 stages with 4 chunks each). Empty "
        "= the split of 'Pipeline stages balanced'; when set, it replaces that split.",
        ui_min=0,
        ui_max=128,
        ui_step=1,
        optional=True,
        sensitivity=False,
        none_label="Split by 'Pipeline stages balanced'",
        source="Megatron-Core --pipeline-model-parallel-layout (megatron/core/transformer/"
        "pipeline_parallel_layer_layout.py); NVIDIA Megatron-Bridge v0.2.0 recipes/deepseek/"
        "deepseek_v3.py, set_deepseek_v3_pipeline_model_parallel_layout",
    ),
    Field(
        "workload.recompute",
        "choice",
        "auto",
        label="Activation recomputation",
        help="'selective': recompute the attention scores in the backward pass instead of "
        "storing them (as FlashAttention does; Korthikanti et al. 2022); 'full': store only "
        "each layer's input and recompute its forward pass (one more forward of compute); "
        "'none': store everything; 'auto' (default): the least that fits in memory — none, "
        "else selective, else full on the fewest layers of each model chunk — as a run "
        "that does not publish its recomputation most likely did (recomputing costs time).",
        choices=values(Recompute),
        sensitivity=False,
        source="Megatron-LM arguments (--recompute-granularity, default none; "
        "--recompute-num-layers); Korthikanti et al. 2022 (arXiv:2205.05198) §5",
    ),
    Field(
        "workload.recompute_layers",
        "float",
        None,
        0.0,
        10_000.0,
        "layers",
        "Layers recomputed per model chunk",
        "With 'Activation recomputation' = 'full': how many layers of each model chunk (a "
        "pipeline stage's layers, or each interleaved chunk's) recompute their forward "
        "pass; the others keep all their activations (Megatron-Core --recompute-method "
        "block --recompute-num-layers N). Empty, or at least a chunk's layers = every layer.",
        ui_min=0,
        ui_max=128,
        ui_step=1,
        optional=True,
        sensitivity=False,
        none_label="Every layer",
        source="Megatron-Core megatron/core/transformer/transformer_block.py "
        "(_checkpointed_forward, method 'block'); NVIDIA Megatron-Bridge scripts/performance "
        "set_recompute_overrides (recompute_num_layers, e.g. 5 for Llama 3 8B FP8 on H100)",
    ),
    Field(
        "workload.flash_attention",
        "choice",
        "on",
        label="Fused (flash) attention",
        help="'on': a fused attention kernel (FlashAttention, Dao et al. 2022) never writes "
        "the s×s attention scores to memory and recomputes them in the backward pass; 'off': "
        "the scores are materialised, stored unless recomputed, and streamed through "
        "softmax and dropout (Megatron-LM before 2023, the runs of Narayanan et al. 2021 and "
        "Korthikanti et al. 2022).",
        choices=values(OnOff),
        sensitivity=False,
    ),
    Field(
        "workload.dropout",
        "choice",
        "off",
        label="Dropout masks",
        help="'on': dropout after attention and after the MLP keeps a 1-byte mask per token "
        "and hidden unit until the backward pass, 2·s·b·h bytes a layer (Korthikanti et al. "
        "2022, Table 2; GPT-3-era Megatron runs used dropout 0.1); 'off': trained without "
        "dropout, as Llama 3, DeepSeek-V3, Qwen3, GPT-OSS and MPT are (NeMo Megatron-Bridge "
        "sets hidden_dropout = 0 for each), so no mask is stored or streamed (PyTorch's "
        "dropout returns its input at p = 0).",
        choices=values(OnOff),
        sensitivity=False,
        source="Korthikanti et al. 2022 (arXiv:2205.05198) Table 2 (the masks' 2·sbh); NVIDIA "
        "Megatron-Bridge v0.4.2 models/llama/llama_bridge.py, qwen/qwen3_bridge.py, "
        "deepseek/deepseek_v3_bridge.py, gpt_oss/gpt_oss_bridge.py (hidden_dropout = 0.0); "
        "llm-foundry MPTConfig (resid_pdrop = emb_pdrop = 0.0)",
    ),
    Field(
        "workload.zero_stage",
        "int",
        1,
        0,
        3,
        "",
        "ZeRO / FSDP stage",
        "0 = plain data parallel, 1 shards the optimizer state (Megatron's distributed "
        "optimizer), 2 also gradients, 3 (FSDP) also weights, at 1.5× the traffic "
        "(Rajbhandari et al., SC'20).",
        ui_min=0,
        ui_max=3,
        ui_step=1,
        widget="slider",
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.gradient_precision",
        "choice",
        "bf16",
        label="Gradient precision",
        help="'bf16': 2 bytes of gradients per parameter, ZeRO's 2 + 2 + 12 bytes of model "
        "states; 'fp32': the fp32 gradients Megatron-LM accumulates and reduces (2 + 4 + 12, "
        "so 6 + 12/d with its distributed optimizer). Also sets the data-parallel traffic.",
        choices=values(GradientPrecision),
        sensitivity=False,
    ),
    Field(
        "workload.software_stack",
        "choice",
        "megatron-core",
        label="Training software stack",
        help="What the framework can overlap and which attention kernel it runs "
        "(docs/step-time.md#software-stacks): 'megatron-core' (Megatron-Core 0.8 or later, "
        "NeMo: fused attention, TP/DP/PP overlap as set), 'megatron-lm-2022' (Korthikanti et "
        "al. 2022: materialised attention, no TP or DP overlap), 'megatron-lm-2021' "
        "(Narayanan et al. 2021: the same), 'deepspeed-megatron' (the DeepSpeed pipeline "
        "engine of MT-NLG and BLOOM: plain 1F1B, no TP or DP overlap, its kernels at a "
        "fitted share of Megatron-LM's rates), 'pytorch-fsdp' (PyTorch's FSDP trainers, "
        "torchtitan and LLM Foundry: DP and FSDP traffic overlapped, TP not, "
        "FlashAttention-2, its kernels at a fitted share of Megatron-Core's rates); the "
        "shares and their intervals are in the docs' stack table.",
        choices=values(SoftwareStack),
        sensitivity=False,
        source="Narayanan et al. SC'21 (arXiv:2104.04473) §5; Korthikanti et al. 2022 "
        "(arXiv:2205.05198) §6; Smith et al. 2022 (arXiv:2201.11990) §2.3; NVIDIA "
        "Megatron-LM README (Megatron-Core r0.8.0 benchmark configuration); torchtitan "
        "benchmarks (2024-12, 2025-06; Trainy's H200 runs, 2025-06) and MosaicML LLM Foundry "
        "MPT benchmarks (2024-01); "
        "Shah et al. 2024 (arXiv:2407.08608) Fig. 5 for FlashAttention-2 on H100",
    ),
    Field(
        "workload.precision",
        "choice",
        "bf16",
        label="GEMM precision",
        help="'bf16', or 'fp8': the transformer layers' GEMMs at the catalog's dense FP8 "
        "rate (Transformer Engine recipes); attention, the output layer, norms and the "
        "optimizer stay in bf16/fp32, and the framework keeps an fp8 copy of the weights "
        "(1 byte per parameter more) and casts each GEMM input.",
        choices=values(Precision),
        sensitivity=False,
        source="Micikevicius et al. 2022, 'FP8 Formats for Deep Learning' (arXiv:2209.05433); "
        "NVIDIA Transformer Engine documentation (FP8 primer)",
    ),
    Field(
        "workload.tied_embeddings",
        "choice",
        "off",
        label="Tied input/output embeddings",
        help="'on': the input embedding and the output layer share one V×h matrix "
        "(BLOOM, GPT-2), so the model has V·h parameters fewer (BLOOM: 176.2B, not 179.8B); "
        "the output layer's FLOPs are unchanged.",
        choices=values(OnOff),
        sensitivity=False,
        source="Press & Wolf 2017 (arXiv:1608.05859); BigScience, BLOOM (arXiv:2211.05100)",
    ),
    Field(
        "workload.context_parallel",
        "int",
        1,
        1,
        1024,
        "ranks",
        "Context parallelism",
        "Ranks c that split each sequence (ring attention): each holds s/c tokens, computes "
        "its queries against every key and passes key/value blocks round the ring, "
        "overlapped with its attention kernels. 1 = off. Llama 3's 131k-token phase used "
        "16 (arXiv:2407.21783 Table 4).",
        ui_min=1,
        ui_max=32,
        ui_step=1,
        source="Liu et al. 2023, Ring Attention (arXiv:2310.01889); Grattafiori et al. 2024 "
        "(arXiv:2407.21783) §3.3.2",
        sensitivity=False,  # layout: a fraction of it is no layout (docs/references.md#sensitivity)
    ),
    Field(
        "workload.experts",
        "int",
        0,
        0,
        4096,
        "experts",
        "Routed experts per MoE layer",
        "Experts E each mixture-of-experts layer routes tokens to (DeepSeek-V3: 256, "
        "Mixtral: 8). 0 = a dense model. Total parameters (memory) hold all of them; FLOPs "
        "come from the ones a token uses.",
        ui_min=0,
        ui_max=256,
        ui_step=1,
        sensitivity=False,
        source="Fedus et al. 2022, Switch Transformers (arXiv:2101.03961); DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.1 and §3.2; Megatron-Core MoE documentation",
    ),
    Field(
        "workload.experts_per_token",
        "int",
        2,
        1,
        64,
        "experts",
        "Experts per token (top-k)",
        "Routed experts k each token uses (DeepSeek-V3: 8, Mixtral: 2); ignored for a dense model.",
        ui_min=1,
        ui_max=16,
        ui_step=1,
        sensitivity=False,
        source="Fedus et al. 2022, Switch Transformers (arXiv:2101.03961); DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.1 and §3.2; Megatron-Core MoE documentation",
    ),
    Field(
        "workload.expert_ffn_hidden_size",
        "int",
        None,
        1,
        1_000_000,
        "",
        "Expert feed-forward size",
        "Hidden size f_e of one expert's MLP (DeepSeek-V3: 2,048). Empty = the dense "
        "feed-forward size.",
        optional=True,
        sensitivity=False,
        none_label="Same as the dense feed-forward size",
        source="Fedus et al. 2022, Switch Transformers (arXiv:2101.03961); DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.1 and §3.2; Megatron-Core MoE documentation",
    ),
    Field(
        "workload.shared_experts",
        "int",
        0,
        0,
        64,
        "experts",
        "Shared experts",
        "Experts every token uses besides its routed ones (DeepSeek-V3: 1).",
        ui_min=0,
        ui_max=8,
        ui_step=1,
        sensitivity=False,
        source="Fedus et al. 2022, Switch Transformers (arXiv:2101.03961); DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.1 and §3.2; Megatron-Core MoE documentation",
    ),
    Field(
        "workload.expert_parallel",
        "int",
        1,
        1,
        4096,
        "ranks",
        "Expert parallelism",
        "Ranks EP the routed experts are split over (inside the data-parallel ranks): each "
        "holds E/EP experts, and every MoE layer sends each token to its experts and back "
        "(all-to-all dispatch and combine), over NVLink while EP × TP fits in the scale-up "
        "domain, else over the scale-out network (DeepSeek-V3: 64 over 8 nodes).",
        ui_min=1,
        ui_max=64,
        ui_step=1,
        sensitivity=False,
        source="Fedus et al. 2022, Switch Transformers (arXiv:2101.03961); DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.1 and §3.2; Megatron-Core MoE documentation",
    ),
    Field(
        "workload.moe_layer_frequency",
        "float",
        1.0,
        0.01,
        1.0,
        "",
        "Share of layers that are MoE",
        "Share of the layers whose MLP is a mixture of experts (DeepSeek-V3: 58 of 61; "
        "Mixtral: all); the others keep the dense MLP.",
        ui_min=0.05,
        ui_max=1.0,
        ui_step=0.05,
        sensitivity=False,
        source="Fedus et al. 2022, Switch Transformers (arXiv:2101.03961); DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.1 and §3.2; Megatron-Core MoE documentation",
    ),
    Field(
        "workload.mtp_layers",
        "int",
        0,
        0,
        16,
        "modules",
        "Multi-token-prediction modules",
        "Extra prediction depth D trained beside the next token (DeepSeek-V3: 1): each "
        "module is one more transformer layer, a projection of 2h × h and another pass "
        "through the shared output layer and its loss, on the last pipeline stage. Their "
        "work is not counted in the model FLOPs (as recomputation is not).",
        ui_min=0,
        ui_max=4,
        ui_step=1,
        sensitivity=False,
        source="DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §2.2 (multi-token "
        "prediction, D = 1) and §4.2; Megatron-Core --mtp-num-layers",
    ),
    Field(
        "workload.moe_load_imbalance",
        "float",
        1.0,
        1.0,
        4.0,
        "×",
        "Expert load imbalance",
        "Tokens of the busiest expert rank over the mean: the expert GEMMs and the "
        "all-to-all take this much longer, since every rank waits for the slowest. 1 = "
        "balanced (NVIDIA's NeMo MoE benchmarks force balance; auxiliary-loss-free routing "
        "keeps DeepSeek-V3 close to it); a stated factor, not modelled.",
        ui_min=1.0,
        ui_max=2.0,
        ui_step=0.05,
        sensitivity=False,
        source="DeepSeek-AI 2024 (arXiv:2412.19437) §2.1.2; NVIDIA Megatron-Bridge performance "
        "summary (MoE benchmarks force-balance tokens)",
    ),
    Field(
        "workload.moe_comm_overlap_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Expert all-to-all overlap",
        "Share of the dispatch/combine all-to-all hidden behind computation (DeepSeek-V3's "
        "DualPipe overlaps it fully; Megatron-Core's default schedule does not). 0 = exposed.",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
        widget="slider",
        sensitivity=False,
        source="DeepSeek-AI 2024 (arXiv:2412.19437) §3.2.1 (DualPipe)",
    ),
    Field(
        "workload.comm_sm_fraction",
        "float",
        0.0,
        0.0,
        0.9,
        "",
        "SMs reserved for communication",
        "Share of the accelerator's streaming multiprocessors a framework dedicates to "
        "communication kernels so that they overlap with computation; computation runs on "
        "the rest (DeepSeek-V3: 20 of the H800's 132). 0 = none reserved (the measured "
        "efficiencies already include NCCL's share).",
        ui_min=0.0,
        ui_max=0.5,
        ui_step=0.01,
        scale=100.0,
        widget="slider",
        sensitivity=False,
        source="DeepSeek-AI 2024 (arXiv:2412.19437) §3.2.2",
    ),
    Field(
        "workload.optimizer_moment_bytes",
        "float",
        8.0,
        0.0,
        16.0,
        "bytes",
        "Adam moment bytes per parameter",
        "Bytes of Adam's two moments per parameter: 8 in fp32 (ZeRO's 12 bytes of "
        "optimizer state = 4 of fp32 master weights + 8), 4 in bf16 (DeepSeek-V3, §3.3.2). "
        "Sets the optimizer state's memory and the optimizer step's traffic.",
        ui_min=0.0,
        ui_max=8.0,
        ui_step=1.0,
        sensitivity=False,
        source="Rajbhandari et al. SC'20 (arXiv:1910.02054) Fig. 1; DeepSeek-AI 2024 "
        "(arXiv:2412.19437) §3.3.2",
    ),
    Field(
        "workload.comm_overlap_fraction",
        "float",
        0.8,
        0.0,
        1.0,
        "",
        "Communication overlap",
        "Share of the data-parallel gradient traffic hidden behind the backward pass of the "
        "last micro-batch (bucketed overlap, Li et al., PyTorch DDP, VLDB 2020). 0.8 is an "
        "assumption: measure yours from a profile.",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "workload.tp_comm_overlap_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Tensor-parallel overlap",
        "Share of the tensor-parallel collectives overlapped with the GEMMs they feed "
        "(Megatron-Core --tp-comm-overlap; MegaScale, NSDI'24, overlaps them all), of which "
        "a fitted share hides (docs/step-time.md). 0 = exposed, as in Megatron-LM before "
        "2023 (Narayanan et al. 2021; Korthikanti et al. 2022).",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "workload.hbm_reserved_fraction",
        "float",
        0.10,
        0.0,
        0.95,
        "",
        "HBM not usable by the model",
        "Share of accelerator memory taken by the CUDA context, communication buffers and "
        "allocator fragmentation; model states and activations (now modelled) must fit in "
        "the rest. 10% is an assumption.",
        ui_min=0.0,
        ui_max=0.5,
        ui_step=0.01,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "workload.step_settings_stated",
        "choice",
        "off",
        label="Recomputation, overlap and interleaving are the run's own",
        help="'off' (default): the recomputation, the data-, tensor- and expert-parallel "
        "overlap and the pipeline interleaving entered are assumptions, so the step's 80% "
        "interval is widened to what each would give one step either way (full or selective "
        "recomputation, no or full overlap, half or twice the chunks per stage; "
        "docs/step-time.md#open-settings). 'on': they are the run's measured settings; the "
        "interval is the cross-validation's alone.",
        choices=values(OnOff),
        sensitivity=False,
        source="derived",
    ),
    Field(
        "workload.expert_tensor_parallel",
        "int",
        None,
        1,
        1024,
        "ranks",
        "Expert tensor parallelism",
        "Ranks ETP each routed expert's matrices are split over, when the experts are laid "
        "out apart from the attention (MoE parallel folding): the expert-parallel group of "
        "EP × ETP ranks is then taken from the attention's TP × CP × DP ranks, the expert "
        "GEMMs and their collectives use ETP and the all-to-all stays in the scale-up "
        "domain while EP × ETP fits in it (Qwen3-235B on H100: ETP 1, EP 8, TP 2). Must fit "
        "in the scale-up domain and divide the expert FFN width. Empty = TP (no folding).",
        ui_min=1,
        ui_max=8,
        ui_step=1,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="Same as tensor parallelism",
        source="Liu et al. 2025, MoE Parallel Folding (arXiv:2504.14960) §3; Megatron-Core "
        "argument --expert-tensor-parallel-size (megatron/training/arguments.py)",
    ),
    Field(
        "workload.moe_dispatcher",
        "choice",
        "alltoall",
        label="Expert token dispatcher",
        help="'alltoall' (default): every routed copy of a token crosses the network when the "
        "expert-parallel group spans scale-up domains (Megatron-Core's all-to-all "
        "dispatcher). 'deepep': each token crosses the network once per destination node "
        "and is forwarded to the experts' GPUs over the scale-up links, overlapped with the "
        "network leg (DeepEP; DeepSeek-V3). Same time inside one scale-up domain.",
        choices=values(MoeDispatcher),
        sensitivity=False,
        source="DeepEP (github.com/deepseek-ai/DeepEP, normal kernels: NVLink-to-RDMA "
        "forwarding); DeepSeek-AI 2024 (arXiv:2412.19437) §3.2.2",
    ),
    Field(
        "workload.moe_dispatcher_sm_fraction",
        "float",
        0.1515,
        0.0,
        0.9,
        "",
        "SMs DeepEP holds while overlapped",
        "Share of the accelerator's streaming multiprocessors the 'deepep' dispatcher's "
        "kernels occupy while the experts' all-to-all overlaps computation "
        "(moe_comm_overlap_fraction above 0): the computation runs on the rest meanwhile, "
        "less what comm_sm_fraction already reserves. Default: DeepEP's 20 SMs of a Hopper "
        "GPU's 132 (H100, H200, H800); on a 148-SM B200 or GB200, 20 SMs are 0.135.",
        ui_min=0.0,
        ui_max=0.5,
        ui_step=0.01,
        scale=100.0,
        widget="slider",
        sensitivity=False,
        source="DeepEP (github.com/deepseek-ai/DeepEP) deep_ep/buffer.py, Buffer.num_sms = 20; "
        "Megatron-Core TransformerConfig.moe_deepep_num_sms = 20; NVIDIA H100 Tensor Core GPU "
        "Architecture whitepaper (132 SMs on H100 SXM5)",
    ),
    Field(
        "workload.moe_max_nodes_per_token",
        "int",
        None,
        1,
        1024,
        "nodes",
        "Nodes per token (node-limited routing)",
        "Most scale-up domains a token's routed experts may sit in (DeepSeek-V3: 4 of 8 "
        "groups). Lowers the network copies of the 'deepep' dispatcher only: the all-to-all "
        "one sends a copy per expert anyway. Empty = no limit.",
        ui_min=1,
        ui_max=16,
        ui_step=1,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="No limit",
        source="DeepSeek-AI 2024 (arXiv:2412.19437) §3.2.2 (node-limited routing, M = 4); "
        "Megatron-Core --moe-router-group-topk",
    ),
)

NETWORK_FIELDS: tuple[Field, ...] = (
    Field(
        "network.inter_node_gbps",
        "float",
        None,
        1.0,
        1_000_000.0,
        "Gb/s",
        "Scale-out bandwidth per node",
        "Network bandwidth per node between nodes (EFA, InfiniBand, RoCE). Empty = the "
        "catalog figure (p5.48xlarge: 3,200 Gb/s EFA). Halve it to ask what the fabric is "
        "worth.",
        ui_min=100.0,
        ui_max=12_800.0,
        ui_step=100.0,
        optional=True,
        sensitivity=False,  # empty by default: nothing to move
        none_label="Use the catalog bandwidth",
    ),
    Field(
        "network.inter_node_efficiency",
        "float",
        0.75,
        0.01,
        1.0,
        "",
        "Inter-node efficiency η",
        "Achieved share of the scale-out line rate in collectives at scale. 4 × p6-b200 nodes "
        "measured 73% of EFA per accelerator in an all-reduce (stas00/ml-engineering, "
        "network/README.md); no full-scale p5 figure is published "
        "(docs/references.md#collectives): set it from your NCCL-tests busbw. 0.75 is the "
        "middle of the 0.6-0.9 range.",
        ui_min=0.3,
        ui_max=1.0,
        ui_step=0.05,
        scale=100.0,
        widget="slider",
    ),
    Field(
        "network.alpha_network_us",
        "float",
        10.0,
        0.0,
        10_000.0,
        "µs",
        "Inter-node latency α",
        "Per-step latency of a collective across nodes. AWS describes its fabric as '10p10u': "
        "under 10 µs across tens of thousands of servers (docs/references.md#collectives).",
        ui_min=0.0,
        ui_max=100.0,
        ui_step=1.0,
    ),
    Field(
        "network.alpha_scaleup_us",
        "float",
        2.0,
        0.0,
        10_000.0,
        "µs",
        "Scale-up latency α",
        "Per-step latency inside an NVLink/NeuronLink domain; 2 µs is an assumption of the "
        "order of NCCL-tests small-message latency within a node.",
        ui_min=0.0,
        ui_max=20.0,
        ui_step=0.5,
    ),
    Field(
        "network.fabric_events_per_day",
        "float",
        0.0,
        0.0,
        10_000.0,
        "per day",
        "Fabric link/switch events",
        "Link or switch events per day that stall the job's collectives until traffic is "
        "rerouted. Default 0 (off). Llama 3 405B had 35 switch/cable interruptions in 54 days "
        "(0.65/day, arXiv:2407.21783), counted there as failures.",
        ui_min=0.0,
        ui_max=50.0,
        ui_step=0.5,
    ),
    Field(
        "network.reroute_seconds",
        "float",
        90.0,
        0.0,
        86_400.0,
        "s",
        "Reroute stall per event",
        "Time traffic stalls until rerouted. Labelled references: SIDR vendor claim "
        "'sub-second' [unverified]; BFD detection 3 × 300 ms; BGP hold timer 90-180 s "
        "(default 90 s, the conventional lower end).",
        ui_min=0.0,
        ui_max=600.0,
        ui_step=1.0,
    ),
    Field(
        "network.collective_timeout_seconds",
        "float",
        600.0,
        1.0,
        86_400.0,
        "s",
        "Collective timeout",
        "A stall longer than this aborts the job (full recovery cost). PyTorch's NCCL process "
        "group default is 10 min (torch.distributed.init_process_group docs).",
        ui_min=10.0,
        ui_max=3600.0,
        ui_step=10.0,
    ),
)

RESILIENCE_FIELDS: tuple[Field, ...] = (
    # Recovery paths and costs of resilience features (models/resilience.py sets them; the
    # defaults switch every one off, which is the model as it was before they existed).
    Field(
        "resilience.in_process_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "In-process restarts",
        "Share of failures (silent data corruption aside) recovered by restarting inside the "
        "running processes (NVIDIA resiliency extension in-process restart): no node "
        "replacement and no job relaunch, resilience.in_process_restart_minutes instead. Only "
        "failures that leave the node healthy qualify (software, transient network).",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.01,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "resilience.in_process_restart_minutes",
        "float",
        1.0,
        0.0,
        1440.0,
        "min",
        "In-process restart",
        "Time of an in-process restart (abort, re-initialise the process group, re-enter the "
        "training loop). 1 min is our assumption; the resiliency extension publishes no figure.",
        ui_min=0.0,
        ui_max=10.0,
        ui_step=0.1,
        sensitivity=False,
    ),
    Field(
        "resilience.peer_recovery_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Peer (checkpointless) recoveries",
        "Share of failures (silent data corruption aside) whose model and optimizer state is "
        "copied from healthy replicas (HyperPod checkpointless training: training 'resumes "
        "from the previous step'): no rework and no checkpoint restore, only "
        "resilience.peer_restore_minutes.",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.01,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "resilience.peer_restore_minutes",
        "float",
        0.5,
        0.0,
        1440.0,
        "min",
        "Peer state transfer",
        "Time to copy the lost state from a healthy replica to its replacement. 0.5 min is "
        "our assumption (a few GB per node over EFA take seconds; HyperPod reports whole "
        "recoveries under 2 minutes).",
        ui_min=0.0,
        ui_max=10.0,
        ui_step=0.1,
        sensitivity=False,
    ),
    Field(
        "resilience.elastic_fraction",
        "float",
        0.0,
        0.0,
        1.0,
        "",
        "Elastic degraded mode",
        "Share of failures that wait for a replacement node during which the job keeps "
        "training without the failed node's data-parallel replica (elastic training) instead "
        "of stopping; it pays resilience.elastic_reconfigure_minutes to shrink and again to "
        "grow back.",
        ui_min=0.0,
        ui_max=1.0,
        ui_step=0.01,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "resilience.elastic_reconfigure_minutes",
        "float",
        1.0,
        0.0,
        1440.0,
        "min",
        "Elastic reconfiguration",
        "Time to drop a data-parallel replica (and, later, to add it back). 1 min is our "
        "assumption.",
        ui_min=0.0,
        ui_max=10.0,
        ui_step=0.1,
        sensitivity=False,
    ),
    Field(
        "resilience.sdc_detection_minutes",
        "float",
        1440.0,
        0.0,
        525_600.0,
        "min",
        "SDC detection delay",
        "Time from a silent data corruption to its detection; training runs on corrupt state "
        "meanwhile and then rolls back past it (rollback depth = this delay + half a durable "
        "interval). 24 h is our assumption for a job without SDC checks; used only when "
        "reliability.sdc_fraction > 0.",
        ui_min=0.0,
        ui_max=4320.0,
        ui_step=10.0,
        sensitivity=False,
    ),
    Field(
        "resilience.restart_loop_count",
        "int",
        44,
        0,
        100_000,
        "restarts",
        "Restarts on a corrupt checkpoint",
        "Restarts a job goes through on a corrupt checkpoint before someone falls back by "
        "hand (checkpoint.validation = 'none'). Megatron-LM issue 5281 observed 44 identical "
        "cycles before cancelling.",
        ui_min=0,
        ui_max=200,
        ui_step=1,
        sensitivity=False,
    ),
    Field(
        "resilience.restart_loop_minutes",
        "float",
        1.5,
        0.0,
        1440.0,
        "min",
        "Restart-loop cycle",
        "Length of one restart on a corrupt checkpoint (restart, load, a few steps, fail). "
        "Megatron-LM issue 5281: ~90 s.",
        ui_min=0.0,
        ui_max=30.0,
        ui_step=0.5,
        sensitivity=False,
    ),
    Field(
        "resilience.straggler_slowdown",
        "float",
        0.0,
        0.0,
        0.9,
        "",
        "Straggler slowdown",
        "Share of training time spent waiting for slow ranks. ByteDance measured it on a "
        "five-month trace by what-if analysis (Lin et al., OSDI'25, arXiv:2505.05713); "
        "measure yours the same way. Default 0.",
        ui_min=0.0,
        ui_max=0.3,
        ui_step=0.005,
        scale=100.0,
        sensitivity=False,
    ),
    Field(
        "resilience.overhead_fraction",
        "float",
        0.0,
        0.0,
        0.9,
        "",
        "Resilience overhead",
        "Share of training throughput given up to resilience features (straggler and SDC "
        "detection compute, replicated optimizer state for peer recovery); the ladder adds "
        "each adopted feature's overhead here. Default 0.",
        ui_min=0.0,
        ui_max=0.1,
        ui_step=0.001,
        scale=100.0,
        sensitivity=False,
    ),
)

SIMULATION_FIELDS: tuple[Field, ...] = (
    # Monte Carlo only (models/montecarlo.py); the analytic model ignores them.
    Field(
        "simulation.recovery_spread",
        "float",
        0.3,
        0.0,
        3.0,
        "",
        "Recovery time spread (CV)",
        "Coefficient of variation of the lognormal replacement, restart and restore times "
        "(mean kept at the recovery.* values). 0 = fixed times, as the analytic model assumes; "
        "0.3 is an assumption, not a published figure.",
        ui_min=0.0,
        ui_max=1.5,
        ui_step=0.05,
        sensitivity=False,
        widget="slider",
    ),
    Field(
        "simulation.repair_sigma",
        "float",
        1.0,
        0.0,
        3.0,
        "",
        "Repair time lognormal sigma",
        "Shape of the lognormal repair time of a failed node (mean reliability.repair_hours); "
        "repair times are lognormal in LANL data (Schroeder & Gibson, DSN'06); 1.0 is an "
        "assumption.",
        ui_min=0.0,
        ui_max=2.5,
        ui_step=0.05,
        sensitivity=False,
        widget="slider",
    ),
    Field(
        "simulation.detection_distribution",
        "choice",
        "fixed",
        label="Detection time distribution",
        help="How the Monte Carlo draws the detection stage around its mean (the "
        "analytic model uses the mean). Default fixed at its mean: the analytic model's assumption and the simulator's before stage distributions existed; 'uniform' fits a heartbeat or polling interval.",
        choices=values(StageDistribution),
        sensitivity=False,
    ),
    Field(
        "simulation.replacement_distribution",
        "choice",
        "lognormal",
        label="Replacement time distribution",
        help="How the Monte Carlo draws the replacement stage around its mean (the "
        "analytic model uses the mean). Default lognormal: repair and replacement times are lognormal in LANL data (Schroeder & Gibson, DSN'06).",
        choices=values(StageDistribution),
        sensitivity=False,
    ),
    Field(
        "simulation.restart_distribution",
        "choice",
        "lognormal",
        label="Restart time distribution",
        help="How the Monte Carlo draws the restart stage around its mean (the "
        "analytic model uses the mean). Default lognormal with the recovery spread (our assumption, as before).",
        choices=values(StageDistribution),
        sensitivity=False,
    ),
    Field(
        "simulation.restore_distribution",
        "choice",
        "lognormal",
        label="Restore time distribution",
        help="How the Monte Carlo draws the restore stage around its mean (the "
        "analytic model uses the mean). Default lognormal with the recovery spread (our assumption, as before).",
        choices=values(StageDistribution),
        sensitivity=False,
    ),
    Field(
        "simulation.warmup_distribution",
        "choice",
        "lognormal",
        label="Warm-up time distribution",
        help="How the Monte Carlo draws the warm-up stage around its mean (the "
        "analytic model uses the mean). Default lognormal with the recovery spread (our assumption).",
        choices=values(StageDistribution),
        sensitivity=False,
    ),
)

SECTIONS: dict[str, tuple[Field, ...]] = {
    "cluster": CLUSTER_FIELDS,
    "reliability": RELIABILITY_FIELDS,
    "recovery": RECOVERY_FIELDS,
    "checkpoint": CHECKPOINT_FIELDS,
    "pricing": PRICING_FIELDS,
    "storage": STORAGE_FIELDS,
    "workload": WORKLOAD_FIELDS,
    "network": NETWORK_FIELDS,
    "resilience": RESILIENCE_FIELDS,
    "simulation": SIMULATION_FIELDS,
}

FIELDS: dict[str, Field] = {f.key: f for fields in SECTIONS.values() for f in fields}


def _check_widgets(fields: dict[str, Field]) -> None:
    for f in fields.values():
        if f.widget not in ("number", "slider"):
            raise ValueError(f"field {f.key!r}: widget must be 'number' or 'slider'")
        if f.widget == "slider" and (f.ui_min is None or f.ui_max is None):
            raise ValueError(f"field {f.key!r}: a slider needs ui_min and ui_max")


_check_widgets(FIELDS)
