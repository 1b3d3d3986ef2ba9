"""goodput_lab.models.resilience / failure_modes / recovery: the resilience ladder.

Hand-computed rungs (Daly's formula with the feature's mechanism written out), the ladder's
bookkeeping (every rung is a scenario; savings add up to the cent), the corrupt-checkpoint
case of Megatron-LM issue 5281, cause shares from the Llama 3 table, stage distributions,
and Monte Carlo vs analytic per rung within the stated tolerance.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from goodput_lab.models import ValidationError, evaluate, load_preset, resolve_inputs
from goodput_lab.models import goodput as gp
from goodput_lab.models.failure_modes import (
    FailureModes,
    lemon_rate_factor,
    lemon_share_from_fit,
)
from goodput_lab.models.montecarlo import simulate_inputs
from goodput_lab.models.outputs import LOSS_COMPONENTS, OUTPUTS
from goodput_lab.models.recovery import draw_stage, expected_detection_minutes, stage_cv
from goodput_lab.models.resilience import (
    FEATURES,
    MC_BIAS,
    apply_feature,
    ladder,
    montecarlo_tolerance,
    parse_features,
    parse_params,
)

BASE = "aws-16k-h100"
LAMBDA = 4.0  # 2,000 nodes x 0.2% per node-day


@pytest.fixture(scope="module")
def base():
    return load_preset(BASE)


@pytest.fixture(scope="module")
def recommended(base, catalog):
    return ladder(base, catalog=catalog)


# --------------------------------------------------------------------------- causes
def test_llama3_failure_modes_shares_are_hand_counted():
    """Counts from arXiv:2407.21783 Table 5 with our modes (data/failure_modes.csv):
    hangs = switch/cable 35 + GPU system processor 17 + NIC 7 + NCCL watchdog 7 = 66 of the
    413 non-silent; in process = software 54 + switch/cable 35 + NCCL 7 + dependency 2 = 98;
    silent = 6 of 419; multi-node = switch/cable 35."""
    m = FailureModes.llama3()
    assert m.total == 419
    assert m.hang_fraction == pytest.approx(66 / 413)
    assert m.in_process_fraction == pytest.approx(98 / 413)
    assert m.sdc_fraction == pytest.approx(6 / 419)
    assert m.peer_fraction == pytest.approx((413 - 35) / 413)
    assert m.correlated_fraction == pytest.approx(35 / 419)
    # the scenario's own node-loss share (0.78, Llama 3's "~78% hardware") is close to ours
    assert m.node_loss_fraction == pytest.approx(321 / 419)
    assert abs(m.node_loss_fraction - 0.78) < 0.02
    w = m.weights(lambda c: c.in_process)
    assert sum(w.values()) == pytest.approx(1.0)
    assert w["software_bug"] == pytest.approx(54 / 98)


def test_failure_modes_from_a_fitted_log_and_its_lemon_nodes():
    from goodput_lab.models._resources import data_path
    from goodput_lab.models.failure_log import parse_failure_log
    from goodput_lab.models.fitting import fit_failure_log

    fit = fit_failure_log(
        parse_failure_log(data_path("failure_logs", "synthetic-sample.csv").read_bytes())
    )
    m = FailureModes.from_fit(fit, "synthetic")
    assert m.total == sum(r["failures"] for r in fit.causes if r["category"] != "unmapped")
    lemon_failures, lemon_nodes = lemon_share_from_fit(fit)
    # the two planted lemons (node-0129: 29, node-0387: 18 failures) of 797, 474 nodes
    assert lemon_failures == pytest.approx(47 / 797)
    assert lemon_nodes == pytest.approx(2 / 474)
    assert lemon_rate_factor(lemon_failures, lemon_nodes) == pytest.approx(
        (1 - 47 / 797) / (1 - 2 / 474)
    )
    with pytest.raises(ValidationError, match="lemon share"):
        lemon_rate_factor(1.2, 0.0)


# --------------------------------------------------------------------------- stages
def test_expected_detection_mixes_crashes_and_hangs():
    assert expected_detection_minutes(3.0, 10.0, 0.0) == 3.0
    assert expected_detection_minutes(3.0, 10.0, 0.25) == pytest.approx(0.75 * 3 + 0.25 * 10)
    np.testing.assert_allclose(
        expected_detection_minutes(np.array([1.0, 2.0]), 10.0, 0.5), [5.5, 6.0]
    )


@pytest.mark.parametrize("dist", ["fixed", "lognormal", "gamma", "exponential", "uniform"])
def test_stage_draws_keep_the_mean_and_have_the_stated_spread(dist):
    """200,000 draws: mean within 4 s.e. of 2.0 min; CV within 3% of stage_cv."""
    rng = np.random.default_rng(3)
    x = draw_stage(rng, dist, 2.0, 0.3, 200_000)
    cv = stage_cv(dist, 0.3)
    se = 2.0 * cv / math.sqrt(x.size)
    assert abs(x.mean() - 2.0) <= 4 * se + 1e-12
    assert np.std(x) / np.mean(x) == pytest.approx(cv, abs=0.03 * max(cv, 0.01))
    assert (x >= 0).all()


def test_hang_detection_in_the_chain_and_the_timeline(base):
    s = base.replace({"recovery.hang_fraction": 1.0, "simulation.recovery_spread": 0.0})
    ev = evaluate(s)
    assert ev["detection_minutes_expected"] == 10.0  # the 10 min NCCL timeout
    assert ev["recovery_minutes_per_failure"] == pytest.approx(10 + 4 + 2 + 2)
    res = simulate_inputs(resolve_inputs(s), 3, 10.0, rng=1)
    tl = res.timeline
    gaps = [
        t2 - t1
        for (e1, t1), (e2, t2) in itertools.pairwise(tl)
        if e1 in ("failure", "correlated_failure") and e2 == "detected"
    ]
    assert len(gaps) > 10 and np.allclose(gaps, 10.0)


def test_warmup_is_the_fifth_stage(base):
    s = base.replace({"recovery.warmup_minutes": 3.0, "simulation.recovery_spread": 0.0})
    ev = evaluate(s)
    assert ev["recovery_minutes_per_failure"] == pytest.approx(3 + 4 + 2 + 2 + 3)
    assert ev["loss_warmup_minutes_per_day"] > 0
    res = simulate_inputs(resolve_inputs(s), 2, 5.0, rng=2)
    names = [e for e, _ in res.timeline]
    i = names.index("restored")
    assert names[i + 1] == "warmed_up"
    assert res.timeline[i + 1][1] - res.timeline[i][1] == pytest.approx(3.0)


def test_default_monte_carlo_draws_are_unchanged(base):
    """Seeded results of the simulator before the resilience features (same seed, same
    figure to the last bit): the new draws come from a separate stream.  Recorded again when
    repairs came to run side by side (a failure during a recovery waits out the repair under
    way): 0.89837361898209 -> 0.8983720789256339 and, with spares, 0.9036190255026665 ->
    0.9036111411492272; the failure count is the same."""
    res = simulate_inputs(resolve_inputs(base), 60, 5.0, rng=7)
    assert float(res.goodput.mean()) == 0.8983720789256339
    assert int(res.failures.sum()) == 1282
    spares = simulate_inputs(
        resolve_inputs(base.replace({"cluster.spare_nodes": 5})), 60, 5.0, rng=7
    )
    assert float(spares.goodput.mean()) == 0.9036111411492272


def test_new_loss_components_are_registered_and_zero_by_default(base):
    ev = evaluate(base)
    for name in (
        "warmup",
        "corrupt_checkpoint",
        "sdc_rollback",
        "straggler",
        "resilience_overhead",
    ):
        assert name in LOSS_COMPONENTS
        assert ev[f"loss_{name}_minutes_per_day"] == 0.0
    total = sum(ev[f"loss_{n}_minutes_per_day"] for n in LOSS_COMPONENTS)
    assert total == pytest.approx(ev["lost_minutes_per_day"])


# --------------------------------------------------------------------------- corrupt checkpoints
def test_corrupt_checkpoint_costs_one_fallback_with_validation_and_the_loop_without(base):
    """Megatron-LM issue 5281: a corrupt local checkpoint restarted 44 times, ~90 s each.

    Durable-only, τ = 40 min, δ = 1 min, restore 2 min.  One fallback = restore the previous
    checkpoint (2 min + 10 s validation) + one more interval of work with its save (41 min):
    F = 43.17 min.  Without validation the job first loops 44 × 1.5 = 66 min: X = 66 + 43.
    """
    pi = 0.02
    val = evaluate(
        base.replace(
            {
                "checkpoint.corrupt_fraction": pi,
                "checkpoint.validation": "fallback",
                "checkpoint.validation_seconds": 10.0,
            }
        )
    )
    f = 2.0 + 10 / 60 + 40.0 + 1.0
    assert val["checkpoint_fallback_minutes"] == pytest.approx(f)
    assert val["corrupt_checkpoint_minutes_per_event"] == pytest.approx(f)  # one fallback
    loop = evaluate(base.replace({"checkpoint.corrupt_fraction": pi}))
    assert loop["corrupt_checkpoint_minutes_per_event"] == pytest.approx(44 * 1.5 + 43.0)
    # per corrupt event (λ·π a day) the loss component is X, to the exact/first-order scale
    for ev, x in ((val, f), (loop, 109.0)):
        per_event = ev["loss_corrupt_checkpoint_minutes_per_day"] / (LAMBDA * pi)
        assert per_event == pytest.approx(x, rel=0.06)
    assert loop["goodput"] < val["goodput"] < evaluate(base)["goodput"]
    # two-level: the fallback is to the durable tier, extra rework t₂/2 − τ/2 + staleness
    two = base.replace(
        {
            "checkpoint.strategy": "memory+durable",
            "checkpoint.timings": "tier_model",
            "checkpoint.corrupt_fraction": pi,
            "checkpoint.validation": "fallback",
        }
    )
    e2 = evaluate(two)
    tau = e2["checkpoint_interval_minutes"]
    extra = 60 / 2 + 0 - tau / 2 - 0  # sync saves: no staleness
    expected = e2["durable_restore_seconds"] / 60 + extra * (1 + e2["save_seconds"] / 60 / tau)
    assert e2["checkpoint_fallback_minutes"] == pytest.approx(expected)


@pytest.mark.parametrize("validation", ["none", "fallback"])
def test_corrupt_checkpoint_monte_carlo_matches_the_analytic_loss(base, validation):
    """MC mean goodput within 4 s.e. + 0.002 of the analytic value: the restart loop and the
    fallback are simulated, not only priced (their analytic cost exceeds the tolerance, so a
    simulator that ignored them would fail here)."""
    s = base.replace({"checkpoint.corrupt_fraction": 0.05, "checkpoint.validation": validation})
    g = evaluate(s)["goodput"]
    res = simulate_inputs(resolve_inputs(s), 800, 30.0, rng=4, record_timeline=False)
    assert abs(res.goodput_mean - g) <= 4 * res.goodput_stderr + 0.002
    assert g < evaluate(base)["goodput"] - 0.004


# --------------------------------------------------------------------------- hand-computed rungs
def test_in_process_rung_is_daly_with_the_in_process_share(base, catalog):
    lad = ladder(base, ["in_process_restart"], catalog=catalog)
    p = 98 / 413
    r = 3 + (1 - p) * 4 + ((1 - p) * 2 + p * 1.0) + 2
    g = gp.goodput_exact(LAMBDA, r, 40.0, 1.0)
    assert lad.rungs[1].goodput == pytest.approx(g, rel=1e-12)
    assert lad.rungs[1].delta_usd_per_day == pytest.approx(
        (g - evaluate(base)["goodput"]) * 2000 * 98.32 * 24
    )


def test_checkpointless_rung_is_hand_computed(base, catalog):
    """Peers restore a share q = 378/413 at the previous step (no rework): Daly for the rest
    at their own optimal interval, e^{−λ_P·R_P} for the peers, 1% replication overhead."""
    lad = ladder(base, ["checkpointless"], catalog=catalog)
    q = 378 / 413
    lam1 = (1 - q) * LAMBDA
    tau = gp.exact_optimal_interval_minutes(1.0, 1440 / lam1)
    g = (
        gp.goodput_exact(lam1, 11.0, tau, 1.0)
        * math.exp(-q * LAMBDA * (9.0 + 0.5) / 1440)
        * (1 - 0.01)
    )
    assert lad.rungs[1].goodput == pytest.approx(g, rel=1e-12)


def test_hot_spares_rung_buys_the_recommended_count(base, catalog):
    from goodput_lab.models.optimize import recommend_spares

    best = recommend_spares(resolve_inputs(base, catalog)).spares
    lad = ladder(base, ["hot_spares"], catalog=catalog)
    rung = lad.rungs[1]
    assert rung.scenario["cluster.spare_nodes"] == max(best, 1)
    # its cost is in the rung: the spares are paid
    assert rung.metrics["spare_usd_per_day"] == pytest.approx(max(best, 1) * 98.32 * 24)
    fixed = ladder(base, ["hot_spares"], params={"hot_spares.spares": 3}, catalog=catalog)
    assert fixed.rungs[1].scenario["cluster.spare_nodes"] == 3


def test_features_never_slow_a_stage_and_touch_only_their_mechanism(base, catalog):
    from goodput_lab.models.failure_modes import FailureModes
    from goodput_lab.models.resilience import Context

    ctx = Context(modes=FailureModes.llama3(), catalog=catalog)
    fast = base.replace({"recovery.detection_minutes": 0.5})
    s, _ = apply_feature(fast, "auto_recovery", ctx)
    assert s["recovery.detection_minutes"] == 0.5  # already faster than the feature
    assert s["recovery.hang_detection_minutes"] == 5.0
    s, _ = apply_feature(base, "async_saves", ctx)
    assert s["checkpoint.save_mode"] == "async"
    assert 0 < s["checkpoint.save_seconds"] < 60.0  # the device-to-host snapshot
    s, _ = apply_feature(base, "memory_checkpoints", ctx)
    assert (s["checkpoint.strategy"], s["checkpoint.durable_interval_minutes"]) == (
        "memory+durable",
        40.0,
    )
    changed = {k for k in s.values if s[k] != base[k]}
    assert changed <= {
        "checkpoint.strategy",
        "checkpoint.timings",
        "checkpoint.interval_minutes",
        "checkpoint.durable_interval_minutes",
        "checkpoint.memory_replicas",
    }


# --------------------------------------------------------------------------- the ladder
def test_ladder_on_aws_16k_h100_adds_up_to_the_cent_and_each_rung_is_a_scenario(
    base, recommended, catalog
):
    rungs = recommended.rungs
    assert rungs[0].feature == "baseline"
    # failures and checkpoints $503,134.92 + the shared file system $2,856.97 (storage priced)
    assert rungs[0].lost_usd_per_day == pytest.approx(505_991.89, abs=0.01)
    assert len(rungs) - 1 == len(FEATURES) >= 6
    assert len(recommended.recommended_features) >= 6  # six features that each pay here
    total = sum(r.delta_usd_per_day for r in rungs[1:])
    assert total == pytest.approx(rungs[0].lost_usd_per_day - rungs[-1].lost_usd_per_day, abs=0.005)
    assert sum(r.delta_goodput_points for r in rungs[1:]) == pytest.approx(
        100 * (rungs[-1].goodput - rungs[0].goodput), abs=1e-9
    )
    for prev, r in itertools.pairwise(rungs):
        ev = evaluate(r.scenario, catalog)  # the rung IS a scenario
        assert ev["lost_usd_per_day"] == pytest.approx(r.lost_usd_per_day, abs=1e-6)
        assert ev["goodput"] == pytest.approx(r.goodput, abs=1e-12)
        assert r.delta_usd_per_day == pytest.approx(prev.lost_usd_per_day - r.lost_usd_per_day)
        # and `goodput evaluate aws-16k-h100 --set ...` with the rung's settings gives it too
        again = evaluate(base.with_overrides(r.set_arguments(base)), catalog)
        assert again["lost_usd_per_day"] == pytest.approx(r.lost_usd_per_day, rel=1e-12)
        # the savings by cause and by other loss add up to the rung's saving
        parts = sum(row["saving_usd_per_day"] for row in r.savings_by_cause)
        assert parts == pytest.approx(r.delta_usd_per_day, abs=0.01)


def test_recommended_order_is_greedy_best_next(base, recommended, catalog):
    from goodput_lab.models.failure_modes import FailureModes
    from goodput_lab.models.resilience import Context

    ctx = Context(modes=FailureModes.llama3(), catalog=catalog)
    for i in range(2):
        cur = recommended.rungs[i]
        chosen = recommended.rungs[i + 1]
        for key in [r.feature for r in recommended.rungs[i + 1 :]]:
            other, _ = apply_feature(cur.scenario, key, ctx)
            assert evaluate(other, catalog)["lost_usd_per_day"] >= chosen.lost_usd_per_day - 1e-6


def test_savings_come_from_the_causes_a_feature_acts_on(base, catalog):
    lad = ladder(base, ["in_process_restart", "hot_spares"], catalog=catalog)
    cats = {r["category"] for r in lad.rungs[1].savings_by_cause}
    assert {"software_bug", "nccl_watchdog", "network_switch_cable", "dependency"} <= cats
    assert "faulty_gpu" not in cats  # a GPU fault needs a new node, not an in-process restart
    spare_rows = [r for r in lad.rungs[2].savings_by_cause if r["category"] == "spares"]
    assert spare_rows[0]["saving_usd_per_day"] < 0  # the spares' price


def test_bad_feature_names_and_parameters_name_the_flag():
    with pytest.raises(ValidationError, match="--features.*'nope' is not a feature"):
        parse_features("hot_spares,nope")
    with pytest.raises(ValidationError, match="more than once"):
        parse_features("elastic,elastic")
    with pytest.raises(ValidationError, match="--features"):
        parse_features(" , ")
    with pytest.raises(ValidationError, match="--param"):
        parse_params(["hot_spares.nope=3"])
    with pytest.raises(ValidationError, match=r"not allowed .a whole number in \[0, 100000\]"):
        parse_params(["hot_spares.spares=-1"])
    assert parse_params(["elastic.reconfigure_minutes=2"]) == {"elastic.reconfigure_minutes": 2.0}


def test_ladder_json_keys_are_registered(base, catalog):
    out = ladder(base, ["hot_spares"], trials=20, days=2.0, catalog=catalog).to_json_dict()
    numeric = {k for r in out["rungs"] for k, v in r.items() if isinstance(v, float | bool)}
    numeric |= {k for k, v in out.items() if isinstance(v, float)} - {"days"}
    assert numeric <= set(OUTPUTS), numeric - set(OUTPUTS)


# --------------------------------------------------------------------------- Monte Carlo
def test_montecarlo_per_rung_within_the_stated_tolerance(base, catalog):
    """Each rung simulated (800 runs x 30 days, one seed for all rungs): |mean − analytic|
    ≤ 4 s.e. + 0.001 (docs/resilience.md).  The tolerance is tight enough to matter: it is
    far below the rungs' own gains, and the simulated gain of each big rung matches the
    analytic one within the two rungs' tolerances."""
    lad = ladder(base, trials=800, days=30.0, seed=1, catalog=catalog)
    assert MC_BIAS == 0.001
    for r in lad.rungs:
        mc = r.montecarlo
        tol = montecarlo_tolerance(mc["goodput_mc_stderr"])
        assert abs(mc["goodput_mc_mean"] - r.goodput) <= tol, r.feature
        assert mc["montecarlo_within_tolerance"]
        assert mc["goodput_p5"] < mc["goodput_mc_mean"] < mc["goodput_p95"]
        assert mc["lost_usd_per_day_p5"] < r.lost_usd_per_day < mc["lost_usd_per_day_p95"]
    for prev, r in itertools.pairwise(lad.rungs):
        tol = montecarlo_tolerance(prev.montecarlo["goodput_mc_stderr"]) + montecarlo_tolerance(
            r.montecarlo["goodput_mc_stderr"]
        )
        if abs(r.delta_goodput_points) / 100 > 3 * tol:
            mc_delta = r.montecarlo["goodput_mc_mean"] - prev.montecarlo["goodput_mc_mean"]
            assert mc_delta == pytest.approx(r.delta_goodput_points / 100, abs=tol)
    big = max(abs(r.delta_goodput_points) for r in lad.rungs[1:]) / 100
    assert montecarlo_tolerance(lad.rungs[0].montecarlo["goodput_mc_stderr"]) < big / 10


