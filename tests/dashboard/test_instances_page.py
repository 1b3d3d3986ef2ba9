"""AppTest of the Instances page: the 70B / 15T / 30-day question, prices and MFU inputs,
all equal to the one ranker (models.instances.rank_instances)."""

from __future__ import annotations

import json

import pytest
from goodput_lab.models import load_preset
from goodput_lab.models.instances import rank_instances
from streamlit.testing.v1 import AppTest

from goodput_lab.views import display
from tests.conftest import APP
from tests.dashboard._pages import open_sidebar

OVERRIDES_OPEN = "inst:overrides_open"  # the per-instance expander's key (open = True)
W70 = {
    "w:workload.tokens_trillion": 15.0,
    "w:workload.hidden_size": 8192,
}


def scenario70():
    return load_preset("aws-16k-h100").replace(
        {
            "workload.params_billion": 70.0,
            "workload.tokens_trillion": 15.0,
            "workload.hidden_size": 8192,
            "workload.mfu_basis": "end_to_end",  # this page's MFU inputs are read end to end
        }
    )


@pytest.fixture(scope="module")
def page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    open_sidebar(at, "Model shape and parallelism")  # the hidden size is in this group
    for key, value in W70.items():
        at.number_input(key=key).set_value(value)  # typed inputs for wide-ranged fields
    at.number_input(key="w:workload.params_billion").set_value(70.0)
    at.selectbox(key="w:workload.mfu_basis").set_value("end_to_end")
    at.run()
    at.switch_page("app_pages/instances.py").run()
    at.checkbox(key="widget::deadline:on").check().run()
    at.number_input(key="widget::deadline:days").set_value(30.0).run()
    at.session_state[OVERRIDES_OPEN] = True  # open "Your prices and MFUs", as a user would
    at.run()
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_answers_the_70b_30_day_question(page, catalog):
    best = rank_instances(scenario70(), catalog, deadline_days=30.0).cheapest
    assert metric(page, "Cheapest instance") == best.instance
    assert metric(page, "Nodes") == f"{best.nodes:,.0f} nodes"
    assert (
        metric(page, "Cost to train, instances")
        == display.tile("cost_to_train_usd", best.cost_to_train_usd)["value"]
    )
    text = page.success[0].value.replace("\\", "")
    assert best.instance in text and "as of 2025-06" in text
    assert "Failures and checkpoints cost" in text and "exposed communication" in text
    # the ranking's rules are stated next to it
    rules = " ".join(m.value for m in page.markdown).replace("\\", "")
    assert "Failure rate on other node types" in rules and "public On-Demand price" in rules


def test_verdict_states_its_robustness(page, catalog):
    """How far the cheapest type's price or MFU may move before the runner-up wins, as
    models.instances.verdict_robustness computes it."""
    from goodput_lab.models.instances import verdict_robustness

    s = scenario70()
    rob = verdict_robustness(s, catalog, rank_instances(s, catalog, deadline_days=30.0))
    t = display.tile("verdict_break_even_usd_per_hour", rob.break_even_usd_per_hour)
    assert metric(page, "Break-even price") == t["value"]
    assert (
        metric(page, "Break-even MFU")
        == display.tile("verdict_break_even_mfu", rob.break_even_mfu)["value"]
    )
    text = " ".join(m.value for m in page.markdown).replace("\\", "")
    assert f"The verdict holds unless {rob.cheapest}'s price rises above" in text
    assert f"The runner-up, {rob.runner_up}" in text


