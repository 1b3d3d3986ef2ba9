"""What a run would have measured under a change (models.reconcile.estimated_goodput).

QA pass 21: the measured goodput plus the model's change in points read 103.19% for an
18-minute run (measured 33.33%, predicted 21.49%) with the failure rate cut from 4% to 0.2%
per node-day.  The estimate now scales the run's badput by the model's ratio of predicted
badputs, keeping the badput the model does not describe (the measured "other" time); the
CLI, the JSON and the Run log page read the one function.
"""

from __future__ import annotations

import math

import pytest
from goodput_lab.models import ValidationError, load_catalog
from goodput_lab.models.reconcile import estimated_goodput, reconcile
from goodput_lab.models.timeline import parse_timeline
from hypothesis import given
from hypothesis import strategies as st

from goodput_lab.views import run_log as svc
from tests.conftest import SHORT_RUN_LOG

# the QA's short run (tests/conftest.py): productive 5 + 1 = 6 min (step 2 redone from 9 to
# 10 after the restore), badput 12 min: restore 1, recovery 2, rework 1, other 8.
SHORT = SHORT_RUN_LOG
LOWER_RATE = [
    "reliability.node_failure_rate_per_day=0.002",
    "reliability.node_failure_rate_low=",
    "reliability.node_failure_rate_high=",
]
fraction = st.floats(0.0, 1.0, allow_nan=False)


def test_hand_computed_values():
    # the model halves the badput (0.25 -> 0.125): the run's 0.2 becomes 0.1
    assert estimated_goodput(0.8, 0.75, 0.875) == pytest.approx(0.9, abs=1e-15)
    # 0.1 of the 0.2 is not modelled: 0.1 + 0.1 × 0.5 = 0.15
    assert estimated_goodput(0.8, 0.75, 0.875, unmodelled=0.1) == pytest.approx(0.85, abs=1e-15)
    # no change: the measured goodput, exactly
    assert estimated_goodput(0.61, 0.7, 0.7, unmodelled=0.05) == 0.61
    # the model's badput nine times over (0.1 -> 0.9): 0.8 × 9 = 7.2, the whole run lost
    assert estimated_goodput(0.2, 0.9, 0.1) == 0.0
    # a worse change: 0.1 -> 0.2 doubles the run's 0.3 to 0.6
    assert estimated_goodput(0.7, 0.9, 0.8) == pytest.approx(0.4, abs=1e-15)
    # the fitted scenario predicts no badput: the candidate's 0.1 is added to the run's 0.5
    assert estimated_goodput(0.5, 1.0, 0.9) == pytest.approx(0.4, abs=1e-15)
    # more unmodelled than measured badput counts as all of it: nothing to scale
    assert estimated_goodput(0.9, 0.5, 0.99, unmodelled=0.3) == pytest.approx(0.9, abs=1e-15)
    # arrays in, array out
    out = estimated_goodput([0.8, 0.6], 0.75, 0.875)
    assert out.tolist() == pytest.approx([0.9, 0.8], abs=1e-15)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1.2, 0.5, 0.5), "measured_goodput: 1.2 is out of range (a fraction in [0, 1])"),
        ((0.5, -0.1, 0.5), "predicted_goodput: -0.1 is out of range (a fraction in [0, 1])"),
        ((0.5, 0.5, math.nan), "what-if predicted_goodput: nan is out of range"),
    ],
)
def test_bad_input_is_refused_naming_the_figure(args, message):
    with pytest.raises(ValidationError) as err:
        estimated_goodput(*args)
    assert str(err.value).startswith(message)


@given(fraction, fraction, fraction, fraction)
def test_always_a_goodput(measured, fitted, candidate, unmodelled):
    g = estimated_goodput(measured, fitted, candidate, unmodelled)
    assert 0.0 <= g <= 1.0
    if candidate >= fitted:  # a change the model says helps never lowers the run's goodput
        assert g >= measured - 1e-12
    else:
        assert g <= measured + 1e-12


def test_short_run_under_a_lower_failure_rate_stays_below_100_percent():
    r = reconcile(parse_timeline(SHORT), nodes=2000, trials=10, sets=LOWER_RATE)
    assert r.measured_goodput == pytest.approx(6 / 18, abs=1e-12)
    buckets = r.measurement.bucket_seconds
    assert buckets["other"] == pytest.approx(8 * 60.0)
    assert r.predicted_hours()["other"] == 0.0  # a fitted scenario predicts no "other"
    w = r.what_if
    g_fit, g_cand = r.predicted_goodput, w.predicted_goodput
    assert g_fit == pytest.approx(0.2149, abs=5e-5) and g_cand == pytest.approx(0.9135, abs=5e-5)
    # 8 idle minutes kept, the 4 failure minutes scaled by (1 - g_cand) / (1 - g_fit)
    by_hand = 1 - (8 + 4 * (1 - g_cand) / (1 - g_fit)) / 18
    assert w.estimated_goodput == pytest.approx(by_hand, rel=1e-12)
    assert w.estimated_goodput == pytest.approx(0.5311, abs=5e-5)  # was 1.0319
    d = r.to_json_dict()["what_if"]
    assert d["estimated_goodput"] == w.estimated_goodput


def test_the_run_log_page_reads_the_same_function():
    tl = parse_timeline(SHORT)
    r = reconcile(tl, nodes=2000, trials=10, sets=LOWER_RATE)
    catalog = load_catalog()
    view = svc.run_log_view(tl, r.base, 2000, catalog, 10, 0, "short.csv")
    assert view.unmodelled_fraction == pytest.approx(8 / 18, abs=1e-12)
    candidate = r.what_if.scenario
    w = svc.what_if_figures(view, svc.what_if(view, candidate, catalog))
    assert w["estimated_goodput"] == pytest.approx(r.what_if.estimated_goodput, rel=1e-12)
    assert w["predicted_goodput"] == pytest.approx(r.what_if.predicted_goodput, rel=1e-12)
