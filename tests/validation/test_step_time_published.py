"""The modelled step time against published measurements.

Validation (held out): leave-one-source-out cross-validation
(:mod:`tests.validation.step_loso`): the constants are fitted without a source, which is
then predicted.  Consistency (in sample): the constants in :mod:`models.compute` are the
fit on all sources and the interval the held-out residuals; the per-table tests below use
those constants, so they check the model against figures it was calibrated on.
Cases, sources and unpublished settings: ``tests/validation/step_cases.py``; the tables
are in ``docs/step-time.md`` (checked below).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from goodput_lab.models import compute as cm
from goodput_lab.models.choices import SoftwareStack

from tests.conftest import ROOT
from tests.validation import step_loso
from tests.validation.step_cases import (
    CASE_TOLERANCE,
    CASES,
    KORTHIKANTI,
    KORTHIKANTI_FIG1_GIB,
    NEMO_2407_SHAPES,
    megatron,
    model_outputs,
    nemo_model_flops_per_sequence,
    results,
)

GIB = 2**30


# ------------------------------------------------------------------ validation (held out)
@pytest.mark.xfail(
    strict=True,
    reason="held out, the 162 dense cases are 8.8% off on average since NVIDIA's NeMo dense "
    "rows take the recomputation their configurations state (none, for most) instead of a "
    "span from selective to full recomputation (7.9% before; the early Blackwell releases, "
    "NeMo 25.02 and 25.04, are then 15-42% slower than modelled): reported in "
    "docs/step-time.md, not tuned away",
)
def test_loso_dense_mean_held_out_error_within_8_percent():
    # dense models, BF16 and FP8: 162 held-out cases from 24 sources (8.8%; 7.9% while the
    # NeMo rows' recomputation was an open span, 7.6% over 150 before NeMo 25.02 and 25.04
    # joined, 6.3% over 133 before NVIDIA's long-sequence page)
    assert step_loso.summary("dense")["mean"] <= 0.08


@pytest.mark.xfail(
    strict=True,
    reason="held out, all 248 cases are 13.1% off on average (7.6% over 57 until the NeMo "
    "25.11 MoE rows took the settings their recipes state and its Qwen3 rows and the 25.09, "
    "26.02, 26.02.01, 26.04, 26.04.01, 26.06, 26.06.01 and 26.08 releases' rows, the "
    "long-sequence page's and NeMo 25.02's and 25.04's were added; dense 8.8%, MoE 21.1%): "
    "reported in docs/step-time.md, not tuned away",
)
def test_loso_mean_held_out_error_within_8_percent_over_every_case():
    assert step_loso.summary("all")["mean"] <= 0.08


def test_loso_mean_held_out_error_over_every_case_as_reported():
    # the figures docs/step-time.md and the README quote: 13.1% over all 248 cases, dense
    # 8.8% over 162, MoE 21.2% over 86 (13.1%, 7.9% and 22.8% while NVIDIA's dense rows
    # left recomputation open; MoE 21.1% before GPT-OSS's and DeepSeek-V3's attention
    # weights were stated)
    assert step_loso.summary("all")["mean"] == pytest.approx(0.1309, abs=0.0005)
    assert step_loso.summary("dense")["mean"] == pytest.approx(0.0877, abs=0.0005)
    assert step_loso.summary("moe")["mean"] == pytest.approx(0.2124, abs=0.0005)
    assert (step_loso.summary("all")["n"], step_loso.summary("moe")["n"]) == (248, 86)


@pytest.mark.xfail(
    strict=True,
    reason="held out, 45 of 248 cases are beyond 20% (41 while NVIDIA's dense rows left "
    "recomputation open, 44 before DeepSeek-V3's attention weights were stated): Megatron-Core's 32B on 384 H100 -24.5%; torchtitan's eager 8B on "
    "128 H100 +22.2% and its longest context-parallel runs +24.6% (8B, 128k tokens, CP 4), "
    "+29.6% (8B, 256k, CP 8) and +30.6% (405B, 256k, CP 8); NVIDIA's long-sequence page, "
    "Llama 2 7B in FP8 on H100 (NeMo 24.03.01) from 32k to 1M tokens: +21.2% to +37.3%; "
    "NeMo 25.02 on B200: Llama 3 8B +26.6%, 70B +21.0%, Nemotron-4 15B +41.4%, Mixtral "
    "8x22B at 65,536 tokens +32.9% (+24.6% on GB200 in 25.04); 25.09: Llama 3.1 405B in "
    "MXFP8 on 128 GB200 +34.4%, DeepSeek-V3 on B200 +25.1%, Qwen3-30B-A3B on B200 -28.9%; "
    "of the later MoE rows, 25.11: GPT-OSS 120B +81.7% on B200 and +21.2% on GB200, "
    "DeepSeek-V3 FP8 on B200 +32.4%, Qwen3-30B-A3B +38.1% on B200 and +126.6% on H100, "
    "Qwen3-235B-A22B +41.0% on B200; 26.02: GPT-OSS 120B +59.7% on GB200, Qwen3-30B-A3B "
    "+32.5% on B200 and +86.5% on H100 (the same inputs 1.77 times as fast in 26.02.01), "
    "Qwen3-235B-A22B on H100 -20.1%; 26.02.01: GPT-OSS 120B +60.0% on GB200 and +46.1% on "
    "B200, Qwen3-235B-A22B on H100 +29.9%; 26.04: GPT-OSS 120B +80.9% and +47.5%, "
    "Qwen3-235B-A22B on H100 -22.6%; 26.04.01: GPT-OSS 120B +77.8% and +41.9%, "
    "DeepSeek-V3 FP8 on B200 -20.0%, Qwen3-235B-A22B on H100 -23.8%; 26.06: GPT-OSS 120B "
    "+67.5% on GB200, Qwen3-30B-A3B on GB200 -25.0%; 26.06.01: GPT-OSS 120B in MXFP8 +100.6% "
    "(the page's footnoted regression), Qwen3-30B-A3B -25.7%; 26.08: GPT-OSS 120B +28.1%, "
    "Qwen3-30B-A3B -23.8%: "
    "reported in docs/step-time.md, not tuned away",
)
def test_loso_no_held_out_case_beyond_20_percent():
    assert step_loso.summary("all")["max"] <= 0.20


def test_loso_nemo_long_sequence_page_held_out():
    """NVIDIA's long-sequence page, each table a held-out source: Llama 3 8B in FP8 on B200
    (NeMo 25.04.rc2) from 8k to 1M tokens holds (2.9% on average, every row within 5% and
    inside its interval; 6.2% before the refit of GEMM 0.94 and 240 us); Llama 2 7B in FP8
    on H100 (NeMo 24.03.01) holds at 4k and 8k (-7.3%, -2.1%) and is optimistic from 16k
    tokens on, +11.6% rising to +37.3% at 1M with context parallelism 32: the run's
    attention, nearly all of its work there, ran at about 0.7 of the rate the model takes
    for Megatron-Core's fused kernels on H100."""
    rows = {(r["source"], r["case"]): r for r in step_loso.held_out()}
    per = step_loso.summary("dense")["per_source"]
    assert per["nemolong2504"][2] == 8 and per["nemolong2403"][2] == 9
    assert per["nemolong2504"][0] == pytest.approx(0.0288, abs=0.0005)
    assert per["nemolong2504"][1] < 0.05
    assert per["nemolong2403"][0] == pytest.approx(0.2253, abs=0.0005)
    h100 = [rows[k]["error"] for k in rows if k[0] == "nemolong2403"]
    assert h100[0] == pytest.approx(-0.073, abs=0.0005)
    assert h100[1] == pytest.approx(-0.021, abs=0.0005)
    assert max(h100) == pytest.approx(0.373, abs=0.0005) == h100[-1]
    assert all(rows[k]["covered"] for k in rows if k[0] == "nemolong2504")


