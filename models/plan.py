"""Capacity Block planning and budgets by pricing model: what the bill really is.

A Capacity Block is paid up front for a fixed number of days, whether the job is productive
or not; a run that has not finished when the block ends stops (its instances are terminated
from 30 minutes before the end) and continues at a fallback price.  Failures therefore do not
cost their hours (those are paid already) but the *extra days* they make the run need.

:func:`plan_capacity_block` answers "how long a block, and what will it really cost?" from the
Monte Carlo distribution of the wall time to finish the workload (:mod:`models.montecarlo`),
every run drawing its own node failure rate and step time from their 80% intervals as
``goodput decide`` does (:func:`models.decide.simulate_config`), so a block's risk is the
risk over what the tool does not know, not at the point estimates:

* ``block_days_pXX``: the block length that finishes with probability XX %, i.e. the XX-th
  percentile of the time to finish plus the 30-minute termination margin;
* for a block of D days: P(finish) = share of trials with T + margin ≤ D, and the total cost
  per trial = block (D · 24 · instances · block price) + overrun (the remaining wall time after
  the usable block, plus one move to new instances, at the fallback price) + storage for the
  run's wall time; the expected and P90 totals are the mean and 90th percentile over trials;
* the cheapest purchasable block (1-14 days, then 7-day steps to 182) whose probability of
  not finishing is at most the stated risk.

:func:`budget_by_pricing_model` puts the pricing models side by side for the analytic
(expected) run: rate, effective rate, cost per day, per month, for the whole run, and what
failures and checkpoints cost under each.  Rules and sources: ``docs/pricing.md``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import pricing as pr
from .catalog import Instance, load_catalog
from .chain import paid_instances
from .choices import PricingModel
from .errors import ValidationError
from .evaluate import evaluate_arrays, progress_note, resolve_inputs
from .fields import _fmt
from .montecarlo import MAX_DAYS, check_size, estimate_work, params_from_inputs
from .outputs import format_range
from .scenario import Scenario
from .uncertainty import failure_rate_interval, rate_quantiles, step_time_interval

DEFAULT_RISK = 0.1
MARGIN_DAYS = pr.CAPACITY_BLOCK_END_MARGIN_HOURS / 24.0


#: a price's date as the JSON writes it (one function: :func:`models.pricing.json_date`)
json_date = pr.json_date


def _float(x: Any) -> float:
    return float(np.asarray(x))


def _instance(scenario: Scenario, catalog: Mapping[str, Instance]) -> Instance:
    name = scenario["cluster.instance"]
    if name not in catalog:
        raise ValidationError(
            "cluster.instance",
            f"{name[:80]!r} is not in the catalog; allowed: " + ", ".join(catalog),
        )
    return catalog[name]


def capacity_block_price(scenario: Scenario, inst: Instance) -> pr.Price:
    """The block's hourly rate: the scenario's own when its model is ``capacity_block``,
    else the price table's Capacity Block rate (a ValidationError asks for one if none).

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    inst : Instance
        Its catalog row.

    Returns
    -------
    Price
        Block rate [USD/h] with source and date.
    """
    if PricingModel(scenario["pricing.model"]) is PricingModel.CAPACITY_BLOCK:
        return pr.price_in_force(scenario, inst)
    try:
        return pr.model_price(inst, PricingModel.CAPACITY_BLOCK)
    except ValidationError as exc:
        raise ValidationError(
            exc.field, exc.message + " — set pricing.model = 'capacity_block' with your rate"
        ) from None


def no_block_price(
    scenario: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    how: str = "--set on the command line",
    prices: Mapping[str, float] | None = None,
) -> str:
    """Why no Capacity Block can be planned for ``scenario`` ("" when one can): its type has
    no public block price and neither the scenario nor ``prices`` gives one (its own price
    is for its own pricing model, not a block).

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Mapping[str, Instance], optional
        Instance catalog keyed by node type; default the shipped one.
    how : str
        Where the reader sets the two fields, said in parentheses ("" to say nothing).
    prices : Mapping[str, float], optional
        Rates entered for this comparison by pricing model (``--price``): a
        ``capacity_block`` one is the block's rate.

    Returns
    -------
    str
        One sentence naming the type and how to give a block rate, or "".
    """
    cat = catalog if catalog is not None else load_catalog()
    inst = cat.get(scenario["cluster.instance"])
    if inst is None or PricingModel.CAPACITY_BLOCK in entered_prices(prices):
        return ""
    try:
        capacity_block_price(scenario, inst)
    except ValidationError:
        return (
            f"No Capacity Block to plan: there is no public Capacity Block price for "
            f"{inst.instance} in the price table, and the scenario's own price is for its "
            f"{pr.TERMS[PricingModel(scenario['pricing.model'])].label} model. To plan a "
            "block, give its rate: pricing.model = capacity_block with "
            "pricing.usd_per_instance_hour" + (f" ({how})." if how else ".")
        )
    return ""


def block_inputs(
    scenario: Scenario, catalog: Mapping[str, Instance], price: pr.Price
) -> dict[str, Any]:
    """The chain inputs of the scenario run inside a Capacity Block (no Spot process).

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Mapping of str to Instance
        The instance catalog.
    price : Price
        The block rate [USD/h].

    Returns
    -------
    dict of str to Any
        Resolved chain inputs with the Spot process off.
    """
    sc = scenario.replace(
        {"pricing.model": PricingModel.CAPACITY_BLOCK.value, "pricing.usd_per_instance_hour": None}
    )
    return resolve_inputs(sc, catalog, price=price)


def _quantile_days(t: np.ndarray, q: float) -> float:
    """Empirical quantile of the times to finish (unfinished trials count as infinite)."""
    with np.errstate(invalid="ignore"):
        v = float(np.quantile(t, q, method="linear"))
    return math.inf if not math.isfinite(v) else v


@dataclass(frozen=True)
class BlockPlan:
    """Result of :func:`plan_capacity_block` (days, fractions, USD)."""

    scenario_name: str
    trials: int
    seed: int
    risk: float
    compute_days: float
    time_to_finish_days: np.ndarray = field(repr=False)
    total_cost_usd: np.ndarray = field(repr=False)
    block_days_p50: float
    block_days_p90: float
    block_days_p99: float
    block_days: float
    block_days_purchasable: float
    probability_finish_within_block: float
    block_cost_usd: float
    expected_overrun_cost_usd: float
    expected_storage_cost_usd: float
    expected_total_cost_usd: float
    p90_total_cost_usd: float
    cheapest_block_days: float
    cheapest_block_expected_total_cost_usd: float
    cheapest_block_probability_finish: float
    time_to_finish_mean_days: float
    unfinished_trials: int
    capacity_blocks_needed: int
    capacity_block_instances: int
    block_price: pr.Price
    overrun_price: pr.Price
    storage_usd_per_day: float
    transition_minutes: float
    curve: list[dict[str, float]] = field(repr=False)
    notes: list[str] = field(default_factory=list)
    #: instances of one UltraServer where the type's blocks are sold as whole UltraServers
    #: (then ``capacity_blocks_needed`` counts UltraServers), else 1
    #: (:func:`models.pricing.ultraserver_instances`)
    instances_per_ultraserver: int = 1
    #: the 80% intervals every run draws its failure rate [per node-day] and step time [s]
    #: from (:func:`models.uncertainty.failure_rate_interval`, ``step_time_interval``)
    node_failure_rate_low: float = math.nan
    node_failure_rate_high: float = math.nan
    step_seconds_low: float = math.nan
    step_seconds_high: float = math.nan
    #: each run's step time over the modelled one [-] (the interval's draw), by trial
    step_multiplier: np.ndarray | None = field(default=None, repr=False)

    def basis_text(self) -> str:
        """What the runs integrate, in words: the two 80% intervals each run draws from."""
        rate = format_range(
            "node_failure_rate_low", self.node_failure_rate_low, self.node_failure_rate_high
        )
        step = format_range("step_seconds_low", self.step_seconds_low, self.step_seconds_high)
        return (
            f"each run draws its node failure rate from the 80% interval {rate} per node-day "
            f"and its step time from the 80% interval {step}, as goodput decide does, and its "
            "failures at random"
        )

    def blocks_text(self) -> str:
        """What the block holds, in words: "2,000 instances in 32 blocks" or "1,152
        instances in 64 UltraServers of 18"."""
        n, k = self.capacity_block_instances, self.instances_per_ultraserver
        if k > 1:
            return f"{n:,} instances in {self.capacity_blocks_needed:,} UltraServers of {k}"
        unit = "block" if self.capacity_blocks_needed == 1 else "blocks"
        return f"{n:,} instances in {self.capacity_blocks_needed:,} {unit}"

    def least_cost_block(self) -> Mapping[str, Any] | None:
        """The block length of the curve with the least expected total cost [USD], whatever
        its risk of the run outlasting it (the hours after it at the overrun price), or
        None without a curve: beside :attr:`cheapest_block_days`, the cheapest within the
        risk, it shows what the risk bound costs.

        Returns
        -------
        Mapping or None
            The curve row: ``block_days`` [day], ``probability_finish`` [fraction],
            ``expected_total_cost_usd`` and ``p90_total_cost_usd`` [USD].
        """
        rows = [r for r in self.curve if math.isfinite(r["expected_total_cost_usd"])]
        return min(rows, key=lambda r: r["expected_total_cost_usd"]) if rows else None

    def to_json_dict(self) -> dict[str, Any]:
        """One flat JSON-able object (the CLI contract) with the curve as a list of rows."""

        def num(v: float) -> float | None:
            return float(v) if math.isfinite(v) else None

        out: dict[str, Any] = {"scenario_name": self.scenario_name}
        for key in (
            "trials",
            "seed",
            "capacity_blocks_needed",
            "capacity_block_instances",
            "unfinished_trials",
        ):
            out[key] = int(getattr(self, key))
        for key in (
            "risk",
            "compute_days",
            "block_days_p50",
            "block_days_p90",
            "block_days_p99",
            "block_days",
            "block_days_purchasable",
            "probability_finish_within_block",
            "block_cost_usd",
            "expected_overrun_cost_usd",
            "expected_storage_cost_usd",
            "expected_total_cost_usd",
            "p90_total_cost_usd",
            "cheapest_block_days",
            "cheapest_block_expected_total_cost_usd",
            "cheapest_block_probability_finish",
            "time_to_finish_mean_days",
            "storage_usd_per_day",
            "transition_minutes",
            "node_failure_rate_low",
            "node_failure_rate_high",
            "step_seconds_low",
            "step_seconds_high",
        ):
            out[key] = num(float(getattr(self, key)))
        out["capacity_block_usd_per_instance_hour"] = self.block_price.usd_per_instance_hour
        out["capacity_block_price_source"] = self.block_price.source
        out["capacity_block_price_as_of"] = json_date(self.block_price.as_of)
        out["overrun_usd_per_instance_hour"] = self.overrun_price.usd_per_instance_hour
        out["overrun_price_source"] = self.overrun_price.source
        out["overrun_price_as_of"] = json_date(self.overrun_price.as_of)
        out["notes"] = list(self.notes)
        out["curve"] = [{k: num(v) for k, v in row.items()} for row in self.curve]
        return out