def test_unpriced_instances_need_a_user_price(page):
    infos = " ".join(i.value for i in page.info)
    assert "p6e-gb200.36xlarge: no public price" in infos
    assert "trn2.48xlarge: no public price" in infos
    assert page.number_input(key="widget::inst:price:p6e-gb200.36xlarge").value is None
    # the cost chart shows priced instances only; none invented
    cost = json.loads(page.get("plotly_chart")[1].proto.spec)
    ys = cost["data"][0]["y"]  # horizontal bars: instance names on y
    assert not any("gb200" in y or "trn2" in y for y in ys)
    assert "($)" in cost["layout"]["xaxis"]["title"]["text"]
    # the page says why they are not in the charts
    captions = " ".join(c.value for c in page.caption)
    # QA 18: the time chart draws the unpriced types, so only the cost chart leaves them out
    assert "Not in the cost chart: p6e-gb200.36xlarge — no public On-Demand price" in captions
    times = json.loads(page.get("plotly_chart")[0].proto.spec)
    drawn = " ".join(str(y) for t in times["data"] for y in (t.get("y") or []))
    assert "p6e-gb200" in drawn
    # the cost legend lists only what is drawn: no entry for the all-zero "added" parts
    names = [t["name"] for t in cost["data"] if t.get("showlegend", True) and t.get("name")]
    assert "Pipeline bubble" not in names and "Failures and checkpoints" in names


def test_entering_a_price_adds_the_instance(page, catalog):
    page.number_input(key="widget::inst:price:p6e-gb200.36xlarge").set_value(20.0).run()
    assert not page.exception
    ys = json.loads(page.get("plotly_chart")[1].proto.spec)["data"][0]["y"]
    assert any("p6e-gb200.36xlarge" in y for y in ys)
    best = rank_instances(
        scenario70(), catalog, deadline_days=30.0, prices={"p6e-gb200.36xlarge": 20.0}
    ).cheapest
    assert metric(page, "Cheapest instance") == best.instance


def ranking_with_both_overrides(catalog):
    """The ranking the page should show once the GB200 price and the B200 MFU are entered."""
    return rank_instances(
        scenario70(),
        catalog,
        deadline_days=30.0,
        prices={"p6e-gb200.36xlarge": 20.0},
        mfus={"p6-b200.48xlarge": 0.30},
    )


def test_mfu_input_changes_time(page, catalog):
    page.number_input(key="widget::inst:mfu:p6-b200.48xlarge").set_value(30.0).run()
    assert not page.exception
    r = ranking_with_both_overrides(catalog)
    b200 = r.row("p6-b200.48xlarge")
    spec = json.loads(page.get("plotly_chart")[0].proto.spec)
    labels = [lbl.replace("<b>", "").replace("</b>", "") for lbl in spec["data"][0]["y"]]
    assert any(
        lbl.startswith("p6-b200.48xlarge") and f"× {b200.nodes:,.0f} nodes" in lbl for lbl in labels
    )


def test_closed_overrides_draw_nothing_and_still_apply(page, catalog):
    """Closed, the expander draws none of its ~50 widgets; the prices and MFUs entered
    above still rank the instances.  (Entered here as well: with two workers the tests
    above may have run on the other one.)"""
    page.session_state[OVERRIDES_OPEN] = True
    page.run()
    page.number_input(key="widget::inst:price:p6e-gb200.36xlarge").set_value(20.0).run()
    page.number_input(key="widget::inst:mfu:p6-b200.48xlarge").set_value(30.0).run()
    page.session_state[OVERRIDES_OPEN] = False
    page.run()
    assert not page.exception
    assert not [w for w in page.number_input if w.key and w.key.startswith("widget::inst:")]
    r = ranking_with_both_overrides(catalog)
    assert metric(page, "Cheapest instance") == r.cheapest.instance
    ys = json.loads(page.get("plotly_chart")[1].proto.spec)["data"][0]["y"]
    assert any("p6e-gb200.36xlarge" in y for y in ys)
    page.session_state[OVERRIDES_OPEN] = True
    page.run()
    assert page.number_input(key="widget::inst:price:p6e-gb200.36xlarge").value == 20.0


def test_side_by_side_is_two_tables_that_fit_a_1024px_window(page):
    """Ten columns in one table ran past a 1024 px window beside the sidebar: the costs and
    what drives them are two tables of at most seven columns, rows in the same order."""
    costs = next(t.value for t in page.table if "Note" in t.value.columns)
    why = next(t.value for t in page.table if any(c.startswith("MFU") for c in t.value.columns))
    assert len(costs.columns) <= 7 and len(why.columns) <= 7
    assert any(c.startswith("Cost to train") for c in costs.columns)
    assert [c.split(" (")[0] for c in why.columns] == [
        "Instance",
        "Goodput",
        "Node failure rate",
        "MFU",
    ]
    assert list(costs.iloc[:, 0]) == list(why.iloc[:, 0])


