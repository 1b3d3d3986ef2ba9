"""Our side of docs/step-time.md's "Compared with Calculon's method" table.

``python -m tests.validation.calculon_side_by_side`` prints the step times of the runs that
Calculon (github.com/calculon-ai/calculon, commit caa4b11) was run on there, with the
constants fitted on all sources: GPT-3 175B on 1,024 H100 (TP 8 × PP 8 × DP 16, batch
1,536, Megatron-LM 2022, materialised attention) with sequence parallelism + selective
recomputation and with full recomputation, and the 1T model on 3,072 A100 80GB (TP 8 ×
PP 64 × DP 6, batch 3,072, full recomputation; Narayanan et al. 2021 Table 1: 163
TFLOP/s per GPU, 102.7 s).
"""

from __future__ import annotations

from tests.validation.step_cases import megatron, model_outputs

#: (label, instance, nodes, workload)
RUNS = (
    (
        "GPT-3 175B, 1,024 H100, selective + SP",
        "dgx-h100",
        128,
        megatron(96, 12288, 96, 8, 8, 1536, 1, 1, "selective", "on"),
    ),
    (
        "GPT-3 175B, 1,024 H100, full recomputation",
        "dgx-h100",
        128,
        megatron(96, 12288, 96, 8, 8, 1536, 1, 1, "full", "off"),
    ),
    (
        "1T, 3,072 A100, full recomputation",
        "dgx-a100-80gb",
        384,
        megatron(128, 25600, 160, 8, 64, 3072, 1, 1, "full", "off", stack="megatron-lm-2021"),
    ),
)


def steps() -> dict[str, float]:
    """Modelled step time of each run [s]."""
    return {label: model_outputs(i, n, w)["step_seconds"] for label, i, n, w in RUNS}


if __name__ == "__main__":  # pragma: no cover - prints the docs figures
    for label, s in steps().items():
        print(f"{label}: {s:.2f} s")
