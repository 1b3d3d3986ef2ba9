"""AppTest of the Compare page: headline savings, waterfall sums, what differs, four
scenarios, edits, uploads."""

from __future__ import annotations

import pytest
from goodput_lab.models import compare, load_preset
from goodput_lab.models.outputs import format_value

from goodput_lab.views import display
from tests.dashboard._pages import RATE_KEY, array, chart, metric, open_page

RUNNING = "Running cost (price, nodes, spares)"


@pytest.fixture(scope="module")
def app():
    return open_page("compare")


def savings_shown(at, value: float, per: str = "day", key: str = "savings_usd_per_day") -> str:
    t = display.tile(key, value, savings=True)
    assert t["label"].endswith(per)
    return metric(at, t["label"])


def waterfall(at, i: int = 1) -> dict:
    """The i-th pair's savings waterfall (the first chart is the loss bars)."""
    return chart(at, i)["data"][0]


def _text(at) -> str:
    return " ".join(str(e.value) for kind in ("info", "warning") for e in at.get(kind)).replace(
        "\\", ""
    )


def test_default_compare_reproduces_headline_claim(app, catalog):
    c = compare(load_preset("aws-16k-h100"), load_preset("aws-16k-h100-improved"), catalog)
    # the unit in the label: "+12.45 points" was cut at 1,024 px (QA 10)
    assert metric(app, "Goodput change (points)") == f"{c.goodput_delta * 100:+.2f}"
    assert savings_shown(app, c.savings_usd_per_day) == f"${c.savings_usd_per_day:,.0f}"
    # published claim: up to $200,000/day for 16,000 H100 (docs/references.md#headline-claim)
    assert 185_000 <= c.savings_usd_per_day <= 210_000
    year = c.savings_usd_per_day * 365.25
    # from $10M on, a tile writes millions (the exact amount is in its help)
    assert savings_shown(app, year, "year", "savings_usd_per_year") == f"${year / 1e6:.1f}M"
    month = year / 12
    assert savings_shown(app, month, "month", "savings_usd_per_month") == f"${month:,.0f}"
    # only the failure rate differs, and the page says so
    assert "Only one input differs: node failure rate" in _text(app)
    diffs = next(t.value for t in app.table if "Input" in t.value.columns)
    # in the sidebar slider's decimals (0.20%, not 0.2%), as every table of inputs
    assert diffs.values.tolist() == [["Node failure rate", "0.20%", "0.10%"]]


def test_waterfall_components_add_up_to_savings(app, catalog):
    c = compare(load_preset("aws-16k-h100"), load_preset("aws-16k-h100-improved"), catalog)
    trace = waterfall(app)
    assert trace["type"] == "waterfall" and trace["orientation"] == "h"
    x, y = array(trace["x"]), array(trace["y"])
    assert x[-1] == pytest.approx(c.savings_usd_per_day)
    assert sum(x[:-1]) == pytest.approx(c.savings_usd_per_day, rel=1e-9)
    # same price, nodes and spares: no running-cost bar (and no "$0" or "−0" labels)
    assert RUNNING not in [label.replace("<br>", " ") for label in y]
    assert all(t.startswith(("saves", "costs")) and t[-3:] != " $0" for t in trace["text"])
    # the rework component carries the biggest share at 40-minute checkpoints
    assert "Rework since last" in y[max(range(len(x) - 1), key=lambda i: x[i])]


def test_every_metric_is_listed(app):
    df = next(t.value for t in app.table if "Candidate 1" in t.value.columns and len(t.value) > 50)
    for label in ("Goodput", "Lost per day", "Total cost per day", "Job MTBF"):
        assert label in set(df["Figure"])
    text = " ".join(str(v) for v in df.values.ravel())
    assert "None" not in text and "nan" not in text


def test_edits_and_sidebar_slider_feed_the_comparison(catalog):
    at = open_page("compare")
    at.selectbox(key="widget::cmp:candidate").set_value("Current scenario (sidebar)").run()
    at.text_area(key="widget::cmp:candidate:edits").input("cluster.spare_nodes = 8").run()
    assert not at.exception
    base = load_preset("aws-16k-h100")
    c = compare(base, base.replace({"cluster.spare_nodes": 8}), catalog)
    assert savings_shown(at, c.savings_usd_per_day) == f"${abs(c.savings_usd_per_day):,.0f}"
    # spares cost money: the waterfall's running-cost bar is −8 nodes × $98.32 × 24 h
    trace = waterfall(at)
    x, y = array(trace["x"]), [v.replace("<br>", " ") for v in array(trace["y"])]
    assert x[y.index(RUNNING)] == pytest.approx(-8 * 98.32 * 24)
    at.slider(key=RATE_KEY).set_value(0.5).run()  # baseline follows the sidebar
    b2 = base.replace({"reliability.node_failure_rate_per_day": 0.005})
    c2 = compare(b2, b2.replace({"cluster.spare_nodes": 8}), catalog)
    assert savings_shown(at, c2.savings_usd_per_day) == f"${abs(c2.savings_usd_per_day):,.0f}"


