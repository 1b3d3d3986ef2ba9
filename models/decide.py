"""One decision under a deadline: instance, nodes, pricing, spares, checkpoints and features.

"We must finish by day D with probability P: what do we buy, how do we run it, what will it
cost?"  :func:`decide` searches jointly

* the instance type (every type with a price under at least one pricing model),
* the node count (every count that runs as entered: the parallel layout whole, no
  accelerator idle, the global batch split into whole micro-batches on every replica, and
  memory enough; :func:`models.instances.whole_layout`),
* the pricing model: On-Demand; Capacity Blocks of every purchasable length up to the
  deadline (overrun at the fallback price, :func:`models.plan.block_costs`); Savings Plans
  and Spot when a rate is given (``prices``, or the scenario's own),
* hot spares, the checkpoint strategy and its interval (the exact optimum at the median
  failure rate, then fixed), and the leading resilience features of the ladder that save
  money (:func:`models.resilience.ladder`),

and returns the configuration with the least expected total cost among those that finish
by D with probability at least P (and, with a budget, whose P90 cost is within it).

Two stages.  **Prune analytically**: the chain is vectorised, so for every type, feature set
and strategy one call times every node count (at the median inputs and at their quantiles,
with the group's own features and interval: feasibility and the counts worth a closer look
follow from that and from each pricing model's cost structure, :func:`_window`), and one
more evaluates the counts kept × spare count × (failure rate, step time) quadrature point; P(finish by D) is approximated by Σ w_k Φ((D − T_k)/σ_k) (T_k the
expected wall time at quadrature point k, σ_k the compound-Poisson spread of the failures'
losses) and the cost by its expectation.  **Monte Carlo the short list**
(:func:`simulate_config`): each configuration is simulated with ``trials`` runs in
Latin-hypercube strata of (failure rate, step time) drawn from their 80% intervals
(:mod:`models.uncertainty`), so P(finish) and every cost percentile integrate over both
uncertainties and over failure randomness.  The costs of every pricing model and block
length come from the same simulated times.  Configurations are independent tasks (a seed
per configuration, from its key), so the result does not depend on how many workers run
them (the Dask runner lives in :mod:`goodput_lab.views.decide`).

Sources and rules: ``docs/decide.md``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import ndtr, ndtri

from . import pricing as pr
from ._text import counted
from ._tools import json_finite, six_digits
from .catalog import Instance, load_catalog
from .chain import paid_instances
from .choices import FailureScaling, MfuBasis, PricingModel, Strategy, choice_words
from .errors import ValidationError
from .evaluate import evaluate_arrays, resolve_inputs
from .fields import FIELDS, _fmt
from .instances import instance_mfu, node_step, rank_instances, scaled_failure_rate, whole_layout
from .montecarlo import MAX_DAYS, MAX_WALL_FACTOR, simulate_inputs
from .outputs import format_usd_compact, format_value
from .plan import MARGIN_DAYS, block_costs
from .scenario import Scenario
from .uncertainty import (
    failure_rate_interval,
    quantile_grid,
    rate_quantiles,
    step_time_multipliers,
)

DEFAULT_TRIALS = 2000
MIN_TRIALS = 100
MAX_TRIALS = 100_000
MAX_DEADLINE_DAYS = 3650.0
#: The probabilities of finishing by the deadline a decision can target [-].
MIN_CONFIDENCE, MAX_CONFIDENCE = 0.5, 0.999
#: Strata of (failure rate, step time) per Monte Carlo configuration.
STRATA = 20
#: Quadrature points per input of the analytic prune (n × n grid).
ANALYTIC_GRID = 5
#: Refinement: Monte Carlo rounds on the choice's neighbours, and node steps tried.
REFINE_ROUNDS = 3
REFINE_STEPS = 3
REFINE_FRACTION = 0.01  # each step: 1% of the nodes (at least one TP x PP group)
#: Hot spare counts searched.
SPARES = (0, 1, 2, 4, 8, 16)
#: Node counts searched per candidate group and anchor pair (:func:`_window`): at most
#: NODE_WINDOW counts between the anchors, geometrically spaced.
NODE_WINDOW = 40
MAX_ACCELERATORS = 100_000
#: Monte Carlo short list: for each level of approximate P (relative to the target), the
#: cheapest candidate overall and of every (instance, pricing model); at most MAX_CONFIGS.
P_LEVELS = (-0.10, -0.04, 0.0, 0.03, 0.06)
MAX_CONFIGS = 40


def _levels(target: float) -> list[float]:
    return [min(0.995, max(0.0, target + d)) for d in P_LEVELS]


#: σ of the failures' wall-time spread, inflation for the variance of the loss per failure.
LOSS_CV_FACTOR = 1.2
#: Features never taken from the ladder (spares are searched directly).
SKIP_FEATURES = ("hot_spares",)
#: Fields a feature set may not carry into a candidate (searched directly).
SEARCHED_FIELDS = ("cluster.spare_nodes", "checkpoint.interval_minutes", "checkpoint.strategy")
PER_HOUR_MODELS = (
    PricingModel.ON_DEMAND,
    PricingModel.SAVINGS_PLAN_1Y,
    PricingModel.SAVINGS_PLAN_3Y,
    PricingModel.SPOT,
    PricingModel.HYPERPOD,
    PricingModel.CUSTOM,
)


# --------------------------------------------------------------------------- inputs
@dataclass(frozen=True)
class PriceOption:
    """A way to pay for one instance type: model, rate [USD/instance-h] and provenance."""

    model: str
    usd_per_instance_hour: float
    source: str
    as_of: str
    entered: bool  # given by the user or the scenario (goes into ``set``)

    @property
    def label(self) -> str:
        return pr.TERMS[PricingModel(self.model)].label


#: The checkpoint interval of the configuration that finds the node counts at which each
#: instance type runs as entered (:func:`_runnable_grid`) [min]; which counts meet the
#: deadline is judged per candidate group, with its own features and interval.
PROBE_INTERVAL_MINUTES = 60.0


@dataclass(frozen=True)
class Config:
    """One configuration the Monte Carlo simulates (pricing aside, except Spot)."""

    instance: str
    nodes: int
    spares: int
    strategy: str
    features: tuple[str, ...]
    interval_minutes: float
    spot: bool = False

    def key(self) -> str:
        f = "+".join(self.features) or "-"
        return (
            f"{self.instance}|{self.nodes}|{self.spares}|{self.strategy}|{f}|"
            f"{self.interval_minutes:.6g}|{'spot' if self.spot else 'paid'}"
        )

    def seed_key(self) -> int:
        """The configuration's random stream: the same for every configuration (common random
        numbers: candidates are compared on the same draws of failure rate, step time and
        failures, so their differences are not noise), independent of worker and order."""
        return 0


def parse_prices(items: Sequence[str] | None, catalog: Mapping[str, Instance]) -> dict:
    """``[INSTANCE:]MODEL=USD`` entries as ``{(instance or None, model): usd}``.

    Without an instance the rate is for the scenario's own type.

    Parameters
    ----------
    items : sequence of str, optional
        ``[INSTANCE:]MODEL=USD`` entries as typed (``--price``) [USD/instance-h].
    catalog : Mapping[str, Instance]
        Instance catalog keyed by node type, to check the instance names.

    Returns
    -------
    dict
        ``{(instance or None, pricing model): rate}`` [USD/instance-h].
    """
    out: dict[tuple[str | None, str], float] = {}
    allowed = [m.value for m in PricingModel if m is not PricingModel.CUSTOM]
    for item in items or []:
        left, sep, value = str(item).partition("=")
        if not sep:
            raise ValidationError("--price", f"{str(item)[:80]!r} is not [INSTANCE:]MODEL=USD")
        inst, _, model = left.strip().rpartition(":")
        model = model.strip()
        if model not in allowed:
            raise ValidationError(
                "--price", f"{model[:40]!r} is not a pricing model; allowed: " + ", ".join(allowed)
            )
        if inst and inst not in catalog:
            raise ValidationError(
                "--price", f"{inst[:40]!r} is not in the catalog; allowed: " + ", ".join(catalog)
            )
        try:
            usd = float(value)
        except ValueError:
            usd = math.nan
        if not (math.isfinite(usd) and 0 < usd <= 10_000):
            raise ValidationError(
                f"--price {left.strip()[:40]}",
                f"{value[:40]!r} is {'not a number' if math.isnan(usd) else 'out of range'} "
                f"(a number in (0, {_fmt(10_000)}] USD/instance-h: the least-cost choice needs a price "
                "above 0; for hardware you own, what an hour of it costs you)",
            )
        out[(inst or None, model)] = usd
    return out


def price_options(
    scenario: Scenario, inst: Instance, own: Instance, prices: Mapping
) -> tuple[list[PriceOption], str]:
    """Every way to pay for ``inst`` that has a rate: public On-Demand and Capacity Block
    prices, rates entered with ``prices`` and the scenario's own rate (its own type only).

    Parameters
    ----------
    scenario : Scenario
        The scenario (its own rate applies to its own type).
    inst : Instance
        The instance type to price.
    own : Instance
        The scenario's own instance type.
    prices : Mapping
        Entered rates ``{(instance or None, model): USD/instance-h}`` (:func:`parse_prices`).

    Returns
    -------
    tuple of (list of PriceOption, str)
        The ways to pay [USD/instance-h each], and why none applies when the list is empty.
    """
    opts: dict[str, PriceOption] = {}
    for model in (PricingModel.ON_DEMAND, PricingModel.CAPACITY_BLOCK):
        try:
            p = pr.model_price(inst, model)
        except ValidationError:
            continue
        opts[model.value] = PriceOption(
            model.value, p.usd_per_instance_hour, p.source, p.as_of, False
        )
    is_own = inst.instance == own.instance
    if is_own and scenario["pricing.usd_per_instance_hour"] is not None:
        m = PricingModel(scenario["pricing.model"])
        if m is not PricingModel.CUSTOM:
            p = pr.price_in_force(scenario, inst)
            opts[m.value] = PriceOption(m.value, p.usd_per_instance_hour, p.source, p.as_of, True)
    for (name, model), usd in prices.items():
        if name == inst.instance or (name is None and is_own):
            opts[model] = PriceOption(model, usd, "entered for this decision", "now", True)
    why = "" if opts else "no public price under any pricing model: enter one (--price)"
    return list(opts.values()), why


def feature_sets(scenario: Scenario, catalog: Mapping[str, Instance]) -> list[tuple[tuple, dict]]:
    """(features, field overrides) for each leading prefix of the recommended ladder.

    The ladder (greedy order, :func:`models.resilience.ladder`) is built once on the
    scenario as given; its leading rungs that save money are the features worth adopting
    there.  Hot spares and the fields searched directly (spares, interval, strategy) are
    left out.  The overrides are the rungs' field values, applied to every candidate.

    Parameters
    ----------
    scenario : Scenario
        The scenario as given.
    catalog : Mapping[str, Instance]
        Instance catalog keyed by node type.

    Returns
    -------
    list of tuple
        ``(features, overrides)`` per leading prefix of the ladder: feature names and the
        field values (in their fields' units) they set.
    """
    from .resilience import ladder

    lad = ladder(scenario, catalog=catalog)
    rec = set(lad.recommended_features)
    out: list[tuple[tuple, dict]] = [((), {})]
    feats: list[str] = []
    over: dict[str, Any] = {}
    for r in lad.rungs[1:]:
        if r.feature not in rec:
            break
        if r.feature in SKIP_FEATURES:
            continue
        feats.append(r.feature)
        for k, _before, after in r.changes:
            if k not in SEARCHED_FIELDS:
                over[k] = after
        if r.feature == "memory_checkpoints":
            # its strategy is one of the strategies searched; its other settings stay
            over.setdefault("checkpoint.strategy", None)
            over.pop("checkpoint.strategy")
        out.append((tuple(feats), dict(over)))
    return out


# --------------------------------------------------------------------------- candidates
def _unit_price(model: str = PricingModel.ON_DEMAND.value) -> pr.Price:
    return pr.Price(1.0, "unit price (node-hours)", "n/a", "internal", model)


def config_scenario(
    scenario: Scenario,
    config: Config,
    catalog: Mapping[str, Instance],
    overrides: Mapping[str, Any],
    option: PriceOption | None = None,
) -> Scenario:
    """The scenario turned into ``config`` (and paid by ``option`` when given).

    Moving to another type rescales the failure rate (and its interval) and the MFU by the
    ranking's rules (:func:`models.instances.scaled_failure_rate`,
    :func:`models.instances.instance_mfu`), so that the result is what ``goodput
    instances`` would evaluate for that type.

    Parameters
    ----------
    scenario : Scenario
        The scenario as given.
    config : Config
        Instance, nodes [count], spares [count], strategy, features and interval [min].
    catalog : Mapping[str, Instance]
        Instance catalog keyed by node type.
    overrides : Mapping[str, Any]
        Field values of the features, in their fields' units.
    option : PriceOption, optional
        How it is paid [USD/instance-h].

    Returns
    -------
    Scenario
        The configuration's scenario.
    """
    own = catalog[scenario["cluster.instance"]]
    inst = catalog[config.instance]
    up: dict[str, Any] = dict(overrides)
    up.update(
        {
            "cluster.instance": config.instance,
            "cluster.nodes": int(config.nodes),
            "cluster.spare_nodes": int(config.spares),
            "checkpoint.strategy": config.strategy,
            "checkpoint.interval_minutes": float(round(config.interval_minutes, 4)),
        }
    )
    if inst.instance != own.instance:
        factor = float(
            scaled_failure_rate(
                1.0,
                own.accelerators_per_node,
                inst.accelerators_per_node,
                FailureScaling(scenario["reliability.failure_scaling"]),
                float(scenario["reliability.accelerator_failure_share"]),
            )
        )
        for key in (
            "reliability.node_failure_rate_per_day",
            "reliability.node_failure_rate_low",
            "reliability.node_failure_rate_high",
        ):
            v = scenario[key]
            if v is not None:
                up[key] = min(1.0, float(v) * factor)
        if MfuBasis(scenario["workload.mfu_basis"]) is not MfuBasis.MODELLED:
            up["workload.mfu"] = instance_mfu(scenario["workload.mfu"], own, inst)[0]
    if option is not None:
        up["pricing.model"] = option.model
        up["pricing.usd_per_instance_hour"] = (
            option.usd_per_instance_hour if option.entered else None
        )
        own_price = (
            option.entered
            and config.instance == own.instance
            and option.model == scenario["pricing.model"]
            and option.usd_per_instance_hour == scenario["pricing.usd_per_instance_hour"]
        )
        if not own_price:  # the scenario's own price keeps its source and date
            # a public price carries its own; one entered for the decision states no date
            up["pricing.price_source"] = option.source if option.entered else None
            up["pricing.price_as_of"] = None
    elif config.spot:
        up["pricing.model"] = PricingModel.SPOT.value
    if "checkpoint.save_seconds" in overrides and up.get("checkpoint.save_mode") == "async":
        # the asynchronous-saves rung's blocking save is the snapshot of the scenario's
        # nodes: this configuration's own (QA 26: 1.005 s of 1,152 nodes on 956 nodes,
        # whose snapshot is 1.006 s)
        from .resilience import async_save_seconds

        stated = {k: v for k, v in up.items() if k != "checkpoint.save_seconds"}
        up["checkpoint.save_seconds"] = async_save_seconds(scenario.replace(stated))
    # every number the choice changes in 6 significant digits, as `goodput fit` sets and
    # prints them, so the --set overrides read short and are the configuration evaluated
    # (QA 26: resilience.in_process_fraction=0.2372881356)
    for k, v in up.items():
        if isinstance(v, float) and math.isfinite(v) and v != scenario[k]:
            up[k] = six_digits(v)
    return scenario.replace(up)


def config_inputs(sc: Scenario, catalog: Mapping[str, Instance], spot_rate: float | None = None):
    """Chain inputs of a configuration's scenario at a unit price (the simulated times do
    not depend on the price; the costs are applied afterwards).

    Parameters
    ----------
    sc : Scenario
        A configuration's scenario (:func:`config_scenario`).
    catalog : Mapping[str, Instance]
        Instance catalog keyed by node type.
    spot_rate : float, optional
        Spot rate [USD/instance-h] when the configuration runs on Spot (its interruptions
        depend on it).

    Returns
    -------
    dict[str, Any]
        Flat chain inputs (:func:`models.evaluate.resolve_inputs`) at a price of 1
        [USD/instance-h].
    """
    model = PricingModel.SPOT.value if sc["pricing.model"] == "spot" else "on_demand"
    base = sc.replace({"pricing.model": model, "pricing.usd_per_instance_hour": None})
    price = _unit_price(model) if spot_rate is None else pr.Price(spot_rate, "", "", "user", model)
    return resolve_inputs(base, catalog, price=price)


# --------------------------------------------------------------------------- analytic prune
def _analytic_group(
    x: dict[str, Any],
    nodes: np.ndarray,
    deadline: float,
    rate_q: np.ndarray,
    step_q: np.ndarray,
    w: np.ndarray,
) -> dict[str, np.ndarray]:
    """Approximate P(finish by D) and expected wall time for nodes × spares at once.

    Returns arrays of shape (len(nodes), len(SPARES)): ``p``, ``days`` (expected wall time),
    ``tau`` (the interval chosen), ``storage`` (USD/day), plus ``t_k`` (…, k) per
    quadrature point for the block costs.
    """
    n_n, n_s, n_k = nodes.size, len(SPARES), rate_q.size
    nn, ss = np.meshgrid(nodes, np.asarray(SPARES, float), indexing="ij")
    # the interval: the exact optimum at the median rate (within the field's range, as
    # evaluate sets "optimal": :func:`_finite_interval`), then fixed
    x0 = {**x, "cluster.nodes": nn.ravel(), "cluster.spare_nodes": ss.ravel()}
    x0["checkpoint.interval_optimal"] = True
    x0["checkpoint.interval_minutes"] = np.nan
    m0 = evaluate_arrays(x0)
    tau = _finite_interval(
        np.broadcast_to(np.asarray(m0["checkpoint_interval_minutes"], float), nn.size)
    )
    xk = dict(x)
    xk["cluster.nodes"] = np.repeat(nn.ravel(), n_k)
    xk["cluster.spare_nodes"] = np.repeat(ss.ravel(), n_k)
    xk["checkpoint.interval_optimal"] = False
    xk["checkpoint.interval_minutes"] = np.repeat(tau, n_k)
    xk["reliability.node_failure_rate_per_day"] = np.tile(rate_q, n_n * n_s)
    m = evaluate_arrays(xk)
    shape = (n_n, n_s, n_k)

    def col(key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(m[key], float), (nn.size * n_k,)).reshape(shape)

    t = col("time_to_train_days") * step_q[None, None, :]
    lost_min = col("minutes_lost_per_failure")
    fails = col("failures_per_day") + col("fabric_failures_per_day")
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        sigma = np.sqrt(np.maximum(fails * t, 0.0)) * lost_min / 1440.0 * LOSS_CV_FACTOR
        sigma = np.maximum(sigma, 1e-6 * np.maximum(t, 1e-9))
        z = (deadline - t) / sigma
    phi = ndtr(np.where(np.isfinite(z), z, -40.0))
    ok = np.isfinite(t)
    p = np.where(ok, phi, 0.0) @ w
    days = np.where(ok, t, np.inf) @ w
    storage = col("storage_usd_per_day")[..., 0]
    return {
        "p": p,
        "days": days,
        "t_k": np.where(ok, t, np.inf),
        "tau": tau.reshape(n_n, n_s),
        "storage": storage,
        "nodes": nn,
        "spares": ss,
    }


def _node_grid(scenario: Scenario, inst: Instance) -> np.ndarray:
    """Every node count that keeps the parallel layout whole on ``inst`` (whole TP × PP × CP
    replicas, as many as the expert-parallel grid divides: :func:`models.instances.node_step`,
    the rule ``goodput instances`` steps by), up to MAX_ACCELERATORS accelerators."""
    step = node_step(scenario, inst)
    hi = max(step, MAX_ACCELERATORS // inst.accelerators_per_node)
    return np.arange(step, hi + 1, step, dtype=float)


def _runnable_grid(x: dict[str, Any], grid: np.ndarray) -> tuple[np.ndarray, str]:
    """The node counts of ``grid`` at which the job runs as entered, and a note when none
    does.

    A count runs as entered when its step can be modelled, the global batch splits into
    whole micro-batches on every data-parallel replica and no accelerator is idle
    (:func:`models.instances.whole_layout`, the rule of ``goodput instances
    --deadline-days``; QA 28 #4: 816 p5 nodes for llama3-70b are 204 replicas of 10.04
    micro-batches, 900 H800 nodes for DeepSeek-V3 leave 32 accelerators idle and train no
    faster than 896).  When the batch splits at no count that can run (16M tokens of 8,192
    are 1,953.12 sequences), every count that can run is kept and the note says so.

    Parameters
    ----------
    x : dict[str, Any]
        Chain inputs of the type (:func:`config_inputs`).
    grid : numpy.ndarray
        Node counts that keep the layout whole (:func:`_node_grid`) [count].

    Returns
    -------
    tuple of (numpy.ndarray, str)
        The counts [count] (empty when none can run), and the note ("" when the rule holds).
    """
    m = evaluate_arrays({**x, "cluster.nodes": grid, "cluster.spare_nodes": 0.0})
    t = np.broadcast_to(np.asarray(m["time_to_train_days"], float), grid.shape)
    fin = np.isfinite(t)
    whole = whole_layout(m, grid.shape) & fin
    if whole.any() or not fin.any():
        return grid[whole], ""

    def at(key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(m[key], float), grid.shape)[fin][0]

    seqs = at("micro_batches_per_step") * at("micro_batch_sequences_effective")
    seqs *= at("data_parallel_size")
    batch = f"{seqs:,.0f}" if abs(seqs - round(seqs)) < 1e-6 else f"{seqs:,.2f}"
    return grid[fin], (
        f"the global batch of {batch} sequences splits into whole micro-batches at no node "
        "count that can run it, so node counts are searched without that rule (goodput "
        "evaluate's batch note names the nearest batches that split)"
    )


def _probe(
    x: dict[str, Any], grid: np.ndarray, deadline: float, target: float
) -> dict[str, np.ndarray]:
    """Expected wall time of one candidate group (type, features, strategy) at every count
    of ``grid``, spares 0 and the checkpoint interval the search would set: at the median
    failure rate and step time (``t_med``), and the time ``target`` of the runs need by the
    prune's own approximation (``t_hi``): the two inputs at their ``target`` quantiles at
    once (for independent lognormal inputs at least their product's quantile; the step
    time's interval read at each count, as it widens with the count: ×1.16 at 16 p5 nodes,
    ×1.25 at 1,504 for aws-16k-h100), plus z_P times the spread of the failures' losses
    (:func:`_analytic_group`'s σ).  With the paid instances and the storage per day of each
    count.

    Returns arrays shaped like ``grid``: ``t_med``, ``t_hi`` [day], ``tau`` [min],
    ``paid`` [count] and ``storage`` [USD/day]."""
    x0 = {**x, "cluster.nodes": grid, "cluster.spare_nodes": 0.0}
    x0["checkpoint.interval_optimal"] = True
    x0["checkpoint.interval_minutes"] = np.nan
    m0 = evaluate_arrays(x0)

    def col(m: Mapping[str, Any], key: str) -> np.ndarray:
        return np.broadcast_to(np.asarray(m[key], float), grid.shape)

    t_med = col(m0, "time_to_train_days")
    # the interval the search sets (evaluate's under "optimal": the exact optimum within
    # the field's range), then fixed, as _analytic_group and the Monte Carlo fix it
    tau = _finite_interval(col(m0, "checkpoint_interval_minutes"))
    iv = failure_rate_interval(x)
    rate_hi = float(rate_quantiles(iv, np.array([target]))[0])
    x_hi = {**x0, "checkpoint.interval_optimal": False, "checkpoint.interval_minutes": tau}
    x_hi["reliability.node_failure_rate_per_day"] = rate_hi
    m_hi = evaluate_arrays(x_hi)
    fin = np.isfinite(t_med)
    step_hi = _step_quantile(m0, grid, fin, target)
    with np.errstate(invalid="ignore", over="ignore"):
        t_hi = col(m_hi, "time_to_train_days") * step_hi
        fails = col(m_hi, "failures_per_day") + col(m_hi, "fabric_failures_per_day")
        sigma = np.sqrt(np.maximum(fails * t_hi, 0.0)) * col(m_hi, "minutes_lost_per_failure")
        t_hi = t_hi + float(ndtri(target)) * sigma / 1440.0 * LOSS_CV_FACTOR
    paid = (col(m0, "cluster_usd_per_day") + col(m0, "spare_usd_per_day")) / 24.0  # unit price
    return {
        "t_med": np.where(fin, t_med, np.inf),
        "t_hi": np.where(np.isfinite(t_hi), t_hi, np.inf),
        "tau": tau,
        "paid": paid,
        "storage": col(m0, "storage_usd_per_day"),
    }


def _step_quantile(
    m: Mapping[str, Any], grid: np.ndarray, fin: np.ndarray, q: float, points: int = 12
) -> np.ndarray:
    """The step time's ``q`` quantile relative to the modelled step at every count of
    ``grid`` [-] (:func:`step_time_multipliers`), read at up to ``points`` counts spread
    geometrically over those that can run and interpolated in log count between them
    (it changes slowly with the count); 1 where none can run."""
    idx = np.flatnonzero(fin)
    if idx.size == 0:
        return np.ones(grid.shape)
    pick = np.unique(
        idx[np.round(np.geomspace(1, idx.size, min(points, idx.size))).astype(int) - 1]
    )

    def at(key: str, i: int) -> float:
        return float(np.broadcast_to(np.asarray(m[key], float), grid.shape)[i])

    keys = [k for k in ("step_seconds", "step_seconds_low", "step_seconds_high") if k in m]
    mult = [
        float(step_time_multipliers({k: at(k, i) for k in keys}, np.array([q]))[0]) for i in pick
    ]
    return np.interp(np.log(grid), np.log(grid[pick]), mult)


def _finite_interval(tau) -> np.ndarray:
    """The checkpoint interval a configuration is given [min]: the optimum where it is
    finite, else the field's upper bound (10,080 min, what ``goodput evaluate`` uses under
    "optimal" when no failure is expected: a save is then all a checkpoint costs; QA 28 #2:
    a 0 failure rate made it ``inf``, which ``--set checkpoint.interval_minutes`` refuses)."""
    top = float(FIELDS["checkpoint.interval_minutes"].max)
    t = np.asarray(tau, float)
    return np.where(np.isfinite(t) & (t > 0), np.minimum(t, top), top)


def _proxy_costs(
    t: np.ndarray,
    probe: Mapping[str, np.ndarray],
    opts: Sequence[PriceOption],
    blocks: np.ndarray,
    fallback: float,
    utilization: float,
) -> list[np.ndarray]:
    """Expected cost of each count [USD] under each way to pay in ``opts``, were its wall
    time ``t`` [day]: the formulas of :func:`_price_group` at one point (per-hour models
    (24·rate·paid + storage)·T; a Capacity Block the cheapest purchasable length B of
    B·24·paid·rate + (T − B + 30 min)⁺·24·paid·fallback + storage·T)."""
    paid, storage = probe["paid"], probe["storage"]
    out = []
    with np.errstate(invalid="ignore", over="ignore"):
        for opt in opts:
            model = PricingModel(opt.model)
            rate = opt.usd_per_instance_hour
            if model is PricingModel.CAPACITY_BLOCK:
                if not math.isfinite(fallback) or blocks.size == 0:
                    continue
                b = blocks[:, None]
                over = np.maximum(t[None, :] - (b - MARGIN_DAYS), 0.0)
                c = b * 24.0 * paid * rate + over * 24.0 * paid * fallback + storage * t
                out.append(np.min(np.where(np.isfinite(c), c, np.inf), axis=0))
            else:
                if model.is_savings_plan:
                    rate = rate / utilization
                out.append((24.0 * paid * rate + storage) * t)
    return out


def _thin(counts: np.ndarray) -> np.ndarray:
    """At most NODE_WINDOW of ``counts`` [count], geometrically spaced (as fine in relative
    terms everywhere), the ends kept."""
    if counts.size <= NODE_WINDOW:
        return counts
    want = np.geomspace(counts[0], counts[-1], NODE_WINDOW)
    return np.unique(counts[np.clip(np.searchsorted(counts, want), 0, counts.size - 1)])


def _window(
    grid: np.ndarray,
    probe: Mapping[str, np.ndarray],
    deadline: float,
    costs: Callable[[np.ndarray], list[np.ndarray]],
) -> np.ndarray:
    """Node counts of one candidate group worth the analytic prune [count].

    Every count of ``grid`` is timed (:func:`_probe`), so the window follows the cost
    structure of each way to pay rather than a span around the smallest count that meets
    the deadline (QA 28 #1: 8-20 nodes for a 3,650-day deadline, while a Capacity Block
    is cheapest at the count that fits the run into a block, 140 nodes, never searched).
    For the deadline alone and for each way to pay (``costs(t)``: the expected cost of
    every count were its time ``t``, :func:`_proxy_costs`), two anchors:

    * at the median inputs, the cheapest count whose expected time meets D (for the
      deadline alone, the smallest);
    * at the inputs' quantiles of the highest level the short list takes (P + 0.06, with
      the failures' spread: :func:`_probe`), the same (the fastest count when none meets D
      there): the count that reaches that level with no margin to spare;

    and every count from the lower anchor to one count past the upper one (P is reached
    between them: below the first fewer than half the runs finish in time, past the
    second more nodes only add cost), thinned to NODE_WINDOW counts each.  Empty when no
    count's expected time meets D.
    """
    t_med, t_hi = probe["t_med"], probe["t_hi"]
    if not (t_med <= deadline).any():
        return np.zeros(0)

    def cheapest(t: np.ndarray, c: np.ndarray | None) -> int | None:
        ok = t <= deadline
        if c is not None:
            ok = ok & np.isfinite(c)
        if not ok.any():
            return None
        idx = np.flatnonzero(ok)
        return int(idx[0] if c is None else idx[np.argmin(c[idx])])

    fastest_hi = int(np.argmin(t_hi)) if np.isfinite(t_hi).any() else int(np.argmin(t_med))
    pairs = [(cheapest(t_med, None), cheapest(t_hi, None))]
    pairs += list(zip([cheapest(t_med, c) for c in costs(t_med)],
                      [cheapest(t_hi, c) for c in costs(t_hi)], strict=True))  # fmt: skip
    out: list[np.ndarray] = []
    for a, b in pairs:
        if a is None:
            continue
        b = fastest_hi if b is None else b
        lo, hi = min(a, b), min(max(a, b) + 1, grid.size - 1)
        out.append(_thin(grid[lo : hi + 1]))
    sel = np.unique(np.concatenate(out)) if out else np.zeros(0)
    return sel[np.isfinite(t_med[np.searchsorted(grid, sel)])]


@dataclass
class _Candidate:
    config: Config
    option: PriceOption
    block_days: float | None
    p_analytic: float
    cost_analytic: float
    overrides: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Fastest:
    """A type's fastest configuration when no count meets the deadline in expectation."""

    days: float
    config: Config
    overrides: dict[str, Any]


