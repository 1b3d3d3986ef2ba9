"""Recommendations: checkpoint interval, hot spares and instance type at least cost.

All three answer "what should we change, and what is it worth per day?" with one objective
that matches :func:`models.evaluate.compare`: the money lost per day,

    lost_usd_per_day = (1 − goodput) · cluster_usd_per_day + spare_usd_per_day,

so that "saves X per day versus the current scenario" here is the same number ``compare``
reports for the two scenarios.  Inputs are the flat numeric inputs of
:func:`models.evaluate.evaluate_arrays` (see :func:`models.evaluate.resolve_inputs`).

* Checkpoint interval: the exact optimum of the evaluation chain (Lambert W closed form,
  :func:`models.goodput.exact_optimal_interval_minutes`, Daly [1]), so the Optimizer, the
  Checkpoints page and ``goodput evaluate`` report the same interval; a bounded Brent search
  (``scipy.sopt.minimize_scalar``) on the lost dollars is kept as the numerical
  cross-check.
* Hot spares: discrete; every count 0..max is evaluated in one vectorised call (the
  M/G/∞ spare-pool model of :func:`models.reliability.probability_no_spare`).  The
  break-even failure rate at which ``s`` spares pay for themselves is a root found with
  ``scipy.sopt.brentq``.
* Instance type: the one ranker, :func:`models.instances.rank_instances`.

:func:`optimize` answers all three for one scenario; the Optimizer page, ``goodput
optimize`` and the reports call it.

References
----------
[1] J. T. Daly, Future Generation Computer Systems 22(3):303-312, 2006.
    doi:10.1016/j.future.2004.11.016
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize as sopt

from .catalog import Instance
from .chain import paid_instances
from .evaluate import Comparison, compare_evaluations, evaluate, evaluate_arrays, resolve_inputs
from .instances import InstanceRanking, rank_instances
from .pricing import json_date
from .scenario import Scenario

MAX_INTERVAL_MINUTES = 10_080.0
MIN_INTERVAL_MINUTES = 0.1


def _fixed_interval(inputs: Mapping[str, Any], tau_minutes) -> dict[str, Any]:
    return {
        **inputs,
        "checkpoint.interval_minutes": tau_minutes,
        "checkpoint.interval_optimal": False,
    }


def _lost(inputs: Mapping[str, Any]) -> np.ndarray:
    return np.asarray(evaluate_arrays(inputs, broadcast=True)["lost_usd_per_day"], dtype=float)


# --------------------------------------------------------------------------- checkpoint
@dataclass(frozen=True)
class IntervalRecommendation:
    """Result of :func:`recommend_checkpoint_interval` (minutes, fractions, USD/day).

    ``interval_minutes`` is the evaluation chain's exact optimum (the figure
    ``optimal_checkpoint_interval_minutes`` of ``goodput evaluate``), held to the scenario's
    range: where the optimum lies beyond the longest interval a scenario accepts (unbounded
    at a failure rate of 0) it is that longest interval, and :meth:`basis_text` says so;
    ``brent_minutes`` is the numerical minimiser of the lost dollars, kept as a cross-check
    (they agree to 1e-6 relative; the tests check it).
    """

    interval_minutes: float
    goodput: float
    current_interval_minutes: float
    current_goodput: float
    lost_usd_per_day: float
    current_lost_usd_per_day: float
    savings_usd_per_day: float
    brent_minutes: float
    #: the exact optimum before it is held to the scenario's range [min]: inf when it is
    #: unbounded (no failure the checkpoints protect against: every checkpoint only costs
    #: its save), larger than :data:`MAX_INTERVAL_MINUTES` for a rate close to 0
    optimal_minutes: float = math.nan

    @property
    def unbounded(self) -> bool:
        """Whether the exact optimum is unbounded (a failure rate of 0)."""
        return math.isinf(self.optimal_minutes) and self.optimal_minutes > 0

    @property
    def at_limit(self) -> bool:
        """Whether the recommendation is the longest interval a scenario accepts, not the
        optimum (unbounded, or beyond :data:`MAX_INTERVAL_MINUTES`)."""
        return self.optimal_minutes > MAX_INTERVAL_MINUTES

    def basis_text(self) -> str:
        """What the recommended interval is, in words: "exact optimum, Daly/Lambert W", or,
        where the optimum lies beyond the scenario's range, that it is unbounded (QA 28 #14:
        at a 0 failure rate the 10,080-minute field maximum was called the exact optimum,
        where ``goodput evaluate`` says "optimal unbounded") and why the longest interval
        is the recommendation.

        Examples
        --------
        >>> from goodput_lab.models import load_preset, resolve_inputs
        >>> s = load_preset("llama3-70b").replace({"reliability.node_failure_rate_per_day": 0})
        >>> print(recommend_checkpoint_interval(resolve_inputs(s)).basis_text())
        the optimum is unbounded: with no failures a checkpoint only costs its save, so the longest interval a scenario accepts (10,080 min, checkpoint.interval_minutes) is recommended
        """
        longest = (
            f"the longest interval a scenario accepts ({MAX_INTERVAL_MINUTES:,.0f} min, "
            "checkpoint.interval_minutes)"
        )
        if self.unbounded:
            return (
                "the optimum is unbounded: with no failures a checkpoint only costs its "
                f"save, so {longest} is recommended"
            )
        if self.at_limit:
            return (
                f"the exact optimum, {self.optimal_minutes:,.0f} min (Daly/Lambert W), is "
                f"beyond {longest}, which is recommended"
            )
        return "exact optimum, Daly/Lambert W"


def brent_interval_minutes(
    inputs: Mapping[str, Any],
    bounds_minutes: tuple[float, float] = (MIN_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES),
) -> float:
    """τ [min] minimising the lost USD/day by bounded Brent search in log τ (a cross-check of
    the closed form; ``scipy.sopt.minimize_scalar``).

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).
    bounds_minutes : tuple of float
        Search bounds on τ [min].

    Returns
    -------
    float
        τ [min].
    """
    lo, hi = (math.log(b) for b in bounds_minutes)

    def objective(log_tau: float) -> float:
        return float(_lost(_fixed_interval(inputs, math.exp(log_tau))))

    res = sopt.minimize_scalar(
        objective, bounds=(lo, hi), method="bounded", options={"xatol": 1e-7}
    )
    return float(math.exp(res.x))


def recommend_checkpoint_interval(inputs: Mapping[str, Any]) -> IntervalRecommendation:
    """Checkpoint interval τ [min] that maximises Daly's exact goodput (minimises lost USD/day).

    τ* = M·[1 + W₀(−e^{−(1+δ/M)})] for the failures level 1 serves (Daly [1], solved with
    Lambert W; at least the write time of an asynchronous checkpoint).  Only τ changes, so
    the cluster cost is fixed and the cheapest τ is the highest-goodput τ.

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).

    Returns
    -------
    IntervalRecommendation
        τ* [min] with its goodput [fraction] and lost USD/day [USD/day].

    Examples
    --------
    >>> from goodput_lab.models import load_preset, resolve_inputs
    >>> r = recommend_checkpoint_interval(resolve_inputs(load_preset("aws-16k-h100")))
    >>> round(r.interval_minutes, 2), round(r.brent_minutes, 2)
    (26.17, 26.17)
    """
    now = evaluate_arrays(inputs)
    optimal = float(np.asarray(now["optimal_checkpoint_interval_minutes"]))
    # held to the scenario's range: the longest interval where the optimum lies beyond it
    # (unbounded at a rate of 0), which basis_text says
    tau = min(max(optimal, MIN_INTERVAL_MINUTES), MAX_INTERVAL_MINUTES)
    best = evaluate_arrays(_fixed_interval(inputs, tau))
    return IntervalRecommendation(
        interval_minutes=tau,
        goodput=float(best["goodput"]),
        current_interval_minutes=float(now["checkpoint_interval_minutes"]),
        current_goodput=float(now["goodput"]),
        lost_usd_per_day=float(best["lost_usd_per_day"]),
        current_lost_usd_per_day=float(now["lost_usd_per_day"]),
        savings_usd_per_day=float(now["lost_usd_per_day"] - best["lost_usd_per_day"]),
        brent_minutes=brent_interval_minutes(inputs),
        optimal_minutes=optimal,
    )


# --------------------------------------------------------------------------- spares
def spare_savings_usd_per_day(inputs: Mapping[str, Any], max_spares: int = 64) -> np.ndarray:
    """Net savings per day of 0..max_spares hot spares versus none [USD/day], one per count.

    savings(s) = lost(0) − lost(s) = (g(s) − g(0))·cluster_usd_per_day − s·price·24, the
    ``compare`` definition with the spare-less scenario as baseline.  Vectorised over ``s``.

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).
    max_spares : int
        Largest spare count evaluated [count].

    Returns
    -------
    ndarray
        Savings of 0..max_spares spares [USD/day].

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> s = spare_savings_usd_per_day(resolve_inputs(load_preset("aws-16k-h100")), 3)
    >>> [round(float(v)) for v in s]  # a multi-node failure needs 8: a few spares do not pay
    [0, -2304, -4307, -5534]
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

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).
    max_spares : int
        Largest spare count searched [count].

    Returns
    -------
    SpareRecommendation
        Best count [count], its savings and the marginal value of each spare [USD/day].
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


