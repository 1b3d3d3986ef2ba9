"""The one instance ranker: time and cost to train a scenario's workload on every node type.

Used by the Instances page, the Optimizer, ``goodput instances``, ``goodput optimize`` and the
reports, so they always name the same cheapest instance and node count.

For each catalog instance the scenario's workload, recovery, checkpoint, network and
parallelism settings are kept; three things change with the node type, each by a stated rule:

* **Failure rate** (``reliability.failure_scaling``).  The scenario's rate r is per node of
  its own type with k₀ accelerators.  On a type with k accelerators per node:
  ``per_node`` keeps r; ``per_accelerator`` uses r·k/k₀; ``mixed`` (default) scales the
  accelerator-caused share s (``reliability.accelerator_failure_share``, default the GPU
  group of Llama 3's root causes, 64%) and keeps the rest per node:
  r' = r·[(1 − s) + s·k/k₀].  The scenario's own type is never rescaled.
* **MFU** (only read under the ``end_to_end`` and ``compute_only`` bases).  The scenario's
  MFU is for its own accelerator; another accelerator gets it scaled by the catalog's ratio
  of published per-accelerator MFUs, mfu' = mfu·(mfu_default / mfu_default₀), capped at that
  accelerator's measured maximum achievable matmul fraction; ``mfus`` overrides per type.
* **Price**.  The scenario's own type at the price the scenario pays
  (:func:`models.pricing.price_in_force`, as in ``goodput evaluate``, so both give the same
  cost to train for it); every other type at its public price under the scenario's pricing
  model (the catalog's on-demand price, or the dated price table; :func:`ranking_price`),
  with its source and date; the caller's own prices (``prices``, e.g. a negotiated rate)
  win over both.  A row whose price is not the public one says so in ``price_note``, with
  the dates when the scenario's price is older (the headline's 2023 $98.32 against the
  catalog's 2025 prices).  Prices are never invented: an unpriced type gets its node-hours
  and the break-even price at which it would be the cheapest.

* **Spares**.  The paid nodes beside the job go with it: the hot spares
  (``cluster.spare_nodes``) as a count of the type's nodes, each spare domain
  (``cluster.spare_domains``) as one of the type's own scale-up domains (one node where a
  domain is one node), and the spare nodes kept in every domain
  (``cluster.spare_nodes_per_domain``) only where the type's domain keeps the job a node
  beside them, else none (an 8-GPU server's domain is the server; :func:`layout_on`).  The
  cost includes them; a row says how many (``paid_spare_nodes``, the nodes column's
  "+ N spare", :func:`nodes_text`).

Node count: without a deadline every type gets the scenario's accelerator count (its own
type exactly its node count; others rounded up to whole nodes that keep the parallel layout whole).
With ``deadline_days`` every node count that keeps the parallel layout whole (whole TP × PP × CP
replicas, as many as the expert-parallel grid divides), up to
``max_accelerators``, is evaluated in one vectorised call and the cheapest one that finishes
in time among those that split the global batch into whole micro-batches on every
data-parallel replica (:func:`whole_layout`; every count when none does) is chosen (cost to train = node-hours × price, so the choice does not depend on the
price).  "Cheapest" is the lowest cost to train among priced types that can run the
workload (and meet the deadline).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ._text import counted
from ._tools import as_float_array, like_input
from .catalog import Instance
from .chain import catalog_nodes_per_domain, paid_instances
from .choices import FailureScaling, PricingModel
from .compute import expert_tensor_parallel, infeasibility_reason, replica_multiple
from .errors import ValidationError
from .evaluate import evaluate_arrays, resolve_inputs, whole_micro_batches
from .fields import _fmt
from .outputs import json_value
from .pricing import (
    TERMS,
    UNDATED,
    Price,
    json_date,
    model_price,
    price_in_force,
    price_vintage,
)
from .scenario import Scenario

REFERENCE_INSTANCE = "p5.48xlarge"
DEFAULT_MAX_ACCELERATORS = 100_000
MAX_DEADLINE_DAYS = 3650.0
_UNIT_PRICE = "unit price (node-hours)"


def ranking_price(inst: Instance, model: PricingModel) -> tuple[Price | None, str]:
    """(price, why none) of ``inst`` under the scenario's pricing model, for the ranking.

    Every type is priced under the same model from the same public sources (the catalog for
    on-demand, the dated price table otherwise); ``custom`` has no public rates, so the
    ranking uses on-demand prices then.  None (with the reason) when no public price exists.

    Parameters
    ----------
    inst : Instance
        The catalog row.
    model : PricingModel
        The scenario's pricing model.

    Returns
    -------
    tuple of (Price or None, str)
        Rate [USD/h] with provenance, and why there is none (empty when there is).
    """
    if model is PricingModel.CUSTOM:
        model = PricingModel.ON_DEMAND
    try:
        return model_price(inst, model), ""
    except ValidationError:
        label = TERMS[model].label
        return None, f"no public {label} price: enter yours to compare cost"


def scaled_failure_rate(
    rate_per_node_day, accels_from, accels_to, scaling=FailureScaling.MIXED, accelerator_share=1.0
):
    """Node failure rate of a node type with ``accels_to`` accelerators, from a rate measured
    on nodes with ``accels_from`` [failures per node-day].

    r' = r·[(1 − s) + s·k/k₀] with s = 0 (``per_node``), 1 (``per_accelerator``) or the
    accelerator-caused share (``mixed``).

    Parameters
    ----------
    rate_per_node_day : array_like
        Measured rate r [per node-day].
    accels_from, accels_to : array_like
        Accelerators per node k₀ measured and k wanted [count].
    scaling : FailureScaling
        ``per_node``, ``per_accelerator`` or ``mixed``.
    accelerator_share : array_like
        Share s of failures the accelerators cause under ``mixed`` [fraction].

    Returns
    -------
    float or ndarray
        Scaled rate r' [per node-day].

    Examples
    --------
    >>> scaled_failure_rate(0.002, 8, 4, "per_accelerator")
    0.001
    >>> round(scaled_failure_rate(0.002, 8, 16, "mixed", 0.64), 6)
    0.00328
    """
    scaling = FailureScaling(scaling)
    s = {FailureScaling.PER_NODE: 0.0, FailureScaling.PER_ACCELERATOR: 1.0}.get(
        scaling, as_float_array(accelerator_share)
    )
    ratio = as_float_array(accels_to) / as_float_array(accels_from)
    out = as_float_array(rate_per_node_day) * ((1.0 - s) + s * ratio)
    return like_input(out, rate_per_node_day, accels_from, accels_to, accelerator_share)


def check_mfu(inst: Instance, mfu: Any) -> float:
    """A user MFU for ``inst``: 0 < MFU ≤ the measured max achievable matmul fraction.

    Parameters
    ----------
    inst : Instance
        The catalog row.
    mfu : Any
        The MFU as typed [fraction].

    Returns
    -------
    float
        The MFU [fraction].

    Raises
    ------
    ValidationError
        Naming the instance and the allowed range.
    """
    key = f"--mfu {inst.instance}"
    try:
        x = float(mfu)
    except (TypeError, ValueError):
        raise ValidationError(key, f"{str(mfu)[:80]!r} is not a number in (0, 1]") from None
    hi = inst.max_matmul_fraction if inst.max_matmul_fraction is not None else 1.0
    if not (math.isfinite(x) and 0.0 < x <= hi):
        why = (
            f" (the measured max achievable matmul fraction of {inst.accelerator})"
            if inst.max_matmul_fraction is not None
            else ""
        )
        raise ValidationError(
            key, f"{str(mfu)[:80]!r} is out of range (a number in (0, {hi:g}]{why})"
        )
    return x


def check_price(name: str, price: Any) -> float:
    """A user price per instance-hour for ``name``: a number in (0, 10,000] USD/h.

    Parameters
    ----------
    name : str
        The instance name.
    price : Any
        The price as typed [USD/h].

    Returns
    -------
    float
        The price [USD/h].

    Raises
    ------
    ValidationError
        Naming the instance and the allowed range.
    """
    key = f"--price {name}"
    try:
        x = float(price)
    except (TypeError, ValueError):
        raise ValidationError(
            key, f"{str(price)[:80]!r} is not a number (in (0, {_fmt(10_000)}] USD/h)"
        ) from None
    if not (math.isfinite(x) and 0.0 < x <= 10_000.0):
        raise ValidationError(
            key,
            f"{str(price)[:80]!r} is out of range (in (0, {_fmt(10_000)}] USD/h: a ranking by cost "
            "needs a price above 0; for hardware you own, what an hour of it costs you)",
        )
    return x


def instance_mfu(
    scenario_mfu: float, own: Instance, inst: Instance, user: float | None = None
) -> tuple[float, str]:
    """(MFU, where it comes from) for ``inst`` when the scenario states ``scenario_mfu`` on
    ``own``: the user's value, the scenario's own, or scaled by the catalog's ratio.

    Parameters
    ----------
    scenario_mfu : float
        The scenario's MFU on its own instance [fraction].
    own : Instance
        The scenario's instance.
    inst : Instance
        The catalog row.
    user : float, optional
        An MFU the user gave for ``inst`` [fraction].

    Returns
    -------
    tuple of (float, str)
        MFU [fraction] and its source in words.
    """
    if user is not None:
        return check_mfu(inst, user), "entered for this comparison"
    if inst.instance == own.instance:
        return float(scenario_mfu), "the scenario's MFU"
    scaled = scenario_mfu * inst.mfu_default / own.mfu_default
    cap = inst.max_matmul_fraction if inst.max_matmul_fraction is not None else 1.0
    mfu = min(scaled, cap)
    note = (
        f"scenario MFU × {inst.mfu_default:g}/{own.mfu_default:g} (catalog ratio, "
        f"{inst.source_mfu})"
    )
    if scaled > cap:
        note += f"; capped at the measured max achievable matmul fraction {cap:g}"
    return mfu, note


@dataclass(frozen=True)
class InstanceOption:
    """One row of the ranking; figures in the units their names say (fractions 0..1).

    Figures that cannot be computed are NaN (the JSON writes null) and ``reason`` says why.
    """

    instance: str
    accelerator: str
    accelerators_per_node: int
    nodes: float
    accelerators: float
    usd_per_instance_hour: float
    price_known: bool
    price_source: str
    price_as_of: str
    mfu: float
    mfu_source: str
    node_failure_rate_per_day: float
    failures_per_day: float
    feasible: bool
    meets_deadline: bool
    reason: str
    min_nodes_to_fit: float
    goodput: float
    scaling_efficiency: float
    effective_mfu: float
    step_seconds: float
    allreduce_ms: float
    recompute_level: float  #: 0 none, 1 selective, 2 full (workload.recompute = auto: chosen)
    recomputed_layer_share: float  #: share of each chunk's layers recomputed in full
    time_to_train_days: float
    node_hours: float
    cost_to_train_usd: float
    cost_compute_usd: float
    cost_communication_usd: float
    cost_bubble_usd: float
    cost_communication_within_mfu_usd: float
    cost_bubble_within_mfu_usd: float
    cost_failure_and_checkpoint_usd: float
    cost_spares_usd: float
    usd_per_1e18_useful_flops: float
    training_flops: float
    exposed_comm_fraction_of_step: float
    compute_phase_mfu: float
    mfu_gap_exceeded: bool
    bf16_dense_tflops: float
    peak_ratio_vs_reference: float = math.nan
    modeled_ratio_vs_reference: float = math.nan
    cheapest: bool = False
    break_even_usd_per_hour: float = math.nan
    step_seconds_low: float = math.nan
    step_seconds_high: float = math.nan
    time_to_train_days_low: float = math.nan
    time_to_train_days_high: float = math.nan
    cost_to_train_usd_low: float = math.nan
    cost_to_train_usd_high: float = math.nan
    #: its 80% cost interval overlaps the cheapest type's: the ranking cannot separate them
    too_close_to_call: bool = False
    price_note: str = ""  # a price of another basis than the other rows', said in the row
    #: paid nodes beside the job on this type (hot spares, in-domain spares, spare domains'
    #: nodes), in the cost; and the spare domains and per-domain spares it keeps
    paid_spare_nodes: float = 0.0
    spare_domains: int = 0
    spare_nodes_per_domain: int = 0

    @property
    def nodes_text(self) -> str:
        """The node count with the spares the cost includes, "1,152 + 180 spare"
        (:func:`nodes_text`)."""
        return nodes_text(self.nodes, self.paid_spare_nodes)

    @property
    def failure_share(self) -> float:
        """Share of the cost to train that failures, recoveries and checkpoints take
        [fraction]; NaN without a cost."""
        return _share(self.cost_failure_and_checkpoint_usd, self.cost_to_train_usd)

    @property
    def communication_share(self) -> float:
        """Share of the cost to train that exposed communication takes, added to the
        compute (compute_only basis) or inside the MFU (end_to_end; one of the two is 0)
        [fraction]; NaN without a cost."""
        comm = self.cost_communication_usd + self.cost_communication_within_mfu_usd
        return _share(comm, self.cost_to_train_usd)

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "failure_share": self.failure_share,
            "communication_share": self.communication_share,
        }


def nodes_text(nodes: float, paid_spare_nodes: float) -> str:
    """A ranking row's node count as the tables write it: the job's nodes, and the paid
    spare nodes beside them that its cost includes, as ``goodput decide`` writes them.

    Parameters
    ----------
    nodes : float
        The job's nodes [count].
    paid_spare_nodes : float
        Paid nodes beside the job [count] (0 or NaN: none written).

    Returns
    -------
    str
        "1,152 + 180 spare", or "576" without spares.

    Examples
    --------
    >>> nodes_text(1152, 180), nodes_text(576, 0)
    ('1,152 + 180 spare', '576')
    """
    text = f"{nodes:,.0f}"
    if math.isfinite(paid_spare_nodes) and paid_spare_nodes > 0:
        text += f" + {paid_spare_nodes:,.0f} spare"
    return text


def _share(part: float, whole: float) -> float:
    """part / whole, NaN when the whole is 0 or unknown."""
    return part / whole if math.isfinite(whole) and whole != 0 else math.nan


@dataclass(frozen=True)
class InstanceRanking:
    """Every catalog instance, cheapest to train first, and the rules that made the ranking."""

    rows: tuple[InstanceOption, ...]
    deadline_days: float | None
    failure_scaling: str
    accelerator_failure_share: float
    scenario_instance: str
    scenario_price: Price
    reference_instance: str
    pricing_model: str = PricingModel.ON_DEMAND.value
    mfu_basis: str = "end_to_end"  #: the scenario's workload.mfu_basis
    #: the scenario's spares: (hot spares, spare nodes per domain, spare domains) [count]
    spares: tuple[int, int, int] = (0, 0, 0)

    @property
    def pricing_label(self) -> str:
        model = PricingModel(self.pricing_model)
        if model is PricingModel.CUSTOM:
            model = PricingModel.ON_DEMAND
        return TERMS[model].label

    @property
    def cheapest(self) -> InstanceOption | None:
        return next((r for r in self.rows if r.cheapest), None)

    @property
    def too_close_to_call(self) -> tuple[InstanceOption, ...]:
        """The candidates whose 80% cost interval overlaps the cheapest type's."""
        return tuple(r for r in self.rows if r.too_close_to_call)

    def verdict(self) -> str:
        """The ranking's answer in words: the cheapest type, or "too close to call"."""
        best = self.cheapest
        if best is None:
            return "no instance type can train this workload at a known price"
        close = self.too_close_to_call
        if not close:
            return f"{best.instance} is cheapest; no other type's 80% cost interval reaches it"
        names = ", ".join(r.instance for r in close)
        dearer = [r.instance for r in close if dearer_at_both_ends(r, best)]
        same = (
            f"; {', '.join(dearer)} {'is' if len(dearer) == 1 else 'are'} dearer at both ends "
            f"of the intervals too, so if the step model errs alike on every type "
            f"{best.instance} stays cheapest"
            if dearer
            else ""
        )
        what = (
            f"80% cost interval of {names} overlaps it"
            if len(close) == 1
            else f"80% cost intervals of {names} overlap it"
        )
        return (
            f"too close to call: {best.instance} is cheapest at the point estimate, but the "
            f"{what}{same}"
        )

    def deadline_risk(self) -> str:
        """When the cheapest type meets the deadline at the point estimate but not at the
        high end of its step time's 80% interval, that in words; else "" (QA pass 19: 44.8
        days against 45, with 62.3 at the high end, and nothing said)."""
        best, deadline = self.cheapest, self.deadline_days
        if best is None or deadline is None:
            return ""
        high = best.time_to_train_days_high
        if not (math.isfinite(high) and high > deadline):
            return ""
        return (
            f"the {deadline:g}-day deadline is met at the point estimate only: "
            f"{best.instance} × {best.nodes:,.0f} nodes takes {best.time_to_train_days:,.1f} "
            f"days, {high:,.1f} at the high end of the step time's 80% interval; goodput "
            "decide (the Decide page) chooses for a probability of finishing by the deadline"
        )

    def row(self, instance: str) -> InstanceOption:
        return next(r for r in self.rows if r.instance == instance)

    def rules(self) -> list[str]:
        """The ranking's assumptions in words (shown next to it)."""
        s = self.failure_scaling
        rate = {
            "per_node": "kept per node",
            "per_accelerator": "scaled with accelerators per node",
            "mixed": f"{self.accelerator_failure_share:.0%} of it scaled with accelerators per "
            "node, the rest kept per node",
        }[s]
        out = [
            f"Failure rate on other node types: {rate} (reliability.failure_scaling = {s}).",
            self._price_rule(),
            "MFU: modelled for each type from its step (workload.mfu_basis = modelled)."
            if self.mfu_basis == "modelled"
            else "MFU: the scenario's MFU on its own type, scaled by the catalog's published "
            "per-accelerator MFU ratio on the others.",
        ]
        if spares := self._spares_rule():
            out.append(spares)
        if self.deadline_days is not None:
            out.append(
                f"Node count: the cheapest that trains within {self.deadline_days:g} days "
                "(the parallel layout kept whole: TP × PP × CP, and the expert grid; the "
                "global batch split into whole micro-batches on every data-parallel replica)."
            )
        else:
            out.append(
                "Node count: the scenario's accelerator count on every type (its own type "
                "keeps its node count; the others round up to whole nodes that keep the "
                "parallel layout whole)."
            )
        return out

    def _spares_rule(self) -> str:
        """How the scenario's spares go with the job to the other types, and that the
        cost includes them ("" without spares; QA 26: the 2 spare nodes per domain were
        dropped on the 8-GPU types, and 180 paid spares left out of the node count, unsaid).
        """
        hot, per_domain, domains = self.spares
        if not (hot or per_domain or domains):
            return ""
        kept = []
        if hot:
            kept.append(f"its {counted(hot, 'hot spare')}")
        if domains:
            kept.append(
                f"{counted(domains, 'whole spare domain')} ({'each ' if domains > 1 else ''}"
                "one of the type's own scale-up domains: one node where a domain is one node)"
            )
        text = "Spares: every type keeps " + _and(kept) if kept else "Spares"
        if per_domain:
            spares = f"the {counted(per_domain, 'spare node')} per domain"
            stay = [r.instance for r in self.rows if r.spare_nodes_per_domain >= per_domain]
            if len(stay) == len(self.rows):
                text += f"{'; ' if kept else ': '}{spares} stay on every type"
            else:
                text += (
                    f"{'; ' if kept else ': '}{spares} stay only on {_and(stay)}, whose "
                    f"domain has more than {counted(per_domain, 'node')}; the other types "
                    f"keep none (their domain has at most {counted(per_domain, 'node')}, "
                    "which the spares would leave without a job node)"
                )
        return text + '. Node counts show the spares as "+ N spare"; the cost includes them.'

    def _price_rule(self) -> str:
        own = self.scenario_price
        if own.origin in ("scenario", "user") and math.isfinite(own.usd_per_instance_hour):
            theirs = (
                f"the scenario's own price ({own.describe()})"
                if own.origin == "scenario"
                else "the price entered for it"
            )
            return (
                f"Prices: {self.scenario_instance} at {theirs}, as in the scenario's other "
                f"figures; every other type at its public {self.pricing_label} price with "
                "its date, unless entered here."
            )
        return (
            f"Prices: every type at its public {self.pricing_label} price with its date "
            "(one vintage), unless entered here."
        )

    def to_json_dict(self) -> dict[str, Any]:
        best = self.cheapest
        return {
            "deadline_days": self.deadline_days,
            "cheapest": best.instance if best else None,
            "cheapest_nodes": best.nodes if best else None,
            "too_close_to_call": [r.instance for r in self.too_close_to_call],
            "verdict": self.verdict(),
            "deadline_risk": self.deadline_risk(),
            "failure_scaling": self.failure_scaling,
            "accelerator_failure_share": self.accelerator_failure_share,
            "scenario_usd_per_instance_hour": self.scenario_price.usd_per_instance_hour,
            "scenario_price_source": self.scenario_price.source,
            "scenario_price_as_of": json_date(self.scenario_price.as_of),
            "rules": self.rules(),
            "instances": [
                _json_row({**r.to_dict(), "price_as_of": json_date(r.price_as_of)})
                for r in self.rows
            ],
        }


