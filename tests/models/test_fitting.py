"""Failure-log parsing and fitting: hand-computed values, recovery of known parameters, bad logs.

Synthetic logs come from scripts/make_sample_log.py with fixed seeds, so every assertion is
deterministic; the tolerances stated below are what the sample sizes allow (about 3 standard
errors), and the true value must also lie inside the reported 95 % interval.
"""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest
from goodput_lab.models import ValidationError
from goodput_lab.models.failure_log import parse_failure_log, parse_mapping
from goodput_lab.models.fitting import (
    WEIBULL_TBF_KEYS,
    exponential_rate_ci,
    fit_failure_log,
    fit_tbf,
    fit_weibull_censored,
    lemon_p_values,
    llama3_taxonomy,
    map_cause,
    node_gaps_h,
    poisson_rate_ci,
    weibull_observed_information,
)
from scipy import stats

from tests.conftest import ROOT

_spec = importlib.util.spec_from_file_location(
    "make_sample_log", ROOT / "scripts" / "make_sample_log.py"
)
make_sample_log = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_sample_log)
# year-long logs from the script's start (2026-01-05) would run past today, and the reader
# refuses failures dated in the future: this module's logs start two years earlier
START = make_sample_log.START.replace(year=2024)
SAMPLE = ROOT / "data" / "failure_logs" / "synthetic-sample.csv"


def synthetic(**kw) -> str:
    return make_sample_log.make_log_csv(start=START, **kw)


