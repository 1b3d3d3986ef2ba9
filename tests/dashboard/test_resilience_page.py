"""The Resilience page (AppTest): figures follow the model, the order is selectable, each
rung's assumptions are there, the Monte Carlo spread appears on demand, links carry it."""

from __future__ import annotations

import json
import re

import pytest
from goodput_lab.models import load_preset
from goodput_lab.models.resilience import ladder

from tests.dashboard._pages import array, metric, open_page

NO_GOOD = re.compile(r"\b(None|nan|NaN|inf)\b")


def _cells(at) -> list[str]:
    out = []
    for df in at.table:
        out += [str(v) for v in df.value.to_numpy().ravel()]
    return out


@pytest.fixture(scope="module")
def recommended(catalog):
    return ladder(load_preset("aws-16k-h100"), catalog=catalog)


def test_recommended_ladder_figures_follow_the_model(recommended):
    at = open_page("resilience")
    assert metric(at, "Lost per day, baseline") == f"${recommended.rungs[0].lost_usd_per_day:,.0f}"
    # the three "after" tiles describe the same rungs: those worth adopting
    after = recommended.last_recommended
    assert after is recommended.rungs[len(recommended.recommended_features)]
    assert metric(at, "Lost per day, recommended rungs") == f"${after.lost_usd_per_day:,.0f}"
    # only the rungs worth adopting (issue 26: the whole ladder's figure added rungs the page
    # says cost more than they save)
    k = len(recommended.recommended_features)
    saved = recommended.rungs[0].lost_usd_per_day - recommended.rungs[k].lost_usd_per_day
    assert metric(at, "Saved by the recommended rungs") == f"${saved:,.0f}/day"
    # the waterfall: baseline, one bar per feature, the last rung
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    bars = fig["data"][0]
    assert len(array(bars["y"])) == len(recommended.rungs) + 1
    assert array(bars["x"])[0] == pytest.approx(recommended.rungs[0].lost_usd_per_day)
    # one expander per feature with its assumptions
    labels = [e.label for e in at.expander]
    assert sum(label[0].isdigit() for label in labels) == len(recommended.rungs) - 1
    assert not any(NO_GOOD.search(c) for c in _cells(at))
    # the rungs' sources under the table (a column of it overflowed 1024 px), by rung
    from goodput_lab.views.resilience import rung_display

    shown = rung_display(recommended)
    assert "Source" not in at.table[0].value.columns
    sources = next(c.value for c in at.caption if c.value.startswith("Sources by rung: "))
    for rung, source in zip(shown["Rung"][1:], shown["Source"][1:], strict=True):
        assert f"{rung} — {source}" in sources
    # a closed rung draws no tables; opened, it shows its settings, assumptions and causes
    n_tables = len(at.table)
    first = recommended.rungs[1]
    at.session_state[f"res:rung:{first.feature}"] = True
    at.run()
    assert not at.exception
    assert len(at.table) == n_tables + 3
    text = " ".join(m.value for m in at.markdown)
    verb = "saves" if first.delta_usd_per_day >= 0 else "costs"
    assert f"This rung {verb} ${abs(first.delta_usd_per_day):,.0f}" in text
    assert not any(NO_GOOD.search(c) for c in _cells(at))


def test_own_order_and_goodput_view(catalog):
    at = open_page("resilience")
    at.radio(key="res:order").set_value("My order").run()
    at.multiselect(key="res:features").set_value(["hot_spares", "elastic"]).run()
    at.radio(key="res:unit").set_value("Goodput points").run()
    assert not at.exception
    own = ladder(load_preset("aws-16k-h100"), ["hot_spares", "elastic"], catalog=catalog)
    assert metric(at, "Lost per day, last rung") == f"${own.rungs[-1].lost_usd_per_day:,.0f}"
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert array(fig["data"][0]["x"])[-1] == pytest.approx(100 * own.rungs[-1].goodput)
    assert "Goodput" in fig["layout"]["title"]["text"]
    # the link carries the order
    assert at.query_params["res.features"] in ("hot_spares,elastic", ["hot_spares,elastic"])