def test_llama3_70b_monte_carlo_band_counts_storage_and_saved_counts_recommended_rungs(catalog):
    """Issue 26: the ladder's Monte Carlo band left out storage ($2,857/day of FSx on
    llama3-70b, so the band sat below the analytic lost per day), and "Saved by the ladder"
    added rungs the page says are not worth adopting ($781/day shown vs $4,456/day from
    the recommended rungs)."""
    s = load_preset("llama3-70b")
    lad = ladder(s, ["hot_spares"], trials=300, days=30.0, seed=1, catalog=catalog)
    for r in lad.rungs:
        assert r.metrics["storage_usd_per_day"] > 2_800
        mc = r.montecarlo
        assert mc["lost_usd_per_day_p5"] < r.lost_usd_per_day < mc["lost_usd_per_day_p95"]
    rec = ladder(s, catalog=catalog)
    k = len(rec.recommended_features)
    assert 0 < k < len(rec.rungs) - 1  # some rungs cost more than they save here
    assert rec.recommended_delta_usd_per_day == pytest.approx(
        rec.rungs[0].lost_usd_per_day - rec.rungs[k].lost_usd_per_day
    )
    assert rec.recommended_delta_usd_per_day == pytest.approx(4_456, abs=1)
    assert rec.total_delta_usd_per_day == pytest.approx(781, abs=1)