def test_four_scenarios_each_against_the_baseline(catalog):
    """Up to four side by side: a waterfall and a what-differs list per pair, and a warning
    when more than one input differs (the savings are a combined effect)."""
    at = open_page("compare")
    at.radio(key="widget::cmp:count").set_value(4).run()
    assert not at.exception
    base = load_preset("aws-16k-h100")
    cands = [
        load_preset(n)
        for n in ("aws-16k-h100-improved", "aws-16k-h100-memory", "hyperpod-tiered-16k-h100")
    ]
    cmps = [compare(base, c, catalog) for c in cands]
    wanted = [display.change("goodput_delta", c.goodput_delta, unit=False) for c in cmps]
    assert [m.value for m in at.metric if m.label == "Goodput change (points)"] == wanted
    for i, c in enumerate(cmps, 1):
        assert array(waterfall(at, i)["x"])[-1] == pytest.approx(c.savings_usd_per_day)
    side = next(t.value for t in at.table if "Candidate 3" in t.value.columns)
    assert list(side.columns) == ["Figure", "Baseline", "Candidate 1", "Candidate 2", "Candidate 3"]
    warnings = [w.value for w in at.warning]
    # the memory preset changes the strategy, timings and interval: said in words
    assert any("inputs differ, not only one" in w and "checkpoint strategy" in w for w in warnings)
    assert len(at.get("plotly_chart")) == 1 + 3


def test_bad_edit_and_bad_upload_give_clear_messages():
    at = open_page("compare")
    at.text_area(key="widget::cmp:candidate:edits").input("cluster.nodes = -3").run()
    assert not at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("cluster.nodes" in e and "out of range" in e for e in errors)
    at.text_area(key="widget::cmp:candidate:edits").input("").run()
    at.selectbox(key="widget::cmp:baseline").set_value("Uploaded TOML file").run()
    assert any("Upload a scenario file" in i.value for i in at.info)
    at.file_uploader(key="cmp:baseline:file").set_value(
        ("broken.toml", b"[cluster\nnodes = 1", "application/toml")
    ).run()
    assert not at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("broken.toml" in e and "not valid TOML" in e for e in errors)


def test_uploaded_baseline_is_compared(catalog):
    at = open_page("compare")
    at.selectbox(key="widget::cmp:baseline").set_value("Uploaded TOML file").run()
    raw = load_preset("llama3-16k").to_toml().encode()
    at.file_uploader(key="cmp:baseline:file").set_value(("l3.toml", raw, "application/toml")).run()
    assert not at.exception
    c = compare(load_preset("llama3-16k"), load_preset("aws-16k-h100-improved"), catalog)
    assert savings_shown(at, c.savings_usd_per_day) == f"${abs(c.savings_usd_per_day):,.0f}"
    # llama3 and the improved headline preset differ in much more than the failure rate
    assert "inputs differ, not only one" in _text(at)


def test_a_waterfall_with_nothing_to_show_has_readable_ticks():
    """QA pass 17: two scenarios that cost the same drew one "saves $0" bar over ticks
    reading "$0 $0 $0 $1 $1 $1"."""
    import json

    import polars as pl

    from goodput_lab.charts.compare import savings_waterfall

    spec = json.loads(
        savings_waterfall(
            pl.DataFrame({"label": ["Detection"], "usd_per_day": [0.0]}), 0.0
        ).to_json()
    )
    ticks = spec["layout"]["xaxis"]["ticktext"]
    assert len(set(ticks)) == len(ticks) and "$0" in ticks
    assert spec["layout"]["title"]["subtitle"]["text"] == "The two scenarios cost the same per day"


def test_a_candidate_on_another_instance_says_its_price_and_its_name_once(catalog):
    """QA pass 17: a B200 candidate edit over the sidebar kept p5's $98.32 silently; then its
    name read "Modified from Modified from ..." and its price change "$15.61/h" unsigned."""
    from goodput_lab.models import load_preset

    from goodput_lab.views.compare import build_with_note

    current = load_preset("aws-16k-h100").replace(
        {"reliability.node_failure_rate_per_day": 0.001}, name="Modified from AWS 16k H100"
    )
    sc, note = build_with_note(
        "Current scenario (sidebar)", current, None, "cluster.instance = p6-b200.48xlarge"
    )
    assert sc["pricing.usd_per_instance_hour"] is None
    assert note.startswith("The scenario's $98.32/instance-h was entered for p5.48xlarge")
    assert sc.name == "Modified from AWS 16k H100"
    assert format_value("usd_per_instance_hour", 15.61, signed=True) == "+$15.61/h"


