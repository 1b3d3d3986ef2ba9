"""Failure process of a cluster: failures per day, MTBF, hot-spare availability.

All functions are numpy-vectorised: scalars or arrays in, same shape out (floats for
all-scalar input).  Rates are per node per day as fractions; times are named by unit.
"""

from __future__ import annotations

import numpy as np

from ._tools import HOURS_PER_DAY, as_float_array, fits_into, like_input
from .special import poisson_sf


def cluster_failures_per_day(nodes, node_failure_rate_per_day, out=None):
    """Expected job-stopping failures per day of a job on ``nodes`` nodes.

    λ_cluster = N · λ_node (independent nodes, superposition of Poisson processes).

    Parameters
    ----------
    nodes : number of nodes in the job [nodes].
    node_failure_rate_per_day : failures per node per day [1/(node·day)], e.g. 0.001.
    out : ndarray, optional; memory to write the result into when it has the result's
        shape (the same multiplication: the same values).

    Returns
    -------
    failures per day [1/day].

    Examples
    --------
    >>> cluster_failures_per_day(2000, 0.001)
    2.0
    """
    n = as_float_array(nodes)
    r = as_float_array(node_failure_rate_per_day)
    if fits_into(out, n, r):
        return np.multiply(n, r, out=out)
    return like_input(n * r, nodes, node_failure_rate_per_day)


def mtbf_hours(failures_per_day, out=None):
    """Job mean time between failures, M = 24 / λ_cluster [h]; ``inf`` when λ = 0.

    Parameters
    ----------
    failures_per_day : array_like
        λ_cluster, failures of the job per day [per day].
    out : ndarray, optional
        Memory to write the result into when it has the result's shape (the same
        operations: the same values), where every λ > 0.

    Returns
    -------
    float or ndarray
        M [h]; inf where λ = 0.

    Examples
    --------
    >>> mtbf_hours(2.0)
    12.0
    """
    lam = as_float_array(failures_per_day)
    positive = lam > 0
    if positive.all():  # the common case: no pass on the guard
        if fits_into(out, lam):
            return np.divide(HOURS_PER_DAY, lam, out=out)
        return like_input(HOURS_PER_DAY / lam, failures_per_day)
    with np.errstate(divide="ignore"):
        m = np.where(positive, HOURS_PER_DAY / np.where(positive, lam, 1.0), np.inf)
    return like_input(m, failures_per_day)


def probability_no_spare(failures_per_day, repair_hours, spare_nodes):
    """Probability that a failure finds every hot spare still in repair.

    Failed nodes leave for repair and come back after ``repair_hours`` on average, so the
    number of nodes in repair is an M/G/∞ occupancy, Poisson with mean λ·E[S] by Palm's
    theorem (Kleinrock, *Queueing Systems* Vol. 1, 1975, §3.x).  By PASTA a failure sees
    that stationary distribution, and it finds no free spare when at least ``spare_nodes``
    nodes are already in repair: P = P(Poisson(λ·S) ≥ s) (= 1 when s = 0).

    Parameters
    ----------
    failures_per_day : λ, failures per day of the job [1/day].
    repair_hours : mean repair time of a failed node [h].
    spare_nodes : hot spares owned by the job [nodes].

    Returns
    -------
    float or ndarray
        P(Poisson(λ·S/24) ≥ s) [probability].

    Examples
    --------
    >>> round(probability_no_spare(4.0, 24.0, 4), 4)  # P(Poisson(4) >= 4)
    0.5665
    """
    lam = as_float_array(failures_per_day)
    rep = as_float_array(repair_hours)
    s = as_float_array(spare_nodes)
    mu = lam * rep / HOURS_PER_DAY
    p = as_float_array(poisson_sf(s, mu))  # = scipy.stats.poisson.sf(s - 1, mu); 1 when s = 0
    return like_input(p, failures_per_day, repair_hours, spare_nodes)