def spare_payoff_rates_per_day(
    inputs: Mapping[str, Any], spares: int = 1, max_rate_per_day: float = 1.0
) -> list[tuple[float, float]]:
    """Node failure rates [per node-day] at which ``spares`` hot spares pay for themselves.

    Returns the intervals (lo, hi) of rates where savings(s; r) = lost(0) − lost(s) ≥ 0,
    each end a root found with ``scipy.sopt.brentq`` after bracketing the sign changes on
    a log grid (``hi = max_rate`` when they still pay there).  Savings are not monotone in
    the rate: at r = 0 a spare only costs money; as failures grow it shortens replacements;
    when failures outpace repairs the spare is almost always in repair itself and stops
    paying.  So "pays off from r₀" is not enough: the answer is a range.

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).
    spares : int
        Hot spares [count].
    max_rate_per_day : float
        Highest failure rate searched [per node-day].

    Returns
    -------
    list of (float, float)
        Intervals (lo, hi) of node failure rates [per node-day] where the spares pay.

    Examples
    --------
    >>> from goodput_lab.models import load_preset, resolve_inputs
    >>> rng = spare_payoff_rates_per_day(resolve_inputs(load_preset("aws-16k-h100")), 10)
    >>> [(round(lo * 100, 4), round(hi * 100, 4)) for lo, hi in rng]  # % of nodes per day
    [(0.143, 0.3034)]
    """
    s = float(spares)

    def savings(rate):
        rate = np.asarray(rate, dtype=float)
        base = {**inputs, "reliability.node_failure_rate_per_day": rate}
        return _lost({**base, "cluster.spare_nodes": 0.0}) - _lost(
            {**base, "cluster.spare_nodes": s}
        )

    grid = np.concatenate([[0.0], np.geomspace(1e-7, max_rate_per_day, 600)])
    val = savings(grid)
    pos = val >= 0

    def root(i: int) -> float:
        return float(sopt.brentq(lambda r: float(savings(r)), grid[i], grid[i + 1], xtol=1e-12))

    out: list[tuple[float, float]] = []
    lo: float | None = 0.0 if pos[0] else None
    for i in range(grid.size - 1):
        if not pos[i] and pos[i + 1]:
            lo = root(i)
        elif pos[i] and not pos[i + 1] and lo is not None:
            out.append((lo, root(i)))
            lo = None
    if lo is not None:
        out.append((lo, float(grid[-1])))
    return out