def test_the_inputs_that_differ_are_listed_one_per_line_in_their_own_case(catalog):
    """QA: "5 inputs differ, not only one: node failure rate, failure rate, 80% interval
    low, failure rate, 80% interval high, step time basis and measured mfu" could not be
    read back into its inputs (labels hold commas), and lower-casing wrote "mfu"."""
    from goodput_lab.views import compare as svc

    base = load_preset("llama3-70b")
    cand = base.replace(
        {
            "reliability.node_failure_rate_per_day": 0.0041,
            "reliability.node_failure_rate_low": 0.0039,
            "reliability.node_failure_rate_high": 0.0043,
            "workload.mfu_basis": "end_to_end",
            "workload.mfu": 0.35,
        }
    )
    kind, note = svc.differences_note(compare(base, cand, catalog))
    assert kind == "warning"
    labels = [d["label"] for d in svc.differences(compare(base, cand, catalog))]
    assert "Failure rate, 80% interval low" in labels and "Measured MFU" in labels
    head, listed = note.split("\n\n")  # one sentence, its colon followed by the list
    assert head.startswith(f"{len(labels)} inputs differ, not only one, so the savings are")
    assert head.endswith(":")
    assert listed.splitlines() == [f"- {svc.in_sentence(label)}" for label in labels]
    assert "- failure rate, 80% interval low" in listed.splitlines()
    assert "- measured MFU" in listed.splitlines()
    # many inputs: the note points at the table under it instead of repeating it
    many = compare(load_preset("llama3-70b"), load_preset("p6e-gb200-nvl72"), catalog)
    assert len(svc.differences(many)) > svc.MAX_LISTED
    kind, note = svc.differences_note(many)
    assert "\n- " not in note and "the table under “What differs” lists them." in note
    assert [svc.in_sentence(x) for x in ("MLP type", "ZeRO / FSDP stage", "Node failure rate")] == [
        "MLP type",
        "ZeRO / FSDP stage",
        "node failure rate",
    ]


def test_a_side_without_a_step_time_is_said(catalog):
    """QA 23: goodput compare said nothing when a side's step could not be computed (here
    the candidate asks for tensor parallelism 16 on 8-GPU nodes); the CLI and the page now
    say which side and why, from one function (models.evaluate.step_gaps)."""
    from goodput_lab.models.evaluate import step_gaps

    from goodput_lab.views import compare as svc

    base = load_preset("aws-16k-h100")
    cand = base.replace({"workload.tensor_parallel": 16})
    c = compare(base, cand, catalog)
    gaps = step_gaps(c)
    assert gaps.startswith("the candidate's step time is not computed: ")
    note = svc.step_gaps_note(c)
    assert note.startswith("The candidate's step time is not computed: ")
    assert note.endswith("the savings count goodput and running cost only (no step-time part).")
    at = open_page("compare")
    at.selectbox(key="widget::cmp:candidate").set_value("Current scenario (sidebar)").run()
    at.text_area(key="widget::cmp:candidate:edits").input("workload.tensor_parallel = 16").run()
    assert not at.exception
    assert note in [w.value for w in at.warning], [w.value for w in at.warning]
    assert step_gaps(compare(base, base, catalog)) == ""


def test_qa27_14_many_differing_inputs_are_said_in_one_sentence(catalog):
    """QA 27 #14: "35 inputs differ, not only one:" / "(the table under "What differs"
    lists them)" / "The savings are ...": three loose paragraphs, a colon with no list."""
    from goodput_lab.views import compare as svc

    many = compare(load_preset("deepseek-v3"), load_preset("aws-16k-h100-improved"), catalog)
    n = len(svc.differences(many))
    assert n > svc.MAX_LISTED
    kind, note = svc.differences_note(many)
    assert kind == "warning" and "\n" not in note
    assert note == (
        f"{n} inputs differ, not only one, so the savings are their combined effect (to see "
        "one input's share, compare with only that one changed in the edits box): the table "
        "under “What differs” lists them."
    )


def test_qa27_13_what_differs_says_what_an_empty_input_means(catalog):
    """QA 27 #13: "What differs" wrote "derived" for an empty node limit per token (empty:
    no limit) and key/value heads (empty: as many as the attention heads); each empty input
    now reads as its field says, as --help words it ("or omitted: no limit")."""
    from goodput_lab.models.fields import FIELDS

    from goodput_lab.views import compare as svc

    at = open_page("compare", {"preset": "deepseek-v3"})
    sources = [s.value for s in at.selectbox if s.label == "Source"]
    assert sources == ["Current scenario (sidebar)", "Preset: aws-16k-h100-improved"]
    table = next(t.value for t in at.table if "Input" in t.value.columns)
    rows = {r[0]: list(r[1:]) for r in table.itertuples(index=False)}
    assert rows["Nodes per token (node-limited routing)"][-1] == "no limit"
    assert rows["Key/value heads"][0] == "same as the attention heads (MHA)"
    assert rows["Expert feed-forward size"][-1] == "same as the dense feed-forward size"
    assert rows["Layers"][-1] == "derived from the parameter count"  # a value, not an order
    assert not [v for r in rows.values() for v in r if v == "derived"]
    assert "omitted: no limit" in FIELDS["workload.moe_max_nodes_per_token"].allowed()
    # the words of a field without a stated meaning are left as they were
    assert svc._input_value("pricing.usd_per_instance_hour", None, None) == "catalog price"
