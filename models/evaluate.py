"""The orchestrator: Scenario -> numeric inputs -> every metric (the ModelChain analogue).

``evaluate_arrays`` is the vectorised core: it takes the flat numeric inputs (``section.key``
names, scalars or broadcastable arrays) and returns every metric as an array, so one call
evaluates a whole grid for heatmaps and sweeps.  ``evaluate`` wraps it for one Scenario and
returns an :class:`Evaluation` with plain floats, the loss breakdown and the assumptions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import checkpoint as ck
from . import compute as cm
from . import goodput as gp
from . import reliability as rel
from ._tools import HOURS_PER_DAY, MINUTES_PER_DAY, as_float_array
from .catalog import Instance, instance_inputs, load_catalog
from .errors import ValidationError
from .fields import FIELDS
from .scenario import Scenario

RATE_STEP = 0.001  # "0.1% of the daily node failure rate" = 0.1 percentage point

#: Loss components in the order of the waterfall, with labels for charts and reports.
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


def resolve_inputs(
    scenario: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    tiers: Mapping[str, ck.Tier] | None = None,
) -> dict:
    """Turn a scenario into the flat numeric inputs of :func:`evaluate_arrays`.

    Looks the instance up in the catalog, fills the price from it when the scenario leaves
    it out, and turns ``checkpoint.interval_minutes = "optimal"`` into a flag.
    """
    cat = catalog if catalog is not None else load_catalog()
    name = scenario["cluster.instance"]
    if name not in cat:
        raise ValidationError(
            "cluster.instance", f"{name!r} is not in the catalog; allowed: " + ", ".join(cat)
        )
    inst = cat[name]
    price = scenario["pricing.usd_per_instance_hour"]
    if price is None:
        if inst.usd_per_hour is None:
            raise ValidationError(
                "pricing.usd_per_instance_hour",
                f"the catalog has no price for {name} ({inst.source_price}); "
                "enter one (a number in [0, 10000] USD/instance-h)",
            )
        price = inst.usd_per_hour
    inputs: dict[str, Any] = {}
    for key, f in FIELDS.items():
        if f.kind in ("int", "float"):
            inputs[key] = scenario[key]
    inputs["pricing.usd_per_instance_hour"] = float(price)
    interval = scenario["checkpoint.interval_minutes"]
    inputs["checkpoint.interval_optimal"] = interval == "optimal"
    if interval == "optimal":
        inputs["checkpoint.interval_minutes"] = np.nan
    inputs.update(instance_inputs(inst))  # instance.* specs (NaN = unknown in the catalog)
    inputs.update(checkpoint_inputs(scenario, tiers))
    inputs.update(cm.mfu_basis_inputs(scenario["workload.mfu_basis"]))
    return inputs


def checkpoint_inputs(scenario: Scenario, tiers: Mapping[str, ck.Tier] | None = None) -> dict:
    """Numeric codes of the checkpoint choices and the ``tier.<name>.<param>`` parameters
    (``data/checkpoint_tiers.csv`` unless ``tiers`` is given) for :func:`evaluate_arrays`."""
    t = dict(tiers) if tiers is not None else ck.load_tiers()
    return {
        "checkpoint.strategy_code": float(ck.STRATEGIES.index(scenario["checkpoint.strategy"])),
        "checkpoint.durable_code": float(
            ck.DURABLE_TIERS.index(scenario["checkpoint.durable_tier"])
        ),
        "checkpoint.tier_model": float(scenario["checkpoint.timings"] == "tier_model"),
        "checkpoint.async_save": float(scenario["checkpoint.save_mode"] == "async"),
        "checkpoint.adjacent_placement": float(
            scenario["checkpoint.replica_placement"] == "adjacent"
        ),
        **ck.tier_inputs(t),
    }


def evaluate_arrays(inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Every analytical metric for (arrays of) numeric inputs.

    Inputs are keyed like scenario fields (``"cluster.nodes"``...) plus
    ``checkpoint.interval_optimal`` (bool).  All arrays broadcast together.

    Model
    -----
    failures/day λ = N·r; MTBF = 24/λ h; replacement time is the hot-spare swap when a spare
    is free, else the no-spare replacement (:func:`models.reliability.probability_no_spare`);
    R = detection + replacement + restart + restore; goodput is Daly's exact T_s/T_w with
    rework and saves, and first-order 1 − [δ/τ + λ(τ/2 + R)] (:mod:`models.goodput`).
    The loss breakdown takes the first-order minutes/day of each component and scales them
    so that they add up to the exact loss (1 − goodput)·1440 min/day.
    """
    x = {k: as_float_array(v) for k, v in inputs.items() if k != "checkpoint.interval_optimal"}
    nodes = x["cluster.nodes"]
    spares = x["cluster.spare_nodes"]
    rate = x["reliability.node_failure_rate_per_day"]
    price = x["pricing.usd_per_instance_hour"]

    lam = nodes * rate + cm.fabric_failures(x)  # fabric stalls > timeout abort the job
    mtbf_h = np.asarray(rel.mtbf_hours(lam))
    p_none = np.asarray(rel.probability_no_spare(lam, x["reliability.repair_hours"], spares))
    repl = np.asarray(
        rel.expected_replacement_minutes(
            p_none, x["recovery.replacement_minutes"], x["recovery.hot_spare_swap_minutes"]
        )
    )
    det = x["recovery.detection_minutes"]
    restart = x["recovery.restart_minutes"]
    # checkpoint strategy (models.checkpoint): level 1 serves most failures; a share φ of
    # node failures destroys every level-1 copy of a shard and falls back to level 2
    lv = _checkpoint_levels(x, nodes * rate)
    two = lv["two_level"]
    c1, c2 = lv["save1_minutes"], lv["save2_minutes"]
    lam2 = lv["failures_l2_per_day"]
    lam1 = lam - lam2
    r0 = det + repl + restart
    r1 = r0 + lv["restore1_minutes"] + lv["stale1_minutes"]
    r2 = r0 + lv["restore2_minutes"] + lv["stale2_minutes"]
    r_total = np.where(
        two,
        r0
        + _share(lam1, lam) * lv["restore1_minutes"]
        + _share(lam2, lam) * lv["restore2_minutes"],
        r0 + lv["restore1_minutes"],
    )

    mtbf1_min = np.asarray(rel.mtbf_hours(lam1)) * 60.0
    mtbf2_min = np.asarray(rel.mtbf_hours(lam2)) * 60.0
    # an asynchronous checkpoint cannot start before the previous one is written
    min1 = np.where(lv["stale1_minutes"] > 0, lv["write1_minutes"], 0.0)
    tau_opt = np.maximum(np.asarray(gp.exact_optimal_interval_minutes(c1, mtbf1_min)), min1)
    tau_young = np.asarray(gp.young_interval_minutes(c1, mtbf1_min))
    tau = x["checkpoint.interval_minutes"]
    if np.any(inputs.get("checkpoint.interval_optimal", False)):
        # 'optimal' with no failures (or free saves) has no finite optimum: cap at one week
        tau = np.where(np.isnan(tau), np.clip(tau_opt, 0.1, 10_080.0), tau)
    tau = np.broadcast_to(tau, np.broadcast(tau, lam).shape)
    t2_opt = np.maximum(
        np.asarray(gp.exact_optimal_interval_minutes(c2, mtbf2_min)),
        np.maximum(lv["write2_minutes"], tau),
    )
    t2 = np.where(two, lv["durable_interval_minutes"], 1.0)  # level 2 absent: λ₂ = C₂ = 0

    g = np.asarray(ck.two_level_goodput(lam1, lam2, tau, t2, c1, c2, r1, r2))
    g1 = np.clip(
        1.0 - np.asarray(ck.two_level_waste_first_order(lam1, lam2, tau, t2, c1, c2, r1, r2)),
        0.0,
        1.0,
    )
    rework = _share(lam1, lam) * (tau / 2.0 + lv["stale1_minutes"]) + _share(lam2, lam) * (
        t2 / 2.0 + lv["stale2_minutes"]
    )
    lost_per_failure = r_total + rework

    # first-order loss components in minutes/day, scaled to the exact total
    comp = {
        "detection": lam * det,
        "replacement": lam * repl,
        "restart": lam * restart,
        "restore": lam1 * lv["restore1_minutes"] + lam2 * lv["restore2_minutes"],
        "rework": lam1 * (tau / 2.0 + lv["stale1_minutes"]),
        "fallback_rework": lam2 * (t2 / 2.0 + lv["stale2_minutes"]),
        "checkpoint_save": MINUTES_PER_DAY * (c1 / tau + c2 / t2),
    }
    total_fo = sum(comp.values())
    exact_loss_min = (1.0 - g) * MINUTES_PER_DAY
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(total_fo > 0, exact_loss_min / np.where(total_fo > 0, total_fo, 1), 0.0)

    cluster_usd_day = nodes * price * HOURS_PER_DAY
    spare_usd_day = spares * price * HOURS_PER_DAY
    out: dict[str, np.ndarray] = {
        "failures_per_day": lam,
        "mtbf_hours": mtbf_h,
        "probability_no_spare": p_none,
        "replacement_minutes_expected": repl,
        "recovery_minutes_per_failure": r_total,
        "rework_minutes_per_failure": rework,
        "minutes_lost_per_failure": lost_per_failure,
        "checkpoint_interval_minutes": tau,
        "optimal_checkpoint_interval_minutes": tau_opt,
        "young_interval_minutes": tau_young,
        "daly_first_order_interval_minutes": np.asarray(
            ck.daly_first_order_interval_minutes(c1, mtbf1_min, r1)
        ),
        "daly_higher_order_interval_minutes": np.asarray(
            ck.daly_higher_order_interval_minutes(c1, mtbf1_min)
        ),
        "durable_interval_minutes": np.where(two, t2, tau),
        "optimal_durable_interval_minutes": np.where(two, t2_opt, tau_opt),
        "checkpoint_overhead_fraction": 1.0 - 1.0 / ((1.0 + c1 / tau) * (1.0 + c2 / t2)),
        "save_seconds": c1 * 60.0,
        "restore_seconds": lv["restore1_minutes"] * 60.0,
        "durable_save_seconds": np.where(two, c2, c1) * 60.0,
        "durable_write_seconds": np.where(two, lv["write2_minutes"], lv["write1_minutes"]) * 60,
        "durable_restore_seconds": np.where(two, lv["restore2_minutes"], lv["restore1_minutes"])
        * 60.0,
        "fallback_fraction": np.where(two, lv["fallback_fraction"], 0.0),
        "fallback_failures_per_day": lam2,
        "level1_waste_fraction": c1 / tau + lam1 / MINUTES_PER_DAY * (tau / 2.0 + r1),
        "level2_waste_fraction": c2 / t2 + lam2 / MINUTES_PER_DAY * (t2 / 2.0 + r2),
        "checkpoint_size_TB": lv["size_TB"],
        "checkpoint_shard_GB_per_node": lv["shard_GB"],
        "memory_required_GB_per_node": lv["memory_required_GB_per_node"],
        **{k: v for k, v in lv.items() if k.startswith("tier_")},
        "goodput": g,
        "goodput_first_order": g1,
        "cluster_usd_per_day": cluster_usd_day,
        "spare_usd_per_day": spare_usd_day,
        "total_usd_per_day": cluster_usd_day + spare_usd_day,
        "productive_usd_per_day": g * cluster_usd_day,
        "lost_usd_per_day": (1.0 - g) * cluster_usd_day + spare_usd_day,
        "lost_minutes_per_day": exact_loss_min,
    }
    for name, minutes in comp.items():
        m = minutes * scale
        out[f"loss_{name}_minutes_per_day"] = m
        out[f"loss_{name}_usd_per_day"] = m / MINUTES_PER_DAY * cluster_usd_day
    # step time, scaling, time/cost to train; folds the fabric reroute stall into goodput
    out.update(cm.network_compute_arrays(x, out))
    return out


