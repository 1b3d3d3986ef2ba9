"""Collectives (alpha-beta cost model), NCCL-tests bandwidth factors and fabric faults.

Units: message sizes in bytes, bandwidths in GB/s (10⁹ bytes/s, per direction, per rank),
latencies α in microseconds, times in seconds.  Every function broadcasts over numpy arrays
and returns a float when all inputs are scalars.

Alpha-beta (Hockney) model: sending ``n`` bytes costs α + n/B.  For ``p`` ranks and a
message of ``n`` bytes per rank ([2], [3]):

* ring all-reduce            2(p−1)·α + 2·((p−1)/p)·n/B
* ring reduce-scatter        (p−1)·α + ((p−1)/p)·n/B          (all-gather: the same)
* double binary tree AR      2·⌈log2 p⌉·α + 2·n/B             (pipelined, bandwidth-bound)
* hierarchical all-reduce    k ranks per scale-up domain (NVLink / NeuronLink) and N domains
  over the scale-out fabric (EFA), per-rank network share B_net:
  2[(k−1)α_su + ((k−1)/k)·n/B_su] + 2(N−1)α_net + 2((N−1)/N)·(n/k)/B_net
  (reduce-scatter inside the domain, all-reduce of the 1/k shard across domains,
  all-gather inside the domain).

NCCL-tests [1] report ``algbw = S/t`` and ``busbw = algbw × factor`` with factor 2(n−1)/n for
all-reduce, (n−1)/n for reduce-scatter, all-gather and all-to-all, and 1 for broadcast and
reduce: busbw is comparable with the hardware link bandwidth whatever the rank count.

References
----------
[1] NVIDIA, nccl-tests ``doc/PERFORMANCE.md`` (algbw and busbw).
[2] R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of collective communication
    operations in MPICH", IJHPCA 19(1):49-66, 2005. doi:10.1177/1094342005051521
[3] R. W. Hockney, "The communication challenge for MPP", Parallel Computing 20(3), 1994.
[4] PyTorch ``torch.distributed.init_process_group``: default ``timeout`` is 10 minutes for
    NCCL (collective watchdog).
"""

from __future__ import annotations

import numpy as np

from ._tools import MINUTES_PER_DAY, as_float_array, like_input

GB = 1e9  # bytes per GB (bandwidths are decimal GB/s, as in NCCL-tests and datasheets)
US = 1e-6  # seconds per microsecond

#: busbw / algbw factor per collective, NCCL-tests doc/PERFORMANCE.md [1].
BUSBW_COLLECTIVES = ("all_reduce", "reduce_scatter", "all_gather", "all_to_all", "broadcast")

#: Labelled reroute (fabric failover) stall times, in seconds.  Vendor claims are inputs, not
#: measurements: each label says what it is.  docs/references.md#fabric-reroutes-and-collective-timeouts.
REROUTE_PRESETS_S: dict[str, float] = {
    "SIDR failover (AWS vendor claim: 'sub-second'; 1 s used) [unverified]": 1.0,
    "BFD detection (300 ms × 3) then reroute": 0.9,
    "BGP hold timer, 90 s (conventional minimum)": 90.0,
    "BGP hold timer, 180 s (conventional default)": 180.0,
}


def busbw_factor(collective: str, ranks):
    """NCCL-tests bus-bandwidth factor busbw/algbw for ``collective`` over ``ranks`` ranks [1].

    all_reduce: 2(n−1)/n; reduce_scatter, all_gather, all_to_all: (n−1)/n; broadcast: 1.

    Parameters
    ----------
    collective : str
        One of ``BUSBW_COLLECTIVES``.
    ranks : array_like
        Ranks n [count].

    Returns
    -------
    float or ndarray
        busbw/algbw [-].

    Examples
    --------
    >>> busbw_factor("all_reduce", 8)
    1.75
    >>> busbw_factor("all_gather", 8)
    0.875
    """
    n = as_float_array(ranks)
    if collective == "all_reduce":
        out = 2.0 * (n - 1.0) / n
    elif collective in ("reduce_scatter", "all_gather", "all_to_all"):
        out = (n - 1.0) / n
    elif collective == "broadcast":
        out = np.ones_like(n)
    else:
        raise ValueError(f"collective must be one of {BUSBW_COLLECTIVES}, got {collective!r}")
    return like_input(out, ranks)


