"""Failure domains (docs/references.md#failure-domains): domain, switch and job-level
failure classes, in-domain spares and spare domains, in the chain and the Monte Carlo.

Monte Carlo tolerance: 4 standard errors + 0.001 of goodput (the resilience ladder's
tolerance), at a fixed seed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import evaluate_arrays, resolve_inputs
from goodput_lab.models import reliability as rel
from goodput_lab.models.chain import domain_layout
from goodput_lab.models.montecarlo import params_from_inputs, simulate_inputs
from goodput_lab.models.scenario import load_preset

PRESET = "p6e-gb200-nvl72"


@pytest.fixture(scope="module")
def base():
    return resolve_inputs(load_preset(PRESET))


def _eval(x, **updates):
    return evaluate_arrays({**x, **updates})


# --------------------------------------------------------------------------- building blocks
def test_erlang_b_hand_values():
    # B(1, a) = a / (1 + a); B(2, 1) = (1/2) / (1 + 1 + 1/2) = 0.2
    assert rel.erlang_b(1, 3.0) == pytest.approx(0.75)
    assert rel.erlang_b(2, 1.0) == pytest.approx(0.2)
    assert rel.erlang_b(0, 5.0) == 1.0
    got = rel.erlang_b(np.array([0, 1, 2]), np.array([1.0, 1.0, 1.0]))
    np.testing.assert_allclose(got, [1.0, 0.5, 0.2])


def test_overlapping_repairs_hand_value():
    # 0.9 · 2 min + 0.1 · 480 min; arrays broadcast row by row
    assert rel.overlapping_repairs_minutes([0.9, 0.1], [2.0, 480.0]) == pytest.approx(49.8)
    got = rel.overlapping_repairs_minutes([np.array([1.0, 0.5]), np.array([0.0, 0.5])], [42.0, 0.0])
    np.testing.assert_allclose(got, [42.0, 21.0])


def _busy_period_minutes(weights, repairs, per_day, before, after, spread, n, seed):
    """Mean recovery [min] by direct simulation of the rule itself: failures at rate
    ``per_day`` during a recovery; each waits ``before`` + its class's repair (lognormal
    with CV ``spread``) side by side with the repairs under way, then ``after``; the job
    runs again once a relaunch completes without a failure."""
    rng = np.random.default_rng(seed)
    rate = per_day / 1440.0
    s2 = math.log1p(spread**2)

    def pending(k):
        r = np.asarray(repairs)[rng.choice(len(weights), size=k, p=weights)]
        return before + r * rng.lognormal(-s2 / 2.0, math.sqrt(s2), k) if spread else before + r

    t, repairs_end, out = np.zeros(n), pending(n), np.zeros(n)
    live = np.arange(n)
    while live.size:
        nxt = t[live] + rng.exponential(1.0 / rate, live.size)
        end = repairs_end[live] + after
        up = nxt >= end
        out[live[up]] = end[up]
        live, nxt = live[~up], nxt[~up]
        repairs_end[live] = np.maximum(repairs_end[live], nxt + pending(live.size))
        t[live] = nxt
    return out.mean(), out.std() / math.sqrt(n)


@pytest.mark.parametrize(
    ("weights", "repairs", "per_day", "spread"),
    [([0.9, 0.1], [2.0, 480.0], 30.0, 0.0), ([0.7, 0.2, 0.1], [10.0, 30.0, 480.0], 8.0, 0.8)],
)
def test_overlapping_repairs_are_daly_at_the_mean_monte_carlo(weights, repairs, per_day, spread):
    """Repairs side by side make a recovery the busy period of an M/G/∞ queue, whose mean
    (e^{λ·E[L]} − 1)/λ depends on the mean L = D + R + A alone: Daly's recovery term at
    the weighted mean repair, whatever the spread.  Tolerance: 4 standard errors."""
    before, after = 5.0, 20.0
    got, se = _busy_period_minutes(weights, repairs, per_day, before, after, spread, 200_000, 3)
    rate = per_day / 1440.0
    mean_l = before + rel.overlapping_repairs_minutes(weights, repairs) + after
    want = math.expm1(rate * mean_l) / rate
    assert abs(got - want) <= 4.0 * se, (got, want, se)
    # the rule this replaced, a fresh class per restart, is far below (by Jensen)
    fresh = (
        1.0
        / sum(
            w * math.exp(-rate * (before + r + after))
            for w, r in zip(weights, repairs, strict=True)
        )
        - 1.0
    ) / rate
    assert want - fresh > 20.0 * se


def test_gb200_layout_is_derived_from_the_catalog(base):
    lay = domain_layout(base)
    assert float(lay.nodes_per_domain) == 18.0  # 72 GPUs / 4 per node
    assert float(lay.domains) == 64.0  # 1,152 nodes
    spared = domain_layout({**base, "cluster.spare_nodes_per_domain": 2})
    assert float(spared.job_nodes_per_domain) == 16.0
    assert float(spared.domains) == 72.0  # ceil(1152 / 16)
    assert float(spared.spare_nodes_total) == 144.0
    # overridable
    assert float(domain_layout({**base, "cluster.nodes_per_domain": 9}).domains) == 128.0


def test_domain_rate_scales_with_domains(base):
    e = _eval(base)
    assert float(e["domain_failures_per_day"]) == pytest.approx(64 * 0.005)
    assert float(e["failures_per_day"]) == pytest.approx(1152 * 0.0019 + 64 * 0.005)


# --------------------------------------------------------------------------- acceptance
def test_domain_event_costs_more_than_node_event(base):
    """The same failure rate (1 per day) as node failures or as domain events: a domain
    event waits for its domain's repair (no spare domain), a node failure for a tray."""
    quiet = {"reliability.node_failure_rate_per_day": 0.0}
    no_domain = {"reliability.domain_failure_rate_per_day": 0.0}
    node = _eval(base, **no_domain, **{"reliability.node_failure_rate_per_day": 1.0 / 1152})
    dom = _eval(base, **quiet, **{"reliability.domain_failure_rate_per_day": 1.0 / 64})
    assert float(node["failures_per_day"]) == pytest.approx(float(dom["failures_per_day"]))
    assert float(dom["minutes_lost_per_failure"]) > float(node["minutes_lost_per_failure"]) + 60
    assert float(dom["goodput"]) < float(node["goodput"]) - 0.01
    assert float(dom["nodes_idled_per_failure"]) == 18.0