# --------------------------------------------------------------------------- spares by domain
@dataclass(frozen=True)
class DomainSparePolicy:
    """One way of keeping spares for scale-up domains, and what it is worth."""

    policy: str  # "none", "in_domain" (spare nodes in every domain) or "spare_domains"
    count: int  # spare nodes per domain, or whole spare domains
    spare_nodes: int  # paid nodes it adds
    spare_usd_per_day: float
    goodput: float
    step_seconds: float
    savings_usd_per_day: float  # versus no domain spares, as ``goodput compare`` counts it

    def label(self) -> str:
        if self.policy == "in_domain":
            return f"{self.count} spare node{'s' if self.count != 1 else ''} in every domain"
        if self.policy == "spare_domains":
            return f"{self.count} whole spare domain{'s' if self.count != 1 else ''}"
        return "no domain spares"

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "count": self.count,
            "spare_nodes": self.spare_nodes,
            "spare_usd_per_day": self.spare_usd_per_day,
            "goodput": self.goodput,
            "step_seconds": self.step_seconds,
            "savings_usd_per_day": self.savings_usd_per_day,
        }


def domain_spares_label(in_domain: int, spare_domains: int) -> str:
    """The spares kept by scale-up domain in words: "2 whole spare domains and 2 spare nodes
    in every domain", "1 whole spare domain" or "no domain spares".

    Parameters
    ----------
    in_domain : int
        Spare nodes in every domain [count].
    spare_domains : int
        Whole spare domains [count].

    Returns
    -------
    str
        The words.

    Examples
    --------
    >>> domain_spares_label(2, 2)
    '2 whole spare domains and 2 spare nodes in every domain'
    """
    parts = [
        DomainSparePolicy("spare_domains", spare_domains, 0, 0.0, 0.0, 0.0, 0.0).label()
        if spare_domains
        else "",
        DomainSparePolicy("in_domain", in_domain, 0, 0.0, 0.0, 0.0, 0.0).label()
        if in_domain
        else "",
    ]
    return " and ".join(p for p in parts if p) or "no domain spares"


@dataclass(frozen=True)
class DomainSpareRecommendation:
    """Result of :func:`recommend_domain_spares`: the cheapest policy and the best of each,
    every saving against the scenario's own domain spares (``current_*``)."""

    nodes_per_domain: int
    domains: int  # the job's domains without domain spares
    best: DomainSparePolicy
    best_in_domain: DomainSparePolicy
    best_spare_domains: DomainSparePolicy
    options: tuple[DomainSparePolicy, ...]
    #: the scenario's own spares by domain, the baseline of every saving [count]
    current_in_domain: int = 0
    current_spare_domains: int = 0
    #: the job's domains with the scenario's own in-domain spares [count]
    current_domains: int = 0

    def current_label(self) -> str:
        """The scenario's own spares by domain in words (:func:`domain_spares_label`)."""
        return domain_spares_label(self.current_in_domain, self.current_spare_domains)

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "nodes_per_domain": self.nodes_per_domain,
            "domains": self.domains,
            # the best policy alone (without hot spares): the recommendation is the
            # top-level spare_domains, spare_nodes_per_domain and spare_nodes (QA 26: this
            # was "recommended", 4 domains, beside a recommendation of 3 and 6 hot spares)
            "best_without_hot_spares": self.best.to_json_dict(),
            "best_in_domain": self.best_in_domain.to_json_dict(),
            "best_spare_domains": self.best_spare_domains.to_json_dict(),
            "options": [o.to_json_dict() for o in self.options],
        }