def test_the_sample_script_refuses_a_log_that_runs_into_the_future(tmp_path, capsys):
    """A 700-day log from the shipped start date would end in the future: refused in one
    line naming both flags; from an earlier --start it is written."""
    out = tmp_path / "long.csv"
    assert make_sample_log.main(["-o", str(out), "--days", "700", "--start", "2026-01-05"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--start" in err and "--days" in err
    assert not out.exists()
    assert make_sample_log.main(["-o", str(out), "--days", "30", "--start", "2024-01-01"]) == 0
    assert out.read_text().splitlines()[4].startswith("2024-01-")


# ----------------------------------------------------------------- hand-computed values
def test_poisson_rate_ci_garwood_hand_values():
    # chi2.ppf(0.025, 20) = 9.5908, chi2.ppf(0.975, 22) = 36.7807 -> /2000
    lo, hi = poisson_rate_ci(10, 1000.0)
    assert lo == pytest.approx(0.0047954, rel=1e-4)
    assert hi == pytest.approx(0.0183904, rel=1e-4)
    lo0, hi0 = poisson_rate_ci(0, 1000.0)  # zero events: lower 0, upper -ln(0.025)/E
    assert lo0 == 0.0
    assert hi0 == pytest.approx(-math.log(0.025) / 1000.0, rel=1e-9)
    los, _ = poisson_rate_ci([1, 10, 100], 1000.0)  # vectorised, array out
    assert isinstance(los, np.ndarray) and los.shape == (3,)


def test_exponential_rate_ci_hand_values():
    lo, hi = exponential_rate_ci(10, 100.0)  # chi2(20) quantiles 9.5908, 34.1696 over 200
    assert (lo, hi) == pytest.approx((0.047954, 0.170848), rel=1e-4)


def test_fit_tbf_exponential_mle_is_inverse_mean():
    r = fit_tbf([1.0, 2.0, 3.0, 4.0])
    assert r["exp_rate_per_h"] == pytest.approx(0.4)
    assert r["exp_mean_h"] == pytest.approx(2.5)
    # log-likelihood of expon(scale 2.5) at these 4 points: -4 ln 2.5 - 10/2.5
    assert r["loglik_exponential"] == pytest.approx(-4 * math.log(2.5) - 4.0)


def test_lemon_p_value_hand_binomial():
    # P(Bin(10, 0.1) >= 3) = 1 - 0.9^10 - 10*0.1*0.9^9 - 45*0.01*0.9^8
    expected = 1 - 0.9**10 - 10 * 0.1 * 0.9**9 - 45 * 0.01 * 0.9**8
    assert lemon_p_values(3, 10, 10) == pytest.approx(expected, rel=1e-12)
    assert round(expected, 5) == 0.07019


def test_weibull_observed_information_matches_numerical_hessian():
    x = np.array([0.3, 0.9, 1.4, 2.2, 0.6])
    k, lam = 1.3, 1.1

    def ll(p):
        return float(np.sum(stats.weibull_min.logpdf(x, p[0], scale=p[1])))

    h = 1e-4
    p0 = np.array([k, lam])
    num = np.zeros((2, 2))
    for i in range(2):
        for j in range(2):
            e_i, e_j = np.eye(2)[i] * h, np.eye(2)[j] * h
            num[i, j] = -(
                ll(p0 + e_i + e_j) - ll(p0 + e_i - e_j) - ll(p0 - e_i + e_j) + ll(p0 - e_i - e_j)
            ) / (4 * h * h)
    assert weibull_observed_information(k, lam, x) == pytest.approx(num, rel=1e-4)
    assert weibull_observed_information(1.0, 1.0, np.array([0.5, 1.0, 1.5]))[1, 1] == 3.0


def test_weibull_profile_interval_endpoints_sit_on_the_chi2_cutoff():
    rng = np.random.default_rng(5)
    x = rng.weibull(0.8, 300) * 3.0
    r = fit_tbf(x)
    for k in (r["weibull_shape_lo"], r["weibull_shape_hi"]):
        scale_k = np.mean(x**k) ** (1 / k)  # profile MLE of the scale at fixed shape
        ll_k = float(np.sum(stats.weibull_min.logpdf(x, k, scale=scale_k)))
        assert 2 * (r["loglik_weibull"] - ll_k) == pytest.approx(stats.chi2.ppf(0.95, 1), rel=1e-6)
    shape_scipy, _, scale_scipy = stats.weibull_min.fit(x, floc=0)
    assert r["weibull_shape"] == pytest.approx(shape_scipy, rel=1e-3)  # scipy stops early
    assert r["weibull_scale_h"] == pytest.approx(scale_scipy, rel=1e-3)


# ----------------------------------------------------------------- Llama 3 taxonomy
def test_llama3_taxonomy_matches_paper_table5():
    tax = llama3_taxonomy()
    assert len(tax) == 18
    assert sum(r["count"] for r in tax) == 419  # 419 unexpected interruptions (arXiv:2407.21783)
    top = {r["category"]: r["count"] for r in tax}
    assert (top["faulty_gpu"], top["gpu_hbm3"], top["software_bug"]) == (148, 72, 54)
    # 419 failures on 2,048 nodes in 54 days = 0.379 % per node-day (docs/references.md#published-failure-statistics)
    assert (
        poisson_rate_ci(419, 2048 * 54)[0] < 419 / (2048 * 54) == pytest.approx(0.003789, rel=1e-3)
    )


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("GPU fell off the bus", "faulty_gpu"),
        ("Xid 79", "faulty_gpu"),
        ("HBM3 memory error", "gpu_hbm3"),
        ("gpu_hbm3", "gpu_hbm3"),
        ("NCCL watchdog timeout", "nccl_watchdog"),
        ("IB link flap", "network_switch_cable"),
        ("EFA device error", "nic"),
        ("Silent Data Corruption", "silent_data_corruption"),
        ("DIMM failure", "system_memory"),
        ("PSU failure", "power_supply"),
        ("segfault in dataloader", "software_bug"),
        ("cosmic rays", "unmapped"),
    ],
)
def test_map_cause(text, category):
    assert map_cause(text) == category


# ----------------------------------------------------------------- recovery of known parameters
def test_fit_recovers_per_node_weibull_shape_and_rate():
    # 2,000 nodes, each a Weibull(0.7) renewal process at 1 %/node-day, for 365 days:
    # ~7,400 failures, ~5,600 repeat gaps.  SE(shape) ~ 0.008, so tolerance 0.025 (3 SE);
    # the rate's SE is ~1.2 %, so 4 %.
    text = synthetic(
        nodes=2000, days=365, node_failure_rate_per_day=0.01, weibull_shape=0.7,
        lemons=0, switch_pair_prob=0.0, seed=101,
    )  # fmt: skip
    fit = fit_failure_log(parse_failure_log(text), nodes=2000)
    assert fit.node_tbf["n_gaps"] > 5000
    assert fit.weibull_shape == pytest.approx(0.7, abs=0.025)
    assert fit.node_tbf["weibull_shape_lo"] < 0.7 < fit.node_tbf["weibull_shape_hi"]
    assert fit.node_failure_rate_per_day == pytest.approx(0.01, rel=0.04)
    assert fit.node_failure_rate_per_day_lo < 0.01 < fit.node_failure_rate_per_day_hi
    # the job sees the superposition of 2,000 renewal processes, which tends to a Poisson
    # process (Palm-Khintchine): job-level gaps are close to exponential, shape ~1
    assert fit.tbf["weibull_shape"] == pytest.approx(1.0, abs=0.05)
    # no lemons planted, but shape 0.7 clusters failures on a node by design and the
    # binomial test assumes memoryless nodes: at most a handful of 2,000 may be flagged
    assert len(fit.lemons) <= 3


