"""The orchestrator: headline claim, breakdown consistency, vectorised grids, catalog."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import (
    Scenario,
    ValidationError,
    compare,
    evaluate,
    evaluate_arrays,
    load_preset,
    resolve_inputs,
)
from goodput_lab.models.catalog import parse_catalog


def test_headline_claim_reproduced(headline_baseline, headline_improved, catalog):
    """Blog: 'each 0.1% decrease in daily node failure rate improves productivity by 4.2%,
    up to $200,000 per day for 16,000 H100' (docs/references.md#headline-claim)."""
    c = compare(headline_baseline, headline_improved, catalog)
    assert 0.040 <= c.goodput_delta <= 0.044
    assert 185_000 <= c.savings_usd_per_day <= 210_000
    # first order: 2 failures/day x 31 min / 1440 = 4.31 points, $203k/day
    assert c.goodput_delta_first_order == pytest.approx(2 * 31 / 1440, rel=1e-9)
    assert c.baseline["cluster_usd_per_day"] == pytest.approx(2000 * 98.32 * 24)
    assert c.baseline["accelerators"] == 16_000


def test_value_of_reliability_card_matches_compare(headline_baseline, headline_improved, catalog):
    ev = evaluate(headline_baseline, catalog)
    c = compare(headline_baseline, headline_improved, catalog)
    assert ev.value_of_reliability["goodput_gain_per_0p1pp"] == pytest.approx(c.goodput_delta)
    assert ev.value_of_reliability["usd_per_day_per_0p1pp"] == pytest.approx(c.savings_usd_per_day)


def test_value_of_reliability_below_step_is_gain_to_zero(catalog):
    s = Scenario.default().replace({"reliability.node_failure_rate_per_day": 0.0005})
    v = evaluate(s, catalog).value_of_reliability
    assert v["value_of_reliability_is_partial"] == 1.0
    g_now = evaluate(s, catalog)["goodput"]
    g_zero = evaluate(s.replace({"reliability.node_failure_rate_per_day": 0.0}), catalog)["goodput"]
    assert v["goodput_gain_per_0p1pp"] == pytest.approx(g_zero - g_now)
    # 1 failure/day × 31 min ≈ 2 points, nowhere near the 94 points a slope gave at r = 0
    assert 0.015 < v["goodput_gain_per_0p1pp"] < 0.025


def test_value_of_reliability_at_zero_rate_with_optimal_interval(catalog):
    s = Scenario.default().replace(
        {"reliability.node_failure_rate_per_day": 0.0, "checkpoint.interval_minutes": "optimal"}
    )
    v = evaluate(s, catalog).value_of_reliability
    assert v["goodput_gain_per_0p1pp"] == 0.0
    assert v["value_of_reliability_is_partial"] == 1.0


def test_llama3_preset_matches_meta(catalog):
    from goodput_lab.models import load_preset

    ev = evaluate(load_preset("llama3-16k"), catalog)
    assert ev["failures_per_day"] == pytest.approx(7.76, abs=0.01)
    assert ev["mtbf_hours"] == pytest.approx(3.09, abs=0.01)
    assert ev["goodput"] > 0.90  # Meta: ">90% effective training time"


def test_breakdown_adds_up_to_exact_loss(headline_baseline, catalog):
    ev = evaluate(headline_baseline, catalog)
    rows = ev.loss_breakdown()
    total = sum(r["minutes_per_day"] for r in rows)
    assert total == pytest.approx((1 - ev["goodput"]) * 1440, rel=1e-9)
    usd = sum(r["usd_per_day"] for r in rows)
    assert usd == pytest.approx(ev["lost_usd_per_day"], rel=1e-9)  # no spares here
    # rework of half a 40-minute interval is the largest single component
    assert max(rows, key=lambda r: r["minutes_per_day"])["component"] == "rework"


