"""Tables behind the Network page: collectives vs nodes per fabric, algorithms, reroutes."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from goodput_lab.models import Evaluation, Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models import network as net
from goodput_lab.models.catalog import Instance


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
    scale-up bandwidth) give NaN rows (dropped).
    """
    frames = []
    for name, inst in catalog.items():
        hi = max(2, max_accelerators // inst.accelerators_per_node)
        nodes = np.unique(np.round(np.geomspace(1, hi, n)))
        out = evaluate_arrays({**_inputs(scenario, catalog, name), "cluster.nodes": nodes})
        frames.append(
            pl.DataFrame(
                {
                    "instance": [name] * nodes.size,
                    "fabric": [f"{name} ({inst.efa_gbps:g} Gb/s EFA)"] * nodes.size,
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


def algorithm_table(scenario: Scenario, ev: Evaluation) -> pl.DataFrame:
    """The scenario's gradient all-reduce under ring, tree and hierarchical algorithms.

    Message = bf16 gradient shard 2·N/(TP·PP) bytes per rank over the data-parallel ranks;
    flat ring and tree run at each rank's network share (the bottleneck link), hierarchical
    uses the scale-up link inside a node.  algbw and busbw as NCCL-tests report them.
    """
    inst = ev.instance
    t = scenario["workload.tensor_parallel"]
    p = scenario["workload.pipeline_parallel"]
    size = 2.0 * scenario["workload.params_billion"] * 1e9 / (t * p)
    d = max(1.0, ev["data_parallel_size"])
    share = net.network_GBps_per_rank(
        inst.efa_gbps, inst.accelerators_per_node, scenario["network.inter_node_efficiency"]
    )
    a_net = scenario["network.alpha_network_us"]
    a_su = scenario["network.alpha_scaleup_us"]
    su = (inst.scaleup_GBps or math.nan) / 2.0
    g_in = min(d, max(1.0, math.floor(inst.scaleup_domain_accels / t)))
    times = {
        "Ring (flat)": net.ring_allreduce_seconds(size, d, share, a_net),
        "Double binary tree": net.tree_allreduce_seconds(size, d, share, a_net),
        "Hierarchical (scale-up + network)": net.hierarchical_allreduce_seconds(
            size, g_in, max(1.0, d / g_in), su if g_in > 1 else 1.0, share, a_su, a_net
        ),
    }
    rows = []
    for name, seconds in times.items():
        rows.append(
            {
                "algorithm": name,
                "allreduce_ranks": d,
                "allreduce_message_GB": size / 1e9,
                "collective_ms": seconds * 1e3,
                "algbw_GBps": net.algbw_GBps(size, seconds) if seconds > 0 else math.nan,
                "busbw_GBps": net.busbw_GBps("all_reduce", size, seconds, d)
                if seconds > 0
                else math.nan,
            }
        )
    return pl.DataFrame(rows)


def reroute_comparison(
    scenario: Scenario, catalog: dict[str, Instance], events_per_day: float
) -> pl.DataFrame:
    """Goodput and money lost per day for each labelled reroute time (docs/references.md#fabric-reroutes-and-collective-timeouts).

    Stalls up to the collective timeout cost their duration; longer ones abort the job and
    add a full recovery (:func:`models.network.fabric_failures_per_day`).
    """
    inputs = resolve_inputs(scenario, catalog)
    labels = list(net.REROUTE_PRESETS_S)
    secs = np.array([net.REROUTE_PRESETS_S[k] for k in labels])
    out = evaluate_arrays(
        {
            **inputs,
            "network.fabric_events_per_day": events_per_day,
            "network.reroute_seconds": secs,
        }
    )
    none = evaluate_arrays({**inputs, "network.fabric_events_per_day": 0.0})
    g0 = float(np.asarray(none["goodput"]))
    cluster = float(np.asarray(none["cluster_usd_per_day"]))
    g = np.broadcast_to(out["goodput"], secs.shape)
    return pl.DataFrame(
        {
            "reroute": labels,
            "reroute_seconds": secs,
            "becomes_job_failure": secs > scenario["network.collective_timeout_seconds"],
            "goodput": g,
            "goodput_pct": g * 100,
            "fabric_goodput_loss": g0 - g,
            "goodput_loss_points": (g0 - g) * 100,
            "fabric_cost_usd_per_day": (g0 - g) * cluster,
        }
    )


ALGORITHM_COLUMNS = (
    ("algorithm", "Algorithm"),
    "allreduce_ranks",
    "allreduce_message_GB",
    "collective_ms",
    "algbw_GBps",
    "busbw_GBps",
)
REROUTE_COLUMNS = (
    ("reroute", "Reroute (labelled input)"),
    "reroute_seconds",
    ("outcome", "Outcome"),
    "goodput",
    "fabric_goodput_loss",
    "fabric_cost_usd_per_day",
)
