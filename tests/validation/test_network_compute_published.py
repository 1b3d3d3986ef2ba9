"""Network/compute model against published figures (one test per figure, source named)."""

from __future__ import annotations

import pytest
from goodput_lab.models import compute as cm
from goodput_lab.models import load_preset
from goodput_lab.models import network as net
from goodput_lab.models.instances import rank_instances


def test_mlperf_v41_b200_vs_h100_per_gpu(catalog):
    # MLPerf Training v4.1: B200 trained GPT-3 175B 2.0x faster per GPU than H100 (secondary
    # source, docs/references.md#mfu), while the peak BF16 ratio is 2250/989 = 2.28x.  Our modeled
    # per-accelerator useful-throughput ratio (MFU defaults, communication, failures) for a
    # GPT-3-sized run at a fixed accelerator count should land near 2.0x, below the peak ratio.
    # Not independent: the B200 MFU default is itself derived from this MLPerf ratio, so this
    # checks that communication and failure modelling keep the ratio where the data put it.
    # The independent check, the modelled step on both, is in test_step_time_published.py.
    s = load_preset("aws-16k-h100").replace(
        {
            "workload.params_billion": 175.0,
            "workload.tokens_trillion": 0.3,
            "workload.hidden_size": 12288,  # GPT-3 175B d_model (Brown et al. 2020, Table 2.1)
            "workload.sequence_length": 2048,
            "workload.global_batch_sequences": 2048,
            "workload.pipeline_parallel": 8,
            "workload.pipeline_virtual_stages": 4,
            "workload.mfu_basis": "end_to_end",  # the catalog MFU defaults
            "cluster.nodes": 64,
        }
    )
    rows = {r.instance: r.to_dict() for r in rank_instances(s, catalog).rows}
    b200 = rows["p6-b200.48xlarge"]
    assert b200["peak_ratio_vs_reference"] == pytest.approx(2.275, abs=0.001)
    assert b200["modeled_ratio_vs_reference"] == pytest.approx(2.0, rel=0.15)
    assert b200["modeled_ratio_vs_reference"] < b200["peak_ratio_vs_reference"]


def test_llama3_405b_training_compute():
    # Llama 3 paper (arXiv:2407.21783 §3.2.1): 3.8e25 FLOPs for 405B parameters, 15.6T tokens
    assert cm.train_flops(405.0, 15.6) == pytest.approx(3.8e25, rel=0.01)


def test_nccl_tests_busbw_equals_link_bandwidth_for_a_bandwidth_bound_ring():
    # nccl-tests doc/PERFORMANCE.md: busbw is defined so that it matches the hardware
    # bottleneck bandwidth regardless of rank count; a pure-bandwidth ring shows exactly that.
    for ranks in (2, 8, 64, 1024):
        t = net.ring_allreduce_seconds(8e9, ranks, 50.0)
        assert net.busbw_GBps("all_reduce", 8e9, t, ranks) == pytest.approx(50.0)


def test_llama3_405b_time_to_train_end_to_end_mfu(catalog):
    # Llama 3 (arXiv:2407.21783): 405B on 15.6T tokens, 16,384 H100 at 38-43% BF16 MFU, which
    # is end to end (PaLM App. B definition: communication and bubble included, and the model
    # FLOPs count attention: 6N + 12·L·s·h per token with N the 402.9B parameters that
    # multiply, the 2.1B of the input embedding being a lookup: 2.620e12 for 126 layers of
    # 16,384 at 8,192 tokens).  Productive time = 2.620e12 · 15.6e12 / (16,384 · 989e12 ·
    # 0.41) s = 71.21 days (hand-computed; Meta's 3.8e25 FLOPs is the 6ND part alone).
    from goodput_lab.models import evaluate

    per_token = 6 * (405e9 - 128256 * 16384) + 12 * 126 * 8192 * 16384
    productive_days = per_token * 15.6e12 / (16_384 * 989e12 * 0.41) / 86_400
    assert productive_days == pytest.approx(71.21, abs=0.01)
    s = load_preset("llama3-16k").replace({"workload.mfu_basis": "end_to_end"})
    ev = evaluate(s, catalog)  # mfu 0.41
    steps = 15.6e12 / (2048 * 8192)
    assert ev["step_seconds"] * steps / 86_400 == pytest.approx(productive_days, rel=1e-9)
    assert ev["time_to_train_days"] == pytest.approx(
        ev["step_seconds"] * steps / 86_400 / ev["goodput"], rel=1e-9
    )
    assert ev["goodput"] > 0.9  # "more than 90% effective training time"


def test_llama3_405b_modelled_time_to_train(catalog):
    # the default (modelled) basis on the same preset: MFU within 15% of Meta's 41%
    # (the validation table, docs/step-time.md), so time to train within 15% of the above
    from goodput_lab.models import evaluate

    ev = evaluate(load_preset("llama3-16k"), catalog)
    assert ev["effective_mfu"] == pytest.approx(0.41, rel=0.15)
    e2e = evaluate(load_preset("llama3-16k").replace({"workload.mfu_basis": "end_to_end"}))
    assert ev["time_to_train_days"] == pytest.approx(
        e2e["time_to_train_days"] * 0.41 / ev["effective_mfu"], rel=1e-9
    )
