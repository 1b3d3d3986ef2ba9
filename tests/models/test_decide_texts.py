"""models/decide.py and the Decide page's texts, checked on hand-made rows (no search): the
target's percentage, runs that never finish, the spares of the nodes tile, the Savings
Plan's commitment, the On-Demand rate a block's overrun is billed at (QA 28)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from goodput_lab.models import ValidationError, load_catalog, load_preset
from goodput_lab.models.decide import (
    _fallback_rate,
    _savings_plan_notes,
    _what_would_change,
    _why_not,
    _would_take,
    cost_words,
    decide,
    percent_target,
)

from goodput_lab.views.decide import choice_tiles, targets_line


def _row(**kw):
    row = {
        "key": "k",
        "instance": "p5.48xlarge",
        "nodes": 816,
        "spare_nodes": 0,
        "_paid_spares": 0.0,
        "_spare_domains": 0,
        "_in_domain_spares": 0,
        "pricing_model": "on_demand",
        "pricing_label": "On-Demand",
        "block_days": None,
        "checkpoint_strategy": "durable_only",
        "checkpoint_interval_minutes": 5.4,
        "features": [],
        "usd_per_instance_hour": 55.04,
        "probability_finish_by_deadline": 0.9,
        "expected_total_cost_usd": 29e6,
        "total_cost_usd_p10": 21e6,
        "total_cost_usd_p90": 39e6,
        "_unfinished": 0.0,
        "_horizon_days": 744.0,
    }
    row.update(kw)
    return row


def test_a_confidence_of_999_per_mille_reads_99_9_percent_in_every_text():
    """QA 28 #12: "finish within 10 days with probability 100%", "reaches 100% with a
    deadline of 18.3 days" and "27.0% < 100%" for a confidence of 0.999."""
    assert [percent_target(p) for p in (0.5, 0.9, 0.95, 0.975, 0.999)] == [
        "50%",
        "90%",
        "95%",
        "97.5%",
        "99.9%",
    ]
    r = _row(probability_finish_by_deadline=0.27)
    assert _why_not(r, None, 0.999, 10.0, None, False).endswith("27.0% < 99.9%")
    closest = _row(probability_finish_by_deadline=0.7815)
    results = {"k": {"time_to_finish_days": np.linspace(8.0, 18.0, 1000)}}
    text = _would_take(closest, {}, results, 0.999, 10.0, [])["text"]
    assert "reaches 99.9% with a deadline of 18.0 days" in text and "100%" not in text
    d = SimpleNamespace(deadline_days=10.0, confidence=0.999, budget_usd=None)
    assert "confidence 99.9%" in targets_line(d)


def test_runs_that_never_finish_are_said_in_words_not_na_inf_or_a_dash():
    """QA 28 #13: "expected n/a (80% range $42.7M–n/a)", "reaches 90% with a deadline of
    inf days" and the tile "80% range $42.2M–—"."""
    r = _row(
        probability_finish_by_deadline=0.021,
        expected_total_cost_usd=math.inf,
        total_cost_usd_p10=42.7e6,
        total_cost_usd_p90=math.inf,
        _unfinished=0.35,
        _horizon_days=426.4,
    )
    words = cost_words(r)
    assert words == (
        "but 35% of the runs do not finish within the simulated horizon (426 days, 4× the "
        "compute time), so it has no expected cost (10% of the runs cost at most $42.7M)"
    )
    results = {"k": {"time_to_finish_days": np.r_[np.full(650, 40.0), np.full(350, np.inf)]}}
    text = _would_take(r, {}, results, 0.9, 45.0, [])["text"]
    assert text == (
        "p5.48xlarge × 816 reaches 90% by no deadline: 35% of the runs do not finish within "
        "the simulated horizon (426 days, 4× the compute time), or a target of 2.1% by day 45"
    )
    tiles = choice_tiles(r)
    shown = " ".join(t["value"] + " " + caption for t, caption in tiles)
    for bad in ("n/a", "inf", "—"):
        assert bad not in shown, (bad, shown)
    assert tiles[1][0]["value"] == "35% unfinished"
    assert tiles[1][1].startswith("35% of the runs do not finish within the simulated horizon")
    # on time, but some runs never finish: no "P90 cost of $inf" budget
    late = _row(**{**r, "probability_finish_by_deadline": 0.724, "_unfinished": 0.15})
    text = _would_take(late, {}, results, 0.7, 45.0, [])["text"]
    assert "$inf" not in text and "15% of the runs do not finish" in text
    # finite figures read as before
    assert cost_words(_row()) == "expected $29.0M (80% range $21.0M–$39.0M)"