def _domain_policies(inputs, npd: int, in_dom, doms, doms_of_job: int):
    """Every policy of :func:`recommend_domain_spares` evaluated in one call, its savings
    against the scenario's own domain spares (evaluated last in the same call) as
    :func:`models.evaluate.compare` counts them [USD/day]."""
    from .evaluate import productive_time_savings

    cur_in = float(np.asarray(inputs["cluster.spare_nodes_per_domain"]).flat[0])
    cur_dom = float(np.asarray(inputs["cluster.spare_domains"]).flat[0])
    s_d = np.concatenate([in_dom, np.zeros(doms.size), [cur_in]])
    s_dom = np.concatenate([np.zeros(in_dom.size), doms, [cur_dom]])
    e = evaluate_arrays(
        {**inputs, "cluster.spare_nodes_per_domain": s_d, "cluster.spare_domains": s_dom}
    )
    ones = np.ones(s_d.size)
    g = np.asarray(e["goodput"], float) * ones
    train = np.asarray(e["steps_to_train"], float) * np.asarray(e["step_seconds"], float) * ones
    cluster = float((np.asarray(e["cluster_usd_per_day"], float) * ones)[-1])
    total_day = np.asarray(e["total_usd_per_day"], float) * ones
    useful, _ = productive_time_savings(g[-1], g, train[-1], train, cluster)
    savings = np.asarray(useful, float) + (total_day[-1] - total_day)
    spare_usd = np.asarray(e["spare_usd_per_day"], float) * ones
    step = np.asarray(e["step_seconds"], float) * ones
    nodes = float(np.asarray(inputs["cluster.nodes"]).flat[0])
    options = []
    for i in range(s_d.size - 1):
        in_domain = s_dom[i] == 0
        count = int(s_d[i] if in_domain else s_dom[i])
        policy = "none" if count == 0 else ("in_domain" if in_domain else "spare_domains")
        jobs_domains = math.ceil(nodes / (npd - count)) if in_domain and count else doms_of_job
        options.append(
            DomainSparePolicy(
                policy=policy,
                count=count,
                spare_nodes=count * jobs_domains if in_domain else count * npd,
                spare_usd_per_day=float(spare_usd[i]),
                goodput=float(g[i]),
                step_seconds=float(step[i]),
                savings_usd_per_day=float(savings[i]),
            )
        )
    return options, round(cur_in), round(cur_dom)


def recommend_domain_spares(
    inputs: Mapping[str, Any], max_in_domain: int = 4, max_spare_domains: int = 8
) -> DomainSpareRecommendation | None:
    """In-domain spare nodes against whole spare domains, whichever saves more per day.

    Every policy (0..``max_in_domain`` spare nodes in each scale-up domain, at most
    nodes per domain − 1; 1..``max_spare_domains`` whole spare domains) is evaluated in one
    vectorised call of the chain (docs/references.md#failure-domains: Erlang loss pools,
    the job on fewer accelerators per domain with in-domain spares) and compared with the
    scenario's own domain spares as :func:`models.evaluate.compare` does: the value of the
    extra useful work per day (goodput and step time) at the baseline's price, minus what
    the spares cost.  So a policy "saves" what moving to it from the scenario saves (QA 26:
    4 whole spare domains "saved $57,738/day" against no spares on a scenario that had 2
    and 2 in every domain, from which the move saves $90,015, as the ladder's rung said).
    None when a domain is one node (nothing to choose).

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).
    max_in_domain : int
        Most spare nodes per scale-up domain [count].
    max_spare_domains : int
        Most whole spare domains [count].

    Returns
    -------
    DomainSpareRecommendation or None
        The better policy with its savings against the scenario's spares [USD/day]; None
        when a domain is one node.
    """
    from .chain import domain_layout  # local: chain is imported by evaluate already

    base = {**inputs, "cluster.spare_nodes_per_domain": 0.0, "cluster.spare_domains": 0.0}
    lay = domain_layout(base)
    npd = int(np.asarray(lay.nodes_per_domain).flat[0])
    if npd <= 1:
        return None
    in_dom = np.arange(0, min(max_in_domain, npd - 1) + 1, dtype=float)
    doms = np.arange(1, max_spare_domains + 1, dtype=float)
    doms_of_job = int(np.asarray(lay.domains).flat[0])
    options, cur_in, cur_dom = _domain_policies(inputs, npd, in_dom, doms, doms_of_job)
    ok = [o for o in options if math.isfinite(o.savings_usd_per_day)]
    pool = ok or options
    best = max(pool, key=lambda o: o.savings_usd_per_day)
    ins = [o for o in pool if o.policy != "spare_domains"]
    sds = [o for o in pool if o.policy == "spare_domains"] or [options[0]]
    return DomainSpareRecommendation(
        nodes_per_domain=npd,
        domains=doms_of_job,
        best=best,
        best_in_domain=max(ins, key=lambda o: o.savings_usd_per_day),
        best_spare_domains=max(sds, key=lambda o: o.savings_usd_per_day),
        options=tuple(options),
        current_in_domain=cur_in,
        current_spare_domains=cur_dom,
        current_domains=int(np.asarray(domain_layout(inputs).domains).flat[0]),
    )