def analytic_candidates(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    deadline: float,
    target: float,
    prices: Mapping,
    instances: Sequence[str] | None = None,
    fastest: dict[str, _Fastest] | None = None,
    grids: dict[str, np.ndarray] | None = None,
    notes: dict[str, str] | None = None,
) -> tuple[list[_Candidate], dict[str, str], list[tuple[tuple, dict]], int]:
    """Every candidate the analytic prune keeps, the reasons types were dropped, the feature
    sets, and how many candidates were evaluated analytically.

    A type is dropped when no candidate group of it (feature set, checkpoint strategy,
    Spot or paid) meets the deadline in expectation at any node count: feasibility is
    judged with the features, strategies and intervals the search itself may adopt
    (QA 28 #3: the probe had no feature and 60-minute checkpoints, and dropped p5 at a
    failure rate of 0.1 per node-day that its features make feasible).

    Parameters
    ----------
    scenario : Scenario
        The scenario as given.
    catalog : Mapping[str, Instance]
        Instance catalog keyed by node type.
    deadline : float
        Deadline D [day].
    target : float
        Confidence P [fraction].
    prices : Mapping
        Entered rates (:func:`parse_prices`) [USD/instance-h].
    instances : sequence of str, optional
        Instance types to search; default the whole catalog.
    fastest : dict, optional
        Filled with ``{instance: _Fastest}``: the fastest configuration of each priced type
        that misses the deadline at every node count (expected days [day]).
    grids : dict, optional
        Filled with ``{instance: node counts}``: the counts each type runs as entered
        [count] (:func:`_runnable_grid`).
    notes : dict, optional
        Filled with ``{instance: note}`` where a type's counts are not restricted to whole
        micro-batches (the batch splits at none).

    Returns
    -------
    tuple
        (kept candidates, ``{instance: why dropped}``, feature sets
        (:func:`feature_sets`), candidates evaluated [count]).
    """
    own = catalog[scenario["cluster.instance"]]
    fsets = feature_sets(scenario, catalog)
    qr, qs, w = quantile_grid(ANALYTIC_GRID)
    dropped: dict[str, str] = {}
    kept: list[_Candidate] = []
    evaluated = 0
    names = list(catalog) if instances is None else list(instances)
    allowed_b = np.asarray(pr.CAPACITY_BLOCK_DAYS, float)
    top_b = pr.purchasable_block_days(deadline)
    blocks = allowed_b[allowed_b <= (top_b if math.isfinite(top_b) else allowed_b[-1])]
    for name in names:
        if name not in catalog:
            raise ValidationError(
                "--instances",
                f"{name[:40]!r} is not in the catalog; allowed: " + ", ".join(catalog),
            )
        inst = catalog[name]
        opts, why = price_options(scenario, inst, own, prices)
        if not opts:
            dropped[name] = why
            continue
        spot_opts = [o for o in opts if o.model == PricingModel.SPOT.value]
        paid_opts = [o for o in opts if o.model != PricingModel.SPOT.value]
        grid, layout, why = _type_grid(scenario, catalog, name)
        if grid is None:
            dropped[name] = why
            continue
        if grids is not None:
            grids[name] = grid
        if layout and notes is not None:
            notes[name] = layout
        fallback = _fallback_rate(scenario, name, catalog, prices)
        found, n_eval, quickest = _instance_candidates(
            scenario, catalog, name, grid, fsets, (spot_opts, paid_opts), (blocks, fallback),
            (deadline, target), (qr, qs, w),
        )  # fmt: skip
        kept.extend(found)
        evaluated += n_eval
        if not found and quickest is not None and quickest.days > deadline:
            dropped[name] = _misses_text(deadline, grid, quickest)
            if fastest is not None:
                fastest[name] = quickest
        elif not found:
            dropped[name] = "no configuration of it can be priced or run"
    return kept, dropped, fsets, evaluated


