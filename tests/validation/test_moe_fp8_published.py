"""Mixture of experts, FP8 and context parallelism against published runs (issue 27).

Validation: DeepSeek-V3's pre-training GPU-hours (never used to fit anything) through
``goodput evaluate`` with its MoE and FP8 fields (``data/scenarios/deepseek-v3.toml``),
and Llama 3's 131k-token row (context parallelism 16), held out in the
leave-one-source-out cross-validation (:mod:`tests.validation.step_loso`).
"""

from __future__ import annotations

import json

import pytest
from goodput_lab.models import load_catalog, load_preset, resolve_inputs
from goodput_lab.models.compute import step_model

from goodput_lab.cli.main import main
from tests.validation import step_loso

#: DeepSeek-V3 Technical Report (arXiv:2412.19437) Table 1: 2,664K H800 GPU-hours of
#: pre-training for 14.8T tokens on 2,048 H800.
DEEPSEEK_V3_GPU_HOURS = 2.664e6


def _evaluate_json(capsys, *args: str) -> dict:
    assert main(["evaluate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_deepseek_v3_pretraining_gpu_hours_within_20_percent(capsys):
    d = _evaluate_json(capsys, "deepseek-v3")
    gpu_hours = d["accelerators"] * d["time_to_train_hours"]
    assert d["accelerators"] == 2048
    assert gpu_hours == pytest.approx(DEEPSEEK_V3_GPU_HOURS, rel=0.20)
    # the 80% interval (the MoE one, from the held-out NeMo MoE rows) contains it
    lo = d["accelerators"] * d["time_to_train_days_low"] * 24
    hi = d["accelerators"] * d["time_to_train_days_high"] * 24
    assert lo <= DEEPSEEK_V3_GPU_HOURS <= hi


def test_deepseek_v3_preset_has_671b_total_and_37b_active_parameters():
    x = resolve_inputs(load_preset("deepseek-v3"), load_catalog())
    out = step_model(x)
    assert float(out["model_parameters_billion"]) == pytest.approx(671.0)
    # active (published: 37B): the model FLOPs per token are 6·(N_active − V·h) plus the
    # attention scores' 12·L·s·a·d (MLA: d = 160); the input embedding is a lookup
    flops = float(out["model_flops_per_token"])
    attn = 12 * 61 * 4096 * 128 * 160
    active = (flops - attn) / 6 / 1e9 + 129280 * 7168 / 1e9
    assert active == pytest.approx(37.0, abs=1.0)


def test_llama3_table4_131k_row_within_15_percent_held_out():
    row = next(r for r in step_loso.held_out() if "131k" in r["case"])
    assert abs(row["error"]) <= 0.15
    assert row["covered"]
