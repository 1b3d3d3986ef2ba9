"""Instance comparison: time and cost to train one workload on every catalog instance.

For each instance the scenario's workload, reliability, recovery, checkpoint and network
settings are kept and only the node type changes.  With a deadline, every node count from
1 to ``max_accelerators / accelerators_per_node`` (keeping TP × PP whole) is evaluated in one
vectorised :func:`models.evaluate.evaluate_arrays` call and the count with the fewest
node-hours that finishes in time is chosen; cost = node-hours × price, so that choice is the
cheapest one whatever the price, and an instance without a catalog price still gets its
node-hours and the *break-even price* at which it would beat the cheapest priced instance.
Prices are never invented: an unknown price stays unknown (``price_known = False``).

MFU: each accelerator's catalog default (``mfu_default`` with ``source_mfu``), bounded by
the measured max achievable matmul fraction (REFERENCES.md §5), unless the caller passes one.
The scenario's ``workload.mfu_basis`` applies to it.  Under ``modelled`` (default) the MFU
is not used: each instance's step time is modelled from its specs (models.compute).  Catalog
defaults are published end-to-end figures, so under ``end_to_end`` time = 6ND / (accelerators · peak · MFU
· goodput) and the communication and bubble costs are reported inside the compute cost
(``cost_*_within_mfu_usd``); under ``compute_only`` they are added (``cost_communication_usd``,
``cost_bubble_usd``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .catalog import Instance
from .compute import infeasibility_reason
from .errors import ValidationError
from .evaluate import evaluate_arrays, resolve_inputs
from .scenario import Scenario

REFERENCE_INSTANCE = "p5.48xlarge"
DEFAULT_MAX_ACCELERATORS = 100_000


def check_mfu(inst: Instance, mfu: float) -> float:
    """Validate a user MFU for ``inst``: 0 < MFU ≤ max achievable matmul fraction (if known)."""
    key = f"mfu[{inst.instance}]"
    try:
        x = float(mfu)
    except (TypeError, ValueError):
        raise ValidationError(key, f"{mfu!r} is not a number (a number in (0, 1])") from None
    hi = inst.max_matmul_fraction if inst.max_matmul_fraction is not None else 1.0
    if not (math.isfinite(x) and 0.0 < x <= hi):
        why = (
            f" (the measured max achievable matmul fraction of {inst.accelerator})"
            if inst.max_matmul_fraction is not None
            else ""
        )
        raise ValidationError(key, f"{mfu!r} is out of range (a number in (0, {hi:g}]{why})")
    return x


def check_price(name: str, price: Any) -> float:
    key = f"price[{name}]"
    try:
        x = float(price)
    except (TypeError, ValueError):
        raise ValidationError(key, f"{price!r} is not a number (in (0, 10000] USD/h)") from None
    if not (math.isfinite(x) and 0.0 < x <= 10_000.0):
        raise ValidationError(key, f"{price!r} is out of range (in (0, 10000] USD/h)")
    return x


def _price(scenario: Scenario, inst: Instance, prices: Mapping[str, float]) -> tuple[float, str]:
    if inst.instance in prices and prices[inst.instance] is not None:
        return check_price(inst.instance, prices[inst.instance]), "user"
    own = scenario["pricing.usd_per_instance_hour"]
    if inst.instance == scenario["cluster.instance"] and own is not None:
        return float(own), "scenario"
    if inst.usd_per_hour is not None:
        return float(inst.usd_per_hour), f"catalog ({inst.price_as_of})"
    return math.nan, "needs a price"


def _node_grid(inst: Instance, scenario: Scenario, max_accelerators: int) -> np.ndarray:
    tp_pp = int(scenario["workload.tensor_parallel"]) * int(scenario["workload.pipeline_parallel"])
    k = inst.accelerators_per_node
    step = tp_pp // math.gcd(tp_pp, k)  # nodes·k must be a multiple of TP·PP
    hi = max(step, max_accelerators // k)
    return np.arange(step, hi + 1, step, dtype=float)


def compare_instances(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    *,
    deadline_days: float | None = None,
    prices: Mapping[str, float] | None = None,
    mfus: Mapping[str, float] | None = None,
    max_accelerators: int = DEFAULT_MAX_ACCELERATORS,
) -> list[dict[str, Any]]:
    """One row per catalog instance: nodes, time and cost to train, overheads, ratios.

    Without ``deadline_days`` each instance gets the scenario's accelerator count (rounded
    up to whole nodes).  With it, each gets the node count with the fewest node-hours that
    finishes within the deadline (``meets_deadline``).  ``cheapest`` marks the lowest cost
    among rows with a known price that are feasible (and meet the deadline, if one is set).
    Costs are NaN for instances without a price; ``node_hours`` and
    ``break_even_usd_per_hour`` are still given.
    """
    prices = dict(prices or {})
    mfus = dict(mfus or {})
    if deadline_days is not None and not (
        math.isfinite(deadline_days) and 0 < deadline_days <= 3650
    ):
        raise ValidationError("deadline_days", f"{deadline_days!r} is out of range (0, 3650]")
    accels_now = (
        scenario["cluster.nodes"] * catalog[scenario["cluster.instance"]].accelerators_per_node
    )
    rows: list[dict[str, Any]] = []
    for inst in catalog.values():
        price, price_source = _price(scenario, inst, prices)
        mfu = check_mfu(inst, mfus.get(inst.instance, inst.mfu_default))
        sc = scenario.replace(
            {"cluster.instance": inst.instance, "pricing.usd_per_instance_hour": 1.0}
        )
        x = resolve_inputs(sc, catalog)
        x["workload.mfu"] = mfu
        if deadline_days is None:
            grid = np.array([float(max(1, math.ceil(accels_now / inst.accelerators_per_node)))])
        else:
            grid = _node_grid(inst, scenario, max_accelerators)
        x["cluster.nodes"] = grid
        out = evaluate_arrays(x)  # at 1 USD/instance-hour: cost_to_train_usd = node-hours
        days = np.asarray(out["time_to_train_days"], float)
        node_hours = np.asarray(out["cost_to_train_usd"], float)  # USD at 1 USD/instance-h
        ok = np.isfinite(days) & np.isfinite(node_hours)
        meets = ok & (days <= deadline_days) if deadline_days is not None else ok
        if deadline_days is not None and np.any(meets):
            i = int(np.flatnonzero(meets)[np.argmin(node_hours[meets])])
        elif deadline_days is not None and np.any(ok):
            i = int(np.flatnonzero(ok)[np.argmin(days[ok])])  # fastest possible, still late
        else:
            i = 0
        nodes = float(grid[i])
        reason = ""
        if not ok[i]:
            reason = (
                infeasibility_reason({**x, "cluster.nodes": nodes}, scenario["workload.mfu_basis"])
                or "cannot be modelled with these inputs"
            )
        elif deadline_days is not None and not meets[i]:
            reason = (
                f"misses the {deadline_days:g}-day deadline at any node count up to "
                f"{grid[-1]:,.0f} (fastest {days[i]:.1f} days at {nodes:,.0f} nodes)"
            )
        if not reason and not math.isfinite(price):
            reason = "no catalog price: enter your price to compare cost"

        def at(key: str, scale: float = 1.0, _out=out, _i=i, _shape=grid.shape) -> float:
            return float(np.broadcast_to(np.asarray(_out[key], float), _shape)[_i]) * scale

        row: dict[str, Any] = {
            "instance": inst.instance,
            "accelerator": inst.accelerator,
            "accelerators_per_node": inst.accelerators_per_node,
            "nodes": nodes,
            "accelerators": nodes * inst.accelerators_per_node,
            "usd_per_instance_hour": price if math.isfinite(price) else None,
            "price_known": math.isfinite(price),
            "price_source": price_source,
            "mfu": mfu,
            "mfu_source": "user" if inst.instance in mfus else inst.source_mfu,
            "mfu_basis": scenario["workload.mfu_basis"],
            "bf16_dense_tflops": inst.bf16_dense_tflops,
            "feasible": bool(ok[i]),
            "meets_deadline": bool(meets[i]),
            "reason": reason,
            "min_nodes_to_fit": at("min_nodes_to_fit"),
            "goodput": at("goodput"),
            "scaling_efficiency": at("scaling_efficiency"),
            "effective_mfu": at("effective_mfu"),
            "step_seconds": at("step_seconds"),
            "allreduce_ms": at("allreduce_ms"),
            "time_to_train_days": at("time_to_train_days"),
            "node_hours": at("cost_to_train_usd"),
            "cost_to_train_usd": at("cost_to_train_usd", price),
            "cost_compute_usd": at("cost_to_train_compute_usd", price),
            "cost_communication_usd": at("cost_to_train_communication_usd", price),
            "cost_bubble_usd": at("cost_to_train_bubble_usd", price),
            # end_to_end: informational parts of cost_compute_usd (0 under compute_only)
            "cost_communication_within_mfu_usd": at("cost_within_mfu_communication_usd", price),
            "cost_bubble_within_mfu_usd": at("cost_within_mfu_bubble_usd", price),
            "exposed_comm_fraction_of_step": at("exposed_comm_fraction_of_step"),
            "compute_phase_mfu": at("compute_phase_mfu"),
            "mfu_gap_exceeded": bool(at("mfu_gap_exceeded") > 0.5),
            "cost_failure_and_checkpoint_usd": at("cost_to_train_goodput_loss_usd", price),
            "cost_spares_usd": at("cost_to_train_spares_usd", price),
            "usd_per_1e18_useful_flops": at("usd_per_1e18_useful_flops", price),
            "training_flops": at("training_flops"),
        }
        rows.append(row)

    # peak-spec vs modeled ratios against the reference instance (per accelerator)
    ref = next((r for r in rows if r["instance"] == REFERENCE_INSTANCE), rows[0])
    for r in rows:
        r["peak_ratio_vs_reference"] = r["bf16_dense_tflops"] / ref["bf16_dense_tflops"]
        speed = _per_accel_speed(r)
        ref_speed = _per_accel_speed(ref)
        r["modeled_ratio_vs_reference"] = speed / ref_speed if ref_speed > 0 else math.nan
        r["reference_instance"] = ref["instance"]

    eligible = [
        r
        for r in rows
        if r["feasible"] and r["price_known"] and (deadline_days is None or r["meets_deadline"])
    ]
    best = min(eligible, key=lambda r: r["cost_to_train_usd"]) if eligible else None
    for r in rows:
        r["cheapest"] = best is not None and r is best
        r["break_even_usd_per_hour"] = (
            best["cost_to_train_usd"] / r["node_hours"]
            if best is not None
            and r["feasible"]
            and r["node_hours"] > 0
            and (deadline_days is None or r["meets_deadline"])
            else math.nan
        )
    return rows


def _per_accel_speed(row: Mapping[str, Any]) -> float:
    """Useful FLOP/s per accelerator over the whole run (goodput, comm and bubble included)."""
    d = row["time_to_train_days"]
    if not (math.isfinite(d) and d > 0):
        return math.nan
    return row["training_flops"] / (d * 86_400.0 * row["accelerators"])
