"""QA 28 #6 (plan): an On-Demand rate entered with ``--price on_demand=X`` is the price of
the hours after the Capacity Block, as docs/pricing.md §3 says ("the on-demand price in
force"); before, the bill's On-Demand row was at $42.50 and the line above it said "after
the block $55.04/instance-h".  A ``--price capacity_block=X`` rate is the planned block's,
so the plan and the bill's Capacity Block row are one figure."""

from __future__ import annotations

import json

import pytest
from goodput_lab.models import load_catalog, load_preset
from goodput_lab.models import pricing as pr
from goodput_lab.models.plan import budget_by_pricing_model, plan_capacity_block

from goodput_lab.cli.main import main

TRIALS = 200


@pytest.fixture(scope="module")
def plans():
    s = load_preset("llama3-70b")  # 185.9 compute days: every run outlasts a 182-day block
    cat = load_catalog()
    kw = {"trials": TRIALS, "seed": 0, "catalog": cat}
    return (
        plan_capacity_block(s, **kw),
        plan_capacity_block(s, prices={"on_demand": 42.5}, **kw),
    )


def test_an_entered_on_demand_rate_prices_the_hours_after_the_block(plans):
    public, entered = plans
    assert public.overrun_price.usd_per_instance_hour == 55.04  # the catalog's
    assert entered.overrun_price.usd_per_instance_hour == 42.5
    assert entered.overrun_price.source == pr.ENTERED_ON_DEMAND_SOURCE
    assert entered.block_price == public.block_price  # $39.33, the dated table's
    # the same runs: the overrun hours are the same, billed at 42.50 instead of 55.04
    assert public.expected_overrun_cost_usd > 0
    assert entered.expected_overrun_cost_usd == pytest.approx(
        public.expected_overrun_cost_usd * 42.5 / 55.04, rel=1e-12
    )
    assert entered.expected_total_cost_usd == pytest.approx(
        public.expected_total_cost_usd - public.expected_overrun_cost_usd * (1 - 42.5 / 55.04),
        rel=1e-12,
    )


def test_the_scenarios_own_overrun_price_still_comes_first():
    s = load_preset("llama3-70b").replace({"pricing.overrun_usd_per_instance_hour": 50.0})
    p = plan_capacity_block(s, trials=50, prices={"on_demand": 42.5})
    assert p.overrun_price.usd_per_instance_hour == 50.0


def test_plan_text_and_json_say_the_entered_rate_after_the_block(capsys):
    args = ["plan", "llama3-70b", "--trials", str(TRIALS), "--price", "on_demand=42.5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "after the block $42.50/instance-h (entered)" in out
    assert "after the block $55.04" not in out
    assert main([*args, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["overrun_usd_per_instance_hour"] == 42.5
    assert d["overrun_price_source"] == pr.ENTERED_ON_DEMAND_SOURCE
    on_demand = next(r for r in d["budget"] if r["pricing_model"] == "on_demand")
    assert on_demand["usd_per_instance_hour"] == 42.5  # one On-Demand rate in both places


def test_an_entered_block_rate_is_the_planned_blocks_and_the_bills_row_is_the_plan():
    s, cat = load_preset("aws-16k-h100"), load_catalog()
    p = plan_capacity_block(s, trials=TRIALS, catalog=cat, prices={"capacity_block": 30.0})
    assert p.block_price.usd_per_instance_hour == 30.0
    assert p.block_cost_usd == pytest.approx(p.block_days * 24 * p.capacity_block_instances * 30)
    rows = budget_by_pricing_model(s, cat, {"capacity_block": 30.0}, p)
    cb = next(r for r in rows if r["pricing_model"] == "capacity_block")
    assert cb["total_cost_to_train_usd"] == p.expected_total_cost_usd


def test_a_type_without_a_public_block_price_is_planned_at_an_entered_one(capsys):
    assert main(["plan", "p6e-gb200-nvl72", "--trials", "100", "--price", "capacity_block=30"]) == 0
    out = capsys.readouterr().out
    assert "No Capacity Block to plan" not in out
    assert "Capacity Block at $30.00/instance-h (entered)" in out


def test_overrun_price_of_another_type_is_not_the_scenarios_own_rate():
    """A price belongs to its instance type: the preset's $98.32 On-Demand rate of
    p5.48xlarge is not the rate after a p6-b200.48xlarge block (goodput decide's other
    types)."""
    s, cat = load_preset("aws-16k-h100"), load_catalog()
    assert pr.overrun_price(s, cat["p5.48xlarge"]).usd_per_instance_hour == 98.32
    assert pr.overrun_price(s, cat["p6-b200.48xlarge"]).usd_per_instance_hour == 113.9328
    assert pr.overrun_price(s, cat["p5.48xlarge"], on_demand=42.5).usd_per_instance_hour == 42.5
