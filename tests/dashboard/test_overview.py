"""AppTest of the Overview page: move the failure-rate slider, check goodput vs the model."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from goodput_lab.models import evaluate, load_preset
from streamlit.testing.v1 import AppTest

from tests.conftest import APP
from tests.dashboard._pages import open_sidebar

RATE_KEY = "w:reliability.node_failure_rate_per_day"


@pytest.fixture
def app() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_overview_shows_headline_figures(app, catalog):
    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    assert metric(app, "Goodput") == f"{ev['goodput'] * 100:.2f}%"
    assert metric(app, "Gain from 0.1 pp lower failure rate") == "+4.03 points"
    assert (
        metric(app, "Value of 0.1 pp lower failure rate")
        == f"${ev.value_of_reliability['usd_per_day_per_0p1pp']:,.0f}/day"
    )
    assert len(app.get("plotly_chart")) == 2
    # every tile's help names the formula and the source (from the output registry)
    assert "Formula" in next(m for m in app.metric if m.label == "Goodput").proto.help
    # what the run takes, as goodput evaluate prints it (QA pass 19 #8)
    from goodput_lab.views import display

    for key in ("time_to_train_days", "cost_to_train_usd", "step_seconds", "effective_mfu"):
        tile = display.tile(key, ev[key])
        assert metric(app, tile["label"]) == tile["value"], key
    # $436,357,575 overflowed the tile at 1024 px: millions on the tile, the exact amount
    # in its help
    assert metric(app, "Cost to train, instances") == f"${ev['cost_to_train_usd'] / 1e6:.1f}M"
    help_ = next(m for m in app.metric if m.label == "Cost to train, instances").proto.help
    assert f"Exact: ${ev['cost_to_train_usd']:,.0f}." in help_


def test_failure_rate_slider_updates_goodput(app, catalog):
    slider = next(s for s in app.slider if s.key == RATE_KEY)
    slider.set_value(0.5).run()  # 0.5 % per node-day
    assert not app.exception
    expected = evaluate(
        load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.005}),
        catalog,
    )
    assert metric(app, "Goodput") == f"{expected['goodput'] * 100:.2f}%"
    # the label says per day; two decimals, as every rate per day (not "10.000")
    assert metric(app, "Failures per day") == "10.00"


def test_waterfall_ends_at_goodput(app, catalog):
    import json

    spec = json.loads(app.get("plotly_chart")[0].proto.spec)
    trace = spec["data"][0]
    assert trace["type"] == "waterfall" and trace["orientation"] == "h"
    x = trace["x"]  # horizontal: values on x, every component's name on y
    if isinstance(x, dict):  # plotly encodes numpy arrays as base64 typed arrays
        x = np.frombuffer(base64.b64decode(x["bdata"]), dtype=x["dtype"]).tolist()
    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    assert x[0] == 100.0
    assert x[-1] == pytest.approx(ev["goodput"] * 100)
    # components that round to zero (fabric stalls, fallback rework) are left out, and the
    # bars still add up to the loss
    assert sum(x[1:-1]) == pytest.approx(-(1 - ev["goodput"]) * 100, abs=0.01)
    assert "Fabric reroute stalls" not in trace["y"]
    assert not any(t in ("−0.00", "-0.00") for t in trace["text"])
    assert spec["layout"]["title"]["text"]
    assert "%" in spec["layout"]["xaxis"]["title"]["text"]


def test_preset_switch_loads_llama3(app, catalog):
    app.selectbox(key="preset").set_value("llama3-16k").run()
    assert not app.exception
    ev = evaluate(load_preset("llama3-16k"), catalog)
    assert metric(app, "Goodput") == f"{ev['goodput'] * 100:.2f}%"


def test_missing_price_shows_clear_error(app):
    app.selectbox(key="w:cluster.instance").set_value("p6e-gb200.36xlarge").run()
    # the headline preset sets its own price, so switch to the catalog price
    app.checkbox(key="w:pricing.usd_per_instance_hour:catalog").check().run()
    assert not app.exception
    assert any("pricing.usd_per_instance_hour" in e.value.replace("\\", "") for e in app.error)


def test_checkpoint_strategy_choice_in_sidebar_changes_goodput(app, catalog):
    open_sidebar(app, "Checkpointing")
    box = app.selectbox(key="w:checkpoint.strategy")
    assert box.value == "durable_only"
    box.set_value("memory+durable").run()
    assert not app.exception
    expected = evaluate(
        load_preset("aws-16k-h100").replace({"checkpoint.strategy": "memory+durable"}), catalog
    )
    assert metric(app, "Goodput") == f"{expected['goodput'] * 100:.2f}%"
    assert expected["goodput"] != evaluate(load_preset("aws-16k-h100"), catalog)["goodput"]


def test_the_claims_caption_says_whose_figures_these_are():
    """QA pass 18: every preset's Overview said its "assumptions listed below" reproduce the
    blog's claim, Llama 3 70B on GB200 included."""
    from goodput_lab.models import evaluate, load_preset

    from goodput_lab.views.overview import reliability_caption

    assert "this preset reproduces it" in reliability_caption(evaluate(load_preset("aws-16k-h100")))
    other = reliability_caption(evaluate(load_preset("p6e-gb200-nvl72")))
    assert "the aws-16k-h100 preset reproduces it; the figures above are this scenario's" in other
    edited = load_preset("aws-16k-h100").replace({"cluster.nodes": 100})
    assert "this scenario's" in reliability_caption(evaluate(edited))


