"""AppTest of the Optimizer page: recommendations equal models.optimize; apply; deadline."""

from __future__ import annotations

import pytest
from goodput_lab.models import load_preset
from goodput_lab.models import optimize as opt

from goodput_lab.views import display
from goodput_lab.views.optimizer import headline_tiles as svc_tiles
from tests.dashboard._pages import RATE_KEY, metric, open_page, open_sidebar


@pytest.fixture(scope="module")
def app():
    return open_page("optimizer")


def test_recommendations_match_the_model(app, catalog):
    o = opt.optimize(load_preset("aws-16k-h100"), catalog, deadline_days=None)
    iv, sp, c = o.interval, o.spares, o.comparison
    assert metric(app, "Recommended checkpoint interval") == f"{iv.interval_minutes:.1f} min"
    assert metric(app, "Best hot-spare count") == f"{sp.spares} nodes"
    t = display.tile("savings_usd_per_day", c.savings_usd_per_day, savings=True)
    assert metric(app, t["label"]) == t["value"] == f"${c.savings_usd_per_day:,.0f}"
    assert c.savings_usd_per_day > 0
    info = " ".join(i.value for i in app.info)
    assert f"to **{sp.break_even_spares}** spares" in info  # the last count that saves
    # the spare banner states the range of rates where the recommended count pays, and
    # that the scenario's 0.2%/day is inside it
    assert sp.spares == o.spare_payoff_spares == 10
    # QA: the rate read "0.2%" beside the sidebar's 0.20% and the bounds had four decimals;
    # all three are in the registry's format now
    # one range format everywhere (QA 4): an en dash and the unit once, as the tiles
    assert "10 hot spares pay for themselves at node failure rates of 0.14–0.30% per" in info
    assert "0.14–0.30% per day; this scenario's 0.20% is inside that range" in info


def test_a_payoff_bound_that_would_read_as_the_rate_gets_more_decimals():
    from goodput_lab.models.outputs import format_apart

    from goodput_lab.views.optimizer import payoff_ranges_text

    key = "node_failure_rate_per_day"
    assert format_apart(key, 0.002, [0.00143, 0.003034]) == ("0.20%", ["0.14%", "0.30%"])
    # 0.2996% would read "0.30%" beside a rate of 0.30% outside the range
    assert format_apart(key, 0.003, [0.00143, 0.002996]) == ("0.3000%", ["0.1430%", "0.2996%"])
    assert payoff_ranges_text(0.003, [(0.00143, 0.002996)]) == ("0.3000%", "0.1430–0.2996%")
    assert payoff_ranges_text(0.002, [(0.001, 0.0015), (0.003, 0.004)]) == (
        "0.20%",
        "0.10–0.15% and 0.30–0.40%",
    )


def test_goodput_optimize_writes_the_interval_and_payoff_range_as_the_page(capsys):
    """QA 6: goodput optimize read "23.63 min (now 23.63" and "0.0372%-0.6765% per day"
    where the pages say 23.6 min and 0.04–0.68%."""
    from goodput_lab.cli.main import main

    assert main(["optimize", "p6e-gb200-nvl72"]) == 0
    out = capsys.readouterr().out
    assert "  checkpoint interval   23.6 min (now 23.6 min; exact optimum" in out
    # the recommendation's hot spares, beside its spare domains (QA 26: "8 spares" were the
    # best count alone, beside a recommendation of 3 spare domains and 6 hot spares)
    assert (
        "  6 hot spares beside 3 whole spare domains pay off at node failure rates of "
        "0.15–0.50% per day"
    ) in out
    assert "  recommended           every 23.6 min with " in out


def test_a_shorter_recommended_interval_points_down(app, catalog):
    """Streamlit reads a delta's direction from an ASCII hyphen only: the tile's "−13.8 min
    vs now", written with the minus sign, had an up arrow."""
    o = opt.optimize(load_preset("aws-16k-h100"), catalog, deadline_days=None)
    tile = svc_tiles(o)[0]
    assert o.interval.interval_minutes < o.interval.current_interval_minutes
    assert tile["delta"].startswith("−") and tile["delta_arrow"] == "down"
    (shown,) = [m for m in app.metric if m.label == "Recommended checkpoint interval"]
    assert shown.delta == tile["delta"]
    assert display.delta("+10 vs now")["delta_arrow"] == "up"
    assert display.delta("no change")["delta_arrow"] == "off"


