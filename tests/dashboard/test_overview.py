"""AppTest of the Overview page: move the failure-rate slider, check goodput vs the model."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from goodput_lab.models import evaluate, load_preset
from streamlit.testing.v1 import AppTest

from tests.conftest import APP

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
    assert metric(app, "Goodput (Daly exact)") == f"{ev['goodput'] * 100:.2f}%"
    assert metric(app, "Goodput gain") == "+4.03 points"
    assert (
        metric(app, "Savings per day")
        == f"${ev.value_of_reliability['usd_per_day_per_0p1pp']:,.0f}"
    )
    assert len(app.get("plotly_chart")) == 2


def test_failure_rate_slider_updates_goodput(app, catalog):
    slider = next(s for s in app.slider if s.key == RATE_KEY)
    slider.set_value(0.5).run()  # 0.5 % per node-day
    assert not app.exception
    expected = evaluate(
        load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.005}),
        catalog,
    )
    assert metric(app, "Goodput (Daly exact)") == f"{expected['goodput'] * 100:.2f}%"
    assert metric(app, "Failures per day") == "10.00"


def test_waterfall_ends_at_goodput(app, catalog):
    import json

    spec = json.loads(app.get("plotly_chart")[0].proto.spec)
    trace = spec["data"][0]
    assert trace["type"] == "waterfall"
    y = trace["y"]
    if isinstance(y, dict):  # plotly encodes numpy arrays as base64 typed arrays
        y = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"]).tolist()
    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    assert y[0] == 100.0
    assert y[-1] == pytest.approx(ev["goodput"] * 100)
    assert sum(y[1:-1]) == pytest.approx(-(1 - ev["goodput"]) * 100)
    assert spec["layout"]["title"]["text"]
    assert "%" in spec["layout"]["yaxis"]["title"]["text"]


def test_preset_switch_loads_llama3(app, catalog):
    app.selectbox(key="preset").set_value("llama3-16k").run()
    assert not app.exception
    ev = evaluate(load_preset("llama3-16k"), catalog)
    assert metric(app, "Goodput (Daly exact)") == f"{ev['goodput'] * 100:.2f}%"


def test_missing_price_shows_clear_error(app):
    app.selectbox(key="w:cluster.instance").set_value("p6e-gb200.36xlarge").run()
    # the headline preset sets its own price, so switch to the catalog price
    app.checkbox(key="w:pricing.usd_per_instance_hour:catalog").check().run()
    assert not app.exception
    assert any("pricing.usd_per_instance_hour" in e.value.replace("\\", "") for e in app.error)


def test_checkpoint_strategy_choice_in_sidebar_changes_goodput(app, catalog):
    box = app.selectbox(key="w:checkpoint.strategy")
    assert box.value == "durable_only"
    box.set_value("memory+durable").run()
    assert not app.exception
    expected = evaluate(
        load_preset("aws-16k-h100").replace({"checkpoint.strategy": "memory+durable"}), catalog
    )
    assert metric(app, "Goodput (Daly exact)") == f"{expected['goodput'] * 100:.2f}%"
    assert expected["goodput"] != evaluate(load_preset("aws-16k-h100"), catalog)["goodput"]
