"""QA 29 #5: a stated price belongs to its pricing model as it belongs to its instance type.

Switching ``pricing.model`` (``--set``, the Compare page's edits, the sidebar and links,
which all go through :func:`models.scenario.follow_edits`) drops the old model's stated
price with its source and date, so the new model is priced at its public price or asked
for one; a price stated in the same edit is kept."""

from __future__ import annotations

import pytest
from goodput_lab.models import ValidationError, evaluate, load_catalog, load_preset
from goodput_lab.models import pricing as pr
from goodput_lab.models.scenario import follow_edits

from goodput_lab.cli.main import load_scenario

NODES = 2000  # the aws-16k-h100 preset's nodes


def test_capacity_block_switch_is_priced_at_the_dated_table_not_the_on_demand_rate():
    s = load_scenario("aws-16k-h100", ["pricing.model=capacity_block"])
    assert s["pricing.usd_per_instance_hour"] is None
    assert s["pricing.price_source"] is None and s["pricing.price_as_of"] is None
    ev = evaluate(s)
    # the dated table's $39.33 (2024-12), not the preset's $98.32 On-Demand rate of 2023
    assert ev.price.usd_per_instance_hour == pytest.approx(39.33)
    assert ev.price.origin == "table" and ev.price.as_of == "2024-12"
    assert ev["cluster_usd_per_day"] == pytest.approx(NODES * 39.33 * 24)  # 1,887,840
    assert ev["cluster_usd_per_day"] != pytest.approx(4_719_360.0)  # 2,000 x $98.32 x 24


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("spot", "no public Spot price for p5.48xlarge"),
        ("savings_plan_1y", "no public Savings Plan, 1 year price"),
        ("hyperpod", "no public SageMaker HyperPod price"),
        ("custom", "pricing.model = 'custom' needs your own rate"),
    ],
)
def test_switch_to_a_model_without_a_public_price_asks_for_one(model, words):
    s = load_scenario("aws-16k-h100", [f"pricing.model={model}"])
    with pytest.raises(ValidationError, match=words):
        evaluate(s)


def test_a_price_stated_with_the_new_model_is_kept_and_reads_entered():
    s = load_scenario("aws-16k-h100", ["pricing.model=spot", "pricing.usd_per_instance_hour=30"])
    ev = evaluate(s)
    assert ev.price.usd_per_instance_hour == 30.0 and ev.price.model == "spot"
    assert ev.price.source == pr.ENTERED_SOURCE and not pr.is_dated(ev.price.as_of)


def test_the_same_number_stated_again_with_the_new_model_is_kept_without_the_old_source():
    """The user may mean $98.32 as the Spot rate: kept, but the On-Demand rate's source and
    date ("Historical price of the claim: p5.48xlarge on-demand", 2023-07) are not its."""
    s = load_scenario("aws-16k-h100", ["pricing.model=spot", "pricing.usd_per_instance_hour=98.32"])
    assert s["pricing.usd_per_instance_hour"] == 98.32
    assert s["pricing.price_source"] == pr.ENTERED_SOURCE
    assert s["pricing.price_as_of"] is None


def test_a_price_and_its_source_stated_with_the_new_model_are_both_kept():
    s = load_scenario(
        "aws-16k-h100",
        [
            "pricing.model=capacity_block",
            "pricing.usd_per_instance_hour=31.5",
            "pricing.price_source=our quote",
            "pricing.price_as_of=2025-10",
        ],
    )
    p = evaluate(s).price
    assert (p.usd_per_instance_hour, p.source, p.as_of) == (31.5, "our quote", "2025-10")


def test_the_note_names_the_old_models_rate_and_the_new_model():
    base = load_preset("aws-16k-h100")
    edited = base.replace({"pricing.model": "capacity_block"})
    assert pr.price_follows_model(base, edited)
    assert not pr.price_follows_instance(base, edited)
    assert pr.price_follows_note(base, edited) == (
        "The scenario's $98.32/instance-h was entered as the On-Demand rate of p5.48xlarge; "
        "Capacity Block is priced at its public price instead, where there is one (set "
        "pricing.usd_per_instance_hour to use another)."
    )
    both = base.replace({"pricing.model": "spot", "cluster.instance": "p6-b200.48xlarge"})
    assert "; p6-b200.48xlarge on Spot is priced at its public price instead" in (
        pr.price_follows_note(base, both)
    )
    # the instance alone keeps its own sentence
    moved = base.replace({"cluster.instance": "p6-b200.48xlarge"})
    assert pr.price_follows_note(base, moved).startswith(
        "The scenario's $98.32/instance-h was entered for p5.48xlarge; p6-b200.48xlarge is "
        "priced at its public price instead"
    )


def test_the_sidebar_and_a_link_drop_the_price_through_follow_edits():
    """The sidebar's scenario (dashboard.state.mark_modified) and a link over a preset are
    follow_edits of the loaded scenario, the price box still holding the old number."""
    base = load_preset("aws-16k-h100")
    out = follow_edits(base, base.replace({"pricing.model": "capacity_block"}))
    assert out["pricing.usd_per_instance_hour"] is None
    assert evaluate(out, load_catalog())["cluster_usd_per_day"] == pytest.approx(1_887_840.0)


def test_the_compare_pages_edit_drops_it_and_says_so():
    from goodput_lab.views.compare import build_with_note

    sc, note = build_with_note(
        "Current scenario (sidebar)", load_preset("aws-16k-h100"), None, "pricing.model = spot"
    )
    assert sc["pricing.usd_per_instance_hour"] is None
    assert note.startswith("The scenario's $98.32/instance-h was entered as the On-Demand rate")
    with pytest.raises(ValidationError, match="no public Spot price"):
        evaluate(sc)


def test_a_scenario_without_a_price_of_its_own_is_unchanged_by_a_switch():
    base = load_preset("llama3-70b")  # the catalog's price
    edited = base.replace({"pricing.model": "capacity_block"})
    assert pr.follow_price_edit(base, edited) == {}
    assert pr.price_follows_note(base, edited) == ""


def test_every_preset_still_evaluates_as_shipped():
    from goodput_lab.models import preset_paths

    for name in preset_paths():
        s = load_scenario(name, [])
        assert evaluate(s)["cluster_usd_per_day"] > 0, name
