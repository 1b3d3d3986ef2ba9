"""Checkpoint tiers, intervals, two-level strategies and replica survival (models.checkpoint).

Hand-computed values from the cited formulas, hypothesis properties, the strict tier loader,
and the composition into evaluate() (goodput, breakdown, JSON outputs).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from goodput_lab.models import (
    ValidationError,
    evaluate,
    evaluate_arrays,
    load_preset,
    resolve_inputs,
)
from goodput_lab.models import checkpoint as ck
from goodput_lab.models import goodput as gp
from goodput_lab.models.choices import SaveMode
from hypothesis import given, settings
from hypothesis import strategies as st

# ------------------------------------------------------------------ sizes and transfer times


def test_size_and_shard_hand_values():
    # 405e9 params x 16 B = 6.48e12 B; over 2,000 nodes = 3.24e9 B each
    assert ck.checkpoint_size_TB(405.0, 16.0) == pytest.approx(6.48, rel=1e-12)
    assert ck.checkpoint_shard_GB(405.0, 16.0, 2000) == pytest.approx(3.24, rel=1e-12)
    np.testing.assert_allclose(ck.checkpoint_shard_GB(405.0, 16.0, [1000, 4000]), [6.48, 1.62])


def test_transfer_uses_the_tighter_of_node_and_aggregate_bandwidth():
    # 100 GB/s shared by 2,000 nodes = 0.05 GB/s each < 25 GB/s per node: 3.24/0.05 = 64.8 s
    assert ck.tier_transfer_seconds(3.24, 2000, 25.0, 100.0) == pytest.approx(64.8)
    # 10 nodes: fair share 10 GB/s < 25: 3.24/10 + 5 s fixed = 5.324 s
    assert ck.tier_transfer_seconds(3.24, 10, 25.0, 100.0, 5.0) == pytest.approx(5.324)
    # uncapped: per-node bandwidth; two copies take twice as long
    assert ck.tier_transfer_seconds(3.24, 2000, 8.0, np.inf, 0.0, 2.0) == pytest.approx(0.81)


# ------------------------------------------------------------------ intervals


def test_interval_formulas_hand_values():
    # δ = 1 min, M = 360 min, R = 11 min
    assert ck.young_interval_minutes(1.0, 360.0) == pytest.approx(math.sqrt(720.0))
    assert ck.daly_first_order_interval_minutes(1.0, 360.0, 11.0) == pytest.approx(
        math.sqrt(2 * 371.0)
    )
    # Daly 2006 eq. 37: √720·(1 + √(1/720)/3 + 1/6480) − 1 = 26.17029
    assert ck.daly_higher_order_interval_minutes(1.0, 360.0) == pytest.approx(26.17029, abs=1e-5)
    assert ck.daly_higher_order_interval_minutes(800.0, 360.0) == 360.0  # δ ≥ 2M: τ = M
    # exact: root of e^{(τ+δ)/M}(1 − τ/M) = 1 (checked by brute force in test_goodput)
    tau = ck.exact_optimal_interval_minutes(1.0, 720.0)
    assert tau == pytest.approx(37.284, abs=1e-3)
    assert math.exp((tau + 1.0) / 720.0) * (1 - tau / 720.0) == pytest.approx(1.0, abs=1e-12)
    assert gp.exact_optimal_interval_minutes(0.0, 720.0) == 0.0  # free saves: no NaN


def test_two_level_hand_values():
    # λ1 = 3.6/day, λ2 = 0.4/day, T1 = 5, T2 = 60, C1 = 0.02, C2 = 1, R1 = 5, R2 = 7 (minutes)
    w = ck.two_level_waste_first_order(3.6, 0.4, 5.0, 60.0, 0.02, 1.0, 5.0, 7.0)
    assert w == pytest.approx(0.02 / 5 + 1 / 60 + 3.6 / 1440 * 7.5 + 0.4 / 1440 * 37.0)
    g = ck.two_level_goodput(3.6, 0.4, 5.0, 60.0, 0.02, 1.0, 5.0, 7.0)
    assert g == pytest.approx(0.9515, abs=1e-4)
    assert g == pytest.approx(
        gp.goodput_exact(3.6, 5.0, 5.0, 0.02) * gp.goodput_exact(0.4, 7.0, 60.0, 1.0)
    )
    # Young per failure class: √(2·0.02·400) = 4, √(2·1·3600) = 84.853
    t1, t2 = ck.two_level_optimal_intervals_minutes(0.02, 1.0, 3.6, 0.4, exact=False)
    assert (t1, t2) == (pytest.approx(4.0), pytest.approx(math.sqrt(7200.0)))
    e1, e2 = ck.two_level_optimal_intervals_minutes(0.02, 1.0, 3.6, 0.4)
    assert e1 == pytest.approx(ck.exact_optimal_interval_minutes(0.02, 400.0))
    assert e2 == pytest.approx(ck.exact_optimal_interval_minutes(1.0, 3600.0))


def test_two_level_reduces_to_single_level():
    g2 = ck.two_level_goodput(4.0, 0.0, 40.0, 1.0, 1.0, 0.0, 11.0, 99.0)
    assert g2 == gp.goodput_exact(4.0, 11.0, 40.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(
    d=st.floats(0.01, 30.0),
    m=st.floats(60.0, 1e5),
    k=st.floats(1.01, 3.0),
)
def test_optimal_interval_increases_with_save_time_and_mtbf(d, m, k):
    for f in (
        ck.exact_optimal_interval_minutes,
        ck.young_interval_minutes,
        ck.daly_higher_order_interval_minutes,
    ):
        base = f(d, m)
        assert f(d * k, m) > base
        assert f(d, m * k) > base


@settings(max_examples=40, deadline=None)
@given(
    d=st.floats(0.05, 10.0),
    lam=st.floats(0.1, 20.0),
    r=st.floats(0.0, 60.0),
)
def test_goodput_at_optimum_beats_every_interval_on_a_grid(d, lam, r):
    tau_opt = ck.exact_optimal_interval_minutes(d, 1440.0 / lam)
    g_opt = gp.goodput_exact(lam, r, tau_opt, d)
    grid = np.geomspace(0.1, 5000.0, 400)
    assert g_opt >= np.max(gp.goodput_exact(lam, r, grid, d)) - 1e-12


def test_two_level_optimum_beats_grid_in_evaluate(catalog):
    """The optimal level-1 interval and the reported optimal durable interval maximise the
    evaluated goodput of the tiered preset over a grid of interval pairs."""
    inputs = resolve_inputs(load_preset("hyperpod-tiered-16k-h100"), catalog)
    inputs["checkpoint.save_mode"] = SaveMode.SYNC  # sync: both levels have a blocking cost
    best = evaluate_arrays(inputs)
    assert float(best["durable_save_seconds"]) > 0  # the sync durable save really blocks
    t1, t2 = (
        float(best["checkpoint_interval_minutes"]),
        float(best["optimal_durable_interval_minutes"]),
    )
    at_opt = evaluate_arrays(
        {
            **inputs,
            "checkpoint.durable_interval_minutes": t2,
            "checkpoint.interval_optimal": False,
            "checkpoint.interval_minutes": t1,
        }
    )
    t1s = np.geomspace(0.2, 60.0, 60)[:, None]
    t2s = np.geomspace(5.0, 2000.0, 60)[None, :]
    grid = evaluate_arrays(
        {
            **inputs,
            "checkpoint.interval_optimal": False,
            "checkpoint.interval_minutes": t1s,
            "checkpoint.durable_interval_minutes": t2s,
        }
    )
    assert float(at_opt["goodput"]) >= float(np.max(grid["goodput"])) - 1e-12


# ------------------------------------------------------------------ replica survival


def _brute_force_loss(n, m, k):
    groups = [set(range(g * m, g * m + m)) for g in range(n // m)]
    hit = total = 0
    for failed in itertools.combinations(range(n), k):
        fs = set(failed)
        total += 1
        hit += any(g <= fs for g in groups)
    return hit / total


@pytest.mark.parametrize(("n", "m", "k"), [(6, 2, 2), (6, 2, 3), (8, 2, 4), (9, 3, 5), (7, 2, 4)])
def test_random_loss_matches_enumeration(n, m, k):
    assert ck.probability_random_failures_destroy_group(n, m, k) == pytest.approx(
        _brute_force_loss(n, m, k), abs=1e-12
    )


def test_random_loss_gemini_formula_and_union_bound():
    """Gemini (SOSP'23): P(loss) = N·C(N−m, k−m) / (m·C(N, k)) for k < 2m (docs/references.md#in-memory-replicas,
    [U] from a reimplementation): N = 16, m = 2, k = 2 → 16/(2·120) = 1/15."""
    assert ck.probability_random_failures_destroy_group(16, 2, 2) == pytest.approx(1 / 15)
    assert ck.probability_random_failures_destroy_group(16, 2, 1) == 0.0  # k < m
    assert ck.probability_random_failures_destroy_group(2000, 1, 8) == 1.0  # one copy
    # many simultaneous losses (μ = 62 expected destroyed pairs): Poisson limit, no NaN
    big = ck.probability_random_failures_destroy_group(2000, 2, 500)
    mu = 1000 * 500 * 499 / (2000 * 1999)
    assert big == pytest.approx(-math.expm1(-mu))
    # k ≥ 2m: the exact value is below Gemini's union bound
    gemini = 1000 * math.comb(1998, 6) / math.comb(2000, 8)
    exact = ck.probability_random_failures_destroy_group(2000, 2, 8)
    assert exact == pytest.approx(0.013954, abs=1e-6)
    assert exact < gemini == pytest.approx(0.014007, abs=1e-6)


def test_random_loss_monte_carlo(rng):
    """Monte Carlo: 20,000 draws of k = 8 failed nodes out of N = 100 in pairs; the closed
    form must lie within 4 standard errors."""
    n, m, k, trials = 100, 2, 8, 20_000
    failed = np.argsort(rng.random((trials, n)), axis=1)[:, :k]
    mask = np.zeros((trials, n), bool)
    np.put_along_axis(mask, failed, True, axis=1)
    lost = mask.reshape(trials, n // m, m).all(axis=2).any(axis=1)
    p = ck.probability_random_failures_destroy_group(n, m, k)
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(lost.mean() - p) < 4 * se


def test_block_and_window_hand_values():
    assert ck.probability_block_destroys_group(1, 2) == 0.0
    assert ck.probability_block_destroys_group(2, 2) == 0.5
    assert ck.probability_block_destroys_group(3, 2) == 1.0
    assert ck.probability_block_destroys_group(8, 2) == 1.0
    assert ck.probability_block_destroys_group(4, 3) == pytest.approx(2 / 3)
    # q = 1 − exp(−0.002/1440·10) = 1.3889e-5; two replicas: q; one replica: 1
    q = -math.expm1(-0.002 / 1440 * 10)
    assert ck.probability_replicas_lost_in_window(0.002, 2, 10.0) == pytest.approx(q)
    assert ck.probability_replicas_lost_in_window(0.002, 3, 10.0) == pytest.approx(q * q)
    assert ck.probability_replicas_lost_in_window(0.002, 1, 10.0) == 1.0
    phi = ck.fallback_fraction(2000, 0.002, 2, 10.0, 0.78, 0.084, 8, True)
    assert phi == pytest.approx(0.916 * 0.78 * q + 0.084)
    spread = ck.fallback_fraction(2000, 0.002, 2, 10.0, 0.78, 0.084, 8, False)
    assert spread == pytest.approx(0.916 * 0.78 * q + 0.084 * 0.013954, rel=1e-4)


@settings(max_examples=60, deadline=None)
@given(
    m=st.integers(1, 6),
    b=st.integers(1, 40),
    window=st.floats(0.0, 600.0),
    rate=st.floats(0.0, 0.05),
    adjacent=st.booleans(),
)
def test_more_replicas_never_lower_survival(m, b, window, rate, adjacent):
    n = 720  # divisible by 1..6: whole groups for every replica count
    phi = ck.fallback_fraction(n, rate, [m, m + 1], window, 0.78, 0.1, b, adjacent)
    assert phi[1] <= phi[0] + 1e-12
    assert 0.0 <= phi[1] <= 1.0
    k = min(b, n)
    lo = ck.probability_random_failures_destroy_group(n, [m, m + 1], k)
    assert lo[1] <= lo[0] + 1e-12


def test_vectorised_shapes():
    out = ck.probability_random_failures_destroy_group(
        np.array([[100], [1000]]), np.array([1, 2, 3]), 6
    )
    assert out.shape == (2, 3)
    assert out[0, 1] == pytest.approx(ck.probability_random_failures_destroy_group(100, 2, 6))
    assert isinstance(ck.fallback_fraction(2000, 0.002, 2, 10.0, 0.78, 0.084, 8), float)


# ------------------------------------------------------------------ tier table


def test_default_tiers_load_with_sources():
    tiers = ck.load_tiers()
    assert list(tiers) == list(ck.TIER_NAMES)
    assert all(t.source for t in tiers.values())
    # FSx for Lustre: 1,000 MB/s/TiB × 100 TiB = 100 GB/s (AWS FSx PerUnitStorageThroughput)
    assert tiers["shared_fs"].aggregate_GBps("write") == pytest.approx(100.0)
    assert tiers["object_store"].aggregate_GBps("read") == math.inf
    assert ck.parse_tiers(ck.tiers_to_csv(tiers)) == tiers


def _csv_with(col: str, tier: str, value: str) -> str:
    lines = ck.tiers_to_csv(ck.load_tiers()).splitlines()
    header = lines[0].split(",")
    i = header.index(col)
    out = [lines[0]]
    for line in lines[1:]:
        cells = next(iter(__import__("csv").reader([line])))
        if cells[0] == tier:
            cells[i] = value
        out.append(",".join(f'"{c}"' for c in cells))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("col", "tier", "value", "message"),
    [
        ("write_GBps_per_node", "nvme", "fast", "row 3, column write_GBps_per_node"),
        ("read_GBps_per_node", "memory", "0", "row 2, column read_GBps_per_node"),
        ("fixed_seconds", "shared_fs", "-1", "row 4, column fixed_seconds"),
        ("tier", "object_store", "tape", "row 5, column tier"),
        ("tier", "object_store", "nvme", "row 5, column tier"),
        ("label", "memory", "", "row 2, column label"),
    ],
)
def test_bad_tier_cells_name_row_and_column(col, tier, value, message):
    with pytest.raises(ValidationError, match=message):
        ck.parse_tiers(_csv_with(col, tier, value))


def test_bad_tier_tables():
    good = ck.tiers_to_csv(ck.load_tiers())
    with pytest.raises(ValidationError, match="missing column"):
        ck.parse_tiers(good.replace("fixed_seconds", "fixed"))
    with pytest.raises(ValidationError, match="missing tier row"):
        ck.parse_tiers("\n".join(good.splitlines()[:-1]) + "\n")


# ------------------------------------------------------------------ composition in evaluate


def test_headline_preset_keeps_measured_single_level(headline_baseline, catalog):
    ev = evaluate(headline_baseline, catalog)
    assert ev["goodput"] == pytest.approx(gp.goodput_exact(4.0, 11.0, 40.0, 1.0), rel=1e-12)
    assert ev["save_seconds"] == 60.0
    assert ev["restore_seconds"] == 120.0
    assert ev["rework_minutes_per_failure"] == 20.0
    assert ev["fallback_failures_per_day"] == 0.0
    assert ev["checkpoint_overhead_fraction"] == pytest.approx(1 / 41)


def test_shared_fs_preset_derives_save_and_restore(catalog):
    ev = evaluate(load_preset("aws-16k-h100-sharedfs"), catalog)
    # 5 s fixed + 3.24 GB / (100 GB/s / 2,000 nodes) = 69.8 s, both ways
    assert ev["save_seconds"] == pytest.approx(69.8)
    assert ev["restore_seconds"] == pytest.approx(69.8)
    assert ev["checkpoint_size_TB"] == pytest.approx(6.48)
    r = 3 + 4 + 2 + 69.8 / 60
    assert ev["goodput"] == pytest.approx(gp.goodput_exact(4.0, r, 40.0, 69.8 / 60), rel=1e-12)


def test_memory_plus_durable_goodput_by_hand(headline_baseline, catalog):
    """aws-16k-h100 with in-memory checkpoints (2 adjacent replicas, sync) + shared FS every
    60 min, τ₁ = 5 min: every quantity recomputed from the formulas."""
    s = headline_baseline.replace(
        {
            "checkpoint.strategy": "memory+durable",
            "checkpoint.timings": "tier_model",
            "checkpoint.interval_minutes": 5.0,
        }
    )
    ev = evaluate(s, catalog)
    shard = 3.24
    c1 = (1.0 + shard / 200 + shard / 200) / 60  # snapshot + 1 peer copy (memory row)
    rho1 = (1.0 + shard / 200) / 60
    c2 = (5.0 + 64.8) / 60  # sync shared FS write
    q = -math.expm1(-0.002 / 1440 * 10)
    phi = (1 - 0.084) * 0.78 * q + 0.084  # 8-node block always holds a whole pair
    lam2, lam1 = 4.0 * phi, 4.0 * (1 - phi)
    r1, r2 = 9.0 + rho1, 9.0 + c2
    expect = gp.goodput_exact(lam1, r1, 5.0, c1) * gp.goodput_exact(lam2, r2, 60.0, c2)
    assert ev["save_seconds"] == pytest.approx(c1 * 60)
    assert ev["fallback_fraction"] == pytest.approx(phi)
    assert ev["goodput"] == pytest.approx(expect, rel=1e-12)
    assert ev["rework_minutes_per_failure"] == pytest.approx((1 - phi) * 2.5 + phi * 30.0)
    rows = ev.loss_breakdown()
    assert sum(r["minutes_per_day"] for r in rows) == pytest.approx(
        (1 - ev["goodput"]) * 1440, rel=1e-9
    )
    fb = next(r for r in rows if r["component"] == "fallback_rework")
    assert fb["minutes_per_day"] > 0
    tiers = {r["tier"]: r for r in ev.to_json_dict()["checkpoint_tiers"]}
    assert tiers["memory"]["role"] == "level 1"
    assert tiers["shared_fs"]["role"] == "level 2 (durable)"
    assert tiers["shared_fs"]["interval_minutes"] == 60.0


def test_async_blocks_only_for_the_snapshot(headline_baseline, catalog):
    base = headline_baseline.replace({"checkpoint.timings": "tier_model"})
    sync = evaluate(base, catalog)
    asy = evaluate(base.replace({"checkpoint.save_mode": "async"}), catalog)
    assert asy["save_seconds"] == pytest.approx(1.0 + 3.24 / 200)  # device-to-host only
    # the checkpoint is usable once written: 69.8 − 1.0162 s of staleness on each rework
    assert asy["rework_minutes_per_failure"] == pytest.approx(20.0 + (69.8 - 1.0162) / 60)
    assert asy["goodput"] > sync["goodput"]
    assert asy["optimal_checkpoint_interval_minutes"] >= 69.8 / 60


def test_measured_save_overrides_level_one(headline_baseline, catalog):
    s = headline_baseline.replace({"checkpoint.strategy": "memory+durable"})
    ev = evaluate(s, catalog)
    assert ev["save_seconds"] == 60.0  # the entered value, not the tier model
    assert ev["restore_seconds"] == 120.0
    assert ev["durable_write_seconds"] == pytest.approx(69.8)  # durable from the tiers


def test_replicas_vectorised_in_evaluate_arrays(headline_baseline, catalog):
    s = headline_baseline.replace(
        {
            "checkpoint.strategy": "memory+durable",
            "checkpoint.timings": "tier_model",
            "checkpoint.replica_placement": "spread",
        }
    )
    inputs = resolve_inputs(s, catalog)
    out = evaluate_arrays({**inputs, "checkpoint.memory_replicas": np.array([1, 2, 3])})
    assert np.all(np.diff(out["fallback_fraction"]) <= 0)
    assert np.all(np.diff(out["goodput"]) >= 0)
    one = evaluate(s.replace({"checkpoint.memory_replicas": 3}), catalog)
    assert out["goodput"][2] == pytest.approx(one["goodput"], rel=1e-12)


def test_inputs_without_checkpoint_keys_fall_back_to_defaults(headline_baseline, catalog):
    inputs = resolve_inputs(headline_baseline, catalog)
    bare = {k: v for k, v in inputs.items() if not (k.startswith("tier.") or k.endswith("_code"))}
    assert float(evaluate_arrays(bare)["goodput"]) == pytest.approx(
        float(evaluate_arrays(inputs)["goodput"]), rel=1e-12
    )


def test_json_has_the_issue_outputs(catalog):
    d = evaluate(load_preset("hyperpod-tiered-16k-h100"), catalog).to_json_dict()
    for key in (
        "optimal_checkpoint_interval_minutes",
        "young_interval_minutes",
        "checkpoint_overhead_fraction",
        "rework_minutes_per_failure",
        "save_seconds",
        "restore_seconds",
    ):
        assert isinstance(d[key], float), key
    assert [r["tier"] for r in d["checkpoint_tiers"]] == list(ck.TIER_NAMES)


def test_tier_times_share_their_bandwidths_and_equal_the_transfers():
    """tier_times_seconds computes each per-node bandwidth once: its times are exactly
    those of tier_transfer_seconds (save + peer copies for memory), and the snapshot that
    strategy_levels reports is the memory tier's write alone."""
    rng = np.random.default_rng(1)
    nodes = rng.integers(1, 5000, 200).astype(float)
    shard = 6480.0 / nodes
    for agg in (np.inf, 100.0):
        tier = {
            "write_GBps_per_node": 25.0,
            "read_GBps_per_node": 12.5,
            "aggregate_write_GBps": agg,
            "aggregate_read_GBps": agg * 2,
            "fixed_seconds": 5.0,
        }
        for memory, replicas in ((False, 1.0), (True, 3.0)):
            written, save, restore = ck.tier_times_seconds(
                {**tier, "is_memory": memory}, shard, nodes, replicas
            )
            write = ck.tier_transfer_seconds(shard, nodes, 25.0, agg, 5.0)
            np.testing.assert_array_equal(written, write)
            peers = ck.tier_transfer_seconds(shard, nodes, 12.5, agg * 2, 0.0, replicas - 1.0)
            np.testing.assert_array_equal(save, write + peers if memory else write)
            np.testing.assert_array_equal(
                restore, ck.tier_transfer_seconds(shard, nodes, 12.5, agg * 2, 5.0)
            )
    tiers = {
        name: {p: v for (t, p), v in _split_tier_inputs().items() if t == name}
        for name in ck.TIER_NAMES
    }
    lv = ck.strategy_levels(
        strategy="memory+durable",
        durable_tier="object_store",
        timings="tier_model",
        save_mode="async",
        placement="adjacent",
        nodes=nodes,
        node_failure_rate_per_day=0.002,
        failures_per_day=nodes * 0.002,
        params_billion=405.0,
        bytes_per_param=16.0,
        replicas=2.0,
        rereplication_minutes=10.0,
        node_loss_fraction=0.78,
        correlated_fraction=0.084,
        correlated_nodes=8.0,
        measured_save_seconds=60.0,
        measured_restore_minutes=2.0,
        tiers=tiers,
    )
    mem = tiers["memory"]
    np.testing.assert_array_equal(
        lv["snapshot_seconds"],
        ck.tier_transfer_seconds(
            lv["shard_GB"],
            nodes,
            mem["write_GBps_per_node"],
            mem["aggregate_write_GBps"],
            mem["fixed_seconds"],
        ),
    )