def block_costs(
    t_days: np.ndarray,
    block_days,
    *,
    instances: float,
    block_usd_per_instance_hour: float,
    overrun_usd_per_instance_hour: float,
    storage_usd_per_day: float,
    transition_days: float,
) -> np.ndarray:
    """Total cost of each trial for each block length [USD], shape ``(len(block_days), trials)``.

    cost = D·24·n·p_block + 1[T > U]·(T − U + t_move)·24·n·p_fallback
           + storage/day·(T + 1[T > U]·t_move),
    with U = D − 30 min the usable part of the block, T the trial's wall time to finish,
    n the instances (spares included) and t_move the move to new instances after the block
    (replacement, restart and restore from the durable tier; the job saves before the
    termination, so nothing is recomputed).

    Parameters
    ----------
    t_days : ndarray
        Wall time to finish of each trial T [day].
    block_days : array_like
        Block lengths D [day].
    instances : float
        n, spares included [count].
    block_usd_per_instance_hour, overrun_usd_per_instance_hour : float
        p_block and p_fallback [USD/h].
    storage_usd_per_day : float
        Storage [USD/day].
    transition_days : float
        t_move [day].

    Returns
    -------
    ndarray
        Cost [USD], shape ``(len(block_days), trials)``.

    Examples
    --------
    >>> c = block_costs(np.array([10.0]), [7, 14], instances=1, block_usd_per_instance_hour=1.0,
    ...                 overrun_usd_per_instance_hour=2.0, storage_usd_per_day=0.0,
    ...                 transition_days=0.0)
    >>> [round(float(v), 2) for v in c[:, 0]]  # 7 d: 168 + (10 - 6.979)*24*2; 14 d: 336
    [313.0, 336.0]
    """
    t = np.asarray(t_days, dtype=float)[None, :]
    d = np.atleast_1d(np.asarray(block_days, dtype=float))[:, None]
    usable = d - MARGIN_DAYS
    over = t > usable
    with np.errstate(invalid="ignore"):
        overrun_days = np.where(over, t - usable + transition_days, 0.0)
        wall = t + np.where(over, transition_days, 0.0)
    return (
        pr.capacity_block_usd(d, instances, block_usd_per_instance_hour)
        + overrun_days * 24.0 * instances * overrun_usd_per_instance_hour
        + storage_usd_per_day * wall
    )