def test_in_domain_spares_change_the_step_and_the_replacement(base):
    plain = _eval(base)
    spared = _eval(base, **{"cluster.spare_nodes_per_domain": 2})
    # the job has 64 of the 72 GPUs of each NVLink domain: the step model sees it
    assert float(spared["step_seconds"]) != float(plain["step_seconds"])
    # a tray swap instead of a technician's replacement for almost every node failure
    assert float(spared["probability_no_domain_spare"]) < 0.01
    assert float(spared["nodes_idled_per_failure"]) < float(plain["nodes_idled_per_failure"])
    assert float(spared["goodput"]) > float(plain["goodput"])
    assert float(spared["spare_usd_per_day"]) == pytest.approx(144 * 42.0 * 24)


def test_nodes_idled_counts_the_jobs_nodes_not_the_in_domain_spares(base):
    """QA 26 #12: with 17 of 18 nodes of each domain spare the job holds one node per
    domain, so a domain event idles 1 job node (not 18), and a node failure, which almost
    always finds an in-domain spare, 1; before, 13.3 nodes."""
    e = _eval(base, **{"cluster.spare_nodes_per_domain": 17})
    assert float(e["scaleup_domains"]) == 1152.0
    assert float(e["nodes_idled_per_failure"]) == pytest.approx(1.0, abs=1e-12)
    # 16 job nodes of 18: a domain event idles 16; a switch behind 36 nodes (two
    # domains) idles the job's 32 of them
    two = {"cluster.spare_nodes_per_domain": 2, "reliability.node_failure_rate_per_day": 0.0}
    dom = _eval(base, **two)
    assert float(dom["nodes_idled_per_failure"]) == pytest.approx(16.0)
    switch = _eval(
        base,
        **two,
        **{
            "reliability.domain_failure_rate_per_day": 0.0,
            "reliability.switch_failure_rate_per_day": 0.01,
            "cluster.nodes_per_switch": 36,
        },
    )
    assert float(switch["switch_failures_per_day"]) == pytest.approx(36 * 0.01)
    assert float(switch["nodes_idled_per_failure"]) == pytest.approx(32.0)


