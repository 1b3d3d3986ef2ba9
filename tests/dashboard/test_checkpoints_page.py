"""AppTest of the Checkpoints page: metrics vs the model, the memory-vs-shared-FS answer
(same numbers as `goodput compare` of the two presets), the replica control, chart data."""

from __future__ import annotations

import base64
import json

import numpy as np
import polars as pl
import pytest
from goodput_lab.models import ValidationError, compare, evaluate, load_preset
from goodput_lab.models import checkpoint as ck
from streamlit.testing.v1 import AppTest

from goodput_lab.views import checkpoints as svc
from goodput_lab.views import display
from tests.conftest import APP

PAGE = "app_pages/checkpoints.py"


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def savings_shown(at: AppTest, value: float) -> bool:
    """The page's savings tile reads as the registry words it ("Saves/Costs per day")."""
    t = display.tile("savings_usd_per_day", value, savings=True)
    return metric(at, t["label"]) == t["value"]


def _array(v):
    if isinstance(v, dict):  # plotly encodes numpy arrays as base64 typed arrays
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v, dtype=float)


def test_one_baseline_equal_to_the_overview(page, catalog):
    """The page's baseline is the sidebar scenario: every figure of it equals the Overview's
    (no second 'shared FS only' baseline with other save times next to it)."""
    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    assert metric(page, "Blocking save (level 1)") == "60.0 s"
    assert metric(page, "Goodput") == f"{ev['goodput'] * 100:.2f}%"
    assert metric(page, "Goodput, this scenario") == f"{ev['goodput'] * 100:.2f}%"
    table = next(df.value for df in page.table if "Strategy" in df.value.columns)
    first = table.iloc[0]
    assert first["Strategy"] == "This scenario (sidebar)"
    assert first["Goodput (%)"] == f"{ev['goodput'] * 100:.2f}"
    assert first["Save/restore times"] == "measured (entered)"
    assert first["Saves or costs per day"] == "no change"  # against itself, as the chart
    # every alternative states its basis
    assert set(table["Save/restore times"].iloc[1:]) == {"tier model"}
    assert set(table["Interval"].iloc[1:]) == {"optimal"}
    # the times in a second table, the same strategies in the same order
    times = next(df.value for df in page.table if "Blocking save (level 1) (s)" in df.value.columns)
    assert list(times["Strategy"]) == list(table["Strategy"])
    assert times.iloc[0]["Blocking save (level 1) (s)"] == "60.0"
    # the memory answer is a comparison with this scenario, as models.compare computes it
    memory = load_preset("aws-16k-h100").replace(
        {
            "checkpoint.timings": "tier_model",
            "checkpoint.strategy": "memory+durable",
            "checkpoint.memory_replicas": 2,
            "checkpoint.interval_minutes": "optimal",
        }
    )
    c = compare(load_preset("aws-16k-h100"), memory, catalog)
    assert savings_shown(page, c.savings_usd_per_day)
    assumptions = next(df.value for df in page.table if "Figure" in df.value.columns)
    assert assumptions.iloc[0]["This scenario"] == "measured (entered)"
    assert len(page.get("plotly_chart")) == 3


def test_sharedfs_preset_answers_the_readme_question(page, catalog):
    """Acceptance: with aws-16k-h100-sharedfs in the sidebar the page shows what `goodput
    compare aws-16k-h100-sharedfs aws-16k-h100-memory` gives ($231,634/day)."""
    page.selectbox(key="preset").set_value("aws-16k-h100-sharedfs").run()
    assert not page.exception
    c = compare(load_preset("aws-16k-h100-sharedfs"), load_preset("aws-16k-h100-memory"), catalog)
    assert savings_shown(page, c.savings_usd_per_day)
    assert metric(page, "Goodput, this scenario") == f"{c.baseline['goodput'] * 100:.2f}%"
    assert c.savings_usd_per_day == pytest.approx(231_634, abs=1)


def test_replica_slider_changes_answer(page, catalog):
    page.selectbox(key="preset").set_value("aws-16k-h100-sharedfs").run()
    page.slider(key="widget::ckpt:replicas").set_value(1).run()
    assert not page.exception
    base = load_preset("aws-16k-h100-sharedfs")
    one = load_preset("aws-16k-h100-memory").replace({"checkpoint.memory_replicas": 1})
    c = compare(base, one, catalog)
    assert savings_shown(page, c.savings_usd_per_day)
    two = compare(base, load_preset("aws-16k-h100-memory"), catalog)
    assert c.savings_usd_per_day < two.savings_usd_per_day  # one copy: most failures fall back


