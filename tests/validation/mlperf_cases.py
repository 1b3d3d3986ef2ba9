"""MLPerf Training submissions as step-time checks that are never fitted.

MLCommons publishes every submission's logs and code (github.com/mlcommons/
training_results_v3.1, _v4.1, _v5.0): the MLLOG of each run prints the time of every
training step (``tracked_stats``: ``train_step_timing``, ``train_step_timing in s`` or
``train_step_time``) and the submission's ``benchmarks/<benchmark>/implementations/*/
config_*.sh`` and ``conf/*.yaml`` state the whole layout. The published figure here is
the median of every step time logged over the submission's result files; the layout is
the configuration's, so nothing is left open.

None of these runs is in :data:`tests.validation.step_cases.CASES`: no constant of the
leave-one-source-out fit has seen them, and ``tests/validation/test_mlperf_published.py``
predicts them with the constants as they stand (docs/step-time.md#mlperf).

- ``mlperf31``: MLPerf Training v3.1, NVIDIA on Eos (DGX H100, 8 × 400 Gb/s NDR per node,
  NeMo 23.09), GPT-3 175B from 512 to 10,752 H100 (``NVIDIA/results/eos*_ngc23.09_nemo/
  gpt3``; configuration ``NVIDIA/benchmarks/gpt3/implementations/pytorch/
  config_DGXH100_*.sh`` with ``config_common.sh``, ``config_fp8.sh`` and ``conf/
  custom.yaml``): TP 4, PP 8, 12 chunks per stage (``INTERLEAVED_PIPELINE`` unset, the
  yaml's default of 12), micro-batch 1, sequence parallelism, Transformer Engine FP8
  (hybrid) with its tensor-parallel communication overlap, the distributed optimizer
  with bf16 gradient reduction overlapped (``grad_sync_dtype: bf16``), no dropout, no
  activation recomputation.
- ``mlperf41``: MLPerf Training v4.1 (NeMo 24.09), GPT-3 175B with the same model and
  settings at micro-batch 2: NVIDIA's preview of 64 B200 (``NVIDIA/results/
  b200_n8_preview_nemo``, ``config_DGXB200_8x8x1024x4x8_mbs2_cg.sh``: 6 chunks per stage;
  it also sources a ``config_common_blackwell.sh`` that the repository does not hold, and
  captures each layer in a CUDA graph), NVIDIA's 256 and 512 H100 on Eos
  (``config_DGXH100_32x8x256x4x8_mbs2.sh``, ``config_DGXH100_64x8x128x4x8_mbs2.sh``: 6
  chunks) and Oracle's 1,536 and 3,072 H100 (``Oracle/results/{1536,3072}xBM.GPU.H100.8``,
  4 chunks, the resolved configuration printed in each log; BM.GPU.H100.8 hosts with RoCE
  entered as DGX H100, the same GPUs, NVLink and 3,200 Gb/s per node). The B200 hosts are
  entered as p6-b200.48xlarge (8 B200, 3,200 Gb/s per node).
- ``mlperf50``: MLPerf Training v5.0, Llama 3.1 405B pre-training at 8,192 tokens (the
  benchmark that replaced GPT-3): NVIDIA's Eos (512 to 8,192 H100, NeMo 25.01,
  ``NVIDIA/benchmarks/llama31_405b/implementations/eos-dfw_n*_ngc25.01_nemo/
  config_DGXH100_*xtp8pp8cp2.sh``: TP 8, PP 8, 8 chunks per stage, CP 2) and GB200
  NVL72 systems, NVIDIA's Tyche (256 and 512 GPUs) and CoreWeave's Carina (512 to 2,496,
  ``IBM+CoreWeave+NVIDIA/...``; NeMo 25.04, ``config_GB200_*xtp4pp8cp2*.sh``: TP 4, PP
  8, 8 chunks, CP 2, whole-iteration CUDA graphs, which the tool cannot enter, and a
  ``config_common_blackwell.sh`` the repository does not hold). Every run: micro-batch 1,
  sequence parallelism, FP8 (delayed scaling) with FP8 weights, tensor-parallel overlap,
  the distributed optimizer with bf16 reduction and both overlaps, no recomputation, no
  dropout, the embedding and the loss each counted as a layer in the pipeline split (one
  layer fewer on the first and last stage), the Mixtral 8x22B tokenizer's 32,768-token
  vocabulary. GB200 nodes are entered as p6e-gb200.36xlarge (4 GPUs of one NVL72 domain)
  with the systems' stated 4 × 400 Gb/s NDR per node (1,600 Gb/s).
- ``mlperf51``: MLPerf Training v5.1 (NeMo 25.09), the FP8 runs on B200 and GB200 (the
  NVFP4 runs, which the tool cannot enter, are left out): Llama 3.1 405B on 256 and 448
  B200 (University of Florida, ``config_DGXB200_{32,56}x8x144xtp4pp8cp2_cg.sh``: TP 4, PP
  8, 8 chunks, CP 2, without tensor-parallel overlap) and Llama 3.1 8B at 8,192 tokens
  (32 layers of 4,096, 32 heads, 8 key/value heads, FFN 14,336, vocabulary 128,256) in one
  micro-batch per step on 8 to 256 B200 (University of Florida, Dell, Oracle, Verda: TP 1,
  CP 1 with micro-batch 2 on one or two nodes, CP 2 with micro-batch 1 beyond) and on 72
  and 512 GB200 (NVIDIA's Tyche: CP 2; TP 2 × CP 4 with sequence parallelism and
  tensor-parallel overlap). FP8 with current (per-tensor) scaling, the distributed
  optimizer with bf16 reduction and both overlaps, whole-iteration CUDA graphs, no
  recomputation, no dropout. The B200 hosts' networks are not all stated (Dell's system
  files leave it empty): they are entered as p6-b200.48xlarge, 3,200 Gb/s per node.
  Cisco's two Llama 3.1 8B runs on H100 (``Cisco/results/hpf_n8`` and ``hpf_n16``,
  ``Cisco/benchmarks/llama31_8b/implementations/nemo/config_DGXH100_8x8x1xtp1pp1cp1.sh``
  and ``config_DGXH100_16x8x1xtp2pp1cp1.sh`` with ``config_common.sh``): 64 and 128 H100
  at global batch 64 (one micro-batch of one sequence a step on each of the 64 data-
  parallel ranks), TP 1, and TP 2 with sequence parallelism and tensor-parallel overlap,
  FP8 with FP8 weights, the distributed optimizer with both overlaps, no CUDA graphs
  (``MCORE_CUDA_GRAPH=False``); 8 × 400 Gb/s ConnectX-7 per node on a Cisco Silicon One
  G200 Ethernet fabric (``Cisco/systems/hpf_n8.json``), entered as DGX H100.
"""