def test_grid_evaluation_matches_pointwise(headline_baseline, catalog):
    inputs = resolve_inputs(headline_baseline, catalog)
    rates = np.array([[0.0005], [0.001], [0.004]])
    nodes = np.array([100, 1000, 2000, 8000])
    grid = evaluate_arrays(
        {**inputs, "reliability.node_failure_rate_per_day": rates, "cluster.nodes": nodes}
    )
    assert grid["goodput"].shape == (3, 4)
    point = evaluate(
        headline_baseline.replace(
            {"reliability.node_failure_rate_per_day": 0.004, "cluster.nodes": 1000}
        ),
        catalog,
    )
    assert grid["goodput"][2, 1] == pytest.approx(point["goodput"], rel=1e-12)


def test_hot_spares_shorten_replacement(headline_baseline, catalog):
    base = evaluate(headline_baseline.replace({"recovery.replacement_minutes": 60.0}), catalog)
    spared = evaluate(
        headline_baseline.replace(
            {"recovery.replacement_minutes": 60.0, "cluster.spare_nodes": 20}
        ),
        catalog,
    )
    assert base["replacement_minutes_expected"] == 60.0
    # 20 spares, ~6.4 nodes in repair (8.4% of failures take out 8 nodes): a single-node
    # failure finds none free with P(Poisson(6.352) >= 20), a multi-node one with
    # P(Poisson(6.352) >= 13): mostly a 1-min swap
    p = 0.916 * 1.16542e-5 + 0.084 * 1.354568e-2  # scipy.stats.poisson.sf(19 | 12, 6.352)
    assert spared["probability_no_spare"] == pytest.approx(p, rel=1e-5)
    assert spared["replacement_minutes_expected"] == pytest.approx(p * 60 + (1 - p), rel=1e-4)
    assert spared["goodput"] > base["goodput"]
    assert spared["spare_usd_per_day"] == pytest.approx(20 * 98.32 * 24)


def test_optimal_interval_is_at_least_as_good(headline_baseline, catalog):
    opt = evaluate(headline_baseline.replace({"checkpoint.interval_minutes": "optimal"}), catalog)
    for tau in (5.0, 20.0, 40.0, 80.0, 160.0):
        fixed = evaluate(headline_baseline.replace({"checkpoint.interval_minutes": tau}), catalog)
        assert opt["goodput"] >= fixed["goodput"] - 1e-12


def test_unknown_instance_and_missing_price(catalog):
    with pytest.raises(ValidationError, match=r"cluster.instance: 'x9' is not in the catalog"):
        evaluate(Scenario.default().replace({"cluster.instance": "x9"}), catalog)
    gb200 = Scenario.default().replace({"cluster.instance": "p6e-gb200.36xlarge"})
    with pytest.raises(
        ValidationError, match="pricing.usd_per_instance_hour: the catalog has no price"
    ):
        evaluate(gb200, catalog)
    ok = evaluate(gb200.replace({"pricing.usd_per_instance_hour": 80.0}), catalog)
    assert ok["accelerators"] == 2000 * 4


def test_catalog_has_required_instances_with_sources(catalog):
    for name in [
        "p4d.24xlarge",
        "p5.48xlarge",
        "p5en.48xlarge",
        "p6-b200.48xlarge",
        "p6e-gb200.36xlarge",
        "trn1.32xlarge",
        "trn1n.32xlarge",
        "trn2.48xlarge",
    ]:
        inst = catalog[name]
        assert inst.source_specs and inst.source_chip and inst.source_price
        assert (inst.usd_per_hour is None) == (inst.price_as_of is None)
    assert catalog["p5.48xlarge"].bf16_dense_tflops == 989
    assert catalog["trn2.48xlarge"].accel_memory_GiB * 16 == 1536
    assert catalog["p6e-gb200.36xlarge"].usd_per_hour is None


def test_catalog_is_polars_readable():
    import polars as pl
    from goodput_lab.models.catalog import DEFAULT_CATALOG

    df = pl.read_csv(DEFAULT_CATALOG)
    assert df.height >= 8
    assert "source_price" in df.columns


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("instance,accelerator\nx,y\n", "missing column"),
        ("", "missing column"),
    ],
)
def test_malformed_catalogs(text, fragment):
    with pytest.raises(ValidationError, match=fragment):
        parse_catalog(text)