def test_the_order_box_shows_the_order_in_use_and_keeps_your_own(recommended):
    """QA passes 19 and 21: with "Recommended" chosen, the greyed order box listed the
    default custom order (memory checkpoints, async saves, hot spares), not the order the
    ladder below uses."""
    at = open_page("resilience")
    box = at.multiselect(key="res:features_recommended")
    assert box.disabled
    assert list(box.value) == [r.feature for r in recommended.rungs[1:]]
    at.radio(key="res:order").set_value("My order").run()
    at.multiselect(key="res:features").set_value(["hot_spares", "elastic"]).run()
    at.radio(key="res:order").set_value("Recommended (best next first)").run()
    at.radio(key="res:order").set_value("My order").run()
    assert not at.exception
    assert list(at.multiselect(key="res:features").value) == ["hot_spares", "elastic"]


def test_montecarlo_spread_on_demand():
    at = open_page(
        "resilience",
        {"preset": "aws-16k-h100", "res.order": "My order", "res.features": "async_saves"},
    )
    n_charts = len(at.get("plotly_chart"))
    at.select_slider(key="res:trials").set_value(200).run()
    at.toggle(key="res:mc").set_value(True).run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == n_charts + 1
    cells = _cells(at)
    assert "yes" in cells  # the tolerance verdict per rung
    assert not any(NO_GOOD.search(c) for c in cells)


def test_bad_link_order_is_explained():
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params.update({"preset": "aws-16k-h100", "res.features": "warp_drive"})
    at.run()  # the link is read on the first run, and its problem shown there
    assert any("res.features" in e.value and "warp_drive" in e.value for e in at.error)


def test_cause_chart_ticks_write_negative_amounts_as_amounts():
    """QA pass: the cause chart's axis had a '$' prefix, so a cost read '$−1,000'."""
    import polars as pl

    from goodput_lab.charts.resilience import cause_bars

    causes = pl.DataFrame(
        {
            "rung": ["a", "a", "b"],
            "cause": ["x", "y", "x"],
            "usd_per_day": [3000.0, -2500.0, 1200.0],
        }
    )
    fig = cause_bars(causes)
    ticks = list(fig.layout.xaxis.ticktext)
    assert "−$2k" in ticks and "$2k" in ticks and not any("$−" in t for t in ticks)
    lo, hi = fig.layout.xaxis.range
    assert lo < -2500.0 and hi > 3000.0


def test_a_rung_that_moves_nothing_reads_no_change():
    """QA pass 21: a rung whose saving rounds to $0 was labelled "costs $0"."""
    import polars as pl

    from goodput_lab.charts.resilience import ladder_waterfall

    rungs = pl.DataFrame(
        {
            "rung": [0, 1, 2],
            "feature": ["baseline", "hot_spares", "elastic"],
            "label": ["Scenario", "Hot spares", "Elastic"],
            "goodput_pct": [90.0, 91.0, 91.0],
            "lost_usd_per_day": [1000.0, 800.0, 800.2],
            "delta_goodput_points": [0.0, 1.0, 0.0],
            "delta_usd_per_day": [0.0, 200.0, -0.2],
        }
    )
    fig = ladder_waterfall(rungs)
    assert list(fig.data[0].text) == ["$1,000", "saves $200", "no change", "$800"]


def test_goodput_waterfall_reads_points_as_the_registry_writes_them():
    """QA pass 22 M5: the goodput-points waterfall wrote "+0.00 points" and "-0.00 points"
    (an ASCII hyphen) and did not say its axis starts at 95%."""
    from goodput_lab.charts.resilience import ladder_waterfall
    from goodput_lab.views.resilience import rung_numbers

    lad = ladder(load_preset("llama3-70b"))
    fig = ladder_waterfall(rung_numbers(lad), "Goodput points")
    text = list(fig.data[0].text)
    assert not any(t in ("+0.00 points", "-0.00 points", "−0.00 points") for t in text)
    assert "no change" in text and "+2.39 points" in text
    assert fig.layout.title.subtitle.text.endswith("the axis starts at 95%")