def test_without_domain_classes_the_chain_is_as_before(base):
    """All failure-domain inputs 0: replacement per failure is the node path of before."""
    e = _eval(base, **{"reliability.domain_failure_rate_per_day": 0.0})
    assert float(e["replacement_minutes_per_failure"]) == pytest.approx(30.0)
    assert float(e["failures_per_day"]) == pytest.approx(1152 * 0.0019)


@pytest.mark.parametrize("spares", [0, 2])
def test_montecarlo_matches_analytic_with_domain_events(base, spares):
    x = {**base, "cluster.spare_nodes_per_domain": spares}
    analytic = float(_eval(x)["goodput"])
    r = simulate_inputs(x, trials=3000, days=30.0, rng=20261204)
    tol = 4.0 * r.goodput_stderr + 0.001
    assert abs(r.goodput_mean - analytic) <= tol, (r.goodput_mean, analytic, tol)
    # the tolerance is tight enough to see the domain events (~3 points of goodput)
    assert tol < 0.01


def test_montecarlo_matches_analytic_with_switch_and_job_classes(base):
    x = {
        **base,
        "reliability.job_interruptions_per_day": 2.0,
        "reliability.switch_failure_rate_per_day": 0.01,
        "cluster.spare_domains": 1,
    }
    p = params_from_inputs(x)
    assert p.job_rate_per_min == pytest.approx(2.0 / 1440)
    assert p.spare_domains == 1 and p.domains == 64
    analytic = float(_eval(x)["goodput"])
    r = simulate_inputs(x, trials=3000, days=30.0, rng=7)
    assert abs(r.goodput_mean - analytic) <= 4.0 * r.goodput_stderr + 0.001


def _node_replacement_by_hand(x):
    """A node replaced whole: a free in-domain spare (Erlang loss B_in over its domain's
    failed and reclaimed nodes), else a spare domain (B_D), else the expected replacement
    p·t_replace + (1 − p)·t_swap of the hot-spare pool."""
    from goodput_lab.models.chain import failure_process

    f, lay = failure_process(x), domain_layout(x)
    swap = x["recovery.hot_spare_swap_minutes"]
    load = (float(f.node_failures_per_day) + float(f.spot_interruptions_per_day)) / float(
        lay.domains
    )
    b_in = float(
        rel.erlang_b(x["cluster.spare_nodes_per_domain"], load * x["reliability.repair_hours"] / 24)
    )
    assert b_in == pytest.approx(float(f.probability_no_domain_spare))
    b_dom = float(f.probability_no_spare_domain)
    repl = float(f.replacement_minutes_expected)
    return f, (1 - b_in) * swap + b_in * ((1 - b_dom) * swap + b_dom * repl)


def test_silent_corruption_takes_the_in_domain_spares_as_the_montecarlo_does(base):
    """A node replaced for silent data corruption takes a free in-domain spare (QA lead of
    session 22: the chain sent it down the hot-spare path, the Monte Carlo through the
    domain's spares).  With 2 spares a domain, a 2 min swap and 120 min replacements the
    chain read 0.5422 against the Monte Carlo's 0.5607 ± 0.0012; now they agree within
    4 standard errors + 0.001."""
    x = {
        **base,
        "reliability.sdc_fraction": 0.2,
        "recovery.replacement_minutes": 120.0,
        "cluster.spare_nodes_per_domain": 2,
    }
    f, by_hand = _node_replacement_by_hand(x)
    assert float(f.node_replacement_minutes) == pytest.approx(by_hand)
    assert float(f.node_replacement_minutes) < 2.1  # the 2 min swap, nearly always
    assert float(f.sdc_recovery_minutes) == pytest.approx(
        by_hand + float(f.restart_minutes) + float(f.warmup_minutes)
    )
    analytic = float(_eval(x)["goodput"])
    r = simulate_inputs(x, trials=3000, days=30.0, rng=20261206)
    assert abs(r.goodput_mean - analytic) <= 4.0 * r.goodput_stderr + 0.001, (
        r.goodput_mean,
        analytic,
    )


