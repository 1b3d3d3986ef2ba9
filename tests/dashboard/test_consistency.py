"""One truth across pages: after a sidebar change every page shows figures of the current
scenario (never stale ones), names it and its price in force, and the Instances and
Optimizer pages name the same cheapest instance and node count."""

from __future__ import annotations

import pytest
from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.instances import rank_instances
from goodput_lab.models.optimize import optimize
from streamlit.testing.v1 import AppTest

from goodput_lab.views import display
from tests.conftest import APP
from tests.dashboard._pages import RATE_KEY, metric

PAGES = (
    "overview",
    "checkpoints",
    "network",
    "instances",
    "montecarlo",
    "compare",
    "sensitivity",
    "optimizer",
    "plan",
    "resilience",
    "run_log",
)


@pytest.fixture(scope="module")
def changed():
    """The app after visiting the decision pages (filling their caches with the preset), then
    changing two sidebar inputs: the failure rate and the price per instance-hour."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    for page in ("instances", "optimizer"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception
    at.slider(key=RATE_KEY).set_value(0.5).run()
    at.number_input(key="w:pricing.usd_per_instance_hour").set_value(70.0).run()
    assert not at.exception
    scenario = load_preset("aws-16k-h100").replace(
        {"reliability.node_failure_rate_per_day": 0.005, "pricing.usd_per_instance_hour": 70.0}
    )
    return at, scenario


def _header(at: AppTest) -> str:
    return " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("page", PAGES)
def test_page_header_names_the_modified_scenario_and_its_price(changed, page):
    at, _ = changed
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception
    head = _header(at).replace("\\", "")
    # an edited preset is never passed off as the preset, nor keeps numbers the edit changed
    # as its own ("(0.2% node failures/day)" at 0.5%): it is "Modified from" the preset
    assert "Modified from AWS 16k H100: headline-claim baseline" in head
    # a typed price is "entered": not the claim's historical price of 2023-07 (issue 26)
    assert "$70.00/instance-h** (entered)" in head
    assert "2023-07" not in head and "Historical price" not in head


def test_figures_follow_the_sidebar_on_every_page(changed, catalog):
    at, scenario = changed
    ev = evaluate(scenario, catalog)
    want = f"{ev['goodput'] * 100:.2f}%"
    at.switch_page("app_pages/overview.py").run()
    assert metric(at, "Goodput") == want
    at.switch_page("app_pages/checkpoints.py").run()
    assert metric(at, "Goodput") == want
    at.switch_page("app_pages/sensitivity.py").run()
    assert metric(at, "Goodput") == want
    at.switch_page("app_pages/network.py").run()
    assert metric(at, "Step time") == display.tile("step_seconds", ev["step_seconds"])["value"]
    at.switch_page("app_pages/montecarlo.py").run()
    assert metric(at, "Goodput, closed form") == want


def test_instances_and_optimizer_name_the_same_cheapest_instance(changed, catalog):
    at, scenario = changed
    # one default everywhere: no deadline on the pages, as without --deadline-days
    best = rank_instances(scenario, catalog, deadline_days=None).cheapest
    assert best.instance == optimize(scenario, catalog, None).instances.cheapest.instance
    at.switch_page("app_pages/instances.py").run()
    assert metric(at, "Cheapest instance") == best.instance
    assert metric(at, "Nodes") == display.tile("nodes", best.nodes)["value"]
    at.switch_page("app_pages/optimizer.py").run()
    assert not at.exception, at.exception
    assert any(
        best.instance in s.value and f"{best.nodes:,.0f} nodes" in s.value for s in at.success
    ), [s.value for s in at.success]
    assert any("Ranked without a deadline" in c.value for c in at.caption)
    o = optimize(scenario, catalog, None)
    assert metric(at, "Recommended checkpoint interval") == f"{o.interval.interval_minutes:.1f} min"
