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
    s = load_preset("aws-16k-h100").replace(
        {
            "workload.params_billion": 175.0,
            "workload.tokens_trillion": 0.3,
            "workload.hidden_size": 12288,  # GPT-3 175B d_model (Brown et al. 2020, Table 2.1)
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
    # is end to end (PaLM App. B definition: communication and bubble included).  Productive
    # time = 3.8e25 / (16,384 · 989e12 · 0.41) s = 66.20 days (hand-computed).
    from goodput_lab.models import evaluate

    productive_days = 3.8e25 / (16_384 * 989e12 * 0.41) / 86_400
    assert productive_days == pytest.approx(66.20, abs=0.01)
    ev = evaluate(load_preset("llama3-16k"), catalog)  # mfu 0.41, basis end_to_end
    assert ev["step_seconds"] * 15.6e12 / 16e6 / 86_400 == pytest.approx(productive_days, rel=0.01)
    assert ev["time_to_train_days"] == pytest.approx(
        ev["step_seconds"] * 15.6e12 / 16e6 / 86_400 / ev["goodput"], rel=1e-9
    )
    assert ev["goodput"] > 0.9  # "more than 90% effective training time"
    assert ev["time_to_train_days"] == pytest.approx(productive_days / ev["goodput"], rel=0.01)