def test_spot_reclaims_take_the_in_domain_spares(base):
    """A Spot reclaim saved in its notice pauses the job for a swap when its domain has a
    free spare, and reclaimed nodes load the domain's spares as failed nodes do.  With 2
    spares a domain and 120 min replacements the chain read 0.4976 against the Monte
    Carlo's 0.7956 (it paid the 120 min on every reclaim); now it is within a point."""
    x = {
        **base,
        "pricing.model": "spot",
        "recovery.replacement_minutes": 120.0,
        "cluster.spare_nodes_per_domain": 2,
    }
    f, by_hand = _node_replacement_by_hand(x)
    assert float(f.node_replacement_minutes) == pytest.approx(by_hand)
    assert float(f.spot_interruptions_per_day) > 7.0
    analytic = float(_eval(x)["goodput"])
    r = simulate_inputs(x, trials=2000, days=30.0, rng=3)
    # the chain multiplies the failures' and the reclaims' factors (a reclaim is assumed
    # to come in wall time, the simulation's only while the job runs): about 0.007 apart
    assert abs(r.goodput_mean - analytic) <= 0.01, (r.goodput_mean, analytic)


# --------------------------------------------------------------------------- optimize, ladder
def test_optimize_recommends_spares_by_domain_with_usd_per_day(base):
    from goodput_lab.models.optimize import recommend_domain_spares

    rec = recommend_domain_spares(base)
    assert rec is not None and rec.nodes_per_domain == 18 and rec.domains == 64
    assert rec.best.policy in ("in_domain", "spare_domains")
    assert rec.best.savings_usd_per_day > 0
    # its spares cost what the chain charges: whole domains of 18 nodes at $42/h
    if rec.best.policy == "spare_domains":
        assert rec.best.spare_usd_per_day == pytest.approx(rec.best.count * 18 * 42.0 * 24)
    # the best of each policy is among the options, and the recommendation is the best one
    assert rec.best.savings_usd_per_day == max(o.savings_usd_per_day for o in rec.options)
    in_dom = [o for o in rec.options if o.policy == "in_domain"]
    assert {o.count for o in in_dom} == {1, 2, 3, 4}
    # in-domain spares run the job on more domains: 1,152 / 16 = 72 domains for 2 per domain
    two = next(o for o in in_dom if o.count == 2)
    assert two.spare_nodes == 144


def test_no_domain_choice_when_a_domain_is_one_node():
    from goodput_lab.models.optimize import recommend_domain_spares

    assert recommend_domain_spares(resolve_inputs(load_preset("aws-16k-h100"))) is None


def test_ladder_has_a_rung_for_spares_by_domain():
    from goodput_lab.models.resilience import ladder

    lad = ladder(load_preset(PRESET), ["domain_spares"])
    rung = lad.rungs[1]
    assert rung.feature == "domain_spares"
    assert rung.delta_usd_per_day > 0
    # (field, before, after): it buys whole spare domains or in-domain spares
    keys = {c[0] for c in rung.changes}
    assert keys & {"cluster.spare_domains", "cluster.spare_nodes_per_domain"}
    assert all(c[2] > c[1] for c in rung.changes)


