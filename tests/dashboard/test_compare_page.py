"""AppTest of the Compare page: headline savings, waterfall sums, edits, uploads."""

from __future__ import annotations

import pytest
from goodput_lab.models import compare, load_preset

from tests.dashboard._pages import RATE_KEY, array, chart, metric, open_page


@pytest.fixture(scope="module")
def app():
    return open_page("compare")


def test_default_compare_reproduces_headline_claim(app, catalog):
    c = compare(load_preset("aws-16k-h100"), load_preset("aws-16k-h100-improved"), catalog)
    assert metric(app, "Goodput change") == f"{c.goodput_delta * 100:+.2f} points"
    assert metric(app, "Savings per day") == f"${c.savings_usd_per_day:,.0f}"
    # published claim: up to $200,000/day for 16,000 H100 (docs/references.md#headline-claim)
    assert 185_000 <= c.savings_usd_per_day <= 210_000
    assert metric(app, "Savings per year") == f"${c.savings_usd_per_day * 365.25:,.0f}"
    assert metric(app, "Savings per month") == f"${c.savings_usd_per_day * 365.25 / 12:,.0f}"


def test_waterfall_components_add_up_to_savings(app, catalog):
    c = compare(load_preset("aws-16k-h100"), load_preset("aws-16k-h100-improved"), catalog)
    trace = chart(app, 0)["data"][0]
    assert trace["type"] == "waterfall"
    y = array(trace["y"])
    assert y[-1] == pytest.approx(c.savings_usd_per_day)
    assert sum(y[:-1]) == pytest.approx(c.savings_usd_per_day, rel=1e-9)
    # same price, nodes and spares: nothing comes from running cost
    x = array(trace["x"])
    assert y[x.index("Running cost (price, nodes, spares)")] == pytest.approx(0.0, abs=1e-6)
    # the rework component carries the biggest share at 40-minute checkpoints
    assert x[max(range(len(y) - 1), key=lambda i: y[i])] == "Rework since last checkpoint"


def test_every_metric_is_listed(app):
    df = app.dataframe[0].value
    for key in ("goodput", "lost_usd_per_day", "total_usd_per_day", "mtbf_hours"):
        assert key in set(df["metric"])


def test_edits_and_sidebar_slider_feed_the_comparison(catalog):
    at = open_page("compare")
    at.selectbox(key="cmp:candidate").set_value("Current scenario (sidebar)").run()
    at.text_area(key="cmp:candidate:edits").input("cluster.spare_nodes = 8").run()
    assert not at.exception
    base = load_preset("aws-16k-h100")
    c = compare(base, base.replace({"cluster.spare_nodes": 8}), catalog)
    assert metric(at, "Savings per day") == f"${c.savings_usd_per_day:,.0f}"
    # spares cost money: the waterfall's running-cost bar is −8 nodes × $98.32 × 24 h
    trace = chart(at, 0)["data"][0]
    x, y = array(trace["x"]), array(trace["y"])
    assert y[x.index("Running cost (price, nodes, spares)")] == pytest.approx(-8 * 98.32 * 24)
    at.slider(key=RATE_KEY).set_value(0.5).run()  # baseline follows the sidebar
    b2 = base.replace({"reliability.node_failure_rate_per_day": 0.005})
    c2 = compare(b2, b2.replace({"cluster.spare_nodes": 8}), catalog)
    assert metric(at, "Savings per day") == f"${c2.savings_usd_per_day:,.0f}"


def test_bad_edit_and_bad_upload_give_clear_messages():
    at = open_page("compare")
    at.text_area(key="cmp:candidate:edits").input("cluster.nodes = -3").run()
    assert not at.exception
    assert any("cluster.nodes" in e.value and "out of range" in e.value for e in at.error)
    at.text_area(key="cmp:candidate:edits").input("").run()
    at.selectbox(key="cmp:baseline").set_value("Uploaded TOML file").run()
    assert any("Upload a scenario file" in i.value for i in at.info)
    at.file_uploader(key="cmp:baseline:file").set_value(
        ("broken.toml", b"[cluster\nnodes = 1", "application/toml")
    ).run()
    assert not at.exception
    assert any("broken.toml" in e.value and "not valid TOML" in e.value for e in at.error)


def test_uploaded_baseline_is_compared(catalog):
    at = open_page("compare")
    at.selectbox(key="cmp:baseline").set_value("Uploaded TOML file").run()
    raw = load_preset("llama3-16k").to_toml().encode()
    at.file_uploader(key="cmp:baseline:file").set_value(("l3.toml", raw, "application/toml")).run()
    assert not at.exception
    c = compare(load_preset("llama3-16k"), load_preset("aws-16k-h100-improved"), catalog)
    assert metric(at, "Savings per day") == f"${c.savings_usd_per_day:,.0f}"