def test_slider_changes_the_recommendation(app, catalog):
    app.slider(key=RATE_KEY).set_value(0.8).run()
    assert not app.exception
    o = opt.optimize(
        load_preset("aws-16k-h100").replace({"reliability.node_failure_rate_per_day": 0.008}),
        catalog,
        None,
    )
    assert (
        metric(app, "Recommended checkpoint interval") == f"{o.interval.interval_minutes:.1f} min"
    )
    assert (
        metric(app, "Best hot-spare count") == display.tile("spare_nodes", o.spares.spares)["value"]
    )
    app.slider(key=RATE_KEY).set_value(0.2).run()


def test_apply_button_loads_the_recommendation_into_the_sidebar(catalog):
    at = open_page("optimizer")
    o = opt.optimize(load_preset("aws-16k-h100"), catalog, None)
    at.button(key="opt:apply").click().run()
    assert not at.exception
    open_sidebar(at, "Recovery and hot spares", "Checkpointing")  # where the user looks
    assert at.number_input(key="w:cluster.spare_nodes").value == o.spares.spares
    assert at.number_input(key="w:checkpoint.interval_minutes").value == pytest.approx(
        o.interval.interval_minutes
    )
    # applied: nothing left to save
    assert metric(at, "Saves per day") == "$0"


def test_deadline_picks_the_rankers_cheapest_instance(catalog):
    at = open_page("optimizer")
    at.checkbox(key="widget::deadline:on").check().run()
    at.number_input(key="widget::deadline:days").set_value(60.0).run()
    assert not at.exception
    assert any("Ranked with a deadline of 60 days" in c.value for c in at.caption)
    best = opt.optimize(load_preset("aws-16k-h100"), catalog, 60.0).instances.cheapest
    assert best.time_to_train_days <= 60.0
    assert any(
        best.instance in s.value and f"{best.nodes:,.0f} nodes" in s.value for s in at.success
    )


def test_spares_by_domain_on_an_nvl72_scenario(catalog):
    """p6e-gb200-nvl72: the page recommends the same spares-by-domain policy as the model,
    with its dollars per day, and tables every policy; one-node domains show no section."""
    at = open_page("optimizer", {"preset": "p6e-gb200-nvl72"})
    o = opt.optimize(load_preset("p6e-gb200-nvl72"), catalog, 45.0)
    ds = o.domain_spares
    assert ds is not None and ds.best.policy != "none"
    assert any(s.value == "Spares by scale-up domain" for s in at.subheader)
    info = " ".join(i.value for i in at.info)
    assert f"**{ds.best.label()}**" in info
    assert (
        f"**${ds.best.savings_usd_per_day:,.0f}/day** net of the "
        f"${ds.best.spare_usd_per_day:,.0f}/day its spares cost" in info
    )
    # the saving is already net of the spares: "for $72,576/day of spares" read as a loss
    assert "$57,739/day** net of the $72,576/day its spares cost" in info.replace("\\$", "$")
    table = next(t for t in at.table if "Policy" in t.value.columns)
    assert len(table.value) == len(ds.options)
    # QA: the table marked "3 whole spare domains (recommended)" under a tile recommending
    # 2 domains and 7 hot spares; it marks the best policy alone, and the box names the mix
    marked = table.value[table.value["Policy"].str.contains("best without hot spares")]
    assert marked["Policy"].tolist() == [f"{ds.best.label()} (best without hot spares)"]
    assert not table.value["Policy"].str.contains("recommended").any()
    assert o.spares_text() != ds.best.label()
    assert f"the recommendation above is **{o.spares_text()}**" in info


def test_no_domain_section_for_one_node_domains(app):
    assert not any(s.value == "Spares by scale-up domain" for s in app.subheader)