def test_loso_nemo2_pages_held_out_mixtral_nearer_than_the_fine_grained_moe_rows():
    """NeMo 25.02 (B200) and 25.04 (GB200), each a held-out source: dense 20.4% and 11.9%
    (14.2% and 9.1% while their recomputation was an open span: NeMo's configurations of
    the time recompute nothing, and early Blackwell software was slower than the model);
    Mixtral's four rows (8 experts, 2 per token) 16.3% on average, against 21.1% for the
    MoE rows as a whole; Mixtral 8x22B at 65,536 tokens over CP 8 is the optimistic one."""
    rows = {(r["source"], r["case"]): r["error"] for r in step_loso.held_out()}
    dense = step_loso.summary("dense")["per_source"]
    assert dense["nemo2502"][0] == pytest.approx(0.2036, abs=0.0005)
    assert dense["nemo2504"][0] == pytest.approx(0.1187, abs=0.0005)
    assert dense["nemo2504"][1] < 0.20
    mixtral = {(k[1].split()[0], k[0]): v for k, v in rows.items() if k[1].startswith("Mixtral")}
    assert mixtral["Mixtral-8x7B", "nemo2502"] == pytest.approx(0.0685, abs=0.0005)
    assert mixtral["Mixtral-8x7B", "nemo2504"] == pytest.approx(-0.0077, abs=0.0005)
    assert mixtral["Mixtral-8x22B", "nemo2502"] == pytest.approx(0.3289, abs=0.0005)
    assert mixtral["Mixtral-8x22B", "nemo2504"] == pytest.approx(0.2457, abs=0.0005)
    assert np.mean(np.abs(list(mixtral.values()))) < step_loso.summary("moe")["mean"] / 1.25