# --------------------------------------------------------------------------- fitting
def _log_with_job_rows(n=400, job_share=0.3, mean_gap_h=3.0, seed=5):
    rng = np.random.default_rng(seed)
    t = np.cumsum(rng.exponential(mean_gap_h, n) + 0.01)  # distinct whole seconds
    job = rng.random(n) < job_share
    rows = ["timestamp,node_id,cause"]
    for ti, j in zip(t, job, strict=True):
        stamp = np.datetime64("2026-01-01T00:00:00") + np.timedelta64(int(ti * 3600), "s")
        node = "job" if j else f"node-{rng.integers(128):03d}"
        rows.append(f"{stamp}Z,{node},{'user code' if j else 'GPU HBM3 ECC'}")
    return "\n".join(rows) + "\n", int(job.sum()), float(t[-1] - t[0]) / 24.0


def test_fit_separates_job_level_interruptions():
    from goodput_lab.models.failure_log import parse_failure_log
    from goodput_lab.models.fitting import fit_failure_log, split_job_level

    text, n_job, span_days = _log_with_job_rows()
    log = parse_failure_log(text)
    node_inc, job_inc = split_job_level(log.time_h, log.node_id)
    assert job_inc == n_job and node_inc == 400 - n_job
    fit = fit_failure_log(log, nodes=128)
    # job rate = job incidents over the exposure the node rate implies, the span × n/(n − 1)
    # for n = 400 incidents (models.fitting), within its exact interval
    assert fit.job_interruptions_per_day == pytest.approx(n_job / (span_days * 400 / 399))
    assert fit.job_interruptions_per_day_lo < fit.job_interruptions_per_day
    assert fit.job_interruptions_per_day < fit.job_interruptions_per_day_hi
    # the node rate is the node incidents' share: rates add up to the job's whole rate
    whole = fit.tbf["exp_rate_per_h"] * 24.0
    assert fit.node_failure_rate_per_day * 128 == pytest.approx(whole * node_inc / 400)
    assert fit.node_failure_rate_per_day * 128 + fit.job_interruptions_per_day == pytest.approx(
        whole
    )


def test_fit_without_job_markers_is_unchanged():
    from goodput_lab.models.failure_log import parse_failure_log
    from goodput_lab.models.fitting import fit_failure_log

    text, _, _ = _log_with_job_rows(job_share=0.0)
    fit = fit_failure_log(parse_failure_log(text), nodes=128)
    assert fit.job_interruptions_per_day is None and fit.n_job_incidents == 0
    assert fit.node_failure_rate_per_day * 128 == pytest.approx(fit.tbf["exp_rate_per_h"] * 24.0)


# --------------------------------------------------------------------------- recovery, fail-slow
def test_restart_grows_with_the_cluster_megascale2024():
    """MegaScale (arXiv:2402.15627): communicator set-up 1,047 s at 2,048 GPUs before their
    optimisation, under 5 s after; linear in GPUs, so about 30 s at 12,288 GPUs."""
    from goodput_lab.models.recovery import restart_with_retries_minutes

    naive = restart_with_retries_minutes(0.0, 1047 / 2048, 2048, 1.0, float("nan"))
    assert naive * 60 == pytest.approx(1047.0)
    tuned = restart_with_retries_minutes(0.0, 5 / 2048, 12_288, 1.0, float("nan"))
    assert tuned * 60 == pytest.approx(30.0)
    # retries: 3 attempts on average at q = 1/3, each failed one a whole restart
    assert restart_with_retries_minutes(2.0, 0.0, 8, 1 / 3, float("nan")) == pytest.approx(6.0)
    assert restart_with_retries_minutes(2.0, 0.0, 8, 0.5, 10.0) == pytest.approx(12.0)


def test_restart_fields_in_the_chain(base):
    plain = _eval(base)
    slow = _eval(base, **{"recovery.comm_init_seconds_per_gpu": 1047 / 2048})
    gpus = 1152 * 4
    assert float(slow["comm_init_minutes"]) == pytest.approx(1047 / 2048 * gpus / 60)
    assert float(slow["restart_minutes_expected"]) == pytest.approx(5.0 + 1047 / 2048 * gpus / 60)
    assert float(slow["goodput"]) < float(plain["goodput"])
    retry = _eval(base, **{"recovery.retry_success_fraction": 0.5})
    assert float(retry["restart_attempts_expected"]) == 2.0
    assert float(retry["restart_minutes_expected"]) == pytest.approx(10.0)