def test_fit_of_exponential_log_finds_shape_one():
    text = synthetic(
        nodes=1000, days=365, node_failure_rate_per_day=0.01, weibull_shape=1.0,
        lemons=0, switch_pair_prob=0.0, seed=202,
    )  # fmt: skip
    fit = fit_failure_log(parse_failure_log(text), nodes=1000)
    assert fit.node_tbf["weibull_shape_lo"] < 1.0 < fit.node_tbf["weibull_shape_hi"]
    assert fit.tbf["lr_p_value"] > 0.05  # job level: exponential not rejected
    assert fit.lemons == []  # memoryless, identical nodes: the Bonferroni test flags none
    assert fit.node_failure_rate_per_day == pytest.approx(0.01, rel=0.06)  # ~3,700 failures


def test_censored_weibull_mle_matches_scipy():
    rng = np.random.default_rng(11)
    gaps = rng.weibull(0.8, 400) * 50.0
    censored = rng.uniform(1.0, 120.0, 150)
    r = fit_weibull_censored(gaps, censored)
    data = stats.CensoredData(uncensored=gaps, right=censored)
    shape, _, scale = stats.weibull_min.fit(data, floc=0)
    assert r["weibull_shape"] == pytest.approx(shape, rel=2e-3)
    assert r["weibull_scale_h"] == pytest.approx(scale, rel=2e-3)
    assert r["weibull_shape_lo"] < r["weibull_shape"] < r["weibull_shape_hi"]
    g, c = node_gaps_h([0.0, 1.0, 3.0, 4.0], ["a", "b", "a", "a"], end_h=10.0)
    assert g.tolist() == [3.0, 1.0] and sorted(c.tolist()) == [6.0, 9.0]
    assert fit_weibull_censored([1.0, 2.0, 3.0], [4.0])["exp_rate_per_h"] == pytest.approx(0.3)


def test_sample_log_finds_planted_lemons_and_cause_shares():
    text = SAMPLE.read_text(encoding="utf-8")
    assert text.startswith("# SYNTHETIC")
    planted = text.splitlines()[2].split(":", 1)[1].strip().split(", ")
    fit = fit_failure_log(parse_failure_log(text), nodes=1024)
    assert sorted(lemon["node_id"] for lemon in fit.lemons) == sorted(planted)
    # per-node shape 0.75 planted; ~280 repeat gaps give SE ~0.04: within the 95 % CI
    assert fit.node_tbf["weibull_shape_lo"] < 0.75 < fit.node_tbf["weibull_shape_hi"]
    assert fit.node_failure_rate_per_day_lo < 0.004 * (1022 + 2 * 25) / 1024
    causes = {c["category"]: c for c in fit.causes}
    assert sum(c["failures"] for c in fit.causes) == fit.n_failures
    assert "unmapped" not in causes  # every synthetic variant maps onto the taxonomy
    assert causes["faulty_gpu"]["failures"] == max(c["failures"] for c in fit.causes)
    gpu = causes["faulty_gpu"]
    assert gpu["rate_per_node_day_lo"] < gpu["rate_per_node_day"] < gpu["rate_per_node_day_hi"]
    # switch/cable incidents take two nodes at one timestamp: incidents < failure rows
    assert fit.n_incidents < fit.n_failures


def test_nodes_default_to_distinct_ids_and_must_cover_them():
    log = parse_failure_log(SAMPLE.read_bytes())
    fit = fit_failure_log(log)
    assert fit.nodes == log.distinct_nodes and fit.nodes_from_log
    with pytest.raises(ValidationError, match=r"--nodes.*out of range"):
        fit_failure_log(log, nodes=3)


# QA pass 21: node ids n1, n2, n1 and "job" were counted as 3 nodes (17.14% per node-day)
MAPPED = """when,host,why,mins
2026-01-01T00:00:00+02:00,n1,GPU,10
2026-01-02T05:00:00,n2,NIC,5
2026-01-03T01:00:00Z,job,software,3
2026-01-05T07:00:00Z,n1,GPU,
"""
MAP = {"timestamp": "when", "node_id": "host", "cause": "why", "downtime_minutes": "mins"}