def test_the_time_chart_says_what_its_orange_bar_is(catalog):
    """QA: the Time to train chart drew the cheapest type in orange and said only "★
    cheapest" (on the Optimizer's chart orange is the scenario's own type)."""
    from goodput_lab.charts import style
    from goodput_lab.charts.instances import time_to_train_chart
    from goodput_lab.views import instances as svc

    df = svc.table(rank_instances(load_preset("aws-16k-h100"), catalog))
    fig = time_to_train_chart(df, None)
    bars = fig.data[0]
    drawn = df.filter(df["time_to_train_days"].is_not_nan())
    orange = [c == style.COLORS["orange"] for c in bars.marker.color]
    assert orange == drawn["cheapest"].to_list() and any(orange)
    assert "orange ★: cheapest" in fig.layout.title.subtitle.text.replace("<br>", " ")


def test_the_types_in_neither_chart_are_named_not_cut_off(catalog):
    """QA (p6e-gb200): "In neither chart:" repeated every type's long reason, ran past the
    caption's 2,000 characters and ended "... or pipeline parallelism; dgx-h800 — ... use..."
    above the table that gives the same reasons in full."""
    from goodput_lab.dashboard.text import MAX_CHARS

    from goodput_lab.views import instances as svc

    df = svc.table(rank_instances(load_preset("p6e-gb200-nvl72"), catalog))
    caption = svc.not_charted_caption(df)
    assert "In neither chart: " in caption and caption.endswith(
        "(why: under the side-by-side table)."
    )
    assert "p4d.24xlarge" in caption and "needs 78.1 GB" not in caption
    assert len(caption) < MAX_CHARS


def test_the_tables_and_the_verdict_show_the_spares_the_cost_includes(catalog):
    """QA 26 #9: the side-by-side table's Nodes read "1,152" beside a cost that pays 180
    spare nodes more; it reads "1,152 + 180 spare" as goodput instances and goodput decide
    write it, and the rules say how the spares go with the job to the other types."""
    from goodput_lab.views import instances as svc

    sc = load_preset("p6e-gb200-nvl72").replace(
        {"cluster.spare_domains": 2, "cluster.spare_nodes_per_domain": 2}
    )
    ranking = svc.ranking(sc, catalog, None)
    df = svc.table(ranking)
    shown = {r["Instance"].rstrip(" ★~"): r for r in svc.ranking_display(df).iter_rows(named=True)}
    assert shown["p6e-gb200.36xlarge"]["Nodes"] == "1,152 + 180 spare"
    assert shown["p6e-gb200.36xlarge"]["Cost to train, instances ($)"] == "$24,360,746"
    assert shown["p6-b200.48xlarge"]["Nodes"] == "576 + 2 spare"
    opt = svc.optimizer_display(df).row(0, named=True)
    assert opt["Nodes"] == "1,152 + 180 spare"
    best = svc.cheapest(df)
    assert "**p6e-gb200.36xlarge × 1,152 nodes + 180 spare**" in svc.verdict_text(
        best, None, "modelled"
    )
    assert svc.verdict_tiles(best)[0][1]["value"] == "1,152 + 180 spare"
    assert any(
        r.startswith("Spares: every type keeps 2 whole spare domains") for r in ranking.rules()
    )
    # without spares the count alone
    plain = svc.table(svc.ranking(load_preset("p6e-gb200-nvl72"), catalog, None))
    assert svc.ranking_display(plain).row(0, named=True)["Nodes"] == "1,152"
    assert svc.verdict_tiles(svc.cheapest(plain))[0][1]["value"] == "1,152 nodes"