def _type_grid(scenario: Scenario, catalog: Mapping[str, Instance], name: str):
    """(node counts type ``name`` runs the workload at as entered, the note where no count
    splits the batch, why it runs at none): :func:`_node_grid` checked by
    :func:`_runnable_grid` on a probe configuration; (None, "", why) when it runs at none."""
    grid = _node_grid(scenario, catalog[name])
    probe = Config(
        name, int(grid[0]), 0, scenario["checkpoint.strategy"], (), PROBE_INTERVAL_MINUTES
    )
    try:
        x_probe = config_inputs(config_scenario(scenario, probe, catalog, {}), catalog)
    except ValidationError as exc:
        return None, "", exc.message
    grid, layout = _runnable_grid(x_probe, grid)
    if grid.size == 0:
        return None, "", "cannot run this workload at any node count (memory or catalog)"
    return grid, layout, ""


def _misses_text(deadline: float, grid: np.ndarray, quickest: _Fastest) -> str:
    """Why a type is dropped: it misses the deadline in expectation at every node count,
    with its fastest expected time and the settings it was found with (the features and
    interval the search may adopt; QA 28 #13: "fastest 207153.2 days", 567 years, is
    said as beyond the longest deadline)."""
    from .resilience import FEATURES

    cfg = quickest.config
    feats = [FEATURES[f].label if f in FEATURES else f for f in cfg.features]
    adopted = f"resilience features ({'; '.join(feats)})" if feats else "no resilience feature"
    how = (
        f"with {adopted} and {choice_words('checkpoint.strategy', cfg.strategy)} checkpoints "
        f"every {format_value('checkpoint_interval_minutes', cfg.interval_minutes)}"
    )
    if quickest.days > MAX_DEADLINE_DAYS:
        when = f"its expected time is over {MAX_DEADLINE_DAYS:,.0f} days at every count, {how}"
    else:
        when = f"fastest {quickest.days:.1f} days at {cfg.nodes:,} nodes, expected, {how}"
    return (
        f"misses the {deadline:g}-day deadline at any node count up to {grid[-1]:,.0f} "
        f"({when}; goodput instances times the scenario's own settings)"
    )


