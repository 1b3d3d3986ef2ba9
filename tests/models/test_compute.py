"""Compute model: 6ND, pipeline bubble, ZeRO memory, step time, time/cost to train."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import (
    ValidationError,
    evaluate,
    evaluate_arrays,
    load_preset,
    resolve_inputs,
)
from goodput_lab.models import compute as cm
from goodput_lab.models.catalog import parse_catalog
from hypothesis import given, settings
from hypothesis import strategies as st


def test_6nd_llama3_405b():
    # Llama 3 405B: 3.8e25 FLOPs for 405B params and 15.6T tokens (arXiv:2407.21783 §3.2.1)
    assert cm.train_flops(405.0, 15.6) == pytest.approx(3.8e25, rel=0.01)
    assert cm.train_flops(70.0, 15.0) == pytest.approx(6.3e24)


@pytest.mark.parametrize(
    ("p", "m", "expected"),
    [(1, 8, 0.0), (4, 8, 3 / 11), (8, 1, 7 / 8), (16, 16, 15 / 31), (2, 1000, 1 / 1001)],
)
def test_pipeline_bubble(p, m, expected):
    # (p-1)/(m+p-1), Narayanan et al. 2021
    assert cm.pipeline_bubble_fraction(p, m) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("stage", "gb"),
    # ZeRO paper (Rajbhandari et al. SC'20) Fig. 1: 7.5B params, Nd = 64, K = 12
    [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.88)],
)
def test_zero_memory_matches_paper_figure_1(stage, gb):
    assert cm.model_state_GB_per_accel(7.5, 1, 1, 64, stage) == pytest.approx(gb, abs=0.05)


def test_min_dp_to_fit_edges():
    # exactly at the limit fits: 16·8.75 GB / 35 GB = 4.0 -> d = 4
    assert cm.min_dp_to_fit(70.0, 8, 1, 3, 35.0) == 4.0
    assert cm.model_state_GB_per_accel(70.0, 8, 1, 4, 3) == pytest.approx(35.0)
    assert cm.min_dp_to_fit(70.0, 8, 1, 3, 34.999) == 5.0
    # stage 0: no sharding over DP, fits or not at all
    assert cm.min_dp_to_fit(70.0, 8, 1, 0, 140.0) == 1.0
    assert math.isinf(cm.min_dp_to_fit(70.0, 8, 1, 0, 139.9))
    # stage 1 with the replicated 4 B/param alone too big
    assert math.isinf(cm.min_dp_to_fit(70.0, 8, 1, 1, 35.0))
    assert cm.min_nodes_to_fit(70.0, 8, 1, 3, 60.0, 8) == 3.0
    assert cm.min_nodes_to_fit(405.0, 8, 1, 3, 60.0, 8) == 14.0  # 16·50.6/60 = 13.5 -> 14


def test_fit_reasons():
    assert "exceeds the scale-up domain (8" in cm.fit_reason(70, 10, 8, 80, 0.25, 16, 1, 3, 8, 900)
    assert "no scale-up" in cm.fit_reason(70, 10, 16, 32, 0.25, 8, 1, 3, 16, None)
    assert "needs more accelerators" in cm.fit_reason(70, 1, 8, 80, 0.25, 8, 2, 3, 8, 900)
    # 80 GiB is 85.9 GB, 64.4 GB of it usable at 25% reserved; ZeRO-3 spreads 16 bytes x
    # 405B = 6,480 GB of states: 6,480 / 64.4 = 100.6 GPUs -> 13 nodes of 8 (14 when the 80
    # was read as decimal GB)
    msg = cm.fit_reason(405, 4, 8, 80, 0.25, 8, 1, 3, 8, 900)
    assert "model states need 202.5 GB" in msg and "needs at least 13 nodes" in msg
    assert "64.4 GB usable (80 GiB HBM" in msg
    assert "any node count" in cm.fit_reason(405, 100, 8, 80, 0.25, 8, 1, 0, 8, 900)
    assert cm.fit_reason(405, 13, 8, 80, 0.25, 8, 1, 3, 8, 900) == ""
    assert "needs at least 13 nodes" in cm.fit_reason(405, 12, 8, 80, 0.25, 8, 1, 3, 8, 900)


BASE = {
    "params_billion": 70.0,
    "batch_million_tokens": 16.0,
    "nodes": 128,
    "accelerators_per_node": 8,
    "peak_tflops": 989.0,
    "mfu": 0.4,
    "hidden_size": 8192,
    "tensor_parallel": 8,
    "pipeline_parallel": 1,
    "micro_batches": 1,
    "zero_stage": 1,
    "overlap_fraction": 0.0,
    "scaleup_GBps_bidir": 900.0,
    "scaleup_domain_accels": 8,
    "node_network_gbps": 3200.0,
    "inter_node_efficiency": 1.0,
    "alpha_network_us": 0.0,
    "alpha_scaleup_us": 0.0,
}


def test_step_components_hand_computed():
    c = cm.step_components(**BASE)
    compute = 6 * 70e9 * 16e6 / (1024 * 989e12 * 0.4)
    assert c["compute_s"] == pytest.approx(compute)
    # DP: ring over 128 nodes (one DP rank per node with TP 8), 50 GB/s per GPU,
    # gradient shard 2 B × 70e9/8
    dp = 2 * (127 / 128) * (2 * 70e9 / 8) / 50e9
    assert c["dp_sync_s"] == pytest.approx(dp)
    assert c["dp_exposed_s"] == pytest.approx(dp)  # no overlap
    # TP: 4 all-reduces/layer of tokens×h×2 B; L = N/(12h²); ring over 8 at 450 GB/s
    layers = 70e9 / (12 * 8192**2)
    tp_bytes = 4 * layers * (16e6 / 128) * 8192 * 2
    assert c["tp_s"] == pytest.approx(2 * (7 / 8) * tp_bytes / 450e9)
    assert c["pp_s"] == 0.0 and c["bubble_s"] == 0.0
    assert c["step_s"] == pytest.approx(compute + dp + c["tp_s"])
    assert c["scaling_efficiency"] == pytest.approx(compute / c["step_s"])


def test_overlap_zero3_and_pipeline():
    ov = cm.step_components(**{**BASE, "overlap_fraction": 1.0})
    c = cm.step_components(**BASE)
    # full overlap hides the DP traffic up to the backward pass (2/3 of compute)
    assert ov["dp_exposed_s"] == pytest.approx(max(0.0, c["dp_sync_s"] - 2 / 3 * c["compute_s"]))
    z3 = cm.step_components(**{**BASE, "zero_stage": 3})
    assert z3["dp_sync_s"] == pytest.approx(1.5 * c["dp_sync_s"])  # ZeRO-3 volume 1.5×
    pp = cm.step_components(**{**BASE, "pipeline_parallel": 4, "micro_batches": 8})
    assert pp["bubble_s"] == pytest.approx(pp["compute_s"] * 3 / 8)
    assert pp["bubble_s"] / (pp["compute_s"] + pp["bubble_s"]) == pytest.approx(3 / 11)
    assert pp["pp_s"] > 0


@settings(max_examples=40, deadline=None)
@given(
    nodes=st.integers(2, 4000),
    more=st.integers(1, 4000),
    eta=st.floats(0.3, 1.0),
    factor=st.floats(1.01, 4.0),
)
def test_step_properties(nodes, more, eta, factor):
    kw = {**BASE, "nodes": nodes, "inter_node_efficiency": eta, "overlap_fraction": 0.5}
    a = cm.step_components(**kw)
    # more bandwidth never slower
    faster = cm.step_components(**{**kw, "inter_node_efficiency": min(1.0, eta * factor)})
    assert faster["step_s"] <= a["step_s"] * (1 + 1e-12)
    b = cm.step_components(**{**kw, "nodes": nodes + more})
    # scaling efficiency never improves as nodes grow (strong scaling, fixed batch)
    assert b["scaling_efficiency"] <= a["scaling_efficiency"] + 1e-12
    assert 0 < b["scaling_efficiency"] <= 1


E2E = {"workload.mfu_basis": "end_to_end"}
#: no pipeline, FSDP over 2,000 nodes, with two sequences per data-parallel rank
FSDP = {"workload.pipeline_parallel": 1, "workload.zero_stage": 3, **E2E}
FSDP["workload.global_batch_million_tokens"] = 32.0


def _e2e_step(ev, tokens=16e6, accelerators=16_000, mfu=0.40):
    """(6(N − Vh) + 12·L·s·h)·tokens / (n · peak · MFU), from the evaluation's own shape
    (the input embedding, V·h parameters, is a lookup: no FLOPs)."""
    per_token = 6 * (405e9 - 128256 * 16384) + 12 * ev["model_layers"] * 8192 * 16384
    assert ev["model_flops_per_token"] == pytest.approx(per_token)
    return per_token * tokens / (accelerators * 989e12 * mfu)


def test_evaluate_outputs_consistent(headline_baseline, catalog):
    # end-to-end MFU basis: the preset's TP 8 x PP 16 layout fits the fixed step; plain
    # ZeRO-3 over 2,000 nodes (no pipeline) is the layout whose communication outlasts it
    fits = evaluate(headline_baseline.replace(E2E), catalog)
    assert fits["mfu_gap_exceeded"] == 0.0
    assert 0 < fits["compute_share_of_step"] < 1
    ev = evaluate(headline_baseline.replace(FSDP), catalog)
    for key in (
        "allreduce_ms",
        "step_seconds",
        "scaling_efficiency",
        "time_to_train_days",
        "cost_to_train_usd",
    ):
        assert np.isfinite(ev[key]), key
    steps = 15.6e12 / 32e6
    days = steps * ev["step_seconds"] / 86_400 / ev["goodput"]
    assert ev["time_to_train_days"] == pytest.approx(days)
    assert ev["cost_to_train_usd"] == pytest.approx(days * 2000 * 98.32 * 24)
    parts = sum(
        ev[f"cost_to_train_{k}_usd"]
        for k in ("compute", "bubble", "communication", "goodput_loss", "spares")
    )
    assert parts == pytest.approx(ev["cost_to_train_usd"])
    assert ev["usd_per_1e18_useful_flops"] == pytest.approx(
        ev["cost_to_train_usd"] / (ev["training_flops"] / 1e18)
    )
    # end-to-end basis: the step is the model-FLOPs time at the MFU, comm not added
    assert ev["step_seconds"] == pytest.approx(_e2e_step(ev, tokens=32e6))
    assert ev["effective_mfu"] == pytest.approx(0.40)
    assert ev["cost_to_train_communication_usd"] == 0.0 and ev["cost_to_train_bubble_usd"] == 0.0
    # the network model splits the fixed step: compute + bubble + exposed comm = step
    split = ev["compute_share_of_step"] + ev["exposed_comm_fraction_of_step"]
    assert split + ev["bubble_fraction_of_step"] == pytest.approx(1.0)
    assert ev["mfu_gap_exceeded"] == 0.0
    # an MFU at the accelerator's max matmul fraction leaves no room for that communication
    tight = evaluate(headline_baseline.replace({**FSDP, "workload.mfu": 0.8}), catalog)
    assert tight["mfu_gap_exceeded"] == 1.0


def test_compute_only_reproduces_the_additive_step(headline_baseline, catalog):
    # hand case: compute_only = compute + bubble + exposed comm
    s = headline_baseline.replace({**FSDP, "workload.mfu_basis": "compute_only"})
    ev = evaluate(s, catalog)
    compute = _e2e_step(ev, tokens=32e6)
    assert ev["compute_seconds_per_step"] == pytest.approx(compute)
    step = compute + ev["bubble_seconds_per_step"]
    step += (ev["allreduce_exposed_ms"] + ev["tp_comm_ms"] + ev["pp_comm_ms"]) / 1e3
    assert ev["step_seconds"] == pytest.approx(step)
    assert ev["step_seconds"] > compute * 1.2  # ZeRO-3 over 2,000 nodes: comm is exposed
    assert ev["scaling_efficiency"] == pytest.approx(compute / step)
    assert ev["effective_mfu"] == pytest.approx(0.40 * ev["scaling_efficiency"])
    assert ev["cost_within_mfu_communication_usd"] == 0.0
    parts = sum(
        ev[f"cost_to_train_{k}_usd"]
        for k in ("compute", "bubble", "communication", "goodput_loss", "spares")
    )
    assert parts == pytest.approx(ev["cost_to_train_usd"])
    # the end-to-end view of the same scenario is faster by exactly the scaling efficiency
    e2e = evaluate(headline_baseline.replace(FSDP), catalog)
    assert e2e["scaling_efficiency"] == pytest.approx(ev["scaling_efficiency"])
    assert e2e["time_to_train_days"] == pytest.approx(
        ev["time_to_train_days"] * ev["scaling_efficiency"]
    )


def test_end_to_end_split_solves_the_fixed_step():
    # e2e: compute phase t_k + bubble + exposed comm = t_e; with PP and partial overlap
    kw = {**BASE, "pipeline_parallel": 2, "micro_batches": 8, "overlap_fraction": 0.5}
    e = cm.step_components(**kw, end_to_end=True, max_matmul_fraction=0.8)
    t_e = 6 * 70e9 * 16e6 / (1024 * 989e12 * 0.4)
    assert e["step_s"] == pytest.approx(t_e)
    total = e["compute_s"] + e["bubble_s"] + e["dp_exposed_s"] + e["tp_s"] + e["pp_s"]
    assert total == pytest.approx(t_e)
    assert e["bubble_s"] == pytest.approx(e["compute_s"] / 8)
    assert e["compute_phase_mfu"] == pytest.approx(0.4 * t_e / e["compute_s"])
    assert e["mfu_gap_exceeded"] == float(e["compute_phase_mfu"] > 0.8)
    # an MFU at the matmul bound leaves no room for any communication: flagged
    tight = cm.step_components(**{**kw, "mfu": 0.8}, end_to_end=True, max_matmul_fraction=0.8)
    assert tight["mfu_gap_exceeded"] == 1.0


def test_mfu_basis_is_validated(headline_baseline):
    with pytest.raises(ValidationError, match="workload.mfu_basis"):
        headline_baseline.replace({"workload.mfu_basis": "kernel"})


@settings(max_examples=30, deadline=None)
@given(eta=st.floats(0.3, 1.0), factor=st.floats(1.01, 4.0), nodes=st.integers(2, 4000))
def test_bandwidth_property_per_basis(eta, factor, nodes):
    kw = {**BASE, "nodes": nodes, "inter_node_efficiency": eta, "overlap_fraction": 0.5}
    hi = {**kw, "inter_node_efficiency": min(1.0, eta * factor)}
    # end_to_end: bandwidth never changes the step (hence time to train)
    a, b = cm.step_components(**kw, end_to_end=True), cm.step_components(**hi, end_to_end=True)
    assert b["step_s"] == a["step_s"]
    assert b["compute_share_of_step"] >= a["compute_share_of_step"] - 1e-12
    # compute_only: more bandwidth never slower
    a, b = cm.step_components(**kw), cm.step_components(**hi)
    assert b["step_s"] <= a["step_s"] * (1 + 1e-12)


def test_infeasible_configuration_gives_nan_not_numbers(headline_baseline, catalog):
    # no pipeline, no sharding: 405B/8 parameters x 18 bytes = 911 GB per GPU
    s = headline_baseline.replace({"workload.zero_stage": 0, "workload.pipeline_parallel": 1})
    ev = evaluate(s, catalog)
    assert ev["memory_fits"] == 0.0
    assert math.isnan(ev["time_to_train_days"]) and math.isnan(ev["step_seconds"])
    assert ev.to_json_dict()["cost_to_train_usd"] is None
    assert ev["goodput"] > 0.8  # reliability metrics are still reported


def test_grid_matches_pointwise(headline_baseline, catalog):
    inputs = resolve_inputs(headline_baseline, catalog)
    nodes = np.array([500, 1000, 2000])
    grid = evaluate_arrays({**inputs, "cluster.nodes": nodes})
    for i, n in enumerate(nodes):
        one = evaluate(headline_baseline.replace({"cluster.nodes": int(n)}), catalog)
        assert grid["time_to_train_days"][i] == pytest.approx(one["time_to_train_days"])
    assert np.all(np.diff(grid["time_to_train_days"]) < 0)


def test_catalog_mfu_defaults_bounded_and_sourced(catalog):
    for inst in catalog.values():
        assert inst.source_mfu
        if inst.max_matmul_fraction is not None:
            assert inst.mfu_default <= inst.max_matmul_fraction
    assert catalog["p5.48xlarge"].mfu_default == 0.43  # Llama 3 405B on 8,192 H100


def test_catalog_rejects_mfu_above_matmul_bound():
    from goodput_lab.models.catalog import DEFAULT_CATALOG

    lines = DEFAULT_CATALOG.read_text().splitlines()
    lines[2] = lines[2].replace(",0.80,0.43,", ",0.80,0.85,", 1)
    with pytest.raises(ValidationError, match="row 3, column mfu_default: 0.85 exceeds"):
        parse_catalog("\n".join(lines))


def test_llama3_preset_time_to_train_is_plausible(catalog):
    ev = evaluate(load_preset("llama3-16k"), catalog)
    assert 0.3 < ev["scaling_efficiency"] < 1.0  # informational (compute_only view)


def test_memory_fit_message_uses_the_chosen_gradient_precision():
    """Issue 26: the memory-fit message assumed 16 bytes per parameter while the reported
    model states use the chosen precision.  70B on TP 8, no ZeRO, one node: Ψ' = 8.75 B
    parameters per rank; fp32 gradients (Megatron-LM of 2021): 2 + 4 + 12 = 18 B/param =
    157.5 GB, not 16 × 8.75 = 140.0 GB; ZeRO-1 at d = 4: 2 + 4 + 12/4 = 9 B = 78.75 GB."""
    msg = cm.fit_reason(70.0, 1, 8, 80.0, 0.25, 8, 1, 0, 8, 900.0, gradient_bytes=4.0)
    assert "model states need 157.5 GB" in msg and "4-byte gradients" in msg
    assert "140.0 GB" in cm.fit_reason(70.0, 1, 8, 80.0, 0.25, 8, 1, 0, 8, 900.0)
    assert cm.model_state_GB_per_accel(70.0, 8, 1, 4, 1, gradient_bytes=4.0) == pytest.approx(78.75)
    # the fewest nodes: (2 + 4)·8.75 = 52.5 GB replicated, 12·8.75 = 105 GB sharded over d:
    # 52.5 + 105/d <= 60 -> d = 14 -> 14 × 8 GPUs = 14 nodes (bf16: 4·8.75 + 105/d -> d = 5)
    assert cm.min_nodes_to_fit(70.0, 8, 1, 1, 60.0, 8, gradient_bytes=4.0) == 14.0
    assert cm.min_nodes_to_fit(70.0, 8, 1, 1, 60.0, 8) == 5.0