def algbw_GBps(size_bytes, seconds):
    """NCCL-tests algorithm bandwidth algbw = S / t [GB/s] [1].

    Parameters
    ----------
    size_bytes : array_like
        Buffer size S [bytes].
    seconds : array_like
        Measured time t [s].

    Returns
    -------
    float or ndarray
        algbw [GB/s].

    Examples
    --------
    >>> algbw_GBps(1e9, 0.01)
    100.0
    """
    out = as_float_array(size_bytes) / as_float_array(seconds) / GB
    return like_input(out, size_bytes, seconds)


def busbw_GBps(collective: str, size_bytes, seconds, ranks):
    """NCCL-tests bus bandwidth = algbw × :func:`busbw_factor` [GB/s] [1].

    Parameters
    ----------
    collective : str
        One of ``BUSBW_COLLECTIVES``.
    size_bytes : array_like
        Buffer size S [bytes].
    seconds : array_like
        Measured time t [s].
    ranks : array_like
        Ranks n [count].

    Returns
    -------
    float or ndarray
        busbw [GB/s].

    Examples
    --------
    >>> busbw_GBps("all_reduce", 1e9, 0.01, 8)  # 100 GB/s algbw × 1.75
    175.0
    """
    out = as_float_array(algbw_GBps(size_bytes, seconds)) * as_float_array(
        busbw_factor(collective, ranks)
    )
    return like_input(out, size_bytes, seconds, ranks)


def _check_ranks(p: np.ndarray) -> None:
    if np.any(p < 1):
        raise ValueError("ranks must be >= 1")


def ring_allreduce_seconds(size_bytes, ranks, bandwidth_GBps, alpha_us=0.0):
    """Ring all-reduce time 2(p−1)·α + 2·((p−1)/p)·n/B [s] (Thakur et al. 2005 [2]).

    Parameters
    ----------
    size_bytes : array_like
        Message per rank n [bytes].
    ranks : array_like
        Ranks p [count] (>= 1).
    bandwidth_GBps : array_like
        Per-rank link bandwidth per direction B [GB/s].
    alpha_us : array_like
        Per-step latency α [µs].

    Returns
    -------
    float or ndarray
        Collective time [s].

    Examples
    --------
    >>> round(ring_allreduce_seconds(1e9, 8, 100.0, 10.0), 6)  # 2·7·10 µs + 2·(7/8)·10 ms
    0.01764
    """
    p = as_float_array(ranks)
    _check_ranks(p)
    n = as_float_array(size_bytes)
    b = as_float_array(bandwidth_GBps) * GB
    a = as_float_array(alpha_us) * US
    out = 2.0 * (p - 1.0) * a + 2.0 * (p - 1.0) / p * n / b
    return like_input(out, size_bytes, ranks, bandwidth_GBps, alpha_us)


def ring_reduce_scatter_seconds(size_bytes, ranks, bandwidth_GBps, alpha_us=0.0):
    """Ring reduce-scatter (or all-gather) time (p−1)·α + ((p−1)/p)·n/B [s] [2].

    ``size_bytes`` is the full (unsharded) buffer.  All-gather costs the same.

    Parameters
    ----------
    size_bytes : array_like
        Full (unsharded) buffer n [bytes].
    ranks : array_like
        Ranks p [count] (>= 1).
    bandwidth_GBps : array_like
        Per-rank link bandwidth per direction B [GB/s].
    alpha_us : array_like
        Per-step latency α [µs].

    Returns
    -------
    float or ndarray
        Collective time [s].

    Examples
    --------
    >>> round(ring_reduce_scatter_seconds(1e9, 8, 100.0, 10.0), 6)
    0.00882
    """
    p = as_float_array(ranks)
    _check_ranks(p)
    n = as_float_array(size_bytes)
    b = as_float_array(bandwidth_GBps) * GB
    a = as_float_array(alpha_us) * US
    out = (p - 1.0) * a + (p - 1.0) / p * n / b
    return like_input(out, size_bytes, ranks, bandwidth_GBps, alpha_us)


ring_allgather_seconds = ring_reduce_scatter_seconds