def test_job_level_marks_are_not_nodes():
    log = parse_failure_log(MAPPED, MAP)
    assert log.distinct_nodes == 2
    fit = fit_failure_log(log)
    assert fit.nodes == 2 and fit.nodes_from_log
    # 4 incidents over 105 h (Dec 31 22:00Z to Jan 5 07:00Z): 3 gaps, 3/105 per hour; the
    # node incidents' share 3/4, over 2 nodes: 3/105 × 24 × 3/4 / 2 = 0.257142857
    assert fit.node_failure_rate_per_day == pytest.approx(3 / 105 * 24 * 0.75 / 2, rel=1e-12)
    assert fit.n_job_incidents == 1 and fit.n_job_failures == 1
    # per-cause rates over the node rate's exposure, 2 nodes × 105/24 days × 4/3 (4
    # incidents, 3 gaps): GPU 2 / 11.667 = 0.171429; the 3 node incidents over it give
    # the node rate
    gpu = next(c for c in fit.causes if c["failures"] == 2)
    exposure = 2 * 105 / 24 * 4 / 3
    assert gpu["rate_per_node_day"] == pytest.approx(2 / exposure, rel=1e-12)
    assert fit.node_failure_rate_per_day == pytest.approx(3 / exposure, rel=1e-12)
    assert fit_failure_log(log, nodes=2).node_failure_rate_per_day == pytest.approx(
        fit.node_failure_rate_per_day, rel=1e-12
    )
    with pytest.raises(ValidationError) as err:
        fit_failure_log(log, nodes=1, nodes_field="Nodes observed")
    assert str(err.value) == (
        "Nodes observed: 1 is out of range (at least the 2 distinct nodes in the log, at most "
        "10,000,000)"
    )


def test_job_level_marks_are_not_lemons():
    # four nodes fail once each, the job ten times: under the old count "job" was a node
    # with 10 of 14 failures (expected 2.8 of 5 nodes): Bonferroni p = 5 × 4.6e-5, a lemon
    times = [f"2024-01-{d:02d}T{d % 3:02d}:00:00Z" for d in range(1, 15)]  # 01:00 ... 02:00
    ids = ["a", "b", "c", "d"] + ["job"] * 10
    log = parse_failure_log(
        "timestamp,node_id\n" + "".join(f"{t},{i}\n" for t, i in zip(times, ids, strict=True))
    )
    fit = fit_failure_log(log)
    assert fit.nodes == 4 and fit.lemons == [] and fit.n_job_failures == 10
    # 13 gaps over 313 h (Jan 1 01:00 to Jan 14 02:00); node share 4/14, over 4 nodes
    assert fit.node_failure_rate_per_day == pytest.approx(13 / 313 * 24 * 4 / 14 / 4, rel=1e-12)


# ----------------------------------------------------------------- bad logs
HEADER = "timestamp,node_id,cause,downtime_minutes\n"
GOOD = "2024-01-01T00:00:00Z,n1,GPU,10\n"


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (HEADER + GOOD + "yesterday,n2,GPU,5\n", "row 3, column 'timestamp'", "ISO 8601"),
        (
            HEADER + GOOD + "2024-01-02,n2,GPU,-5\n",
            "row 3, column 'downtime_minutes'",
            "out of range",
        ),
        (
            HEADER + GOOD + "2024-01-02,n2,GPU,abc\n",
            "row 3, column 'downtime_minutes'",
            "not a number",
        ),
        (
            HEADER + GOOD + "2024-01-02,n2,GPU,nan\n",
            "row 3, column 'downtime_minutes'",
            "out of range",
        ),
        (HEADER + GOOD + "2024-01-02,,GPU,5\n", "row 3, column 'node_id'", "node id is required"),
        (HEADER + GOOD + "2024-01-02,n2\n", "row 3, column 'cause'", "2 fields"),
        (HEADER + GOOD + "2024-01-02,n\x002,GPU,5\n", "row 3, column 'node_id'", "control"),
        ("# note\n" + HEADER + GOOD + "2024-13-02,n2,GPU,5\n", "row 4, column 'timestamp'", "ISO"),
        (
            (HEADER + GOOD).encode() + b"2024-01-02,n2,GPU \xff fault,5\n",
            "row 3, column 'cause'",
            "UTF-8",
        ),
        ("when,host\n2024-01-01,n1\n", "row 1", "no timestamp column"),
        ("", "failure log", "empty"),
        ("# only a comment\n", "failure log", "empty"),
        (HEADER, "failure log", "no failure rows"),
        ("a,a\n1,2\n", "row 1", "repeats"),
    ],
)
def test_bad_logs_name_row_and_column(data, field, message):
    with pytest.raises(ValidationError, match=message) as info:
        parse_failure_log(data)
    assert info.value.field == field


