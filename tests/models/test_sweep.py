"""models/sweep.py: axes and their validation, the grid, per-point streams, one batch."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import ValidationError, evaluate, load_preset, resolve_inputs
from goodput_lab.models.outputs import OUTPUTS
from goodput_lab.models.sweep import (
    MC_COLUMNS,
    Axis,
    check_axes,
    evaluate_batch,
    grid,
    parse_axis,
    point_seed,
)

RATE = "reliability.node_failure_rate_per_day"


def test_parse_axis():
    a = parse_axis(f"{RATE}=0.001:0.004:4")
    assert a == Axis(RATE, 0.001, 0.004, 4)
    assert np.allclose(a.values(), [0.001, 0.002, 0.003, 0.004])
    nodes = parse_axis("cluster.nodes=100:200:3")
    assert nodes.values().tolist() == [100.0, 150.0, 200.0]
    assert parse_axis("cluster.nodes=100:100:1").values().tolist() == [100.0]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("nodes=1:2:3", ["'nodes' is not a scenario field"]),
        ("checkpoint.strategy=1:2:3", ["not numeric", "durable_only"]),
        ("cluster.nodes=0:10:3", ["lo 0 is out of range", "an integer in [1,"]),
        ("cluster.nodes=1:2.5:3", ["hi 2.5 is out of range"]),
        (f"{RATE}=0.001:nan:3", ["out of range"]),
        (f"{RATE}=0.001:abc:3", ["'abc' is not a number"]),
        (f"{RATE}=0.001:0.002:0", ["n 0 is out of range", "[1, 1,000,000]"]),
        (f"{RATE}=0.001:0.002:2000000", ["out of range"]),
        (f"{RATE}=0.001:0.002:x", ["'x' is not a whole number"]),
        (f"{RATE}=0.001:0.002:1", ["one point (n = 1) needs lo = hi"]),
        (f"{RATE}=0.001:0.002", ["is not of the form"]),
        ("=1:2:3", ["is not of the form section.key=lo:hi:n"]),
        ("x" * 500, ["..."]),
    ],
)
def test_parse_axis_refuses_bad_text_naming_the_flag(text, words):
    with pytest.raises(ValidationError) as exc:
        parse_axis(text)
    assert exc.value.field == "--vary"
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) < 300
    for w in words:
        assert w in msg


def test_check_axes_limits():
    a = Axis(RATE, 0.001, 0.002, 1000)
    b = Axis("cluster.nodes", 1000, 1999, 1000)  # whole steps of 1
    assert check_axes([a], 0) == 1000
    assert check_axes([a, b], 0) == 1_000_000
    with pytest.raises(ValidationError, match="1,000,000 points is over the limit"):
        check_axes([a, b], 10)
    with pytest.raises(ValidationError, match="varied twice"):
        check_axes([a, a], 0)
    with pytest.raises(ValidationError, match="at least one --vary"):
        check_axes([], 0)
    with pytest.raises(ValidationError) as exc:
        check_axes([a], 2_000_000)
    assert exc.value.field == "--trials" and "[0, 1,000,000]" in str(exc.value)


def test_grid_is_the_product_first_axis_slowest():
    g = grid([Axis(RATE, 1e-3, 2e-3, 2), Axis("cluster.nodes", 10, 30, 3)])
    assert g[RATE].tolist() == [1e-3] * 3 + [2e-3] * 3
    assert g["cluster.nodes"].tolist() == [10, 20, 30] * 2


def test_point_seed_is_the_spawned_child():
    child = np.random.SeedSequence(42).spawn(8)[5]
    ours = point_seed(42, 5)
    assert np.random.default_rng(ours).random(3).tolist() == (
        np.random.default_rng(child).random(3).tolist()
    )


def test_analytic_batch_equals_evaluate_at_each_point():
    s = load_preset("aws-16k-h100")
    base = resolve_inputs(s)
    cols = grid([Axis(RATE, 0.001, 0.003, 3), Axis("cluster.nodes", 1000, 2000, 2)])
    out = evaluate_batch(base, cols, np.arange(6))
    assert out["point"].tolist() == list(range(6))
    for i in (0, 3, 5):
        ev = evaluate(
            s.replace({RATE: cols[RATE][i], "cluster.nodes": int(cols["cluster.nodes"][i])})
        )
        for key in ("goodput", "lost_usd_per_day", "checkpoint_interval_minutes", "step_seconds"):
            assert out[key][i] == pytest.approx(ev[key], rel=1e-12), key
    metric_cols = set(out) - {"point", RATE, "cluster.nodes"}
    assert metric_cols <= set(OUTPUTS)  # every column is a registered figure
    assert all(v.shape == (6,) for v in out.values())


def test_monte_carlo_columns_depend_on_the_point_not_the_batch():
    """Point 7's runs are the same alone or inside a batch; the simulated mean agrees
    with the analytic goodput within 4 standard errors (+0.001 for the finite horizon)."""
    base = resolve_inputs(load_preset("aws-16k-h100"))
    cols = {RATE: np.array([0.001, 0.002, 0.003])}
    both = evaluate_batch(base, cols, np.array([3, 7, 9]), trials=300, days=10, seed=11)
    alone = evaluate_batch(
        base, {RATE: cols[RATE][1:2]}, np.array([7]), trials=300, days=10, seed=11
    )
    for k in MC_COLUMNS:
        assert both[k][1] == alone[k][0], k
        assert k in OUTPUTS
    other_seed = evaluate_batch(base, {RATE: cols[RATE][1:2]}, np.array([7]), trials=300, days=10)
    assert other_seed["goodput_mean"][0] != alone["goodput_mean"][0]
    gap = np.abs(both["goodput_mean"] - both["goodput"])
    assert np.all(gap <= 4 * both["goodput_stderr"] + 0.001)
    assert np.all(both["goodput_p5"] <= both["goodput_p50"])
    assert np.all(both["goodput_p50"] <= both["goodput_p95"])


def test_validation_errors_survive_pickling():
    """A worker's ValidationError reaches the CLI intact (Dask pickles exceptions)."""
    import pickle

    e = pickle.loads(pickle.dumps(ValidationError("trials", "too many")))
    assert (e.field, e.message, str(e)) == ("trials", "too many", "trials: too many")