def test_nemo_flop_count_reads_the_long_sequence_h100_4k_row_as_the_24_07_page():
    # NeMo's count, attention without the causal half: 768 TFLOP/s per GPU of Llama 2 7B at
    # 4,096 tokens is 16,665 tokens/s per GPU, against 16,934 on the 24.07 page (1.6% apart);
    # with the causal half the same row would read 17,917 (5.8% apart)
    shape = NEMO_2407_SHAPES["LLAMA2-7B"]
    per_token = nemo_model_flops_per_sequence(shape, 32000, 4096) / 4096
    assert 768e12 / per_token == pytest.approx(16665, abs=1)
    causal = per_token - 6 * 4096 * 32 * 4096
    assert 768e12 / causal == pytest.approx(17917, abs=1)


def test_repeated_inputs_qwen3_30b_h100_pair_bounds_any_model_of_its_inputs_to_27_8_percent():
    # NeMo 26.02 and its patch container 26.02.01 list the same H100 Qwen3-30B-A3B
    # configuration (v0.3.0's: 16 GPUs, PP 2 x VP 12, EP 8, DeepEP, all-to-all overlapped)
    # at 5,113 and 9,058 tokens/s per GPU: one figure for both is at best
    # (9058 - 5113)/(9058 + 5113) = 27.8% off one of them, at their harmonic mean
    groups = step_loso.repeated_inputs()
    pair = next(
        g for g in groups if g["case"] == "Qwen3-30B FP8 on 16 H100" and 5113.0 in g["published"]
    )
    assert sorted(pair["published"]) == [5113.0, 9058.0]
    assert pair["floor"] == pytest.approx(3945 / 14171)
    assert pair["spread"] == pytest.approx(9058 / 5113)
    # the widest: Qwen3-30B-A3B on 8 B200 at micro-batch 1, 18,066 tokens/s per GPU in 25.09
    # (tokens dropped past a capacity factor of 1, every expert padded to it) and 9,691 in
    # 26.02 (dropless, force-balanced): the same inputs to the model, whose load is balanced
    # either way; (18066 - 9691)/(18066 + 9691) = 30.2%
    widest = groups[0]
    assert widest["case"] == "Qwen3-30B FP8 on 8 P6-B200"
    assert sorted(widest["published"]) == [9691.0, 18066.0]
    assert widest["floor"] == pytest.approx(8375 / 27757)
    # then GPT-OSS 120B in MXFP8 on 64 GB200, 18,304 tokens/s per GPU in the 26.06.01
    # patch container (footnoted there as a known regression, NVIDIA/cudnn-frontend issue
    # 256) and 28,672 in 26.08: (28672 - 18304)/(28672 + 18304) = 22.1%
    oss = groups[2]
    assert oss["case"] == "GPT-OSS 120B FP8 on 64 P6E-GB200"
    assert sorted(oss["published"]) == [18304.0, 28672.0]
    assert oss["floor"] == pytest.approx(10368 / 46976)
    # then Llama 3 8B in FP8 on 8 B200: 26,006 tokens/s per GPU in NeMo 25.02, 29,994 and
    # 30,624 in 25.09 and 25.11 (the software of a year: 1.18 times as fast)
    b200 = groups[3]
    assert sorted(b200["published"]) == [26006.0, 29994.0, 30624.0]
    assert b200["floor"] == pytest.approx(4618 / 56630)
    # every other repeat agrees within 8%: the releases reproduce their own figures
    assert all(g["floor"] < 0.08 for g in groups[4:])
    # 32 until NeMo 25.09's Llama 3 8B on 8 H100 (no recomputation, its configuration) and
    # 25.11's (5 layers recomputed in its configuration: open) stopped being the same inputs
    assert len(groups) == 31


