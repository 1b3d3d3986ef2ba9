"""Tornado and 2-D grids: equal to one-scenario-at-a-time evaluate(), monotone, clipped."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import FIELDS, evaluate, load_preset, resolve_inputs
from goodput_lab.models import sensitivity as sens
from hypothesis import given, settings
from hypothesis import strategies as st


def test_tornado_rows_equal_individual_evaluations(catalog):
    base = load_preset("aws-16k-h100")
    t = sens.tornado(resolve_inputs(base, catalog), 0.2)
    assert set(t["keys"]) == {
        k for k, f in FIELDS.items() if f.sensitivity and f.kind in ("int", "float")
    }
    for i, key in enumerate(t["keys"]):
        for side in ("low", "high"):
            value = t[f"{side}_value"][i]
            if FIELDS[key].kind == "int":
                value = round(value)
            ev = evaluate(base.replace({key: value}), catalog)
            assert t[side]["goodput"][i] == pytest.approx(ev["goodput"], rel=1e-12), key
            assert t[side]["lost_usd_per_day"][i] == pytest.approx(
                ev["lost_usd_per_day"], rel=1e-12
            ), key


def test_tornado_headline_values():
    t = sens.tornado(resolve_inputs(load_preset("aws-16k-h100")), 0.5, keys=["cluster.nodes"])
    # half the nodes = half the failures/day = the 'improved' preset's goodput (0.9337)
    assert t["low"]["goodput"][0] == pytest.approx(0.9337, abs=5e-5)
    assert t["high"]["goodput"][0] == pytest.approx(0.8546, abs=5e-5)
    assert t["base"]["goodput"] == pytest.approx(0.8934, abs=5e-5)


def test_tornado_clips_to_the_validation_range_and_says_so():
    inputs = resolve_inputs(load_preset("aws-16k-h100").replace({"workload.mfu": 0.9}))
    t = sens.tornado(inputs, 0.2, keys=["workload.mfu", "checkpoint.save_seconds"])
    assert t["high_value"][0] == 1.0 and t["high_clipped"][0]
    assert t["low_value"][0] == pytest.approx(0.72) and not t["low_clipped"][0]
    assert not t["high_clipped"][1]


def test_tornado_around_optimal_interval_never_beats_the_optimum():
    # llama3-16k uses the exact optimal interval: moving it either way lowers goodput
    t = sens.tornado(
        resolve_inputs(load_preset("llama3-16k")), 0.3, keys=["checkpoint.interval_minutes"]
    )
    assert t["base_value"][0] == pytest.approx(
        evaluate(load_preset("llama3-16k"))["optimal_checkpoint_interval_minutes"]
    )
    assert t["low"]["goodput"][0] < t["base"]["goodput"]
    assert t["high"]["goodput"][0] < t["base"]["goodput"]


def test_tornado_rejects_nonpositive_fraction():
    with pytest.raises(ValueError, match="fraction"):
        sens.tornado(resolve_inputs(load_preset("aws-16k-h100")), 0.0)


@settings(max_examples=30, deadline=None)
@given(
    rate=st.floats(1e-5, 0.02),
    frac=st.floats(0.01, 0.9),
    save_s=st.floats(1.0, 600.0),
)
def test_tornado_failure_rate_is_monotone(rate, frac, save_s):
    inputs = resolve_inputs(
        load_preset("aws-16k-h100").replace(
            {"reliability.node_failure_rate_per_day": rate, "checkpoint.save_seconds": save_s}
        )
    )
    t = sens.tornado(inputs, frac, keys=["reliability.node_failure_rate_per_day"])
    assert t["low"]["goodput"][0] >= t["base"]["goodput"] >= t["high"]["goodput"][0]
    assert t["low"]["lost_usd_per_day"][0] <= t["high"]["lost_usd_per_day"][0]


def test_grid_matches_pointwise_and_doctest(catalog):
    base = load_preset("aws-16k-h100")
    xs = [20.0, 40.0]
    ys = [0.001, 0.002]
    g = sens.grid(
        resolve_inputs(base, catalog),
        "checkpoint.interval_minutes",
        xs,
        "reliability.node_failure_rate_per_day",
        ys,
    )
    assert g["goodput"].shape == (2, 2)
    np.testing.assert_allclose(g["goodput"], [[0.9243, 0.9337], [0.8970, 0.8934]], atol=5e-5)
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            ev = evaluate(
                base.replace(
                    {"checkpoint.interval_minutes": x, "reliability.node_failure_rate_per_day": y}
                ),
                catalog,
            )
            assert g["goodput"][j, i] == pytest.approx(ev["goodput"], rel=1e-12)


def test_grid_nodes_by_rate_monotone_and_overrides_optimal():
    inputs = resolve_inputs(load_preset("llama3-16k"))
    g = sens.grid(
        inputs,
        "cluster.nodes",
        np.linspace(100, 8000, 30),
        "reliability.node_failure_rate_per_day",
        np.linspace(0.0005, 0.01, 25),
    )
    gp = g["goodput"]
    assert np.all(np.diff(gp, axis=0) < 0)  # more failures per node: lower goodput
    assert np.all(np.diff(gp, axis=1) < 0)  # more nodes: lower goodput
    # an interval axis replaces 'optimal' with the given intervals
    g2 = sens.grid(inputs, "checkpoint.interval_minutes", [5.0, 500.0], "cluster.nodes", [2048])
    assert g2["goodput"][0, 0] != pytest.approx(g2["goodput"][0, 1], rel=1e-3)


def test_the_tornado_leaves_out_the_models_layout():
    """QA pass: a ±20% move of the layout listed 'TP 6 / 10 ranks' and 'attention heads
    51 / 77', layouts nobody runs (64 heads do not split over TP 6); those fields are left
    out of the tornado, and a label that names its unit does not get it twice."""
    from goodput_lab.models import FIELDS, load_preset, resolve_inputs
    from goodput_lab.models.sensitivity import sensitivity_keys

    from goodput_lab.views.display import field_label

    keys = set(sensitivity_keys(resolve_inputs(load_preset("llama3-70b"))))
    layout = {
        "workload.tensor_parallel",
        "workload.pipeline_parallel",
        "workload.pipeline_virtual_stages",
        "workload.context_parallel",
        "workload.zero_stage",
        "workload.attention_heads",
        "workload.hidden_size",
        "workload.micro_batch_sequences",
    }
    assert not keys & layout
    assert {"reliability.node_failure_rate_per_day", "workload.sequence_length"} <= keys
    assert field_label("workload.micro_batch_sequences") == "Micro-batch (sequences)"
    assert field_label("cluster.nodes") == f"{FIELDS['cluster.nodes'].label} (nodes)"


def test_domain_rates_are_moved_when_the_scenario_states_them():
    """QA pass 19 #3: on the NVL72 preset the rack event rate (our assumption, no public
    figure) swings goodput 3.6 points at ±20% (2.7 before repairs ran side by side), more
    than the node failure rate's 2.6, and the tornado left it out; it and its repair time are moved when the rate is above 0,
    and left out where it is 0 (±20% of 0 moves nothing)."""
    from goodput_lab.models import load_preset, resolve_inputs
    from goodput_lab.models.sensitivity import sensitivity_keys, tornado

    x = resolve_inputs(load_preset("p6e-gb200-nvl72"))
    keys = sensitivity_keys(x)
    assert "reliability.domain_failure_rate_per_day" in keys
    assert "reliability.domain_repair_hours" in keys
    t = tornado(x, 0.2, keys=keys)
    swing = dict(zip(t["keys"], t["swing"]["goodput"], strict=True))
    rack = swing["reliability.domain_failure_rate_per_day"]
    assert rack == pytest.approx(0.03612, abs=2e-4)
    assert rack > swing["reliability.node_failure_rate_per_day"]
    plain = sensitivity_keys(resolve_inputs(load_preset("aws-16k-h100")))
    assert "reliability.domain_failure_rate_per_day" not in plain
    assert "reliability.domain_repair_hours" not in plain
