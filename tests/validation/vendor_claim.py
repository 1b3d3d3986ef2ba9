"""The vendor claim "more than 85% faster" on P6-B200 (8 B200) than on P5en (8 H200),
modelled for a dense BF16 and an FP8 mixture-of-experts workload (docs/step-time.md).

``python -m tests.validation.vendor_claim`` prints the table of the docs.  The speed-up's
interval spans the constants fitted in every leave-one-source-out fold
(:mod:`tests.validation.step_loso`) and the open settings (micro-batch size,
recomputation); errors the two instances share cancel in a ratio, so this is narrower
than the ratio of the two steps' own intervals.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from goodput_lab.models import load_catalog, load_preset, resolve_inputs
from goodput_lab.models.compute import step_model

from tests.validation import step_loso

WORKLOADS = {
    "dense BF16: Llama 3 70B (llama3-70b preset, 128 nodes)": ("llama3-70b", {}),
    "FP8 MoE: GPT-OSS-120B (gpt-oss-120b preset, 8 nodes, precision fp8)": (
        "gpt-oss-120b",
        {"workload.precision": "fp8"},
    ),
}
PAIR = ("p5en.48xlarge", "p6-b200.48xlarge")
OPEN = ({}, {"workload.micro_batch_sequences": 2}, {"workload.recompute": "full"})
PARTS = (
    ("compute (GEMMs, attention, memory-bound kernels)", "compute_seconds_per_step"),
    ("recomputation", "recompute_seconds_per_step"),
    ("pipeline bubble", "bubble_seconds_per_step"),
    ("exposed TP/CP/expert all-to-all", "tp_comm_ms"),
    ("exposed pipeline sends", "pp_comm_ms"),
    ("exposed data-parallel reduction", "allreduce_exposed_ms"),
)


def _outputs(
    preset: str, sets: dict, instance: str, cal=None, extra=None, specs=None
) -> dict[str, Any]:
    s = load_preset(preset).replace({**sets, **(extra or {}), "cluster.instance": instance})
    x = dict(resolve_inputs(s, load_catalog()))
    x.update(specs or {})
    return {k: np.asarray(v, dtype=float) for k, v in step_model(x, calibration=cal).items()}


#: The H200's figures put back one group at a time into the B200 run: what each explains
H200_SPECS = {
    "peak and matmul efficiency": {
        "instance.bf16_dense_tflops": 989.0,
        "instance.fp8_dense_tflops": 1979.0,
        "instance.max_matmul_fraction": 0.80,
    },
    "HBM bandwidth": {"instance.hbm_TBps": 4.8},
    "NVLink bandwidth": {"instance.scaleup_GBps": 900.0},
}


def attribution(preset: str, sets: dict) -> list[tuple[str, float]]:
    """Share of the step saved on the B200 that each group of specs explains: the step
    with that group set back to the H200's, in turn (the rest as B200)."""
    h200 = float(_outputs(preset, sets, PAIR[0])["step_seconds"])
    b200 = float(_outputs(preset, sets, PAIR[1])["step_seconds"])
    out = []
    for name, specs in H200_SPECS.items():
        back = float(_outputs(preset, sets, PAIR[1], specs=specs)["step_seconds"])
        out.append((name, (back - b200) / (h200 - b200)))
    return out


def speedups() -> list[dict[str, Any]]:
    folds = [step_loso.fit(s) for s in step_loso.SOURCES]
    cal = {
        "calibration.gemm_efficiency": np.array([f[0] for f in folds]),
        "calibration.layer_pass_overhead_s": np.array([f[1] for f in folds]),
        "calibration.tp_overlap_efficiency": np.array([f[2] for f in folds]),
        "calibration.hbm_efficiency": np.array([f[3] for f in folds]),
    }
    rows = []
    for label, (preset, sets) in WORKLOADS.items():
        base, cand = (_outputs(preset, sets, i) for i in PAIR)
        point = float(base["step_seconds"] / cand["step_seconds"])
        spread = []
        for alt in OPEN:
            b = _outputs(preset, sets, PAIR[0], cal, alt)["step_seconds"]
            c = _outputs(preset, sets, PAIR[1], cal, alt)["step_seconds"]
            spread.extend(np.atleast_1d(b / c).tolist())
        spread = [x for x in spread if np.isfinite(x)]
        parts = []
        for name, key in PARTS:
            scale = 1e-3 if key.endswith("_ms") else 1.0
            parts.append((name, float(base[key]) * scale, float(cand[key]) * scale))
        rows.append(
            {
                "workload": label,
                "h200_step": float(base["step_seconds"]),
                "b200_step": float(cand["step_seconds"]),
                "speedup": point,
                "low": min(spread),
                "high": max(spread),
                "parts": parts,
                "h200_mfu": float(base["effective_mfu"]),
                "b200_mfu": float(cand["effective_mfu"]),
                "attribution": attribution(preset, sets),
            }
        )
    return rows


def markdown() -> str:
    lines = [
        "| workload | P5en (8 H200) step | P6-B200 (8 B200) step | modelled speed-up | "
        "range over folds and open settings |",
        "|---|---:|---:|---:|---|",
    ]
    rows = speedups()
    for r in rows:
        lines.append(
            f"| {r['workload']} | {r['h200_step']:.2f} s | {r['b200_step']:.2f} s | "
            f"{r['speedup']:.2f}× (+{100 * (r['speedup'] - 1):.0f}%) | "
            f"{r['low']:.2f}×-{r['high']:.2f}× |"
        )
    for r in rows:
        lines += ["", f"{r['workload']}, seconds per step:", ""]
        lines += ["| part of the step | P5en | P6-B200 | saved |", "|---|---:|---:|---:|"]
        for name, b, c in r["parts"]:
            lines.append(f"| {name} | {b:.3f} | {c:.3f} | {b - c:+.3f} |")
        lines += [
            "",
            "Each group of the H200's figures put back into the B200 run, in turn, gives "
            "back this share of the time saved: "
            + "; ".join(f"{name} {100 * share:.0f}%" for name, share in r["attribution"])
            + ".",
        ]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - prints the docs table
    print(markdown())