def test_loso_deepspeed_stack_runs_within_15_percent_held_out():
    # MT-NLG 530B (three runs) predicted with the DeepSpeed stack's efficiency fitted on
    # BLOOM alone, and BLOOM with it fitted on MT-NLG alone: -13.1%, -13.0%, -14.5% and
    # -12.9% (-20.2% to -21.4% and +9.6% before the stack had an efficiency of its own)
    rows = [r for r in step_loso.held_out() if r["source"] in ("smith2022", "bloom2022")]
    assert len(rows) == 4
    assert max(abs(r["error"]) for r in rows) <= 0.15


def test_loso_moe_zoo_qwen3_exposed_ep32_row_with_deepep_within_15_percent():
    # the DeepEP row whose all-to-all crosses four nodes, exposed: +84.8% held out while
    # every routed copy crossed the network, +4.3% with one copy per destination node,
    # +13.2% since the refit of GEMM 0.94 and 240 us per layer-pass
    rows = [
        r
        for r in step_loso.held_out()
        if r["source"] == "moe_zoo2025" and "EP 32" in r["case"] and "overlapped" not in r["case"]
    ]
    assert len(rows) == 1
    assert abs(rows[0]["error"]) <= 0.15


def test_loso_moe_zoo_qwen3_rows_with_ep_inside_one_node_within_20_percent():
    # Megatron-MoE model zoo, Qwen3 readme, H100 table: the three rows with EP 8 folded into
    # one node (ETP 1; unrepresentable before workload.expert_tensor_parallel): +4.7%,
    # -19.5%, -14.7% held out
    rows = [
        r for r in step_loso.held_out() if r["source"] == "moe_zoo2025" and "EP 8 " in r["case"]
    ]
    assert len(rows) == 3
    assert max(abs(r["error"]) for r in rows) <= 0.20


def test_loso_moe_zoo_qwen3_rows_with_ep_across_nodes_within_15_percent():
    # EP 32 over four nodes with DeepEP: +4.3% exposed, -14.4% overlapped (-19.9% before
    # the hidden part was capped at the computation beside it; -24.4% before
    # DeepEP's 20 SMs were charged to the compute the overlapped all-to-all runs beside)
    rows = [
        r for r in step_loso.held_out() if r["source"] == "moe_zoo2025" and "EP 32" in r["case"]
    ]
    assert len(rows) == 2
    assert max(abs(r["error"]) for r in rows) <= 0.15


def _held_out_errors() -> dict[tuple[str, str], float]:
    """Every held-out case's relative error, by (source, case label)."""
    return {(r["source"], r["case"]): r["error"] for r in step_loso.held_out()}


def test_loso_nemo2604_b200_moe_rows_nearer_than_the_same_models_in_25_11():
    # the later release of NVIDIA's page, held out: on B200 the same models run at micro-
    # batch 4 (Qwen3-30B-A3B) or a larger batch (DeepSeek-V3, GPT-OSS 120B) and are 2.9x,
    # 1.3x and 1.6x faster than in 25.11, where the model was 38-84% optimistic; 26.04's
    # rows are -3.0% (Qwen3-30B), +11.9% (DeepSeek-V3) and +51.3% (GPT-OSS) held out
    errors = _held_out_errors()
    for case in ("Qwen3-30B FP8 on 8", "DeepSeek-V3 FP8 on 256", "GPT-OSS 120B BF16 on 64"):
        new = errors[("nemo2026", f"{case} P6-B200")]
        assert abs(new) < errors[("nemo2025", f"{case} P6-B200")] - 0.25
    assert abs(errors[("nemo2026", "Qwen3-30B FP8 on 8 P6-B200")]) <= 0.10