from __future__ import annotations

from tests.validation.step_cases import GPT3_175B, LLAMA3_SHAPES, Case, _one, nemo_dense

#: GPT-3 175B as MLPerf's NeMo implementation trains it (conf/custom.yaml: 96 layers of
#: 12,288, 96 heads, 4h MLP, 2,048 tokens, hidden and attention dropout 0.0; the
#: vocabulary of the benchmark's SentencePiece model is not in the configuration, GPT-3's
#: 50,257 is entered).
MLPERF_GPT3_NEMO = {
    **GPT3_175B,
    "vocab_size": 50257,
    "tensor_parallel": 4,
    "pipeline_parallel": 8,
    "pipeline_virtual_stages": 12,
    "micro_batch_sequences": 1,
    "precision": "fp8",
    "sequence_parallel": "on",
    "tp_comm_overlap_fraction": 1.0,
    "comm_overlap_fraction": 1.0,
    "dropout": "off",
    "recompute": "selective",  # flash attention and no checkpointing: nothing recomputed
    "zero_stage": 1,
    "gradient_precision": "bf16",
    "flash_attention": "on",
    "step_settings_stated": "on",
}

#: MLPerf Training v3.1, NVIDIA, GPT-3 175B on Eos: nodes of 8 H100, global batch
#: [sequences], median of the logged train_step_timing [s] over the result files, steps.
MLPERF31_H100 = (
    (64, 2048, 11.052, 864),
    (96, 3072, 11.075, 600),
    (512, 2048, 1.6088, 864),
    (768, 3072, 1.6153, 600),
    (1024, 4096, 1.6193, 474),
    (1280, 2560, 0.9256, 690),
    (1344, 2688, 0.9296, 660),
)


