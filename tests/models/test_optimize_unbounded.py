"""QA 28 #14: at a 0 failure rate the optimum checkpoint interval is unbounded, as
``goodput evaluate`` says ("optimal unbounded"); the Optimizer recommends the longest
interval a scenario accepts (10,080 min) and says why, instead of calling that field maximum
the "exact optimum"."""

from __future__ import annotations

import json
import math

import pytest
from goodput_lab.models import evaluate, load_catalog, load_preset
from goodput_lab.models._tools import json_finite
from goodput_lab.models.optimize import MAX_INTERVAL_MINUTES, optimize

from goodput_lab.views import optimizer as svc

UNBOUNDED = (
    "the optimum is unbounded: with no failures a checkpoint only costs its save, so the "
    "longest interval a scenario accepts (10,080 min, checkpoint.interval_minutes) is "
    "recommended"
)


@pytest.fixture(scope="module")
def no_failures():
    s = load_preset("llama3-70b").replace({"reliability.node_failure_rate_per_day": 0.0})
    return s, optimize(s, load_catalog())


def test_at_a_zero_rate_the_optimum_is_unbounded_and_the_longest_interval_recommended(
    no_failures,
):
    s, o = no_failures
    iv = o.interval
    assert math.isinf(evaluate(s)["optimal_checkpoint_interval_minutes"])  # evaluate's
    assert iv.unbounded and iv.at_limit and math.isinf(iv.optimal_minutes)
    assert iv.interval_minutes == MAX_INTERVAL_MINUTES == 10_080.0
    assert iv.basis_text() == UNBOUNDED
    assert "exact optimum" not in iv.basis_text()


def test_the_json_keeps_the_optimum_apart_from_the_recommendation(no_failures):
    _, o = no_failures
    d = json.loads(json.dumps(json_finite(o.to_json_dict())))
    assert d["checkpoint_interval_minutes"] == 10_080.0  # the recommendation
    assert d["optimal_checkpoint_interval_minutes"] is None  # unbounded, as evaluate's JSON


def test_the_optimizer_page_says_the_optimum_is_unbounded(no_failures):
    _, o = no_failures
    note = svc.interval_note(o)
    assert note == UNBOUNDED[0].upper() + UNBOUNDED[1:] + "."
    tile = svc.headline_tiles(o)[0]
    assert tile["value"] == "10,080.0 min"
    assert tile["help"] == note  # not "The exact optimum of the checkpoint interval"


def test_a_rate_so_low_its_optimum_is_past_the_range_says_so():
    s = load_preset("llama3-70b").replace({"reliability.node_failure_rate_per_day": 1e-9})
    iv = optimize(s, load_catalog()).interval
    assert not iv.unbounded and iv.at_limit and iv.optimal_minutes > 100_000
    assert iv.interval_minutes == 10_080.0
    assert iv.basis_text().startswith("the exact optimum, 149,999 min (Daly/Lambert W), is beyond")


def test_an_ordinary_rate_is_the_exact_optimum_and_says_so():
    o = optimize(load_preset("llama3-70b"), load_catalog())
    iv = o.interval
    assert not iv.at_limit and iv.interval_minutes == pytest.approx(iv.optimal_minutes)
    assert iv.basis_text() == "exact optimum, Daly/Lambert W"
    assert svc.interval_note(o) == ""
    assert "a bounded Brent search" in svc.headline_tiles(o)[0]["help"]


def test_the_optimizer_page_shows_the_note_at_a_zero_rate():
    from tests.dashboard._pages import open_page

    at = open_page(
        "optimizer", {"preset": "llama3-70b", "reliability.node_failure_rate_per_day": "0"}
    )
    assert not at.exception
    assert any(i.value.startswith("The optimum is unbounded") for i in at.info), [
        i.value for i in at.info
    ]


def test_the_cli_line_says_the_optimum_is_unbounded(capsys):
    """goodput optimize at a 0 failure rate printed "exact optimum, Daly/Lambert W" beside
    the 10,080-min field maximum (QA 28 #14): its line now gives the basis in words."""
    from goodput_lab.cli.main import main

    args = ["optimize", "llama3-70b", "--set", "reliability.node_failure_rate_per_day=0"]
    assert main(args) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "checkpoint interval" in x)
    assert "10,080.0 min" in line and "the optimum is unbounded" in line
    assert "exact optimum" not in line
