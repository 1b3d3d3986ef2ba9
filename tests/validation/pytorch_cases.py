"""Published runs of PyTorch-native FSDP trainers (``workload.software_stack =
"pytorch-fsdp"``) as validation cases of :mod:`tests.validation.step_cases`.

Four sources, each one leave-one-source-out group:

- ``llmfoundry2024``: MosaicML LLM Foundry's MPT benchmark table "H100 80GB BF16 (Large
  Scale, >= 128 GPUs)" (github.com/mosaicml/llm-foundry, scripts/train/benchmarking/
  README.md, added in commit 5e85bd62d of 2024-01-06 with the sweep that produced it,
  scripts/train/benchmarking/sweep.py): Composer's FSDP with bf16 reductions, prefetched
  gathers, one micro-batch per step (the table lists the mixed-precision mode as DEFAULT,
  fp32 parameters gathered, where the sweep passes PURE, bf16 gathers: the tool gathers in
  bf16, and the open 1,600 Gb/s reading of the interconnect takes the same time for the
  traffic as fp32 gathers at 3,200);
- ``torchtitan2024``: torchtitan's Llama 3.1 benchmarks of December 2024
  (github.com/pytorch/torchtitan, benchmarks/llama3_h100_202412_torchtitan.md, Tables
  1-6) on Meta's Grand Teton H100s (96 GB HBM2e, 500 W);
- ``torchtitan2025``: torchtitan's async-TP benchmark of June 2025
  (benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md) on the same hosts;
- ``torchtitan2025h200``: Trainy's torchtitan baseline on WhiteFiber's H200s of June 2025
  (benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md): Llama 3.1 8B on 4 and 8 hosts
  of 8 H200 on NVLink, 400 Gb/s ConnectX-7 RDMA per GPU, the only runs on H200 in the
  validation.

Rows left out, by rule: LLM Foundry's 13B and 30B rows of the same table ran MPT's
Triton attention kernel of 2022 (``--attn_impl triton`` in sweep.py), whose speed is
published only as a range (FlashAttention-2 is 1.3-2.5× faster, Dao 2023,
arXiv:2307.08691) and which the tool cannot enter; the table's other rows ran
FlashAttention-2 (``--attn_impl flash``).  The async-TP page's "float8 rowwise" rows use a
scaling the tool cannot enter and whose baseline the page itself calls a known
performance problem (torchtitan issue 1207).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.validation.step_cases import (
    GPT3_175B,
    LLAMA3_SHAPES,
    Case,
    _tokens_per_gpu,
    narayanan_flops_per_step,
)

# ------------------------------------------------------------------ LLM Foundry (MPT)
#: MPT shapes (scripts/train/yamls/pretrain/mpt-*.yaml at commit 5e85bd62d): d_model,
#: heads (head dimension 128), layers; GeLU MLP of 4·d, vocabulary 50,368, tied input and
#: output embeddings, no biases (the learned position embedding, at most 0.6% of the
#: parameters, is left out).
MPT_SHAPES = {
    "1b": (2048, 16, 24),
    "3b": (2560, 20, 32),
    "7b": (4096, 32, 32),
    "70b": (8192, 64, 80),
}
#: The table's FlashAttention-2 rows: model, GPUs, micro-batch (= sequences per GPU: one
#: micro-batch per step), global batch [sequences], sharding (ZeRO stage), activation
#: checkpointing, tokens/s per GPU.
LLMFOUNDRY_H100 = (
    ("70b", 512, 8, 4096, 3, True, 1007),
    ("70b", 256, 8, 2048, 3, True, 1035),
    ("70b", 128, 8, 1024, 3, True, 1058),
    ("7b", 512, 6, 3072, 3, False, 9670),
    ("7b", 256, 6, 1536, 3, False, 10119),
    ("7b", 128, 6, 768, 3, False, 10475),
    ("3b", 512, 8, 4096, 2, False, 21664),
    ("3b", 256, 8, 2048, 2, False, 22772),
    ("3b", 128, 8, 1024, 2, False, 23422),
    ("1b", 512, 12, 6144, 2, False, 39837),
    ("1b", 256, 12, 3072, 2, False, 42555),
    ("1b", 128, 12, 1536, 2, False, 44123),
)
#: the platform's H100 interconnect is not stated (its A100 table says 1,600 Gb/s per
#: node): 3,200 Gb/s entered (DGX H100), 1,600 read as well
LLMFOUNDRY_OPEN = ({"network.inter_node_gbps": 1600.0},)


def mpt(size: str, micro: int, gbs: int, zero: int, checkpointing: bool) -> dict[str, Any]:
    h, a, layers = MPT_SHAPES[size]
    return {
        "software_stack": "pytorch-fsdp",
        "params_billion": None,
        "layers": layers,
        "hidden_size": h,
        "attention_heads": a,
        "mlp": "gelu",
        "vocab_size": 50368,
        "tied_embeddings": "on",
        "sequence_length": 2048,
        "precision": "bf16",
        "tensor_parallel": 1,
        "pipeline_parallel": 1,
        "global_batch_sequences": gbs,
        "micro_batch_sequences": micro,
        "recompute": "full" if checkpointing else "none",
        "flash_attention": "on",
        "zero_stage": zero,
        "gradient_precision": "bf16",
        "comm_overlap_fraction": 1.0,
    }


# ------------------------------------------------------------------ torchtitan (Llama 3.1)
#: The Grand Teton H100's peak is not published (the page: between the H100 SXM's and the
#: H100 NVL's); the catalog enters the SXM's, the NVL's 835 (1,671 FP8) TFLOP/s is read too
GRAND_TETON_PEAK_OPEN = {"instance.bf16_dense_tflops": 835.0, "instance.fp8_dense_tflops": 1671.0}
TORCHTITAN_UNPUBLISHED = (
    "the GPUs' peak at 500 W (SXM's and NVL's both read); torch.compile, which the tool "
    "cannot enter (compiled and eager rows get the same figure)"
)
#: torchtitan's "selective" checkpointing is per operator (selective_ac_option = "op":
#: the outputs of attention and of every other matrix multiplication are kept, the rest
#: recomputed), between the tool's "selective" (every activation but the attention
#: scores kept, nothing recomputed) and "full": both read, a variant that does not fit in
#: memory dropped
OP_SAC_OPEN = {"recompute": "full"}
OP_SAC_NOTE = "; per-operator selective checkpointing (the tool's selective and full both read)"


def titan(
    size: str,
    gbs: int,
    micro: int,
    tp: int = 1,
    pp: int = 1,
    vp: int = 1,
    cp: int = 1,
    seq: int = 8192,
    recompute: str = "selective",
    precision: str = "bf16",
) -> dict[str, Any]:
    """A torchtitan Llama 3.1 run: FSDP2 (ZeRO-3, bf16 parameters, fp32 reductions: the
    defaults of torchtitan's mixed_precision_param/_reduce), sequence-parallel TP, SDPA's
    FlashAttention-2, 8,192 tokens (train_configs/llama3_*.toml)."""
    return {
        "software_stack": "pytorch-fsdp",
        "params_billion": None,
        **LLAMA3_SHAPES[size],
        "kv_heads": 8,
        "mlp": "swiglu",
        "vocab_size": 128256,
        "sequence_length": seq,
        "precision": precision,
        "tensor_parallel": tp,
        "pipeline_parallel": pp,
        "pipeline_virtual_stages": vp,
        "context_parallel": cp,
        "global_batch_sequences": gbs,
        "micro_batch_sequences": micro,
        "recompute": recompute,
        "sequence_parallel": "on" if tp > 1 else "off",
        "flash_attention": "on",
        "zero_stage": 3,
        "gradient_precision": "fp32",
        "comm_overlap_fraction": 1.0,
    }


#: December 2024 page: table, row, GPUs, workload, tokens/s per GPU.  Pipeline runs split
#: each data-parallel rank's batch into as many micro-batches as stages (torchtitan's
#: default, parallelisms/pipelining_utils.py at commit 9dec370), two stages per rank when
#: interleaved.
TORCHTITAN_2024 = (
    ("Table 1", "8B, FSDP", 8, titan("8B", 16, 2), 5762),
    ("Table 1", "8B, FSDP + torch.compile", 8, titan("8B", 16, 2), 6667),
    ("Table 1", "8B, FSDP + torch.compile + Float8", 8, titan("8B", 16, 2, precision="fp8"), 8532),
    ("Table 3", "8B on 128 GPUs, FSDP", 128, titan("8B", 256, 2), 5605),
    ("Table 3", "8B on 128 GPUs, FSDP + torch.compile", 128, titan("8B", 256, 2), 6514),
    (
        "Table 3",
        "8B on 128 GPUs, FSDP + torch.compile + Float8",
        128,
        titan("8B", 256, 2, precision="fp8"),
        8380,
    ),
    *(
        (
            "Table 2",
            f"8B, {seq // 1024}k tokens, FSDP {8 // cp} CP {cp}",
            8,
            titan("8B", 8 // cp, 1, cp=cp, seq=seq, recompute="full", precision="fp8"),
            pub,
        )
        for cp, seq, pub in (
            (1, 32768, 3890),
            (2, 65536, 2540),
            (4, 131072, 1071),
            (8, 262144, 548),
        )
    ),
    *(
        (
            "Table 4",
            f"70B on 256 GPUs, FSDP 32 TP 8{note}",
            256,
            titan("70B", 512, 16, tp=8, recompute="full", precision="fp8"),
            pub,
        )
        for note, pub in (("", 829), (" + async TP", 876))
    ),
    *(
        (
            "Table 5",
            f"405B on 512 GPUs, FSDP 8 TP 8 PP 8, {name}",
            512,
            titan("405B", 256, 4, tp=8, pp=8, vp=vp, recompute="full", precision="fp8"),
            pub,
        )
        for name, vp, pub in (("1F1B", 1, 100), ("interleaved 1F1B", 2, 128))
    ),
    *(
        (
            "Table 6",
            f"405B, {seq // 1024}k tokens, FSDP {8 // cp} CP {cp} TP 8 PP 8",
            512,
            titan(
                "405B", 64 // cp, 1, tp=8, pp=8, cp=cp, seq=seq, recompute="full", precision="fp8"
            ),
            pub,
        )
        for cp, seq, pub in ((1, 32768, 76), (2, 65536, 47), (4, 131072, 31), (8, 262144, 16))
    ),
)
#: June 2025 async-TP page: Llama 3 70B on 256 GPUs (FSDP 32, TP 8, full activation
#: checkpointing, 16 sequences per data-parallel rank) and 8B on 64 GPUs (FSDP 8, TP 8,
#: per-op selective checkpointing, 12 per rank), vanilla and async TP, BF16 and Float8
#: with tensorwise scaling.
TORCHTITAN_2025 = tuple(
    (
        f"{size} on {gpus} GPUs, {'BF16' if prec == 'bf16' else 'Float8 tensorwise'}, {tp_kind} TP",
        gpus,
        titan(
            size, 32 * per if size == "70B" else 8 * per, per, tp=8, recompute=rec, precision=prec
        ),
        pub,
    )
    for size, gpus, per, rec, rows in (
        ("70B", 256, 16, "full", (("bf16", 597.3, 652.4), ("fp8", 809.8, 942.4))),
        ("8B", 64, 12, "selective", (("bf16", 4378.0, 4809.4), ("fp8", 5078.1, 5570.1))),
    )
    for prec, vanilla, async_ in rows
    for tp_kind, pub in (("vanilla", vanilla), ("async", async_))
)


#: Trainy's H200 page (June 2025, torchtitan commit e7c0cae): train_configs/llama3_8b.toml
#: at that commit (FSDP over every GPU, 8,192 tokens, per-operator selective
#: checkpointing) with its command line's local batch of 2 sequences, torch.compile and
#: Float8 (tensorwise, the output layer left in BF16, float8 all-gathers): hosts, tokens/s
#: per GPU at the 100th iteration.
TRAINY_H200 = ((4, 10938), (8, 10753))
#: p5en.48xlarge is the catalog's host of 8 H200 (141 GB, 4.8 TB/s, NVLink 900 GB/s) with
#: 3,200 Gb/s of scale-out per host: the WhiteFiber hosts' GPUs, NVLink and 8 × 400 Gb/s
#: (their fabric is InfiniBand-class RDMA, the catalog's EFA; same line rate)
TRAINY_H200_INSTANCE = "p5en.48xlarge"


def _titan_case(
    source: str,
    table: str,
    label: str,
    pub: float,
    instance: str,
    gpus: int,
    w: dict[str, Any],
    setup: str,
    unpublished: str,
    after: str = "",
    peak_open: bool = True,
    tag: str = "h100",
) -> Case:
    """One torchtitan row (tokens/s per GPU of ``w`` on ``gpus`` of ``instance``): per-operator
    selective checkpointing adds its note (before ``after``) and the full-recomputation
    alternative; ``peak_open`` reads the Grand Teton H100's other peak too."""
    sac = w["recompute"] == "selective"
    return Case(
        source,
        table,
        label,
        "tokens/s per GPU",
        float(pub),
        ((instance, gpus // 8, w),),
        _tokens_per_gpu(w["global_batch_sequences"], w["sequence_length"], gpus),
        "rate",
        setup,
        unpublished + (OP_SAC_NOTE if sac else "") + after,
        open=((GRAND_TETON_PEAK_OPEN,) if peak_open else ()) + ((OP_SAC_OPEN,) if sac else ()),
        tags=(tag, "pytorch"),
    )


#: Zhang et al. 2022, "OPT: Open Pre-trained Transformer Language Models" (arXiv:2205.01068)
#: §2.4: OPT-175B on 992 A100 80GB "by utilizing Fully Sharded Data Parallel with
#: Megatron-LM Tensor Parallelism. We achieve utilization of up to 147 TFLOP/s per GPU",
#: Adam state in fp32 sharded across all hosts, weights in fp16; GPT-3 175B's shape
#: (Table 1: 96 layers, 96 heads, width 12,288, a batch of 2M tokens of 2,048), ReLU MLP of
#: 4h, the GPT-2 vocabulary padded to 50,272, dropout 0.1 (§2.2).  Ours: TP 8 within a node
#: (so 124 FSDP ranks), 8 sequences per rank (992 sequences, the "2M" tokens) in one
#: micro-batch, or two of 4 as the open alternative, full activation checkpointing
#: (metaseq's --checkpoint-activations), no fused attention kernel (2021).
OPT_175B = {
    **GPT3_175B,
    "software_stack": "pytorch-fsdp",
    "params_billion": None,
    "vocab_size": 50272,
    "tensor_parallel": 8,
    "sequence_parallel": "off",
    "pipeline_parallel": 1,
    "zero_stage": 3,
    "flash_attention": "off",
    "recompute": "full",
    "global_batch_sequences": 992,
    "micro_batch_sequences": 8,
    "gradient_precision": "fp32",
}


#: the run's 124 nodes of 8 A100
OPT_NODES = 124


def _opt_tflops(outs):
    """Megatron's count with recomputation (Narayanan et al. 2021 Eq. 3) per GPU and s."""
    w = OPT_175B
    flops = narayanan_flops_per_step(
        w["global_batch_sequences"],
        w["layers"],
        w["hidden_size"],
        w["sequence_length"],
        w["vocab_size"],
    )
    return flops / (outs[0]["step_seconds"] * OPT_NODES * 8) / 1e12


def _opt_tflops_model(outs):
    """The same without the recomputed forward: the model FLOPs (72 instead of 96)."""
    return 0.75 * _opt_tflops(outs)


def opt_case() -> Case:
    """OPT-175B's "up to 147 TFLOP/s per GPU" as a case that is never fitted: it is not in
    :data:`tests.validation.step_cases.CASES`, so no constant of the leave-one-source-out
    fit has seen it, and ``tests/validation/test_step_time_published.py`` predicts it with
    the constants as they are."""
    return Case(
        "opt2022",
        "Zhang et al. 2022 (OPT-175B), §2.4",
        "175B on 992 A100 80GB, FSDP + TP 8",
        "achieved TFLOP/s per GPU",
        147.0,
        (("dgx-a100-80gb", OPT_NODES, OPT_175B),),
        _opt_tflops,
        "rate",
        "992 A100 80GB, FSDP with Megatron-LM tensor parallelism, fp16 weights, fp32 Adam "
        "state sharded",
        "TP 8 within a node, one micro-batch of 8 sequences per FSDP rank (or two of 4), "
        "full activation checkpointing and no fused attention are ours; the figure is 'up "
        "to', and whether it counts the recomputed forward (Megatron's count) or not is not "
        "published: both read",
        open=({"micro_batch_sequences": 4},),
        alt_reads=(_opt_tflops_model,),
        tags=("a100", "pytorch"),
    )


def pytorch_cases() -> list[Case]:
    out: list[Case] = []
    for size, gpus, micro, gbs, zero, ckpt, pub in LLMFOUNDRY_H100:
        out.append(
            Case(
                "llmfoundry2024",
                "MosaicML LLM Foundry, MPT benchmarks, H100 80GB BF16 (large scale)",
                f"MPT-{size} on {gpus} H100, {'FULL_SHARD' if zero == 3 else 'SHARD_GRAD_OP'}",
                "tokens/s per GPU",
                float(pub),
                (("dgx-h100", gpus // 8, mpt(size, micro, gbs, zero, ckpt)),),
                _tokens_per_gpu(gbs, 2048, gpus),
                "rate",
                f"{gpus} H100, micro-batch {micro} of 2,048 tokens, global batch {gbs}, "
                f"ZeRO-{zero}, activation checkpointing {'on' if ckpt else 'off'}, "
                "FlashAttention-2",
                "the cluster's interconnect (3,200 and 1,600 Gb/s per node both read)",
                open=LLMFOUNDRY_OPEN,
                tags=("h100", "pytorch"),
            )
        )
    for table, label, gpus, w, pub in TORCHTITAN_2024:
        out.append(
            _titan_case(
                "torchtitan2024",
                "PyTorch torchtitan, Llama 3.1 on H100 (December 2024)",
                f"{table}: {label}",
                pub,
                "grand-teton-h100",
                gpus,
                w,
                f"{gpus} H100 (96 GB, 500 W), {w['global_batch_sequences']} sequences of "
                f"{w['sequence_length']:,} tokens, micro-batch {w['micro_batch_sequences']}, "
                f"{w['precision'].upper()}, {w['recompute']} activation checkpointing",
                TORCHTITAN_UNPUBLISHED,
            )
        )
    for label, gpus, w, pub in TORCHTITAN_2025:
        out.append(
            _titan_case(
                "torchtitan2025",
                "PyTorch torchtitan, async tensor parallelism on H100 (June 2025)",
                label,
                pub,
                "grand-teton-h100",
                gpus,
                w,
                f"{gpus} H100 (96 GB, 500 W), FSDP {gpus // 8} TP 8, torch.compile, "
                f"{w['global_batch_sequences']} sequences of 8,192 tokens",
                TORCHTITAN_UNPUBLISHED + "; async TP (not modelled: both rows read alike)",
            )
        )
    for hosts, pub in TRAINY_H200:
        gpus = 8 * hosts
        w = titan("8B", 2 * gpus, 2, precision="fp8")
        out.append(
            _titan_case(
                "torchtitan2025h200",
                "PyTorch torchtitan, Llama 3.1 8B on H200 (Trainy on WhiteFiber, June 2025)",
                f"8B on {gpus} H200, FSDP {gpus} + torch.compile + Float8",
                pub,
                TRAINY_H200_INSTANCE,
                gpus,
                w,
                f"{gpus} H200 (141 GB) on {hosts} hosts, 400 Gb/s RDMA per GPU, "
                f"{w['global_batch_sequences']} sequences of 8,192 tokens, micro-batch 2, "
                "FP8 with float8 all-gathers, per-operator selective checkpointing",
                "torch.compile, which the tool cannot enter",
                after="; the fabric taken as the catalog's p5en.48xlarge (same GPUs, NVLink "
                "and line rate per GPU)",
                peak_open=False,
                tag="h200",
            )
        )
    return out


def as_megatron_core(case: Case) -> Case:
    """The same case entered with Megatron-Core's profile (its kernels, its attention), to
    show what the PyTorch profile changes."""
    runs = tuple(
        (inst, nodes, {**wl, "software_stack": "megatron-core"}) for inst, nodes, wl in case.runs
    )
    return replace(case, runs=runs)


def profile_errors() -> list[tuple[str, str, float, float]]:
    """Every PyTorch case's error with the all-source constants, entered with its own
    profile and with Megatron-Core's: (source, case, error, error as Megatron-Core)."""
    return [(c.source, c.label, c.error(), as_megatron_core(c).error()) for c in pytorch_cases()]


if __name__ == "__main__":  # pragma: no cover - prints the comparison of docs/step-time.md
    import numpy as np

    rows = profile_errors()
    for source in dict.fromkeys(r[0] for r in rows):
        own = np.array([r[2] for r in rows if r[0] == source])
        core = np.array([r[3] for r in rows if r[0] == source])
        print(
            f"{source}: pytorch-fsdp mean |error| {100 * np.mean(np.abs(own)):.1f}% "
            f"({100 * own.min():+.1f}% to {100 * own.max():+.1f}%); as megatron-core "
            f"{100 * np.mean(np.abs(core)):.1f}% ({100 * core.min():+.1f}% to "
            f"{100 * core.max():+.1f}%)"
        )