def test_loso_nemo_qwen3_235b_h100_rows_with_the_all_to_all_across_nodes_within_25_percent():
    # Qwen3-235B-A22B on 256 H100, TP 2 EP 32 (four nodes) with the plain all-to-all, in
    # both NeMo releases: -17.4% (25.11) and -22.0% (26.04) held out (-14.1% and -19.0%
    # before the host time per layer-pass was refit at 220 us); -30.2% and -33.3% while
    # every copy to another rank, the 7 in its own node too, was charged to the network
    errors = _held_out_errors()
    for source in ("nemo2025", "nemo2026"):
        assert abs(errors[(source, "Qwen3-235B FP8 on 256 H100")]) <= 0.25


def test_loso_nemo_deepseek_v3_rows_with_their_recipes_layout_and_mtp_module():
    # DeepSeek-V3 with the recipe's MTP module and pipeline layout (the last stage 3 layers
    # short): held out, on B200 (PP 16) +32.4% (25.11, was +55.6% entered as balanced
    # stages without the module) and +7.2% (26.04, was +29.7%); on GB200 (PP 4 x VP 4)
    # -1.4% (25.11 BF16, was +10.4%), -1.4% (26.04, was +12.8%) and -1.7% (26.06)
    rows = _held_out_errors()
    assert rows[("nemo2025", "DeepSeek-V3 FP8 on 256 P6-B200")] == pytest.approx(0.325, abs=0.01)
    assert rows[("nemo2026", "DeepSeek-V3 FP8 on 256 P6-B200")] == pytest.approx(0.072, abs=0.01)
    assert abs(rows[("nemo2025", "DeepSeek-V3 BF16 on 256 P6E-GB200")]) <= 0.07
    assert abs(rows[("nemo2026", "DeepSeek-V3 FP8 on 256 P6E-GB200")]) <= 0.07
    assert abs(rows[("nemo2606", "DeepSeek-V3 FP8 on 256 P6E-GB200")]) <= 0.07


def test_loso_pytorch_fsdp_sources_within_12_percent_on_average_held_out():
    # software_stack = "pytorch-fsdp", its kernel efficiency fitted on the other three of
    # the four sources each time: LLM Foundry's MPT table (January 2024, 12 rows) 8.2%,
    # torchtitan December 2024 (18 rows) 10.8%, torchtitan June 2025 (8 rows) 5.8%,
    # Trainy's torchtitan runs on H200 (June 2025, 2 rows) 5.5%.  Before the H200 runs (all
    # compiled, which the tool cannot enter) joined the fit: 6.0%, 9.8%, 7.0%.  LLM
    # Foundry's 8.4% (8.2% before NeMo 26.04.01 joined: its fold now fits 200 us).  Since
    # the runs without dropout keep no masks (workload.dropout), 7.9%, 11.3% (December
    # 2024's eager and long-context rows, 0.5 point worse), 6.0% and 6.1%.  Since the refit
    # of GEMM 0.94, 240 us and TP overlap 0.8: 8.7%, 10.9%, 5.8% and 6.4%.  Since the
    # last bucket is Megatron-Core's max(40M, 1M·n) with its own latency: LLM Foundry 7.9%.  With
    # Megatron-Core's profile they read 10-170% optimistic
    per = step_loso.summary("dense")["per_source"]
    for source, (mean, n) in {
        "llmfoundry2024": (0.0791, 12),
        "torchtitan2024": (0.1094, 18),
        "torchtitan2025": (0.0579, 8),
        "torchtitan2025h200": (0.0638, 2),
    }.items():
        assert per[source][2] == n
        assert per[source][0] == pytest.approx(mean, abs=0.0005)
        assert per[source][0] <= 0.12


def test_consistency_pytorch_profile_nearer_than_megatron_cores_on_every_pytorch_source():
    # at the all-source constants: LLM Foundry 7.1% against 31.5% entered as Megatron-Core,
    # torchtitan 2024 10.8% against 56.2%, torchtitan 2025 5.7% against 20.7%, the H200
    # runs 2.0% against 35.0%
    from tests.validation.pytorch_cases import profile_errors

    rows = profile_errors()
    for source in ("llmfoundry2024", "torchtitan2024", "torchtitan2025", "torchtitan2025h200"):
        own = np.mean([abs(r[2]) for r in rows if r[0] == source])
        core = np.mean([abs(r[3]) for r in rows if r[0] == source])
        assert own < 0.11 < core and own < core / 2


