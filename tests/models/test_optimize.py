"""Optimizer recommendations checked against brute-force grid searches and ``compare``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import compare, evaluate, evaluate_arrays, load_preset, resolve_inputs
from goodput_lab.models import optimize as opt


def _inputs(preset: str, **changes):
    return resolve_inputs(load_preset(preset).replace(changes) if changes else load_preset(preset))


CASES = [
    ("aws-16k-h100", {}),
    ("llama3-16k", {}),  # 'optimal' interval in the scenario
    ("aws-16k-h100", {"reliability.node_failure_rate_per_day": 0.02, "checkpoint.save_seconds": 5}),
    ("aws-16k-h100", {"cluster.nodes": 16, "checkpoint.save_seconds": 600.0}),
]


@pytest.mark.parametrize(("preset", "changes"), CASES)
def test_interval_matches_brute_force_grid(preset, changes):
    inputs = _inputs(preset, **changes)
    rec = opt.recommend_checkpoint_interval(inputs)
    # brute force: 50,001 intervals, log-spaced over the whole allowed range
    taus = np.geomspace(0.1, 10_080.0, 50_001)
    lost = evaluate_arrays(
        {**inputs, "checkpoint.interval_minutes": taus, "checkpoint.interval_optimal": False}
    )["lost_usd_per_day"]
    k = int(np.argmin(lost))
    step = taus[k] * (math.exp(math.log(10_080.0 / 0.1) / 50_000) - 1)
    assert rec.interval_minutes == pytest.approx(taus[k], abs=2 * step)
    assert rec.lost_usd_per_day <= lost[k] + 1e-6 * lost[k]
    # and the Lambert-W closed form (Daly 2006 exact optimum)
    assert rec.interval_minutes == pytest.approx(rec.closed_form_minutes, rel=1e-5)


def test_interval_savings_equal_compare(catalog):
    base = load_preset("aws-16k-h100")
    rec = opt.recommend_checkpoint_interval(resolve_inputs(base, catalog))
    assert rec.interval_minutes == pytest.approx(26.17, abs=0.01)  # doctest value
    cand = base.replace({"checkpoint.interval_minutes": rec.interval_minutes})
    c = compare(base, cand, catalog)
    assert rec.savings_usd_per_day == pytest.approx(c.savings_usd_per_day, rel=1e-9)
    assert rec.savings_usd_per_day == pytest.approx(28_362, abs=1)


@pytest.mark.parametrize(("rate", "repair"), [(0.002, 24.0), (0.004, 4.0), (0.0, 24.0)])
def test_spares_match_brute_force_with_evaluate(catalog, rate, repair):
    base = load_preset("aws-16k-h100").replace(
        {"reliability.node_failure_rate_per_day": rate, "reliability.repair_hours": repair}
    )
    rec = opt.recommend_spares(resolve_inputs(base, catalog), max_spares=25)
    # brute force through the public compare() path, one scenario per spare count
    savings = [
        compare(base, base.replace({"cluster.spare_nodes": s}), catalog).savings_usd_per_day
        for s in range(26)
    ]
    assert rec.spares == int(np.argmax(savings))
    np.testing.assert_allclose(rec.savings_vs_none_usd_per_day, savings, rtol=1e-9, atol=1e-6)
    assert rec.break_even_spares == max(s for s, v in enumerate(savings) if v >= -1e-9)
    if rate == 0.0:  # spares only cost money when nothing fails
        assert rec.spares == 0
        assert savings[1] == pytest.approx(-1 * 98.32 * 24)


def test_spare_doctest_values():
    sav = opt.spare_savings_usd_per_day(_inputs("aws-16k-h100"), 3)
    np.testing.assert_allclose(sav, [0, -1716.1, -1500.5, 1295.1], atol=0.1)
    rec = opt.recommend_spares(_inputs("aws-16k-h100"))
    assert (rec.spares, rec.break_even_spares) == (7, 14)


def test_spare_break_even_rate_is_a_sign_change(catalog):
    base = load_preset("aws-16k-h100")
    r = opt.spare_break_even_rate_per_day(resolve_inputs(base, catalog), 1)
    assert r * 100 == pytest.approx(0.0176, abs=5e-5)  # doctest value, % per node-day

    def one_spare_savings(rate):
        b = base.replace({"reliability.node_failure_rate_per_day": rate})
        return compare(b, b.replace({"cluster.spare_nodes": 1}), catalog).savings_usd_per_day

    assert one_spare_savings(r) == pytest.approx(0.0, abs=1e-3)
    assert one_spare_savings(r * 0.99) < 0 < one_spare_savings(r * 1.01)


def test_spare_break_even_nan_when_spares_never_pay():
    # repair takes a year: the single spare is almost never back in the pool
    inputs = _inputs("aws-16k-h100", **{"reliability.repair_hours": 8760.0})
    assert math.isnan(opt.spare_break_even_rate_per_day(inputs, 1, max_rate_per_day=0.01))


def test_train_flops_llama3():
    # Llama 3 405B: 3.8e25 FLOPs (arXiv:2407.21783, §3.2.1), = 6 · 405e9 · 15.6e12
    assert opt.train_flops(405.0, 15.6) == pytest.approx(3.8e25, rel=0.01)


def test_time_and_cost_fallback_hand_computed(catalog):
    # without models.compute's outputs: 6·N·D over peak × MFU × goodput
    inputs = _inputs("aws-16k-h100")
    g = evaluate(load_preset("aws-16k-h100"), catalog)["goodput"]
    m = {
        k: v
        for k, v in evaluate_arrays(inputs).items()
        if k not in ("time_to_train_days", "cost_to_train_usd")
    }
    days, usd = opt.time_and_cost_to_train(inputs, m)
    per_day = 16_000 * 989e12 * 0.40 * g * 86_400
    assert float(days) == pytest.approx(6 * 405e9 * 15.6e12 / per_day, rel=1e-12)
    storage = m["storage_usd_per_day"]  # the shared file system, priced per day
    assert float(usd) == pytest.approx(float(days) * (2000 * 98.32 * 24 + storage), rel=1e-12)


def test_time_and_cost_prefer_the_models_outputs():
    m = {"time_to_train_days": 3.0, "cost_to_train_usd": 7.0, "goodput": 0.5}
    days, usd = opt.time_and_cost_to_train(_inputs("aws-16k-h100"), m)
    assert (float(days), float(usd)) == (3.0, 7.0)


def test_rank_instances_cheapest_first_and_unpriced_last(catalog):
    rows = opt.rank_instances(_inputs("aws-16k-h100"), catalog, "p5.48xlarge")
    feasible = [r for r in rows if r["feasible"]]
    costs = [r["cost_to_train_usd"] for r in feasible]
    assert costs == sorted(costs)
    unpriced = {n for n, i in catalog.items() if i.usd_per_hour is None}
    infeasible = {r["instance"]: r["reason"] for r in rows if not r["feasible"]}
    assert unpriced <= set(infeasible)
    assert rows[: len(feasible)] == feasible  # feasible first
    for name, reason in infeasible.items():
        if name in unpriced:
            assert reason == "no catalog price"
        else:  # priced, but the model cannot estimate its time to train: said, not hidden
            assert "unknown" in reason
            inputs = opt.instance_inputs(_inputs("aws-16k-h100"), catalog[name], "p5.48xlarge")
            assert not np.isfinite(opt.time_and_cost_to_train(inputs)[0])
    # the scenario's own (negotiated) price is kept for its own instance only
    p5 = next(r for r in rows if r["instance"] == "p5.48xlarge")
    assert p5["usd_per_instance_hour"] == 98.32
    assert p5["accelerators"] == 16_000


def test_rank_instances_deadline_matches_brute_force(catalog):
    base = load_preset("aws-16k-h100")
    inputs = resolve_inputs(base, catalog)
    days_now, _ = opt.time_and_cost_to_train(inputs)
    deadline = 1.1 * float(days_now)  # reachable by the current cluster, maybe for less
    rows = opt.rank_instances(inputs, catalog, "p5.48xlarge", deadline_days=deadline)
    best = rows[0]
    assert best["feasible"]
    assert best["time_to_train_days"] <= deadline
    # brute force, built independently through Scenario -> resolve_inputs for each type
    # (catalog price for the other types), every node count 1..20,000
    n = np.arange(1, 20_001, dtype=float)
    cheapest = {}
    for name, inst in catalog.items():
        if name != "p5.48xlarge" and inst.usd_per_hour is None:
            continue
        sc = base.replace({"cluster.instance": name}) if name != "p5.48xlarge" else base
        if name != "p5.48xlarge":
            sc = sc.replace({"pricing.usd_per_instance_hour": None})
        grid = {**resolve_inputs(sc, catalog), "cluster.nodes": n}
        days, cost = opt.time_and_cost_to_train(grid)
        ok = np.asarray(days) <= deadline
        if ok.any():
            k = int(np.argmin(np.where(ok, cost, np.inf)))
            cheapest[name] = (int(n[k]), float(cost[k]))
    assert cheapest, "the deadline should be reachable by some instance type"
    winner = min(cheapest, key=lambda k: cheapest[k][1])
    assert best["instance"] == winner
    assert (best["nodes"], best["cost_to_train_usd"]) == (
        cheapest[winner][0],
        pytest.approx(cheapest[winner][1], rel=1e-12),
    )
    for row in rows:
        if row["feasible"]:
            assert (row["nodes"], row["cost_to_train_usd"]) == (
                cheapest[row["instance"]][0],
                pytest.approx(cheapest[row["instance"]][1], rel=1e-12),
            )
        else:
            assert row["instance"] not in cheapest