def _and(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _json_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """JSON values of a row (:func:`models.outputs.json_value`): non-finite floats as null,
    whole counts as integers."""
    return {k: json_value(k, v) for k, v in row.items()}


def node_step(scenario: Scenario, inst: Instance) -> int:
    """Smallest node count step that keeps the parallel layout whole on ``inst``: whole
    TP × PP × CP replicas, as many as the expert-parallel grid divides
    (:func:`models.compute.replica_multiple`), so no accelerator is left idle.

    Parameters
    ----------
    scenario : Scenario
        The workload's parallel layout (tensor, pipeline, context and expert parallelism).
    inst : Instance
        The catalog row (accelerators per node).

    Returns
    -------
    int
        The node count step [nodes].

    Examples
    --------
    >>> from goodput_lab.models import load_catalog, load_preset
    >>> cat = load_catalog()
    >>> node_step(load_preset("deepseek-v3"), cat["dgx-h800"])  # PP 16 x EP 64 accelerators
    128
    """
    t = int(scenario["workload.tensor_parallel"])
    cp = int(scenario["workload.context_parallel"])
    etp, folded = expert_tensor_parallel(t, scenario["workload.expert_tensor_parallel"])
    s = replica_multiple(t, cp, int(scenario["workload.expert_parallel"]), etp, folded)
    accels = t * int(scenario["workload.pipeline_parallel"]) * cp * round(float(s))
    return accels // math.gcd(accels, inst.accelerators_per_node)


def whole_layout(metrics: Mapping[str, Any], shape: tuple[int, ...]) -> np.ndarray:
    """Where a node count runs as entered [bool]: the global batch splits into whole
    micro-batches on every data-parallel replica (:func:`models.evaluate.whole_micro_batches`
    of the split :func:`models.compute._batch_split` makes, which ``goodput evaluate``'s batch
    note reads) and no accelerator is idle (:func:`models.compute.whole_data_parallel`,
    ``idle_accelerators``).  A count that fails either is modelled on the average, or pays
    for accelerators that do no work (QA 28 #4: 816 p5 nodes, 204 replicas of a
    2,048-sequence batch, 10.04 micro-batches each; 900 H800 nodes with 32 of 7,200
    accelerators idle, as fast as 896).

    Parameters
    ----------
    metrics : Mapping[str, Any]
        :func:`models.evaluate.evaluate_arrays` of the node counts, with
        ``micro_batches_per_step``, ``micro_batch_sequences_effective`` and
        ``idle_accelerators`` [count].
    shape : tuple of int
        The node counts' shape.

    Returns
    -------
    numpy.ndarray
        True where the count runs as entered; False where not, or where no step is
        modelled (NaN).
    """

    def at(key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(metrics[key], float), shape)

    with np.errstate(invalid="ignore"):
        idle_free = at("idle_accelerators") < 0.5
    return (
        whole_micro_batches(at("micro_batches_per_step"), at("micro_batch_sequences_effective"))
        & idle_free
    )


def _grid(
    scenario: Scenario, own: Instance, inst: Instance, deadline: float | None, max_accels: int
) -> np.ndarray:
    step = node_step(scenario, inst)
    if deadline is None:
        if inst.instance == own.instance:
            return np.array([float(scenario["cluster.nodes"])])
        accels = scenario["cluster.nodes"] * own.accelerators_per_node
        n = math.ceil(accels / inst.accelerators_per_node - 1e-9)
        return np.array([float(max(step, math.ceil(n / step) * step))])
    hi = max(step, max_accels // inst.accelerators_per_node)
    return np.arange(step, hi + 1, step, dtype=float)


def _validate_deadline(deadline_days: float | None) -> None:
    if deadline_days is None:
        return
    try:
        ok = math.isfinite(float(deadline_days)) and 0 < float(deadline_days) <= MAX_DEADLINE_DAYS
    except (TypeError, ValueError):
        ok = False
    if not ok:
        # as typed: the command line's float of "-3" is -3.0
        shown = (
            f"{deadline_days:g}"
            if isinstance(deadline_days, float)
            else repr(str(deadline_days)[:80])
        )
        raise ValidationError(
            "deadline_days",
            f"{shown} is out of range (a number in (0, {MAX_DEADLINE_DAYS:g}])",
        )


def _row_price(inst, prices, own_name, scenario_price, vintage, model):
    """(price [USD/h] or None, why none, note) of one ranking row: a price entered for this
    comparison, the scenario's own price for its own type (as ``evaluate``), else the public
    price under the scenario's pricing model (:func:`ranking_price`)."""
    if inst.instance in prices:
        price = Price(
            check_price(inst.instance, prices[inst.instance]),
            "entered for this comparison",
            "now",
            "user",
            model.value,
        )
        return price, "", ""
    if inst.instance == own_name and scenario_price.origin == "scenario":
        note = vintage.row_note() if vintage is not None else "the scenario's price"
        return scenario_price, "", note
    price, no_price = ranking_price(inst, model)
    return price, no_price, ""


def _mark_cheapest(rows: list[dict[str, Any]], deadline_days: float | None) -> None:
    """Mark the cheapest ranked row, the rows too close to call against it, and each row's
    break-even price: the cheapest cost to train / the row's node-hours [USD/h]."""
    eligible = [
        r
        for r in rows
        if r["feasible"] and r["price_known"] and (deadline_days is None or r["meets_deadline"])
    ]
    best = min(eligible, key=lambda r: r["cost_to_train_usd"]) if eligible else None
    for r in rows:
        r["cheapest"] = best is not None and r is best
        r["too_close_to_call"] = too_close_to_call(r, best) if r in eligible else False
        can = r["feasible"] and r["node_hours"] > 0
        can = can and (deadline_days is None or r["meets_deadline"])
        r["break_even_usd_per_hour"] = (
            best["cost_to_train_usd"] / r["node_hours"] if best is not None and can else math.nan
        )


def rank_instances(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    *,
    deadline_days: float | None = None,
    prices: Mapping[str, float] | None = None,
    mfus: Mapping[str, float] | None = None,
    max_accelerators: int = DEFAULT_MAX_ACCELERATORS,
    tiers=None,
) -> InstanceRanking:
    """Rank every catalog instance by cost to train the scenario's workload (module docstring).

    Parameters
    ----------
    scenario : the job; its instance must be in ``catalog``.
    catalog : instance types to rank.
    deadline_days : if given, each type gets the cheapest node count that trains within it
        [day, in (0, 3650]].
    prices : per-instance prices entered by the user [USD/instance-h], overriding the catalog.
    mfus : per-instance MFUs entered by the user [fraction].
    max_accelerators : largest job searched with a deadline [accelerators].

    Returns
    -------
    InstanceRanking, rows cheapest first; rows that cannot be ranked (no price, misses the
    deadline, cannot run) last, each with its reason.
    """
    _validate_deadline(deadline_days)
    prices, mfus = dict(prices or {}), dict(mfus or {})
    for flag, entered in (("--price", prices), ("--mfu", mfus)):
        for name in entered:
            if name not in catalog:
                raise ValidationError(
                    f"{flag} {str(name)[:80]}",
                    "is not in the catalog; allowed: " + ", ".join(catalog),
                )
    own_name = scenario["cluster.instance"]
    if own_name not in catalog:
        raise ValidationError(
            "cluster.instance",
            f"{own_name[:80]!r} is not in the catalog; allowed: " + ", ".join(catalog),
        )
    own = catalog[own_name]
    scaling = FailureScaling(scenario["reliability.failure_scaling"])
    share = float(scenario["reliability.accelerator_failure_share"])
    scenario_price = _scenario_price(scenario, own)
    model = PricingModel(scenario["pricing.model"])

    rows: list[dict[str, Any]] = []
    vintage = price_vintage(scenario, own) if scenario_price.origin == "scenario" else None
    for inst in catalog.values():
        price, no_price, price_note = _row_price(
            inst, prices, own_name, scenario_price, vintage, model
        )
        mfu, mfu_source = instance_mfu(scenario["workload.mfu"], own, inst, mfus.get(inst.instance))
        if scenario["workload.mfu_basis"] == "modelled" and inst.instance not in mfus:
            # QA pass 19: the JSON said "the scenario's MFU" for a step that never reads it
            mfu_source = (
                "not read: the step time is modelled (workload.mfu_basis = modelled); "
                "effective_mfu is its outcome"
            )
        args = (price, mfu, mfu_source, deadline_days, max_accelerators, tiers)
        rows.append(_option(scenario, catalog, own, inst, *args, no_price=no_price))
        rows[-1]["price_note"] = price_note

    ref = _reference_row(rows, own_name)
    ref_speed = _per_accel_speed(ref)
    for r in rows:
        r["peak_ratio_vs_reference"] = r["bf16_dense_tflops"] / ref["bf16_dense_tflops"]
        speed = _per_accel_speed(r)
        r["modeled_ratio_vs_reference"] = speed / ref_speed if ref_speed > 0 else math.nan

    _mark_cheapest(rows, deadline_days)

    def order(r: dict[str, Any]) -> tuple:
        ranked = r["feasible"] and r["price_known"]
        ranked = ranked and (deadline_days is None or r["meets_deadline"])
        return (not ranked, r["cost_to_train_usd"] if ranked else r["time_to_train_days"])

    rows.sort(key=lambda r: (order(r)[0], _nan_last(order(r)[1])))
    return InstanceRanking(
        rows=tuple(InstanceOption(**r) for r in rows),
        deadline_days=deadline_days,
        failure_scaling=scaling.value,
        accelerator_failure_share=share,
        scenario_instance=own_name,
        scenario_price=scenario_price,
        reference_instance=ref["instance"],
        pricing_model=model.value,
        mfu_basis=str(scenario["workload.mfu_basis"]),
        spares=tuple(
            int(scenario[k])
            for k in (
                "cluster.spare_nodes",
                "cluster.spare_nodes_per_domain",
                "cluster.spare_domains",
            )
        ),
    )


def dearer_at_both_ends(row: InstanceOption, best: InstanceOption) -> bool:
    """Whether a candidate costs more than the cheapest type at both ends of their 80%
    intervals (low against low, high against high).

    Overlapping intervals are "too close to call" when the two types' step errors are
    independent (:func:`too_close_to_call`).  The step model errs alike on types that run
    the same workload on the same stack, and if it errs fully alike the two costs move
    together: the cheapest type then stays cheapest when the candidate is dearer at both
    ends (QA pass 19: p5en against p5 on llama3-70b, the same step, dearer throughout).

    Parameters
    ----------
    row, best : InstanceOption
        A candidate and the cheapest type (costs to train and their 80% ends [USD]).

    Returns
    -------
    bool
        True when the candidate's low end is above the cheapest's low end and its high end
        above the cheapest's high end.
    """
    ends = (
        row.cost_to_train_usd_low,
        best.cost_to_train_usd_low,
        row.cost_to_train_usd_high,
        best.cost_to_train_usd_high,
    )
    if not all(math.isfinite(v) for v in ends):
        return False
    return bool(ends[0] > ends[1] and ends[2] > ends[3])


def too_close_to_call(row: Mapping[str, Any], best: Mapping[str, Any] | None) -> bool:
    """Whether a candidate's 80% cost-to-train interval overlaps the cheapest type's.

    Both intervals come from the modelled step's leave-one-source-out interval
    (:func:`models.compute.step_interval`); treating them as independent is conservative:
    errors the types share (the same workload and stack) move both costs together.

    Parameters
    ----------
    row : Mapping of str to Any
        A candidate's ranking row (cost-to-train interval [USD]).
    best : Mapping of str to Any or None
        The cheapest type's row.

    Returns
    -------
    bool
        True when the intervals overlap.

    Examples
    --------
    >>> best = {"instance": "a", "cost_to_train_usd_low": 90.0, "cost_to_train_usd_high": 110.0}
    >>> too_close_to_call({"instance": "b", "cost_to_train_usd_low": 105.0}, best)
    True
    >>> too_close_to_call({"instance": "b", "cost_to_train_usd_low": 111.0}, best)
    False
    """
    if best is None or row is best or row.get("instance") == best.get("instance"):
        return False
    lo, hi = (
        row.get("cost_to_train_usd_low", math.nan),
        best.get("cost_to_train_usd_high", math.nan),
    )
    return bool(math.isfinite(lo) and math.isfinite(hi) and lo <= hi)


def layout_on(scenario: Scenario, own: Instance, inst: Instance) -> dict[str, Any]:
    """The domain-layout fields of ``scenario`` that belong to its own node type, as they
    read when the job moves to ``inst``: nodes per domain and the placement group derived
    from ``inst``'s catalog row (None), and the in-domain spares kept where ``inst``'s
    domain leaves the job a node, else 0 (an 8-GPU server's domain is the server).

    Parameters
    ----------
    scenario : Scenario
        The scenario on its own type.
    own, inst : Instance
        Its node type and the one the job moves to.

    Returns
    -------
    dict of str to Any
        Field updates [nodes]; empty when ``inst`` is ``own``.

    Examples
    --------
    >>> from goodput_lab.models import load_catalog, load_preset
    >>> cat = load_catalog()
    >>> s = load_preset("p6e-gb200-nvl72").replace({"cluster.spare_nodes_per_domain": 2})
    >>> moved = layout_on(s, cat["p6e-gb200.36xlarge"], cat["p5.48xlarge"])
    >>> moved["cluster.spare_nodes_per_domain"]
    0
    """
    if inst.instance == own.instance:
        return {}
    npd = float(catalog_nodes_per_domain(inst.scaleup_domain_accels, inst.accelerators_per_node))
    s_d = int(scenario["cluster.spare_nodes_per_domain"])
    return {
        "cluster.nodes_per_domain": None,
        "cluster.placement_group_nodes": None,
        "cluster.spare_nodes_per_domain": s_d if s_d < npd else 0,
    }


def _option_inputs(scenario, catalog, own, inst, mfu: float, tiers):
    """Chain inputs of ``inst`` at 1 USD/instance-hour with ``mfu`` and the node failure
    rate scaled to its accelerators per node (:func:`scaled_failure_rate`; the scenario's
    own rate [per node-day] on its own type).  Returns (inputs, rate)."""
    scaling = FailureScaling(scenario["reliability.failure_scaling"])
    share = float(scenario["reliability.accelerator_failure_share"])
    rate = float(scenario["reliability.node_failure_rate_per_day"])
    r = (
        rate
        if inst.instance == own.instance
        else float(
            scaled_failure_rate(
                rate, own.accelerators_per_node, inst.accelerators_per_node, scaling, share
            )
        )
    )
    model = PricingModel(scenario["pricing.model"])
    x = resolve_inputs(
        scenario.replace({"cluster.instance": inst.instance, **layout_on(scenario, own, inst)}),
        catalog,
        tiers,
        Price(1.0, _UNIT_PRICE, UNDATED, "internal", model.value),
        refuse_unrunnable=False,  # a type that cannot run the precision is marked instead
    )
    x["workload.mfu"] = mfu
    x["reliability.node_failure_rate_per_day"] = r
    return x, r


def _pick_node_count(days: np.ndarray, node_hours: np.ndarray, deadline_days: float | None):
    """(ok, meets, index): the node count with the fewest node-hours among those that meet
    the deadline [day], else the fastest (still late), else the first.

    >>> _pick_node_count(np.array([9.0, 5.0, 4.0]), np.array([10.0, 12.0, 15.0]), 6.0)[2]
    1
    """
    ok = np.isfinite(days) & np.isfinite(node_hours)
    meets = ok & (days <= deadline_days) if deadline_days is not None else ok
    if deadline_days is not None and meets.any():
        i = int(np.flatnonzero(meets)[np.argmin(node_hours[meets])])
    elif deadline_days is not None and ok.any():
        i = int(np.flatnonzero(ok)[np.argmin(days[ok])])  # fastest possible, still late
    else:
        i = 0
    return ok, meets, i


def _option(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    own: Instance,
    inst: Instance,
    price: Price | None,
    mfu: float,
    mfu_source: str,
    deadline_days: float | None,
    max_accelerators: int,
    tiers=None,
    grid: np.ndarray | None = None,
    no_price: str = "",
) -> dict[str, Any]:
    """One row of the ranking: ``inst`` at its node count (the cheapest that meets the
    deadline, or the scenario's accelerator count), with ``mfu`` and ``price``.  ``grid``
    (node counts to search) defaults to every count that keeps the parallel layout whole; ``no_price``
    says why ``price`` is None."""
    x, r = _option_inputs(scenario, catalog, own, inst, mfu, tiers)
    if grid is None:
        grid = _grid(scenario, own, inst, deadline_days, max_accelerators)
    x["cluster.nodes"] = grid
    out = evaluate_arrays(x)  # at 1 USD/instance-hour: cost to train = node-hours

    def at(key: str, _out=out, _shape=grid.shape) -> np.ndarray:
        return np.broadcast_to(np.asarray(_out[key], float), _shape)

    days, node_hours = at("time_to_train_days"), at("cost_to_train_usd")
    if deadline_days is not None:
        # a count is chosen only where the layout runs as entered (whole_layout); when the
        # batch splits at no count that can run (16M tokens of 8,192: 1,953.12 sequences),
        # every count is kept, as without a deadline (evaluate's batch note says it)
        usable = whole_layout(out, grid.shape) & np.isfinite(days)
        if usable.any():
            days = np.where(usable, days, np.nan)
    ok, meets, i = _pick_node_count(days, node_hours, deadline_days)
    nodes = float(grid[i])
    reason = _option_reason(x, scenario, (grid, days, ok, meets, i), deadline_days)
    if not reason and price is None:
        reason = no_price or "no public price: enter yours to compare cost"
    usd = price.usd_per_instance_hour if price is not None else math.nan

    def v(key: str, scale: float = 1.0, _i=i) -> float:
        return float(at(key)[_i]) * scale

    has_step = math.isfinite(v("step_seconds"))

    return {
        "instance": inst.instance,
        "accelerator": inst.accelerator,
        "accelerators_per_node": inst.accelerators_per_node,
        "nodes": nodes,
        "accelerators": nodes * inst.accelerators_per_node,
        "usd_per_instance_hour": usd,
        "price_known": price is not None,
        "price_source": price.source if price else "no public price",
        "price_as_of": price.as_of if price else UNDATED,
        "mfu": mfu,
        "mfu_source": mfu_source,
        "node_failure_rate_per_day": r,
        "failures_per_day": v("failures_per_day"),
        "feasible": bool(ok[i]),
        "meets_deadline": bool(meets[i]),
        "reason": reason,
        "min_nodes_to_fit": v("min_nodes_to_fit"),
        "goodput": v("goodput"),
        "scaling_efficiency": v("scaling_efficiency"),
        "effective_mfu": v("effective_mfu"),
        "step_seconds": v("step_seconds"),
        "allreduce_ms": v("allreduce_ms"),
        # the recomputation the step was modelled with (NaN where no step is)
        "recompute_level": v("recompute_level") if has_step else math.nan,
        "recomputed_layer_share": v("recomputed_layer_share") if has_step else math.nan,
        "time_to_train_days": v("time_to_train_days"),
        "node_hours": v("cost_to_train_usd"),
        "cost_to_train_usd": v("cost_to_train_usd", usd),
        "step_seconds_low": v("step_seconds_low"),
        "step_seconds_high": v("step_seconds_high"),
        "time_to_train_days_low": v("time_to_train_days_low"),
        "time_to_train_days_high": v("time_to_train_days_high"),
        "cost_to_train_usd_low": v("cost_to_train_usd_low", usd),
        "cost_to_train_usd_high": v("cost_to_train_usd_high", usd),
        "cost_compute_usd": v("cost_to_train_compute_usd", usd),
        "cost_communication_usd": v("cost_to_train_communication_usd", usd),
        "cost_bubble_usd": v("cost_to_train_bubble_usd", usd),
        "cost_communication_within_mfu_usd": v("cost_within_mfu_communication_usd", usd),
        "cost_bubble_within_mfu_usd": v("cost_within_mfu_bubble_usd", usd),
        "cost_failure_and_checkpoint_usd": v("cost_to_train_goodput_loss_usd", usd),
        "cost_spares_usd": v("cost_to_train_spares_usd", usd),
        "usd_per_1e18_useful_flops": v("usd_per_1e18_useful_flops", usd),
        "training_flops": v("training_flops"),
        "exposed_comm_fraction_of_step": v("exposed_comm_fraction_of_step"),
        "compute_phase_mfu": v("compute_phase_mfu"),
        "mfu_gap_exceeded": bool(v("mfu_gap_exceeded") > 0.5),
        "bf16_dense_tflops": inst.bf16_dense_tflops,
        **_row_spares(x, nodes),
    }


def _option_reason(x, scenario: Scenario, pick, deadline_days: float | None) -> str:
    """Why a ranking row's type cannot train the run (the step model's reason) or misses the
    deadline at every count searched; "" when it does neither.  ``pick`` = (grid, days,
    feasible, meets, chosen index) of :func:`_pick_node_count`."""
    grid, days, ok, meets, i = pick
    nodes = float(grid[i])
    if not ok[i]:
        return (
            infeasibility_reason({**x, "cluster.nodes": nodes}, scenario["workload.mfu_basis"])
            or "cannot be modelled with these inputs"
        )
    if deadline_days is not None and not meets[i]:
        return (
            f"misses the {deadline_days:g}-day deadline at any node count up to "
            f"{grid[-1]:,.0f} (fastest {days[i]:.1f} days at {nodes:,.0f} nodes)"
        )
    return ""


def _row_spares(x, nodes: float) -> dict[str, Any]:
    """A row's spares at ``nodes`` job nodes: the paid nodes beside the job as the cost
    counts them (:func:`models.chain.paid_instances`) [count], and the spare domains and
    spare nodes per domain the type keeps (:func:`layout_on`) [count]."""
    return {
        "paid_spare_nodes": paid_instances({**x, "cluster.nodes": nodes}) - nodes,
        "spare_domains": int(x["cluster.spare_domains"]),
        "spare_nodes_per_domain": int(x["cluster.spare_nodes_per_domain"]),
    }


def _nan_last(x: float) -> float:
    return x if math.isfinite(x) else math.inf


def _scenario_price(scenario: Scenario, own: Instance) -> Price:
    try:
        return price_in_force(scenario, own)
    except ValidationError:
        return Price(math.nan, "no price (none published; enter one)", UNDATED, "none")


def _reference_row(rows: list[dict[str, Any]], own_name: str) -> dict[str, Any]:
    """The row the ratios are read against: :data:`REFERENCE_INSTANCE` where it can train
    the workload, else the scenario's own type, else the first type that can; the reference
    itself when none can (QA pass 27: with p6e-gb200-nvl72, p5.48xlarge cannot hold the
    workload and every modelled ratio to it was NaN, an empty chart)."""
    by_name = {r["instance"]: r for r in rows}
    trains = [r for r in rows if math.isfinite(_per_accel_speed(r))]
    for name in (REFERENCE_INSTANCE, own_name):
        if name in by_name and by_name[name] in trains:
            return by_name[name]
    if trains:
        return trains[0]
    return by_name.get(REFERENCE_INSTANCE, rows[0])


def _per_accel_speed(row: Mapping[str, Any]) -> float:
    """Useful FLOP/s per accelerator over the whole run (goodput, comm and bubble included)."""
    d = row["time_to_train_days"]
    if not (math.isfinite(d) and d > 0):
        return math.nan
    return row["training_flops"] / (d * 86_400.0 * row["accelerators"])


@dataclass(frozen=True)
class VerdictRobustness:
    """How far the cheapest type's price or MFU would have to move to change the verdict.

    The runner-up is the next type that qualifies (can run, is priced, meets the deadline).
    Prices: the cheapest type stays cheapest up to ``break_even_usd_per_hour``; the
    runner-up would win below ``runner_up_break_even_usd_per_hour`` (exact: the node count
    chosen does not depend on the price).  MFU: the cheapest type stays cheapest down to
    ``break_even_mfu``; the runner-up would win above ``runner_up_break_even_mfu`` (NaN
    when no MFU up to its measured maximum achievable matmul fraction is enough).  The MFU
    break-evens re-choose the node count at every MFU (bisection, to 0.2% of the MFU).
    With the modelled step (``workload.mfu_basis`` = modelled) the MFU is an output of the
    system, not an input that can move: both MFU break-evens are NaN (``mfu_applies`` False).
    """

    cheapest: str
    runner_up: str
    cheapest_cost_usd: float
    runner_up_cost_usd: float
    usd_per_instance_hour: float
    break_even_usd_per_hour: float
    runner_up_usd_per_instance_hour: float
    runner_up_break_even_usd_per_hour: float
    mfu: float
    break_even_mfu: float
    runner_up_mfu: float
    runner_up_break_even_mfu: float
    runner_up_mfu_cap: float
    mfu_basis: str = "end_to_end"

    @property
    def mfu_applies(self) -> bool:
        """The MFU is an input of the step time (end_to_end or compute_only basis)."""
        return self.mfu_basis != "modelled"

    @property
    def price_margin(self) -> float:
        """Relative price rise of the cheapest type that would make it tie [fraction]; NaN
        for a free instance (no relative rise is defined)."""
        if not self.usd_per_instance_hour > 0:
            return math.nan
        return self.break_even_usd_per_hour / self.usd_per_instance_hour - 1.0

    @property
    def mfu_margin(self) -> float:
        """Relative MFU drop of the cheapest type that would make it tie [fraction]."""
        return 1.0 - self.break_even_mfu / self.mfu

    def to_json_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["price_margin"] = self.price_margin
        d["mfu_margin"] = self.mfu_margin
        return _json_row(d)


def _cost_at_mfu(
    scenario, catalog, own, inst, price, mfu, deadline_days, max_accelerators, tiers, near=None
) -> float:
    """Cost to train on ``inst`` at ``mfu`` (inf when it cannot run or misses the deadline).

    With a deadline and ``near`` = (nodes, mfu) of a known solution, only node counts within
    a factor of 2 of nodes·mfu_near/mfu are searched (node-hours ∝ 1/MFU to first order);
    when the cheapest count lands on the window's edge the full grid is searched instead.
    """
    args = (scenario, catalog, own, inst, price, mfu, "", deadline_days, max_accelerators, tiers)
    grid = None
    if deadline_days is not None and near is not None:
        full = _grid(scenario, own, inst, deadline_days, max_accelerators)
        guess = near[0] * near[1] / mfu
        grid = full[(full >= guess / 2) & (full <= guess * 2)]
        if grid.size < 2:
            grid = None
    row = _option(*args, grid=grid)
    if grid is not None and row["nodes"] in (grid[0], grid[-1]):
        row = _option(*args)  # the answer may lie outside the window
    ok = row["feasible"] and (deadline_days is None or row["meets_deadline"])
    return row["cost_to_train_usd"] if ok else math.inf


def _bisect_mfu(cost, target: float, good: float, bad: float, rtol: float = 2e-3) -> float:
    """The MFU between ``good`` (cost ≤ target) and ``bad`` (cost > target) where the
    cost crosses ``target`` (cost falls as the MFU rises)."""
    for _ in range(60):
        if abs(good - bad) <= rtol * max(good, bad):
            break
        mid = 0.5 * (good + bad)
        if cost(mid) <= target:
            good = mid
        else:
            bad = mid
    return 0.5 * (good + bad)


def verdict_robustness(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    ranking: InstanceRanking,
    *,
    prices: Mapping[str, float] | None = None,
    max_accelerators: int = DEFAULT_MAX_ACCELERATORS,
    tiers=None,
) -> VerdictRobustness | None:
    """Break-even price and MFU of the ranking's cheapest type against the runner-up.

    Parameters
    ----------
    scenario, catalog : as given to :func:`rank_instances`.
    ranking : its result (with the same deadline, prices and MFUs).
    prices : the per-instance prices that ranking used [USD/instance-h].

    Returns
    -------
    VerdictRobustness, or None when fewer than two types qualify.

    Notes
    -----
    Cost to train = node-hours × price, so the break-even price of the cheapest type c
    against the runner-up r is p*_c = cost_r / node-hours_c (and p*_r = cost_c /
    node-hours_r).  Node-hours fall as the MFU rises (shorter steps, and with a deadline
    fewer nodes), so each break-even MFU is the root of cost(MFU) = the other's cost, found
    by bisection from the 1/MFU estimate mfu·cost_c/cost_r.
    """
    qualified = [
        r
        for r in ranking.rows
        if r.feasible
        and r.price_known
        and (ranking.deadline_days is None or r.meets_deadline)
        and math.isfinite(r.cost_to_train_usd)
    ]
    if len(qualified) < 2:
        return None
    c, r = qualified[0], qualified[1]
    own = catalog[scenario["cluster.instance"]]
    deadline = ranking.deadline_days
    prices = dict(prices or {})

    def price_of(row: InstanceOption) -> Price:
        return Price(
            row.usd_per_instance_hour,
            row.price_source,
            row.price_as_of,
            "ranking",
            ranking.pricing_model,
        )

    def cost_fn(row: InstanceOption):
        inst, price = catalog[row.instance], price_of(row)

        def cost(m: float) -> float:
            args = (price, m, deadline, max_accelerators, tiers, (row.nodes, row.mfu))
            return _cost_at_mfu(scenario, catalog, own, inst, *args)

        return cost

    basis = str(scenario["workload.mfu_basis"])
    mfu_applies = basis != "modelled"  # a modelled step does not read the MFU
    inst_r = catalog[r.instance]
    cap = inst_r.max_matmul_fraction if inst_r.max_matmul_fraction is not None else 1.0
    be_mfu = be_r = math.nan
    if mfu_applies:
        be_mfu, be_r = _mfu_break_evens(c, r, cost_fn(c), cost_fn(r), cap)
    return VerdictRobustness(
        cheapest=c.instance,
        runner_up=r.instance,
        cheapest_cost_usd=c.cost_to_train_usd,
        runner_up_cost_usd=r.cost_to_train_usd,
        usd_per_instance_hour=c.usd_per_instance_hour,
        break_even_usd_per_hour=r.cost_to_train_usd / c.node_hours,
        runner_up_usd_per_instance_hour=r.usd_per_instance_hour,
        runner_up_break_even_usd_per_hour=c.cost_to_train_usd / r.node_hours,
        mfu=c.mfu,
        break_even_mfu=be_mfu,
        runner_up_mfu=r.mfu,
        runner_up_break_even_mfu=be_r,
        runner_up_mfu_cap=cap,
        mfu_basis=basis,
    )


def _mfu_break_evens(c, r, cost_c, cost_r, cap: float) -> tuple[float, float]:
    """(MFU of the cheapest type below which the runner-up wins, MFU of the runner-up above
    which it wins or NaN), by bisection on the cost functions of the two types."""
    # the cheapest type's MFU: lower it until the runner-up is cheaper
    good, bad = c.mfu, None
    m = c.mfu * c.cost_to_train_usd / r.cost_to_train_usd
    for _ in range(40):
        m = max(m, 1e-4)
        if cost_c(m) > r.cost_to_train_usd:
            bad = m
            break
        good, m = m, m * 0.9
        if m <= 1e-4:
            break
    be_mfu = _bisect_mfu(cost_c, r.cost_to_train_usd, good, bad) if bad is not None else 0.0

    # the runner-up's MFU: raise it (up to its measured maximum) until it is cheaper
    target = c.cost_to_train_usd
    be_r = math.nan
    if cost_r(cap) <= target:
        bad_r, good_r = r.mfu, cap
        m = min(cap, r.mfu * r.cost_to_train_usd / c.cost_to_train_usd)
        if cost_r(m) <= target:
            good_r = m
        else:
            bad_r = m
        be_r = _bisect_mfu(cost_r, target, good_r, bad_r)
    return be_mfu, be_r
