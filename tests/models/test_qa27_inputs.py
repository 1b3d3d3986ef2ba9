"""QA 27 #1, #2, #3: inputs the hardware or the model cannot run are refused or marked, never
run at another rate or clipped in silence; every shipped preset evaluates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import Scenario, ValidationError, evaluate, load_catalog, load_preset
from goodput_lab.models.compute import infeasibility_reason, step_model
from goodput_lab.models.evaluate import resolve_inputs
from goodput_lab.models.instances import rank_instances
from goodput_lab.models.scenario import preset_paths
from goodput_lab.models.transformer import moe_params

FP8_ON_A100 = ["workload.precision=fp8", "cluster.instance=p4d.24xlarge", "cluster.nodes=64"]


# --- #1: FP8 on a type without an FP8 rate ---------------------------------------------


def test_fp8_on_a100_is_refused_naming_the_field_the_type_and_why():
    """It ran at the BF16 rate with FP8's memory savings: 19.88 s, 34.9 GB 'fits'."""
    s = load_preset("mixtral-8x22b").with_overrides(FP8_ON_A100)
    with pytest.raises(ValidationError) as exc:
        evaluate(s)
    assert exc.value.field == "workload.precision"
    msg = exc.value.message
    assert "\n" not in msg
    assert "p4d.24xlarge (A100 40GB)" in msg and "no dense FP8 rate" in msg
    assert "allowed on this type: bf16" in msg
    # the same layout in bf16 evaluates (its memory does not fit: no step, no refusal)
    assert evaluate(s.replace({"workload.precision": "bf16"}))["memory_fits"] == 0.0


def test_fp8_without_a_rate_gives_no_step_in_the_model_itself():
    """Every path that bypasses the refusal (the ranking, arrays) gets NaN, not BF16 speed."""
    s = load_preset("mixtral-8x22b").with_overrides(FP8_ON_A100)
    x = resolve_inputs(s, refuse_unrunnable=False)
    out = step_model(x)
    assert math.isnan(float(out["step_seconds"]))
    assert float(out["memory_fits"]) == 0.0
    assert infeasibility_reason(x).startswith("workload.precision = fp8 cannot run on ")
    # on H100, which has an FP8 rate, FP8 still runs and is faster than BF16
    h = load_preset("mixtral-8x22b").with_overrides(["workload.precision=fp8"])
    fp8 = evaluate(h)["step_seconds"]
    bf16 = evaluate(h.replace({"workload.precision": "bf16"}))["step_seconds"]
    assert math.isfinite(fp8) and 0 < fp8 < bf16
    assert infeasibility_reason(resolve_inputs(h)) == ""


def test_instances_marks_types_without_fp8_instead_of_ranking_them():
    """p4d.24xlarge was ranked at 199.4 days, $3,362,486, '~' too close to call."""
    s = load_preset("mixtral-8x22b").with_overrides(["workload.precision=fp8"])
    r = rank_instances(s, load_catalog())
    for name in ("p4d.24xlarge", "dgx-a100-80gb"):
        row = r.row(name)
        assert not row.feasible, name
        assert math.isnan(row.time_to_train_days) and math.isnan(row.cost_to_train_usd)
        assert row.reason.startswith("workload.precision = fp8 cannot run on "), row.reason
        assert row not in r.too_close_to_call
    assert r.cheapest is not None and r.cheapest.instance == "p5.48xlarge"
    assert r.row("p5.48xlarge").feasible and r.row("p6-b200.48xlarge").feasible


# --- #2: top-k beyond the experts --------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: load_preset("mixtral-8x22b").with_overrides(["workload.experts_per_token=9"]),
        lambda: load_preset("mixtral-8x22b").replace({"workload.experts_per_token": 64}),
        lambda: Scenario.from_toml(
            load_preset("mixtral-8x22b")
            .to_toml()
            .replace("experts_per_token = 2", "experts_per_token = 9")
        ),
    ],
)
def test_experts_per_token_beyond_experts_is_refused(make):
    with pytest.raises(ValidationError) as exc:
        make()
    assert exc.value.field == "workload.experts_per_token"
    assert "exceeds workload.experts = " in exc.value.message
    assert "(allowed: an integer in [1, " in exc.value.message


def test_experts_below_experts_per_token_names_the_edited_field():
    with pytest.raises(ValidationError) as exc:
        load_preset("mixtral-8x22b").with_overrides(["workload.experts=1"])
    assert exc.value.field == "workload.experts"
    assert exc.value.message == (
        "1 is fewer than the workload.experts_per_token = 2 each token is routed to "
        "(allowed: at least 2, or 0 for a dense model)"
    )


def test_top_k_is_never_clipped_in_the_model():
    """k = 9 and k = 64 of 8 experts gave Mixtral's k = 8 figures (861.7 GFLOP per token)."""
    args = (56, 6144, 48, 8, 16384, 32768, 1, 8)
    _, active8, _ = moe_params(*args, 8)
    _, active9, _ = moe_params(*args, 9)
    assert math.isfinite(float(active8)) and math.isnan(float(active9))
    # a dense model ignores k
    assert math.isfinite(float(moe_params(56, 6144, 48, 8, 16384, 32768, 1, 0, 9)[1]))
    x = dict(resolve_inputs(load_preset("mixtral-8x22b")))
    x["workload.experts_per_token"] = np.array([1.0, 2.0, 8.0, 9.0, 64.0])
    out = step_model(x)
    assert np.isfinite(out["step_seconds"][:2]).all() and np.isnan(out["step_seconds"][3:]).all()
    # 8 of 8 experts: 861.7 GFLOP per token, as the QA report read; 9 and 64 are no model
    assert out["model_flops_per_token"][2] / 1e9 == pytest.approx(861.7035, rel=1e-6)
    assert np.isnan(out["model_flops_per_token"][3:]).all()
    assert (out["memory_fits"][3:] == 0.0).all()
    x["workload.experts_per_token"] = 9.0
    assert infeasibility_reason(x) == (
        "workload.experts_per_token 9 exceeds workload.experts = 8 (allowed: an integer in [1, 8])"
    )


# --- #3: every shipped preset evaluates ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(preset_paths()))
def test_every_shipped_preset_evaluates_with_a_cost(name):
    ev = evaluate(load_preset(name))
    assert math.isfinite(ev["cost_to_train_usd"]) and ev["cost_to_train_usd"] > 0, name
    assert ev["cluster_usd_per_day"] > 0, name


def test_megatron_1t_states_its_stand_in_price_and_its_source():
    s = load_preset("megatron-1t")
    p4d = load_catalog()["p4d.24xlarge"]
    assert s["pricing.usd_per_instance_hour"] == p4d.usd_per_hour == 21.957642
    assert "p4d.24xlarge" in s["pricing.price_source"]
    assert s["pricing.price_as_of"] == p4d.price_as_of == "2025-06"
    ev = evaluate(s)
    assert ev["cluster_usd_per_day"] == pytest.approx(384 * 21.957642 * 24, rel=1e-9)
