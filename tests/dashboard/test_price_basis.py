"""One price basis per view (issue 26): the scenario's price applies to the scenario's instance
on every page; when it is older than the catalog's, the page says so once and offers the
catalog price; a row priced at another date than the others says so in the row."""

from __future__ import annotations

import pytest
from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.pricing import price_vintage

from tests.dashboard._pages import open_page

OLDER = "is older than the catalog's On-Demand price"


def _notes(at) -> list[str]:
    return [c.value for c in at.caption if OLDER in c.value.replace("\\", "")]


@pytest.mark.parametrize("page", ["overview", "instances"])
def test_the_page_says_once_that_the_price_is_older_and_offers_the_catalog_price(page, catalog):
    s = load_preset("aws-16k-h100")
    v = price_vintage(s, catalog[s["cluster.instance"]])
    assert (v.scenario.as_of, v.public.as_of) == ("2023-07", "2025-06")
    at = open_page(page)
    assert len(_notes(at)) == 1
    (button,) = [b for b in at.button if b.key == "use_public_price"]
    assert button.label == "Use $55.04/h (2025-06)"
    button.click().run()
    assert not at.exception
    head = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "**$55.04/instance-h**" in head and "as of 2025-06" in head
    assert not _notes(at) and not [b for b in at.button if b.key == "use_public_price"]


def test_instances_page_prices_the_scenario_type_as_evaluate_and_says_so_in_the_row(catalog):
    at = open_page("instances")
    table = next(t.value for t in at.table if "Note" in t.value.columns)
    p5 = table[table.iloc[:, 0].astype(str).str.startswith("p5.48xlarge")].iloc[0]
    assert p5["Note"] == "scenario's price, as of 2023-07"
    # the page ranks at its deadline's node count: evaluate the scenario at that count
    nodes = int(str(p5[next(c for c in table.columns if c.startswith("Nodes"))]).replace(",", ""))
    s = load_preset("aws-16k-h100").replace({"cluster.nodes": nodes})
    ev = evaluate(s, catalog)
    cost_col = next(c for c in table.columns if c.startswith("Cost to train"))
    assert p5[cost_col] == f"${ev['cost_to_train_usd']:,.0f}"


def test_a_typed_price_is_entered_in_the_header_and_the_sidebar():
    """Issue 26: after typing $55.04 every page still called it the "historical price of the
    claim, as of 2023-07"; the source and date boxes now say so too."""
    at = open_page("overview")
    at.number_input(key="w:pricing.usd_per_instance_hour").set_value(55.04).run()
    assert not at.exception
    assert at.text_input(key="w:pricing.price_source").value == "entered"
    assert at.text_input(key="w:pricing.price_as_of").value == ""
    head = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "**$55.04/instance-h** (entered)" in head and "Historical" not in head
    assert not _notes(at)  # an entered price has no date to be older than the catalog's


def test_a_price_without_a_date_reads_undated_not_as_of_not_stated():
    # deepseek-v2 prices its H800 node in the scenario without pricing.price_as_of: the
    # verdict sentence and the assumptions table say "undated" (they said "as of not stated")
    from goodput_lab.models import load_catalog

    from goodput_lab.views import display
    from goodput_lab.views import instances as inst_view

    s = load_preset("deepseek-v2")
    ev = evaluate(s)
    assert ev.price.as_of == "not stated"
    r = inst_view.ranking(s, load_catalog(), None)
    best = inst_view.cheapest(inst_view.table(r))
    text = inst_view.verdict_text(best, None, "modelled")
    assert "(entered in the scenario (source not stated), undated)" in text
    assert "as of not stated" not in text
    table = display.inputs_table(s, ev.price, ["pricing.usd_per_instance_hour"])
    assert table["Value"].to_list() == ["$16.00/instance-h (scenario, undated)"]