def _share(part, total):
    """part / total, with 1 for the first class when the total is 0 (no failures)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, part / np.where(total > 0, total, 1.0), 1.0)


_CHECKPOINT_CODES = {  # numeric inputs added by checkpoint_inputs, with their defaults
    "checkpoint.strategy_code": 0.0,
    "checkpoint.durable_code": 0.0,
    "checkpoint.tier_model": 0.0,
    "checkpoint.async_save": 0.0,
    "checkpoint.adjacent_placement": 1.0,
}


def _checkpoint_levels(x: Mapping[str, np.ndarray], node_failures_per_day) -> dict:
    """:func:`models.checkpoint.strategy_levels` on the flat inputs; inputs built without
    :func:`resolve_inputs` get the field defaults and the default tier table."""

    def get(key: str) -> np.ndarray:
        if key in x:
            return x[key]
        if key in _CHECKPOINT_CODES:
            return as_float_array(_CHECKPOINT_CODES[key])
        return as_float_array(FIELDS[key].default)

    has_tiers = any(k.startswith("tier.") for k in x)
    tin = {} if has_tiers else ck.tier_inputs(ck.load_tiers())
    tiers = {
        name: {p: x.get(f"tier.{name}.{p}", tin.get(f"tier.{name}.{p}")) for p in ck.TIER_PARAMS}
        for name in ck.TIER_NAMES
    }
    lv = ck.strategy_levels(
        strategy_code=get("checkpoint.strategy_code"),
        durable_code=get("checkpoint.durable_code"),
        tier_model=get("checkpoint.tier_model"),
        async_save=get("checkpoint.async_save"),
        adjacent_placement=get("checkpoint.adjacent_placement"),
        nodes=x["cluster.nodes"],
        node_failure_rate_per_day=x["reliability.node_failure_rate_per_day"],
        failures_per_day=node_failures_per_day,
        params_billion=get("workload.params_billion"),
        bytes_per_param=get("checkpoint.bytes_per_param"),
        replicas=get("checkpoint.memory_replicas"),
        rereplication_minutes=get("checkpoint.rereplication_minutes"),
        node_loss_fraction=get("checkpoint.node_loss_fraction"),
        correlated_fraction=get("checkpoint.correlated_fraction"),
        correlated_nodes=get("checkpoint.correlated_nodes"),
        measured_save_seconds=get("checkpoint.save_seconds"),
        measured_restore_minutes=get("recovery.restore_minutes"),
        tiers=tiers,
    )
    lv["two_level"] = get("checkpoint.strategy_code") > 0
    lv["durable_interval_minutes"] = get("checkpoint.durable_interval_minutes")
    return lv


@dataclass(frozen=True)
class Evaluation:
    """Result of :func:`evaluate` for one scenario: metrics as floats plus context."""

    scenario: Scenario
    metrics: dict[str, float]
    instance: Instance
    value_of_reliability: dict[str, float] = field(default_factory=dict)

    def __getitem__(self, key: str) -> float:
        return self.metrics[key]

    def loss_breakdown(self) -> list[dict[str, Any]]:
        """Rows of (component, label, minutes/day, USD/day, share of wall time)."""
        rows = []
        for name, label in LOSS_COMPONENTS.items():
            m = self.metrics[f"loss_{name}_minutes_per_day"]
            rows.append(
                {
                    "component": name,
                    "label": label,
                    "minutes_per_day": m,
                    "usd_per_day": self.metrics[f"loss_{name}_usd_per_day"],
                    "fraction_of_wall_time": m / MINUTES_PER_DAY,
                }
            )
        return rows

    def to_json_dict(self) -> dict[str, Any]:
        """One flat JSON-able object (the CLI contract), plus breakdown and scenario."""
        out: dict[str, Any] = {"scenario_name": self.scenario.name}
        out.update({k: _jsonable(v) for k, v in self.metrics.items()})
        out.update({k: _jsonable(v) for k, v in self.value_of_reliability.items()})
        out["usd_per_instance_hour"] = _jsonable(self.metrics["usd_per_instance_hour"])
        out["loss_breakdown"] = [
            {k: _jsonable(v) for k, v in row.items()} for row in self.loss_breakdown()
        ]
        out["checkpoint_tiers"] = [
            {k: _jsonable(v) for k, v in row.items()} for row in self.checkpoint_tiers()
        ]
        out["scenario"] = self.scenario.to_dict()
        return out

    def checkpoint_tiers(self) -> list[dict[str, Any]]:
        """Per tier: role in this strategy, synchronous save and restore seconds, and for the
        levels in use the interval, blocking save and waste (fraction of wall time)."""
        m, s = self.metrics, self.scenario
        strategy, durable = s["checkpoint.strategy"], s["checkpoint.durable_tier"]
        fast = {"memory+durable": "memory", "nvme+durable": "nvme"}.get(strategy)
        rows = []
        for name in ck.TIER_NAMES:
            role = "unused"
            if name == fast:
                role = "level 1"
            elif name == durable:
                role = "level 2 (durable)" if fast else "level 1 (durable)"
            row: dict[str, Any] = {
                "tier": name,
                "role": role,
                "save_seconds_sync": m[f"tier_{name}_save_seconds"],
                "restore_seconds": m[f"tier_{name}_restore_seconds"],
                "interval_minutes": None,
                "blocking_save_seconds": None,
                "waste_fraction": None,
            }
            if role.startswith("level 1"):
                row["interval_minutes"] = m["checkpoint_interval_minutes"]
                row["blocking_save_seconds"] = m["save_seconds"]
                row["waste_fraction"] = m["level1_waste_fraction"]
            elif role.startswith("level 2"):
                row["interval_minutes"] = m["durable_interval_minutes"]
                row["blocking_save_seconds"] = m["durable_save_seconds"]
                row["waste_fraction"] = m["level2_waste_fraction"]
            rows.append(row)
        return rows


def _jsonable(v: Any) -> Any:
    if isinstance(v, float | np.floating):
        f = float(v)
        return f if np.isfinite(f) else None
    return v


def evaluate(
    scenario: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    tiers: Mapping[str, ck.Tier] | None = None,
) -> Evaluation:
    """Evaluate one scenario: metrics, loss breakdown and the value of 0.1 pp reliability.

    ``tiers`` replaces the checkpoint tier table (``data/checkpoint_tiers.csv``)."""
    cat = catalog if catalog is not None else load_catalog()
    inputs = resolve_inputs(scenario, cat, tiers)
    arrays = evaluate_arrays(inputs)
    metrics = {k: float(np.asarray(v)) for k, v in arrays.items()}
    metrics["usd_per_instance_hour"] = float(inputs["pricing.usd_per_instance_hour"])
    metrics["accelerators"] = float(
        scenario["cluster.nodes"] * cat[scenario["cluster.instance"]].accelerators_per_node
    )
    return Evaluation(
        scenario=scenario,
        metrics=metrics,
        instance=cat[scenario["cluster.instance"]],
        value_of_reliability=value_of_reliability(inputs, base=arrays),
    )


def value_of_reliability(
    inputs: Mapping[str, Any],
    step: float = RATE_STEP,
    base: Mapping[str, np.ndarray] | None = None,
) -> dict[str, float]:
    """Goodput points and USD/day gained by a 0.1 pp lower node failure rate, here.

    This is the discrete change g(max(r − step, 0)) − g(r), with every other input
    (including an 'optimal' checkpoint interval, re-optimised at each rate) as in the
    scenario.  When the rate is below ``step`` the full decrease is impossible: the figure
    is then the gain of eliminating failures altogether, and
    ``value_of_reliability_is_partial`` is 1.  ``base`` is ``evaluate_arrays(inputs)`` when
    the caller has it already.
    """
    if base is None:
        base = evaluate_arrays(inputs)
    r = float(np.asarray(inputs["reliability.node_failure_rate_per_day"]))
    lower = evaluate_arrays({**inputs, "reliability.node_failure_rate_per_day": max(r - step, 0.0)})
    gain = float(lower["goodput"] - base["goodput"])
    usd = gain * float(base["cluster_usd_per_day"])
    return {
        "goodput_gain_per_0p1pp": gain,
        "usd_per_day_per_0p1pp": usd,
        "value_of_reliability_is_partial": 1.0 if r < step else 0.0,
    }


@dataclass(frozen=True)
class Comparison:
    baseline: Evaluation
    candidate: Evaluation
    goodput_delta: float
    goodput_delta_first_order: float
    savings_usd_per_day: float

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "baseline_name": self.baseline.scenario.name,
            "candidate_name": self.candidate.scenario.name,
            "goodput_baseline": self.baseline["goodput"],
            "goodput_candidate": self.candidate["goodput"],
            "goodput_delta": self.goodput_delta,
            "goodput_delta_first_order": self.goodput_delta_first_order,
            "savings_usd_per_day": self.savings_usd_per_day,
            "savings_usd_per_month": self.savings_usd_per_day * 365.25 / 12,
            "savings_usd_per_year": self.savings_usd_per_day * 365.25,
            "baseline": self.baseline.to_json_dict(),
            "candidate": self.candidate.to_json_dict(),
        }


def compare(
    baseline: Scenario,
    candidate: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    tiers: Mapping[str, ck.Tier] | None = None,
) -> Comparison:
    """Goodput delta and savings per day of ``candidate`` over ``baseline``.

    savings/day = (g_cand − g_base) · (baseline cluster cost/day)
                  + (baseline total cost/day − candidate total cost/day)
    i.e. the value of the extra useful time at the baseline's price plus any difference in
    what the two cost to run (price per hour, node count, hot spares), as in DESIGN.md.
    """
    cat = catalog if catalog is not None else load_catalog()
    b = evaluate(baseline, cat, tiers)
    c = evaluate(candidate, cat, tiers)
    dg = c["goodput"] - b["goodput"]
    savings = dg * b["cluster_usd_per_day"] + (b["total_usd_per_day"] - c["total_usd_per_day"])
    return Comparison(
        baseline=b,
        candidate=c,
        goodput_delta=dg,
        goodput_delta_first_order=c["goodput_first_order"] - b["goodput_first_order"],
        savings_usd_per_day=savings,
    )
