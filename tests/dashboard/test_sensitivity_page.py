"""AppTest of the Sensitivity page: tornado bars equal the model; maps mark the scenario."""

from __future__ import annotations

import pytest
from goodput_lab.models import evaluate, load_preset

from tests.dashboard._pages import RATE_KEY, array, chart, metric, open_page


@pytest.fixture(scope="module")
def app():
    return open_page("sensitivity")


def test_tornado_bars_are_model_values(app, catalog):
    spec = chart(app, 0)
    lowered, raised = spec["data"][0], spec["data"][1]
    names = array(lowered["y"])
    i = names.index("Node failure rate (%)")
    base = load_preset("aws-16k-h100")
    g0 = evaluate(base, catalog)["goodput"] * 100
    lo = evaluate(base.replace({"reliability.node_failure_rate_per_day": 0.0016}), catalog)
    hi = evaluate(base.replace({"reliability.node_failure_rate_per_day": 0.0024}), catalog)
    assert lowered["base"] == pytest.approx(g0)
    assert g0 + array(lowered["x"])[i] == pytest.approx(lo["goodput"] * 100)
    assert g0 + array(raised["x"])[i] == pytest.approx(hi["goodput"] * 100)
    assert "Goodput" in spec["layout"]["xaxis"]["title"]["text"]
    # widest swing drawn on top (plotly draws the last category at the top)
    assert names[-1] in ("Nodes in the job (nodes)", "Node failure rate (%)")
    # every row drawn has a bar; the price, which does not move goodput, is named instead
    pairs = zip(array(lowered["x"]), array(raised["x"]), strict=True)
    assert all(abs(a) + abs(b) > 0 for a, b in pairs)
    assert not any(n.startswith("Price") for n in names)
    assert "Not moving it: Price" in spec["layout"]["title"]["subtitle"]["text"]


def test_percentage_slider_widens_the_bars(app):
    before = array(chart(app, 0)["data"][1]["x"])
    app.slider(key="widget::sens:pct").set_value(40).run()
    assert not app.exception
    after = array(chart(app, 0)["data"][1]["x"])
    assert max(abs(v) for v in after) > max(abs(v) for v in before)
    app.slider(key="widget::sens:pct").set_value(20).run()


def test_heatmaps_mark_the_current_point(app, catalog):
    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    rate_interval, nodes_rate = chart(app, 2), chart(app, 3)
    marker = rate_interval["data"][1]
    assert array(marker["x"]) == [pytest.approx(40.0)]
    assert array(marker["y"]) == [pytest.approx(0.2)]
    assert marker["name"] == f"This scenario: {ev['goodput'] * 100:.2f}%"
    assert array(nodes_rate["data"][1]["x"]) == [pytest.approx(2000)]
    z = array(nodes_rate["data"][0]["z"])
    assert all(a >= b for a, b in zip(z[0], z[0][1:], strict=False))  # more nodes, less goodput
    # QA: the nodes axis read 2000, 4000 where every other chart writes 2,000
    for fig in (rate_interval, nodes_rate):
        assert fig["layout"]["xaxis"]["tickformat"] == fig["layout"]["yaxis"]["tickformat"]
        assert fig["layout"]["xaxis"]["tickformat"] == ",~f"


def test_sidebar_slider_moves_the_headline(app, catalog):
    app.slider(key=RATE_KEY).set_value(0.5).run()
    assert not app.exception
    ev = evaluate(
        load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.005}),
        catalog,
    )
    assert metric(app, "Goodput") == f"{ev['goodput'] * 100:.2f}%"
    assert metric(app, "Lost per day") == f"${ev['lost_usd_per_day']:,.0f}"


def test_colour_by_lost_dollars(app):
    app.radio(key="widget::sens:heat_metric").set_value("Lost per day").run()
    assert not app.exception
    assert "$/day" in chart(app, 2)["data"][0]["colorbar"]["title"]["text"]


def test_heatmap_colours_span_the_realistic_region(app):
    """The extreme corner (3x the failure rate, a tiny interval) does not set the scale: the
    colours span the region within 2x of the scenario, and the ends say what is beyond."""
    app.radio(key="widget::sens:heat_metric").set_value("Goodput").run()
    heat = chart(app, 2)["data"][0]
    z = [v for row in array(heat["z"]) for v in row]
    assert heat["zmin"] > min(z) + 1  # more than a point of goodput clipped at the bottom
    assert heat["colorbar"]["ticktext"][0].startswith("≤ ")
    captions = " ".join(c.value for c in app.caption)
    assert "share the end colours" in captions


def test_each_input_is_listed_under_one_heading(app):
    """QA: "Commitment used" (100% and no effect under on-demand pricing) appeared under
    both "No effect" and "Stopped at the allowed range"."""
    captions = [c.value for c in app.caption]
    still = next(c for c in captions if c.startswith("No effect on these two figures"))
    assert "Commitment used" in still
    stopped = [c for c in captions if c.startswith("Stopped at the allowed range")]
    names = [n.strip(" .") for c in [still, *stopped] for n in c.split(":", 1)[1].split(", ")]
    assert len(names) == len(set(names)), names
    assert not any("Commitment used" in c for c in stopped)
