"""goodput_lab.models.montecarlo: hand-computed timelines, reproducibility, limits, mechanisms."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import Scenario, ValidationError, evaluate, resolve_inputs
from goodput_lab.models import montecarlo as mc
from goodput_lab.models.montecarlo import (
    TIMELINE_EVENTS,
    check_size,
    merge_results,
    params_from_inputs,
    simulate,
    simulate_inputs,
    simulate_params,
    weibull_failure_times,
)
from hypothesis import given, settings
from hypothesis import strategies as st

FIXED = {"simulation.recovery_spread": 0.0}


def _inputs(updates=None):
    return resolve_inputs(Scenario.default().replace({**FIXED, **(updates or {})}))


def test_no_failures_is_hand_computed():
    """τ = 40 min, δ = 1 min, no failures, 30 days.

    Finish: 1,080 segments of 41 min = 44,280 min = 30.75 days.  At 43,200 min: 1,053 whole
    segments (43,173 min) + 27 min of compute = 42,147 min of work, goodput 0.975625.
    """
    inputs = _inputs({"reliability.node_failure_rate_per_day": 0.0})
    res = simulate_inputs(inputs, 20, 30.0, rng=1)
    assert np.allclose(res.time_to_finish_days, 30.75)
    assert np.allclose(res.goodput, 42_147 / 43_200)
    assert res.failures.sum() == 0
    assert res.checkpoints_simulated == 20 * 1080
    assert res.timeline == [("start", 0.0), ("finish", pytest.approx(44_280.0))]
    # cost of the run and of the idle (saving) time: 2,000 nodes at the catalog price
    assert inputs["pricing.usd_per_instance_hour"] == pytest.approx(55.04)
    per_min = 2000 * 55.04 / 60
    assert np.allclose(res.cost_usd, 44_280 * per_min)
    # lost: the 1,080 save minutes of the cluster, plus the shared file system's storage
    # over the whole 44,280 min (the chain's storage_usd_per_day, as in lost_usd_per_day)
    storage_per_min = evaluate(Scenario.default())["storage_usd_per_day"] / 1440
    assert storage_per_min > 1.0  # FSx for Lustre, ~$2,857/day
    assert np.allclose(res.lost_usd, 1_080 * per_min + 44_280 * storage_per_min)


def test_timeline_reads_like_the_recovery_sequence():
    """Fixed recovery: every failure is followed by detect 3, replace 4, restart 2, restore 2."""
    res = simulate_inputs(_inputs(), 5, 30.0, rng=3)
    tl = res.timeline
    assert tl[0] == ("start", 0.0)
    assert tl[-1][0] == "finish"
    assert {e for e, _ in tl} <= set(TIMELINE_EVENTS)
    times = [t for _, t in tl]
    assert times == sorted(times)
    steps = [("detected", 3.0), ("replaced", 4.0), ("restarted", 2.0), ("restored", 2.0)]
    n_full = 0
    for i, (event, t) in enumerate(tl):
        if event not in ("failure", "correlated_failure") or i + 4 >= len(tl):
            continue
        if [e for e, _ in tl[i + 1 : i + 5]] == [s for s, _ in steps]:
            gaps = np.diff([t] + [x for _, x in tl[i + 1 : i + 5]])
            assert gaps == pytest.approx([d for _, d in steps])
            n_full += 1
    assert n_full >= 50  # ~4 failures/day over ~33.6 days
    n_failures = sum(e in ("failure", "correlated_failure") for e, _ in tl)
    assert n_failures == res.failures[0]
    # checkpoint.correlated_fraction = 8.4% of node failures take out 8 nodes at once
    assert 0 < sum(e == "correlated_failure" for e, _ in tl) < 0.25 * n_failures


def test_reproducible_from_seed_and_generator():
    inputs = _inputs()
    a = simulate_inputs(inputs, 300, 10.0, rng=42)
    b = simulate_inputs(inputs, 300, 10.0, rng=np.random.default_rng(42))
    c = simulate_inputs(inputs, 300, 10.0, rng=43)
    assert np.array_equal(a.goodput, b.goodput)
    assert a.timeline == b.timeline
    assert not np.array_equal(a.goodput, c.goodput)


@pytest.fixture
def small_blocks(monkeypatch):
    """Random stream blocks of 100 trials, so that a few hundred trials span several."""
    monkeypatch.setattr(mc, "STREAM_TRIALS", 100)


def test_chunks_and_progress_callback(small_blocks):
    calls = []
    res = simulate_inputs(
        _inputs(), 250, 5.0, rng=1, chunk_trials=100, progress=lambda d, n: calls.append((d, n))
    )
    assert calls == [(100, 250), (200, 250), (250, 250)]
    assert res.goodput.shape == (250,)
    assert res.time_to_finish_days.shape == (250,)


def test_figures_do_not_depend_on_chunking(small_blocks):
    """Issue 26: the page drew in chunks of its own and its seed drove other streams (P5
    goodput 88.03% on the page vs 88.06% from `goodput simulate`).  Streams now belong to
    fixed blocks of trials, so any grouping gives the same runs, to the bit."""
    p = params_from_inputs(_inputs({"simulation.recovery_spread": 0.3}))
    whole = simulate_params(p, 250, 5.0, rng=7)
    for chunk_trials in (1, 100, 150, 250, 10_000):
        res = simulate_params(p, 250, 5.0, rng=7, chunk_trials=chunk_trials)
        assert np.array_equal(res.goodput, whole.goodput), chunk_trials
        assert np.array_equal(res.lost_usd, whole.lost_usd), chunk_trials
        assert res.events_simulated == whole.events_simulated
    assert mc.stream_block_trials(p, 5.0) == 100


def test_percentile_bands_are_ordered_and_end_at_goodput():
    res = simulate_inputs(_inputs(), 500, 30.0, rng=2)
    b = res.goodput_bands
    assert np.all(b[5] <= b[25]) and np.all(b[25] <= b[50])
    assert np.all(b[50] <= b[75]) and np.all(b[75] <= b[95])
    assert b[50][-1] == pytest.approx(np.percentile(res.goodput, 50))
    assert res.grid_days[-1] == pytest.approx(30.0)
    s = res.summary()
    assert s["goodput_p5"] <= s["goodput_p50"] <= s["goodput_p95"]
    assert 0 < s["goodput_stderr"] < 0.001


@pytest.mark.parametrize(
    ("trials", "days"), [(0, 30), (-5, 30), (1.5, 30), (True, 30), (10, 0), (10, float("nan"))]
)
def test_bad_sizes_raise_validation_error(trials, days):
    with pytest.raises(ValidationError) as exc:
        check_size(trials, days)
    assert exc.value.field in ("trials", "days")


def test_absurd_size_is_refused_before_running():
    with pytest.raises(ValidationError, match=r"allowed: trials <= [0-9,]+ or days <= "):
        simulate_inputs(_inputs(), 900_000, 3650.0)  # 10^6 trials alone pass 2 GB


def test_weibull_renewals_keep_the_mean_rate_and_are_overdispersed():
    """Stationary renewals: E[count in H] = N·r·H exactly; shape < 1 gives var > mean."""
    rng = np.random.default_rng(11)
    nodes, rate, horizon = 50, 0.02 / 1440, 30 * 1440.0
    t = weibull_failure_times(400, nodes, rate, 0.5, horizon, rng)
    counts = np.isfinite(t).sum(axis=1)
    expected = nodes * rate * horizon  # 30 failures
    se = counts.std(ddof=1) / np.sqrt(counts.size)
    assert abs(counts.mean() - expected) <= 4 * se
    assert counts.var() > 1.5 * counts.mean()  # Poisson would give var = mean
    assert np.all(np.diff(np.where(np.isfinite(t), t, 1e18), axis=1) >= 0)


def test_weibull_mode_matches_exponential_mean_goodput():
    """The mean rate is kept, so the mean goodput moves little; the spread widens."""
    exp = simulate_inputs(_inputs({"cluster.nodes": 500}), 400, 30.0, rng=4)
    wei = simulate_inputs(
        _inputs({"cluster.nodes": 500, "reliability.weibull_shape": 0.5}), 400, 30.0, rng=4
    )
    assert abs(wei.goodput_mean - exp.goodput_mean) < 0.01
    assert wei.goodput.std() > exp.goodput.std()


def test_two_level_strategy_follows_the_analytic_fallback_share():
    """memory+durable: level 1 every 40 min, durable every 60 min (docs/references.md#two-level-checkpointing).

    A failure falls back to the durable tier with evaluate's probability ``fallback_fraction``
    (8.4% here, the correlated share); the simulated share must match it within 4 s.e.
    """
    base = simulate_inputs(_inputs(), 300, 10.0, rng=5)
    inputs = _inputs({"checkpoint.strategy": "memory+durable"})
    mem = simulate_inputs(inputs, 300, 10.0, rng=5)
    p_fb = mem.params.p_fallback
    assert p_fb == pytest.approx(0.084, abs=0.001)
    assert mem.params.durable_ratio == pytest.approx(1.5)
    share = mem.fallbacks.sum() / mem.failures.sum()
    n = mem.failures.sum()
    assert abs(share - p_fb) <= 4 * np.sqrt(p_fb * (1 - p_fb) / n)
    # durable every 1.5 level-1 checkpoints: extra durable saves cost goodput vs durable-only
    assert mem.goodput_mean < base.goodput_mean
    assert mem.goodput_mean == pytest.approx(mem.goodput_analytic, abs=0.005)


def test_fabric_events_past_the_timeout_are_job_failures():
    """2 fabric events/day with a 900 s reroute > 600 s timeout: each hangs 10 min then fails.

    Failures per run ≈ (4 + 2)/day × wall days; goodput matches evaluate, which counts the
    same hang as a stall and the failure in λ (models.network).
    """
    inputs = _inputs({"network.fabric_events_per_day": 2.0, "network.reroute_seconds": 900.0})
    res = simulate_inputs(inputs, 400, 10.0, rng=6)
    expected = 6.0 * res.time_to_finish_days.mean()
    assert abs(res.failures.mean() - expected) <= 4 * np.sqrt(expected / res.trials)
    assert abs(res.goodput_mean - res.goodput_analytic) <= 4 * res.goodput_stderr + 0.001


def test_fabric_stalls_slow_the_run_by_their_share_of_time():
    """No failures; 180 s reroutes (< 600 s timeout) at 10/day of running time.

    Expected goodput = g₀ / (1 + 10·3/1440) with g₀ = 40/41 and fixed stall times.
    """
    res = simulate_inputs(
        _inputs(
            {
                "reliability.node_failure_rate_per_day": 0.0,
                "network.fabric_events_per_day": 10.0,
                "network.reroute_seconds": 180.0,
            }
        ),
        400,
        30.0,
        rng=8,
    )
    g0 = 40.0 / 41.0
    expected = g0 / (1 + 10 * 3 / 1440)
    eff = res.work_days / res.time_to_finish_days
    assert abs(eff.mean() - expected) <= 4 * eff.std(ddof=1) / np.sqrt(eff.size) + 1e-4
    assert res.stalls.mean() == pytest.approx(10 * 30.75, rel=0.05)
    assert res.failures.sum() == 0


def test_hot_spares_cut_replacement_time():
    slow = {"recovery.replacement_minutes": 120.0}
    none = simulate_inputs(_inputs(slow), 300, 10.0, rng=9)
    many = simulate_inputs(_inputs({**slow, "cluster.spare_nodes": 40}), 300, 10.0, rng=9)
    # 40 spares, ~4 nodes in repair on average: almost always a 1-min swap instead of 120 min
    assert many.goodput_mean - none.goodput_mean > 0.2
    assert many.goodput_mean == pytest.approx(many.goodput_analytic, abs=0.005)


def test_simulate_scenario_wrapper_uses_the_analytic_interval(catalog):
    sc = Scenario.default().replace({"checkpoint.interval_minutes": "optimal"})
    res = simulate(sc, 50, 5.0, rng=1, catalog=catalog)
    assert res.interval_minutes == pytest.approx(26.170, abs=0.01)  # exact optimum, M = 6 h


def test_chunks_run_separately_merge_into_the_full_run(small_blocks):
    """Chunk i of a seeded run uses the same stream whether run alone or with the others."""
    p = params_from_inputs(_inputs())
    full = simulate_params(p, 250, 5.0, rng=3, chunk_trials=100)
    parts = [
        simulate_params(p, 250, 5.0, rng=3, chunk_trials=100, chunks=[i], keep_work_grid=True)
        for i in (0, 1, 2)
    ]
    assert [r.trials for r in parts] == [100, 100, 50]
    merged = merge_results(parts)
    assert np.array_equal(merged.goodput, full.goodput)
    assert merged.timeline == full.timeline
    assert merged.events_simulated == full.events_simulated
    for q, band in full.goodput_bands.items():
        assert np.allclose(merged.goodput_bands[q], band)


@settings(max_examples=25, deadline=None)
@given(
    tau=st.floats(min_value=1.0, max_value=600.0),
    save_s=st.floats(min_value=0.0, max_value=1800.0),
    days=st.floats(min_value=0.5, max_value=20.0),
)
def test_no_failure_runs_follow_the_segment_arithmetic(tau, save_s, days):
    """Property: without failures every run is the same closed-form sequence of segments."""
    inputs = _inputs(
        {
            "reliability.node_failure_rate_per_day": 0.0,
            "checkpoint.interval_minutes": tau,
            "checkpoint.save_seconds": save_s,
        }
    )
    res = simulate_inputs(inputs, 3, days, rng=0)
    seg = tau + save_s / 60.0
    horizon = days * 1440.0
    n = np.floor(horizon / seg)
    work = n * tau + min(horizon - n * seg, tau)
    assert np.allclose(res.goodput, work / horizon, rtol=1e-9, atol=1e-9)
    need = np.ceil(horizon / tau - 1e-9)
    assert np.allclose(res.time_to_finish_days, need * seg / 1440.0)
    assert 0.0 <= res.goodput.min() <= res.goodput.max() <= 1.0


def test_sample_run_records_its_saves_and_rework():
    """No failures: 1,080 saves of 1 min after every 40 min of compute, no rework.  With
    failures: each rework span ends at a failure and starts at a checkpoint's completion."""
    res = simulate_inputs(_inputs({"reliability.node_failure_rate_per_day": 0.0}), 5, 30.0, rng=1)
    assert res.timeline_rework == []
    assert len(res.timeline_saves) == 1080
    assert res.timeline_saves[0] == (40.0, 41.0) and res.timeline_saves[1] == (81.0, 82.0)
    s = res.summary()
    per_month = res.lost_usd / res.time_to_finish_days * 365.25 / 12
    assert s["lost_mean_usd_per_month"] == pytest.approx(per_month.mean())
    assert s["lost_p95_usd_per_month"] == pytest.approx(np.percentile(per_month, 95))

    res = simulate_inputs(_inputs(), 5, 30.0, rng=3)
    failures = [t for e, t in res.timeline if e in ("failure", "correlated_failure")]
    ends = {round(b, 9) for _, b in res.timeline_rework}
    assert ends <= {round(t, 9) for t in failures}
    completions = {b for _, b in res.timeline_saves} | {0.0}
    for a, b in res.timeline_rework:
        # from the last checkpoint that completed before the failure (single level)
        assert a in completions
        assert not any(a < c < b for c in completions)


def test_a_multi_node_event_takes_at_most_the_whole_cluster():
    """checkpoint.correlated_nodes above cluster.nodes means the whole cluster, in the
    simulator as in the analytic model: 8 on a 4-node cluster sends 4 nodes to repair, and
    the runs are those of correlated_nodes = 4."""
    base = Scenario.default().replace(
        {
            "cluster.nodes": 4,
            "cluster.spare_nodes": 2,
            "checkpoint.correlated_fraction": 0.5,
            "reliability.node_failure_rate_per_day": 0.05,
        }
    )
    eight = params_from_inputs(resolve_inputs(base.replace({"checkpoint.correlated_nodes": 8})))
    four = params_from_inputs(resolve_inputs(base.replace({"checkpoint.correlated_nodes": 4})))
    assert eight.corr_nodes == four.corr_nodes == 4
    a = simulate_params(eight, 200, 30.0, rng=3)
    b = simulate_params(four, 200, 30.0, rng=3)
    np.testing.assert_array_equal(a.goodput, b.goodput)


@pytest.mark.parametrize(
    ("preset", "updates"),
    [
        ("aws-16k-h100", {}),
        ("p6e-gb200-nvl72", {}),  # failure domains: domain and switch events counted
        ("aws-16k-h100", {"reliability.job_interruptions_per_day": 2.0}),
        ("aws-16k-h100", {"pricing.model": "spot", "pricing.spot_notice_seconds": 1}),
    ],
)
def test_failures_per_run_match_their_closed_form(preset, updates):
    """Wald's identity, E[N(T)] = λ·E[T]: the simulated mean failures per run against the
    counted rate times Daly's expected wall time, within 4 standard errors of the mean
    (QA pass 18 #13: the page showed the simulated count with no closed form).  A Spot
    interruption with a 1 s notice is not saved, so it is a failure and counts."""
    from goodput_lab.models import load_preset

    res = simulate_inputs(resolve_inputs(load_preset(preset).replace(updates)), 1000, 30.0, rng=3)
    f = res.failures.astype(float)
    closed = res.summary()["failures_analytic"]
    assert closed == pytest.approx(
        res.params.job_failure_rate_per_min * res.time_to_finish_analytic_days * 1440
    )
    assert abs(f.mean() - closed) <= 4 * f.std(ddof=1) / np.sqrt(f.size)


def test_failures_closed_form_is_hand_computed():
    """4 failures/day (2,000 nodes × 0.002) over Daly's expected wall time."""
    res = simulate_inputs(resolve_inputs(Scenario.default()), 10, 30.0, rng=1)
    wall = res.work_days / res.goodput_analytic
    assert res.summary()["failures_analytic"] == pytest.approx(4.0 * wall)


@pytest.mark.parametrize(
    "updates",
    [
        {"reliability.weibull_shape": 0.7},  # renewals, not a Poisson stream
        {"pricing.model": "spot"},  # saved interruptions: the job waits, unexposed
        {"reliability.sdc_fraction": 0.1},  # extended path: replayed time is not exposed
    ],
)
def test_failures_closed_form_is_left_out_where_it_does_not_hold(updates):
    from goodput_lab.models import load_preset

    scenario = load_preset("aws-16k-h100").replace(updates)
    res = simulate_inputs(resolve_inputs(scenario), 10, 30.0, rng=1)
    assert np.isnan(res.summary()["failures_analytic"])