def test_the_ladder_table_does_not_repeat_per_day_under_its_headers(recommended, catalog):
    """QA: "Lost per day" and "Saves per day" cells read "$503,135/day"; the report, which
    shows the same rows (goodput_lab.reports.content), follows."""
    from goodput_lab.models.outputs import format_value

    from goodput_lab.views.resilience import rung_display

    table = rung_display(recommended)
    for col in ("Lost per day", "Saves per day"):
        assert not any("/day" in v for v in table[col].to_list()), table[col].to_list()
    first, second = table.row(0, named=True), table.row(1, named=True)
    assert first["Lost per day"] == format_value(
        "lost_usd_per_day", recommended.rungs[0].lost_usd_per_day, unit=False
    )
    assert second["Saves per day"].startswith(("+$", "−$"))
    at = open_page("resilience")
    shown = next(t.value for t in at.table if "Lost per day" in t.value.columns)
    assert not shown["Lost per day"].str.contains("/day").any()


def test_a_rung_that_moves_nothing_reads_no_change_in_the_table_and_on_the_waterfall(
    recommended,
):
    """QA: "Spares by scale-up domain" read "0.00 points" and "$0", and hot spares "0.00
    points" beside "−$2,263"; the waterfall said "no change" for both."""
    from goodput_lab.charts.resilience import ladder_waterfall
    from goodput_lab.views.resilience import rung_display, rung_numbers

    table = rung_display(recommended)
    waterfall = ladder_waterfall(rung_numbers(recommended), "goodput points").data[0].text
    for i, r in enumerate(recommended.rungs[1:], start=1):
        row = table.row(i, named=True)
        gained, saves = row["Goodput gained"], row["Saves per day"]
        assert gained not in ("0.00 points", "+0.00 points", "−0.00 points"), row
        assert saves != "$0", row
        assert (gained == "no change") == (r.delta_goodput_points == 0), row
        assert waterfall[i] == gained, (waterfall[i], row)
    assert "no change" in table["Saves per day"].to_list()  # spares by domain, here


def test_the_lost_per_day_waterfall_names_its_unit_once():
    """QA: the waterfall's axis read "Lost per day ($/day)": the registry's header, the
    period once."""
    import polars as pl

    from goodput_lab.charts.resilience import ladder_waterfall

    rungs = pl.DataFrame(
        {
            "rung": [0, 1],
            "label": ["As given", "Hot spares"],
            "lost_usd_per_day": [1000.0, 800.0],
            "delta_usd_per_day": [0.0, -200.0],
            "goodput_pct": [90.0, 91.0],
            "delta_goodput_points": [0.0, 1.0],
        }
    )
    fig = ladder_waterfall(rungs, "$/day")
    assert fig.layout.xaxis.title.text == "Lost per day ($)"


def test_cause_chart_keeps_each_rungs_own_spares_label(catalog):
    """NVL72: rung 1's −$72,576 is the domain spares' cost, labelled as its row says
    ("Spare nodes by domain"); the hot-spares rung's label overwrote it."""
    from goodput_lab.views.resilience import cause_long

    lad = ladder(load_preset("p6e-gb200-nvl72"), catalog=catalog)
    long = cause_long(lad, top=20)
    rung1 = long.filter(long["rung"] == "1. Spares by scale-up domain")
    spares = rung1.filter(rung1["usd_per_day"] == -72_576.0)
    assert spares["cause"].to_list() == ["Spare nodes by domain"]
    hot = long.filter(long["cause"] == "Hot spare nodes")
    assert hot["rung"].to_list() == ["8. Hot spares"]
    assert round(hot["usd_per_day"][0]) == -1_008


def test_cause_chart_leaves_room_for_a_legend_of_one_name_a_row(catalog):
    """At 1,024 px the cause chart's legend (plot area ~360 px beside its 180 px labels)
    puts each of its seven causes on a row of its own: Plotly gives every name the widest
    one's width. Four rows were counted and the legend overlapped the subtitle."""
    from goodput_lab.charts import style
    from goodput_lab.charts.resilience import LABEL_MARGIN, cause_bars
    from goodput_lab.views.resilience import cause_long

    fig = cause_bars(cause_long(ladder(load_preset("p6e-gb200-nvl72"), catalog=catalog)))
    names = [t.name for t in fig.data]
    assert len(names) == 7 and "Scale-up domain events (racks)" in names
    width = style.LEGEND_WIDTH_PX - (LABEL_MARGIN - 60)
    assert style.legend_rows(names, width) == 7
    # title, subtitle (one line each), seven legend rows
    assert fig.layout.margin.t == 30 + 21 * 2 + 21 * 7 + 8
    assert style.legend_rows(["a", "b"]) == 1 and style.legend_rows([]) == 0