def test_the_charts_name_the_spares_beside_the_node_count(catalog):
    """QA 26 #9: the charts' bars read "× 1,152 nodes" beside a cost with 180 spare nodes."""
    from goodput_lab.charts.instances import _labels
    from goodput_lab.views import instances as svc

    sc = load_preset("p6e-gb200-nvl72").replace({"cluster.spare_domains": 2})
    labels = _labels(svc.table(svc.ranking(sc, catalog, None)))
    assert labels[0] == "<b>p6e-gb200.36xlarge ★</b><br>× 1,152 + 36 spare"
    plain = _labels(svc.table(svc.ranking(load_preset("p6e-gb200-nvl72"), catalog, None)))
    assert plain[0] == "<b>p6e-gb200.36xlarge ★</b><br>× 1,152 nodes"


def test_qa27_5_no_empty_speed_ratio_chart_when_the_reference_cannot_train(catalog):
    """QA 27 #5: with p6e-gb200-nvl72, p5.48xlarge (the reference) does not fit, every
    modelled ratio was NaN and the page drew a framed chart with no bars.  The ratios are
    now read against the scenario's own type where p5.48xlarge cannot train; a one-line
    note stands in for the chart only when the reference cannot train either."""
    from goodput_lab.charts.instances import ratio_note
    from goodput_lab.views import instances as svc
    from tests.dashboard._pages import chart, open_page

    at = open_page("instances", {"preset": "p6e-gb200-nvl72"})
    titles = [chart(at, i)["layout"]["title"]["text"] for i in range(len(at.get("plotly_chart")))]
    speed = [t for t in titles if "Speed per accelerator" in t]
    assert len(speed) == 1 and "p6e-gb200.36xlarge" in speed[0]
    assert not [c.value for c in at.caption if "Speed per accelerator is not charted" in c]
    r = rank_instances(load_preset("p6e-gb200-nvl72"), catalog)
    assert r.reference_instance == "p6e-gb200.36xlarge"
    row = next(o for o in r.rows if o.instance == "p6e-gb200.36xlarge")
    assert row.modeled_ratio_vs_reference == 1.0
    # where no type can train, the note stands in for the chart
    df = svc.table(r).with_columns(modeled_ratio_vs_reference=float("nan"))
    assert ratio_note(df, "p5.48xlarge") == (
        "Speed per accelerator is not charted: its reference, p5.48xlarge, cannot train this "
        "workload, so there is no modelled ratio to it (why: under the side-by-side table)."
    )


def test_qa27_5_the_speed_ratio_chart_stays_when_the_reference_fits(catalog):
    from goodput_lab.charts.instances import ratio_chart, ratio_note
    from goodput_lab.views import instances as svc

    r = rank_instances(load_preset("llama3-70b"), catalog)
    df = svc.table(r)
    assert ratio_note(df, r.reference_instance) is None
    assert any(len(tr.y) for tr in ratio_chart(df, r.reference_instance).data)


def test_qa27_10_time_labels_are_level_and_after_the_whisker(catalog):
    """QA 27 #10: at 1024 px the labels inside short bars (35.7 and 25.4 days) were turned
    90° by Plotly; they are now level text after each bar's whisker, as on the cost chart."""
    import numpy as np

    from goodput_lab.charts.instances import time_to_train_chart
    from goodput_lab.views import instances as svc

    df = svc.table(rank_instances(load_preset("deepseek-v3"), catalog))
    fig = time_to_train_chart(df, 45.0)
    bars = fig.data[0]
    assert bars.type == "bar" and bars.text is None  # nothing Plotly could rotate in a bar
    labels = [t for t in fig.data if t.type == "scatter" and t.mode == "text"]
    assert len(labels) == 1
    drawn = df.filter(df["time_to_train_days"].is_not_nan())
    assert [t.replace("\u00a0", "") for t in labels[0].text] == [
        f"{d:,.1f} days" for d in drawn["time_to_train_days"]
    ]
    hi = drawn["time_to_train_days_high"].to_numpy()
    assert np.all(np.asarray(labels[0].x) >= np.fmax(hi, drawn["time_to_train_days"].to_numpy()))
    assert labels[0].textposition == "middle right"
    assert max(labels[0].x) < fig.layout.xaxis.range[1] / 1.2  # room for the longest label