# --------------------------------------------------------------------------- all three
#: The spare fields a recommendation sets, in the order it names them.
SPARE_FIELDS = ("cluster.spare_domains", "cluster.spare_nodes_per_domain", "cluster.spare_nodes")


def _spare_counts(sc: Scenario) -> list[tuple[str, int]]:
    """The spares of ``sc`` that are not zero, as (field, count) in :data:`SPARE_FIELDS`
    order."""
    return [(k, int(sc[k] or 0)) for k in SPARE_FIELDS if int(sc[k] or 0)]


def _spares_words(sc: Scenario) -> str:
    """The spares of ``sc`` in words: "9 hot spares", "3 whole spare domains and 6 hot
    spares" or "no spares"."""
    words = {
        "cluster.spare_domains": ("whole spare domain", "whole spare domains"),
        "cluster.spare_nodes_per_domain": (
            "spare node in every domain",
            "spare nodes in every domain",
        ),
        "cluster.spare_nodes": ("hot spare", "hot spares"),
    }
    parts = [f"{n} {words[k][n != 1]}" for k, n in _spare_counts(sc)]
    return " and ".join(parts) or "no spares"


@dataclass(frozen=True)
class Optimization:
    """What :func:`optimize` recommends for one scenario, and what it is worth.

    ``recommended`` is the scenario with the recommended interval and spares (same instance);
    ``comparison`` compares it with the scenario (the savings ``goodput compare`` reports);
    ``instances`` is the ranking whose cheapest row is the recommended instance type.
    """

    scenario: Scenario
    interval: IntervalRecommendation
    spares: SpareRecommendation
    spare_payoff_rates_per_day: list[tuple[float, float]]
    #: the spare count those rates are for: the recommended one, at least 1
    spare_payoff_spares: int
    recommended: Scenario
    comparison: Comparison
    instances: InstanceRanking
    #: in-domain spares against whole spare domains (None when a domain is one node)
    domain_spares: DomainSpareRecommendation | None = None
    #: the spares ``recommended`` keeps: "hot_spares" (the count of :attr:`spares` alone),
    #: or the domain policy ("in_domain" or "spare_domains") that, with the hot spares that
    #: still pay beside it, ``goodput compare`` values most
    spare_policy: str = "hot_spares"
    #: paid spare nodes the recommended scenario keeps in all (domain spares' nodes and hot
    #: spares, :func:`models.chain.paid_instances` less the job's nodes)
    recommended_spare_nodes: int = 0
    #: the hot-spare search beside the scenario's own domain spares (the "hot_spares"
    #: candidate); :attr:`spares` is the one beside the recommended domain spares
    spares_alone: SpareRecommendation | None = None
    #: what the recommended spares save against the scenario's, both at the recommended
    #: interval, as ``goodput compare`` counts it [USD/day]
    spares_savings_usd_per_day: float = 0.0

    def recommended_domain_spares_text(self) -> str:
        """The recommendation's spares by domain in words ("3 whole spare domains"), ""
        when it keeps none: what its hot spares sit beside."""
        r = self.recommended
        in_dom, whole = (int(r[k] or 0) for k in SPARE_FIELDS[1::-1])
        return domain_spares_label(in_dom, whole) if in_dom or whole else ""

    def alternative_text(self) -> str:
        """The hot-spares-only candidate the recommendation was chosen over, in words: the
        best hot-spare count beside the scenario's own domain spares ("8 hot spares alone",
        "the scenario's 2 whole spare domains and 2 spare nodes in every domain with no hot
        spares"); "" when that is no spares at all."""
        sp = self.spares_alone if self.spares_alone is not None else self.spares
        n = sp.spares
        hot = f"{n} hot spare{'s' if n != 1 else ''}" if n else "no hot spares"
        s = self.scenario
        in_dom, whole = (int(s[k] or 0) for k in SPARE_FIELDS[1::-1])
        if in_dom or whole:
            return f"the scenario's {domain_spares_label(in_dom, whole)} with {hot}"
        return f"{hot} alone" if n else ""

    def current_spares_text(self) -> str:
        """The scenario's own spares in words, as :meth:`spares_text` writes the
        recommendation's ("2 whole spare domains and 2 spare nodes in every domain")."""
        return _spares_words(self.scenario)

    def spare_counts(self) -> list[tuple[str, int]]:
        """The spares of the recommended scenario that are not zero, as (field, count):
        whole spare domains, spare nodes in every domain, hot spares, in that order."""
        return _spare_counts(self.recommended)

    def spares_text(self) -> str:
        """The spares of the recommended scenario in words: "9 hot spares", "3 whole spare
        domains and 6 hot spares" or "no spares"."""
        return _spares_words(self.recommended)

    def to_json_dict(self) -> dict[str, Any]:
        best = self.instances.cheapest
        iv, sp, r = self.interval, self.spares, self.recommended
        return {
            "scenario_name": self.scenario.name,
            "checkpoint_interval_minutes": iv.interval_minutes,
            # the optimum itself: null where it is unbounded (a rate of 0), as goodput
            # evaluate writes it; the recommendation above is then the longest interval
            "optimal_checkpoint_interval_minutes": iv.optimal_minutes,
            "current_checkpoint_interval_minutes": iv.current_interval_minutes,
            "interval_savings_usd_per_day": iv.savings_usd_per_day,
            # the recommended spares, as the text and the page name them (QA 26: spare_nodes
            # was the hot-spare count alone, 0 or 8, beside a text recommending 3 whole spare
            # domains and 6 hot spares)
            "spare_nodes": int(r["cluster.spare_nodes"] or 0),
            "spare_domains": int(r["cluster.spare_domains"] or 0),
            "spare_nodes_per_domain": int(r["cluster.spare_nodes_per_domain"] or 0),
            "paid_spare_nodes": self.recommended_spare_nodes,
            "current_spare_nodes": sp.current_spares,
            "spares_savings_usd_per_day": self.spares_savings_usd_per_day,
            "break_even_spares": sp.break_even_spares,
            "spare_payoff_rates_per_day": [list(r) for r in self.spare_payoff_rates_per_day],
            "spare_payoff_spares": self.spare_payoff_spares,
            "goodput": self.comparison.candidate["goodput"],
            "current_goodput": self.comparison.baseline["goodput"],
            "savings_usd_per_day": self.comparison.savings_usd_per_day,
            "deadline_days": self.instances.deadline_days,
            "instance": None
            if best is None
            else {
                "instance": best.instance,
                "nodes": best.nodes,
                "time_to_train_days": best.time_to_train_days,
                "cost_to_train_usd": best.cost_to_train_usd,
                "usd_per_instance_hour": best.usd_per_instance_hour,
                "price_source": best.price_source,
                "price_as_of": json_date(best.price_as_of),
            },
            "instance_rules": self.instances.rules(),
            "domain_spares": None
            if self.domain_spares is None
            else self.domain_spares.to_json_dict(),
            "spare_policy": self.spare_policy,
        }


