"""The fabric's what-ifs: the gradient all-reduce under each algorithm, fabric events priced
at each labelled reroute time, and the value of a faster or slower fabric.

What the Network page, its report section and ``goodput outputs`` read; each figure is a
registered output (:mod:`models.outputs`, ``NETWORK_TABLE_OUTPUTS``) naming the function
here that computes it.  Units: bytes and GB (10⁹ bytes), seconds and milliseconds, USD per
day, goodput as a fraction.

References
----------
[1] R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of collective communication
    operations in MPICH", IJHPCA 19(1):49-66, 2005 (ring and tree all-reduce).
[2] NVIDIA, nccl-tests ``doc/PERFORMANCE.md`` (algbw and busbw).
[3] docs/references.md#fabric-reroutes-and-collective-timeouts (reroute times, timeouts).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import compute as cm
from . import network as net
from .choices import GradientPrecision
from .evaluate import Evaluation, evaluate_arrays, productive_time_savings

#: The all-reduce algorithms of :func:`allreduce_by_algorithm`, in table order.
ALGORITHMS = (
    "Ring (flat)",
    "Double binary tree",
    "Hierarchical, phases in series",
    "Hierarchical, phases overlapped (NCCL)",
)

#: What-if changes of the fabric priced by :func:`fabric_changes`: (label, field, factor).
FABRIC_CHANGES: tuple[tuple[str, str, float], ...] = (
    ("Half the scale-out bandwidth", "network.inter_node_gbps", 0.5),
    ("Double the scale-out bandwidth", "network.inter_node_gbps", 2.0),
    ("Network latency α × 5", "network.alpha_network_us", 5.0),
    ("Network latency α ÷ 10", "network.alpha_network_us", 0.1),
)


def allreduce_message_bytes(ev: Evaluation, params_per_rank: float | None = None) -> float:
    """Gradient traffic each data-parallel rank all-reduces per step [bytes].

    bytes per parameter × the parameters a rank holds (default N/(TP·PP); the modelled
    step passes each gradient group's own, :func:`models.compute.gradient_reduction_groups`).
    With the modelled step, the step model's own bytes
    per parameter (:func:`models.compute.dp_allreduce_bytes_per_param`: the gradient
    precision's bytes; ZeRO ≥ 1 the reduce-scatter of the gradients plus the all-gather of
    the bf16 weights; ZeRO-3 gathers the weights again for each micro-batch); with a stated
    MFU, bf16 gradients (ZeRO-3 scaled by :data:`models.compute.ZERO3_SYNC_FACTOR`).

    Parameters
    ----------
    ev : Evaluation
        The scenario evaluated (its workload, parameters [billion] and micro-batches).

    Returns
    -------
    float
        Message per rank [bytes].
    """
    s = ev.scenario
    z = s["workload.zero_stage"]
    if s["workload.mfu_basis"] == "modelled":
        g = GradientPrecision(s["workload.gradient_precision"]).bytes
        m = ev["micro_batches_per_step"]
        per_param = float(cm.dp_allreduce_bytes_per_param(z, g, m if math.isfinite(m) else 1.0))
    else:
        per_param = cm.GRAD_BYTES * (cm.ZERO3_SYNC_FACTOR if z >= 3 else 1.0)
    if params_per_rank is not None:
        return per_param * params_per_rank
    shards = s["workload.tensor_parallel"] * s["workload.pipeline_parallel"]
    return per_param * ev["model_parameters_billion"] * 1e9 / shards


def _groups(ev: Evaluation) -> list[tuple[str, float, float, float]]:
    """(label, message per rank [bytes], ranks, stride) of each gradient reduction of a
    step: the modelled step's groups (non-expert gradients over every replica, routed
    experts over the expert data-parallel group), or all gradients over the data-parallel
    ranks with a stated MFU."""
    s = ev.scenario
    t = s["workload.tensor_parallel"]
    d = max(1.0, ev["data_parallel_size"])
    if s["workload.mfu_basis"] != "modelled":
        return [("All", allreduce_message_bytes(ev), d, float(t))]
    from .evaluate import resolve_inputs  # local: evaluate imports this module's callers

    g = cm.gradient_reduction_groups(resolve_inputs(s, {ev.instance.instance: ev.instance}))
    psi, ranks, stride = g["params_per_rank"], g["ranks"], g["stride"]
    if psi[1] <= 0:
        return [("All", allreduce_message_bytes(ev, float(psi[0])), ranks[0], stride[0])]
    return [
        ("Non-expert", allreduce_message_bytes(ev, float(psi[0])), ranks[0], stride[0]),
        ("Routed experts", allreduce_message_bytes(ev, float(psi[1])), ranks[1], stride[1]),
    ]


def allreduce_by_algorithm(ev: Evaluation) -> dict[str, list[Any]]:
    """The scenario's gradient all-reduce under ring, tree and hierarchical algorithms [1].

    Flat ring and double binary tree run at each rank's network share (the bottleneck
    link); hierarchical runs the scale-up link (at its measured efficiency) inside a scale-
    up domain with its phases in series or overlapped as NCCL pipelines them.  A mixture of
    experts reduces two groups, as the modelled step does: the non-expert gradients over
    every replica and the routed experts' over the expert data-parallel group (rows of each,
    ``gradients``).  The overlapped rows add up to the step model's all-reduce
    (``allreduce_ms``; QA pass 19: DeepSeek-V3's table reduced every parameter over every
    replica, 1,342.5 ms against the step's 85.4 ms).  algbw and busbw as NCCL-tests report
    them [2]; NaN where the collective takes no time (one rank).

    Parameters
    ----------
    ev : Evaluation
        The scenario evaluated.

    Returns
    -------
    dict of lists, one entry per :data:`ALGORITHMS`
        ``gradients`` ("All", or "Non-expert" and "Routed experts"), ``algorithm``,
        ``allreduce_ranks`` [count], ``allreduce_message_GB`` [GB], ``collective_ms``
        [ms], ``algbw_GBps`` and ``busbw_GBps`` [GB/s].
    """
    s, inst = ev.scenario, ev.instance
    gbps = s["network.inter_node_gbps"] or inst.efa_gbps
    share = net.network_GBps_per_rank(
        gbps, inst.accelerators_per_node, s["network.inter_node_efficiency"]
    )
    a_net, a_su = s["network.alpha_network_us"], s["network.alpha_scaleup_us"]
    su = (inst.scaleup_GBps or math.nan) / 2.0 * (inst.scaleup_efficiency or 1.0)
    out: dict[str, list[Any]] = {
        k: []
        for k in (
            "gradients",
            "algorithm",
            "allreduce_ranks",
            "allreduce_message_GB",
            "collective_ms",
            "algbw_GBps",
            "busbw_GBps",
        )
    }
    for label, size, d, stride in _groups(ev):
        g_in = min(d, max(1.0, math.floor(inst.scaleup_domain_accels / stride)))
        hier = (size, g_in, max(1.0, d / g_in), su if g_in > 1 else 1.0, share, a_su, a_net)
        seconds = (
            [
                float(net.ring_allreduce_seconds(size, d, share, a_net)),
                float(net.tree_allreduce_seconds(size, d, share, a_net)),
                float(net.hierarchical_allreduce_seconds(*hier)),
                float(net.hierarchical_allreduce_seconds(*hier, overlapped=True)),
            ]
            if d > 1
            else [0.0] * len(ALGORITHMS)  # one rank: nothing to reduce
        )
        out["gradients"] += [label] * len(seconds)
        out["algorithm"] += list(ALGORITHMS)
        out["allreduce_ranks"] += [d] * len(seconds)
        out["allreduce_message_GB"] += [size / 1e9] * len(seconds)
        out["collective_ms"] += [x * 1e3 for x in seconds]
        out["algbw_GBps"] += [
            float(net.algbw_GBps(size, x)) if x > 0 else math.nan for x in seconds
        ]
        out["busbw_GBps"] += [
            float(net.busbw_GBps("all_reduce", size, x, d)) if x > 0 else math.nan for x in seconds
        ]
    return out


def reroute_costs(
    inputs: Mapping[str, Any], events_per_day: float, collective_timeout_seconds: float
) -> dict[str, np.ndarray]:
    """Goodput and dollars per day lost to fabric events at each labelled reroute time [3].

    One vectorised evaluation over :data:`models.network.REROUTE_PRESETS_S`: a stall up to
    the collective timeout costs its duration; a longer one aborts the job and adds a full
    recovery (:func:`models.network.fabric_failures_per_day`).  The loss is against the
    same scenario without fabric events, valued at its cluster cost per day.

    Parameters
    ----------
    inputs : Mapping
        Flat inputs (:func:`models.evaluate.resolve_inputs`), scalars.
    events_per_day : float
        Fabric events per day [1/day].
    collective_timeout_seconds : float
        The collective watchdog's timeout [s].

    Returns
    -------
    dict of arrays, one entry per reroute time
        ``reroute`` (label), ``reroute_seconds`` [s], ``becomes_job_failure`` [bool],
        ``goodput`` [fraction], ``fabric_goodput_loss`` [fraction] and
        ``fabric_cost_usd_per_day`` [USD/day].
    """
    labels = list(net.REROUTE_PRESETS_S)
    secs = np.array([net.REROUTE_PRESETS_S[k] for k in labels])
    out = evaluate_arrays(
        {**inputs, "network.fabric_events_per_day": events_per_day, "network.reroute_seconds": secs}
    )
    none = evaluate_arrays({**inputs, "network.fabric_events_per_day": 0.0})
    g0 = float(np.asarray(none["goodput"]))
    cluster = float(np.asarray(none["cluster_usd_per_day"]))
    g = np.broadcast_to(np.asarray(out["goodput"], float), secs.shape)
    return {
        "reroute": np.array(labels),
        "reroute_seconds": secs,
        "becomes_job_failure": secs > collective_timeout_seconds,
        "goodput": g,
        "fabric_goodput_loss": g0 - g,
        "fabric_cost_usd_per_day": (g0 - g) * cluster,
    }


def fabric_changes(inputs: Mapping[str, Any], inter_node_gbps: float) -> dict[str, np.ndarray]:
    """Days and dollars per day of each :data:`FABRIC_CHANGES` against the scenario.

    One vectorised evaluation; each change's savings per day are those of
    ``goodput compare`` (:func:`models.evaluate.productive_time_savings`): the value, at the
    scenario's cluster cost, of the shorter (or longer) productive training time.  Under an
    end-to-end MFU the network does not change the step, and every row is 0; without a step
    time (the configuration cannot run) every saving is NaN.

    Parameters
    ----------
    inputs : Mapping
        Flat inputs (:func:`models.evaluate.resolve_inputs`), scalars.
    inter_node_gbps : float
        The scenario's scale-out bandwidth per node [Gb/s] (the catalog's when the
        scenario leaves it open).

    Returns
    -------
    dict of arrays, one entry per change
        ``change`` (label), ``inter_node_gbps`` [Gb/s], ``alpha_network_us`` [µs],
        ``step_seconds`` [s], ``time_to_train_days`` [days], ``days_change`` [days, changed
        minus the scenario's] and ``savings_usd_per_day`` [USD/day].
    """
    alpha = float(np.asarray(inputs["network.alpha_network_us"]))
    current = {"network.inter_node_gbps": float(inter_node_gbps), "network.alpha_network_us": alpha}
    n = len(FABRIC_CHANGES) + 1
    cols = {k: np.full(n, v) for k, v in current.items()}
    for i, (_, key, factor) in enumerate(FABRIC_CHANGES, start=1):
        cols[key][i] = current[key] * factor
    out = evaluate_arrays({**inputs, **cols})

    def col(key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(out[key], float), (n,))

    days, g = col("time_to_train_days"), col("goodput")
    productive = col("steps_to_train") * col("step_seconds")
    savings, _ = productive_time_savings(
        g[0], g[1:], productive[0], productive[1:], col("cluster_usd_per_day")[0]
    )
    # no step time (memory, layout, a catalog gap): no saving either, not 0.0 ("no change")
    savings = np.where(np.isfinite(productive[1:]) & np.isfinite(productive[0]), savings, np.nan)
    return {
        "change": np.array([label for label, _, _ in FABRIC_CHANGES]),
        "inter_node_gbps": cols["network.inter_node_gbps"][1:],
        "alpha_network_us": cols["network.alpha_network_us"][1:],
        "step_seconds": col("step_seconds")[1:],
        "time_to_train_days": days[1:],
        "days_change": days[1:] - days[0],
        "savings_usd_per_day": np.asarray(savings, float),
    }
