"""Published step times of runs the validation never used: an out-of-sample check.

Seventeen measured training runs from five public sources that neither the
leave-one-source-out validation (:mod:`tests.validation.step_cases`) nor any fitted
constant has seen, entered in December 2026 with every input the source publishes and the
tool's defaults for the rest (nothing tuned, no open alternatives: the product's own point
and 80% interval, as a user entering the run would get them).  ``python -m
tests.validation.out_of_sample`` prints the table of docs/step-time.md#out-of-sample.

Sources (each row names its own):

* **DGXC**: NVIDIA's DGX Cloud benchmarking recipes (github.com/NVIDIA/dgxc-benchmarking),
  the "Expected Performance" tables of ``nemo_megatron/README_175b.md``,
  ``llama3.1/README_405b.md``, ``llama3.1/README.md`` (the GB200 example),
  ``grok1/README_314b.md`` and ``nemotron/README_340b.md``; the layouts from the recipes'
  configurations, which state recomputation (none), overlap and interleaving, so these
  runs enter ``step_settings_stated = "on"``.  The 405B H100 rows use the GPT-2 tokenizer
  as a proxy (vocabulary 50,257) and 16 key/value heads, as their configuration says.
* **Nemotron-4 15B**: Parmar et al. 2024, arXiv:2402.16819, §2 and Table 2 (iteration time
  per data-parallel size): TP 8, no pipeline; recomputation, overlap and micro-batch not
  published.
* **Nemotron-4 340B**: NVIDIA 2024, arXiv:2406.11704, Table 2 (iteration times 10.3 s and
  8.0 s), read from two secondary transcriptions that agree with each other and with the
  MFU the table gives: TP 8 × PP 12 with interleaving; recomputation and overlap not
  published.
* **BloombergGPT**: Wu et al. 2023, arXiv:2303.17564, §3.4 ("each training step takes 32.5
  seconds"): 64 p4d.24xlarge, ZeRO-3 (SageMaker's sharded data parallelism), activation
  checkpointing, no tensor or pipeline parallelism.
* **FlashAttention**: the training README of github.com/Dao-AILab/flash-attention (GPT3-1.3B
  at 169k and GPT3-2.7B at 85k tokens/s on 8 A100 80GB, batch 512 × 2,048 tokens: the step
  is the batch's tokens over the rate).
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from tests.validation.step_cases import model_outputs


class Run(NamedTuple):
    """One published run: its source, what it is, the published step [s], how the step is
    read from the source, and the run as our fields."""

    source: str
    label: str
    published_s: float
    quote: str
    instance: str
    nodes: int
    workload: dict[str, Any]


_GPT3 = {
    "params_billion": None,
    "layers": 96,
    "hidden_size": 12288,
    "attention_heads": 96,
    "mlp": "gelu",
    "ffn_hidden_size": 49152,
    "vocab_size": 50257,
    "sequence_length": 2048,
    "micro_batch_sequences": 1,
    "tensor_parallel": 4,
    "sequence_parallel": "on",
    "pipeline_parallel": 8,
    "pipeline_virtual_stages": 12,
    "recompute": "none",
    "flash_attention": "on",
    "dropout": "on",
    "zero_stage": 1,
    "gradient_precision": "bf16",
    "tp_comm_overlap_fraction": 1.0,
    "comm_overlap_fraction": 1.0,
    "software_stack": "megatron-core",
    "step_settings_stated": "on",
}
_L405 = {
    "params_billion": None,
    "layers": 126,
    "hidden_size": 16384,
    "attention_heads": 128,
    "kv_heads": 16,
    "mlp": "swiglu",
    "ffn_hidden_size": 53248,
    "vocab_size": 50257,
    "sequence_length": 8192,
    "micro_batch_sequences": 1,
    "tensor_parallel": 8,
    "sequence_parallel": "on",
    "pipeline_parallel": 9,
    "pipeline_virtual_stages": 7,
    "context_parallel": 2,
    "recompute": "none",
    "flash_attention": "on",
    "dropout": "off",
    "zero_stage": 1,
    "tp_comm_overlap_fraction": 1.0,
    "comm_overlap_fraction": 1.0,
    "software_stack": "megatron-core",
    "step_settings_stated": "on",
}
_GROK = {
    "params_billion": None,
    "layers": 64,
    "hidden_size": 6144,
    "attention_heads": 48,
    "kv_heads": 8,
    "mlp": "swiglu",
    "ffn_hidden_size": 32768,
    "expert_ffn_hidden_size": 32768,
    "experts": 8,
    "experts_per_token": 2,
    "moe_layer_frequency": 1.0,
    "expert_parallel": 8,
    "moe_load_imbalance": 1.0,
    "moe_dispatcher": "alltoall",
    "vocab_size": 128256,
    "sequence_length": 8192,
    "micro_batch_sequences": 1,
    "tensor_parallel": 4,
    "sequence_parallel": "on",
    "pipeline_parallel": 8,
    "pipeline_virtual_stages": 8,
    "context_parallel": 2,
    "recompute": "none",
    "flash_attention": "on",
    "dropout": "off",
    "zero_stage": 1,
    "gradient_precision": "bf16",
    "tp_comm_overlap_fraction": 1.0,
    "comm_overlap_fraction": 1.0,
    "moe_comm_overlap_fraction": 0.0,
    "software_stack": "megatron-core",
    "step_settings_stated": "on",
}
_NEM15 = {
    "params_billion": None,
    "layers": 32,
    "hidden_size": 6144,
    "attention_heads": 48,
    "kv_heads": 8,
    "mlp": "gelu",
    "ffn_hidden_size": 24576,
    "vocab_size": 256000,
    "sequence_length": 4096,
    "tensor_parallel": 8,
    "pipeline_parallel": 1,
    "pipeline_virtual_stages": 1,
    "dropout": "off",
    "zero_stage": 1,
    "tied_embeddings": "off",
    "software_stack": "megatron-core",
}
_NEM340 = {
    **_NEM15,
    "layers": 96,
    "hidden_size": 18432,
    "attention_heads": 96,
    "ffn_hidden_size": 73728,
    "pipeline_parallel": 12,
}
del _NEM340["pipeline_virtual_stages"]  # "with interleaving": the default chunks
_NEM340_DGXC = {
    **_NEM340,
    "pipeline_parallel": 8,
    "pipeline_virtual_stages": 12,
    "micro_batch_sequences": 1,
    "sequence_parallel": "on",
    "recompute": "none",
    "flash_attention": "on",
    "gradient_precision": "bf16",
    "tp_comm_overlap_fraction": 1.0,
    "comm_overlap_fraction": 1.0,
    "step_settings_stated": "on",
}
_BLOOMBERG = {
    "params_billion": None,
    "layers": 70,
    "hidden_size": 7680,
    "attention_heads": 40,
    "mlp": "gelu",
    "vocab_size": 131072,
    "tied_embeddings": "on",
    "sequence_length": 2048,
    "global_batch_sequences": 2048,
    "tensor_parallel": 1,
    "pipeline_parallel": 1,
    "pipeline_virtual_stages": 1,
    "sequence_parallel": "off",
    "recompute": "full",
    "flash_attention": "off",
    "dropout": "off",
    "zero_stage": 3,
    "precision": "bf16",
    "software_stack": "pytorch-fsdp",
}
_FA = {
    "params_billion": None,
    "mlp": "gelu",
    "vocab_size": 50257,
    "tied_embeddings": "on",
    "sequence_length": 2048,
    "global_batch_sequences": 512,
    "tensor_parallel": 1,
    "pipeline_parallel": 1,
    "pipeline_virtual_stages": 1,
    "sequence_parallel": "off",
    "recompute": "none",
    "flash_attention": "on",
    "dropout": "on",
    "zero_stage": 1,
    "precision": "bf16",
    "software_stack": "pytorch-fsdp",
}
_DGXC = "DGXC"
_TABLE = "Expected Performance table: training step time"

RUNS: tuple[Run, ...] = (
    Run(_DGXC, "GPT-3 175B BF16, 128 H100, batch 256", 8.309, _TABLE, "dgx-h100", 16,
        {**_GPT3, "global_batch_sequences": 256, "precision": "bf16"}),
    Run(_DGXC, "GPT-3 175B FP8, 2,048 H100, batch 4,096", 5.96, _TABLE, "dgx-h100", 256,
        {**_GPT3, "global_batch_sequences": 4096, "precision": "fp8"}),
    Run(_DGXC, "Llama 3.1 405B BF16, 576 H100, batch 252", 17.20, _TABLE, "dgx-h100", 72,
        {**_L405, "global_batch_sequences": 252, "precision": "bf16"}),
    Run(_DGXC, "Llama 3.1 405B FP8, 2,304 H100, batch 1,008", 12.35, _TABLE, "dgx-h100", 288,
        {**_L405, "global_batch_sequences": 1008, "precision": "fp8"}),
    Run(_DGXC, "Llama 3.1 405B BF16, 128 GB200, batch 64", 9.347,
        "README example: training step time", "p6e-gb200.36xlarge", 32,
        {**_L405, "kv_heads": 8, "vocab_size": 128256, "tensor_parallel": 4,
         "pipeline_parallel": 8, "pipeline_virtual_stages": 8, "global_batch_sequences": 64,
         "precision": "bf16", "gradient_precision": "bf16"}),
    Run(_DGXC, "Grok-1 314B MoE BF16, 2,048 H100, batch 4,096", 21.09, _TABLE, "dgx-h100",
        256, {**_GROK, "global_batch_sequences": 4096, "precision": "bf16"}),
    Run(_DGXC, "Grok-1 314B MoE FP8, 2,048 H100, batch 4,096", 17.04, _TABLE, "dgx-h100",
        256, {**_GROK, "global_batch_sequences": 4096, "precision": "fp8"}),
    Run(_DGXC, "Nemotron-4 340B BF16, 128 H100, batch 32", 4.61, _TABLE, "dgx-h100", 16,
        {**_NEM340_DGXC, "global_batch_sequences": 32, "precision": "bf16"}),
    Run(_DGXC, "Nemotron-4 340B BF16, 2,048 H100, batch 512", 4.84, _TABLE, "dgx-h100", 256,
        {**_NEM340_DGXC, "global_batch_sequences": 512, "precision": "bf16"}),
    Run(_DGXC, "Nemotron-4 340B FP8, 2,048 H100, batch 512", 3.49, _TABLE, "dgx-h100", 256,
        {**_NEM340_DGXC, "global_batch_sequences": 512, "precision": "fp8"}),
    Run("Nemotron-4 15B", "768 H100, batch 384", 0.57, "Table 2: iteration time",
        "dgx-h100", 96, {**_NEM15, "global_batch_sequences": 384}),
    Run("Nemotron-4 15B", "2,304 H100, batch 1,152", 0.64, "Table 2: iteration time",
        "dgx-h100", 288, {**_NEM15, "global_batch_sequences": 1152}),
    Run("Nemotron-4 340B", "1,536 H100, batch 768", 10.3, "Table 2: iteration time",
        "dgx-h100", 192, {**_NEM340, "global_batch_sequences": 768}),
    Run("Nemotron-4 340B", "6,144 H100, batch 2,304", 8.0, "Table 2: iteration time",
        "dgx-h100", 768, {**_NEM340, "global_batch_sequences": 2304}),
    Run("BloombergGPT", "50.6B, 512 A100 40GB (64 p4d), batch 2,048", 32.5,
        "§3.4: each training step takes 32.5 seconds", "p4d.24xlarge", 64, _BLOOMBERG),
    Run("FlashAttention", "GPT3-1.3B, 8 A100 80GB, batch 1M tokens", 1048576 / 169000,
        "169k tokens/s: 1,048,576 tokens over the rate", "dgx-a100-80gb", 1,
        {**_FA, "layers": 24, "hidden_size": 2048, "attention_heads": 16,
         "micro_batch_sequences": 8}),
    Run("FlashAttention", "GPT3-2.7B (head dim 128), 8 A100 80GB, batch 1M tokens",
        1048576 / 85000, "85k tokens/s: 1,048,576 tokens over the rate", "dgx-a100-80gb", 1,
        {**_FA, "layers": 32, "hidden_size": 2560, "attention_heads": 20,
         "micro_batch_sequences": 4}),
)  # fmt: skip


@cache
def rows() -> tuple[dict[str, Any], ...]:
    """Each run's modelled step [s], its 80% interval [s], the error (modelled over
    published, minus one) and whether the interval holds the published step; a run that
    does not fit in memory has no step (``None``) and its memory need [GB]."""
    out = []
    for r in RUNS:
        o = model_outputs(r.instance, r.nodes, r.workload)
        step = o["step_seconds"]
        fits = step == step  # not NaN
        out.append(
            {
                "run": r,
                "step": step if fits else None,
                "low": o["step_seconds_low"] if fits else None,
                "high": o["step_seconds_high"] if fits else None,
                "error": step / r.published_s - 1.0 if fits else None,
                "covered": bool(
                    fits and o["step_seconds_low"] <= r.published_s <= o["step_seconds_high"]
                ),
                "need_GB": o["memory_per_accel_GB"],
                "usable_GB": o["memory_usable_per_accel_GB"],
                "stated": r.workload.get("step_settings_stated") == "on",
            }
        )
    return tuple(out)


def summary(which: str = "all") -> dict[str, Any]:
    """Mean |error|, mean signed error and coverage of the runs that give a step:
    ``which`` = ``all``, ``stated`` (settings stated) or ``open`` (settings assumed)."""
    rs = [x for x in rows() if x["step"] is not None]
    if which != "all":
        rs = [x for x in rs if x["stated"] == (which == "stated")]
    n = len(rs)
    return {
        "runs": n,
        "mean_abs": sum(abs(x["error"]) for x in rs) / n,
        "mean_signed": sum(x["error"] for x in rs) / n,
        "covered": sum(x["covered"] for x in rs),
    }


def _seconds(v: float, unit: bool = True) -> str:
    """3 decimals under 10 s, 2 from there on."""
    return f"{v:,.{3 if v < 10 else 2}f}" + (" s" if unit else "")


def markdown_table() -> str:
    """The table of docs/step-time.md#out-of-sample."""
    lines = [
        "| source | run | published | modelled | error | 80% interval | inside |",
        "|---|---|---:|---:|---:|---|:---:|",
    ]
    for x in rows():
        r = x["run"]
        pub = _seconds(r.published_s)
        if x["step"] is None:
            lines.append(
                f"| {r.source} | {r.label} | {pub} | does not fit: needs {x['need_GB']:,.1f} GB "
                f"of {x['usable_GB']:,.1f} GB | | | no |"
            )
            continue
        err = f"{x['error'] * 100:+.1f}%".replace("-", "−")
        lines.append(
            f"| {r.source} | {r.label} | {pub} | {_seconds(x['step'])} | {err} | "
            f"{_seconds(x['low'], unit=False)}-{_seconds(x['high'])} | "
            f"{'yes' if x['covered'] else 'no'} |"
        )
    return "\n".join(lines)


def summary_line() -> str:
    """The sentence under the table."""
    parts = []
    for which, name in (
        ("all", "all"),
        ("stated", "settings stated"),
        ("open", "settings assumed"),
    ):
        s = summary(which)
        parts.append(
            f"{name}: {s['runs']} runs, mean |error| {s['mean_abs'] * 100:.1f}%, signed "
            f"{s['mean_signed'] * 100:+.1f}%, {s['covered']} of {s['runs']} inside".replace(
                "-", "−"
            )
        )
    return "; ".join(parts)


if __name__ == "__main__":
    print(markdown_table())
    print()
    print(summary_line())
