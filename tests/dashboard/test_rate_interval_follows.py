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
    assert "(0.39–0.43%) moved with the rate: → 0.195–0.215% per node-day" in notes, notes


def test_a_rate_of_0_and_back_returns_to_the_fleet_prior():
    """QA pass 22: a rate of 0 scaled the interval to 0-0, and every later rate was then
    refused ("node_failure_rate_high: 0 is out of range (at least the rate ...)")."""
    scenario = load_preset("llama3-70b").replace(FITTED)
    zero = scenario.with_overrides(["reliability.node_failure_rate_per_day=0"])
    assert zero["reliability.node_failure_rate_low"] is None
    back = zero.with_overrides(["reliability.node_failure_rate_per_day=0.004"])
    assert evaluate(back)["goodput_low"] < evaluate(back)["goodput_high"]
    at = open_page("overview", url_state.encode(scenario, "llama3-70b"))
    at.slider(key="w:reliability.node_failure_rate_per_day").set_value(0.0).run()
    assert "the fleet prior around the rate is used" in " ".join(i.value for i in at.info)
    at.slider(key="w:reliability.node_failure_rate_per_day").set_value(0.4).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    expected = evaluate(back)
    assert metric(at, "Goodput") == f"{expected['goodput'] * 100:.2f}%"


def test_a_moved_interval_past_the_fields_range_returns_to_the_fleet_prior():
    """QA pass 22: the field's own maximum rate (1 per node-day) moved the interval's top
    end to 1.048 and was refused under node_failure_rate_high."""
    top = (
        load_preset("llama3-70b")
        .replace(FITTED)
        .with_overrides(["reliability.node_failure_rate_per_day=1"])
    )
    assert top["reliability.node_failure_rate_high"] is None
    assert evaluate(top)["failures_per_day"] == pytest.approx(128.0)


def test_the_sidebar_words_the_note_with_the_clis_function(monkeypatch):
    """The sidebar's note and the CLI's come from models._text.rate_interval_note, so the
    two cannot drift: the sidebar shows what that function returns, given the interval in %
    per node-day before and after (None, None when it is emptied)."""
    from goodput_lab.models import _text

    calls = []

    def spy(was, now, how):
        calls.append((was, now, how))
        return f"NOTE {was} {now} {how}"

    monkeypatch.setattr(_text, "rate_interval_note", spy)
    scenario = load_preset("llama3-70b").replace(FITTED)
    at = open_page("overview", url_state.encode(scenario, "llama3-70b"))
    at.slider(key="w:reliability.node_failure_rate_per_day").set_value(0.205).run()
    at.slider(key="w:reliability.node_failure_rate_per_day").set_value(0.0).run()
    assert not at.exception
    (was, now, how), (was0, now0, _) = calls
    assert was == pytest.approx((0.39, 0.43)) and now == pytest.approx((0.195, 0.215))
    assert how == "Advanced → Failure model"
    assert was0 == pytest.approx((0.195, 0.215)) and now0 == (None, None)
    assert f"NOTE {was0} {now0} {how}" in " ".join(i.value for i in at.info)