#: MLPerf Training v4.1, GPT-3 175B: system, nodes, global batch, chunks per stage,
#: median logged step [s], steps, submitter.
MLPERF41 = (
    ("p6-b200.48xlarge", 8, 2048, 6, 36.233, 864, "NVIDIA, B200 preview"),
    ("dgx-h100", 32, 2048, 6, 18.378, 876, "NVIDIA, Eos"),
    ("dgx-h100", 64, 2048, 6, 9.5004, 876, "NVIDIA, Eos"),
    ("dgx-h100", 192, 3072, 4, 5.1667, 616, "Oracle"),
    ("dgx-h100", 384, 3072, 4, 3.0643, 616, "Oracle"),
)


#: MLPerf Training v5.0, Llama 3.1 405B: system, nodes, global batch, TP, median logged
#: step [s], steps, system name.
MLPERF50 = (
    ("dgx-h100", 64, 1152, 8, 55.134, 738, "NVIDIA, Eos"),
    ("dgx-h100", 256, 1152, 8, 14.220, 779, "NVIDIA, Eos"),
    ("dgx-h100", 304, 1216, 8, 12.729, 819, "NVIDIA, Eos"),
    ("dgx-h100", 320, 1120, 8, 11.174, 774, "NVIDIA, Eos"),
    ("dgx-h100", 1024, 1536, 8, 5.1801, 651, "NVIDIA, Eos"),
    ("p6e-gb200.36xlarge", 64, 448, 4, 19.144, 1854, "NVIDIA, Tyche"),
    ("p6e-gb200.36xlarge", 128, 896, 4, 19.474, 936, "NVIDIA, Tyche"),
    ("p6e-gb200.36xlarge", 128, 896, 4, 19.315, 954, "CoreWeave, Carina"),
    ("p6e-gb200.36xlarge", 256, 768, 4, 8.4485, 1098, "CoreWeave, Carina"),
    ("p6e-gb200.36xlarge", 384, 1152, 4, 8.5046, 779, "CoreWeave, Carina"),
    ("p6e-gb200.36xlarge", 512, 1280, 4, 7.1644, 777, "CoreWeave, Carina"),
    ("p6e-gb200.36xlarge", 624, 1248, 4, 5.8268, 798, "CoreWeave, Carina"),
)


#: MLPerf Training v5.1, the FP8 runs on B200 and GB200 and Cisco's Llama 3.1 8B on H100:
#: system, nodes, model, global batch, micro-batch, TP, CP, median logged step [s],
#: steps, submitter.
MLPERF51 = (
    ("p6-b200.48xlarge", 32, "405B", 576, 1, 4, 2, 27.665, 1533, "University of Florida"),
    ("p6-b200.48xlarge", 56, "405B", 1008, 1, 4, 2, 27.958, 938, "University of Florida"),
    ("p6-b200.48xlarge", 1, "8B", 16, 2, 1, 1, 0.5444, 3250, "University of Florida"),
    ("p6-b200.48xlarge", 2, "8B", 32, 2, 1, 1, 0.5742, 2000, "University of Florida"),
    ("p6-b200.48xlarge", 2, "8B", 32, 2, 1, 1, 0.5817, 2000, "Dell XE9680L"),
    ("p6-b200.48xlarge", 2, "8B", 32, 2, 1, 1, 0.5756, 2000, "Dell XE9685L"),
    ("p6-b200.48xlarge", 4, "8B", 16, 1, 1, 2, 0.1883, 3601, "University of Florida"),
    ("p6-b200.48xlarge", 8, "8B", 32, 1, 1, 2, 0.1894, 1872, "University of Florida"),
    ("p6-b200.48xlarge", 8, "8B", 32, 1, 1, 2, 0.1903, 1898, "Oracle"),
    ("p6-b200.48xlarge", 8, "8B", 32, 1, 1, 2, 0.1911, 1950, "Verda"),
    ("p6-b200.48xlarge", 16, "8B", 64, 1, 1, 2, 0.1927, 1196, "University of Florida"),
    ("p6-b200.48xlarge", 32, "8B", 128, 1, 1, 2, 0.2211, 910, "University of Florida"),
    ("p6e-gb200.36xlarge", 18, "8B", 36, 1, 1, 2, 0.1711, 1714, "NVIDIA, Tyche"),
    ("p6e-gb200.36xlarge", 128, "8B", 64, 1, 2, 4, 0.0889, 1274, "NVIDIA, Tyche"),
    ("dgx-h100", 8, "8B", 64, 1, 1, 1, 0.7205, 35672, "Cisco"),
    ("dgx-h100", 16, "8B", 64, 1, 2, 1, 0.4850, 35319, "Cisco"),
)