def probability_short_of_spares(
    failures_per_day, multi_node_failures_per_day, nodes_per_multi_node, repair_hours, spare_nodes
):
    """Probability that a failure finds too few hot spares free, when some failures take
    out several nodes at once [probability].

    A multi-node failure sends its g nodes to repair and needs g free spares.  The pool is
    fed ν = λ + m·(g − 1) nodes per day (λ failures that send nodes to repair, m of them
    multi-node); the number in repair is taken as Poisson with mean μ = ν·S/24 (M/G/∞ with
    the right mean: Kleinrock 1975; batches make it somewhat more variable), seen by every
    failure (PASTA).  A single-node failure finds no free spare with P₁ = P(N ≥ s), a
    multi-node one fewer than g with P_g = P(N ≥ s − g + 1), so
    P = (1 − m/λ)·P₁ + (m/λ)·P_g.  With m = 0 it is :func:`probability_no_spare`.

    Parameters
    ----------
    failures_per_day : λ, failures per day that send nodes to repair [1/day].
    multi_node_failures_per_day : m ≤ λ, those of them that take out g nodes [1/day].
    nodes_per_multi_node : g, nodes a multi-node failure takes out [nodes].
    repair_hours : mean repair time of a failed node [h].
    spare_nodes : hot spares owned by the job [nodes].

    Returns
    -------
    P : probability that a failure finds too few spares free [fraction]; the share of
        multi-node failures is 0 where λ = 0.

    Examples
    --------
    >>> # 4 failures/day, 8.4% of them taking out 8 nodes, 24 h repairs, 8 spares:
    >>> # mu = 4 x (1 + 0.084 x 7) = 6.352; 0.916 P(N >= 8) + 0.084 P(N >= 1)
    >>> round(probability_short_of_spares(4.0, 0.336, 8, 24.0, 8), 4)
    0.3639
    """
    lam = as_float_array(failures_per_day)
    multi = as_float_array(multi_node_failures_per_day)
    g = as_float_array(nodes_per_multi_node)
    s = as_float_array(spare_nodes)
    if multi.ndim == 0 and multi == 0:
        return probability_no_spare(failures_per_day, repair_hours, spare_nodes)
    sent = lam + multi * (g - 1.0)  # nodes sent to repair per day
    single = as_float_array(probability_no_spare(sent, repair_hours, s))
    several = as_float_array(probability_no_spare(sent, repair_hours, s - g + 1.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(lam > 0, multi / np.where(lam > 0, lam, 1.0), 0.0)
    p = single + share * (several - single)
    return like_input(
        p,
        failures_per_day,
        multi_node_failures_per_day,
        nodes_per_multi_node,
        repair_hours,
        spare_nodes,
    )


def expected_replacement_minutes(p_no_spare, replacement_minutes, hot_spare_swap_minutes):
    """Mean replacement time: spare swap when a spare is free, else the slower path [min].

    t = p · t_replace + (1 − p) · t_swap.

    Parameters
    ----------
    p_no_spare : array_like
        p, probability that no hot spare is free [probability].
    replacement_minutes : array_like
        t_replace, time to get a replacement node [min].
    hot_spare_swap_minutes : array_like
        t_swap, time to swap in a hot spare [min].

    Returns
    -------
    float or ndarray
        Mean replacement time t [min].
    """
    p = as_float_array(p_no_spare)
    out = p * as_float_array(replacement_minutes) + (1 - p) * as_float_array(hot_spare_swap_minutes)
    return like_input(out, p_no_spare, replacement_minutes, hot_spare_swap_minutes)


# --------------------------------------------------------------------------- failure domains
def erlang_b(servers, offered_load):
    """Erlang's loss probability B(c, a): the share of arrivals that find all c servers busy.

    A pool of c spares, each out for a repair of mean S after it is used, fed by Poisson
    failures of rate ν, is an M/G/c/c loss system with offered load a = ν·S; a failure that
    finds no free spare takes the slower path and does not join the pool.  B is insensitive
    to the repair-time distribution (Erlang 1917; Kleinrock, *Queueing Systems* Vol. 1,
    1975, §3.7), so the lognormal repairs of the Monte Carlo give the same B.  Computed by
    the stable recursion B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)).

    Parameters
    ----------
    servers : c, spares in the pool [count] (whole numbers ≥ 0).
    offered_load : a = ν·S, failures per repair time [dimensionless].

    Returns
    -------
    B : probability that a failure finds no free spare [fraction]; 1 where c = 0.

    Examples
    --------
    >>> round(erlang_b(2, 1.0), 4)  # (1/2) / (1 + 1 + 1/2)
    0.2
    >>> erlang_b(0, 3.0)
    1.0
    """
    c = as_float_array(servers)
    a = as_float_array(offered_load)
    b = np.ones(np.broadcast_shapes(c.shape, a.shape))
    top = int(np.nanmax(c)) if c.size else 0
    for k in range(1, top + 1):
        step = a * b / (k + a * b)
        b = np.where(c >= k, step, b)
    return like_input(b, servers, offered_load)


def scaleup_domains(nodes, job_nodes_per_domain):
    """Scale-up domains a job of ``nodes`` nodes occupies when it runs on
    ``job_nodes_per_domain`` nodes of each: D = ⌈N / n_d⌉ [domains].

    Parameters
    ----------
    nodes : array_like
        N, nodes of the job [count].
    job_nodes_per_domain : array_like
        n_d, nodes the job uses in each scale-up domain [count].

    Returns
    -------
    float or ndarray
        D = ⌈N / n_d⌉ [count].

    Examples
    --------
    >>> scaleup_domains(1152, 16)  # 1,152 nodes on NVL72 racks with 2 spare trays each
    72.0
    """
    n = as_float_array(nodes)
    nd = as_float_array(job_nodes_per_domain)
    with np.errstate(invalid="ignore", divide="ignore"):
        if nd.ndim == 0 and nd > 0:  # one domain size, a valid one: no mask to apply
            d = np.ceil(n / nd - 1e-9)
        else:
            d = np.where(nd > 0, np.ceil(n / np.where(nd > 0, nd, 1.0) - 1e-9), np.nan)
    return like_input(d, nodes, job_nodes_per_domain)


def overlapping_repairs_minutes(weights, minutes):
    """The replacement time that a mix of repairs costs in Daly's model [min]: their
    failure-weighted mean Σ w_c·R_c, whatever the failure rate and the repairs' spread.

    Repairs run side by side: a failure during a recovery neither ends the repair in
    progress (a node failing during a rack's 8-hour repair does not bring the rack back)
    nor waits for it before its own starts.  Failure i (Poisson, rate λ) then keeps the job
    down over [t_i, t_i + L_i], L_i = D + R_i + A its detection, repair and relaunch, and a
    recovery lasts as long as these intervals overlap: the busy period B of an M/G/∞ queue
    with service times L_i.  Its occupancy is Poisson with mean ρ = λ·E[L] whatever the
    distribution of L (Kleinrock 1975, §3.7; ``kleinrock1975``), so the job is up a share
    e^{−ρ} of the time; up-times last 1/λ on average, hence E[B] = (e^{λ·E[L]} − 1)/λ:
    Daly's recovery term (Daly 2006, §3) at the mean L.  Only the mean of each class's
    repair counts (derivation in docs/references.md#failure-domains).

    Parameters
    ----------
    weights : sequence of array_like
        Shares w_c of the failures that take each repair [fraction], summing to 1.
    minutes : sequence of array_like
        Repair (replacement) time R_c of each class, its mean when it varies [min].

    Returns
    -------
    float or ndarray
        Σ w_c·R_c [min].

    Examples
    --------
    >>> # nine in ten failures swap a node in 2 min, one in ten waits 8 h for its rack
    >>> round(overlapping_repairs_minutes([0.9, 0.1], [2.0, 480.0]), 6)
    49.8
    """
    mean = sum(as_float_array(w) * as_float_array(r) for w, r in zip(weights, minutes, strict=True))
    return like_input(mean, *weights, *minutes)