def test_fail_slow_is_a_loss_of_its_own(base):
    x = {**base, "reliability.domain_failure_rate_per_day": 0.0}
    e = _eval(x, **{"reliability.fail_slow_rate_per_day": 0.001})
    # 1.152 events/day x 0.5 slowdown x 60 min to detect = 34.56 full-speed min/day
    assert float(e["fail_slow_events_per_day"]) == pytest.approx(1.152)
    assert float(e["fail_slow_minutes_per_day"]) == pytest.approx(34.56)
    assert float(e["loss_fail_slow_minutes_per_day"]) > 0
    assert float(e["loss_straggler_minutes_per_day"]) == 0.0
    # each is then evicted like a failed node
    assert float(e["failures_per_day"]) == pytest.approx(1152 * 0.0019 + 1.152)


def test_montecarlo_matches_analytic_with_fail_slow_and_retries(base):
    x = {
        **base,
        "reliability.fail_slow_rate_per_day": 0.001,
        "recovery.retry_success_fraction": 0.5,
        "cluster.spare_nodes_per_domain": 1,
    }
    analytic = float(_eval(x)["goodput"])
    r = simulate_inputs(x, trials=3000, days=30.0, rng=11)
    assert abs(r.goodput_mean - analytic) <= 4.0 * r.goodput_stderr + 0.001


def test_in_domain_spares_must_leave_the_job_a_node():
    from goodput_lab.models.errors import ValidationError

    s = load_preset(PRESET).replace({"cluster.spare_nodes_per_domain": 18})
    with pytest.raises(ValidationError, match=r"cluster.spare_nodes_per_domain.*\[0, 17\]"):
        resolve_inputs(s)
    assert resolve_inputs(load_preset(PRESET).replace({"cluster.spare_nodes_per_domain": 17}))


def test_goodput_falls_with_the_node_rate_when_domain_repairs_dominate():
    """With ten times the preset's domain rate, most failures strike during a rack's 8-hour
    repair.  When a failure ended the repair in progress (the rule before repairs ran side
    by side), goodput rose with the node rate here: 47.6% at 0.4% node failures per
    node-day against 33.6% at none.  Now it falls, in the chain and in the simulator alike
    (tolerance: 4 standard errors + 0.001), and at the preset's own rates too."""
    from goodput_lab.models import evaluate, load_preset

    base = load_preset(PRESET)
    heavy = base.replace({"reliability.domain_failure_rate_per_day": 0.05})

    def g(s, rate):
        return evaluate(s.replace({"reliability.node_failure_rate_per_day": rate}))["goodput"]

    rates = (0.004, 0.002, 0.001, 0.0)
    for s in (heavy, base):
        curve = [g(s, r) for r in rates]
        assert curve == sorted(curve) and curve[0] < curve[-1], curve
    assert g(heavy, 0.004) == pytest.approx(0.2749, abs=5e-4)
    assert g(heavy, 0.0) == pytest.approx(0.3210, abs=5e-4)
    x = {
        **resolve_inputs(heavy),
        "reliability.node_failure_rate_per_day": 0.004,
    }
    r = simulate_inputs(x, trials=1500, days=30.0, rng=5)
    analytic = float(_eval(x)["goodput"])
    assert abs(r.goodput_mean - analytic) <= 4.0 * r.goodput_stderr + 0.001, (
        r.goodput_mean,
        analytic,
    )