def llama31_8b_mlperf(gbs: int, mbs: int, tp: int, cp: int, gb200: bool) -> dict:
    """The MLPerf v5.1 Llama 3.1 8B run as our fields (module docstring)."""
    w = nemo_dense(
        {**LLAMA3_SHAPES["8B"], "kv_heads": 8}, "swiglu", 128256, 8192, gbs, mbs, tp, 1, cp, 1
    )
    w.update({"dropout": "off", "step_settings_stated": "on"})
    if gb200:
        w["network.inter_node_gbps"] = 1600.0
    return w


def llama31_405b_mlperf(gbs: int, tp: int, gb200: bool) -> dict:
    """The MLPerf v5.0 Llama 3.1 405B run as our fields (module docstring)."""
    w = nemo_dense(
        {**LLAMA3_SHAPES["405B"], "kv_heads": 8}, "swiglu", 32768, 8192, gbs, 1, tp, 8, 2, 8
    )
    w.update({"dropout": "off", "balanced_stages": "on", "step_settings_stated": "on"})
    if gb200:
        w["network.inter_node_gbps"] = 1600.0
    return w


def _step_case(source, table, label, step, run, setup, unpublished, accel) -> Case:
    """One MLPerf run: its median logged step [s] against the modelled step of ``run``."""
    return Case(
        source,
        table,
        label,
        "step time (s)",
        step,
        (run,),
        _one("step_seconds"),
        "time",
        setup,
        unpublished,
        tags=(accel.lower(), "mlperf"),
    )