def test_the_nodes_tile_names_the_spares_the_answer_buys():
    """QA 28 #7: the answer bought "948 + 72 spare (4 spare domains)", the Nodes tile read
    "948 nodes" and "948 + 0 spare"."""
    c = _row(nodes=948, instance="p6e-gb200.36xlarge", _paid_spares=72.0, _spare_domains=4)
    tile, caption = choice_tiles(c)[2]
    assert tile["value"] == "1,020 nodes"
    assert caption == "948 + 72 spare (4 spare domains) × p6e-gb200.36xlarge"
    tile, caption = choice_tiles(_row())[2]
    assert (tile["value"], caption) == ("816 nodes", "816 × p5.48xlarge")


def test_a_savings_plan_answer_notes_the_term_commitment_and_the_use_assumed():
    """QA 28 #11: "Buy 816 × p5.48xlarge on Savings Plan, 1 year … expected $25.4M" and no
    word of the 816 × $38 × 8,760 h = $271.6M commitment behind it."""
    s = load_preset("llama3-70b")
    c = _row(pricing_model="savings_plan_1y", usd_per_instance_hour=38.0)
    (note,) = _savings_plan_notes(c, s)
    assert note.startswith(
        "the Savings Plan (1 year) commits $38.00/instance-h × 816 instances × 8,760 h = "
        "$271,630,080 over the term, paid whether used or not"
    )
    assert "assumes 100% of the commitment is used (pricing.commitment_utilization, the " in note
    half = s.replace({"pricing.commitment_utilization": 0.5})
    assert "charges this run $76.00 per instance-hour" in _savings_plan_notes(c, half)[0]
    assert _savings_plan_notes(_row(), s) == []


def test_an_entered_on_demand_rate_bills_the_blocks_overrun_and_moves_both_in_would_change():
    """QA 28 #6: with --price p5.48xlarge:on_demand=42.5 the block's overrun stayed at the
    public $55.04, and "p5.48xlarge on On-Demand wins below $43.48" left out that the
    chosen block's overrun is billed at that same rate."""
    s, cat = load_preset("llama3-70b"), load_catalog()
    assert _fallback_rate(s, "p5.48xlarge", cat) == 55.04
    entered = {("p5.48xlarge", "on_demand"): 42.5}
    assert _fallback_rate(s, "p5.48xlarge", cat, entered) == 42.5
    assert _fallback_rate(s, "p5.48xlarge", cat, {(None, "on_demand"): 42.5}) == 42.5
    assert _fallback_rate(s, "p6-b200.48xlarge", cat, entered) == pytest.approx(113.9328)
    # the scenario's own overrun price stays first
    own = s.replace({"pricing.overrun_usd_per_instance_hour": 70.0})
    assert _fallback_rate(own, "p5.48xlarge", cat, entered) == 70.0
    # a block choice with 100 overrun instance-hours per USD of the On-Demand rate, beside
    # On-Demand $1M dearer with 600,000 instance-hours: below p the runner wins, where
    # 1e6 = (55.04 - p)·(600,000 - 100,000), p = 53.04 (not 55.04 - 1e6/600,000 = 53.37)
    choice = _row(
        pricing_model="capacity_block",
        pricing_label="Capacity Block",
        block_days=28.0,
        usd_per_instance_hour=39.33,
        usd_per_price_unit=550_000.0,
        _usd_per_fallback_unit=100_000.0,
        _fallback_usd=55.04,
    )
    runner = _row(
        expected_total_cost_usd=30e6, usd_per_price_unit=600_000.0, _fallback_usd=math.nan
    )
    lines = _what_would_change(choice, [runner], lambda r: True)
    assert lines[0] == (
        "p5.48xlarge on On-Demand wins below $53.04/instance-h (now $55.04; the chosen "
        "block's overrun is billed at that rate too)"
    )
    # the block's own rate moves the block alone: 39.33 + 1e6/550,000
    assert lines[1] == (
        "the choice loses to p5.48xlarge on On-Demand above $41.15/instance-h (now $39.33)"
    )


def test_an_empty_instance_list_is_refused_with_the_allowed_list():
    """QA 28 #16: `--instances ""` searched every type without a word."""
    with pytest.raises(ValidationError) as e:
        decide(load_preset("llama3-8b"), 16.0, 0.8, trials=100, instances=[])
    assert e.value.field == "--instances"
    assert "names no instance type; allowed: p4d.24xlarge" in e.value.message