def test_domain_and_switch_events_are_never_recovered_in_process(base):
    """A restart in place mends a node or software fault, not a rack or a switch that is
    down: with 60% of failures recovered in process, domain and switch events still wait
    for their repair and restart in full, in the chain (the in-process share of all
    failures is 0.6·(1 − (λ_D + λ_W)/λ)) and in the simulator (4 standard errors + 0.001)."""
    x = {
        **base,
        "resilience.in_process_fraction": 0.6,
        "reliability.domain_failure_rate_per_day": 0.02,
        "reliability.switch_failure_rate_per_day": 0.01,
    }
    e = _eval(x)
    lam, hw = float(e["failures_per_day"]), float(e["domain_failures_per_day"])
    hw += float(e["switch_failures_per_day"])
    share = 0.6 * (1.0 - hw / lam)
    restart, in_place = x["recovery.restart_minutes"], x["resilience.in_process_restart_minutes"]
    want = (1.0 - share) * restart + share * in_place
    assert float(e["restart_minutes_expected"]) == pytest.approx(want, rel=1e-12)
    assert share < 0.6 * 0.9  # the hardware events are a tenth of the failures or more
    r = simulate_inputs(x, trials=3000, days=30.0, rng=11)
    analytic = float(e["goodput"])
    assert abs(r.goodput_mean - analytic) <= 4.0 * r.goodput_stderr + 0.001, (
        r.goodput_mean,
        analytic,
    )


def test_a_domain_of_one_node_has_no_events_of_its_own(base):
    """QA pass 24 #1: the NVL72 preset's rack rate followed the job onto 8-GPU servers in
    `goodput instances`, where a scale-up domain is one node: p6-b200 read 33.7% goodput
    (2.88 domain events a day, each an 8-hour wait).  What takes such a domain out is a node
    failure, already in the node rate: the domain rate is not applied there."""
    s = load_preset(PRESET).replace({"cluster.instance": "p6-b200.48xlarge", "cluster.nodes": 576})
    with_rate = resolve_inputs(s)
    without = {**with_rate, "reliability.domain_failure_rate_per_day": 0.0}
    e, e0 = _eval(with_rate), _eval(without)
    assert float(e["nodes_per_domain"]) == 1.0
    assert float(e["domain_failures_per_day"]) == 0.0
    assert float(e["goodput"]) == float(e0["goodput"])
    assert float(e["replacement_minutes_per_failure"]) == pytest.approx(30.0)
    # rows of one sweep, one a domain of 18 nodes and one of 1: each keeps its own rule
    rows = evaluate_arrays(
        {
            **base,
            "cluster.nodes_per_domain": np.array([18.0, 1.0]),
        }
    )
    d = rows["domain_failures_per_day"]
    assert d[0] == pytest.approx(64 * 0.005) and d[1] == 0.0


def test_a_placement_group_larger_than_a_domain_is_refused_not_clamped():
    """QA pass 24 #20: cluster.placement_group_nodes = 1024 on 18-node domains was taken as
    18 in silence; it is refused with the allowed range, and a group that fits is kept."""
    from goodput_lab.models import load_preset
    from goodput_lab.models.errors import ValidationError

    s = load_preset(PRESET)
    with pytest.raises(
        ValidationError,
        match=r"cluster.placement_group_nodes: 1024 nodes do not fit in one scale-up domain, "
        r"where the job has 16 nodes; allowed: an integer in \[1, 16\]",
    ):
        resolve_inputs(
            s.replace({"cluster.placement_group_nodes": 1024, "cluster.spare_nodes_per_domain": 2})
        )
    assert resolve_inputs(s.replace({"cluster.placement_group_nodes": 18}))
    one = s.replace({"cluster.nodes_per_domain": 2, "cluster.spare_nodes_per_domain": 1})
    with pytest.raises(ValidationError, match=r"where the job has 1 node; allowed: only 1 \("):
        resolve_inputs(one.replace({"cluster.placement_group_nodes": 2}))