def test_caps_on_rows_and_bytes():
    text = HEADER + GOOD * 6
    with pytest.raises(ValidationError, match="more than 5 rows"):
        parse_failure_log(text, max_rows=5)
    with pytest.raises(ValidationError, match="too large"):
        parse_failure_log(text.encode(), max_bytes=50)


def test_column_mapping_and_aliases():
    text = "When,Machine,Why\n2024-01-01T00:00:00+02:00,a,xid\n2024-01-01T01:00:00Z,b,psu\n"
    log = parse_failure_log(text, parse_mapping(["timestamp=When", "node_id=Machine", "cause=Why"]))
    assert log.time_h[1] - log.time_h[0] == pytest.approx(3.0)  # +02:00 converted to UTC
    assert list(log.cause) == ["xid", "psu"]
    assert np.isnan(log.downtime_minutes).all()
    with pytest.raises(ValidationError, match="no such column") as info:
        parse_failure_log(text, {"timestamp": "Wen", "node_id": "Machine"})
    assert info.value.field == "column mapping"
    with pytest.raises(ValidationError, match="not a log column"):
        parse_mapping(["colour=When"])
    with pytest.raises(ValidationError, match="column=header"):
        parse_mapping(["When"])


def test_fit_needs_three_distinct_times():
    log = parse_failure_log(HEADER + GOOD + GOOD.replace("n1", "n2"))
    with pytest.raises(ValidationError, match="at least 3"):
        fit_failure_log(log)


def test_byte_cap_matches_the_dashboard_upload_limit():
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    from goodput_lab.models.failure_log import MAX_LOG_BYTES

    assert config["server"]["maxUploadSize"] * 1024 * 1024 == MAX_LOG_BYTES


def test_scenario_values_are_what_goodput_fit_prints():
    """The fields a fitted log sets, for goodput fit's --set line and the Failure log page's
    button alike (QA pass 21: the button left out the rate's 80% interval)."""
    from goodput_lab.models.fitting import scenario_values

    fit = fit_failure_log(parse_failure_log(MAPPED, MAP))
    values, problems = scenario_values(fit)
    rate = 3 / 105 * 24 * 0.75 / 2
    # the 80% Garwood interval of the 3 node incidents (not of all 4: QA pass 29) over the
    # node-days the rate uses, relative to the count: χ²(0.1; 6)/6, χ²(0.9; 8)/6
    lo, hi = rate * stats.chi2.ppf(0.1, 6) / 6, rate * stats.chi2.ppf(0.9, 8) / 6
    assert values == {
        "reliability.node_failure_rate_per_day": float(f"{rate:.6g}"),
        # 1 incident over the exposure the node rate implies, 105/24 days × 4/3: with the
        # node rate it adds up to the 3 gaps' 3/105 per hour
        "reliability.job_interruptions_per_day": float(f"{24 / 105 * 3 / 4:.6g}"),
        "reliability.node_failure_rate_low": float(f"{lo:.6g}"),
        "reliability.node_failure_rate_high": float(f"{hi:.6g}"),
    }
    assert values["reliability.node_failure_rate_low"] == 0.0944627  # 0.112164 before
    assert problems == [
        # n1 fails twice: one repeat gap ("no node failed twice" before QA pass 29)
        "reliability.weibull_shape: not estimable from this log (only 1 repeat failure of a "
        "node; the shape needs at least 2); left unchanged",
        # two node failures give a downtime (the job's own has no node to repair)
        "reliability.repair_hours and simulation.repair_sigma: not estimable from this log "
        "(it gives 2 downtimes of node failures; fitting needs at least 5); left unchanged",
    ]