def mlperf_cases() -> list[Case]:
    """Every MLPerf run above as a :class:`~tests.validation.step_cases.Case` (never fitted)."""
    vocab = "the vocabulary's padded size (GPT-3's 50,257 entered)"
    out: list[Case] = []
    for nodes, gbs, step, steps in MLPERF31_H100:
        run = ("dgx-h100", nodes, {**MLPERF_GPT3_NEMO, "global_batch_sequences": gbs})
        setup = f"TP 4 PP 8 VP 12, DP {nodes * 8 // 32}, micro-batch 1, FP8, median of {steps} "
        out.append(
            _step_case(
                "mlperf31",
                "MLPerf Training v3.1 (NVIDIA, Eos), GPT-3 175B",
                f"{nodes * 8:,} H100, batch {gbs:,}",
                step,
                run,
                setup + "logged steps",
                vocab,
                "H100",
            )
        )
    for inst, nodes, gbs, vp, step, steps, who in MLPERF41:
        gpus = nodes * 8
        accel = "B200" if "b200" in inst else "H100"
        w = {
            **MLPERF_GPT3_NEMO,
            "global_batch_sequences": gbs,
            "micro_batch_sequences": 2,
            "pipeline_virtual_stages": vp,
        }
        out.append(
            _step_case(
                "mlperf41",
                "MLPerf Training v4.1, GPT-3 175B",
                f"{gpus:,} {accel}, batch {gbs:,} ({who})",
                step,
                (inst, nodes, w),
                f"TP 4 PP 8 VP {vp}, DP {gpus // 32}, micro-batch 2, FP8, median of {steps} "
                "logged steps",
                vocab
                + (
                    "; the B200 run's config_common_blackwell.sh is not published"
                    if accel == "B200"
                    else ""
                ),
                accel,
            )
        )
    for inst, nodes, gbs, tp, step, steps, who in MLPERF50:
        gb200 = "gb200" in inst
        gpus = nodes * (4 if gb200 else 8)
        accel = "GB200" if gb200 else "H100"
        out.append(
            _step_case(
                "mlperf50",
                "MLPerf Training v5.0, Llama 3.1 405B",
                f"{gpus:,} {accel}, batch {gbs:,} ({who})",
                step,
                (inst, nodes, llama31_405b_mlperf(gbs, tp, gb200)),
                f"TP {tp} PP 8 VP 8 CP 2, DP {gpus // (tp * 16)}, micro-batch 1, FP8, median "
                f"of {steps} logged steps",
                "whole-iteration CUDA graphs not enterable; config_common_blackwell.sh not "
                "published"
                if gb200
                else "nothing: the configuration states every input the tool takes",
                accel,
            )
        )
    for inst, nodes, model, gbs, mbs, tp, cp, step, steps, who in MLPERF51:
        gb200 = "gb200" in inst
        gpus = nodes * (4 if gb200 else 8)
        accel = "GB200" if gb200 else "H100" if inst == "dgx-h100" else "B200"
        if model == "405B":
            w = {**llama31_405b_mlperf(gbs, tp, gb200), "tp_comm_overlap_fraction": 0.0}
            layout = f"TP {tp} PP 8 VP 8 CP {cp} (no TP overlap)"
        else:
            w = llama31_8b_mlperf(gbs, mbs, tp, cp, gb200)
            layout = f"TP {tp} CP {cp}" + (" with TP overlap" if tp > 1 else "")
        out.append(
            _step_case(
                "mlperf51",
                f"MLPerf Training v5.1, Llama 3.1 {model}",
                f"{gpus:,} {accel}, batch {gbs:,} ({who})",
                step,
                (inst, nodes, w),
                f"{layout}, micro-batch {mbs}"
                + (", one micro-batch a step on each rank" if model == "8B" else "")
                + f", median of {steps} logged steps",
                (
                    "whole-iteration CUDA graphs not enterable"
                    if accel != "H100"
                    else "nothing: the configuration states every input the tool takes"
                )
                + ("; the hosts' network not stated" if who.startswith("Dell") else ""),
                accel,
            )
        )
    return out


def rows() -> list[dict]:
    """Each run's published and modelled step, error and 80% interval (the model's own,
    :func:`models.compute.step_interval` of a dense step of its micro-batches: every
    setting is stated)."""
    from goodput_lab.models.compute import step_interval

    from tests.validation.step_cases import model_outputs

    out = []
    for c in mlperf_cases():
        ours = c.ours()
        ((inst, nodes, wl),) = c.runs
        m = model_outputs(inst, nodes, wl)["micro_batches_per_step"]
        lo, hi = (float(x) for x in step_interval(ours, micro_batches=m))
        out.append(
            {
                "source": c.source,
                "table": c.table,
                "case": c.label,
                "published": c.published,
                "ours": ours,
                "error": ours / c.published - 1.0,
                "low": lo,
                "high": hi,
                "covered": lo <= c.published <= hi,
            }
        )
    return out


def markdown_table() -> str:
    """The table docs/step-time.md#mlperf carries (``tests/validation/
    test_mlperf_published.py`` checks that it is this one)."""
    lines = [
        "| submission | run | published step (s) | ours (s) | error | 80% interval (s) | inside |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for r in rows():
        lines.append(
            f"| {r['table']} | {r['case']} | {r['published']:.3f} | {r['ours']:.3f} | "
            f"{r['error']:+.1%} | {r['low']:.3f}-{r['high']:.3f} | "
            f"{'yes' if r['covered'] else 'no'} |"
        )
    return "\n".join(lines)