def tree_allreduce_seconds(size_bytes, ranks, bandwidth_GBps, alpha_us=0.0):
    """Double-binary-tree all-reduce ≈ 2·⌈log2 p⌉·α + 2·n/B [s] (docs/references.md#collectives, [2]).

    Latency grows with log p instead of p, the bandwidth term does not shrink with p:
    trees win for small messages on many ranks, rings for large messages.

    Parameters
    ----------
    size_bytes : array_like
        Message per rank n [bytes].
    ranks : array_like
        Ranks p [count] (>= 1).
    bandwidth_GBps : array_like
        Per-rank link bandwidth per direction B [GB/s].
    alpha_us : array_like
        Per-step latency α [µs].

    Returns
    -------
    float or ndarray
        Collective time [s].

    Examples
    --------
    >>> round(tree_allreduce_seconds(1e9, 8, 100.0, 10.0), 6)  # 2·3·10 µs + 2·10 ms
    0.02006
    """
    p = as_float_array(ranks)
    _check_ranks(p)
    n = as_float_array(size_bytes)
    b = as_float_array(bandwidth_GBps) * GB
    a = as_float_array(alpha_us) * US
    steps = np.ceil(np.log2(p))
    out = np.where(p > 1, 2.0 * steps * a + 2.0 * n / b, 0.0)
    return like_input(out, size_bytes, ranks, bandwidth_GBps, alpha_us)


def hierarchical_allreduce_seconds(
    size_bytes,
    ranks_per_domain,
    domains,
    scaleup_GBps,
    network_GBps_per_rank,
    alpha_scaleup_us=0.0,
    alpha_network_us=0.0,
    overlapped=False,
):
    """Hierarchical all-reduce: scale-up reduce-scatter, network all-reduce, all-gather [s].

    Phases: intra = 2[(k−1)α_su + ((k−1)/k)·n/B_su] inside each scale-up domain and
    inter = 2(N−1)α_net + 2((N−1)/N)·(n/k)/B_net across the N domains (docs/references.md#collectives; [2]).  ``k`` ranks
    per scale-up domain, B_net each rank's share of the node's scale-out bandwidth (e.g.
    EFA 3,200 Gb/s / 8 GPUs = 50 GB/s), already multiplied by any efficiency factor.  With
    k = 1 this is a ring across domains.

    ``overlapped=False`` sums the phases (intra + inter, the textbook bound).  ``True``
    models NCCL, which cuts the buffer into chunks and pipelines them so the phases run
    concurrently: max(intra, inter).  A 4-node p6-b200 all-reduce measured 22.05 ms where
    the serial sum at wire speed predicts 26.25 ms and the inter-node phase alone 16.1 ms
    (stas00/ml-engineering, network/README.md): the phases overlap, and what remains is
    the inter-node efficiency.

    Parameters
    ----------
    size_bytes : array_like
        Message per rank n [bytes].
    ranks_per_domain, domains : array_like
        k ranks per scale-up domain and N domains [count] (>= 1).
    scaleup_GBps, network_GBps_per_rank : array_like
        B_su and B_net per rank, per direction [GB/s].
    alpha_scaleup_us, alpha_network_us : array_like
        Per-step latencies α_su and α_net [µs].
    overlapped : bool or array_like
        True: max(intra, inter) (NCCL pipelining); False: intra + inter.

    Returns
    -------
    float or ndarray
        All-reduce time [s].

    Examples
    --------
    >>> # 1 GB, 8 GPUs per node, 2 nodes, 450 GB/s NVLink, 50 GB/s EFA per GPU, no latency
    >>> round(hierarchical_allreduce_seconds(1e9, 8, 2, 450.0, 50.0), 6)
    0.006389
    >>> round(hierarchical_allreduce_seconds(1e9, 8, 2, 450.0, 50.0, overlapped=True), 6)
    0.003889
    """
    k = as_float_array(ranks_per_domain)
    nd = as_float_array(domains)
    _check_ranks(k)
    _check_ranks(nd)
    n = as_float_array(size_bytes)
    b_su = as_float_array(scaleup_GBps) * GB
    b_net = as_float_array(network_GBps_per_rank) * GB
    a_su = as_float_array(alpha_scaleup_us) * US
    a_net = as_float_array(alpha_network_us) * US
    with np.errstate(divide="ignore", invalid="ignore"):
        intra = np.where(k > 1, 2.0 * ((k - 1.0) * a_su + (k - 1.0) / k * n / b_su), 0.0)
        inter = np.where(
            nd > 1, 2.0 * (nd - 1.0) * a_net + 2.0 * (nd - 1.0) / nd * (n / k) / b_net, 0.0
        )
    out = np.where(np.asarray(overlapped, dtype=bool), np.maximum(intra, inter), intra + inter)
    return like_input(
        out,
        size_bytes,
        ranks_per_domain,
        domains,
        scaleup_GBps,
        network_GBps_per_rank,
        alpha_scaleup_us,
        alpha_network_us,
    )