def _instance_candidates(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    name: str,
    grid: np.ndarray,
    fsets: list[tuple[tuple, dict]],
    opts: tuple[list[PriceOption], list[PriceOption]],
    paying: tuple[np.ndarray, float],
    brief: tuple[float, float],
    grids: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[list[_Candidate], int, _Fastest | None]:
    """The candidates of one instance type that the analytic prune keeps, over feature sets,
    strategies, Spot or paid, node counts [count] (each group's own :func:`_window` of
    ``grid``) and ways to pay, with the number of candidates evaluated [count] and the
    type's fastest configuration (least expected days over every group and count): the
    failure rate and step time at the quantiles of their intervals
    (:func:`rate_quantiles`, :func:`step_time_multipliers`)."""
    spot_opts, paid_opts = opts
    blocks, fallback = paying
    deadline, target = brief
    qr, qs, w = grids
    util = float(scenario["pricing.commitment_utilization"])
    kept: list[_Candidate] = []
    evaluated = 0
    quickest: _Fastest | None = None
    strategies = [s.value for s in Strategy]
    for feats_all, over in fsets:
        for strategy in strategies:
            # the in-memory rung's own setting is the strategy, searched here: under a
            # durable-only strategy it is not adopted, so it is not listed either
            feats = _adopted_features(feats_all, strategy)
            for spot in [False] if not spot_opts else [False, True]:
                group_opts = spot_opts if spot else paid_opts
                if not group_opts:
                    continue
                cfg0 = Config(name, int(grid[0]), 0, strategy, feats, 60.0, spot)
                sc = config_scenario(scenario, cfg0, catalog, over)
                try:
                    x = config_inputs(sc, catalog)
                except ValidationError:
                    continue
                # up to the highest level the short list takes (target + 0.06): the analytic
                # P it is read with can be optimistic (aws-16k-h100: 0.96 where the runs give 0.90)
                probe = _probe(x, grid, deadline, _levels(target)[-1])
                i = int(np.argmin(probe["t_med"]))
                if math.isfinite(probe["t_med"][i]) and (
                    quickest is None or probe["t_med"][i] < quickest.days
                ):
                    cfg = Config(name, int(grid[i]), 0, strategy, feats,
                                 float(probe["tau"][i]), spot)  # fmt: skip
                    quickest = _Fastest(float(probe["t_med"][i]), cfg, dict(over))

                def costs(t, _p=probe, _o=group_opts):
                    return _proxy_costs(t, _p, _o, blocks, fallback, util)

                nodes = _window(grid, probe, deadline, costs)
                if nodes.size == 0:
                    continue
                iv = failure_rate_interval(x)
                rates = rate_quantiles(iv, qr)
                m1 = evaluate_arrays({**x, "cluster.nodes": float(nodes[0])})
                mult = step_time_multipliers(m1, qs)
                g = _analytic_group(x, nodes, deadline, rates, mult, w)
                evaluated += g["p"].size
                inst_count = g["nodes"] + g["spares"]
                for opt in group_opts:
                    kept.extend(
                        _price_group(
                            g,
                            opt,
                            inst_count,
                            (blocks, fallback),
                            deadline,
                            target,
                            name,
                            strategy,
                            feats,
                            spot,
                            over,
                            w,
                            scenario,
                        )
                    )
    return kept, evaluated, quickest


def _adopted_features(features: tuple[str, ...], strategy: str) -> tuple[str, ...]:
    """The ladder features a configuration actually adopts under ``strategy``: all of them,
    except in-memory checkpoints under a durable-only strategy (that rung's setting is the
    strategy, which the search sets)."""
    if strategy != Strategy.DURABLE_ONLY.value:
        return features
    return tuple(f for f in features if f != "memory_checkpoints")


def _price_group(
    g, opt, inst_count, paying, deadline, target, name, strategy, feats, spot, over, w, scenario
) -> list[_Candidate]:
    """The cheapest analytic candidates of one pricing option (and block length)."""
    blocks, fallback = paying
    model = PricingModel(opt.model)
    p = g["p"]
    out: list[_Candidate] = []

    def keep(cost: np.ndarray, block: np.ndarray | None) -> None:
        fin = np.isfinite(cost)
        idx: list[int] = []
        for level in _levels(target):
            ok = (p >= level) & fin
            if ok.any():
                idx.append(int(np.argmin(np.where(ok, cost, np.inf))))
        if not idx and fin.any():  # the closest: highest P
            idx.append(int(np.argmax(np.where(fin, p, -1.0))))
        for i in dict.fromkeys(idx):
            a, b = np.unravel_index(int(i), p.shape)
            cfg = Config(
                name,
                int(g["nodes"][a, b]),
                int(g["spares"][a, b]),
                strategy,
                feats,
                float(g["tau"][a, b]),
                spot,
            )
            out.append(
                _Candidate(
                    cfg,
                    opt,
                    None if block is None else float(block[a, b]),
                    float(p[a, b]),
                    float(cost[a, b]),
                    dict(over),
                )
            )

    if model in PER_HOUR_MODELS:
        rate = opt.usd_per_instance_hour
        if model.is_savings_plan:
            rate = rate / float(scenario["pricing.commitment_utilization"])
        cost = g["days"] * (24.0 * inst_count * rate + g["storage"])
        keep(cost, None)
    elif model is PricingModel.CAPACITY_BLOCK:
        if not math.isfinite(fallback) or blocks.size == 0:
            return out
        costs = []
        for b in blocks:
            over_days = np.maximum(g["t_k"] - (b - MARGIN_DAYS), 0.0)
            cost_k = (
                b * 24.0 * inst_count[..., None] * opt.usd_per_instance_hour
                + over_days * 24.0 * inst_count[..., None] * fallback
                + g["storage"][..., None] * g["t_k"]
            )
            costs.append(cost_k @ w)
        stack = np.stack(costs)
        best = np.argmin(np.where(np.isfinite(stack), stack, np.inf), axis=0)
        keep(np.min(stack, axis=0), blocks[best])
    return out


def _entered_on_demand(name: str, scenario: Scenario, prices: Mapping | None) -> float | None:
    """An On-Demand rate entered for this decision for type ``name`` (``--price
    [name:]on_demand=USD``; without a type, for the scenario's own) [USD/instance-h], or
    None."""
    prices = prices or {}
    od = PricingModel.ON_DEMAND.value
    if (name, od) in prices:
        return float(prices[(name, od)])
    if name == scenario["cluster.instance"] and (None, od) in prices:
        return float(prices[(None, od)])
    return None


def _fallback_rate(
    scenario: Scenario, name: str, cat: Mapping[str, Instance], prices: Mapping | None = None
) -> float:
    """Rate of the hours after a Capacity Block [USD/instance-h]: the scenario's overrun
    price when set; else the on-demand price in force for that type, as
    :func:`models.pricing.overrun_price` (``goodput plan``) has it and docs/pricing.md §3
    says: an On-Demand rate entered for this decision (``--price [TYPE:]on_demand=USD``,
    QA 28 #6: the block's overrun stayed at the public $55.04 beside an entered $42.50),
    on the scenario's own type its on-demand price, on another type that type's public
    price (a price belongs to its type: :func:`models.pricing.price_follows_instance`);
    NaN when unknown."""
    own = scenario["pricing.overrun_usd_per_instance_hour"]
    if own is None and name not in cat:
        return math.nan
    try:
        on_demand = _entered_on_demand(name, scenario, prices)
        return pr.overrun_price(scenario, cat.get(name), on_demand=on_demand).usd_per_instance_hour
    except ValidationError:  # no on-demand price to fall back on
        return math.nan


def _fallback_is_on_demand(scenario: Scenario) -> bool:
    """Whether a block's overrun is billed at its type's On-Demand rate (no overrun price of
    the scenario's own), so that a change of that rate moves both."""
    return scenario["pricing.overrun_usd_per_instance_hour"] is None


# --------------------------------------------------------------------------- Monte Carlo
def simulate_config(
    inputs: Mapping[str, Any], trials: int, seed: int, seed_key: int
) -> dict[str, np.ndarray]:
    """Wall times to finish one configuration's workload over the inputs' uncertainty [day].

    Every run has its own failure rate and step time, drawn from the two lognormals of
    :mod:`models.uncertainty` (the rate stratified into :data:`STRATA` equal-probability
    bins, the step time stratified over all runs).  The failures themselves are simulated
    (:func:`models.montecarlo.simulate_inputs`) once per rate bin, at the bin's median rate
    and the modelled compute W; each run's time is then carried to its own rate λᵢ and step
    multiplier sᵢ by the scaling of the renewal-reward process: the mean wall time grows as
    sᵢ·g(λ_bin)/g(λᵢ) (g the analytic goodput, W/g the expected wall time) and the spread of
    the failures' losses as its square root,

        Tᵢ = aᵢ·T̄_bin + √aᵢ·(T_sim,i − T̄_bin),   aᵢ = sᵢ·g(λ_bin)/g(λᵢ).

    Unfinished runs (past 4× the compute) are ``inf``.  Random stream: ``SeedSequence(seed,
    spawn_key=(seed_key,))``, so a configuration's result does not depend on which worker
    runs it or in what order.

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Flat chain inputs of the configuration (:func:`config_inputs`).
    trials : int
        Monte Carlo runs [count].
    seed : int
        Random seed [-].
    seed_key : int
        The configuration's spawn key [-] (:meth:`Config.seed_key`).

    Returns
    -------
    ``{"time_to_finish_days": (trials,), "rate": (trials,), "step_multiplier": (trials,),
    "compute_days": ()}``
    """
    ss = np.random.SeedSequence(int(seed), spawn_key=(int(seed_key),))
    rng = np.random.default_rng(ss)
    m = evaluate_arrays(inputs)
    compute_days = float(np.asarray(m["steps_to_train"])) * float(np.asarray(m["step_seconds"]))
    compute_days /= 86_400.0
    trials = int(trials)
    k = min(STRATA, trials)
    sizes = np.full(k, trials // k)
    sizes[: trials % k] += 1
    bins = np.repeat(np.arange(k), sizes)
    u = (bins + rng.random(trials)) / k  # each run's rate quantile, inside its bin
    v = (rng.permutation(trials) + rng.random(trials)) / trials  # step quantiles, stratified
    iv = failure_rate_interval(inputs)
    rates = rate_quantiles(iv, u)
    bin_rates = rate_quantiles(iv, (np.arange(k) + 0.5) / k)
    mult = step_time_multipliers(m, v)
    x = dict(inputs)
    if bool(x.get("checkpoint.interval_optimal", False)):  # a decision: fixed, not per rate
        x["checkpoint.interval_minutes"] = float(np.asarray(m["checkpoint_interval_minutes"]))
        x["checkpoint.interval_optimal"] = False
    g_run = np.broadcast_to(
        np.asarray(
            evaluate_arrays({**x, "reliability.node_failure_rate_per_day": rates})["goodput"], float
        ),
        (trials,),
    )
    g_bin = np.broadcast_to(
        np.asarray(
            evaluate_arrays({**x, "reliability.node_failure_rate_per_day": bin_rates})["goodput"],
            float,
        ),
        (k,),
    )
    children = rng.spawn(k)
    t = np.full(trials, np.inf)
    work = compute_days
    if math.isfinite(work) and 0 < work <= MAX_DAYS:
        for j in range(k):
            sel = bins == j
            res = simulate_inputs(
                {**x, "reliability.node_failure_rate_per_day": float(bin_rates[j])},
                int(sizes[j]),
                work,
                work_days=work,
                rng=children[j],
                record_timeline=False,
                grid_points=2,
            )
            tj = np.where(np.isfinite(res.time_to_finish_days), res.time_to_finish_days, np.inf)
            fin = np.isfinite(tj)
            mean_j = float(np.mean(tj[fin])) if fin.any() else math.inf
            with np.errstate(invalid="ignore", divide="ignore"):
                a = mult[sel] * g_bin[j] / g_run[sel]
                tj = np.where(fin, a * mean_j + np.sqrt(a) * (tj - mean_j), np.inf)
            t[sel] = tj
    return {
        "time_to_finish_days": t,
        "rate": np.asarray(rates, float),
        "step_multiplier": np.asarray(mult, float),
        "compute_days": np.asarray(compute_days),
    }


def _quantile(x: np.ndarray, q: float) -> float:
    with np.errstate(invalid="ignore"):
        v = float(np.quantile(x, q, method="linear"))
    return v if math.isfinite(v) else math.inf


def price_samples(
    t: np.ndarray,
    option: PriceOption,
    *,
    instances: int,
    storage_usd_per_day: float,
    deadline: float,
    block_days: float | None,
    fallback_usd: float,
    transition_days: float,
    commitment_utilization: float = 1.0,
) -> dict[str, Any]:
    """Cost [USD] and finish [day] of each simulated run under one way to pay.

    Per-hour models: cost = T·24·n·p_eff + storage·T (p_eff = rate / commitment use for
    Savings Plans).  Capacity Block of B days: :func:`models.plan.block_costs` (block paid
    up front, overrun after B − 30 min at the fallback price plus one move), and the run
    finishes at T (+ the move when it overruns).  P(finish by D) = share of runs finished
    by D.  ``usd_per_price_unit`` is d(expected cost)/d(rate) (for break-even prices).

    Parameters
    ----------
    t : numpy.ndarray
        Simulated wall times to finish [day], one per run (``inf`` when unfinished).
    option : PriceOption
        How it is paid [USD/instance-h].
    instances : int
        Instances paid for, nodes plus spares [count].
    storage_usd_per_day : float
        Storage cost [USD/day].
    deadline : float
        Deadline D [day].
    block_days : float, optional
        Capacity Block length B [day], for Capacity Block options.
    fallback_usd : float
        Price after the block [USD/instance-h].
    transition_days : float
        Time of a move to new instances after an overrun [day].
    commitment_utilization : float
        Share of the commitment used [fraction] (Savings Plans).

    Returns
    -------
    dict[str, Any]
        ``probability_finish_by_deadline`` [fraction], ``expected_total_cost_usd`` [USD],
        cost quantiles [USD], ``usd_per_price_unit`` [USD per USD/instance-h] and the
        per-run ``_cost`` [USD] and ``_finish`` [day].
    """
    model = PricingModel(option.model)
    n = float(instances)
    if model is PricingModel.CAPACITY_BLOCK:
        b = float(block_days)
        cost = block_costs(
            t,
            [b],
            instances=n,
            block_usd_per_instance_hour=option.usd_per_instance_hour,
            overrun_usd_per_instance_hour=fallback_usd,
            storage_usd_per_day=storage_usd_per_day,
            transition_days=transition_days,
        )[0]
        over = t > b - MARGIN_DAYS
        finish = t + np.where(over, transition_days, 0.0)
        per_unit = b * 24.0 * n
        # d(cost)/d(fallback rate): the overrun instance-hours, 1[T > U]·(T − U + t_move)·24·n
        with np.errstate(invalid="ignore"):
            overrun_h = np.where(over, t - (b - MARGIN_DAYS) + transition_days, 0.0) * 24.0 * n
            per_fallback = float(np.mean(overrun_h))
    else:
        rate = option.usd_per_instance_hour
        util = commitment_utilization if model.is_savings_plan else 1.0
        with np.errstate(invalid="ignore"):
            cost = t * (24.0 * n * rate / util + storage_usd_per_day)
        finish = t
        finite = t[np.isfinite(t)]
        per_unit = float(np.mean(finite)) * 24.0 * n / util if finite.size else math.inf
        per_fallback = 0.0
    with np.errstate(invalid="ignore"):
        exp_cost = float(np.mean(cost))
    return {
        "probability_finish_by_deadline": float(np.mean(finish <= deadline)),
        "expected_total_cost_usd": exp_cost if math.isfinite(exp_cost) else math.inf,
        "total_cost_usd_p10": _quantile(cost, 0.1),
        "total_cost_usd_p90": _quantile(cost, 0.9),
        "time_to_finish_p50_days": _quantile(finish, 0.5),
        "time_to_finish_p90_days": _quantile(finish, 0.9),
        "usd_per_price_unit": per_unit,
        "_usd_per_fallback_unit": per_fallback if math.isfinite(per_fallback) else math.inf,
        "_unfinished": float(np.mean(~np.isfinite(t))),
        "_cost": cost,
        "_finish": finish,
    }


#: Failure-rate multipliers tried by :func:`rate_break_even` (the rate's whole distribution
#: shifted), and the least effective sample size of the reweighted runs it trusts.
RATE_FACTORS = tuple(float(v) for v in np.geomspace(1.05, 4.0, 28))
MIN_ESS_FRACTION = 0.1


def _shift_weights(rates: np.ndarray, iv, factor: float) -> np.ndarray:
    """Importance weights that turn runs drawn with the rate's lognormal into runs drawn with
    it shifted by ``factor`` (median × factor, same σ): f_k(λ)/f_1(λ)."""
    if not (iv.low > 0 and iv.high > iv.low):  # a rate known exactly, or 0: nothing to shift
        return np.ones_like(rates)
    med, sig = iv.median, iv.sigma
    z = np.log(np.maximum(rates, 1e-300) / med)
    d = math.log(factor)
    w = np.exp((z * z - (z - d) ** 2) / (2 * sig * sig))
    return w / w.mean()


def _weighted_quantile(x: np.ndarray, w: np.ndarray, q: float) -> float:
    """The ``q`` quantile of values ``x`` under weights ``w`` (inf when it falls on an
    unfinished run)."""
    order = np.argsort(x, kind="stable")
    cum = np.cumsum(w[order])
    i = int(np.searchsorted(cum, q * cum[-1], side="left"))
    v = float(x[order][min(i, x.size - 1)])
    return v if math.isfinite(v) else math.inf


def rate_redecide(
    rows: Sequence[Mapping[str, Any]],
    ok: Callable[[Mapping[str, Any]], bool],
    rate_of: Callable,
) -> tuple[dict[tuple[str, str], float], float]:
    """The decision again at failure rates scaled by each factor of RATE_FACTORS (the rate's
    whole distribution shifted), among every simulated configuration and way to pay: each
    run is reweighted to the shifted distribution (importance sampling on the runs' own
    rates, :func:`_shift_weights`; no new simulation) while the effective sample size
    stays above MIN_ESS_FRACTION, and the cheapest row that still meets the brief at that
    rate wins.  The choice's own type and pricing therefore re-size among their simulated
    node counts and spares (QA 28 #5: a runner-up "won at 1.10x" as soon as the fixed
    choice slipped below P, though the choice's type with a few more nodes stayed
    cheapest).

    Parameters
    ----------
    rows : sequence of Mapping[str, Any]
        Every simulated row (:func:`_rows`).
    ok : callable
        ``ok(row)``: whether a row meets the brief (:func:`_meets`).
    rate_of : callable
        ``rate_of(row)`` -> (each run's failure rate [per node-day], the rate's
        :class:`~models.uncertainty.Interval`).

    Returns
    -------
    tuple of (dict, float)
        ``{(instance, pricing model): the least factor at which its row wins [-]}``, and the
        largest factor checked [-] (1 when none could be).
    """
    checked = 1.0
    wins: dict[tuple[str, str], float] = {}
    ivs = [rate_of(r)[1] for r in rows]
    if not rows or not all(iv.low > 0 and iv.high > iv.low for iv in ivs):
        # a rate of 0 (scaling it changes nothing) or one known exactly (the runs cannot be
        # reweighted to another): no line rather than a false one
        return wins, checked
    for k in RATE_FACTORS:
        weights: dict[str, np.ndarray] = {}
        for r in rows:
            if r["key"] not in weights:
                rates, iv = rate_of(r)
                weights[r["key"]] = _shift_weights(rates, iv, k)
        # the runs' own effective sample size, and the one the shift allows whatever the
        # draws, 1/E[w²] = exp(−(ln k / σ)²): a few hundred draws miss the tail that a
        # large shift weights, and their own figure overstates it (0.21 at 2.8x for 500)
        ess = min(w.sum() ** 2 / (w * w).sum() / w.size for w in weights.values())
        ess = min(ess, *(math.exp(-((math.log(k) / iv.sigma) ** 2)) for iv in ivs))
        if ess < MIN_ESS_FRACTION:
            break
        checked = k
        best, best_cost = None, math.inf
        for r in rows:
            w = weights[r["key"]]
            with np.errstate(invalid="ignore"):
                shifted = {
                    "probability_finish_by_deadline": float(
                        np.mean(w * (r["_finish"] <= r["_deadline"]))
                    ),
                    "expected_total_cost_usd": float(np.mean(w * r["_cost"])),
                    "total_cost_usd_p90": _weighted_quantile(r["_cost"], w, 0.9),
                }
            if ok(shifted) and shifted["expected_total_cost_usd"] < best_cost:
                best, best_cost = r, shifted["expected_total_cost_usd"]
        if best is not None:
            wins.setdefault((best["instance"], best["pricing_model"]), k)
    return wins, checked


# --------------------------------------------------------------------------- the decision
@dataclass(frozen=True)
class Decision:
    """Result of :func:`decide` (JSON contract in ``to_json_dict``; docs/decide.md)."""

    scenario_name: str
    deadline_days: float
    confidence: float
    budget_usd: float | None
    trials: int
    seed: int
    meets: bool
    choice: dict[str, Any] | None
    set_args: list[str]
    closest: dict[str, Any] | None
    runners_up: list[dict[str, Any]]
    frontier: list[dict[str, Any]]
    rows: list[dict[str, Any]] = field(repr=False)
    dropped: dict[str, str]
    would_take: dict[str, Any]
    what_would_change: list[str]
    failure_rate_interval: tuple[float, float, str]
    step_time_interval: tuple[float, float, str]
    analytic_candidates: int
    simulated_configurations: int
    reference: dict[str, Any] | None
    notes: list[str]

    def sentence(self) -> str:
        """The answer in one sentence."""
        c = self.choice if self.meets else self.closest
        if c is None:
            head = "No priced instance type can train this workload by the deadline"
            if 0 < len(self.dropped) <= 3:  # say why, type by type (more: the notes do)
                return head + ": " + "; ".join(f"{k}: {v}" for k, v in self.dropped.items()) + "."
            return head + "."
        # the block is bought up front; a run still going at its end continues at the
        # overrun price (the expected cost includes it), which the sentence says
        how = c["pricing_label"] + (
            f" ({c['block_days']:g}-day block, then the overrun price until done)"
            if c["block_days"]
            else ""
        )
        spares = _spares_words(c)
        lead = "Buy" if self.meets else "Nothing meets the target; closest:"
        # in the Decide page's words and the registry's formats, as its tiles write them:
        # the strategy as the sidebar words it, the probability in two decimals, dollars in
        # millions from $10M on
        strategy = choice_words("checkpoint.strategy", c["checkpoint_strategy"])
        return (
            f"{lead} {c['nodes']:,}{spares} × {c['instance']} on {how}, {strategy} "
            "checkpoints every "
            f"{format_value('checkpoint_interval_minutes', c['checkpoint_interval_minutes'])}: "
            f"finishes within {self.deadline_days:g} days with probability "
            f"{format_value('probability_finish_by_deadline', c['probability_finish_by_deadline'])}"
            f", {cost_words(c)}."
        )

    def to_json_dict(self) -> dict[str, Any]:
        c = self.choice if self.meets else None
        keys = (
            "instance",
            "nodes",
            "pricing_model",
            "block_days",
            "spare_nodes",
            "checkpoint_strategy",
            "checkpoint_interval_minutes",
            "features",
        )
        out: dict[str, Any] = {
            "scenario_name": self.scenario_name,
            "deadline_days": self.deadline_days,
            "confidence": self.confidence,
            "budget_usd": self.budget_usd,
            "trials": self.trials,
            "seed": self.seed,
            "meets_target": self.meets,
            "answer": self.sentence(),
            "choice": {k: c[k] for k in keys} | _spare_pool(c) if c else None,
            "set": list(self.set_args) if c else [],
            "expected_total_cost_usd": c["expected_total_cost_usd"] if c else None,
            "total_cost_usd_p10": c["total_cost_usd_p10"] if c else None,
            "total_cost_usd_p90": c["total_cost_usd_p90"] if c else None,
            "probability_finish_by_deadline": c["probability_finish_by_deadline"] if c else None,
            "usd_per_instance_hour": c["usd_per_instance_hour"] if c else None,
            "price_source": c["price_source"] if c else None,
            "closest": _public(self.closest) if not self.meets and self.closest else None,
            "would_take": self.would_take,
            "runners_up": [_public(r) for r in self.runners_up],
            "frontier": [_public(r, short=True) for r in self.frontier],
            "what_would_change": list(self.what_would_change),
            "dropped_instances": [{"instance": k, "reason": v} for k, v in self.dropped.items()],
            "node_failure_rate_low": self.failure_rate_interval[0],
            "node_failure_rate_high": self.failure_rate_interval[1],
            "failure_rate_interval_source": self.failure_rate_interval[2],
            "step_time_multiplier_low": self.step_time_interval[0],
            "step_time_multiplier_high": self.step_time_interval[1],
            "step_time_interval_source": self.step_time_interval[2],
            "analytic_candidates": self.analytic_candidates,
            "simulated_configurations": self.simulated_configurations,
            "reference": _public(self.reference) if self.reference else None,
            "notes": list(self.notes),
        }
        return json_finite(out)


_PUBLIC = (
    "instance",
    "nodes",
    "spare_nodes",
    "pricing_model",
    "pricing_label",
    "block_days",
    "checkpoint_strategy",
    "checkpoint_interval_minutes",
    "features",
    "usd_per_instance_hour",
    "expected_total_cost_usd",
    "total_cost_usd_p10",
    "total_cost_usd_p90",
    "probability_finish_by_deadline",
    "time_to_finish_p50_days",
    "time_to_finish_p90_days",
    "why_not",
)


def _spares_words(c: Mapping[str, Any]) -> str:
    """' + N spare' for the answer: every paid node beside the job (hot spares, in-domain
    spares, spare domains' nodes), with the domain policy named when there is one; "" when
    none (QA pass 24: 4 spare domains, 72 paid nodes, went unsaid)."""
    hot, pool = int(c["spare_nodes"]), _spare_pool(c)
    paid, domains = pool["paid_spare_nodes"], pool["spare_domains"]
    per_domain = pool["spare_nodes_per_domain"]
    if paid <= 0:
        return ""
    parts = [f"{hot:,} hot"] if hot and (domains or per_domain) else []
    if domains:
        parts.append(counted(domains, "spare domain"))
    if per_domain:
        parts.append(f"{per_domain:,} in every domain")
    return f" + {paid:,.0f} spare" + (f" ({', '.join(parts)})" if parts else "")


def _spare_pool(c: Mapping[str, Any]) -> dict[str, Any]:
    """The paid spares the answer's ' + N spare' counts, by their public JSON keys: every
    paid node beside the job (hot spares, spare domains' nodes, in-domain spares), the
    spare domains and the spares kept in every domain."""
    return {
        "paid_spare_nodes": float(c.get("_paid_spares", c["spare_nodes"])),
        "spare_domains": int(c.get("_spare_domains", 0)),
        "spare_nodes_per_domain": int(c.get("_in_domain_spares", 0)),
    }


def _public(r: Mapping[str, Any] | None, short: bool = False) -> dict[str, Any] | None:
    if r is None:
        return None
    keys = _PUBLIC if not short else _PUBLIC[:-1]
    return {k: r.get(k) for k in keys}


def _set_text(v: Any) -> str:
    """A value as ``--set`` takes it: a number in 6 significant digits when that is the
    number (the choice's values are rounded so, :func:`six_digits`), else in full."""
    if isinstance(v, float):
        return f"{v:.6g}" if six_digits(v) == v else repr(v)
    return str(v)


def set_arguments(base: Scenario, sc: Scenario) -> list[str]:
    """``section.key=value`` overrides that turn ``base`` into ``sc``.

    Parameters
    ----------
    base : Scenario
        The scenario as given.
    sc : Scenario
        The scenario to reach.

    Returns
    -------
    list of str
        ``section.key=value`` for every field that differs, value in the field's unit.
    """
    out = []
    for k, v in sc.values.items():
        if base[k] != v:
            if v is None and FIELDS[k].kind == "str" and _emptied_by_the_cli(base, sc, k):
                continue  # no "--set pricing.price_as_of=" (QA 26): the CLI empties it
            out.append(f"{k}={_empty_text(k) if v is None else _set_text(v)}")
    return out


def _emptied_by_the_cli(base: Scenario, sc: Scenario, key: str) -> bool:
    """Whether the command line empties the text field ``key`` by itself when the other
    overrides turning ``base`` into ``sc`` are given: a price typed over the scenario's own
    drops its date (:func:`models.pricing.follow_price_edit`, which ``load_scenario``
    applies to ``--set``), so the date needs no ``--set pricing.price_as_of=`` of its own."""
    from .pricing import follow_price_edit

    explicit = {k for k, v in sc.values.items() if base[k] != v and k != key}
    kept = sc.replace({key: base[key]})
    updates = follow_price_edit(base, kept, explicit)
    return key in updates and updates[key] is None


def _empty_text(key: str) -> str:
    """How ``--set`` empties a field: nothing after ``=`` for text ('none' would be stored as
    the text "none"), ``none`` for a number."""
    return "" if FIELDS[key].kind == "str" else "none"


def _validate(deadline_days, confidence, budget_usd, trials, seed) -> None:
    def bad(flag: str, value: Any, what: str) -> ValidationError:
        try:
            number = not isinstance(value, bool) and not math.isnan(float(value))
        except (TypeError, ValueError):
            number = False
        word = "out of range" if number else "not a number"  # nan, "abc"
        return ValidationError(flag, f"{str(value)[:40]!r} is {word} ({what})")

    try:
        d = float(deadline_days)
    except (TypeError, ValueError):
        d = math.nan
    if not (math.isfinite(d) and 0 < d <= MAX_DEADLINE_DAYS):
        raise bad(
            "--deadline-days", deadline_days, f"a number of days in (0, {_fmt(MAX_DEADLINE_DAYS)}]"
        )
    try:
        p = float(confidence)
    except (TypeError, ValueError):
        p = math.nan
    if not (math.isfinite(p) and MIN_CONFIDENCE <= p <= MAX_CONFIDENCE):
        raise bad(
            "--confidence", confidence, f"a probability in [{MIN_CONFIDENCE}, {MAX_CONFIDENCE}]"
        )
    if budget_usd is not None:
        try:
            b = float(budget_usd)
        except (TypeError, ValueError):
            b = math.nan
        if not (math.isfinite(b) and b > 0):
            raise bad("--budget-usd", budget_usd, "a positive number of USD")
    if not (isinstance(trials, int) and MIN_TRIALS <= trials <= MAX_TRIALS):
        raise bad("--trials", trials, f"an integer in [{MIN_TRIALS}, {MAX_TRIALS:,}]")
    if not (isinstance(seed, int) and 0 <= seed < 2**63):
        raise bad("--seed", seed, "a non-negative integer")


#: A runner simulates configurations: ``runner(tasks, progress) -> {key: result}`` with
#: tasks ``[(key, inputs, trials, seed, seed_key)]``; the default runs them here, in order.
Runner = Callable[[list, Callable[[int, int], None] | None], dict[str, dict]]


def serial_runner(tasks: list, progress: Callable[[int, int], None] | None = None) -> dict:
    """Run :func:`simulate_config` for every task in this process, in order.

    Parameters
    ----------
    tasks : list
        ``(key, inputs, trials, seed, seed_key)`` tuples.
    progress : callable, optional
        ``progress(done, total)`` after each task [count].

    Returns
    -------
    dict
        ``{key: simulate_config(...)}`` per task.
    """
    out = {}
    for i, (key, inputs, trials, seed, seed_key) in enumerate(tasks):
        out[key] = simulate_config(inputs, trials, seed, seed_key)
        if progress is not None:
            progress(i + 1, len(tasks))
    return out


def decide(
    scenario: Scenario,
    deadline_days: float,
    confidence: float,
    *,
    budget_usd: float | None = None,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    prices: Mapping | None = None,
    instances: Sequence[str] | None = None,
    catalog: Mapping[str, Instance] | None = None,
    runner: Runner | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Decision:
    """The least expected-cost configuration that finishes by ``deadline_days`` with
    probability at least ``confidence`` (module docstring).

    Parameters
    ----------
    scenario : the workload and how it is run today (its instance, pricing and checkpoint
        settings are starting points, not constraints).
    deadline_days : D [day, in (0, 3650]].
    confidence : P [probability in [0.5, 0.999]].
    budget_usd : with it, a candidate's P90 total cost must be at most this [USD].
    trials : Monte Carlo runs per configuration on the short list.
    seed : random seed (each configuration draws from its own child stream).
    prices : ``{(instance or None, model): USD/instance-h}`` (:func:`parse_prices`).
    instances : restrict the instance types searched (default: the whole catalog).
    runner : simulates the short list (default :func:`serial_runner`; the Dask engine in
        :mod:`goodput_lab.views.decide`).
    progress : ``progress(done, total)`` as configurations finish.

    Returns
    -------
    Decision
    """
    _validate(deadline_days, confidence, budget_usd, trials, seed)
    deadline, target = float(deadline_days), float(confidence)
    cat = catalog if catalog is not None else load_catalog()
    prices = dict(prices or {})
    _check_types(scenario, cat, instances)
    own_iv = failure_rate_interval(scenario)
    fastest: dict[str, _Fastest] = {}
    grids: dict[str, np.ndarray] = {}
    layout_notes: dict[str, str] = {}
    kept, dropped, _fsets, evaluated = analytic_candidates(
        scenario, cat, deadline, target, prices, instances, fastest, grids, layout_notes
    )
    reference = _reference_candidate(scenario, cat, deadline, prices, instances)
    short_of: list[_Candidate] = []
    chosen = _short_list(kept, reference, target, short_of)
    if not chosen and fastest:
        chosen = _fastest_short_list(fastest)

    ok = functools.partial(_meets, target=target, budget_usd=budget_usd)
    meta, results, rows, choice = _simulate_short_list(
        scenario, cat, prices, chosen, reference, (deadline, target, ok), trials=trials,
        seed=seed, runner=runner, progress=progress, grids=grids,
    )  # fmt: skip
    closest = _closest(rows, target)
    ref_row = next((r for r in rows if r["reference"]), None)
    runners = _runners_up(rows, choice, closest, ok, target, deadline, budget_usd)

    frontier = _pareto(rows)
    set_args = _choice_set_args(scenario, cat, meta, choice, prices)
    change = _what_would_change(choice, runners, ok)
    if choice is not None:
        change += _rate_changes(choice, runners, rows, ok, meta, results, target)
    would = _would_take(closest, meta, results, target, deadline, kept) if choice is None else {}
    notes = [f"{name}: {why}" for name, why in dropped.items()] + _joined(layout_notes)
    notes += [_short_of_text(c, deadline, target) for c in short_of]
    notes += _choice_notes(choice, closest, scenario, meta)
    step_lo, step_hi = step_time_multipliers(
        {"step_seconds": 1.0, **_step_bounds(meta)}, np.array([0.1, 0.9])
    )
    return Decision(
        scenario_name=scenario.name,
        deadline_days=deadline,
        confidence=target,
        budget_usd=float(budget_usd) if budget_usd is not None else None,
        trials=int(trials),
        seed=int(seed),
        meets=choice is not None,
        choice=choice,
        set_args=set_args,
        closest=closest,
        runners_up=runners,
        frontier=frontier,
        rows=rows,
        dropped=dropped,
        would_take=would,
        what_would_change=change,
        failure_rate_interval=(own_iv.low, own_iv.high, own_iv.source),
        step_time_interval=(float(step_lo), float(step_hi), _step_source(meta)),
        analytic_candidates=int(evaluated),
        simulated_configurations=len(meta),
        reference=ref_row,
        notes=notes,
    )


def _choice_notes(choice, closest, scenario: Scenario, meta) -> list[str]:
    """The notes on the answer (or the closest miss): the Capacity Block's purchase rule,
    a Savings Plan's commitment and the intervals the simulation drew from."""
    return (
        _capacity_block_notes(choice)
        + _savings_plan_notes(choice, scenario)
        + _interval_notes(choice or closest, meta)
    )


def _check_types(scenario: Scenario, cat: Mapping[str, Instance], instances) -> None:
    """The scenario's type is in the catalog, and ``instances`` (when given) names one
    (QA 28 #16: an empty list searched every type without a word)."""
    if scenario["cluster.instance"] not in cat:
        raise ValidationError("cluster.instance", "is not in the catalog")
    if instances is not None and not [n for n in instances if str(n).strip()]:
        raise ValidationError("--instances", "names no instance type; allowed: " + ", ".join(cat))


def _fastest_short_list(fastest: Mapping[str, _Fastest]) -> dict[str, tuple[Config, dict]]:
    """When every priced type misses the deadline whatever its size: the fastest of them
    (least expected days), at its fastest node count with the features, strategy and
    interval it is fastest with (those the search may adopt: QA 28 #3, "what it would
    take" was timed without them), alone on the short list, so the answer can say how
    close it comes and what it would take."""
    best = min(fastest.values(), key=lambda f: f.days)
    return {best.config.key(): (best.config, dict(best.overrides))}


def _scenario_interval_minutes(scenario: Scenario, cat: Mapping[str, Instance]) -> float:
    """The scenario's checkpoint interval [min], its optimum when it says "optimal"."""
    interval = scenario["checkpoint.interval_minutes"]
    if interval == "optimal":
        interval = evaluate_arrays(resolve_inputs(scenario, cat))["checkpoint_interval_minutes"]
    return float(_finite_interval(interval))


def _closest(rows: Sequence[Mapping[str, Any]], target: float) -> Mapping[str, Any] | None:
    """The row closest to the brief: when some rows reach the target P by the deadline and
    only the budget stops them, the one with the lowest P90 total cost [USD] (the budget is
    what binds); else the highest P(finish by deadline), then the lowest expected total
    cost [USD]; None without rows."""
    if not rows:
        return None
    on_time = [
        r
        for r in rows
        if r["probability_finish_by_deadline"] >= target - 1e-12
        and math.isfinite(r["total_cost_usd_p90"])
    ]
    if on_time:
        return min(on_time, key=lambda r: (r["total_cost_usd_p90"], r["expected_total_cost_usd"]))
    return max(
        rows,
        key=lambda r: (r["probability_finish_by_deadline"], -r["expected_total_cost_usd"]),
    )


def _choice_set_args(scenario, cat, meta, choice, prices=None) -> list[str]:
    """``--set`` arguments that turn the scenario into the choice; none without a choice."""
    if choice is None:
        return []
    cfg, over, _sc, _m, _x = meta[choice["key"]]
    final = config_scenario(scenario, cfg, cat, over, choice["option"])
    overrun = "pricing.overrun_usd_per_instance_hour"
    if choice.get("block_days") and final[overrun] is None:
        # the hours after the block at the rate the decision priced them (_fallback_rate),
        # stated: the choice's own price fields no longer give it (goodput plan would fall
        # back on the catalog's)
        rate = _fallback_rate(scenario, cfg.instance, cat, prices)
        if math.isfinite(rate):
            final = final.replace({overrun: six_digits(rate)})
    return set_arguments(scenario, final)


def _simulate_short_list(
    scenario: Scenario,
    cat: Mapping[str, Instance],
    prices: Mapping,
    chosen: Mapping[str, tuple[Config, dict]],
    reference: _Candidate | None,
    brief: tuple[float, float, Callable[[Mapping[str, Any]], bool]],
    *,
    trials: int,
    seed: int,
    runner: Runner | None,
    progress: Callable[[int, int], None] | None,
    grids: Mapping[str, np.ndarray] | None = None,
) -> tuple[dict[str, tuple], dict[str, dict], list[dict[str, Any]], dict[str, Any] | None]:
    """Monte Carlo of the short list, then of the choice's neighbours (fewer nodes or
    spares) for up to REFINE_ROUNDS rounds: the configurations simulated, their results,
    the rows and the cheapest row that meets the brief (None when none does)."""
    deadline, target, ok = brief
    run = runner or serial_runner
    meta: dict[str, tuple] = {}
    results: dict[str, dict] = {}
    own = cat[scenario["cluster.instance"]]

    def add_meta(cfg: Config, over: Mapping[str, Any]) -> tuple | None:
        return _config_task(scenario, cat, own, prices, meta, cfg, over, trials, seed)

    pending = list(chosen.values())
    rows: list[dict[str, Any]] = []
    choice = None
    for _round in range(REFINE_ROUNDS + 1):
        tasks = [t for t in (add_meta(cfg, over) for cfg, over in pending) if t is not None]
        if tasks:
            results.update(run(tasks, progress))
        rows = _rows(meta, results, scenario, cat, own, prices, deadline, target, reference)
        feasible = [r for r in rows if ok(r)]
        choice = min(feasible, key=_order) if feasible else None
        if choice is None:
            break
        pending = _neighbours(scenario, cat, meta[choice["key"]], grids)
        for r in _near_misses(rows, choice, target):
            pending += _neighbours(scenario, cat, meta[r["key"]], grids, up=True)
        if not any(c.key() not in meta for c, _ in pending):
            break
    return meta, results, rows, choice


def _near_misses(
    rows: Sequence[Mapping[str, Any]], choice: Mapping[str, Any], target: float
) -> list[Mapping[str, Any]]:
    """Of each (instance, pricing model), the cheapest simulated row that costs less than
    the choice but falls short of the target by less than the short list's lowest level
    (target − 0.10): with a few more nodes or spares it may meet the target and still cost
    less (the analytic P the short list is read by can be optimistic: aws-16k-h100's p5 on a
    98-day block, 0.96 analytic, 0.899 simulated at 1,776 nodes)."""
    low = _levels(target)[0]
    best: dict[tuple[str, str], Mapping[str, Any]] = {}
    for r in rows:
        if not (low <= r["probability_finish_by_deadline"] < target):
            continue
        if not r["expected_total_cost_usd"] < choice["expected_total_cost_usd"]:
            continue
        g = (r["instance"], r["pricing_model"])
        if g not in best or r["expected_total_cost_usd"] < best[g]["expected_total_cost_usd"]:
            best[g] = r
    return list(best.values())


def _reference_candidate(
    scenario: Scenario,
    cat: Mapping[str, Instance],
    deadline: float,
    prices: Mapping,
    instances: Sequence[str] | None,
) -> _Candidate | None:
    """The reference: the configuration ``goodput instances --deadline-days D`` ranks first,
    on demand, with its cost to train [USD] from the ranking; None when there is none."""
    reference = None
    try:
        ranking = rank_instances(scenario, cat, deadline_days=deadline)
        best = ranking.cheapest
    except ValidationError:
        best = None
    if best is not None and (not instances or best.instance in instances):
        ref_cfg = Config(
            best.instance,
            int(best.nodes),
            int(scenario["cluster.spare_nodes"]),
            scenario["checkpoint.strategy"],
            (),
            _scenario_interval_minutes(scenario, cat),
        )
        od = [
            o
            for o in price_options(
                scenario, cat[best.instance], cat[scenario["cluster.instance"]], prices
            )[0]
            if o.model == PricingModel.ON_DEMAND.value
        ]
        if od:
            reference = _Candidate(ref_cfg, od[0], None, math.nan, best.cost_to_train_usd, {})
    return reference


def _short_list(
    kept: Sequence[_Candidate],
    reference: _Candidate | None,
    target: float,
    unsimulated: list[_Candidate] | None = None,
) -> dict[str, tuple[Config, dict]]:
    """The short list to simulate, at most MAX_CONFIGS: the reference, the cheapest overall
    at each confidence level, the cheapest of every (instance, pricing model), each group's
    closest, then the cheapest near the target.  A group whose every candidate falls short
    of the lowest level (target − 0.10, by the analytic estimate) is simulated only when no
    group reaches that level (its closest may then be the answer's "closest"); otherwise
    its closest goes to ``unsimulated`` for a note: it cannot be the choice, and a count it
    needs to come near the deadline can cost more simulation than the whole short list
    (p4d at 8,192 nodes for llama3-70b in 45 days: 28 s of the 60)."""
    groups: dict[tuple[str, str], list[_Candidate]] = {}
    for c in kept:
        groups.setdefault((c.config.instance, c.option.model), []).append(c)
    chosen: dict[str, tuple[Config, dict]] = {}

    def add(c: _Candidate) -> None:
        if len(chosen) < MAX_CONFIGS or c.config.key() in chosen:
            chosen.setdefault(c.config.key(), (c.config, c.overrides))

    if reference is not None:
        add(reference)
    levels = _levels(target)
    by_cost = sorted(kept, key=lambda c: c.cost_analytic)
    for level in levels:  # the cheapest overall at each level
        c = next((c for c in by_cost if c.p_analytic >= level), None)
        if c is not None:
            add(c)
    for level in levels:  # then the cheapest of every (instance, model)
        for _g, cs in sorted(groups.items()):
            c = next(
                (c for c in sorted(cs, key=lambda c: c.cost_analytic) if c.p_analytic >= level),
                None,
            )
            if c is not None:
                add(c)
    anyone = any(c.p_analytic >= levels[0] for c in kept)
    for _g, cs in sorted(groups.items()):  # each group's closest
        best = max(cs, key=lambda c: (c.p_analytic, -c.cost_analytic))
        if anyone and best.p_analytic < levels[0]:
            if unsimulated is not None:
                unsimulated.append(best)
            continue
        add(best)
    for c in by_cost:  # fill up with the cheapest near the target
        if c.p_analytic >= levels[1]:
            add(c)
    return chosen


def _joined(notes: Mapping[str, str]) -> list[str]:
    """``{instance: note}`` as notes, the types that share a note named together."""
    by_text: dict[str, list[str]] = {}
    for name, text in notes.items():
        by_text.setdefault(text, []).append(name)
    return [f"{', '.join(names)}: {text}" for text, names in by_text.items()]


def _short_of_text(c: _Candidate, deadline: float, target: float) -> str:
    """A group left off the short list (:func:`_short_list`), in words."""
    return (
        f"{c.config.instance} on {c.option.label}: at most {c.p_analytic:.0%} by day "
        f"{deadline:g} by the analytic estimate (at {c.config.nodes:,} nodes), under "
        f"{percent_target(_levels(target)[0])}, the least the short list simulates while "
        "another option reaches it, so it was not simulated"
    )


def _config_task(
    scenario: Scenario,
    cat: Mapping[str, Instance],
    own: Instance,
    prices: Mapping,
    meta: dict[str, tuple],
    cfg: Config,
    over: Mapping[str, Any],
    trials: int,
    seed: int,
) -> tuple | None:
    """Register ``cfg`` in ``meta`` and return its simulation task (key, inputs, trials,
    seed, seed key); None when it is known already, cannot be priced or never finishes."""
    key = cfg.key()
    if key in meta:
        return None
    sc = config_scenario(scenario, cfg, cat, over)
    spot_rate = None
    if cfg.spot:
        spot_rate = next(
            (
                o.usd_per_instance_hour
                for o in price_options(scenario, cat[cfg.instance], own, prices)[0]
                if o.model == "spot"
            ),
            None,
        )
    try:
        x = config_inputs(sc, cat, spot_rate)
    except ValidationError:
        return None
    m = evaluate_arrays(x)
    if not math.isfinite(float(np.asarray(m["time_to_train_days"]))):
        return None
    meta[key] = (cfg, dict(over), sc, m, x)
    return (key, x, int(trials), int(seed), cfg.seed_key())


def _meets(r: Mapping[str, Any], target: float, budget_usd: float | None) -> bool:
    """A simulated row meets the brief: P(finish by deadline) >= target, a finite expected
    cost [USD] and, with a budget, a P90 total cost [USD] within it."""
    fine = r["probability_finish_by_deadline"] >= target - 1e-12
    fine = fine and math.isfinite(r["expected_total_cost_usd"])
    if budget_usd is not None:
        fine = fine and r["total_cost_usd_p90"] <= float(budget_usd)
    return fine


def _runners_up(rows, choice, closest, ok, target, deadline, budget_usd) -> list[dict[str, Any]]:
    """Runners-up: the best row of every other (instance, pricing model), with why it lost;
    those that meet the brief first, then by expected total cost [USD]."""
    runners: list[dict[str, Any]] = []
    lead = choice or closest
    by_group: dict[tuple[str, str], list] = {}
    for r in rows:
        by_group.setdefault((r["instance"], r["pricing_model"]), []).append(r)
    for g, rs in sorted(by_group.items()):
        if lead is not None and g == (lead["instance"], lead["pricing_model"]):
            continue
        fs = [r for r in rs if ok(r)]
        best_r = (
            min(fs, key=_order)
            if fs
            else max(
                rs,
                key=lambda r: (r["probability_finish_by_deadline"], -r["expected_total_cost_usd"]),
            )
        )
        best_r = dict(best_r)
        best_r["why_not"] = _why_not(best_r, choice, target, deadline, budget_usd, ok(best_r))
        runners.append(best_r)
    runners.sort(key=lambda r: (not ok(r), r["expected_total_cost_usd"]))
    return runners


def _rate_changes(choice, runners, rows, ok, meta, results, target) -> list[str]:
    """For up to three runners-up that meet the brief: the failure-rate multiple k [-] at
    which each would be the decision (:func:`rate_redecide`: decided again at that rate
    among the simulated configurations, the choice's type re-sized among them), or how far
    it was checked."""
    change: list[str] = []

    def rate_of(r):
        return results[r["key"]]["rate"], failure_rate_interval(meta[r["key"]][4])

    wins, checked = rate_redecide(rows, ok, rate_of)
    for r in [r for r in runners if ok(r)][:3]:
        k = wins.get((r["instance"], r["pricing_model"]))
        what = f"{r['instance']} on {r['pricing_label']}"
        if k is not None:
            change.append(
                f"{what} wins if failure rates are {k:.2f}x the assumed ones (the whole "
                "80% interval scaled): decided again at that rate, it is the cheapest "
                f"simulated configuration that still finishes in time with probability "
                f"{percent_target(target)} ({choice['instance']} at every simulated size "
                "included; the simulated runs reweighted)"
            )
        elif checked > 1.0:
            change.append(
                f"{what} does not win at failure rates up to {checked:.2f}x the assumed "
                f"ones (decided again at each rate among the simulated configurations, "
                "as far as the simulated runs reach)"
            )
    return change


def _capacity_block_notes(choice: Mapping[str, Any] | None) -> list[str]:
    """A note when a Capacity Block choice needs more instances [count] than AWS allows
    across an account by default."""
    if choice is not None and choice["pricing_model"] == "capacity_block":
        n_inst = round(choice["nodes"] + _spare_pool(choice)["paid_spare_nodes"])
        if n_inst > pr.CAPACITY_BLOCK_ACCOUNT_INSTANCES:
            return [
                f"{n_inst:,} instances need {pr.capacity_blocks_needed(n_inst)} Capacity Blocks of at "
                f"most {pr.CAPACITY_BLOCK_MAX_INSTANCES}; AWS allows "
                f"{pr.CAPACITY_BLOCK_ACCOUNT_INSTANCES} across an account unless the limit is raised"
            ]
    return []


def _order(r: Mapping[str, Any]) -> tuple:
    return (r["expected_total_cost_usd"], -r["probability_finish_by_deadline"])


def _neighbours(
    scenario: Scenario,
    cat: Mapping[str, Instance],
    entry: tuple,
    grids: Mapping[str, np.ndarray] | None = None,
    up: bool = False,
) -> list:
    """The choice with fewer nodes (the largest count the type runs as entered at or below
    each of 1 to REFINE_STEPS steps of REFINE_FRACTION fewer nodes, ``grids``) or fewer
    spares: the Monte Carlo checks whether a cheaper neighbour still meets the target.
    With ``up``, a near miss with more nodes (the smallest such count at or above each
    step more) or more spares: whether it then meets the target."""
    cfg, over = entry[0], entry[1]
    grid = (grids or {}).get(cfg.instance)
    if grid is None:
        grid = _node_grid(scenario, cat[cfg.instance])
    counts: list[int] = []
    for k in range(1, REFINE_STEPS + 1):
        if up:
            fit = grid[grid >= cfg.nodes * (1.0 + k * REFINE_FRACTION)]
            n = int(fit[0]) if fit.size else None
        else:
            fit = grid[(grid < cfg.nodes) & (grid <= cfg.nodes * (1.0 - k * REFINE_FRACTION))]
            n = int(fit[-1]) if fit.size else None
        if n is not None and n not in counts:
            counts.append(n)
    out = []
    for n in counts:
        if n > 0:
            out.append(
                (
                    Config(
                        cfg.instance,
                        n,
                        cfg.spares,
                        cfg.strategy,
                        cfg.features,
                        cfg.interval_minutes,
                        cfg.spot,
                    ),
                    over,
                )
            )
    # one spare level fewer (or, up, more)
    other = [s for s in SPARES if (s > cfg.spares if up else s < cfg.spares)]
    if other:
        out.append(
            (
                Config(
                    cfg.instance,
                    cfg.nodes,
                    other[0] if up else other[-1],
                    cfg.strategy,
                    cfg.features,
                    cfg.interval_minutes,
                    cfg.spot,
                ),
                over,
            )
        )
    return out


def _rows(meta, results, scenario, cat, own, prices, deadline, target, reference) -> list:
    """Every (configuration, way to pay[, block length]) with its simulated figures."""
    # costs of every way to pay, from the same simulated times
    allowed_b = np.asarray(pr.CAPACITY_BLOCK_DAYS, float)
    top_b = pr.purchasable_block_days(deadline)
    blocks = allowed_b[allowed_b <= (top_b if math.isfinite(top_b) else allowed_b[-1])]
    rows: list[dict[str, Any]] = []
    own = cat[scenario["cluster.instance"]]
    for key, (cfg, _over, sc, m, x) in meta.items():
        t = results[key]["time_to_finish_days"]
        # paid nodes beside the job: hot spares, in-domain spares and spare domains' nodes
        paid = paid_instances(x) - cfg.nodes
        opts, _ = price_options(scenario, cat[cfg.instance], own, prices)
        opts = [o for o in opts if (o.model == "spot") == cfg.spot]
        storage = float(np.asarray(m["storage_usd_per_day"]))
        transition = (
            float(sc["recovery.replacement_minutes"])
            + float(sc["recovery.restart_minutes"])
            + float(np.asarray(m["durable_restore_seconds"])) / 60.0
        ) / 1440.0
        fallback = _fallback_rate(scenario, cfg.instance, cat, prices)
        horizon = MAX_WALL_FACTOR * float(np.asarray(results[key]["compute_days"]))
        for opt in opts:
            lengths = [None]
            if opt.model == PricingModel.CAPACITY_BLOCK.value:
                if not math.isfinite(fallback):
                    continue
                lengths = [float(b) for b in blocks]
            for b in lengths:
                s = price_samples(
                    t,
                    opt,
                    instances=cfg.nodes + paid,
                    storage_usd_per_day=storage,
                    deadline=deadline,
                    block_days=b,
                    fallback_usd=fallback,
                    transition_days=transition,
                    commitment_utilization=float(scenario["pricing.commitment_utilization"]),
                )
                rows.append(
                    {
                        "key": key,
                        "instance": cfg.instance,
                        "nodes": cfg.nodes,
                        "spare_nodes": cfg.spares,
                        "_paid_spares": paid,
                        "_spare_domains": int(sc["cluster.spare_domains"]),
                        "_in_domain_spares": int(sc["cluster.spare_nodes_per_domain"]),
                        "pricing_model": opt.model,
                        "pricing_label": opt.label,
                        "block_days": b,
                        "checkpoint_strategy": cfg.strategy,
                        "checkpoint_interval_minutes": cfg.interval_minutes,
                        "features": list(cfg.features),
                        "usd_per_instance_hour": opt.usd_per_instance_hour,
                        "price_source": f"{opt.source} (as of {opt.as_of})",
                        "option": opt,
                        "reference": reference is not None
                        and key == reference.config.key()
                        and opt.model == "on_demand",
                        "_deadline": deadline,
                        "_horizon_days": horizon,
                        "_fallback_usd": fallback if b is not None else math.nan,
                        **s,
                    }
                )
    # Capacity Blocks: keep, per configuration, the lengths that matter (the cheapest that
    # meets the target, and the one with the highest P) so tables stay readable
    return _thin_blocks(rows, target)


def _step_bounds(meta) -> dict[str, float]:
    for _cfg, _over, _sc, m, _x in meta.values():
        if "step_seconds_low" in m and "step_seconds_high" in m:
            s = float(np.asarray(m["step_seconds"]))
            return {
                "step_seconds_low": float(np.asarray(m["step_seconds_low"])) / s,
                "step_seconds_high": float(np.asarray(m["step_seconds_high"])) / s,
            }
        break
    return {}


def _step_source(meta) -> str:
    from .uncertainty import step_time_interval

    for _cfg, _over, _sc, m, _x in meta.values():
        return step_time_interval(m).source
    return step_time_interval({"step_seconds": 1.0}).source


def _thin_blocks(rows: list[dict[str, Any]], target: float) -> list[dict[str, Any]]:
    out, blocks = [], {}
    for r in rows:
        if r["pricing_model"] == "capacity_block":
            blocks.setdefault(r["key"], []).append(r)
        else:
            out.append(r)
    for rs in blocks.values():
        meets = [r for r in rs if r["probability_finish_by_deadline"] >= target]
        pick = []
        if meets:
            pick.append(min(meets, key=lambda r: r["expected_total_cost_usd"]))
        pick.append(min(rs, key=lambda r: r["expected_total_cost_usd"]))
        pick.append(
            max(
                rs,
                key=lambda r: (r["probability_finish_by_deadline"], -r["expected_total_cost_usd"]),
            )
        )
        seen = set()
        for r in pick:
            if r["block_days"] not in seen:
                seen.add(r["block_days"])
                out.append(r)
    return out


def _why_not(r, choice, target, deadline, budget, fine) -> str:
    if fine and choice is not None:
        d = r["expected_total_cost_usd"] - choice["expected_total_cost_usd"]
        return f"expected ${d:,.0f} more ({d / choice['expected_total_cost_usd']:+.1%})"
    if r["probability_finish_by_deadline"] < target:
        return (
            f"finishes within {deadline:g} days with probability "
            f"{r['probability_finish_by_deadline']:.1%} < {percent_target(target)}"
        )
    if not math.isfinite(r["expected_total_cost_usd"]):
        return unfinished_words(r)
    if budget is not None and r["total_cost_usd_p90"] > budget:
        return f"P90 cost ${r['total_cost_usd_p90']:,.0f} is over the ${budget:,.0f} budget"
    return "not the cheapest"


def _pareto(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cost-versus-probability Pareto set: no other row is cheaper and at least as likely."""
    rs = sorted(
        (r for r in rows if math.isfinite(r["expected_total_cost_usd"])),
        key=lambda r: (r["expected_total_cost_usd"], -r["probability_finish_by_deadline"]),
    )
    out, best_p = [], -1.0
    for r in rs:
        if r["probability_finish_by_deadline"] > best_p + 1e-12:
            out.append(r)
            best_p = r["probability_finish_by_deadline"]
    return out


def _price_slope(row: Mapping[str, Any], inst: str, model: str, rate: float) -> tuple[float, bool]:
    """d(expected cost of ``row``)/d(the rate of ``inst`` under ``model``, now ``rate``)
    [USD per USD/instance-h], and whether it includes a block's overrun: a row pays that
    rate for its own hours when it is that option, and for the hours after its Capacity
    Block when it is a block of ``inst`` whose overrun is billed at that On-Demand rate
    (:func:`_fallback_rate`; QA 28 #6: "p5.48xlarge on On-Demand wins below $43.48" left
    out that the chosen block's overrun is billed at that same rate)."""
    slope, coupled = 0.0, False
    if row["instance"] == inst and row["pricing_model"] == model:
        slope += float(row["usd_per_price_unit"])
    if (
        row["instance"] == inst
        and model == PricingModel.ON_DEMAND.value
        and row["pricing_model"] == PricingModel.CAPACITY_BLOCK.value
        and row.get("_fallback_usd") == rate
    ):
        extra = float(row.get("_usd_per_fallback_unit", 0.0))
        slope += extra
        coupled = extra > 0
    return slope, coupled


def _what_would_change(choice, runners, ok) -> list[str]:
    """The prices at which the best runner-up would win (expected cost is linear in each
    rate: C(p) = C + (p − p₀)·dC/dp, with dC/dp from the simulated runs; a rate moves every
    row that pays it, a Capacity Block's overrun included: :func:`_price_slope`)."""
    if choice is None:
        return []
    out = []
    overrun = "; the chosen block's overrun is billed at that rate too"
    for r in [r for r in runners if ok(r)][:3]:
        gap = r["expected_total_cost_usd"] - choice["expected_total_cost_usd"]
        what = f"{r['instance']} on {r['pricing_label']}"
        p0 = r["usd_per_instance_hour"]
        s_r, _ = _price_slope(r, r["instance"], r["pricing_model"], p0)
        s_c, coupled = _price_slope(choice, r["instance"], r["pricing_model"], p0)
        if s_r - s_c > 0 and math.isfinite(s_r - s_c):
            p_r = p0 - gap / (s_r - s_c)
            if p_r > 0:
                out.append(
                    f"{what} wins below ${p_r:,.2f}/instance-h (now ${p0:,.2f}"
                    + (overrun if coupled else "")
                    + ")"
                )
        q0 = choice["usd_per_instance_hour"]
        s_c, _ = _price_slope(choice, choice["instance"], choice["pricing_model"], q0)
        s_r, coupled = _price_slope(r, choice["instance"], choice["pricing_model"], q0)
        if s_c - s_r > 0 and math.isfinite(s_c - s_r):
            q_c = q0 + gap / (s_c - s_r)
            out.append(
                f"the choice loses to {what} above ${q_c:,.2f}/instance-h (now ${q0:,.2f}"
                + ("; that block's overrun is billed at that rate too" if coupled else "")
                + ")"
            )
    return out


def _would_take(closest, meta, results, target, deadline, kept) -> dict[str, Any]:
    """When nothing meets the brief: a larger budget (when only the budget stops the
    closest row), else a later date, a lower P (when the closest row has a chance worth
    naming by the deadline), or more nodes."""
    if closest is None:
        return {}
    p_now = closest["probability_finish_by_deadline"]
    head = f"{closest['instance']} × {closest['nodes']:,}"
    if p_now >= target - 1e-12 and not math.isfinite(closest["expected_total_cost_usd"]):
        # on time often enough, but some runs never finish: no expected cost to rank it by
        # (QA 28 #13: not "a P90 cost of $inf")
        return {
            "confidence_at_deadline": p_now,
            "text": (
                f"{head} reaches {percent_target(target)} by day {deadline:g} "
                f"({p_now:.1%}), but {unfinished_words(closest)}, so it has no expected "
                "cost: a lower failure rate, or runs that recover faster, would be needed"
            ),
        }
    if p_now >= target - 1e-12:  # on time: the budget is what binds
        need = closest["total_cost_usd_p90"]
        return {
            "budget_usd_needed": need,
            "confidence_at_deadline": p_now,
            "text": (
                f"{head} reaches {percent_target(target)} by day {deadline:g} with a P90 cost "
                f"of ${need:,.0f}: a budget of at least that"
            ),
        }
    t = results[closest["key"]]["time_to_finish_days"]
    later = _quantile(t, target)
    out: dict[str, Any] = {
        "deadline_days_at_confidence": later,
        "confidence_at_deadline": p_now,
    }
    more = [c for c in kept if c.config.instance == closest["instance"] and c.p_analytic >= target]
    if more:
        out["nodes_at_confidence_analytic"] = min(c.config.nodes for c in more)
    # a target it reaches by the deadline only when there is one to name (not "0.0%")
    lower = f", or a target of {p_now:.1%} by day {deadline:g}" if p_now >= 0.005 else ""
    if math.isfinite(later):
        out["text"] = (
            f"{head} reaches {percent_target(target)} with a deadline of {later:.1f} days{lower}"
        )
    else:  # QA 28 #13: not "a deadline of inf days"
        out["text"] = (
            f"{head} reaches {percent_target(target)} by no deadline: "
            f"{unfinished_words(closest)}{lower}"
        )
    return out


def percent_target(p: float) -> str:
    """A probability target as a percentage with the digits it was given, the one rule
    decide's texts follow (QA 28 #12: ``{:.0%}`` printed a confidence of 0.999 as "100%").

    Parameters
    ----------
    p : float
        The target [fraction].

    Returns
    -------
    str
        "99.9%".

    Examples
    --------
    >>> percent_target(0.9), percent_target(0.999), percent_target(0.975)
    ('90%', '99.9%', '97.5%')
    """
    return f"{round(100.0 * float(p), 6):g}%"


def _share_text(share: float) -> str:
    """A share of runs in words: "35%", "2.5%", "fewer than 0.1%"."""
    if share >= 0.1:
        return f"{share:.0%}"
    return f"{share:.1%}" if share >= 0.001 else "fewer than 0.1%"


def unfinished_words(r: Mapping[str, Any]) -> str:
    """That some simulated runs of row ``r`` never finish, in words: the share and the
    simulated horizon (each run is stopped after MAX_WALL_FACTOR × its compute time), not
    "n/a", "inf" or "—" (QA 28 #13).

    Parameters
    ----------
    r : Mapping[str, Any]
        A decide row with its unfinished share [fraction] and horizon [day].

    Returns
    -------
    str
        "15% of the runs do not finish within the simulated horizon (58 days, ...)".
    """
    share, horizon = r.get("_unfinished", math.nan), r.get("_horizon_days", math.nan)
    who = f"{_share_text(share)} of the runs" if math.isfinite(share) and share > 0 else "some runs"
    limit = (
        f"{horizon:,.0f} days, {MAX_WALL_FACTOR:g}× the compute time"
        if math.isfinite(horizon)
        else f"{MAX_WALL_FACTOR:g}× the compute time"
    )
    return f"{who} do not finish within the simulated horizon ({limit})"


def cost_words(c: Mapping[str, Any]) -> str:
    """The expected total cost and its 80% range as the answer writes them; where some runs
    never finish (no expected cost), that, in words, and what the finished runs cost
    (QA 28 #13: "expected n/a (80% range $42.7M–n/a)").

    Parameters
    ----------
    c : Mapping[str, Any]
        A decide row with its expected total cost and 80% range [USD].

    Returns
    -------
    str
        "expected $30.0M (80% range $20.4M–$41.3M)", or the words for unfinished runs.
    """
    e, lo, hi = (c[k] for k in ("expected_total_cost_usd", "total_cost_usd_p10",
                                "total_cost_usd_p90"))  # fmt: skip
    fin = [v is not None and math.isfinite(v) for v in (e, lo, hi)]
    if fin[0]:
        return (
            f"expected {format_usd_compact(e)} (80% range {format_usd_compact(lo)}–"
            f"{format_usd_compact(hi)})"
        )
    why = f"but {unfinished_words(c)}, so it has no expected cost"
    if fin[2]:
        return f"{why} (80% range {format_usd_compact(lo)}–{format_usd_compact(hi)})"
    if fin[1]:
        return f"{why} (10% of the runs cost at most {format_usd_compact(lo)})"
    return why


def _savings_plan_notes(choice: Mapping[str, Any] | None, scenario: Scenario) -> list[str]:
    """A Savings Plan choice's commitment: rate × instances × the term's hours, paid
    whether used or not, and the share of it the expected cost assumes used
    (``pricing.commitment_utilization``; QA 28 #11: the $25.4M answer left out the $271.6M
    one-year commitment behind it)."""
    if choice is None or not PricingModel(choice["pricing_model"]).is_savings_plan:
        return []
    terms = pr.TERMS[PricingModel(choice["pricing_model"])]
    hours = float(terms.commitment_days) * pr.HOURS_PER_DAY
    n = round(choice["nodes"] + _spare_pool(choice)["paid_spare_nodes"])
    rate = float(choice["usd_per_instance_hour"])
    util = float(scenario["pricing.commitment_utilization"])
    default = util == FIELDS["pricing.commitment_utilization"].default
    return [
        f"the Savings Plan ({terms.commitment}) commits ${rate:,.2f}/instance-h × {n:,} "
        f"instances × {hours:,.0f} h = ${rate * n * hours:,.0f} over the term, paid whether "
        f"used or not; the expected cost charges this run ${rate / util:,.2f} per "
        f"instance-hour it runs, i.e. it assumes {percent_target(util)} of the commitment is "
        f"used (pricing.commitment_utilization{', the default' if default else ''}): other "
        "work must use the rest of the term, or those hours are paid for nothing"
    ]


def _interval_notes(row: Mapping[str, Any] | None, meta: Mapping[str, tuple]) -> list[str]:
    """Why the checkpoint interval is the field's upper bound when no failure is expected
    (QA 28 #2: a 0 failure rate made the optimum ``inf``, which was passed on)."""
    if row is None or row["key"] not in meta:
        return []
    m = meta[row["key"]][3]
    opt = float(np.asarray(m.get("optimal_checkpoint_interval_minutes", math.nan)))
    top = float(FIELDS["checkpoint.interval_minutes"].max)
    if not (math.isinf(opt) and row["checkpoint_interval_minutes"] >= top):
        return []  # a finite optimum, or an interval of the scenario's own
    every = format_value("checkpoint_interval_minutes", row["checkpoint_interval_minutes"])
    return [
        "no failure is expected (a failure rate of 0 per node-day), so the optimal "
        f"checkpoint interval is unbounded: checkpoints every {every}, the field's upper "
        "bound (as goodput evaluate sets 'optimal'), since a save is then all a checkpoint "
        "costs"
    ]


# --------------------------------------------------------------------------- plan
def probability_finish_by_deadline(
    scenario: Scenario,
    deadline_days: float,
    *,
    trials: int = 1000,
    seed: int = 0,
    block_days: float | None = None,
    catalog: Mapping[str, Instance] | None = None,
) -> dict[str, float]:
    """P(the scenario as it stands finishes its workload within ``deadline_days``).

    The same Monte Carlo as :func:`decide` (:func:`simulate_config`: failure randomness and
    the failure-rate and step-time intervals), seeded with ``SeedSequence(seed,
    spawn_key=(0,))``.  Under a Capacity Block of ``block_days`` a run that overruns the
    block finishes after one move to new instances.

    Parameters
    ----------
    scenario : Scenario
        The scenario as it stands.
    deadline_days : float
        Deadline D [day].
    trials : int
        Monte Carlo runs [count].
    seed : int
        Random seed [-].
    block_days : float, optional
        Capacity Block length [day].
    catalog : Mapping[str, Instance], optional
        Instance catalog keyed by node type; default the shipped one.

    Returns
    -------
    dict[str, float]
        ``probability_finish_by_deadline`` [fraction], ``time_to_finish_p50_days`` and
        ``time_to_finish_p90_days`` [day], the failure-rate interval [per node-day] and
        the trials [count].
    """
    d = float(deadline_days)
    if not (math.isfinite(d) and 0 < d <= MAX_DEADLINE_DAYS):
        raise ValidationError(
            "--deadline-days",
            f"{deadline_days!r} is out of range (in (0, {_fmt(MAX_DEADLINE_DAYS)}])",
        )
    cat = catalog if catalog is not None else load_catalog()
    spot_rate = None
    if scenario["pricing.model"] == "spot":
        spot_rate = pr.price_in_force(
            scenario, cat[scenario["cluster.instance"]]
        ).usd_per_instance_hour
    x = config_inputs(scenario, cat, spot_rate)
    m = evaluate_arrays(x)
    res = simulate_config(x, int(trials), int(seed), 0)
    t = res["time_to_finish_days"]
    if block_days is not None and scenario["pricing.model"] == "capacity_block":
        transition = (
            float(scenario["recovery.replacement_minutes"])
            + float(scenario["recovery.restart_minutes"])
            + float(np.asarray(m["durable_restore_seconds"])) / 60.0
        ) / 1440.0
        t = t + np.where(t > float(block_days) - MARGIN_DAYS, transition, 0.0)
    iv = failure_rate_interval(x)
    return {
        "deadline_days": d,
        "probability_finish_by_deadline": float(np.mean(t <= d)),
        "deadline_trials": int(trials),
        "time_to_finish_p50_days": _quantile(t, 0.5),
        "time_to_finish_p90_days": _quantile(t, 0.9),
        "node_failure_rate_low": iv.low,
        "node_failure_rate_high": iv.high,
    }