def optimize(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    deadline_days: float | None = None,
    max_spares: int = 200,
) -> Optimization:
    """Recommended checkpoint interval, hot spares and instance type for ``scenario``.

    The optimal interval does not depend on the recovery time (Daly's optimum depends on δ
    and M only), so optimising τ first and then the spares for that τ is the joint optimum
    of the two.  Where nodes share scale-up domains, the hot-spare count alone competes with
    every domain policy of :func:`recommend_domain_spares`, each with the hot spares that
    still pay beside it: the recommended scenario keeps the mix ``goodput compare`` values
    most against the scenario (QA passes 19 and 20: on the NVL72 preset 9 hot spares were
    recommended beside 3 whole spare domains that save more).  The
    instance type is the cheapest row of :func:`models.instances.rank_instances` with the
    same deadline (the answer ``goodput instances`` gives).

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Mapping of str to Instance
        The instance catalog.
    deadline_days : float, optional
        Deadline for the instance ranking [day].
    max_spares : int
        Largest spare count searched [count].

    Returns
    -------
    Optimization
        The interval, spares and instance recommendations.
    """
    inputs = resolve_inputs(scenario, catalog)
    interval = recommend_checkpoint_interval(inputs)
    tuned = _fixed_interval(inputs, interval.interval_minutes)
    alone = recommend_spares(tuned, max_spares=max_spares)
    name = f"{scenario.name} (optimized)"[:200]
    tau = {"checkpoint.interval_minutes": interval.interval_minutes}
    recommended = scenario.replace({**tau, "cluster.spare_nodes": alone.spares}, name=name)
    base = evaluate(scenario, catalog)  # once, against every candidate below
    comparison = compare_evaluations(base, evaluate(recommended, catalog))
    domain = recommend_domain_spares(tuned)
    policy, spares, chosen = "hot_spares", alone, {}
    key = {"in_domain": "cluster.spare_nodes_per_domain", "spare_domains": "cluster.spare_domains"}
    # every domain policy with the hot spares that still pay beside it, valued as goodput
    # compare values the recommendation (QA pass 20: 3 whole spare domains, applied, then
    # asked for 6 hot spares more, then for 2 domains and 7: the search is joint now, so
    # one Apply gives the best mix of the policies searched)
    for option in domain.options if domain is not None else ():
        if option.policy == "none":
            continue
        fields = {
            "cluster.spare_nodes_per_domain": 0,
            "cluster.spare_domains": 0,
            key[option.policy]: option.count,
        }
        joint = recommend_spares({**tuned, **fields}, max_spares=max_spares)
        other = scenario.replace({**tau, "cluster.spare_nodes": joint.spares, **fields}, name=name)
        by_domain = compare_evaluations(base, evaluate(other, catalog))
        if by_domain.savings_usd_per_day > comparison.savings_usd_per_day:
            recommended, comparison, policy = other, by_domain, option.policy
            spares, chosen = joint, fields
    # the hot spares, their pay-off rates and the spares' saving are the recommendation's
    # (QA 26: "hot spares 0 ... one spare does not pay off" were of the scenario's own
    # domain spares, three lines above a recommendation of 3 spare domains and 6 hot spares)
    payoff_spares = max(1, spares.spares)
    at_tau = evaluate(scenario.replace(tau), catalog)
    rec_inputs = resolve_inputs(recommended, catalog)
    paid = round(paid_instances(rec_inputs) - float(np.asarray(rec_inputs["cluster.nodes"])))
    return Optimization(
        scenario=scenario,
        interval=interval,
        spares=spares,
        spare_payoff_rates_per_day=spare_payoff_rates_per_day({**inputs, **chosen}, payoff_spares),
        spare_payoff_spares=payoff_spares,
        recommended=recommended,
        comparison=comparison,
        instances=rank_instances(scenario, catalog, deadline_days=deadline_days),
        domain_spares=domain,
        spare_policy=policy,
        recommended_spare_nodes=paid,
        spares_alone=alone,
        spares_savings_usd_per_day=compare_evaluations(
            at_tau, evaluate(recommended, catalog)
        ).savings_usd_per_day,
    )


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
    #: with measured saves to the file system (``checkpoint.timings = 'measured'``, one
    #: level): the save the scenario assumes [s], and what the recommended and the current
    #: file system can deliver by the tier model [s] (NaN otherwise)
    assumed_save_seconds: float = math.nan
    deliverable_save_seconds: float = math.nan
    current_deliverable_save_seconds: float = math.nan
    #: why the recommendation is constrained, or what it cannot do ("" when nothing)
    warning: str = ""