def test_charts_mark_the_optimum(page, catalog):
    charts = [json.loads(c.proto.spec) for c in page.get("plotly_chart")]
    waste = next(c for c in charts if c["layout"]["title"]["text"].startswith("Waste"))
    assert waste["layout"]["title"]["text"]
    assert "%" in waste["layout"]["yaxis"]["title"]["text"]
    traces = waste["data"]
    assert len(traces) == 2 * (len(svc.VARIANTS) + 1)  # this scenario, then the variants
    for line, star in zip(traces[0::2], traces[1::2], strict=True):
        y = _array(line["y"])
        assert _array(star["y"])[0] <= y.min() + 1e-9  # nothing on the grid beats the ★
    s = svc.variant(load_preset("aws-16k-h100"), dict(svc.VARIANTS[0][1]))
    t_opt = evaluate(s, catalog)["optimal_checkpoint_interval_minutes"]
    assert _array(traces[3]["x"])[0] == pytest.approx(t_opt)
    replica = next(c for c in charts if "replicas" in c["layout"]["xaxis"]["title"]["text"])
    adjacent = _array(replica["data"][0]["y"])
    assert np.all(np.diff(adjacent) <= 1e-12)  # more replicas never lose more often


def test_hyperpod_preset_on_the_page(page, catalog):
    page.selectbox(key="preset").set_value("hyperpod-tiered-16k-h100").run()
    assert not page.exception
    ev = evaluate(load_preset("hyperpod-tiered-16k-h100"), catalog)
    assert metric(page, "Blocking save (level 1)") == f"{ev['save_seconds']:.1f} s"
    # two decimals, as every rate per day in the registry (0.336 read "0.336" beside "2.51")
    assert ev["fallback_failures_per_day"] == pytest.approx(0.33604, abs=1e-5)
    assert metric(page, "Fallbacks per day") == "0.34"


def test_edited_tier_table_is_validated():
    df = svc.tier_table(ck.load_tiers())
    assert svc.tiers_from_table(df) == ck.load_tiers()
    bad = df.with_columns(
        pl.when(pl.col("tier") == "nvme")
        .then(-1.0)
        .otherwise(pl.col("write_GBps_per_node"))
        .alias("write_GBps_per_node")
    )
    with pytest.raises(ValidationError, match="row 3, column write_GBps_per_node"):
        svc.tiers_from_table(bad)


def test_memory_capacity_warning(page):
    """405B × 16 B on 4 nodes = 1,620 GB per node per copy: 2 copies exceed the 1,100 GB
    memory tier, so the page warns."""
    page.number_input(key="w:cluster.nodes").set_value(4).run()
    assert not page.exception
    assert any("3,240 GB per node" in w.value for w in page.warning)


def test_strategy_table_savings_are_the_models_comparison(catalog):
    """Issue 26: the service re-derived the savings with a formula of its own (no ratio of
    productive times); each row is now models.compare's figure for the same pair."""
    from goodput_lab.models import compare, load_preset
    from goodput_lab.models.checkpoint import load_tiers

    from goodput_lab.views import checkpoints as svc

    s = load_preset("aws-16k-h100")
    tiers = load_tiers()
    table = svc.strategy_table(s, catalog, tiers)
    for (label, over), row in zip(svc.VARIANTS, table.rows(named=True)[1:], strict=True):
        want = compare(s, svc.variant(s, over), catalog, tiers).savings_usd_per_day
        assert row["savings_usd_per_day"] == pytest.approx(want, rel=1e-12), label


def test_the_replica_chart_labels_a_tick_above_its_highest_point(catalog):
    """QA pass 18: the 1-replica point sat above the top tick (10) with no tick over it."""
    import math

    from goodput_lab.charts.checkpoints import replica_chart

    survival = svc.replica_survival(load_preset("aws-16k-h100"), catalog, ck.load_tiers())
    fig = replica_chart(survival, 2)
    y = survival["fallback_probability"].to_numpy() * 100
    ticks = list(fig.layout.yaxis.tickvals)
    assert max(ticks) >= y[y > 0].max() and min(ticks) <= y[y > 0].min()
    lo, hi = fig.layout.yaxis.range
    assert 10**lo <= y[y > 0].min()
    assert 10**hi >= y.max() and math.isclose(10**hi, max(ticks))


def test_this_scenario_is_described_in_the_sidebars_words(page):
    """QA: the caption read "Strategy durable_only, durable tier shared_fs, sync saves" and
    the memory table "Save mode: sync" (raw values where the sidebar shows words)."""
    caption = next(c.value for c in page.caption if c.value.startswith("Strategy "))
    assert caption.startswith(
        "Strategy **Durable tier only**, durable tier **Shared file system**, save mode "
        "**Blocking (sync)**; save/restore times **measured (entered)**"
    )
    assert not any(raw in caption for raw in ("durable_only", "shared_fs", "_"))
    memory = next(t.value for t in page.table if "Figure" in t.value.columns)
    row = memory[memory["Figure"] == "Save mode"].iloc[0]
    assert row["This scenario"] == "Blocking (sync)"


def test_two_strategies_with_the_same_waste_curve_both_stay_visible(catalog):
    """QA (llama3-70b): "Durable only, async" and "Memory + durable, async" have nearly the
    same curve, so the legend listed a line the chart did not show; each line has its own
    dash now."""
    from goodput_lab.charts.checkpoints import waste_curve_chart

    curves, optima = svc.waste_curves(load_preset("llama3-70b"), catalog, None)
    fig = waste_curve_chart(curves, optima)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert len(lines) == optima.height
    assert len({(t.line.color, t.line.dash) for t in lines}) == len(lines)
    assert len({t.line.dash for t in lines}) == len(lines)
