"""Failure process of a cluster: failures per day, MTBF, hot-spare availability.

All functions are numpy-vectorised: scalars or arrays in, same shape out (floats for
all-scalar input).  Rates are per node per day as fractions; times are named by unit.
"""

from __future__ import annotations

import numpy as np

from ._tools import HOURS_PER_DAY, as_float_array, like_input
from .special import poisson_sf


def cluster_failures_per_day(nodes, node_failure_rate_per_day):
    """Expected job-stopping failures per day of a job on ``nodes`` nodes.

    λ_cluster = N · λ_node (independent nodes, superposition of Poisson processes).

    Parameters
    ----------
    nodes : number of nodes in the job [nodes].
    node_failure_rate_per_day : failures per node per day [1/(node·day)], e.g. 0.001.

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
    return like_input(n * r, nodes, node_failure_rate_per_day)


def mtbf_hours(failures_per_day):
    """Job mean time between failures, M = 24 / λ_cluster [h]; ``inf`` when λ = 0.

    Examples
    --------
    >>> mtbf_hours(2.0)
    12.0
    """
    lam = as_float_array(failures_per_day)
    positive = lam > 0
    if positive.all():  # the common case: no pass on the guard
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
    """
    p = as_float_array(p_no_spare)
    out = p * as_float_array(replacement_minutes) + (1 - p) * as_float_array(hot_spare_swap_minutes)
    return like_input(out, p_no_spare, replacement_minutes, hot_spare_swap_minutes)
