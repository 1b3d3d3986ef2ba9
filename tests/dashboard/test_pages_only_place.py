"""A page and its report word a shared figure with one view function (issue 26, item 5):
the report's "What the candidate changes" table is the Compare page's "What differs", and
the report's ladder section names the features and the saving the Resilience page shows.
(That pages format no number themselves is checked on their source: tests/test_layout.py.)"""

from __future__ import annotations

import pytest
from goodput_lab.models import compare, load_preset

from goodput_lab.reports.content import _changed_assumptions, _ladder_section, resilience_ladder
from goodput_lab.views import compare as cmp_view
from goodput_lab.views import resilience as res_view


def test_report_changes_table_is_the_compare_pages(catalog):
    """Failure rate 0.2% -> 0.1% and an entered price: both tables read the same cells,
    the price in force on each side ("$98.32/instance-h"), never "catalog price"."""
    a = load_preset("aws-16k-h100")
    b = a.replace(
        {"pricing.usd_per_instance_hour": 55.04, "reliability.node_failure_rate_per_day": 0.001}
    )
    c = compare(a, b, catalog)
    page = cmp_view.differences_display(c, "Candidate")
    report = _changed_assumptions(c)
    assert page["Input"].to_list() == report["label"].to_list()
    assert (
        page["Baseline"].to_list() == report["baseline"].to_list() == ["0.20%", "$98.32/instance-h"]
    )
    assert (
        page["Candidate"].to_list()
        == report["candidate"].to_list()
        == ["0.10%", "$55.04/instance-h"]
    )


@pytest.fixture(scope="module")
def ladder(catalog):
    return resilience_ladder(load_preset("aws-16k-h100"), catalog)


def test_report_ladder_words_what_the_resilience_page_shows(ladder):
    intro = _ladder_section(ladder).intro
    tiles = {t["label"]: t["value"] for row in res_view.headline_tiles(ladder) for t in row}
    saved = res_view.saved_per_day(ladder, "recommended_delta_usd_per_day")
    assert ladder.order == "recommended"
    assert saved.startswith("$") and saved.endswith("/day")
    assert f"they save {saved} " in intro
    assert saved in tiles.values()  # the page's "saved" tile: the same words
    worth = res_view.worth_adopting(ladder)
    assert f"Worth adopting here: {worth};" in intro
    assert res_view.worth_caption(ladder) == (
        f"Worth adopting here (each saves money at its rung): {worth}."
    )
