"""Figures the pages and the report multiplied or subtracted out themselves, now computed
once in models/ and read from there: per-year dollars, the compare savings by component,
the Network page's algorithm, reroute and fabric tables, the tornado's swings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import compare, evaluate, fabric, load_preset, resolve_inputs
from goodput_lab.models.sensitivity import tornado

from goodput_lab.views import compare as compare_svc
from goodput_lab.views import network as net_svc
from goodput_lab.views import overview as overview_svc


@pytest.fixture(scope="module")
def ev(catalog):
    return evaluate(load_preset("aws-16k-h100"), catalog)


def test_per_year_figures_are_the_days_times_365_25(ev):
    m = ev.metrics
    assert m["lost_usd_per_year"] == pytest.approx(m["lost_usd_per_day"] * 365.25, rel=1e-12)
    v = ev.value_of_reliability
    # the blog's claim reproduced: $190,339.93/day, so $69,521,658/year
    assert v["usd_per_day_per_0p1pp"] == pytest.approx(190_339.93, abs=0.01)
    assert v["usd_per_year_per_0p1pp"] == pytest.approx(69_521_658.26, abs=0.01)
    rows = ev.loss_breakdown()
    assert sum(r["usd_per_year"] for r in rows) == pytest.approx(m["lost_usd_per_year"], rel=1e-9)
    for r in rows:
        assert r["usd_per_year"] == pytest.approx(r["usd_per_day"] * 365.25, rel=1e-12)


def test_pages_and_report_read_the_per_year_figures(ev):
    """The loss table's total row and the Overview's per-year tile are the model's figures
    (the tile's text is the registry's format of them)."""
    total = overview_svc.loss_total_row(ev)
    assert total["component_usd_per_year"] == ev["lost_usd_per_year"]
    table = overview_svc.loss_table(ev)
    assert table["component_usd_per_year"].to_list() == [
        r["usd_per_year"] for r in ev.loss_breakdown()
    ]
    tile = overview_svc.reliability_tiles(ev)[2]
    assert tile["label"] == "Per year"
    # from $10M on a tile writes millions; the exact amount is in its help
    assert tile["value"] == "$69.5M"
    assert "Exact: $69,521,658" in tile["help"]


def test_savings_by_component_add_up_to_the_savings(catalog, headline_baseline, headline_improved):
    cmp = compare(headline_baseline, headline_improved, catalog)
    rows = cmp.savings_by_component()
    assert [r["component"] for r in rows[-2:]] == ["step_time", "running_cost"]
    assert sum(r["usd_per_day"] for r in rows) == pytest.approx(cmp.savings_usd_per_day, rel=1e-9)
    b, c = cmp.baseline.metrics, cmp.candidate.metrics
    per_min = b["cluster_usd_per_day"] / 1440.0
    for r in rows[:-2]:
        key = f"loss_{r['component']}_minutes_per_day"
        assert r["minutes_per_day_saved"] == pytest.approx(b[key] - c[key], abs=1e-12)
        assert r["usd_per_day"] == pytest.approx((b[key] - c[key]) * per_min, abs=1e-6)
        assert r["goodput_points"] == pytest.approx((b[key] - c[key]) / 14.4, abs=1e-12)
    assert rows[-2]["usd_per_day"] == cmp.step_time_savings_usd_per_day
    assert rows[-1]["usd_per_day"] == pytest.approx(
        b["total_usd_per_day"] - c["total_usd_per_day"], abs=1e-6
    )
    # the page's table is the same rows, renamed for the registry
    view = compare_svc.delta_waterfall(cmp)
    assert view["component_savings_usd_per_day"].to_list() == [r["usd_per_day"] for r in rows]


def test_ring_and_tree_rows_are_the_alpha_beta_formulas(ev):
    """Thakur et al. 2005: ring 2(p−1)α + 2(p−1)/p·n/B, tree 2⌈log2 p⌉α + 2n/B, B the
    rank's share of the node's scale-out bandwidth at the stated efficiency."""
    s, inst = ev.scenario, ev.instance
    t = fabric.allreduce_by_algorithm(ev)
    n = t["allreduce_message_GB"][0] * 1e9
    p = t["allreduce_ranks"][0]
    gbps = s["network.inter_node_gbps"] or inst.efa_gbps
    bw = gbps / 8.0 / inst.accelerators_per_node * s["network.inter_node_efficiency"] * 1e9
    a = s["network.alpha_network_us"] * 1e-6
    ring = 2 * (p - 1) * a + 2 * (p - 1) / p * n / bw
    tree = 2 * math.ceil(math.log2(p)) * a + 2 * n / bw
    assert t["collective_ms"][0] == pytest.approx(ring * 1e3, rel=1e-9)
    assert t["collective_ms"][1] == pytest.approx(tree * 1e3, rel=1e-9)
    assert t["algbw_GBps"][0] == pytest.approx(n / ring / 1e9, rel=1e-9)
    assert t["busbw_GBps"][0] == pytest.approx(n / ring / 1e9 * 2 * (p - 1) / p, rel=1e-9)
    # the NCCL row is the step model's all-reduce, and the page's table is these rows
    assert t["collective_ms"][3] == pytest.approx(ev["allreduce_ms"], rel=1e-9)
    assert net_svc.algorithm_table(ev)["collective_ms"].to_list() == t["collective_ms"]


def test_reroute_costs_are_the_goodput_lost_to_the_events(ev, catalog):
    s = ev.scenario
    inputs = resolve_inputs(s, catalog)
    none = fabric.reroute_costs(inputs, 0.0, 600.0)
    assert np.all(none["fabric_goodput_loss"] == 0.0)
    rr = fabric.reroute_costs(inputs, 4.0, 600.0)
    i = list(rr["reroute"]).index("BGP hold timer, 90 s (conventional minimum)")
    with_events = evaluate(
        s.replace({"network.fabric_events_per_day": 4.0, "network.reroute_seconds": 90.0}),
        catalog,
    )
    g0 = evaluate(s.replace({"network.fabric_events_per_day": 0.0}), catalog)["goodput"]
    assert rr["fabric_goodput_loss"][i] == pytest.approx(g0 - with_events["goodput"], abs=1e-12)
    assert rr["fabric_cost_usd_per_day"][i] == pytest.approx(
        (g0 - with_events["goodput"]) * ev["cluster_usd_per_day"], rel=1e-9
    )
    assert not rr["becomes_job_failure"][i]
    assert list(fabric.reroute_costs(inputs, 4.0, 60.0)["becomes_job_failure"][[2, 3]]) == [
        True,
        True,
    ]


def test_fabric_changes_price_a_faster_fabric_as_compare_does(catalog):
    s = load_preset("llama3-70b")
    inputs = resolve_inputs(s, catalog)
    gbps = s["network.inter_node_gbps"] or float(inputs["instance.efa_gbps"])
    rows = fabric.fabric_changes(inputs, gbps)
    i = list(rows["change"]).index("Double the scale-out bandwidth")
    fast = compare(s, s.replace({"network.inter_node_gbps": 2 * gbps}), catalog)
    assert rows["savings_usd_per_day"][i] == pytest.approx(fast.savings_usd_per_day, rel=1e-9)
    assert rows["days_change"][i] == pytest.approx(fast.time_to_train_delta_days, rel=1e-9)


def test_tornado_swing_is_high_minus_low(ev, catalog):
    t = tornado(resolve_inputs(ev.scenario, catalog), 0.2, keys=["cluster.nodes"])
    for m in ("goodput", "lost_usd_per_day"):
        assert t["swing"][m][0] == pytest.approx(abs(t["high"][m][0] - t["low"][m][0]))
        assert t["swing"][m][0] > 0