def test_loso_torchtitan2024_table5_interleaved_1f1b_gain_held_out():
    # Table 5: 405B on 512 H100, FSDP 8 TP 8 PP 8, 128 tokens/s per GPU interleaved against
    # 100 with plain 1F1B (1.28x); held out the model gives 124.5 and 95.7 (1.30x)
    errors = {r["case"]: r for r in step_loso.held_out() if r["source"] == "torchtitan2024"}
    plain = errors["Table 5: 405B on 512 GPUs, FSDP 8 TP 8 PP 8, 1F1B"]["ours"]
    inter = errors["Table 5: 405B on 512 GPUs, FSDP 8 TP 8 PP 8, interleaved 1F1B"]["ours"]
    assert inter / plain == pytest.approx(128 / 100, rel=0.05)


def test_loso_nemo2608_gb200_rows_held_out_as_reported():
    # NeMo 26.08's GB200 MoE rows (MXFP8, hybridep, all-to-all overlapped, whole-iteration
    # CUDA graphs), held out: DeepSeek-V3 -1.2%, Qwen3-235B-A22B -16.1%, Qwen3-30B-A3B -23.8%
    # (faster than modelled, as 26.06's -25.0%), GPT-OSS 120B, now in MXFP8, +28.1% (its BF16
    # row of 26.06: +67.5%; +27.0% and +66.4% before its attention weights were stated)
    errors = _held_out_errors()
    assert abs(errors[("nemo2608", "DeepSeek-V3 FP8 on 256 P6E-GB200")]) <= 0.05
    assert abs(errors[("nemo2608", "Qwen3-235B FP8 on 256 P6E-GB200")]) <= 0.17
    for case, want in (("Qwen3-30B FP8 on 8", -0.238), ("GPT-OSS 120B FP8 on 64", 0.281)):
        assert errors[("nemo2608", f"{case} P6E-GB200")] == pytest.approx(want, abs=0.005)


def test_loso_interval_covers_at_least_70_percent_of_held_out_cases():
    assert step_loso.summary("all")["coverage"] >= 0.70
    assert step_loso.summary("dense")["coverage"] >= 0.70
    assert step_loso.summary("moe")["coverage"] >= 0.70  # 29 of 37


def test_loso_every_source_is_held_out_once():
    rows = step_loso.held_out()
    assert len(rows) == len(CASES)
    assert {r["source"] for r in rows} == {c.source for c in CASES}


# ------------------------------------------------------------------ consistency (in sample)
def test_consistency_constants_are_the_fit_on_all_sources():
    gemm, over, tpe, hbm, stacks, *_ = step_loso.fit(None)
    fitted = np.flatnonzero(cm.STACK_EFFICIENCY_FITTED)
    assert tuple(fitted) == (3, 4) and cm.STACKS.shape[0] == 5
    assert stacks == pytest.approx(tuple(cm.STACK_KERNEL_EFFICIENCY[fitted]), abs=1e-9)
    assert pytest.approx(gemm, abs=1e-9) == cm.GEMM_EFFICIENCY
    assert pytest.approx(over, abs=1e-9) == cm.LAYER_PASS_OVERHEAD_S
    assert pytest.approx(tpe, abs=1e-9) == cm.TP_OVERLAP_EFFICIENCY
    assert pytest.approx(hbm, abs=1e-9) == cm.HBM_EFFICIENCY


def test_consistency_stack_efficiency_range_is_the_folds_values():
    folds = np.array([step_loso.fit(s).stack for s in step_loso.SOURCES])
    for j, code in enumerate(np.flatnonzero(cm.STACK_EFFICIENCY_FITTED)):
        got = (folds[:, j].min(), folds[:, j].max())
        assert got == pytest.approx(tuple(cm.STACK_KERNEL_EFFICIENCY_RANGE[code]))