def file_system_sizes_TiB(max_TiB: float) -> np.ndarray:
    """Purchasable FSx for Lustre sizes up to ``max_TiB``: 1.2, 2.4, 4.8, 7.2, ... [TiB].

    Parameters
    ----------
    max_TiB : float
        Largest size [TiB].

    Returns
    -------
    ndarray
        Purchasable sizes [TiB].
    """
    n = math.floor(max(max_TiB, FILE_SYSTEM_STEP_TiB) / FILE_SYSTEM_STEP_TiB + 1e-9)
    steps = np.round(FILE_SYSTEM_STEP_TiB * np.arange(1, n + 1), 6)
    return np.concatenate([[FILE_SYSTEM_FIRST_TiB], steps])


def _candidate_sizes_TiB(need: float, top: float, max_TiB: float | None) -> np.ndarray:
    """Sizes to search [TiB]: :func:`file_system_sizes_TiB` up to ``top``, or, when the
    retained checkpoints alone need more than that span (and no ``max_TiB`` was given), the
    50 purchasable sizes from the smallest that holds them (never a grid from 1.2 TiB).

    >>> _candidate_sizes_TiB(10.0, 4.8, None)[:2].tolist()
    [12.0, 14.4]
    """
    if max_TiB is None and need > top and math.isfinite(need):
        first = math.ceil(need / FILE_SYSTEM_STEP_TiB - 1e-9)
        return np.round(FILE_SYSTEM_STEP_TiB * np.arange(first, first + 50), 6)
    return file_system_sizes_TiB(top)


def _file_system_grid(inputs: Mapping[str, Any], sizes: np.ndarray, tiers: Mapping):
    """(TiB, MB/s/TiB, chain inputs) for every size × priced tier; the aggregate read and
    write bandwidth is throughput × size / 1000 [GB/s], the price the tier's [USD/GB-month]."""
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
    return tib, tp, grid


def _seconds_apart(value: float, other: float) -> str:
    """``value`` [s] with as many decimals (1 to 6) as it takes not to read as ``other`` [s]:
    a save of 1.00486 s against 1 s reads "1.005 s", not "1.0 s".

    >>> _seconds_apart(1.00486, 1.0), _seconds_apart(69.8, 60.0)
    ('1.005 s', '69.8 s')
    """
    for d in range(1, 7):
        text = f"{value:,.{d}f}"
        if value == other or float(text.replace(",", "")) != float(f"{other:.{d}f}"):
            return f"{text} s"
    return f"{value:,.6f} s"


