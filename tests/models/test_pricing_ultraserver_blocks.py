"""QA 28 #8: P6e-GB200 Capacity Blocks are counted in whole UltraServers.

AWS sells P6e-GB200 only as UltraServer Capacity Blocks (docs/failure-domains.md; EC2 User
Guide, "Capacity Blocks for ML"): a block of 1,020 instances "in 16 Capacity Blocks of at
most 64" cannot be bought.  A type whose scale-up domain spans several instances is counted
in whole UltraServers of that domain (18 p6e-gb200.36xlarge, 72 GPUs), all of them paid,
and the note states the UltraServer rule."""

from __future__ import annotations

import pytest
from goodput_lab.models import load_catalog, load_preset
from goodput_lab.models import pricing as pr
from goodput_lab.models.plan import budget_by_pricing_model, plan_capacity_block

from goodput_lab.views import plan as svc

CAT = load_catalog()
GB200 = CAT["p6e-gb200.36xlarge"]
RATE = 30.0  # a Capacity Block rate entered for the comparison (no public one)


def test_only_types_whose_domain_spans_instances_are_sold_as_ultraservers():
    sizes = {name: pr.ultraserver_instances(inst) for name, inst in CAT.items()}
    assert sizes.pop("p6e-gb200.36xlarge") == 18  # 72 accelerators / 4 per instance
    assert set(sizes.values()) == {1}


def test_1020_instances_need_57_whole_ultraservers_of_18():
    assert pr.capacity_blocks_needed(1020, GB200) == 57  # 1,020 / 18 = 56.7
    assert pr.capacity_block_instances(1020, GB200) == 1026
    assert pr.capacity_block_instances(1152, GB200) == 1152  # 64 whole UltraServers
    assert pr.capacity_block_note(1020, GB200) == (
        "p6e-gb200.36xlarge Capacity Blocks are sold as whole UltraServers of 18 instances "
        "(72 accelerators), not as single instances: 1,020 instances need 57 UltraServers "
        "(1,026 instances, all paid)"
    )
    # not the instance-block rule it printed before
    assert "blocks of at most 64" not in pr.capacity_block_note(1020, GB200)


def test_instance_blocks_keep_their_64_and_256_limits():
    p5 = CAT["p5.48xlarge"]
    assert pr.capacity_blocks_needed(2000, p5) == pr.capacity_blocks_needed(2000) == 32
    assert pr.capacity_block_instances(2000, p5) == 2000
    assert pr.capacity_block_note(2000, p5).startswith(
        "2,000 instances need 32 blocks of at most 64"
    )
    assert pr.capacity_block_note(256, p5) == ""


@pytest.fixture(scope="module")
def gb200_1020():
    s = load_preset("p6e-gb200-nvl72").replace({"cluster.nodes": 1020})
    return s, plan_capacity_block(
        s, trials=100, seed=0, catalog=CAT, prices={"capacity_block": RATE}
    )


def test_the_plan_pays_for_whole_ultraservers_and_says_the_rule(gb200_1020):
    _, p = gb200_1020
    assert p.capacity_block_instances == 1026 and p.capacity_blocks_needed == 57
    assert p.instances_per_ultraserver == 18
    assert p.block_cost_usd == pytest.approx(p.block_days * 24 * 1026 * RATE)
    assert pr.capacity_block_note(1020, GB200) in p.notes
    assert not any("blocks of at most 64" in n for n in p.notes)
    assert "1,026 instances in 57 UltraServers of 18" in svc.block_caption(p)


def test_the_bills_capacity_block_row_counts_whole_ultraservers_too(gb200_1020):
    s, p = gb200_1020
    alone = budget_by_pricing_model(s, CAT, {"capacity_block": RATE})
    row = next(r for r in alone if r["pricing_model"] == "capacity_block")
    assert row["total_cost_to_train_usd"] >= row["block_days"] * 24 * 1026 * RATE
    with_plan = budget_by_pricing_model(s, CAT, {"capacity_block": RATE}, p)
    row = next(r for r in with_plan if r["pricing_model"] == "capacity_block")
    assert row["total_cost_to_train_usd"] == p.expected_total_cost_usd


def test_the_preset_of_64_whole_ultraservers_states_the_rule():
    s = load_preset("p6e-gb200-nvl72")  # 1,152 instances: 64 UltraServers exactly
    p = plan_capacity_block(s, trials=50, catalog=CAT, prices={"capacity_block": RATE})
    assert p.capacity_block_instances == 1152 and p.capacity_blocks_needed == 64
    assert p.notes[0].endswith("not as single instances: 1,152 instances are 64 UltraServers")