def ring_allreduce_total_bytes(size_bytes, ranks):
    """Bytes all ranks together send in a ring all-reduce: p · 2((p−1)/p)·n = 2(p−1)·n.

    Grows with the rank count: more nodes never mean less total communication.

    Parameters
    ----------
    size_bytes : array_like
        Message per rank n [bytes].
    ranks : array_like
        Ranks p [count].

    Returns
    -------
    float or ndarray
        Bytes sent by all ranks together [bytes].

    Examples
    --------
    >>> ring_allreduce_total_bytes(1e9, 8)
    14000000000.0
    """
    p = as_float_array(ranks)
    out = 2.0 * (p - 1.0) * as_float_array(size_bytes)
    return like_input(out, size_bytes, ranks)


def network_GBps_per_rank(node_gbps, ranks_per_node, efficiency=1.0):
    """Each rank's share of the node's scale-out bandwidth: η · Gb/s / 8 / ranks [GB/s].

    ``efficiency`` η is the achieved fraction of line rate at scale (no trustworthy public
    full-scale p5 bus bandwidth exists, docs/references.md#collectives: a user input, 0.6-0.9).

    Parameters
    ----------
    node_gbps : array_like
        Node scale-out bandwidth [Gbit/s].
    ranks_per_node : array_like
        Ranks (accelerators) per node [count].
    efficiency : array_like
        Achieved share η of line rate [fraction].

    Returns
    -------
    float or ndarray
        Per-rank bandwidth [GB/s].

    Examples
    --------
    >>> network_GBps_per_rank(3200.0, 8, 0.75)  # p5.48xlarge EFA, 8 GPUs, η = 0.75
    37.5
    """
    out = (
        as_float_array(efficiency)
        * as_float_array(node_gbps)
        / 8.0
        / as_float_array(ranks_per_node)
    )
    return like_input(out, node_gbps, ranks_per_node, efficiency)


# --------------------------------------------------------------------------- fabric faults
def fabric_failures_per_day(events_per_day, reroute_seconds, timeout_seconds):
    """Fabric events that become job failures: events/day where stall > collective timeout.

    A link or switch event stalls every collective crossing it until traffic is rerouted.
    If the stall outlasts the collective (watchdog) timeout, e.g. PyTorch's NCCL default of
    600 s [4], the job aborts and pays a full recovery (detection, replacement, restart,
    restore and rework); otherwise training resumes after the stall.

    Parameters
    ----------
    events_per_day : array_like
        Fabric (link or switch) events [per day].
    reroute_seconds : array_like
        Stall of each event until traffic is rerouted [s].
    timeout_seconds : array_like
        Collective watchdog timeout [s] (PyTorch NCCL default 600 s [4]).

    Returns
    -------
    float or ndarray
        Events that become job failures [per day].

    Examples
    --------
    >>> fabric_failures_per_day(2.0, 180.0, 120.0)
    2.0
    >>> fabric_failures_per_day(2.0, 1.0, 120.0)
    0.0
    """
    ev = as_float_array(events_per_day)
    s = as_float_array(reroute_seconds)
    t = as_float_array(timeout_seconds)
    out = np.where(s > t, ev, 0.0) * np.ones(np.broadcast(ev, s, t).shape)
    return like_input(out, events_per_day, reroute_seconds, timeout_seconds)


def fabric_stall_minutes_per_day(events_per_day, reroute_seconds, timeout_seconds):
    """Whole-job stall from fabric events: events/day × min(stall, timeout) / 60 [min/day].

    Events shorter than the timeout stall the job for the reroute time; longer ones hang it
    until the watchdog fires (the timeout), after which they count as failures (see
    :func:`fabric_failures_per_day`) with their own recovery cost.

    Parameters
    ----------
    events_per_day : array_like
        Fabric (link or switch) events [per day].
    reroute_seconds : array_like
        Stall of each event until traffic is rerouted [s].
    timeout_seconds : array_like
        Collective watchdog timeout [s] (PyTorch NCCL default 600 s [4]).

    Returns
    -------
    float or ndarray
        Whole-job stall, capped at a day [min/day].

    Examples
    --------
    >>> fabric_stall_minutes_per_day(4.0, 90.0, 600.0)  # 4 events × 90 s
    6.0
    """
    ev = as_float_array(events_per_day)
    stall_s = np.minimum(as_float_array(reroute_seconds), as_float_array(timeout_seconds))
    out = np.minimum(ev * stall_s / 60.0, MINUTES_PER_DAY)
    return like_input(out, events_per_day, reroute_seconds, timeout_seconds)