def test_a_rungs_changes_start_from_the_values_in_force():
    """QA pass 17: the in-memory rung listed checkpoint.durable_interval_minutes 60 -> 40,
    but a durable-only scenario already checkpoints durably every 40 min (its interval):
    the field's 60 was never read, and nothing changed."""
    from goodput_lab.models.resilience import ladder

    s = load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.001})
    rung = next(
        r for r in ladder(s, features=["memory_checkpoints"]).rungs if r.feature != "baseline"
    )
    keys = {k: (b, a) for k, b, a in rung.changes}
    assert "checkpoint.durable_interval_minutes" not in keys
    assert keys["checkpoint.strategy"] == ("durable_only", "memory+durable")
    assert rung.scenario["checkpoint.durable_interval_minutes"] == 40.0  # as --set reproduces


@pytest.mark.parametrize(
    ("updates", "label"),
    [
        (
            {"cluster.spare_domains": 2},
            "Spares by scale-up domain ({n} whole domains instead of 2)",
        ),
        (
            {"cluster.spare_nodes_per_domain": 1},
            "Spares by scale-up domain ({n} whole domains instead of 1 per domain)",
        ),
        ({}, "Spares by scale-up domain"),
    ],
)
def test_spares_rung_says_what_it_puts_instead_of_the_scenarios_own(catalog, updates, label):
    """On a scenario that already has spares by domain the rung replaces them; its name
    (the table's, and "worth adopting") says so instead of reading as if there were none
    (closing note of session 22)."""
    lad = ladder(
        load_preset("p6e-gb200-nvl72").replace(updates),
        features=["domain_spares"],
        catalog=catalog,
    )
    n = int(lad.rungs[1].scenario["cluster.spare_domains"])
    assert lad.rungs[1].label == label.format(n=n)
    assert n >= 3  # the cheaper policy here: whole spare domains, more than given
