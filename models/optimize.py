"""Recommendations: checkpoint interval, hot spares and instance type at least cost.

All three answer "what should we change, and what is it worth per day?" with one objective
that matches :func:`models.evaluate.compare`: the money lost per day,

    lost_usd_per_day = (1 − goodput) · cluster_usd_per_day + spare_usd_per_day,

so that "saves X per day versus the current scenario" here is the same number ``compare``
reports for the two scenarios.  Inputs are the flat numeric inputs of
:func:`models.evaluate.evaluate_arrays` (see :func:`models.evaluate.resolve_inputs`).

* Checkpoint interval: continuous, bounded; solved with ``scipy.optimize.minimize_scalar``
  (bounded Brent) on Daly's exact goodput [1]; the closed form (Lambert W) in
  :func:`models.goodput.exact_optimal_interval_minutes` is the cross-check.
* Hot spares: discrete; every count 0..max is evaluated in one vectorised call (the
  M/G/∞ spare-pool model of :func:`models.reliability.probability_no_spare`).  The
  break-even failure rate at which ``s`` spares pay for themselves is a root found with
  ``scipy.optimize.brentq``.
* Instance type: for each catalog instance, cost to train the workload (6·N·D FLOPs,
  Kaplan et al. [2]) at the scenario's MFU and that instance's goodput; with a deadline, the
  fewest nodes of each type that finish in time, then the cheapest type.

References
----------
[1] J. T. Daly, Future Generation Computer Systems 22(3):303-312, 2006.
    doi:10.1016/j.future.2004.11.016
[2] J. Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361, 2020
    (training compute C ≈ 6·N·D FLOPs).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize

from .catalog import Instance
from .evaluate import evaluate_arrays

SECONDS_PER_DAY = 86_400.0
FLOPS_PER_PARAM_TOKEN = 6.0  # Kaplan et al. 2020, C ≈ 6·N·D
MAX_INTERVAL_MINUTES = 10_080.0
MIN_INTERVAL_MINUTES = 0.1


def _fixed_interval(inputs: Mapping[str, Any], tau_minutes) -> dict[str, Any]:
    return {
        **inputs,
        "checkpoint.interval_minutes": tau_minutes,
        "checkpoint.interval_optimal": False,
    }


def _lost(inputs: Mapping[str, Any]) -> np.ndarray:
    return np.asarray(evaluate_arrays(inputs)["lost_usd_per_day"], dtype=float)


# --------------------------------------------------------------------------- checkpoint
@dataclass(frozen=True)
class IntervalRecommendation:
    """Result of :func:`recommend_checkpoint_interval` (minutes, fractions, USD/day)."""

    interval_minutes: float
    goodput: float
    current_interval_minutes: float
    current_goodput: float
    lost_usd_per_day: float
    current_lost_usd_per_day: float
    savings_usd_per_day: float
    closed_form_minutes: float


def recommend_checkpoint_interval(
    inputs: Mapping[str, Any],
    bounds_minutes: tuple[float, float] = (MIN_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES),
) -> IntervalRecommendation:
    """Checkpoint interval τ [min] that maximises Daly's exact goodput (minimises lost USD/day).

    Minimises g(τ)⁻¹ = T_w/T_s = e^{λR}·expm1(λ(τ+δ))/(λτ) [1] with bounded Brent
    (``scipy.optimize.minimize_scalar``) over ``bounds_minutes``, searched in log τ so that
    both short and week-long optima are found.  Only τ changes, so the cluster cost is
    fixed and the cheapest τ is the highest-goodput τ.

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> r = recommend_checkpoint_interval(resolve_inputs(load_preset("aws-16k-h100")))
    >>> round(r.interval_minutes, 1), round(r.closed_form_minutes, 1)
    (26.2, 26.2)
    """
    lo, hi = (math.log(b) for b in bounds_minutes)

    def objective(log_tau: float) -> float:
        return float(_lost(_fixed_interval(inputs, math.exp(log_tau))))

    res = optimize.minimize_scalar(
        objective, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6}
    )
    tau = float(math.exp(res.x))
    best = evaluate_arrays(_fixed_interval(inputs, tau))
    now = evaluate_arrays(inputs)
    return IntervalRecommendation(
        interval_minutes=tau,
        goodput=float(best["goodput"]),
        current_interval_minutes=float(now["checkpoint_interval_minutes"]),
        current_goodput=float(now["goodput"]),
        lost_usd_per_day=float(best["lost_usd_per_day"]),
        current_lost_usd_per_day=float(now["lost_usd_per_day"]),
        savings_usd_per_day=float(now["lost_usd_per_day"] - best["lost_usd_per_day"]),
        closed_form_minutes=float(now["optimal_checkpoint_interval_minutes"]),
    )


# --------------------------------------------------------------------------- spares
def spare_savings_usd_per_day(inputs: Mapping[str, Any], max_spares: int = 64) -> np.ndarray:
    """Net savings per day of 0..max_spares hot spares versus none [USD/day], one per count.

    savings(s) = lost(0) − lost(s) = (g(s) − g(0))·cluster_usd_per_day − s·price·24, the
    ``compare`` definition with the spare-less scenario as baseline.  Vectorised over ``s``.

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> s = spare_savings_usd_per_day(resolve_inputs(load_preset("aws-16k-h100")), 3)
    >>> [round(float(v)) for v in s]
    [0, -1716, -1501, 1295]
    """
    counts = np.arange(int(max_spares) + 1, dtype=float)
    lost = _lost({**inputs, "cluster.spare_nodes": counts})
    return lost[0] - lost


@dataclass(frozen=True)
class SpareRecommendation:
    """Result of :func:`recommend_spares`."""

    spares: int
    current_spares: int
    savings_vs_none_usd_per_day: np.ndarray = field(repr=False)
    savings_usd_per_day: float = 0.0  # of the recommendation versus the current count
    break_even_spares: int = 0  # largest count whose net savings vs none are still >= 0
    marginal_usd_per_day: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)


def recommend_spares(inputs: Mapping[str, Any], max_spares: int = 200) -> SpareRecommendation:
    """Hot-spare count that minimises lost USD/day, by exhaustive search over 0..max_spares.

    The objective is discrete (whole nodes), so every count is evaluated (one vectorised
    call).  ``marginal_usd_per_day[k]`` is what the k-th spare adds (value of its goodput
    minus its price); spares "pay for themselves" up to ``break_even_spares``, the largest
    count whose net savings against no spares are still non-negative.
    """
    current = round(float(np.asarray(inputs["cluster.spare_nodes"])))
    top = max(int(max_spares), current)
    sav = spare_savings_usd_per_day(inputs, top)
    best = int(np.argmax(sav))
    nonneg = np.flatnonzero(sav >= -1e-9)
    return SpareRecommendation(
        spares=best,
        current_spares=current,
        savings_vs_none_usd_per_day=sav,
        savings_usd_per_day=float(sav[best] - sav[current]),
        break_even_spares=int(nonneg.max()),
        marginal_usd_per_day=np.diff(sav),
    )


def spare_break_even_rate_per_day(
    inputs: Mapping[str, Any], spares: int = 1, max_rate_per_day: float = 1.0
) -> float:
    """Lowest node failure rate [per node-day] at which ``spares`` hot spares pay for themselves.

    Solves savings(s; r) = 0 for the rate r with ``scipy.optimize.brentq`` after bracketing
    the first sign change on a log grid; ``nan`` when they never pay within ``max_rate``.
    At r = 0 spares only cost money, so savings start negative.

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> r = spare_break_even_rate_per_day(resolve_inputs(load_preset("aws-16k-h100")), 1)
    >>> round(r * 100, 4)  # % of nodes per day
    0.0176
    """
    s = float(spares)

    def savings(rate):
        rate = np.asarray(rate, dtype=float)
        base = {**inputs, "reliability.node_failure_rate_per_day": rate}
        return _lost({**base, "cluster.spare_nodes": 0.0}) - _lost(
            {**base, "cluster.spare_nodes": s}
        )

    grid = np.concatenate([[0.0], np.geomspace(1e-7, max_rate_per_day, 400)])
    val = savings(grid)
    idx = np.flatnonzero((val[:-1] < 0) & (val[1:] >= 0))
    if idx.size == 0:
        return float("nan")
    i = int(idx[0])
    return float(optimize.brentq(lambda r: float(savings(r)), grid[i], grid[i + 1], xtol=1e-12))


# --------------------------------------------------------------------------- instances
def train_flops(params_billion, tokens_trillion):
    """Training compute C = 6·N·D [FLOP] (Kaplan et al. 2020 [2]).

    Examples
    --------
    >>> f"{train_flops(405.0, 15.6):.3e}"  # Llama 3 405B: 3.8e25 FLOPs reported
    '3.791e+25'
    """
    out = FLOPS_PER_PARAM_TOKEN * np.asarray(params_billion, float) * 1e9
    out = out * np.asarray(tokens_trillion, float) * 1e12
    return float(out) if np.ndim(out) == 0 else out


def time_and_cost_to_train(inputs: Mapping[str, Any], metrics: Mapping[str, Any] | None = None):
    """(days, USD) to train the workload; uses models.compute's outputs when present.

    Without them: days = 6·N·D / (nodes·accelerators·bf16 TFLOPs·1e12·MFU·goodput·86400),
    cost = days · total_usd_per_day (cluster plus spares).  Arrays broadcast.
    """
    m = metrics if metrics is not None else evaluate_arrays(inputs)
    if "time_to_train_days" in m and "cost_to_train_usd" in m:
        return np.asarray(m["time_to_train_days"], float), np.asarray(m["cost_to_train_usd"], float)
    flops_per_day = (
        np.asarray(inputs["cluster.nodes"], float)
        * np.asarray(inputs["instance.accelerators_per_node"], float)
        * np.asarray(inputs["instance.bf16_dense_tflops"], float)
        * 1e12
        * np.asarray(inputs["workload.mfu"], float)
        * np.asarray(m["goodput"], float)
        * SECONDS_PER_DAY
    )
    need = train_flops(inputs["workload.params_billion"], inputs["workload.tokens_trillion"])
    with np.errstate(divide="ignore"):
        days = np.where(
            flops_per_day > 0, need / np.where(flops_per_day > 0, flops_per_day, 1), np.inf
        )
    return days, days * np.asarray(m["total_usd_per_day"], float)


def instance_inputs(
    inputs: Mapping[str, Any], inst: Instance, current_instance: str, nodes=None
) -> dict[str, Any] | None:
    """The scenario's inputs moved to instance ``inst`` (same accelerator count by default).

    Every ``instance.*`` input is replaced by the catalog row's attribute of that name
    (NaN when the catalog does not know it).

    The scenario's own price applies only to its own instance; other types use the catalog's
    on-demand price.  ``None`` when that price is unknown.
    """
    if inst.instance == current_instance:
        price = inputs["pricing.usd_per_instance_hour"]
    elif inst.usd_per_hour is None:
        return None
    else:
        price = inst.usd_per_hour
    if nodes is None:
        accels = float(np.asarray(inputs["cluster.nodes"])) * float(
            np.asarray(inputs["instance.accelerators_per_node"])
        )
        nodes = max(1, math.ceil(accels / inst.accelerators_per_node - 1e-9))
    specs = {}
    for key in inputs:  # every instance.* spec the model reads, from the catalog row
        if key.startswith("instance."):
            value = getattr(inst, key.removeprefix("instance."), None)
            specs[key] = float("nan") if value is None else value
    specs["instance.accelerators_per_node"] = inst.accelerators_per_node
    specs["instance.bf16_dense_tflops"] = inst.bf16_dense_tflops
    return {
        **inputs,
        **specs,
        "cluster.nodes": nodes,
        "pricing.usd_per_instance_hour": float(price),
    }


def cheapest_nodes_for_deadline(
    inputs: Mapping[str, Any], deadline_days: float, max_nodes: int = 20_000, coarse: int = 400
) -> int | None:
    """Node count in 1..max_nodes with the least cost to train among those meeting a deadline.

    Two passes, both vectorised: ``coarse`` log-spaced node counts locate the feasible runs,
    then every whole count is evaluated in the gap before each run's first feasible point
    (where the deadline is first met) and around the coarse cheapest point.  This equals the
    exhaustive search whenever the cost to train changes monotonically between neighbouring
    coarse points (tests check it against all 20,000 counts).  ``None`` if none is feasible.
    """
    top = int(max_nodes)
    n = np.unique(np.round(np.geomspace(1, top, coarse)))
    days, cost = time_and_cost_to_train({**inputs, "cluster.nodes": n})
    ok = np.asarray(days) <= deadline_days
    if not ok.any():
        return None
    cost = np.where(ok, np.asarray(cost, float), np.inf)
    spans = []
    starts = np.flatnonzero(ok & ~np.concatenate([[False], ok[:-1]]))
    for i in starts:  # the deadline is first met somewhere in (n[i-1], n[i]]
        spans.append((n[i - 1] + 1 if i > 0 else 1.0, n[i]))
    j = int(np.argmin(cost))
    spans.append((n[max(j - 1, 0)], n[min(j + 1, n.size - 1)]))
    fine = np.unique(np.concatenate([np.arange(lo, hi + 1) for lo, hi in spans]))
    d2, c2 = time_and_cost_to_train({**inputs, "cluster.nodes": fine})
    c2 = np.where(np.asarray(d2) <= deadline_days, np.asarray(c2, float), np.inf)
    k = int(np.argmin(c2))
    if c2[k] <= cost[j]:
        return int(fine[k])
    return int(n[j])


def rank_instances(
    inputs: Mapping[str, Any],
    catalog: Mapping[str, Instance],
    current_instance: str,
    deadline_days: float | None = None,
    max_nodes: int = 20_000,
) -> list[dict[str, Any]]:
    """Every catalog instance with its nodes, goodput, days and USD to train, cheapest first.

    Without a deadline each type gets the scenario's accelerator count.  With one, each type
    gets the node count in 1..max_nodes with the lowest cost to train among those that meet
    the deadline (:func:`cheapest_nodes_for_deadline`).  Rows with ``feasible = False`` (no price, or deadline missed)
    sort last, with a ``reason``; so do types whose time to train the model cannot estimate
    (NaN: a catalog figure it needs is unknown).
    """
    rows: list[dict[str, Any]] = []
    for inst in catalog.values():
        base = instance_inputs(inputs, inst, current_instance)
        row: dict[str, Any] = {
            "instance": inst.instance,
            "accelerator": inst.accelerator,
            "feasible": True,
            "reason": "",
        }
        if base is None:
            rows.append({**row, "feasible": False, "reason": "no catalog price"})
            continue
        d0, c0 = time_and_cost_to_train(base)
        if not (np.isfinite(d0) and np.isfinite(c0)):
            reason = "time to train unknown (the catalog lacks figures the model needs)"
            rows.append({**row, "feasible": False, "reason": reason})
            continue
        if deadline_days is not None:
            found = cheapest_nodes_for_deadline(base, deadline_days, max_nodes)
            if found is None:
                rows.append(
                    {
                        **row,
                        "feasible": False,
                        "reason": f"misses the deadline at up to {max_nodes:,} nodes",
                    }
                )
                continue
            base = {**base, "cluster.nodes": float(found)}
        m = evaluate_arrays(base)
        days, cost = time_and_cost_to_train(base, m)
        row.update(
            nodes=round(float(np.asarray(base["cluster.nodes"]))),
            accelerators=round(
                float(np.asarray(base["cluster.nodes"])) * inst.accelerators_per_node
            ),
            usd_per_instance_hour=float(base["pricing.usd_per_instance_hour"]),
            goodput=float(m["goodput"]),
            total_usd_per_day=float(m["total_usd_per_day"]),
            time_to_train_days=float(days),
            cost_to_train_usd=float(cost),
            usd_per_productive_accelerator_hour=float(
                m["total_usd_per_day"]
                / (
                    float(m["goodput"])
                    * float(np.asarray(base["cluster.nodes"]))
                    * inst.accelerators_per_node
                    * 24.0
                )
            )
            if float(m["goodput"]) > 0
            else float("inf"),
        )
        rows.append(row)
    return sorted(rows, key=lambda r: (not r["feasible"], r.get("cost_to_train_usd", math.inf)))


# --------------------------------------------------------------------------- file system
#: FSx for Lustre sizes: 1.2 TiB, then steps of 2.4 TiB (AWS FSx API: 1,200 GiB, 2,400 GiB
#: and increments of 2,400 GiB).
FILE_SYSTEM_FIRST_TiB = 1.2
FILE_SYSTEM_STEP_TiB = 2.4


@dataclass(frozen=True)
class FileSystemRecommendation:
    """Result of :func:`recommend_file_system` (TiB, MB/s/TiB, seconds, USD/day).

    ``table`` holds every candidate as arrays: ``provisioned_TiB``,
    ``throughput_MBps_per_TiB``, ``storage_usd_per_day``, ``save_seconds``,
    ``durable_write_seconds``, ``goodput``, ``lost_usd_per_day`` (NaN where the file system
    cannot hold the retained checkpoints).
    """

    provisioned_TiB: float
    throughput_MBps_per_TiB: float
    lost_usd_per_day: float
    storage_usd_per_day: float
    goodput: float
    save_seconds: float
    current_provisioned_TiB: float
    current_throughput_MBps_per_TiB: float
    current_lost_usd_per_day: float
    current_storage_usd_per_day: float
    current_goodput: float
    current_save_seconds: float
    savings_usd_per_day: float
    min_TiB_for_retention: float
    at_search_limit: bool
    table: dict[str, np.ndarray] = field(repr=False)


def file_system_sizes_TiB(max_TiB: float) -> np.ndarray:
    """Purchasable FSx for Lustre sizes up to ``max_TiB``: 1.2, 2.4, 4.8, 7.2, ... [TiB]."""
    n = math.floor(max(max_TiB, FILE_SYSTEM_STEP_TiB) / FILE_SYSTEM_STEP_TiB + 1e-9)
    steps = np.round(FILE_SYSTEM_STEP_TiB * np.arange(1, n + 1), 6)
    return np.concatenate([[FILE_SYSTEM_FIRST_TiB], steps])


def recommend_file_system(
    inputs: Mapping[str, Any],
    storage_prices: Mapping | None = None,
    max_TiB: float | None = None,
) -> FileSystemRecommendation:
    """The shared file system (size and throughput tier) with the least lost USD/day.

    A larger or faster file system writes and reads checkpoints faster (its aggregate
    bandwidth is throughput per TiB × TiB, :func:`models.checkpoint.tier_transfer_seconds`),
    which shortens blocking saves, restores and the staleness of asynchronous ones, but it
    costs more per GB-month (:func:`models.pricing.file_system_usd_per_day`).  Every
    purchasable size up to ``max_TiB`` (default: 3 × the current size, at least 120 TiB) and
    every throughput tier with a price in the storage price table is evaluated in one
    vectorised call of the chain; the objective is ``lost_usd_per_day`` (goodput loss +
    spares + storage), as everywhere in this module.  Sizes that cannot hold
    ``storage.retained_checkpoints`` full checkpoints are excluded.  Only meaningful when the
    shared file system is the durable tier (``checkpoint.durable_tier = 'shared_fs'``);
    with ``checkpoint.timings = 'measured'`` level-1 saves do not depend on it, so only the
    price (and a two-level strategy's durable writes) change.
    """
    from . import pricing as pr

    if str(inputs.get("checkpoint.durable_tier", "shared_fs")) != "shared_fs":
        raise ValueError("the durable tier is not the shared file system")
    prices = storage_prices if storage_prices is not None else pr.load_storage_prices()
    tiers = pr.fsx_tiers(prices)
    now = evaluate_arrays(inputs)
    tib0 = float(np.asarray(inputs["tier.shared_fs.provisioned_TiB"]))
    tp0 = float(np.asarray(inputs["tier.shared_fs.throughput_MBps_per_TiB"]))
    top = max_TiB if max_TiB is not None else max(3.0 * tib0, 120.0)
    sizes = file_system_sizes_TiB(top)
    tps = np.array(sorted(tiers))
    tib, tp = np.meshgrid(sizes, tps, indexing="ij")
    tib, tp = tib.ravel(), tp.ravel()
    agg = tp * tib / 1000.0  # GB/s
    grid = {
        **inputs,
        "tier.shared_fs.provisioned_TiB": tib,
        "tier.shared_fs.throughput_MBps_per_TiB": tp,
        "tier.shared_fs.aggregate_write_GBps": agg,
        "tier.shared_fs.aggregate_read_GBps": agg,
        "storage.fsx_usd_per_GB_month": np.array([tiers[t].usd for t in tp]),
    }
    out = evaluate_arrays(grid)
    size_TB = float(np.asarray(now["checkpoint_size_TB"]))
    keep = float(np.asarray(inputs.get("storage.retained_checkpoints", 2)))
    need = keep * size_TB / pr.TB_PER_TIB
    holds = tib >= need - 1e-9
    lost = np.where(
        holds, np.broadcast_to(np.asarray(out["lost_usd_per_day"], float), tib.shape), np.nan
    )
    if not np.isfinite(lost).any():
        raise ValueError(f"no file system up to {top:g} TiB holds {keep:g} checkpoints")
    k = int(np.nanargmin(lost))

    def col(key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(out[key], float), tib.shape)

    table = {
        "provisioned_TiB": tib,
        "throughput_MBps_per_TiB": tp,
        "storage_usd_per_day": col("storage_usd_per_day"),
        "save_seconds": col("save_seconds"),
        "durable_write_seconds": col("durable_write_seconds"),
        "goodput": col("goodput"),
        "lost_usd_per_day": lost,
    }
    cur_lost = float(np.asarray(now["lost_usd_per_day"]))
    return FileSystemRecommendation(
        provisioned_TiB=float(tib[k]),
        throughput_MBps_per_TiB=float(tp[k]),
        lost_usd_per_day=float(lost[k]),
        storage_usd_per_day=float(table["storage_usd_per_day"][k]),
        goodput=float(table["goodput"][k]),
        save_seconds=float(table["save_seconds"][k]),
        current_provisioned_TiB=tib0,
        current_throughput_MBps_per_TiB=tp0,
        current_lost_usd_per_day=cur_lost,
        current_storage_usd_per_day=float(np.asarray(now["storage_usd_per_day"])),
        current_goodput=float(np.asarray(now["goodput"])),
        current_save_seconds=float(np.asarray(now["save_seconds"])),
        savings_usd_per_day=cur_lost - float(lost[k]),
        min_TiB_for_retention=need,
        at_search_limit=bool(tib[k] >= sizes[-1] - 1e-9),
        table=table,
    )
