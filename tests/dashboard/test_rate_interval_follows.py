"""A stated 80% interval of the failure rate (a fitted log's) moves with the rate when the
rate alone is edited (QA pass 21, H2): lowering the rate after loading a fitted scenario
blanked every page with "node_failure_rate_low ... at most the rate", and `--set` of the
rate on a fitted scenario was refused the same way."""

from __future__ import annotations

import pytest
from goodput_lab.dashboard import url_state
from goodput_lab.models import evaluate, load_preset

from tests.dashboard._pages import metric, open_page

FITTED = {
    "reliability.node_failure_rate_per_day": 0.0041,
    "reliability.node_failure_rate_low": 0.0039,
    "reliability.node_failure_rate_high": 0.0043,
}


def test_set_of_the_rate_moves_the_fitted_interval_with_it():
    fitted = load_preset("llama3-70b").replace(FITTED)
    halved = fitted.with_overrides(["reliability.node_failure_rate_per_day=0.00205"])
    assert halved["reliability.node_failure_rate_low"] == pytest.approx(0.00195)
    assert halved["reliability.node_failure_rate_high"] == pytest.approx(0.00215)
    ev = evaluate(halved)  # refused before: the low end above the rate
    assert ev["goodput_low"] < ev["goodput"] < ev["goodput_high"]
    # an edit that states the interval too keeps what it states
    both = fitted.with_overrides(
        [
            "reliability.node_failure_rate_per_day=0.002",
            "reliability.node_failure_rate_low=0.001",
            "reliability.node_failure_rate_high=0.003",
        ]
    )
    assert (
        both["reliability.node_failure_rate_low"],
        both["reliability.node_failure_rate_high"],
    ) == (
        0.001,
        0.003,
    )


def test_the_sidebar_rate_moves_the_fitted_interval_and_says_so():
    scenario = load_preset("llama3-70b").replace(FITTED)
    at = open_page("overview", url_state.encode(scenario, "llama3-70b"))
    at.slider(key="w:reliability.node_failure_rate_per_day").set_value(0.205).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    expected = evaluate(scenario.with_overrides(["reliability.node_failure_rate_per_day=0.00205"]))
    assert metric(at, "Goodput") == f"{expected['goodput'] * 100:.2f}%"
    notes = " ".join(i.value for i in at.info)
    assert "0.39–0.43% → 0.195–0.215% per node-day" in notes, notes
