"""QA 28 #6 on the Plan page's side: its plan can take the rates entered on the page."""

from __future__ import annotations

from goodput_lab.models import load_preset

from goodput_lab.views import plan as svc


def test_the_pages_plan_takes_the_rates_entered_on_it():
    """For the page's cache to pass the rates typed in its 'Your rates' box (QA 28 #6): a
    Capacity Block rate plans a type without a public one, an On-Demand rate prices the
    hours after the block."""
    from goodput_lab.models import load_catalog

    cat = load_catalog()
    s = load_preset("p6e-gb200-nvl72")
    assert svc.no_block_reason(s, cat).startswith("No Capacity Block to plan")
    assert svc.no_block_reason(s, cat, {"capacity_block": 30.0}) == ""
    p = svc.plan(s, cat, 50, 0, None, 0.1, {"capacity_block": 30.0, "on_demand": 40.0})
    assert p.block_price.usd_per_instance_hour == 30.0
    assert p.overrun_price.usd_per_instance_hour == 40.0
    assert svc.plan(load_preset("llama3-70b"), cat, 50, 0, None, 0.1, ()).trials == 50