def _check_plan_args(risk: Any, block_days: Any) -> None:
    """ValidationError naming ``risk`` unless in (0, 1), ``block_days`` unless None or > 0."""
    if not (isinstance(risk, int | float) and math.isfinite(risk) and 0.0 < risk < 1.0):
        raise ValidationError("risk", f"{risk!r} is out of range (a number in (0, 1))")
    if block_days is not None and not (
        isinstance(block_days, int | float) and math.isfinite(block_days) and block_days > 0
    ):
        raise ValidationError(
            "block_days", f"{block_days!r} is out of range (a number of days > 0)"
        )


def _plan_compute_days(scenario: Scenario, inputs: Mapping[str, Any], m: Mapping) -> float:
    """The chain's failure-free compute [day]; a ValidationError when it cannot be computed,
    when goodput is 0 (fabric stalls fill the day) or beyond the simulator's ``MAX_DAYS``."""
    compute_days = _float(m["compute_days"])  # the chain's failure-free compute
    if not (math.isfinite(compute_days) and compute_days > 0):
        from .compute import infeasibility_reason

        why = infeasibility_reason(inputs, str(scenario["workload.mfu_basis"]))
        raise ValidationError(
            "workload",
            "the time to train cannot be computed for this configuration ("
            + (why or "model states do not fit, or the catalog lacks a figure the step model needs")
            + "); the plan needs it",
        )
    if not _float(m["goodput"]) > 0.0:  # fabric stalls fill the day: no run to plan
        raise ValidationError("scenario", progress_note(scenario, {"goodput": 0.0}))
    if compute_days > MAX_DAYS:
        raise ValidationError(
            "workload",
            f"{compute_days:,.0f} days of failure-free compute is over the simulator's limit "
            f"of {_fmt(MAX_DAYS)} days",
        )
    return compute_days