def _split_tier_inputs():
    out = {}
    for key, value in ck.tier_inputs(ck.load_tiers()).items():
        _, name, param = key.split(".")
        if param in ck.TIER_PARAMS:
            out[(name, param)] = value
    return out


def test_domain_events_fall_back_to_the_durable_tier():
    """QA pass 19 #7: on the NVL72 preset with in-memory checkpoints the fallback rate stayed
    0.1839/day whether rack events were 0 or 3.2 a day.  A rack event takes a block of 18
    adjacent nodes and every in-memory copy on them: 64 domains × 0.005/day = 0.32 more
    fallbacks a day; spread replicas keep a copy in another domain (no change); and the
    simulator agrees with the closed form (4 standard errors plus 0.1 points)."""
    import numpy as np
    from goodput_lab.models import evaluate, load_preset, resolve_inputs
    from goodput_lab.models.montecarlo import simulate_inputs

    base = load_preset("p6e-gb200-nvl72").replace(
        {"checkpoint.strategy": "memory+durable", "checkpoint.timings": "tier_model"}
    )
    none = evaluate(base.replace({"reliability.domain_failure_rate_per_day": 0.0}))
    racks = base.replace({"reliability.domain_failure_rate_per_day": 0.005})
    ev = evaluate(racks)
    assert ev["domain_failures_per_day"] == pytest.approx(64 * 0.005)
    assert ev["fallback_failures_per_day"] == pytest.approx(
        none["fallback_failures_per_day"] + 64 * 0.005, rel=1e-9
    )
    assert ev["fallback_fraction"] == none["fallback_fraction"]  # node failures' share
    spread = evaluate(racks.replace({"checkpoint.replica_placement": "spread"}))
    assert spread["fallback_failures_per_day"] == pytest.approx(
        evaluate(
            base.replace(
                {
                    "reliability.domain_failure_rate_per_day": 0.0,
                    "checkpoint.replica_placement": "spread",
                }
            )
        )["fallback_failures_per_day"],
        rel=1e-9,
    )
    res = simulate_inputs(resolve_inputs(racks), 600, 30.0, rng=np.random.default_rng(2))
    assert abs(res.goodput_mean - ev["goodput"]) <= 4 * res.goodput_stderr + 0.001