def test_catalog_bad_number_names_row_and_column():
    from goodput_lab.models.catalog import DEFAULT_CATALOG

    lines = DEFAULT_CATALOG.read_text().splitlines()
    lines[2] = lines[2].replace(",989,", ",lots,", 1)
    with pytest.raises(ValidationError, match="row 3, column bf16_dense_tflops"):
        parse_catalog("\n".join(lines))


def test_catalog_with_the_old_decimal_memory_column_is_a_clear_error():
    # the column became accel_memory_GiB when HBM was read in binary gigabytes; a user's
    # catalog with the old name gets one line naming it and the fix, not a missing column
    from goodput_lab.models.catalog import DEFAULT_CATALOG

    text = DEFAULT_CATALOG.read_text().replace("accel_memory_GiB", "accel_memory_GB", 1)
    with pytest.raises(ValidationError, match="column accel_memory_GB") as e:
        parse_catalog(text)
    assert "renamed accel_memory_GiB" in str(e.value) and "81,559 MiB" in str(e.value)


def test_hbm_is_read_in_binary_gigabytes(catalog):
    # an "H100 80GB" holds 80 GiB (nvidia-smi: 81,559 MiB): 85.9 GB, 77.3 GB of it usable
    # at the default 10% reserved; a GB200's 185 GiB is 198.6 GB, 178.8 GB usable
    h100 = load_preset("llama3-70b")
    assert catalog["p5.48xlarge"].accel_memory_GiB == 80
    out = evaluate(h100, catalog)
    assert out["memory_usable_per_accel_GB"] == pytest.approx(80 * 2**30 / 1e9 * 0.9)
    assert out["memory_usable_per_accel_GB"] == pytest.approx(77.309, abs=1e-3)
    gb200 = h100.replace(
        {"cluster.instance": "p6e-gb200.36xlarge", "pricing.usd_per_instance_hour": 80.0}
    )
    out = evaluate(gb200, catalog)
    assert out["memory_usable_per_accel_GB"] == pytest.approx(178.78, abs=0.01)


@pytest.mark.parametrize("strategy", ["durable_only", "nvme+durable", "memory+durable"])
@pytest.mark.parametrize("classes", [{}, {"sdc": 0.05, "peer": 0.3, "corrupt": 0.02}])
def test_per_failure_figures_without_failures_are_their_limit(strategy, classes):
    """With no failures at all (λ = 0) the per-failure figures describe the failure that
    would come: the limit as the node failure rate goes to 0.  (Regression: every class
    took a share of 1 where λ = 0, so a two-level strategy counted both levels' restore
    and rework, 50 instead of 20.8 rework minutes, and a single level added half the
    placeholder level-2 interval.)"""
    x = dict(resolve_inputs(load_preset("aws-16k-h100")))
    x["checkpoint.strategy"] = strategy
    if classes:
        x["reliability.sdc_fraction"] = classes["sdc"]
        x["resilience.peer_recovery_fraction"] = classes["peer"]
        x["checkpoint.corrupt_fraction"] = classes["corrupt"]
    keys = ("recovery_minutes_per_failure", "rework_minutes_per_failure")
    at = {r: evaluate_arrays({**x, "reliability.node_failure_rate_per_day": r}) for r in (0, 1e-9)}
    for key in keys:
        assert float(at[0][key]) == pytest.approx(float(at[1e-9][key]), rel=1e-9), key
    lost = at[0]["minutes_lost_per_failure"]
    assert lost == pytest.approx(at[0][keys[0]] + at[0][keys[1]], rel=1e-12)
    # and in an array where only some scenarios have no failures
    rates = np.array([0.0, 1e-9, 0.002])
    arr = evaluate_arrays({**x, "reliability.node_failure_rate_per_day": rates})
    for key in keys:
        assert arr[key][0] == pytest.approx(arr[key][1], rel=1e-9), key
