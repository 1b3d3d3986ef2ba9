"""Collectives (alpha-beta), NCCL-tests factors, fabric faults and their goodput coupling."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import evaluate
from goodput_lab.models import network as net
from goodput_lab.models.evaluate import LOSS_COMPONENTS
from hypothesis import given, settings
from hypothesis import strategies as st


# ----------------------------------------------------------------- hand-computed alpha-beta
def test_ring_allreduce_hand_computed():
    # 1 GB over 8 ranks at 100 GB/s, α = 10 µs: 2·7·10 µs + 2·(7/8)·1e9/1e11 s
    assert net.ring_allreduce_seconds(1e9, 8, 100.0, 10.0) == pytest.approx(1.4e-4 + 0.0175)


def test_reduce_scatter_and_all_gather_are_half_an_all_reduce():
    rs = net.ring_reduce_scatter_seconds(1e9, 8, 100.0, 10.0)
    assert rs == pytest.approx(7e-5 + 0.00875)
    assert net.ring_allgather_seconds(1e9, 8, 100.0, 10.0) == rs
    assert 2 * rs == pytest.approx(net.ring_allreduce_seconds(1e9, 8, 100.0, 10.0))


def test_tree_allreduce_hand_computed():
    # 2·⌈log2 8⌉·10 µs + 2·1e9/1e11; 1,000 ranks: ⌈log2⌉ = 10
    assert net.tree_allreduce_seconds(1e9, 8, 100.0, 10.0) == pytest.approx(6e-5 + 0.02)
    assert net.tree_allreduce_seconds(1e3, 1000, 100.0, 10.0) == pytest.approx(2e-4 + 2e-8)
    # small message on many ranks: the tree wins; large message on few ranks: the ring
    assert net.tree_allreduce_seconds(1e3, 1000, 100.0, 10.0) < net.ring_allreduce_seconds(
        1e3, 1000, 100.0, 10.0
    )
    assert net.tree_allreduce_seconds(1e9, 8, 100.0, 10.0) > net.ring_allreduce_seconds(
        1e9, 8, 100.0, 10.0
    )


def test_hierarchical_allreduce_hand_computed():
    # 2 p5 nodes: NVLink 450 GB/s per direction, EFA 3,200 Gb/s / 8 = 50 GB/s per GPU
    intra = 2 * (7 / 8) * 1e9 / 450e9
    inter = 2 * (1 / 2) * (1e9 / 8) / 50e9
    got = net.hierarchical_allreduce_seconds(1e9, 8, 2, 450.0, 50.0)
    assert got == pytest.approx(intra + inter)
    assert got == pytest.approx(0.0063889, abs=1e-7)
    # with latency: 2·7·2 µs + 2·1·10 µs
    lat = net.hierarchical_allreduce_seconds(1e9, 8, 2, 450.0, 50.0, 2.0, 10.0)
    assert lat - got == pytest.approx(28e-6 + 20e-6)


def test_hierarchical_with_one_rank_per_domain_is_a_ring():
    assert net.hierarchical_allreduce_seconds(1e9, 1, 16, 450.0, 50.0, 2.0, 10.0) == (
        pytest.approx(net.ring_allreduce_seconds(1e9, 16, 50.0, 10.0))
    )
    # one domain only: pure scale-up ring
    assert net.hierarchical_allreduce_seconds(1e9, 8, 1, 450.0, 50.0, 2.0, 10.0) == (
        pytest.approx(net.ring_allreduce_seconds(1e9, 8, 450.0, 2.0))
    )


def test_network_share_per_rank():
    assert net.network_GBps_per_rank(3200.0, 8, 0.75) == 37.5  # p5.48xlarge
    assert net.network_GBps_per_rank(800.0, 16) == 6.25  # trn1.32xlarge line rate


# ----------------------------------------------------------------- NCCL-tests factors
@pytest.mark.parametrize(
    ("collective", "n", "factor"),
    [
        # NVIDIA/nccl-tests doc/PERFORMANCE.md: all-reduce 2(n-1)/n, RS/AG/A2A (n-1)/n, bcast 1
        ("all_reduce", 8, 1.75),
        ("all_reduce", 2, 1.0),
        ("reduce_scatter", 8, 0.875),
        ("all_gather", 16, 0.9375),
        ("all_to_all", 4, 0.75),
        ("broadcast", 64, 1.0),
    ],
)
def test_busbw_factors_nccl_tests(collective, n, factor):
    assert net.busbw_factor(collective, n) == pytest.approx(factor)


def test_algbw_busbw_roundtrip_matches_ring_bandwidth():
    # a bandwidth-only ring all-reduce at B GB/s shows busbw = B (why NCCL-tests uses busbw)
    t = net.ring_allreduce_seconds(4e9, 8, 120.0)
    assert net.algbw_GBps(4e9, t) == pytest.approx(120.0 / 1.75)
    assert net.busbw_GBps("all_reduce", 4e9, t, 8) == pytest.approx(120.0)
    with pytest.raises(ValueError, match="collective must be"):
        net.busbw_factor("gossip", 8)


def test_scalar_and_array_types():
    assert isinstance(net.ring_allreduce_seconds(1e6, 8, 50.0), float)
    arr = net.ring_allreduce_seconds(1e6, np.array([2, 4, 8]), 50.0)
    assert isinstance(arr, np.ndarray) and arr.shape == (3,)
    assert np.all(np.diff(arr) > 0)


# ----------------------------------------------------------------- properties
sizes = st.floats(1e3, 1e11)
bws = st.floats(1.0, 2000.0)
ranks = st.integers(2, 100_000)


@settings(max_examples=60, deadline=None)
@given(n=sizes, p=ranks, b=bws, extra=st.floats(1.0001, 10.0), a=st.floats(0.0, 50.0))
def test_more_bandwidth_never_slower(n, p, b, extra, a):
    for fn in (
        net.ring_allreduce_seconds,
        net.tree_allreduce_seconds,
        net.ring_reduce_scatter_seconds,
    ):
        assert fn(n, p, b * extra, a) <= fn(n, p, b, a)
    k = 8
    assert net.hierarchical_allreduce_seconds(n, k, p, b * extra, b, a, a) <= (
        net.hierarchical_allreduce_seconds(n, k, p, b, b, a, a)
    )
    assert net.hierarchical_allreduce_seconds(n, k, p, b, b * extra, a, a) <= (
        net.hierarchical_allreduce_seconds(n, k, p, b, b, a, a)
    )


@settings(max_examples=60, deadline=None)
@given(n=sizes, p=ranks, more=st.integers(1, 10_000))
def test_more_nodes_never_less_total_communication(n, p, more):
    assert net.ring_allreduce_total_bytes(n, p + more) > net.ring_allreduce_total_bytes(n, p)
    # and the per-rank ring time never falls as ranks are added (bandwidth term 2(p-1)/p)
    assert net.ring_allreduce_seconds(n, p + more, 50.0, 5.0) >= net.ring_allreduce_seconds(
        n, p, 50.0, 5.0
    )


# ----------------------------------------------------------------- fabric faults
def test_fabric_stall_vs_timeout():
    assert net.fabric_failures_per_day(3.0, 1.0, 600.0) == 0.0  # SIDR-like: stall only
    assert net.fabric_failures_per_day(3.0, 180.0, 120.0) == 3.0  # BGP 180 s > 120 s timeout
    assert net.fabric_stall_minutes_per_day(3.0, 90.0, 600.0) == pytest.approx(4.5)
    # a stall beyond the timeout hangs the job only until the watchdog fires
    assert net.fabric_stall_minutes_per_day(3.0, 180.0, 120.0) == pytest.approx(6.0)
    assert set(net.REROUTE_PRESETS_S.values()) == {1.0, 0.9, 90.0, 180.0}
    assert any("unverified" in label for label in net.REROUTE_PRESETS_S)


def test_defaults_leave_fabric_faults_off_and_headline_unchanged(headline_baseline, catalog):
    ev = evaluate(headline_baseline, catalog)
    assert ev["loss_fabric_stall_minutes_per_day"] == 0.0
    assert ev["fabric_failures_per_day"] == 0.0
    assert ev["failures_per_day"] == pytest.approx(4.0)  # 2,000 nodes × 0.2%
    assert "fabric_stall" in LOSS_COMPONENTS


def test_fabric_stall_enters_goodput_and_breakdown(headline_baseline, catalog):
    base = evaluate(headline_baseline, catalog)
    s = headline_baseline.replace(
        {"network.fabric_events_per_day": 10.0, "network.reroute_seconds": 90.0}
    )
    ev = evaluate(s, catalog)
    stall = 10 * 90 / 60  # 15 min/day
    assert ev["fabric_stall_minutes_per_day"] == pytest.approx(stall)
    assert ev["goodput"] == pytest.approx(base["goodput"] * (1 - stall / 1440))
    rows = ev.loss_breakdown()
    assert sum(r["minutes_per_day"] for r in rows) == pytest.approx(
        (1 - ev["goodput"]) * 1440, rel=1e-12
    )
    assert ev["lost_usd_per_day"] == pytest.approx(
        (1 - ev["goodput"]) * ev["cluster_usd_per_day"] + ev["storage_usd_per_day"]
    )
    # SIDR's claimed sub-second reroute costs far less than a BGP hold timer
    sidr = evaluate(s.replace({"network.reroute_seconds": 1.0}), catalog)
    assert base["goodput"] - sidr["goodput"] < (base["goodput"] - ev["goodput"]) / 50


def test_stall_beyond_timeout_is_a_job_failure(headline_baseline, catalog):
    s = headline_baseline.replace(
        {
            "network.fabric_events_per_day": 2.0,
            "network.reroute_seconds": 180.0,
            "network.collective_timeout_seconds": 120.0,
        }
    )
    ev = evaluate(s, catalog)
    assert ev["failures_per_day"] == pytest.approx(4.0 + 2.0)
    assert ev["fabric_failures_per_day"] == 2.0
    # same goodput as 6 node failures/day plus 2 × 2 min of hang until the watchdog
    six = evaluate(
        headline_baseline.replace({"reliability.node_failure_rate_per_day": 0.003}), catalog
    )
    assert ev["goodput"] == pytest.approx(six["goodput"] * (1 - 4.0 / 1440))