def _pick_file_system(lost, assumed, deliver, largest_TiB: float, warning: str):
    """Index of the recommended grid point and the warning: argmin of lost [USD/day]; with
    measured saves to the file system (``deliver`` not None) only among those that write a
    checkpoint within the assumed save [s] (the figures assume it), else among the fastest
    ones (ties, to 1e-9 relative, broken by the least lost: the smallest size is not "the
    fastest" because every size writes equally fast).

    >>> _pick_file_system(np.array([3.0, 1.0]), math.nan, None, 2.4, "")
    (1, '')
    >>> _pick_file_system(np.array([3.0, 1.0]), 1.0, np.array([1.5, 1.5]), 2.4, "")[0]
    1
    """
    if deliver is None:
        return int(np.nanargmin(lost)), warning
    finite = np.isfinite(lost)
    fast = finite & (deliver <= assumed * (1.0 + 1e-9))
    if fast.any():
        return int(np.nanargmin(np.where(fast, lost, np.nan))), warning
    quickest = float(np.min(deliver[finite]))
    fastest = finite & (deliver <= quickest * (1.0 + 1e-9))
    k = int(np.nanargmin(np.where(fastest, lost, np.nan)))
    warning += (
        f" No file system up to {largest_TiB:g} TiB writes a checkpoint within {assumed:g} s: "
        f"the fastest is shown ({_seconds_apart(float(deliver[k]), assumed)})."
        if not fastest[finite].all()
        else f" No file system up to {largest_TiB:g} TiB writes one faster "
        f"({_seconds_apart(float(deliver[k]), assumed)} each): the one with the least lost "
        "per day is shown."
    )
    return k, warning


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

    Parameters
    ----------
    inputs : Mapping of str to array_like
        Resolved chain inputs (:func:`models.evaluate.resolve_inputs`).
    storage_prices : Mapping, optional
        Storage price table (:func:`models.pricing.load_storage_prices`).
    max_TiB : float, optional
        Largest size to search [TiB].

    Returns
    -------
    FileSystemRecommendation
        The best size [TiB] and tier [MB/s/TiB] with its lost and storage cost [USD/day],
        goodput [fraction] and save time [s], the current ones, and the searched table.
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
    size_TB = float(np.asarray(now["checkpoint_size_TB"]))
    keep = float(np.asarray(inputs.get("storage.retained_checkpoints", 2)))
    need = keep * size_TB / pr.TB_PER_TIB
    sizes = _candidate_sizes_TiB(need, top, max_TiB)
    tib, tp, grid = _file_system_grid(inputs, sizes, tiers)
    out = evaluate_arrays(grid)
    holds = tib >= need - 1e-9
    lost = np.where(
        holds, np.broadcast_to(np.asarray(out["lost_usd_per_day"], float), tib.shape), np.nan
    )
    if not np.isfinite(lost).any():
        raise ValueError(f"no file system up to {sizes[-1]:g} TiB holds {keep:g} checkpoints")
    assumed, deliver, cur_deliver, warning = _deliverable_saves(inputs, grid, tib0, tp0)
    k, warning = _pick_file_system(lost, assumed, deliver, sizes[-1], warning)

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
        assumed_save_seconds=assumed,
        deliverable_save_seconds=float(deliver[k]) if deliver is not None else math.nan,
        current_deliverable_save_seconds=cur_deliver,
        warning=warning.strip(),
    )


def _deliverable_saves(inputs, grid, tib0: float, tp0: float):
    """(assumed save [s], deliverable save per grid point [s] or None, the current file
    system's deliverable save [s], warning) when the scenario states its blocking saves
    (``checkpoint.timings = 'measured'``) and writes them to the shared file system alone
    (``durable_only``); the deliverable save is the tier model's
    (:func:`models.checkpoint.tier_transfer_seconds` through the chain)."""
    measured = str(inputs.get("checkpoint.timings", "measured")) == "measured"
    one_level = str(inputs.get("checkpoint.strategy", "durable_only")) == "durable_only"
    # an asynchronous save blocks for the device-to-host snapshot, not for the file
    # system's write (that only makes the copy staler, which the chain's lost dollars
    # count): no file system delivers or misses the stated save (QA 26: every size "saved"
    # in the same 1.005 s, and the tie chose the smallest, slowest one)
    sync = str(inputs.get("checkpoint.save_mode", "sync")) == "sync"
    if not (measured and one_level and sync):
        return math.nan, None, math.nan, ""
    assumed = float(np.asarray(inputs["checkpoint.save_seconds"]))
    model = evaluate_arrays({**grid, "checkpoint.timings": "tier_model"})
    deliver = np.broadcast_to(
        np.asarray(model["save_seconds"], float), np.shape(grid["tier.shared_fs.provisioned_TiB"])
    )
    now = evaluate_arrays({**inputs, "checkpoint.timings": "tier_model"})
    cur = float(np.asarray(now["save_seconds"]))
    warning = ""
    if cur > assumed * (1.0 + 1e-9):
        warning = (
            f"The scenario assumes {assumed:g} s blocking saves (checkpoint.timings = "
            f"measured), but its file system ({tib0:,g} TiB at {tp0:,g} MB/s/TiB) writes a "
            f"checkpoint in {_seconds_apart(cur, assumed)} by the tier model; the "
            f"recommendation keeps to file systems that write one within {assumed:g} s."
        )
    return assumed, deliver, cur, warning
