"""A slider shows the value the model uses, whatever the value: a failure rate above the
slider's usual top (2% per node-day, e.g. a fitted log's 3.99%) stretched the slider to the
value, and one step later the range moved with the value, Streamlit made a new widget and
the slider showed 0.00% while the model used the rate."""

from __future__ import annotations

import pytest
from goodput_lab.dashboard import state, url_state
from goodput_lab.dashboard.components.sidebar import slider_range
from goodput_lab.models import evaluate, load_preset

from tests.dashboard._pages import RATE_KEY, metric, open_page

RATE = "reliability.node_failure_rate_per_day"


def test_the_stretched_range_does_not_follow_the_value():
    assert slider_range(RATE, 1.5) == (0.0, 2.0)
    assert slider_range(RATE, 3.99) == slider_range(RATE, 3.98) == (0.0, 4.0)
    assert slider_range(RATE, 5.0) == (0.0, 8.0)
    assert slider_range(RATE, 99.0) == (0.0, 100.0)  # the field's own maximum
    assert slider_range("reliability.weibull_shape", 0.2) == (0.1, 2.0)  # the field's minimum


def test_a_rate_above_the_usual_range_stays_on_the_slider_step_after_step():
    scenario = load_preset("aws-16k-h100").replace({RATE: 0.0399})
    at = open_page("overview", url_state.encode(scenario, "aws-16k-h100"))
    assert at.slider(key=RATE_KEY).value == pytest.approx(3.99)
    for shown in (3.98, 3.97, 1.5, 1.49, 3.99, 3.98):
        if shown == 3.99:  # loaded, as the Failure log's "Use the fitted values" does
            at.session_state[state.VALUES_KEY][RATE] = shown
            at.run()
        else:
            at.slider(key=RATE_KEY).set_value(shown).run()
        assert not at.exception and not at.error, [e.value for e in at.error]
        assert at.slider(key=RATE_KEY).value == pytest.approx(shown)
        used = evaluate(scenario.replace({RATE: shown / 100}))
        assert metric(at, "Goodput") == f"{used['goodput'] * 100:.2f}%"