@pytest.mark.parametrize(
    ("savings", "text"),
    [
        ([0, 5, 9, 3, -1], "net savings against no spares stay ≥ 0 up to **3** spares"),
        ([0, -2, -5, 1, 4, 2, -1], "are ≥ 0 from **3** to **5** spares (fewer than 3 cost more"),
        ([0, -1, -2], "every spare count costs more than it saves against none"),
    ],
)
def test_the_spares_sentence_says_which_counts_save_money(savings, text):
    """QA pass 18: "net savings stay ≥ 0 up to 14 spares" where 1-6 spares lost money."""
    from types import SimpleNamespace

    from goodput_lab.views.optimizer import _net_savings_span

    assert text in _net_savings_span(SimpleNamespace(savings_vs_none_usd_per_day=savings))


def test_rows_marked_too_close_to_call_are_explained_under_the_table(catalog):
    """QA: the Optimizer's instance table marked three types ≈ and said nowhere what ≈ means
    (the Instances page's caption points at whiskers this page's cost chart does not draw)."""
    from goodput_lab.views import instances as inst_svc

    at = open_page("optimizer")
    o = opt.optimize(load_preset("aws-16k-h100"), catalog, deadline_days=None)
    assert o.instances.too_close_to_call
    table = next(t.value for t in at.table if "Instance" in t.value.columns)
    assert any(str(v).endswith(" ~") for v in table["Instance"])
    captions = [c.value for c in at.caption]
    assert inst_svc.TOO_CLOSE_CAPTION_OPTIMIZER in captions
    assert "whiskers" not in inst_svc.TOO_CLOSE_CAPTION_OPTIMIZER


def test_a_current_value_equal_to_the_recommendation_is_one_marker():
    """QA (p6e-gb200, interval 'optimal'): the legend listed "Current: 23.6 min" beside
    "Recommended: 23.6 min" while the black marker lay hidden under the green one."""
    import polars as pl

    from goodput_lab.charts.optimizer import interval_chart, spares_chart

    curve = pl.DataFrame(
        {"interval_minutes": [5.0, 20.0, 80.0], "lost_usd_per_day": [3.0, 1.0, 4.0]}
    )
    same = [t.name for t in interval_chart(curve, 23.6, 23.6004).data[1:]]
    assert same == ["Current = recommended: 23.6 min"]
    apart = [t.name for t in interval_chart(curve, 40.0, 23.6).data[1:]]
    assert apart == ["Current: 40.0 min", "Recommended: 23.6 min"]
    table = pl.DataFrame({"spares": [0, 1, 2], "net_savings_usd_per_day": [0.0, 5.0, 3.0]})
    assert [t.name for t in spares_chart(table, 1, 1).data[1:]] == ["Current = best count: 1 spare"]
    assert [t.name for t in spares_chart(table, 1, 0).data[1:]] == [
        "Current: 0 spares",
        "Best count: 1 spare",
    ]


def test_the_page_says_one_recommendation_of_spares_and_savings_against_the_scenario(catalog):
    """QA 26 #7 on the page: with 2 spare domains and 2 spares in every domain it said "One
    hot spare never pays", "The job spans 64 domains" (the Overview: 72) and "4 whole spare
    domains saves $57,738/day" (against no spares) above a recommendation of 3 whole spare
    domains and 6 hot spares."""
    query = {
        "preset": "p6e-gb200-nvl72",
        "cluster.spare_domains": "2",
        "cluster.spare_nodes_per_domain": "2",
    }
    at = open_page("optimizer", query)
    info = " ".join(i.value for i in at.info).replace("\\$", "$")
    assert "never pays" not in info
    assert (
        "Beside 3 whole spare domains, 6 hot spares pay for themselves at node failure rates"
        in info
    )
    assert (
        "The recommendation keeps **3 whole spare domains and 6 hot spares**, which save more "
        "than the scenario's 2 whole spare domains and 2 spare nodes in every domain with no "
        "hot spares"
    ) in info
    assert (
        "The job spans 64 domains of 18 nodes without spares inside them; 72 now, with the "
        "scenario's 2 spare nodes in every domain."
    ) in info
    assert (
        "**4 whole spare domains**, saves **$89,981/day** against the scenario's 2 whole "
        "spare domains and 2 spare nodes in every domain, net of the $72,576/day"
    ) in info
    assert metric(at, "Saves per day") == "$91,088"
    tile = next(m for m in at.metric if m.label == "Recommended spares")
    assert tile.value == "60 nodes"
