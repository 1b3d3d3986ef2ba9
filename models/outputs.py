"""The output registry: every figure a person or a script can see, defined once.

Each :class:`Output` has the key used in JSON, CSV/Parquet and the evaluation's metrics, a
short label, the unit the JSON value is in, how it is formatted for people, a one-line
meaning, the formula and the reference (a key of :mod:`models.references`, or the project's
own derivation in ``docs/references.md``).  Dashboard tables and tiles, CLI text, reports and
exports label and format figures from here; nothing guesses units from key names.

Formatting (:func:`format_value`): fractions are shown as percentages, goodput changes as
points, money as dollars without cents from $1,000 up and with a true minus sign, durations
with their unit, and a figure that cannot be computed (NaN, None) as "n/a" — callers that know
why say so next to it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .references import REFERENCES

#: Format kinds: how a value in the JSON unit is written for people.
KINDS = (
    "percent",  # fraction 0..1 shown as 89.34%
    "points",  # fraction change shown as +4.03 points
    "usd",  # dollars: $190,340 (cents below $1,000)
    "usd_rate",  # dollars per instance-hour: $98.32/h (always cents)
    "number",  # plain number with ``decimals`` and the unit
    "count",  # whole things: 2,000 nodes
    "bool",  # 1/0 shown as yes/no
    "flops",  # 3.79 × 10²⁵ FLOP
    "text",  # a word or sentence (price source, pricing model)
)


@dataclass(frozen=True)
class Output:
    """One reported figure.

    Attributes
    ----------
    key : JSON key; its suffix names the unit (``_minutes``, ``_usd_per_day`` ...).
    label : short human label (table header, tile title).
    unit : unit of the JSON value ("fraction", "USD/day", "min", "" ...).
    kind : one of :data:`KINDS`.
    meaning : one line: what the figure is.
    formula : how it is computed, in symbols (shown in the UI's help).
    reference : key of :data:`models.references.REFERENCES`, or ``"derived"`` for the
        project's own derivation (``docs/references.md``), or ``""`` for plain bookkeeping.
    decimals : decimals for ``number`` kinds.
    """

    key: str
    label: str
    unit: str
    kind: str
    meaning: str
    formula: str = ""
    reference: str = ""
    decimals: int = 2

    def help(self) -> str:
        """Tooltip text: meaning, formula and source."""
        parts = [self.meaning]
        if self.formula:
            parts.append(f"Formula: {self.formula}.")
        src = reference_text(self.reference)
        if src:
            parts.append(f"Source: {src}.")
        return " ".join(parts)

    def header(self) -> str:
        """Table header with the display unit: ``Lost per day ($/day)``."""
        unit = display_unit(self)
        return f"{self.label} ({unit})" if unit else self.label


def reference_text(ref: str) -> str:
    if not ref:
        return ""
    if ref == "derived":
        return "our derivation, docs/references.md"
    r = REFERENCES[ref]
    return f"{r.citation} ({r.where})"


def display_unit(o: Output) -> str:
    """Unit shown in headers: % for fractions, $ for dollars, else the JSON unit."""
    if o.kind == "percent":
        return "%"
    if o.kind == "points":
        return "points"
    if o.kind in ("usd", "usd_rate"):
        return "$" + o.unit[3:] if o.unit.startswith("USD") else "$"
    if o.kind in ("bool", "text"):
        return ""
    return o.unit


def _usd(value: float, cents: bool | None = None) -> str:
    sign = "−" if value < 0 else ""
    a = abs(value)
    if cents is None:
        cents = a < 1000
    return f"{sign}${a:,.2f}" if cents else f"{sign}${a:,.0f}"


def _clean_zero(text: str) -> str:
    """'-0.00' and '−0.00' read as 0."""
    stripped = text.lstrip("+−-")
    if (
        stripped
        and all(c in "0.,%$ " or c.isalpha() for c in stripped)
        and not any(c in "123456789" for c in stripped)
    ):
        return stripped
    return text


def format_value(key: str | Output, value, *, unit: bool = True, signed: bool = False) -> str:
    """``value`` (in the JSON unit of ``key``) as people read it; "n/a" when unknown.

    ``unit=False`` omits the unit (for table cells under a header that states it);
    ``signed=True`` writes a + on positive numbers (deltas).
    """
    o = key if isinstance(key, Output) else OUTPUTS[key]
    if value is None:
        return "n/a"
    if o.kind == "text":
        return str(value)
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "unbounded" if x > 0 else "−unbounded"
    if o.kind == "bool":
        return "yes" if x else "no"
    if o.kind == "percent":
        text = f"{x * 100:+.2f}" if signed else f"{x * 100:.2f}"
        text = _clean_zero(text.replace("-", "−"))
        return text + ("%" if unit else "")
    if o.kind == "points":
        text = _clean_zero(f"{x * 100:+.2f}".replace("-", "−"))
        return text + (" points" if unit else "")
    if o.kind == "usd_rate":
        text = _usd(x, cents=True)
        return text + ("/h" if unit else "")
    if o.kind == "usd":
        text = _usd(x)
        if signed and x > 0:
            text = "+" + text
        if unit and o.unit.startswith("USD/"):
            text += "/" + o.unit[4:]
        return _clean_zero(text) if abs(x) < 0.005 else text
    if o.kind == "flops":
        if x == 0:
            return "0 FLOP" if unit else "0"
        exp = math.floor(math.log10(abs(x)))
        text = f"{x / 10**exp:.2f} × 10^{exp}"
        return text + (" FLOP" if unit else "")
    if o.kind == "count":
        text = f"{x:+,.0f}" if signed else f"{x:,.0f}"
        text = _clean_zero(text.replace("-", "−"))
    else:
        d = o.decimals
        text = f"{x:+,.{d}f}" if signed else f"{x:,.{d}f}"
        text = _clean_zero(text.replace("-", "−"))
    return f"{text} {o.unit}" if unit and o.unit and o.unit != "fraction" else text


def format_savings(value: float, per: str = "day") -> str:
    """A saving as words: "saves $190,340/day" or "costs $8,360/day" (never "$-8,360")."""
    if value is None or not math.isfinite(float(value)):
        return "n/a"
    v = float(value)
    verb = "saves" if v >= 0 else "costs"
    return f"{verb} {_usd(abs(v))}/{per}"


# --------------------------------------------------------------------------- registry
def _o(key, label, unit, kind, meaning, formula="", reference="", decimals=2) -> Output:
    return Output(key, label, unit, kind, meaning, formula, reference, decimals)


FAILURE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "node_failures_per_day",
        "Node failures per day",
        "per day",
        "number",
        "Expected job-stopping node failures per day of the whole job.",
        "λ_node = N · r (N nodes, r failures per node-day)",
        "derived",
    ),
    _o(
        "fabric_failures_per_day",
        "Fabric aborts per day",
        "per day",
        "number",
        "Fabric (link/switch) events per day whose stall outlasts the collective timeout and "
        "so abort the job.",
        "events/day if reroute > timeout, else 0",
        "pytorch_pg",
    ),
    _o(
        "failures_per_day",
        "Failures per day",
        "per day",
        "number",
        "All job-stopping failures per day: node failures plus fabric aborts.",
        "λ = N · r + fabric aborts/day",
        "derived",
    ),
    _o(
        "mtbf_hours",
        "Job MTBF",
        "h",
        "number",
        "Mean time between job-stopping failures.",
        "M = 24 / λ",
        "derived",
    ),
    _o(
        "probability_no_spare",
        "No hot spare free",
        "fraction",
        "percent",
        "Probability that a failure finds every hot spare still in repair.",
        "P(Poisson(λ·S/24) ≥ s), M/G/∞ repair pool, PASTA",
        "kleinrock1975",
    ),
    _o(
        "replacement_minutes_expected",
        "Expected replacement",
        "min",
        "number",
        "Mean time to get a working node back: a hot-spare swap when one is free, else the "
        "replacement path.",
        "p · t_replace + (1 − p) · t_swap",
        "derived",
        1,
    ),
    _o(
        "fabric_events_per_day",
        "Fabric events per day",
        "per day",
        "number",
        "Link or switch events per day that stall collectives until traffic is rerouted.",
        "input network.fabric_events_per_day",
    ),
    _o(
        "fabric_stall_minutes_per_day",
        "Fabric stall",
        "min/day",
        "number",
        "Wall time per day the job waits for reroutes that finish inside the timeout.",
        "events/day × reroute time (when reroute ≤ timeout)",
        "derived",
    ),
)

CHECKPOINT_OUTPUTS: tuple[Output, ...] = (
    _o(
        "checkpoint_interval_minutes",
        "Checkpoint interval",
        "min",
        "number",
        "Compute time between level-1 checkpoints used in this scenario.",
        "τ (input, or the exact optimum when set to 'optimal')",
        "",
        1,
    ),
    _o(
        "optimal_checkpoint_interval_minutes",
        "Optimal interval (exact)",
        "min",
        "number",
        "Interval that maximises Daly's exact goodput for the level-1 checkpoints.",
        "τ* = M·[1 + W₀(−e^{−(1+δ/M)})] (Lambert W; independent of R)",
        "daly2006",
        1,
    ),
    _o(
        "young_interval_minutes",
        "Young interval",
        "min",
        "number",
        "Young's first-order optimum.",
        "τ = √(2δM)",
        "young1974",
        1,
    ),
    _o(
        "daly_first_order_interval_minutes",
        "Daly first-order interval",
        "min",
        "number",
        "Daly's first-order optimum.",
        "τ = √(2δ(M + R))",
        "daly2006",
        1,
    ),
    _o(
        "daly_higher_order_interval_minutes",
        "Daly higher-order interval",
        "min",
        "number",
        "Daly's higher-order optimum (his eq. 37).",
        "τ = √(2δM)[1 + ⅓√(δ/2M) + (δ/2M)/9] − δ for δ < 2M, else M",
        "daly2006",
        1,
    ),
    _o(
        "durable_interval_minutes",
        "Durable interval",
        "min",
        "number",
        "Compute time between checkpoints on the durable tier (equals the interval for "
        "durable-only strategies).",
        "input checkpoint.durable_interval_minutes (two-level), else τ",
        "",
        1,
    ),
    _o(
        "optimal_durable_interval_minutes",
        "Optimal durable interval",
        "min",
        "number",
        "Durable-tier interval that maximises goodput for the failures that fall back to it.",
        "T₂* = M₂·[1 + W₀(−e^{−(1+C₂/M₂)})], at least the write time and T₁",
        "moody2010",
        1,
    ),
    _o(
        "checkpoint_overhead_fraction",
        "Checkpoint save overhead",
        "fraction",
        "percent",
        "Share of failure-free wall time spent in blocking checkpoint saves.",
        "1 − 1/((1 + δ₁/τ₁)(1 + δ₂/τ₂))",
        "derived",
    ),
    _o(
        "save_seconds",
        "Blocking save (level 1)",
        "s",
        "number",
        "Time training pauses for each level-1 checkpoint.",
        "measured input, or tier model: t₀ + shard / min(b_node, B_agg/N)",
        "derived",
        1,
    ),
    _o(
        "restore_seconds",
        "Restore (level 1)",
        "s",
        "number",
        "Time to load the level-1 checkpoint on every node after a failure.",
        "measured input, or tier model read time",
        "derived",
        1,
    ),
    _o(
        "durable_save_seconds",
        "Blocking durable save",
        "s",
        "number",
        "Time training pauses for each durable-tier checkpoint of a two-level strategy "
        "(0 when written asynchronously).",
        "tier write time (sync) or 0 (async)",
        "derived",
        1,
    ),
    _o(
        "durable_write_seconds",
        "Durable write",
        "s",
        "number",
        "Time to write one checkpoint to the durable tier.",
        "t₀ + shard / min(b_node, B_agg/N)",
        "aws_fsx_throughput",
        1,
    ),
    _o(
        "durable_restore_seconds",
        "Durable restore",
        "s",
        "number",
        "Time to read the checkpoint back from the durable tier after a fallback.",
        "t₀ + shard / min(b_node, B_agg/N)",
        "derived",
        1,
    ),
    _o(
        "fallback_fraction",
        "Failures falling back",
        "fraction",
        "percent",
        "Share of failures after which some shard has no level-1 copy left, so the job "
        "restores from the durable tier.",
        "φ = (1 − f_c)·h·q^(m−1) + f_c·P_c",
        "gemini2023",
    ),
    _o(
        "fallback_failures_per_day",
        "Fallbacks per day",
        "per day",
        "number",
        "Failures per day that restore from the durable tier.",
        "λ₂ = φ · λ",
        "derived",
        3,
    ),
    _o(
        "level1_waste_fraction",
        "Level-1 waste",
        "fraction",
        "percent",
        "First-order share of wall time lost to level-1 saves and the failures it serves.",
        "C₁/T₁ + λ₁(T₁/2 + R₁)",
        "moody2010",
    ),
    _o(
        "level2_waste_fraction",
        "Level-2 waste",
        "fraction",
        "percent",
        "First-order share of wall time lost to durable saves and the failures that fall back.",
        "C₂/T₂ + λ₂(T₂/2 + R₂)",
        "moody2010",
    ),
    _o(
        "checkpoint_size_TB",
        "Checkpoint size",
        "TB",
        "number",
        "Size of one full checkpoint.",
        "P · bytes per parameter",
        "zero2020",
        2,
    ),
    _o(
        "checkpoint_shard_GB_per_node",
        "Shard per node",
        "GB",
        "number",
        "Checkpoint bytes each node saves (sharded evenly).",
        "size / N",
        "derived",
        2,
    ),
    _o(
        "memory_required_GB_per_node",
        "Host memory for replicas",
        "GB",
        "number",
        "CPU memory each node keeps for in-memory checkpoint replicas.",
        "shard × replicas",
        "gemini2023",
        2,
    ),
    *(
        _o(
            f"tier_{tier}_{what}_seconds",
            f"{label}: {what}",
            "s",
            "number",
            f"Synchronous {what} time of one checkpoint on the {label.lower()} tier.",
            "t₀ + copies · shard / min(b_node, B_agg/N)",
            "derived",
            1,
        )
        for tier, label in (
            ("memory", "CPU memory"),
            ("nvme", "Local NVMe"),
            ("shared_fs", "Shared file system"),
            ("object_store", "Object store"),
        )
        for what in ("save", "restore")
    ),
)

GOODPUT_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput",
        "Goodput",
        "fraction",
        "percent",
        "Expected share of paid wall-clock time that advances training (Daly's exact "
        "expectation for exponential failures, times the share not stalled by fabric "
        "reroutes).",
        "g = T_s / T_w = τ / (e^{λR}·(e^{λ(τ+δ)} − 1)/λ) per failure class, × (1 − stall/1440)",
        "daly2006",
    ),
    _o(
        "goodput_first_order",
        "Goodput (first order)",
        "fraction",
        "percent",
        "The linear estimate most spreadsheets use.",
        "1 − [δ/τ + λ(τ/2 + R)], × (1 − stall/1440)",
        "young1974",
    ),
    _o(
        "recovery_minutes_per_failure",
        "Recovery per failure",
        "min",
        "number",
        "Detection + replacement + restart + restore, averaged over failure classes.",
        "R = t_detect + t_replace + t_restart + t_restore",
        "derived",
        1,
    ),
    _o(
        "rework_minutes_per_failure",
        "Rework per failure",
        "min",
        "number",
        "Progress since the last surviving checkpoint that must be recomputed, on average.",
        "τ/2 (+ staleness of an asynchronous checkpoint), per failure class",
        "young1974",
        1,
    ),
    _o(
        "minutes_lost_per_failure",
        "Lost per failure",
        "min",
        "number",
        "First-order wall time lost per failure.",
        "R + rework",
        "young1974",
        1,
    ),
    _o(
        "lost_minutes_per_day",
        "Lost per day",
        "min/day",
        "number",
        "Wall-clock minutes per day that do not advance training.",
        "(1 − g) · 1440",
        "derived",
        1,
    ),
)

COST_OUTPUTS: tuple[Output, ...] = (
    _o(
        "usd_per_instance_hour",
        "Price per instance-hour",
        "USD/h",
        "usd_rate",
        "The price in force for one node-hour (see price_source and price_as_of).",
        "catalog on-demand price, or the scenario's own price",
    ),
    _o("price_source", "Price source", "", "text", "Where the price in force comes from."),
    _o("price_as_of", "Price as of", "", "text", "Date of the price in force."),
    _o(
        "accelerators",
        "Accelerators",
        "",
        "count",
        "Accelerators in the job.",
        "nodes × accelerators per node",
    ),
    _o(
        "cluster_usd_per_day",
        "Cluster cost per day",
        "USD/day",
        "usd",
        "What the job's nodes cost per day.",
        "N × price × 24",
    ),
    _o(
        "spare_usd_per_day",
        "Hot spares per day",
        "USD/day",
        "usd",
        "What the idle hot spares cost per day.",
        "spares × price × 24",
    ),
    _o(
        "total_usd_per_day",
        "Total cost per day",
        "USD/day",
        "usd",
        "Cluster plus hot spares per day.",
        "cluster + spares",
    ),
    _o(
        "productive_usd_per_day",
        "Productive spend per day",
        "USD/day",
        "usd",
        "The part of the cluster cost that advances training.",
        "g × cluster cost",
    ),
    _o(
        "lost_usd_per_day",
        "Lost per day",
        "USD/day",
        "usd",
        "Paid time that does not advance training, plus idle spares.",
        "(1 − g) × cluster cost + spares",
        "derived",
    ),
    _o(
        "time_to_train_days",
        "Time to train",
        "days",
        "number",
        "Wall-clock days to train the workload, failures and checkpoints included.",
        "steps × step time / goodput",
        "kaplan2020",
        1,
    ),
    _o(
        "time_to_train_hours",
        "Time to train",
        "h",
        "number",
        "The same in hours.",
        "days × 24",
        "",
        0,
    ),
    _o(
        "cost_to_train_usd",
        "Cost to train",
        "USD",
        "usd",
        "What training the workload costs at the price in force (cluster and spares).",
        "days × total cost per day",
    ),
    _o(
        "usd_per_1e18_useful_flops",
        "Cost per 10¹⁸ useful FLOP",
        "USD",
        "usd",
        "Cost to train divided by the model FLOPs the training needs.",
        "cost / (6·N·D / 10¹⁸)",
        "kaplan2020",
    ),
    _o(
        "cost_to_train_compute_usd",
        "Cost: productive compute",
        "USD",
        "usd",
        "Part of the cost to train spent on productive steps.",
        "cluster cost × days × g (× compute share under compute_only)",
    ),
    _o(
        "cost_to_train_bubble_usd",
        "Cost: pipeline bubble (added)",
        "USD",
        "usd",
        "Pipeline bubble time added to the step (compute_only basis; 0 when inside the MFU).",
        "productive cost × bubble share",
        "narayanan2021",
    ),
    _o(
        "cost_to_train_communication_usd",
        "Cost: exposed communication (added)",
        "USD",
        "usd",
        "Exposed communication time added to the step (compute_only basis; 0 when inside the MFU).",
        "productive cost × exposed communication share",
    ),
    _o(
        "cost_within_mfu_bubble_usd",
        "Within MFU: bubble",
        "USD",
        "usd",
        "Under end_to_end, the part of the compute cost the model attributes to the pipeline "
        "bubble (already inside the MFU, not added).",
        "productive cost × bubble share",
        "narayanan2021",
    ),
    _o(
        "cost_within_mfu_communication_usd",
        "Within MFU: communication",
        "USD",
        "usd",
        "Under end_to_end, the part of the compute cost the model attributes to exposed "
        "communication (inside the MFU, not added).",
        "productive cost × exposed communication share",
    ),
    _o(
        "cost_to_train_goodput_loss_usd",
        "Cost: failures and checkpoints",
        "USD",
        "usd",
        "Part of the cost to train lost to failures, recovery, rework, saves and stalls.",
        "cluster cost × days × (1 − g)",
        "daly2006",
    ),
    _o(
        "cost_to_train_spares_usd",
        "Cost: hot spares",
        "USD",
        "usd",
        "Idle hot spares over the whole training run.",
        "spares cost per day × days",
    ),
)

STEP_OUTPUTS: tuple[Output, ...] = (
    _o(
        "mfu_basis",
        "MFU basis",
        "",
        "text",
        "How the stated MFU is read: end_to_end (published figures, communication inside) "
        "or compute_only (communication and bubble added).",
        "",
        "palm2022",
    ),
    _o(
        "allreduce_ms",
        "Gradient all-reduce",
        "ms",
        "number",
        "Whole data-parallel gradient synchronisation per step.",
        "hierarchical all-reduce: 2[(k−1)α + ((k−1)/k)n/B_su] + 2(N−1)α + 2((N−1)/N)(n/k)/B_net",
        "thakur2005",
        1,
    ),
    _o(
        "allreduce_exposed_ms",
        "Exposed all-reduce",
        "ms",
        "number",
        "Part of the gradient synchronisation not hidden behind the backward pass.",
        "S − min(φ·S, window)",
        "pytorch_ddp2020",
        1,
    ),
    _o(
        "tp_comm_ms",
        "Tensor-parallel communication",
        "ms",
        "number",
        "Tensor-parallel activation all-reduces per step inside the scale-up domain.",
        "4 all-reduces per layer and micro-batch",
        "narayanan2021",
        1,
    ),
    _o(
        "pp_comm_ms",
        "Pipeline communication",
        "ms",
        "number",
        "Activations sent between pipeline stages per step.",
        "2 × tokens × hidden × 2 B / TP per boundary",
        "narayanan2021",
        1,
    ),
    _o(
        "compute_seconds_per_step",
        "Compute per step",
        "s",
        "number",
        "Time in compute phases per optimizer step.",
        "6·N·T / (n · peak · MFU)",
        "kaplan2020",
        3,
    ),
    _o(
        "bubble_seconds_per_step",
        "Pipeline bubble per step",
        "s",
        "number",
        "Idle pipeline time per step.",
        "compute × (p − 1)/m",
        "narayanan2021",
        3,
    ),
    _o(
        "step_seconds",
        "Step time",
        "s",
        "number",
        "Wall time of one optimizer step without failures.",
        "end_to_end: 6·N·T/(n·peak·MFU); compute_only: compute + bubble + exposed comm",
        "palm2022",
        3,
    ),
    _o(
        "scaling_efficiency",
        "Scaling efficiency",
        "fraction",
        "percent",
        "How much modelled communication and bubble would stretch a step whose compute runs "
        "at the stated MFU.",
        "compute / (compute + bubble + exposed DP + TP + PP)",
        "derived",
    ),
    _o(
        "effective_mfu",
        "End-to-end MFU",
        "fraction",
        "percent",
        "Model FLOP/s achieved over the whole step as a share of peak.",
        "MFU (end_to_end) or MFU × scaling efficiency (compute_only)",
        "palm2022",
    ),
    _o(
        "compute_share_of_step",
        "Compute share of step",
        "fraction",
        "percent",
        "Share of the step spent in compute phases.",
        "t_compute / t_step",
        "derived",
    ),
    _o(
        "compute_phase_mfu",
        "Compute-phase MFU",
        "fraction",
        "percent",
        "Efficiency the compute phases must reach for the stated end-to-end MFU.",
        "MFU · t_step / t_compute",
        "derived",
    ),
    _o(
        "mfu_gap_exceeded",
        "MFU optimistic here",
        "",
        "bool",
        "Yes when the modelled exposed communication and bubble exceed what the stated "
        "end-to-end MFU leaves room for.",
        "implied compute-phase MFU > measured max achievable matmul fraction",
        "ml_engineering",
    ),
    _o(
        "exposed_comm_fraction_of_step",
        "Exposed communication share",
        "fraction",
        "percent",
        "Share of the step spent in exposed communication.",
        "(exposed DP + TP + PP) / step",
        "derived",
    ),
    _o(
        "bubble_fraction_of_step",
        "Bubble share",
        "fraction",
        "percent",
        "Share of the step the pipeline is idle.",
        "bubble / step",
        "narayanan2021",
    ),
    _o(
        "steps_to_train",
        "Steps to train",
        "",
        "count",
        "Optimizer steps in the training run.",
        "tokens / tokens per step",
    ),
    _o(
        "data_parallel_size",
        "Data-parallel size",
        "",
        "count",
        "Data-parallel replicas.",
        "accelerators / (TP × PP)",
        "narayanan2021",
    ),
    _o(
        "memory_per_accel_GB",
        "Memory per accelerator",
        "GB",
        "number",
        "Model states (weights, gradients, optimizer) per accelerator.",
        "16Ψ' split by ZeRO stage: 16Ψ', 4Ψ'+12Ψ'/d, 2Ψ'+14Ψ'/d, 16Ψ'/d",
        "zero2020",
        1,
    ),
    _o(
        "memory_usable_per_accel_GB",
        "Usable memory per accelerator",
        "GB",
        "number",
        "HBM left for model states after the reserved share.",
        "HBM × (1 − reserved)",
        "",
        1,
    ),
    _o(
        "memory_fits",
        "Fits in memory",
        "",
        "bool",
        "Whether this parallelism can run: memory fits, TP stays in the scale-up domain, "
        "enough accelerators.",
        "",
        "zero2020",
    ),
    _o(
        "min_nodes_to_fit",
        "Fewest nodes that fit",
        "nodes",
        "count",
        "Fewest nodes whose accelerators hold the model states.",
        "⌈TP·PP·d_min / k⌉",
        "zero2020",
    ),
    _o(
        "training_flops",
        "Training compute",
        "FLOP",
        "flops",
        "Model FLOPs of the whole training run.",
        "6·N·D",
        "kaplan2020",
    ),
)

RELIABILITY_VALUE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput_gain_per_0p1pp",
        "Gain from 0.1 pp lower failure rate",
        "fraction",
        "points",
        "Goodput gained if the node failure rate were 0.1 percentage point lower, all else "
        "equal ('optimal' intervals re-optimised).",
        "g(r − 0.001) − g(r)",
        "derived",
    ),
    _o(
        "usd_per_day_per_0p1pp",
        "Value of 0.1 pp lower failure rate",
        "USD/day",
        "usd",
        "That gain in dollars per day.",
        "gain × cluster cost per day",
        "derived",
    ),
    _o(
        "value_of_reliability_is_partial",
        "Rate below 0.1 pp",
        "",
        "bool",
        "Yes when the rate is below 0.1%: the figure is then the gain of eliminating "
        "failures altogether.",
    ),
)

COMPARISON_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput_baseline",
        "Goodput (baseline)",
        "fraction",
        "percent",
        "Goodput of the baseline.",
        "",
        "daly2006",
    ),
    _o(
        "goodput_candidate",
        "Goodput (candidate)",
        "fraction",
        "percent",
        "Goodput of the candidate.",
        "",
        "daly2006",
    ),
    _o(
        "goodput_delta",
        "Goodput change",
        "fraction",
        "points",
        "Candidate minus baseline goodput.",
        "g_cand − g_base",
    ),
    _o(
        "goodput_delta_first_order",
        "Goodput change (first order)",
        "fraction",
        "points",
        "The same with the first-order goodputs.",
        "g₁_cand − g₁_base",
    ),
    _o(
        "savings_usd_per_day",
        "Savings per day",
        "USD/day",
        "usd",
        "Lost dollars per day of the baseline minus those of the candidate, including what "
        "the candidate adds (spares, price).",
        "(g_c − g_b)·cluster_b + (total_b − total_c)",
        "derived",
    ),
    _o(
        "savings_usd_per_month",
        "Savings per month",
        "USD/month",
        "usd",
        "Savings per day × 365.25/12.",
        "savings/day × 30.44",
    ),
    _o(
        "savings_usd_per_year",
        "Savings per year",
        "USD/year",
        "usd",
        "Savings per day × 365.25.",
        "savings/day × 365.25",
    ),
)

LOSS_COMPONENTS: dict[str, str] = {
    "detection": "Detection",
    "replacement": "Replacement",
    "restart": "Restart",
    "restore": "Checkpoint restore",
    "rework": "Rework since last checkpoint",
    "fallback_rework": "Rework after fallback to the durable tier",
    "checkpoint_save": "Checkpoint saves",
    "fabric_stall": "Fabric reroute stalls",
}

LOSS_OUTPUTS: tuple[Output, ...] = tuple(
    o
    for name, label in LOSS_COMPONENTS.items()
    for o in (
        _o(
            f"loss_{name}_minutes_per_day",
            f"{label}",
            "min/day",
            "number",
            f"Wall time per day lost to {label.lower()}; the components add up to the exact "
            "loss (1 − g)·1440.",
            "first-order component × exact loss / first-order total",
            "derived",
            1,
        ),
        _o(
            f"loss_{name}_usd_per_day",
            f"{label}",
            "USD/day",
            "usd",
            f"Dollars per day lost to {label.lower()}.",
            "minutes/day ÷ 1440 × cluster cost per day",
            "derived",
        ),
    )
)

#: ``goodput sweep``: its JSON summary and the Monte Carlo columns of its Parquet rows (the
#: same keys as ``goodput simulate --json``; the analytic columns are the figures above).
SWEEP_OUTPUTS: tuple[Output, ...] = (
    _o("engine", "Engine", "", "text", "What evaluated the sweep: 'dask' (dask.distributed)."),
    _o(
        "workers",
        "Workers",
        "workers",
        "count",
        "Dask worker processes that evaluated the sweep (0 when every point was resumed).",
    ),
    _o("points", "Points", "points", "count", "Points of the sweep's grid (rows written)."),
    _o(
        "points_evaluated",
        "Points evaluated",
        "points",
        "count",
        "Points evaluated by this run.",
        "points − points resumed",
    ),
    _o(
        "points_resumed",
        "Points resumed",
        "points",
        "count",
        "Points taken from the finished batches of an interrupted run of the same sweep.",
    ),
    _o("batches", "Batches", "batches", "count", "Batches the points were cut into."),
    _o("point", "Point", "", "count", "Number of the point in the grid (first axis slowest)."),
    _o("trials", "Trials", "runs", "count", "Monte Carlo runs per point (0: analytic only)."),
    _o("days", "Horizon", "days", "number", "Monte Carlo horizon.", decimals=0),
    _o("seed", "Seed", "", "count", "Random seed; point i uses SeedSequence(seed).spawn(...)[i]."),
    _o(
        "seconds",
        "Evaluation time",
        "s",
        "number",
        "Wall time of the evaluation (cluster start excluded).",
    ),
    _o(
        "cluster_start_seconds",
        "Cluster start",
        "s",
        "number",
        "Wall time to start or reach the Dask cluster.",
    ),
    _o("output", "Output", "", "text", "The Parquet file written."),
    _o("varied_fields", "Varied fields", "", "text", "The scenario fields varied, in axis order."),
    _o(
        "goodput_mean",
        "Goodput, simulated mean",
        "fraction",
        "percent",
        "Mean over the Monte Carlo runs of productive time / wall time over the horizon.",
        "(1/n)·Σ g_i",
        "daly2006",
    ),
    _o(
        "goodput_stderr",
        "Goodput, standard error",
        "fraction",
        "percent",
        "Standard error of the simulated mean goodput.",
        "s / √n",
    ),
    _o("goodput_p5", "Goodput P5 (bad month)", "fraction", "percent", "5th percentile of runs."),
    _o("goodput_p50", "Goodput P50", "fraction", "percent", "Median goodput of the runs."),
    _o("goodput_p95", "Goodput P95", "fraction", "percent", "95th percentile of the runs."),
    _o(
        "time_to_finish_mean_days",
        "Time to finish, mean",
        "days",
        "number",
        "Mean wall time to commit the horizon's compute (unfinished runs left out).",
    ),
    _o(
        "time_to_finish_stderr_days",
        "Time to finish, standard error",
        "days",
        "number",
        "Standard error of that mean.",
        "s / √n",
        decimals=3,
    ),
    _o("time_to_finish_p5_days", "Time to finish P5", "days", "number", "5th percentile."),
    _o("time_to_finish_p50_days", "Time to finish P50", "days", "number", "Median."),
    _o("time_to_finish_p95_days", "Time to finish P95", "days", "number", "95th percentile."),
    _o(
        "lost_mean_usd",
        "Lost per run, mean",
        "USD",
        "usd",
        "Mean cost of paid time that did not advance training, plus spares, per run.",
    ),
    _o("lost_p95_usd", "Lost per run P95", "USD", "usd", "95th percentile of lost dollars."),
    _o("failures_mean", "Failures per run", "failures", "number", "Mean job failures per run."),
    _o(
        "unfinished_trials",
        "Unfinished runs",
        "runs",
        "count",
        "Runs that had not finished after 4x their compute in wall time.",
    ),
)

_SECTIONS: tuple[tuple[Output, ...], ...] = (
    FAILURE_OUTPUTS,
    CHECKPOINT_OUTPUTS,
    GOODPUT_OUTPUTS,
    LOSS_OUTPUTS,
    STEP_OUTPUTS,
    COST_OUTPUTS,
    RELIABILITY_VALUE_OUTPUTS,
    COMPARISON_OUTPUTS,
    SWEEP_OUTPUTS,
)


def _build(sections: Iterable[Iterable[Output]]) -> dict[str, Output]:
    out: dict[str, Output] = {}
    for section in sections:
        for o in section:
            if o.key in out:
                raise ValueError(f"output {o.key!r} is registered twice")
            if o.kind not in KINDS:
                raise ValueError(f"output {o.key!r}: unknown kind {o.kind!r}")
            if o.reference and o.reference != "derived" and o.reference not in REFERENCES:
                raise ValueError(f"output {o.key!r}: unknown reference {o.reference!r}")
            out[o.key] = o
    return out


OUTPUTS: dict[str, Output] = _build(_SECTIONS)


def output(key: str) -> Output:
    """The registry entry of ``key``; KeyError names the key when it is not registered."""
    try:
        return OUTPUTS[key]
    except KeyError:
        raise KeyError(f"{key!r} is not in the output registry (models/outputs.py)") from None


def label(key: str) -> str:
    return output(key).label


def help_text(key: str) -> str:
    return output(key).help()
