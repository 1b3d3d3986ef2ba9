"""evaluate_arrays on many 1-D scenarios runs block by block: the figures must be exactly
those of one call of the chain."""

from __future__ import annotations

import sys

import numpy as np
from goodput_lab.models import load_preset, resolve_inputs
from goodput_lab.models.chain import run_chain

ev_mod = sys.modules["goodput_lab.models.evaluate"]  # the package exports evaluate(), the function


def test_blocks_give_the_figures_of_one_call(monkeypatch):
    inputs = resolve_inputs(load_preset("hyperpod-tiered-16k-h100"))
    rng = np.random.default_rng(3)
    n = 1000
    x = {
        **inputs,
        "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
        "cluster.nodes": rng.integers(100, 4000, n).astype(float),
    }
    whole = run_chain(x).metrics()
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", 96)  # 11 blocks, the last one short
    blocks = ev_mod.evaluate_arrays(x)
    assert set(blocks) == set(whole)
    for key, value in whole.items():
        got = np.broadcast_to(blocks[key], np.shape(value))
        assert np.array_equal(got, value, equal_nan=True), key
        assert np.shape(blocks[key]) == np.shape(value), key


def test_grids_and_small_inputs_are_one_call():
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    rates = np.linspace(0.001, 0.003, 5)[:, None]
    nodes = np.array([1000.0, 2000.0])[None, :]
    out = ev_mod.evaluate_arrays(
        {**inputs, "reliability.node_failure_rate_per_day": rates, "cluster.nodes": nodes}
    )
    assert out["goodput"].shape == (5, 2)
    assert ev_mod._scenario_count({"a": np.zeros(3), "b": np.zeros(4)}) == 0
    assert ev_mod._scenario_count({"a": np.zeros(3), "b": 1.0}) == 3
