"""Tables behind the Network page: collectives vs nodes per fabric, algorithms, reroutes."""

from __future__ import annotations

import numpy as np
import polars as pl

from goodput_lab.models import (
    Evaluation,
    Scenario,
    ValidationError,
    evaluate_arrays,
    fabric,
    resolve_inputs,
)
from goodput_lab.models._text import as_sentence
from goodput_lab.models.catalog import Instance
from goodput_lab.models.evaluate import step_reason
from goodput_lab.views import display


def _inputs(scenario: Scenario, catalog: dict[str, Instance], instance: str) -> dict:
    """The scenario moved to ``instance`` (price irrelevant here: 1 USD/h placeholder)."""
    sc = scenario.replace({"cluster.instance": instance, "pricing.usd_per_instance_hour": 1.0})
    return resolve_inputs(sc, catalog)


def scaling_vs_nodes(
    scenario: Scenario, catalog: dict[str, Instance], max_accelerators: int = 65_536, n: int = 40
) -> pl.DataFrame:
    """DP all-reduce time and scaling efficiency against node count, one series per instance.

    Each instance keeps the scenario's workload and network settings; node counts span
    1..max_accelerators/accelerators_per_node on a log grid (one vectorised call each).
    Instances the workload cannot run on (memory, TP outside the scale-up domain, unknown
    scale-up bandwidth) give NaN rows (dropped); a type the scenario's inputs are refused on
    (workload.precision = fp8 on a type with no FP8 rate) is left out.
    """
    frames = []
    for name, inst in catalog.items():
        hi = max(2, max_accelerators // inst.accelerators_per_node)
        nodes = np.unique(np.round(np.geomspace(1, hi, n)))
        try:
            inputs = _inputs(scenario, catalog, name)
        except ValidationError:  # a type the scenario's inputs refuse (FP8 on an A100)
            continue
        out = evaluate_arrays({**inputs, "cluster.nodes": nodes})
        frames.append(
            pl.DataFrame(
                {
                    "instance": [name] * nodes.size,
                    "fabric": [f"{name} ({inst.efa_gbps:g} Gb/s scale-out)"] * nodes.size,
                    "nodes": nodes,
                    "accelerators": nodes * inst.accelerators_per_node,
                    "allreduce_ms": np.broadcast_to(out["allreduce_ms"], nodes.shape),
                    "scaling_efficiency_pct": np.broadcast_to(
                        out["scaling_efficiency"], nodes.shape
                    )
                    * 100,
                    "step_seconds": np.broadcast_to(out["step_seconds"], nodes.shape),
                }
            )
        )
    return pl.concat(frames).filter(pl.col("allreduce_ms").is_not_nan())


def algorithm_table(ev: Evaluation) -> pl.DataFrame:
    """The scenario's gradient all-reduce under ring, tree and hierarchical algorithms
    (:func:`models.fabric.allreduce_by_algorithm`; the NCCL row is the step model's
    all-reduce, the one on the page's tiles)."""
    return pl.DataFrame(fabric.allreduce_by_algorithm(ev))


def reroute_comparison(
    scenario: Scenario, catalog: dict[str, Instance], events_per_day: float
) -> pl.DataFrame:
    """Goodput and money lost per day for each labelled reroute time
    (:func:`models.fabric.reroute_costs`)."""
    rr = fabric.reroute_costs(
        resolve_inputs(scenario, catalog),
        events_per_day,
        scenario["network.collective_timeout_seconds"],
    )
    return pl.DataFrame(rr)


ALGORITHM_COLUMNS = (
    ("algorithm", "Algorithm"),
    "allreduce_ranks",
    "allreduce_message_GB",
    "collective_ms",
    "algbw_GBps",
    "busbw_GBps",
)
FABRIC_VALUE_COLUMNS = (
    ("change", "Change"),
    "step_seconds",
    "time_to_train_days",
    ("time_to_train_change_days", None, "signed"),
    ("savings_usd_per_day", "Savings per day", "savings"),
)
REROUTE_COLUMNS = (
    ("reroute", "Reroute (labelled input)"),
    "reroute_seconds",
    ("outcome", "Outcome"),
    "goodput",
    "fabric_goodput_loss",
    "fabric_cost_usd_per_day",
)
#: what-if changes of the fabric priced on the Network page: (label, field, how)
FABRIC_CHANGES = fabric.FABRIC_CHANGES


def fabric_value(scenario: Scenario, catalog: dict[str, Instance]) -> pl.DataFrame:
    """Days and dollars per day of each :data:`FABRIC_CHANGES` against the scenario
    (:func:`models.fabric.fabric_changes`; under an end-to-end MFU every row is 0)."""
    inputs = resolve_inputs(scenario, catalog)
    gbps = scenario["network.inter_node_gbps"] or float(inputs["instance.efa_gbps"])
    return pl.DataFrame(fabric.fabric_changes(inputs, gbps))


# --------------------------------------------------------------------------- page text
# What the Network page shows, ready to place (the page formats no number itself).
def config_caption(scenario: Scenario, ev: Evaluation) -> str:
    """The cluster, model, parallelism and scale-out bandwidth the page is about."""
    m = ev.metrics
    gbps = scenario["network.inter_node_gbps"]
    fabric = (
        f"{gbps:,.0f} Gb/s per node (yours)"
        if gbps is not None
        else f"{ev.instance.efa_gbps:,.0f} Gb/s per node (catalog)"
    )
    params = display.field_value("workload.params_billion", m["model_parameters_billion"])
    return (
        f"{scenario['cluster.nodes']:,} × {ev.instance.instance}, {params}, "
        f"tensor parallel {scenario['workload.tensor_parallel']}, pipeline parallel "
        f"{scenario['workload.pipeline_parallel']}, ZeRO stage {scenario['workload.zero_stage']}; "
        f"scale-out {fabric}."
    )


def headline_tiles(scenario: Scenario, m) -> list[dict[str, str]]:
    """All-reduce time, step time (its split in the help, worded for the MFU basis),
    scaling efficiency and effective MFU."""
    fv = display.format_value
    e2e = scenario["workload.mfu_basis"] == "end_to_end"
    modelled = scenario["workload.mfu_basis"] == "modelled"
    allreduce = display.tile("allreduce_ms", m["allreduce_ms"])
    allreduce["help"] += (
        " Not hidden behind the backward pass: "
        f"{fv('allreduce_exposed_ms', m['allreduce_exposed_ms'])}."
    )
    parts = (
        f"compute {fv('compute_seconds_per_step', m['compute_seconds_per_step'])} + "
        f"recomputation {fv('recompute_seconds_per_step', m['recompute_seconds_per_step'])} + "
        f"bubble {fv('bubble_seconds_per_step', m['bubble_seconds_per_step'])} + exposed "
        f"data-parallel {fv('allreduce_exposed_ms', m['allreduce_exposed_ms'])} + "
        f"tensor-parallel {fv('tp_comm_ms', m['tp_comm_ms'])} + pipeline "
        f"{fv('pp_comm_ms', m['pp_comm_ms'])}"
    )
    step = display.tile("step_seconds", m["step_seconds"])
    step["help"] = (
        "Model FLOPs per step / (accelerators × peak × MFU): the MFU is end to end, so "
        f"communication and bubble are inside it, not added. The network model's split: {parts}."
        if e2e
        else f"Modelled from the system (docs/step-time.md): {parts}."
        if modelled
        else f"The sum of {parts}."
    )
    scaling = display.tile("scaling_efficiency", m["scaling_efficiency"])
    scaling["help"] += (
        " Informational under the end-to-end MFU basis (the step time does not use it)."
        if e2e
        else " The share of each step spent on model math."
    )
    mfu = display.tile("effective_mfu", m["effective_mfu"])
    if modelled:
        mfu["help"] += (
            " Here model FLOPs (6N + 12·L·s·h per token) / (accelerators × peak × step "
            "time), an output of the modelled step."
        )
    return [allreduce, step, scaling, mfu]


def cannot_run_warning(ev: Evaluation) -> str:
    """Above the tiles of a configuration that cannot run (memory, layout, or no step time):
    why (:func:`models.evaluate.step_reason`, as `goodput evaluate` says it); "" when its
    step time is computed."""
    reason = step_reason(ev)
    return f"This configuration cannot run: {reason}" if reason else ""


def nothing_to_value(ev: Evaluation, scaling: pl.DataFrame) -> str:
    """In place of "What the fabric is worth" when ``ev`` has no step time (the
    :func:`cannot_run_warning` above the tiles says why): every change to the fabric would
    read "no change" against a time to train that does not exist.  When ``scaling``
    (:func:`scaling_vs_nodes`) is empty too, no catalog type runs the workload and the
    charts against nodes give way to the same line.  "" when the step time is computed."""
    if not step_reason(ev):
        return ""
    if scaling.height:
        return (
            "Nothing to value: this configuration cannot run (the warning above says why), "
            "so no change to the fabric moves its time to train."
        )
    return (
        "Nothing to value or plot: this configuration cannot run (the warning above says "
        "why), nor can its workload on any catalog instance type at these parallel sizes."
    )


def recompute_caption(ev: Evaluation) -> str:
    """Under the step time's tiles: the recomputation 'auto' chose, as the report and
    `goodput evaluate` say it (``Evaluation.texts["recompute_note"]``), capitalised; "" when
    the user entered a level."""
    return as_sentence(ev.texts["recompute_note"])


def batch_caption(ev: Evaluation) -> str:
    """Under the step time's tiles: that the global batch does not split into whole
    micro-batches on every data-parallel replica (``Evaluation.texts["batch_note"]``, as
    `goodput evaluate` says it), capitalised; "" when it does."""
    return as_sentence(ev.texts["batch_note"])


def end_to_end_caption(m) -> str:
    """Under an end-to-end MFU: what the network model's exposed share means."""
    fv = display.format_value
    share = m["exposed_comm_fraction_of_step"]
    return (
        "MFU basis: end to end (as published, PaLM App. B; Llama 3): communication and bubble "
        "are inside the MFU, and more bandwidth does not change the time to train here "
        "(switch workload.mfu_basis to modelled to compute the step from the system). "
        + (
            f"The network model puts {fv('exposed_comm_fraction_of_step', share)} of the step "
            "in exposed communication, part of the gap between the MFU and the accelerator's "
            "peak."
            if share <= 1
            else "The network model's exposed communication alone "
            f"({fv('exposed_comm_fraction_of_step', share)} of the step) is longer than the "
            "step this MFU implies."
        )
    )


def efficiency_caption(scenario: Scenario) -> str:
    """Where the inter-node efficiency comes from."""
    eta = display.field_value(
        "network.inter_node_efficiency", scenario["network.inter_node_efficiency"]
    )
    return (
        f"Inter-node efficiency η = {eta} of the scale-out line rate: no bus bandwidth at full "
        f"scale is published for {scenario['cluster.instance']} or any catalog type (4 "
        "p6-b200 nodes measured 73%), so this is your input: set it from NCCL-tests busbw "
        "measured on your cluster."
    )


def timeout_caption(scenario: Scenario) -> str:
    """Under the reroute comparison: what a stall past the collective timeout costs."""
    timeout = display.field_value(
        "network.collective_timeout_seconds", scenario["network.collective_timeout_seconds"]
    )
    return (
        f"A stall longer than the collective timeout ({timeout}) aborts the job and costs a "
        "full recovery. Vendor figures (SIDR 'sub-second') are claims, not measurements; "
        "BGP/BFD timers are protocol settings."
    )


def fabric_value_display(fabric_df: pl.DataFrame) -> pl.DataFrame:
    """:func:`fabric_value` as a display table (:data:`FABRIC_VALUE_COLUMNS`)."""
    return display.table(
        [{**r, "time_to_train_change_days": r["days_change"]} for r in fabric_df.to_dicts()],
        FABRIC_VALUE_COLUMNS,
    )


def algorithm_display(t: pl.DataFrame) -> pl.DataFrame:
    """:func:`algorithm_table` ``t`` as a display table (:data:`ALGORITHM_COLUMNS`); a
    mixture of experts adds which gradients each row reduces (non-expert or routed
    experts)."""
    groups = t["gradients"].unique().len() > 1
    return display.table(t, ((("gradients", "Gradients"),) if groups else ()) + ALGORITHM_COLUMNS)


def no_algorithms_text(ev: Evaluation) -> str:
    """In place of the collective-algorithm table when ``ev`` has no step time (the
    :func:`cannot_run_warning` above the tiles says why): the tile's all-reduce reads "—",
    so no row is "the step's all-reduce"; "" when the step time is computed."""
    if not step_reason(ev):
        return ""
    return (
        "No all-reduce to compare: this configuration cannot run (the warning above says "
        "why), so its step has no gradient all-reduce."
    )


def algorithm_caption(t: pl.DataFrame, ev: Evaluation) -> str:
    """Under the algorithm table ``t`` of ``ev``: the α-β model, and for a mixture of
    experts the two groups whose NCCL rows add up to the step's all-reduce."""
    base = (
        "α-β model (Thakur, Rabenseifner & Gropp 2005); algorithm and bus bandwidth as "
        "NCCL-tests report them (nccl-tests' own doc/PERFORMANCE.md; docs/references.md)."
    )
    if t["gradients"].unique().len() <= 1:
        return base + " The NCCL row is the step's all-reduce."
    return base + (
        " A mixture of experts reduces two groups: the non-expert gradients over every "
        "data-parallel replica and the routed experts' over the ranks that hold the same "
        f"experts; the two NCCL rows add up to the step's all-reduce "
        f"({display.format_value('allreduce_ms', ev['allreduce_ms'])})."
    )


def reroute_display(rr: pl.DataFrame) -> pl.DataFrame:
    """:func:`reroute_comparison` as a display table, each row's outcome in words."""
    rows = [
        {**r, "outcome": "job restarts" if r["becomes_job_failure"] else "stall"}
        for r in rr.iter_rows(named=True)
    ]
    return display.table(rows, REROUTE_COLUMNS)
