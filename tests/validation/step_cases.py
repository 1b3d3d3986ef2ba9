"""Published training measurements that the modelled step time is checked against.

One :class:`Case` per published figure: the source (paper and table), the run as our
scenario fields, the published value and how ours is read from the step model.  The tests
in ``test_step_time_published.py`` assert every case and the mean error;
``python -m tests.validation.step_cases`` prints the table of ``docs/step-time.md``.

Where a paper does not publish a setting the model needs, the assumption is in the case's
``assumptions`` and in the docs table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
from goodput_lab.models import Scenario, load_catalog, resolve_inputs
from goodput_lab.models.compute import step_model

#: every case within this relative error; their mean absolute error within MEAN_TOLERANCE
CASE_TOLERANCE = 0.15
MEAN_TOLERANCE = 0.10


@cache
def _catalog():
    return load_catalog()


def model_outputs(instance: str, nodes: int, workload: Mapping[str, Any]) -> dict[str, float]:
    """Step-model figures (modelled basis) for ``workload`` on ``nodes`` × ``instance``."""
    data = {
        "cluster": {"instance": instance, "nodes": nodes},
        # the step time does not depend on the price; reference systems have none
        "pricing": {"usd_per_instance_hour": 1.0},
        "workload": {"mfu_basis": "modelled", **workload},
    }
    x = resolve_inputs(Scenario.from_dict(data), _catalog())
    return {k: float(np.asarray(v)) for k, v in step_model(x).items()}


@dataclass(frozen=True)
class Case:
    """One published figure and the run that produced it."""

    table: str  # e.g. "Korthikanti et al. 2022, Table 5"
    label: str  # the row, e.g. "GPT-3 175B, full recomputation"
    metric: str  # what is compared, with its unit
    published: float
    ours: Callable[[], float]
    setup: str  # the run, in a few words
    assumptions: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)

    def error(self) -> float:
        """(ours − published) / published."""
        return self.ours() / self.published - 1.0


# ------------------------------------------------------------------ Megatron-LM on DGX A100
MEGATRON = {
    "mlp": "gelu",
    "vocab_size": 51200,
    "sequence_length": 2048,
    "flash_attention": "off",  # Megatron-LM 2021-22 materialised the attention scores
    "gradient_precision": "fp32",
    "zero_stage": 0,
    "comm_overlap_fraction": 0.0,
    "params_billion": None,
}


def megatron(layers, hidden, heads, tp, pp, batch, micro, virtual, recompute, sp):
    return {
        **MEGATRON,
        "layers": layers,
        "hidden_size": hidden,
        "attention_heads": heads,
        "tensor_parallel": tp,
        "pipeline_parallel": pp,
        "global_batch_sequences": batch,
        "micro_batch_sequences": micro,
        "pipeline_virtual_stages": virtual,
        "recompute": recompute,
        "sequence_parallel": sp,
    }


#: Korthikanti et al. 2022 (arXiv:2205.05198) Table 3 configurations and Table 5 iteration
#: times in seconds (full recomputation vs sequence parallelism + selective recomputation),
#: 8-512 A100 80GB (Selene).  Values as quoted in calculon-ai/calculon llm/validation.py.
KORTHIKANTI = (
    # name, layers, hidden, heads, tp, pp, batch, micro, virtual, full s, seq+sel s
    ("22B", 48, 6144, 64, 8, 1, 4, 4, 1, 1.42, 1.10),
    ("GPT-3 175B", 96, 12288, 96, 8, 8, 64, 1, 3, 18.13, 13.75),
    ("MT-NLG 530B", 105, 20480, 128, 8, 35, 280, 1, 3, 49.05, 37.83),
    ("1T", 128, 25600, 160, 8, 64, 512, 1, 1, 94.42, 71.49),
)
#: Korthikanti et al. 2022 Figure 1: activation memory per GPU [GiB] of the same runs,
#: without recomputation and with sequence parallelism + selective recomputation (values
#: as quoted in calculon-ai/calculon llm/validation.py).
KORTHIKANTI_FIG1_GIB = {
    "22B": (59.25, 9.5625),
    "GPT-3 175B": (66.84375, 12.3515625),
    "MT-NLG 530B": (114.0234375, 23.076171875),
    "1T": (131.25, 26.5625),
}

#: Narayanan et al. 2021 (SC'21, arXiv:2104.04473) Table 1: billions of parameters, heads,
#: hidden, layers, TP, PP, GPUs, batch, achieved teraFLOP/s per GPU (DGX A100 80GB, 8 × 200
#: Gb/s InfiniBand per node).
NARAYANAN = (
    (1.7, 24, 2304, 24, 1, 1, 32, 512, 137),
    (3.6, 32, 3072, 30, 2, 1, 64, 512, 138),
    (7.5, 32, 4096, 36, 4, 1, 128, 512, 142),
    (18.4, 48, 6144, 40, 8, 1, 256, 1024, 135),
    (39.1, 64, 8192, 48, 8, 2, 512, 1536, 138),
    (76.1, 80, 10240, 60, 8, 4, 1024, 1792, 140),
    (145.6, 96, 12288, 80, 8, 8, 1536, 2304, 148),
    (310.1, 128, 16384, 96, 8, 16, 1920, 2160, 155),
    (529.6, 128, 20480, 105, 8, 35, 2520, 2520, 163),
    (1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 163),
)


def narayanan_flops_per_step(batch, layers, hidden, seq=2048, vocab=51200):
    """Megatron's count of the FLOPs per iteration with full recomputation (their Eq. 3):
    96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)); their throughputs divide it by time and GPUs."""
    h, s = hidden, seq
    return 96.0 * batch * s * layers * h * h * (1.0 + s / (6.0 * h) + vocab / (16.0 * layers * h))


# ------------------------------------------------------------------ Llama 3 on H100
LLAMA3_405B = {
    "params_billion": 405.0,
    "layers": 126,
    "hidden_size": 16384,
    "attention_heads": 128,
    "kv_heads": 8,
    "ffn_hidden_size": 53248,
    "vocab_size": 128256,
    "mlp": "swiglu",
    "sequence_length": 8192,
    "tensor_parallel": 8,
    "pipeline_parallel": 16,
    "pipeline_virtual_stages": 8,
    "micro_batch_sequences": 1,
    "global_batch_sequences": 2048,
    "recompute": "full",
    "sequence_parallel": "on",
    "gradient_precision": "fp32",
    "zero_stage": 2,
    "balanced_stages": "on",  # one layer fewer on the first and last stage (§3.3.2)
}

# ------------------------------------------------------------------ GPT-3 175B, modern stack
GPT3_175B = {
    "params_billion": 175.0,
    "layers": 96,
    "hidden_size": 12288,
    "attention_heads": 96,
    "vocab_size": 50257,
    "mlp": "gelu",
    "sequence_length": 2048,
    "micro_batch_sequences": 1,
    "recompute": "selective",
    "sequence_parallel": "on",
    "zero_stage": 1,
}
MLPERF_GPT3 = {
    **GPT3_175B,
    "tensor_parallel": 4,
    "pipeline_parallel": 8,
    "pipeline_virtual_stages": 4,
    "global_batch_sequences": 2048,
}
MEGASCALE = {
    **GPT3_175B,
    "tensor_parallel": 8,
    "pipeline_parallel": 8,
    "pipeline_virtual_stages": 6,
    "global_batch_sequences": 6144,
    "gradient_precision": "fp32",
    "tp_comm_overlap_fraction": 1.0,
    "comm_overlap_fraction": 1.0,
}


def _cases() -> list[Case]:
    out: list[Case] = []
    for name, lay, h, a, t, p, batch, micro, v, full, seqsel in KORTHIKANTI:
        nodes = max(1, t * p // 8)
        for mode, pub, rec, sp in (
            ("full recomputation", full, "full", "off"),
            ("sequence parallel + selective", seqsel, "selective", "on"),
        ):
            w = megatron(lay, h, a, t, p, batch, micro, v, rec, sp)
            out.append(
                Case(
                    "Korthikanti et al. 2022, Table 5",
                    f"{name}, {mode}",
                    "iteration time (s)",
                    pub,
                    (lambda w=w, n=nodes: model_outputs("dgx-a100-80gb", n, w)["step_seconds"]),
                    f"{t * p} A100 80GB, TP {t} PP {p} v {v}, batch {batch}, micro-batch {micro}",
                    "",
                    ("a100", "time"),
                )
            )
    for params, a, h, lay, t, p, gpus, batch, tflops in NARAYANAN:
        micro = 1
        w = megatron(lay, h, a, t, p, batch, micro, 1, "full", "off")

        def per_gpu(w=w, gpus=gpus, batch=batch, lay=lay, h=h) -> float:
            step = model_outputs("dgx-a100-80gb", gpus // 8, w)["step_seconds"]
            return narayanan_flops_per_step(batch, lay, h) / (step * gpus) / 1e12

        out.append(
            Case(
                "Narayanan et al. 2021, Table 1",
                f"{params:g}B on {gpus:,} GPUs",
                "achieved TFLOP/s per GPU",
                float(tflops),
                per_gpu,
                f"TP {t} PP {p} DP {gpus // (t * p)}, batch {batch}, full recomputation",
                "micro-batch 1 and plain 1F1B (v = 1), not published; gradient all-reduce "
                "not overlapped (Megatron-LM 2021)",
                ("a100", "throughput"),
            )
        )
    for gpus, pub in ((8192, 0.43), (16384, 0.41)):
        out.append(
            Case(
                "Grattafiori et al. 2024 (Llama 3), Table 4",
                f"405B on {gpus:,} H100",
                "BF16 MFU",
                pub,
                (lambda g=gpus: model_outputs("dgx-h100", g // 8, LLAMA3_405B)["effective_mfu"]),
                f"TP 8 PP 16 DP {gpus // 128}, 2,048 sequences of 8,192 tokens, FSDP, "
                "stages balanced",
                "8 chunks per stage (one layer each) and full recomputation, not published "
                "(selective recomputation would not fit in 80 GB); tensor-parallel "
                "collectives not overlapped",
                ("h100", "mfu"),
            )
        )

    def mlperf_ratio() -> float:
        h100 = model_outputs("p5.48xlarge", 64, MLPERF_GPT3)["step_seconds"]
        b200 = model_outputs("p6-b200.48xlarge", 64, MLPERF_GPT3)["step_seconds"]
        return h100 / b200

    out.append(
        Case(
            "MLPerf Training v4.1 (NVIDIA)",
            "GPT-3 175B, B200 vs H100 per GPU",
            "speed-up per GPU (×)",
            2.0,
            mlperf_ratio,
            "512 GPUs on p5.48xlarge vs p6-b200.48xlarge, TP 4 PP 8 v 4, batch 2,048",
            "secondary source for the 2.0× (2.2× on Llama 2 70B LoRA); BF16 for both; our "
            "B200 figures are its datasheet, measured matmul and NVLink efficiencies, not "
            "this ratio",
            ("ratio",),
        )
    )
    out.append(
        Case(
            "Jiang et al. 2024 (MegaScale, NSDI'24), Table 2",
            "175B on 12,288 A100, MegaScale",
            "MFU",
            0.552,
            lambda: model_outputs("dgx-a100-80gb", 1536, MEGASCALE)["effective_mfu"],
            "TP 8 PP 8 DP 192, batch 6,144 (6.34 s per iteration), FlashAttention, "
            "tensor-, pipeline- and data-parallel communication overlapped",
            "6 chunks per stage; MegaScale's parallel transformer block and sliding-window "
            "attention are not modelled; only this row of Table 2 is in our sources",
            ("a100", "mfu"),
        )
    )
    return out


CASES: list[Case] = _cases()


def results() -> list[dict[str, Any]]:
    """Every case with our figure and the relative error (rows of the docs table)."""
    rows = []
    for c in CASES:
        ours = c.ours()
        rows.append(
            {
                "table": c.table,
                "case": c.label,
                "metric": c.metric,
                "published": c.published,
                "ours": ours,
                "error": ours / c.published - 1.0 if math.isfinite(ours) else math.nan,
                "setup": c.setup,
                "assumptions": c.assumptions,
            }
        )
    return rows


def _fmt(x: float) -> str:
    return f"{x:.3f}" if abs(x) < 10 else f"{x:.2f}" if abs(x) < 100 else f"{x:.1f}"


def markdown_table(rows: list[dict[str, Any]] | None = None) -> str:
    """The validation table of docs/step-time.md."""
    rows = results() if rows is None else rows
    lines = [
        "| # | source | case | metric | published | ours | error |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    for i, r in enumerate(rows, 1):
        lines.append(
            f"| {i} | {r['table']} | {r['case']} | {r['metric']} | {_fmt(r['published'])} "
            f"| {_fmt(r['ours'])} | {100 * r['error']:+.1f}% |"
        )
    errs = [abs(r["error"]) for r in rows]
    lines.append(f"| | | **mean absolute error** | | | | **{100 * sum(errs) / len(errs):.1f}%** |")
    lines.append(f"| | | **largest error** | | | | **{100 * max(errs):.1f}%** |")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - regenerates the docs table
    print(markdown_table())