def test_time_to_train_tile_gives_the_headline_interval(app):
    """QA pass 22 H3: the tile's range was the step time's alone (67.8-118.5 days on
    aws-16k-h100) while goodput evaluate, the report and docs/decide.md give the interval
    over the failure rate and the step time (68.1-121.0); the instances' cost tile, which
    has only the step's, says so."""
    from goodput_lab.models.outputs import format_value

    ev = evaluate(load_preset("aws-16k-h100"))
    days = (
        f"80% range {format_value('time_to_train_days', ev['time_to_train_days_p10'], unit=False)}"
        f"–{format_value('time_to_train_days', ev['time_to_train_days_p90'])}"
    )
    # the unit once (it read 68.1 days–121.0 days); 68.2–122.1 since the prior spans eight
    # fleets (it was 68.1–121.0 with three)
    assert days == "80% range 68.2–122.1 days"
    captions = [c.value for c in app.caption]
    assert days in captions, captions
    assert any(c.startswith("80% range (step time only) $") for c in captions), captions


def test_a_tile_without_its_unit_has_a_range_without_it_too(app):
    """QA (overview at 1024 px): "Lost per day $505,992" sat over "80% range
    $323,191/day–$839,520/day", the unit the tile leaves out written twice and wrapped on
    three lines."""
    from goodput_lab.views import display

    ev = evaluate(load_preset("aws-16k-h100"))
    tile = display.tile("lost_usd_per_day", ev["lost_usd_per_day"])
    assert "/day" not in tile["value"]
    text = display.interval_text("lost_usd_per_day", ev.metrics)
    assert text.startswith("80% range $") and "/day" not in text
    assert text in [c.value for c in app.caption]
    # a tile that writes its unit keeps it in the range
    assert display.interval_text("step_seconds", ev.metrics).endswith(" s")


def test_the_inputs_table_words_choices_as_the_sidebar_does(app):
    """QA: the inputs table read "on_demand" and "modelled" (raw values) where the sidebar
    shows "On-Demand" and "Modelled (hardware)"."""
    table = next(t.value for t in app.table if "Source / meaning" in t.value.columns)
    row = table[table["Input"] == "Pricing model"].iloc[0]
    assert (row["Value"], row["Default"]) == ("On-Demand", "On-Demand")
    row = table[table["Input"] == "Step time basis"].iloc[0]
    assert row["Value"] == "Modelled (hardware)"
    assert "_" not in " ".join(table["Value"]) + " ".join(table["Default"])


@pytest.mark.parametrize(("rate", "shown"), [(None, "0.20%"), ("0.00379", "0.379%")])
def test_the_inputs_table_writes_the_failure_rate_as_the_slider_does(rate, shown):
    """QA: the inputs table read "0.2%" beside the sidebar slider's "0.20%"; both now take
    their decimals from views.display.input_decimals (the slider's step, more for a finer
    value: Llama 3's 0.379%)."""
    from goodput_lab.views import display
    from tests.dashboard._pages import open_page

    at = open_page("overview", {"reliability.node_failure_rate_per_day": rate} if rate else {})
    slider = next(s for s in at.slider if s.key == RATE_KEY)
    assert slider.proto.format % slider.value == shown  # what the slider writes
    table = next(t.value for t in at.table if "Source / meaning" in t.value.columns)
    row = table[table["Input"] == "Node failure rate"].iloc[0]
    assert (row["Value"], row["Default"]) == (shown, "0.20%")
    assert display.field_value("reliability.node_failure_rate_per_day", 0.002) == "0.20%"
    # an input without a slider keeps its own digits
    assert display.input_decimals("reliability.domain_failure_rate_per_day", 0.1) is None