def test_docs_software_stack_table_carries_the_fitted_efficiencies_and_their_fold_range():
    # the field help of workload.software_stack points here instead of copying the figures
    text = (ROOT / "docs" / "step-time.md").read_text()
    for code in np.flatnonzero(cm.STACK_EFFICIENCY_FITTED):
        name = list(SoftwareStack)[code].value
        row = next(line for line in text.splitlines() if line.startswith(f"| `{name}` |"))
        lo, hi = cm.STACK_KERNEL_EFFICIENCY_RANGE[code]
        assert f"| {cm.STACK_KERNEL_EFFICIENCY[code]:.2f} (fitted" in row, name
        assert f"{lo:.2f}-{hi:.2f} in the interval)" in row, name


def test_consistency_interval_is_the_held_out_residual_percentiles():
    lo, hi = step_loso.summary("dense_many")["interval_ratio"]
    assert pytest.approx((round(lo, 2), round(hi, 2)), abs=1e-9) == cm.STEP_INTERVAL_RATIO
    lo, hi = step_loso.summary("dense_few")["interval_ratio"]
    assert (
        pytest.approx((round(lo, 2), round(hi, 2)), abs=1e-9)
        == cm.FEW_MICROBATCH_STEP_INTERVAL_RATIO
    )
    lo, hi = step_loso.summary("moe")["interval_ratio"]
    assert pytest.approx((round(lo, 2), round(hi, 2)), abs=1e-9) == cm.MOE_STEP_INTERVAL_RATIO


def test_loso_dense_residuals_by_micro_batches_per_step():
    # docs/step-time.md#few-micro-batches: held out, the dense steps of one or two
    # micro-batches per data-parallel rank are slower than modelled (1.049, 1.077 at the
    # geometric mean), the others within about 1% (1.010, 1.011, 1.007)
    table = step_loso.by_micro_batches()
    assert sum(b["n"] for b in table) == step_loso.summary("dense")["n"] == 162
    rho = {b["bucket"]: b["rho_geomean"] for b in table}
    assert rho["1"] == pytest.approx(1.049, abs=0.002)
    assert rho["2"] == pytest.approx(1.077, abs=0.002)
    assert all(abs(rho[k] - 1.0) < 0.015 for k in ("3-4", "5-16", "17+"))
    few = [b for b in table if b["bucket"] in ("1", "2")]
    assert sum(b["n"] for b in few) == step_loso.summary("dense_few")["n"] == 52


def _cases(source: str):
    return [pytest.param(c, id=c.label) for c in CASES if c.source == source]


@pytest.mark.parametrize("case", _cases("korthikanti2022"))
def test_consistency_korthikanti2022_table5_iteration_time(case):
    assert case.ours() == pytest.approx(case.published, rel=CASE_TOLERANCE)


@pytest.mark.parametrize("case", _cases("narayanan2021"))
def test_consistency_narayanan2021_table1_throughput_per_gpu(case):
    assert case.ours() == pytest.approx(case.published, rel=CASE_TOLERANCE)


@pytest.mark.parametrize("case", _cases("llama3_2024"))
def test_consistency_llama3_table4_mfu_8k_16k_h100(case):
    assert case.ours() == pytest.approx(case.published, rel=CASE_TOLERANCE)


def test_consistency_llama3_table4_mfu_falls_from_8k_to_16k_gpus():
    # fixed 16M-token batch: twice the GPUs halve the micro-batches per pipeline, so the
    # bubble's share grows and MFU falls (Meta: 43% -> 41%)
    by = {c.label: c.ours() for c in CASES if c.source == "llama3_2024"}
    assert by["405B on 16,384 H100"] < by["405B on 8,192 H100"]


@pytest.mark.parametrize("case", _cases("mlperf_v41"))
def test_consistency_mlperf_v41_b200_vs_h100_per_gpu(case):
    ratio = case.ours()
    assert ratio == pytest.approx(case.published, rel=CASE_TOLERANCE)
    assert ratio < 2250 / 989  # below the peak BF16 ratio