def test_cause_rates_share_the_node_rates_exposure():
    """QA pass 26: a cause holding every failure read 38.10% per node-day against a node
    failure rate of 30.48%: the node rate is the exponential MLE of n − 1 gaps over the span,
    the causes counted n failures over it.  Both now use the exposure the node rate implies,
    span · n/(n − 1): 4 incidents over 5 days on 10 nodes give 3/5/10 = 6% per node-day, and
    the causes (3 faulty GPU, 1 GSP) 4.5% and 1.5%, adding up to it."""
    log = parse_failure_log(
        "timestamp,node_id,cause\n2026-01-01,n1,faulty GPU\n2026-01-03,n2,faulty GPU\n"
        "2026-01-04,n3,faulty GPU\n2026-01-06,n4,GSP timeout\n"
    )
    fit = fit_failure_log(log, 10)
    assert fit.node_failure_rate_per_day == pytest.approx(0.06, rel=1e-12)
    rates = {c["category"]: c["rate_per_node_day"] for c in fit.causes if c["failures"]}
    assert rates == {
        "faulty_gpu": pytest.approx(0.045, rel=1e-12),
        "gpu_system_processor": pytest.approx(0.015, rel=1e-12),
    }
    # the Garwood interval of the 3 GPU failures over the same exposure (66.67 node-days)
    gpu = next(c for c in fit.causes if c["category"] == "faulty_gpu")
    lo, hi = poisson_rate_ci(3, 10 * 5 * 4 / 3, 0.95)
    assert (gpu["rate_per_node_day_lo"], gpu["rate_per_node_day_hi"]) == pytest.approx((lo, hi))


def test_evenly_spaced_incidents_fit_the_exponential_alone():
    """QA pass 26: gaps that are all the same were refused; the exponential rate is well
    defined (4 gaps of 24 h: 1/24 per h), the Weibull is not (its likelihood grows without
    bound with the shape): NaN in every Weibull figure, null in the JSON."""
    t = fit_tbf([24.0] * 4)
    assert t["exp_rate_per_h"] == pytest.approx(1 / 24) and t["n_gaps"] == 4
    assert all(math.isnan(t[k]) for k in WEIBULL_TBF_KEYS)
    log = parse_failure_log(
        "timestamp,node_id\n" + "".join(f"2026-01-0{d},n{d}\n" for d in range(1, 6))
    )
    d = fit_failure_log(log, 100).to_json_dict()
    assert d["node_failure_rate_per_day"] == pytest.approx(0.01)
    assert d["job_weibull_shape"] is None and d["job_lr_p_value"] is None


def test_a_mapping_clash_names_both_columns():
    with pytest.raises(ValidationError) as exc:
        parse_failure_log("timestamp,node_id,cause\n2026-01-01,n1,x\n", {"cause": "node_id"})
    assert str(exc.value) == (
        "column mapping: the log columns node_id and cause are both mapped to 'node_id'; "
        "map each to its own header"
    )


def test_rows_repeated_cell_for_cell_are_dropped_and_named():
    """QA pass 26: six identical rows of n1 made it a lemon (adjusted p 0.04) and weighed
    six times in the repair time.  A row repeating an earlier one in every cell is the same
    failure listed twice: dropped, and named with the row it repeats; a row that differs in
    any cell (here the downtime) is a failure of its own."""
    rows = ["timestamp,node_id,cause,downtime_minutes"]
    rows += ["2026-01-01T00:00:00Z,n1,faulty GPU,30"] * 6
    rows += ["2026-01-01T00:00:00Z,n1,faulty GPU,31", "2026-01-02T03:00:00Z,n2,NIC,20"]
    rows += ["2026-01-04T00:00:00Z,n3,NIC,", "2026-01-05T00:00:00Z,n4,NIC,"]
    log = parse_failure_log("\n".join(rows))
    assert len(log) == 5
    assert log.duplicates == ((3, 2), (4, 2), (5, 2), (6, 2), (7, 2))
    fit = fit_failure_log(log, 10)
    assert fit.duplicates == log.duplicates and fit.lemons == []
    assert fit.n_failures == 5 and fit.n_incidents == 4
    from goodput_lab.views.failure_log import duplicates_text

    assert duplicates_text(fit.duplicates) == (
        "5 rows of the log repeat an earlier row cell for cell (the same time, node, cause "
        "and downtime) and are not counted: row 3 repeats row 2, row 4 repeats row 2, row 5 "
        "repeats row 2 and 2 more."
    )
    assert duplicates_text(()) == ""