def test_ranking_types_moves_the_domain_layout_with_the_job():
    """In-domain spares and a placement group belong to the scenario's own type: ranking the
    NVL72 preset with 2 spare trays per rack and 8-node groups refused every type (an 8-GPU
    server's domain is one node); on the others the layout is derived from their catalog
    row, and the NVL72 row keeps the scenario's."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import layout_on, rank_instances

    cat = load_catalog()
    s = load_preset(PRESET).replace(
        {"cluster.spare_nodes_per_domain": 2, "cluster.placement_group_nodes": 8}
    )
    own, p5 = cat["p6e-gb200.36xlarge"], cat["p5.48xlarge"]
    assert layout_on(s, own, own) == {}
    assert layout_on(s, own, p5) == {
        "cluster.nodes_per_domain": None,
        "cluster.placement_group_nodes": None,
        "cluster.spare_nodes_per_domain": 0,
    }
    ranking = rank_instances(s, cat)
    assert ranking.row("p6e-gb200.36xlarge").cost_to_train_usd > 0
    assert ranking.row("p6-b200.48xlarge").cost_to_train_usd > 0


def test_spare_domains_savings_are_put_on_domain_events():
    """QA pass 24 #8: the ladder's spare-domain rung put its saving on node-failure causes
    (faulty GPU $47,237, software bug $17,235 ...) with no line for rack events, and its cost
    read "Hot spare nodes".  The failure saving is split by rate × repair wait over the
    classes the rung acts on: node failures (2.19 a day × 30 min) and domain events (0.32 a
    day × 8 h), so 70.0% of it is the domain events'; the lines still add up to the rung."""
    from goodput_lab.models import load_preset
    from goodput_lab.models.resilience import ladder

    rung = ladder(load_preset(PRESET), ["domain_spares"]).rungs[1]
    rows = {r["category"]: r for r in rung.savings_by_cause}
    failure = sum(
        r["saving_usd_per_day"]
        for c, r in rows.items()
        if c not in ("spares", "checkpoint_save", "fabric_stall", "fail_slow")
    )
    node, dom = 1152 * 0.0019 * 30.0, 64 * 0.005 * 480.0
    assert rows["domain_events"]["saving_usd_per_day"] / failure == pytest.approx(
        dom / (node + dom), rel=1e-9
    )
    assert dom / (node + dom) == pytest.approx(0.700, abs=1e-3)
    assert rows["domain_events"]["label"] == "Scale-up domain events (racks)"
    assert rows["spares"]["label"] == "Spare nodes by domain"
    total = sum(r["saving_usd_per_day"] for r in rung.savings_by_cause)
    assert total == pytest.approx(rung.delta_usd_per_day, rel=1e-9)


def test_spares_by_domain_are_paid_and_said_in_decide_and_plan():
    """QA pass 24 #5: goodput decide bought 4 spare domains (72 nodes) on p6e-gb200-nvl72
    without saying so and without paying for them (its costs counted the job's nodes and hot
    spares only), and goodput plan's blocks and budgets did the same.  Every paid node
    beside the job is now counted (models.chain.paid_instances) and the answer names them."""
    from goodput_lab.models import load_preset
    from goodput_lab.models.chain import paid_instances
    from goodput_lab.models.decide import _spares_words
    from goodput_lab.models.plan import plan_capacity_block

    s = load_preset(PRESET).replace({"cluster.spare_domains": 4, "cluster.spare_nodes": 3})
    assert paid_instances(resolve_inputs(s)) == 1152 + 3 + 4 * 18
    row = {"spare_nodes": 3, "_paid_spares": 75.0, "_spare_domains": 4, "_in_domain_spares": 0}
    assert _spares_words(row) == " + 75 spare (3 hot, 4 spare domains)"
    assert _spares_words({"spare_nodes": 2}) == " + 2 spare"
    assert _spares_words({"spare_nodes": 0, "_paid_spares": 0.0}) == ""
    block = s.replace(
        {
            "pricing.model": "capacity_block",
            "pricing.usd_per_instance_hour": 30.0,
            "pricing.overrun_usd_per_instance_hour": 42.0,
        }
    )
    plan = plan_capacity_block(block, trials=50, seed=1)
    # the 1,227 paid nodes, bought as 69 whole UltraServers of 18 (QA 28 #8)
    assert plan.capacity_block_instances == 1242 and plan.capacity_blocks_needed == 69
    assert plan.block_cost_usd == pytest.approx(plan.block_days * 24 * 1242 * 30.0)