def test_consistency_every_dense_case_within_tolerance_in_sample():
    # the largest: NeMo 25.02's Nemotron-4 15B on 64 B200, +39.4% (NVIDIA's long-sequence
    # run of Llama 2 7B on 1,024 H100 at 1M tokens, +44.1%, while the NeMo rows'
    # recomputation was an open span); in sample the dense mean is 8.3% (under 8% until
    # then: fitted on every source, it is no longer within the 8% asked of held-out cases)
    errs = [abs(r["error"]) for r, c in zip(results(), CASES, strict=True) if "moe" not in c.tags]
    assert max(errs) <= 0.40
    assert np.mean(errs) <= 0.085


@pytest.mark.parametrize(
    ("name", "layers", "hidden", "heads", "tp", "pp", "batch", "micro", "v"),
    [row[:9] for row in KORTHIKANTI],
)
def test_korthikanti2022_figure1_activation_memory(
    name, layers, hidden, heads, tp, pp, batch, micro, v
):
    # activation memory per GPU of the first pipeline stage (Korthikanti Table 2 formulas,
    # p micro-batches in flight, the interleaving factor) reproduces Figure 1
    none, seqsel = KORTHIKANTI_FIG1_GIB[name]
    nodes = max(1, tp * pp // 8)
    w = megatron(layers, hidden, heads, tp, pp, batch, micro, v, "none", "off")
    got = model_outputs("dgx-a100-80gb", nodes, w)["activation_memory_GB_per_accel"] * 1e9 / GIB
    assert got == pytest.approx(none, rel=0.005)
    w = megatron(layers, hidden, heads, tp, pp, batch, micro, v, "selective", "on")
    got = model_outputs("dgx-a100-80gb", nodes, w)["activation_memory_GB_per_accel"] * 1e9 / GIB
    assert got == pytest.approx(seqsel, rel=0.005)


def test_docs_loso_table_lists_every_held_out_case_with_current_figures():
    text = (ROOT / "docs" / "step-time.md").read_text()
    section = text.split("## Leave-one-source-out", 1)[1]
    for i, r in enumerate(step_loso.held_out(), 1):
        row = next(line for line in section.splitlines() if line.startswith(f"| {i} |"))
        assert r["case"] in row
        err = float(re.findall(r"([+-][0-9.]+)%", row)[-1])
        assert err == pytest.approx(100 * r["error"], abs=0.15), row


def test_step_cases_docstring_examples_hold():
    # the rule that reads each NeMo release's configuration for its recomputation
    # (mbridge_recompute_open) states its cases as examples
    import doctest

    from tests.validation import step_cases

    result = doctest.testmod(step_cases, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


def test_opt_175b_never_fitted_inside_its_interval():
    """Zhang et al. 2022 (OPT-175B) §2.4, "utilization of up to 147 TFLOP/s per GPU" on
    992 A100 80GB with FSDP and Megatron-LM tensor parallelism, predicted with the
    constants as fitted (OPT is in no fold: tests/validation/pytorch_cases.opt_case). Its
    micro-batch is not published (one of 8 sequences per FSDP rank, or two of 4) nor
    whether the figure counts the recomputed forward as Megatron does: the readings span
    -29.3% (4 sequences, model FLOPs) to +0.3% (8, Megatron's count); the point is their
    geometric mean, -15.8%, and the 80% interval around them (the dense interval, as a
    leave-one-source-out case's: 84-160 TFLOP/s, docs/step-time.md) holds the published
    figure."""
    from tests.validation.pytorch_cases import opt_case

    case = opt_case()
    point, lo, hi = (float(v) for v in case.span())
    assert (lo / case.published - 1, hi / case.published - 1) == (
        pytest.approx(-0.293, abs=0.005),
        pytest.approx(0.003, abs=0.005),
    )
    assert point / case.published - 1 == pytest.approx(-0.158, abs=0.005)
    q_lo, q_hi = cm.STEP_INTERVAL_RATIO
    assert lo / q_hi <= case.published <= hi / q_lo


def test_vendor_claim_tables_in_docs_are_the_models():
    """docs/step-time.md#the-vendors-claim quotes `python -m tests.validation.vendor_claim`
    as it is now (the speed-ups, their ranges over the folds and open settings, and which
    parts of the step explain them)."""
    from pathlib import Path

    from tests.validation import vendor_claim

    doc = (Path(__file__).resolve().parents[2] / "docs" / "step-time.md").read_text()
    assert vendor_claim.markdown().strip() in doc
