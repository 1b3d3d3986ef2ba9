"""AppTest of the Optimizer page: recommendations equal models.optimize; apply; deadline."""

from __future__ import annotations

import pytest
from goodput_lab.models import compare, load_preset, resolve_inputs
from goodput_lab.models import optimize as opt

from tests.dashboard._pages import RATE_KEY, metric, open_page


@pytest.fixture(scope="module")
def app():
    return open_page("optimizer")


def _expected(scenario):
    iv = opt.recommend_checkpoint_interval(resolve_inputs(scenario))
    tuned = scenario.replace({"checkpoint.interval_minutes": iv.interval_minutes})
    sp = opt.recommend_spares(resolve_inputs(tuned))
    best = tuned.replace({"cluster.spare_nodes": sp.spares})
    return iv, sp, compare(scenario, best)


def test_recommendations_match_the_model(app):
    iv, sp, c = _expected(load_preset("aws-16k-h100"))
    assert metric(app, "Best checkpoint interval") == f"{iv.interval_minutes:.1f} min"
    assert metric(app, "Best hot spares") == str(sp.spares)
    assert metric(app, "Savings per day") == f"${c.savings_usd_per_day:,.0f}"
    assert c.savings_usd_per_day > 0
    assert any(f"up to **{sp.break_even_spares}**" in i.value for i in app.info)


def test_slider_changes_the_recommendation(app):
    app.slider(key=RATE_KEY).set_value(0.8).run()
    assert not app.exception
    iv, sp, _ = _expected(
        load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.008})
    )
    assert metric(app, "Best checkpoint interval") == f"{iv.interval_minutes:.1f} min"
    assert metric(app, "Best hot spares") == str(sp.spares)
    app.slider(key=RATE_KEY).set_value(0.2).run()


def test_apply_button_loads_the_recommendation_into_the_sidebar():
    at = open_page("optimizer")
    iv, sp, _ = _expected(load_preset("aws-16k-h100"))
    at.button(key="opt:apply").click().run()
    assert not at.exception
    assert at.slider(key="w:cluster.spare_nodes").value == sp.spares
    assert at.slider(key="w:checkpoint.interval_minutes").value == pytest.approx(
        iv.interval_minutes
    )
    # applied: nothing left to save
    assert metric(at, "Savings per day") in ("$0", "$-0")


def test_deadline_picks_cheapest_instance_meeting_it(catalog):
    at = open_page("optimizer")
    inputs = resolve_inputs(load_preset("aws-16k-h100"), catalog)
    days_now, _ = opt.time_and_cost_to_train(inputs)
    deadline = round(1.1 * float(days_now))  # reachable by the current cluster
    at.checkbox(key="opt:use_deadline").check().run()
    at.number_input(key="opt:deadline").set_value(float(deadline)).run()
    assert not at.exception
    rows = opt.rank_instances(inputs, catalog, "p5.48xlarge", deadline_days=deadline)
    best = rows[0]
    assert best["time_to_train_days"] <= deadline
    assert any(
        best["instance"] in s.value and f"{best['nodes']:,} nodes" in s.value for s in at.success
    )