def _finish_days(inputs, trials: int, compute_days: float, seed: int, on_estimate):
    """Monte Carlo wall time to finish of each trial [day] (inf when unfinished) and the
    trial's step-time multiplier [-], over the
    failure-rate and step-time intervals: every run draws its own node failure rate and
    step time (:func:`models.decide.simulate_config`, the runs ``goodput decide`` and ``plan
    --deadline-days`` integrate, with the same seed and stream: QA 28 #9, "at most 10% risk"
    held at the point estimates only, beside "finishes within 35 days with probability
    59.9%" over the intervals).  The predicted work is that of one simulation per
    failure-rate stratum (:func:`_strata_estimate`)."""
    from .decide import simulate_config  # decide imports this module

    est = _strata_estimate(inputs, trials, compute_days)
    if on_estimate is not None:
        on_estimate(compute_days, est["seconds"], est["memory_bytes"])
    res = simulate_config(inputs, trials, seed, 0)
    t = res["time_to_finish_days"]
    return np.where(np.isfinite(t), t, np.inf), np.asarray(res["step_multiplier"], float)


def _strata_estimate(inputs, trials: int, compute_days: float) -> dict[str, float]:
    """The predicted seconds and memory of :func:`models.decide.simulate_config`: one
    simulation per failure-rate stratum at the stratum's median rate
    (:func:`models.montecarlo.estimate_work`), their seconds summed and held to the limit
    of one call (``max_seconds`` of :func:`models.montecarlo.check_size`,
    :data:`models.montecarlo.MAX_SECONDS`), after the checks of one call at the point rate
    (a ValidationError names ``trials``, ``days`` or the scenario)."""
    from .decide import STRATA

    check_size(trials, compute_days)  # trials and days in range, as one call checks them
    # the seconds one call is held to (MAX_SECONDS, or what a caller bound check_size to)
    limit = float(inspect.signature(check_size).parameters["max_seconds"].default)
    k = min(STRATA, int(trials))
    sizes = np.full(k, int(trials) // k)
    sizes[: int(trials) % k] += 1
    x = dict(inputs)
    if bool(x.get("checkpoint.interval_optimal", False)):  # as simulate_config fixes it
        m = evaluate_arrays(x)
        x["checkpoint.interval_minutes"] = float(np.asarray(m["checkpoint_interval_minutes"]))
        x["checkpoint.interval_optimal"] = False
    # one call's checks (sizes, a window of at least one interval, memory, and its limit
    # at the point rate), then each stratum's predicted work at its own rate
    check_size(trials, compute_days, x, work_days=compute_days, grid_points=2)
    rates = rate_quantiles(failure_rate_interval(x), (np.arange(k) + 0.5) / k)
    seconds, memory = 0.0, 0.0
    for n, rate in zip(sizes, rates, strict=True):
        est = estimate_work(
            params_from_inputs({**x, "reliability.node_failure_rate_per_day": float(rate)}),
            int(n),
            compute_days,
            work_days=compute_days,
            grid_points=2,
        )
        seconds += est.seconds
        memory = max(memory, est.memory_bytes)
    if seconds > limit:
        most = max(1, int(trials * limit / seconds))
        raise ValidationError(
            "trials",
            f"{int(trials):,} runs over {k} failure-rate strata would take ~{seconds:,.2g} s "
            f"(limit {limit:g} s) (allowed: trials <= about {most:,})",
        )
    return {"seconds": seconds, "memory_bytes": memory}


def _block_curve(t: np.ndarray, kw: Mapping[str, float], risk: float):
    """Per purchasable block length: probability to finish [fraction], expected and P90 cost
    [USD]; the cheapest length that finishes with probability ≥ 1 − risk (NaN and a note
    when none does).  Returns (curve, BlockPlan ``cheapest_*`` fields, notes)."""
    allowed = np.asarray(pr.CAPACITY_BLOCK_DAYS, dtype=float)
    costs = block_costs(t, allowed, **kw)
    with np.errstate(invalid="ignore"):
        p_finish = np.mean(t[None, :] + MARGIN_DAYS <= allowed[:, None], axis=1)
        exp_cost = np.mean(costs, axis=1)
        p90_cost = np.array([_quantile_days(c, 0.9) for c in costs])
    curve = [
        {
            "block_days": float(d),
            "probability_finish": float(pf),
            "expected_total_cost_usd": float(ec),
            "p90_total_cost_usd": float(pc),
        }
        for d, pf, ec, pc in zip(allowed, p_finish, exp_cost, p90_cost, strict=True)
    ]
    ok = p_finish >= 1.0 - risk - 1e-12
    notes: list[str] = []
    if ok.any():
        k = int(np.argmin(np.where(ok, exp_cost, np.inf)))
        cheapest = (float(allowed[k]), float(exp_cost[k]), float(p_finish[k]))
    else:
        cheapest = (math.nan, math.nan, math.nan)
        notes.append(
            f"no Capacity Block of at most {pr.CAPACITY_BLOCK_MAX_DAYS} days finishes with "
            f"probability {1 - risk:.0%}: the run needs several blocks or an extension"
        )
    fields = {
        "cheapest_block_days": cheapest[0],
        "cheapest_block_expected_total_cost_usd": cheapest[1],
        "cheapest_block_probability_finish": cheapest[2],
    }
    return curve, fields, notes


def _chosen_block_days(block_days: float | None, cheapest_days: float, p90_days: float) -> float:
    """The block evaluated [day]: the one asked for, else the cheapest that meets the risk,
    else the P90 length rounded up to a purchasable one (at most the longest block).

    >>> _chosen_block_days(None, math.nan, 3.2)  # 1-14 days, then weeks up to 182
    4.0
    """
    if block_days is not None:
        return float(block_days)
    if math.isfinite(cheapest_days):
        return cheapest_days
    p90 = pr.purchasable_block_days(p90_days)
    return float(p90) if math.isfinite(p90) else float(pr.CAPACITY_BLOCK_MAX_DAYS)


def _chosen_block_costs(t, chosen: float, kw: Mapping[str, float], instances: int, fallback_rate):
    """BlockPlan cost fields of the chosen block [USD]: per trial (:func:`block_costs`), the
    block itself D·24·n·p, the expected overrun (T − U + t_move)·24·n·p_fallback beyond the
    usable U = D − margin, the expected storage over the wall time, mean and P90 total."""
    c = block_costs(t, [chosen], **kw)[0]
    usable = chosen - MARGIN_DAYS
    with np.errstate(invalid="ignore"):
        over = t > usable
        overrun = np.where(over, t - usable + kw["transition_days"], 0.0)
        wall = t + np.where(over, kw["transition_days"], 0.0)
    return {
        "total_cost_usd": c,
        "block_days_purchasable": float(pr.purchasable_block_days(chosen)),
        "probability_finish_within_block": float(np.mean(t + MARGIN_DAYS <= chosen)),
        "block_cost_usd": pr.capacity_block_usd(
            chosen, instances, kw["block_usd_per_instance_hour"]
        ),
        "expected_overrun_cost_usd": float(np.mean(overrun * 24.0 * instances * fallback_rate)),
        "expected_storage_cost_usd": float(np.mean(kw["storage_usd_per_day"] * wall)),
        "expected_total_cost_usd": float(np.mean(c)),
        "p90_total_cost_usd": _quantile_days(c, 0.9),
    }


def _block_notes(instances: int, inst: Instance, chosen: float, unfinished: int) -> list[str]:
    """Notes on how the blocks are bought (whole UltraServers, or the account's instance
    limit: :func:`models.pricing.capacity_block_note`), a block beyond the longest
    purchasable and trials that had not finished."""
    notes = []
    if rule := pr.capacity_block_note(instances, inst):
        notes.append(rule)
    sold = pr.purchasable_block_days(chosen) if math.isfinite(chosen) else math.nan
    if math.isfinite(chosen) and not math.isfinite(sold):
        notes.append(f"{chosen:g} days is longer than the {pr.CAPACITY_BLOCK_MAX_DAYS}-day maximum")
    elif math.isfinite(sold) and sold != chosen:
        notes.append(
            f"a {chosen:g}-day block is not sold (1 to 14 days, then 21 to 182 in 7-day steps): "
            f"priced as asked; the shortest one sold that covers it is {sold:g} days"
        )
    if unfinished:
        notes.append(f"{unfinished:,} trials had not finished after 4x the compute time")
    return notes


def _block_prices(scenario: Scenario, inst: Instance, prices) -> tuple[Any, Any]:
    """(the block's price, the price after it) of :func:`plan_capacity_block`: an entered
    ``capacity_block`` rate, else :func:`capacity_block_price`; the overrun price with an
    entered ``on_demand`` rate (:func:`models.pricing.overrun_price`)."""
    entered = entered_prices(prices)
    if PricingModel.CAPACITY_BLOCK in entered:
        price = _entered_price(entered, PricingModel.CAPACITY_BLOCK)
    else:
        price = capacity_block_price(scenario, inst)
    fallback = pr.overrun_price(scenario, inst, on_demand=entered.get(PricingModel.ON_DEMAND))
    return price, fallback


def plan_capacity_block(
    scenario: Scenario,
    *,
    trials: int = 1000,
    seed: int = 0,
    block_days: float | None = None,
    risk: float = DEFAULT_RISK,
    catalog: Mapping[str, Instance] | None = None,
    on_estimate: Any = None,
    prices: Mapping[str, float] | None = None,
) -> BlockPlan:
    """The Capacity Block a run needs, its completion probability and its total cost.

    Parameters
    ----------
    scenario : the cluster and workload (its pricing model may be any; the block's rate is
        the scenario's own under ``capacity_block``, else the price table's).
    trials : Monte Carlo runs of the whole training job.
    seed : random seed (SPEC 7; the same seed gives the same plan).
    block_days : the block length to evaluate [day]; default the cheapest purchasable block
        that meets ``risk`` (or the P90 length rounded up to a purchasable one).
    risk : the largest acceptable probability of not finishing inside the block [fraction].
    on_estimate : called as ``on_estimate(compute_days, seconds, memory_bytes)`` with the
        simulation's predicted size once it is known to fit, before it starts.
    prices : rates entered for this comparison by pricing model (``goodput plan --price
        MODEL=USD``, :func:`entered_prices`) [USD/instance-h]: a ``capacity_block`` rate is
        the block's, an ``on_demand`` rate the price of the hours after it (the On-Demand
        price in force, docs/pricing.md §3; ``pricing.overrun_usd_per_instance_hour``
        still comes first), as the bill by pricing model uses them.

    Returns
    -------
    BlockPlan
    """
    _check_plan_args(risk, block_days)
    cat = catalog if catalog is not None else load_catalog()
    inst = _instance(scenario, cat)
    price, fallback = _block_prices(scenario, inst, prices)
    inputs = block_inputs(scenario, cat, price)
    m = evaluate_arrays(inputs)
    compute_days = _plan_compute_days(scenario, inputs, m)
    rate_iv, step_iv = failure_rate_interval(inputs), step_time_interval(m)
    t, step_multiplier = _finish_days(inputs, trials, compute_days, seed, on_estimate)
    # spares by domain are paid as well; a type sold as UltraServers in whole ones
    needed = round(paid_instances(inputs))
    instances = pr.capacity_block_instances(needed, inst)
    storage = _float(m["storage_usd_per_day"])
    transition_min = (
        float(scenario["recovery.replacement_minutes"])
        + float(scenario["recovery.restart_minutes"])
        + _float(m["durable_restore_seconds"]) / 60.0
    )
    kw = {
        "instances": float(instances),
        "block_usd_per_instance_hour": price.usd_per_instance_hour,
        "overrun_usd_per_instance_hour": fallback.usd_per_instance_hour,
        "storage_usd_per_day": storage,
        "transition_days": transition_min / 1440.0,
    }
    q = {p: _quantile_days(t, p / 100.0) + MARGIN_DAYS for p in (50, 90, 99)}
    curve, cheapest, notes = _block_curve(t, kw, risk)
    chosen = _chosen_block_days(block_days, cheapest["cheapest_block_days"], q[90])
    blocks = pr.capacity_blocks_needed(instances, inst)
    unfinished = int(np.sum(~np.isfinite(t)))
    notes += _block_notes(needed, inst, chosen, unfinished)
    finite = t[np.isfinite(t)]
    return BlockPlan(
        scenario_name=scenario.name,
        trials=int(trials),
        seed=int(seed),
        risk=float(risk),
        compute_days=compute_days,
        time_to_finish_days=t,
        block_days_p50=q[50],
        block_days_p90=q[90],
        block_days_p99=q[99],
        block_days=chosen,
        **_chosen_block_costs(t, chosen, kw, instances, fallback.usd_per_instance_hour),
        **cheapest,
        time_to_finish_mean_days=float(np.mean(finite)) if finite.size else math.nan,
        unfinished_trials=unfinished,
        capacity_blocks_needed=blocks,
        capacity_block_instances=instances,
        block_price=price,
        overrun_price=fallback,
        storage_usd_per_day=storage,
        transition_minutes=transition_min,
        curve=curve,
        notes=notes,
        instances_per_ultraserver=pr.ultraserver_instances(inst),
        node_failure_rate_low=rate_iv.low,
        node_failure_rate_high=rate_iv.high,
        step_seconds_low=step_iv.low,
        step_seconds_high=step_iv.high,
        step_multiplier=step_multiplier,
    )


# --------------------------------------------------------------------------- budgets
#: Models shown side by side (custom only when it is the scenario's own).
BUDGET_MODELS: tuple[PricingModel, ...] = (
    PricingModel.ON_DEMAND,
    PricingModel.SAVINGS_PLAN_1Y,
    PricingModel.SAVINGS_PLAN_3Y,
    PricingModel.CAPACITY_BLOCK,
    PricingModel.SPOT,
    PricingModel.HYPERPOD,
)


def _model_scenario(scenario: Scenario, model: PricingModel) -> Scenario:
    if PricingModel(scenario["pricing.model"]) is model:
        return scenario
    return scenario.replace(
        {
            "pricing.model": model.value,
            "pricing.usd_per_instance_hour": None,
            "pricing.price_source": None,
            "pricing.price_as_of": None,
        }
    )


def entered_prices(prices: Mapping[str, float] | None) -> dict[PricingModel, float]:
    """Rates entered for one comparison by pricing model [USD/h]; a ValidationError naming
    ``--price`` for an unknown model or a rate outside [0, 10,000] USD/h.

    Parameters
    ----------
    prices : mapping of str to float or None
        Pricing model name -> rate [USD/instance-h], as typed with ``--price``.

    Returns
    -------
    dict of PricingModel to float
        The rates by pricing model [USD/instance-h].

    Examples
    --------
    >>> entered_prices({"spot": 12.5})
    {<PricingModel.SPOT: 'spot'>: 12.5}
    """
    entered: dict[PricingModel, float] = {}
    for key, value in (prices or {}).items():
        try:
            model = PricingModel(key)
        except ValueError:
            raise ValidationError(
                "--price",
                f"{key[:40]!r} is not a pricing model; allowed: "
                + ", ".join(m.value for m in PricingModel),
            ) from None
        if not (isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= 10_000):
            raise ValidationError(
                f"--price {key}",
                f"{value!r} is out of range (a number in [0, {_fmt(10_000)}] USD/h)",
            )
        entered[model] = float(value)
    return entered


def _entered_price(entered: Mapping[PricingModel, float], model: PricingModel) -> pr.Price:
    """A rate entered for this comparison (``--price MODEL=USD``) as a Price."""
    return pr.Price(entered[model], "entered for this comparison", pr.UNDATED, "user", model.value)


def _failure_free_cost(plan: BlockPlan, ff_days: float, rate: float) -> float:
    """What the plan's runs would pay for their block and overrun without failures and
    checkpoints [USD]: each run's failure-free time T_ff·sᵢ (sᵢ its own step multiplier,
    as the plan's runs draw it), on the cheapest block the same rule would buy for them
    (the least expected cost among the purchasable blocks that hold them with probability
    at least 1 − risk) or on the plan's own block, whichever costs less on average (storage
    left out, as in the failures' cost it is subtracted from).  Before QA 28 #9 the plan's
    runs were at the point step time and the comparator one run of T_ff."""
    mult = plan.step_multiplier if plan.step_multiplier is not None else np.ones(1)
    ff_runs = ff_days * np.asarray(mult, dtype=float)
    allowed = np.asarray(pr.CAPACITY_BLOCK_DAYS, dtype=float)
    kw = {
        "instances": float(plan.capacity_block_instances),
        "block_usd_per_instance_hour": rate,
        "overrun_usd_per_instance_hour": plan.overrun_price.usd_per_instance_hour,
        "storage_usd_per_day": 0.0,
        "transition_days": plan.transition_minutes / 1440.0,
    }
    costs = np.mean(block_costs(ff_runs, np.append(allowed, plan.block_days), **kw), axis=1)
    holds = np.mean(ff_runs[None, :] + MARGIN_DAYS <= allowed[:, None], axis=1)
    ok = np.append(holds >= 1.0 - plan.risk - 1e-12, True)  # the plan's own block: always
    finite = ok & np.isfinite(costs)
    return float(np.min(costs[finite])) if finite.any() else math.nan


def _capacity_block_row(row, rate, m, days, ff_days, instances, plan) -> None:
    """Fill a Capacity Block bill row in place: block [day], total [USD] and what failures
    and checkpoints cost, (D(T) − D(T_ff))·24·n·p [USD] with D the purchasable block for
    x + margin; the plan's block and expected total when ``plan`` has the same rate [USD/h],
    failures and checkpoints then costing what the plan's block and expected overrun cost
    beyond what the failure-free runs would pay (:func:`_failure_free_cost`: the block the
    same risk rule buys for them, or the plan's with their overrun; never below 0, also
    when the plan's block is shorter than the failure-free run)."""
    block_ff = float(pr.purchasable_block_days(ff_days + MARGIN_DAYS))
    ff_cost = pr.capacity_block_usd(block_ff, instances, rate)
    if plan is not None and plan.block_price.usd_per_instance_hour == rate:
        # the Plan's block: its expected total over the simulated runs (block,
        # overrun and storage, models.plan.block_costs), so the bill's row and the
        # plan's figure are one figure; failures and checkpoints cost what its block and
        # overrun cost beyond the failure-free runs' (each at its own step time)
        ff_best = _failure_free_cost(plan, ff_days, rate)
        row["block_days"] = plan.block_days
        row["time_to_train_days"] = plan.time_to_finish_mean_days
        row["total_cost_to_train_usd"] = plan.expected_total_cost_usd
        row["failures_and_checkpoints_usd"] = max(
            plan.block_cost_usd + plan.expected_overrun_cost_usd - ff_best, 0.0
        )
        row["basis"] = f"the plan's {plan.block_days:g}-day block, {plan.trials:,} runs"
    else:
        block = float(pr.purchasable_block_days(days + MARGIN_DAYS))
        row["block_days"] = block
        row["total_cost_to_train_usd"] = float(
            block_costs(
                np.array([days]),
                [block],
                instances=float(instances),
                block_usd_per_instance_hour=rate,
                overrun_usd_per_instance_hour=0.0,
                storage_usd_per_day=_float(m["storage_usd_per_day"]),
                transition_days=0.0,
            )[0, 0]
        )
        row["failures_and_checkpoints_usd"] = (
            pr.capacity_block_usd(block, instances, rate) - ff_cost
        )
        if not math.isfinite(block):
            row["reason"] = f"the run needs more than one {pr.CAPACITY_BLOCK_MAX_DAYS}-day block"


def budget_by_pricing_model(
    scenario: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    prices: Mapping[str, float] | None = None,
    plan: BlockPlan | None = None,
) -> list[dict[str, Any]]:
    """The expected run's bill under each pricing model, side by side.

    One row per model: its rate (the scenario's own for its own model, else the public price;
    a row without one says so), effective rate, cost per day and per month, time to train, the
    whole bill of the run (``total_cost_to_train_usd``: instances and storage), and what
    failures and checkpoints cost.  For the per-hour models that is the paid
    time that does not advance training, (T − T_ff)·cluster/day.  Under a Capacity Block the
    hours are paid already: the loss is the extra block days, (D(T) − D(T_ff))·24·n·p with D(x)
    the shortest purchasable block for x + 30 min (the expected run, not a risk level: see
    :func:`plan_capacity_block`).  Spot rows include the Spot interruptions (time to train
    grows).  ``prices`` maps a model's value to a rate entered for this comparison only
    (e.g. your Savings Plan quote); it replaces the public price of that model.  With
    ``plan`` (:func:`plan_capacity_block` of the same scenario, at the same block rate) the
    Capacity Block row is that plan's block and expected total over its simulated runs, so
    a page or command that shows both shows one figure (its ``basis`` says so).

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Mapping of str to Instance, optional
        The instance catalog (default :func:`models.catalog.load_catalog`).
    prices : Mapping of str to float, optional
        Rates entered for this comparison by pricing-model value [USD/h].
    plan : BlockPlan, optional
        The scenario's Capacity Block plan.

    Returns
    -------
    list of dict
        One row per model: rates [USD/h], costs [USD/day], [USD/month] and [USD], time to
        train [day], goodput [fraction], ``available`` and ``reason``.
    """
    cat = catalog if catalog is not None else load_catalog()
    entered = entered_prices(prices)
    inst = _instance(scenario, cat)
    models = list(BUDGET_MODELS)
    own = PricingModel(scenario["pricing.model"])
    for extra in (own, *entered):
        if extra not in models:
            models.append(extra)
    rows: list[dict[str, Any]] = []
    for model in models:
        terms = pr.TERMS[model]
        row: dict[str, Any] = {
            "pricing_model": model.value,
            "label": terms.label,
            "own": model is own,
            "commitment": terms.commitment,
            "upfront": terms.upfront,
            "idle_paid": terms.idle_paid,
            "available": True,
            "reason": "",
        }
        sc = _model_scenario(scenario, model)
        try:
            if model in entered:
                price = _entered_price(entered, model)
            else:
                price = pr.price_in_force(sc, inst)
        except ValidationError as exc:
            rows.append({**row, "available": False, "reason": exc.message})
            continue
        x = resolve_inputs(sc, cat, price=price)
        m = evaluate_arrays(x)
        instances = round(paid_instances(x))  # spares by domain are paid as well
        days = _float(m["time_to_train_days"])
        ff_days = _float(m["compute_days"])
        row.update(
            usd_per_instance_hour=price.usd_per_instance_hour,
            usd_per_instance_hour_effective=_float(m["usd_per_instance_hour_effective"]),
            cluster_usd_per_day=_float(m["cluster_usd_per_day"]),
            total_usd_per_day=_float(m["total_usd_per_day"]),
            total_usd_per_month=_float(m["total_usd_per_month"]),
            goodput=_float(m["goodput"]),
            time_to_train_days=days,
            price_source=price.source,
            price_as_of=price.as_of,
            block_days=math.nan,
        )
        if model is PricingModel.CAPACITY_BLOCK:  # whole UltraServers where sold so
            blocked = pr.capacity_block_instances(instances, inst)
            _capacity_block_row(row, price.usd_per_instance_hour, m, days, ff_days, blocked, plan)
        else:
            row["total_cost_to_train_usd"] = _float(m["total_cost_to_train_usd"])
            row["failures_and_checkpoints_usd"] = (days - ff_days) * _float(
                m["cluster_usd_per_day"]
            )
        rows.append(row)
    return rows
