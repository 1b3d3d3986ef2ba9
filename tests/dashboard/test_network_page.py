"""AppTest of the Network page: metrics match the model, sliders move them, charts labelled."""

from __future__ import annotations

import base64
import itertools
import json

import numpy as np
import pytest
from goodput_lab.models import evaluate, load_preset, resolve_inputs
from goodput_lab.models import network as net
from streamlit.testing.v1 import AppTest

from goodput_lab.views import display
from tests.conftest import APP
from tests.dashboard._pages import open_sidebar


def values(v):
    if isinstance(v, dict):  # plotly encodes numpy arrays as base64 typed arrays
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


@pytest.fixture(scope="module")
def page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/network.py").run()
    open_sidebar(at, "Network")  # the efficiency slider is in this advanced group
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_network_metrics_match_model(page, catalog):
    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    assert metric(page, "Gradient all-reduce") == f"{ev['allreduce_ms']:,.1f} ms"
    assert metric(page, "Step time") == display.tile("step_seconds", ev["step_seconds"])["value"]
    assert metric(page, "Scaling efficiency") == f"{ev['scaling_efficiency'] * 100:.2f}%"
    # the algorithm table is formatted from the registry: worded headers, units, separators
    table = page.table[1].value  # after the fabric table
    assert list(table.columns)[:3] == ["Algorithm", "Data-parallel ranks", "Message per rank (GB)"]
    assert table["Time (ms)"].iloc[0] == f"{ev['allreduce_ms']:,.1f}"
    # the step model's own algorithm (NCCL's overlapped hierarchical all-reduce) is the tile's
    nccl = table[table["Algorithm"] == "Hierarchical, phases overlapped (NCCL)"].iloc[0]
    assert nccl["Time (ms)"] == f"{ev['allreduce_ms']:,.1f}"


def test_network_charts_have_titles_units_and_fabrics(page):
    charts = [json.loads(c.proto.spec) for c in page.get("plotly_chart")]
    assert len(charts) == 4
    worth, charts = charts[0], charts[1:]  # what the fabric is worth comes first
    assert "Savings per day of each change to the network" in worth["layout"]["title"]["text"]
    assert "$/day" in worth["layout"]["xaxis"]["title"]["text"]
    for spec in charts[:2]:
        assert spec["layout"]["title"]["text"]
        assert "(" in spec["layout"]["yaxis"]["title"]["text"]  # unit in the axis title
    names = {t["name"] for t in charts[0]["data"]}
    assert any("p5.48xlarge" in n for n in names) and any("dgx-a100" in n for n in names)
    # a log axis has no 0: a node count with nothing to reduce is left out, not drawn at
    # the bottom; lines of equal fabrics are dashed apart so none hides another
    assert all(v > 0 for t in charts[0]["data"] for v in values(t["y"]))
    dashes = [t["line"].get("dash", "solid") for t in charts[0]["data"]]
    assert len(set(dashes)) > 1
    # Trainium has no measured matmul efficiency: its step is not modelled, no line drawn
    assert not any("trn2" in n for n in names)
    # scaling efficiency stays within 0..100 % and never rises with nodes (fixed batch)
    for trace in charts[1]["data"]:
        y = values(trace["y"])
        assert all(0 < v <= 100 for v in y)
        assert all(b <= a + 1e-9 for a, b in itertools.pairwise(y))
    bars = charts[2]["data"][0]
    labels = [v.replace("<br>", " ") for v in values(bars["y"])]
    assert labels == list(net.REROUTE_PRESETS_S)
    assert "$/day" in charts[2]["layout"]["xaxis"]["title"]["text"]
    # log axes are labelled at readable ticks only (1, 10, 100 ...), never plotly's minor digits
    ticks = charts[0]["layout"]["xaxis"]["ticktext"]
    assert len(ticks) >= 3 and set(ticks) <= {"1", "10", "100", "1,000", "10,000", "100,000"}


def test_reroute_costs_follow_events_and_timers(page, catalog):
    page.number_input(key="widget::net:events_per_day").set_value(4.0).run()
    assert not page.exception
    y = values(json.loads(page.get("plotly_chart")[3].proto.spec)["data"][0]["x"])  # reroutes
    base = load_preset("aws-16k-h100")
    g0 = evaluate(base, catalog)["goodput"]
    bgp = evaluate(
        base.replace({"network.fabric_events_per_day": 4.0, "network.reroute_seconds": 90.0}),
        catalog,
    )
    assert y[2] == pytest.approx((g0 - bgp["goodput"]) * bgp["cluster_usd_per_day"], rel=1e-9)
    assert y[0] < y[2] / 50  # SIDR's claimed 1 s vs a 90 s BGP hold timer


def test_efficiency_slider_changes_allreduce(page, catalog):
    page.slider(key="w:network.inter_node_efficiency").set_value(50.0).run()
    assert not page.exception
    ev = evaluate(
        load_preset("aws-16k-h100").replace({"network.inter_node_efficiency": 0.5}), catalog
    )
    assert metric(page, "Gradient all-reduce") == f"{ev['allreduce_ms']:,.1f} ms"


def _current(page):
    """The preset with the efficiency the module's earlier tests left on the slider."""
    eta = page.slider(key="w:network.inter_node_efficiency").value / 100
    return load_preset("aws-16k-h100").replace({"network.inter_node_efficiency": eta})


def test_network_page_states_the_step_basis(page, catalog):
    # default: the step is modelled from the system, and its parts are said in the help
    help_text = next(m.help for m in page.metric if m.label == "Step time")
    assert "Modelled from the system" in help_text and "recomputation" in help_text
    ev = evaluate(_current(page), catalog)
    t = display.tile("effective_mfu", ev["effective_mfu"])  # labelled from the registry
    assert metric(page, t["label"]) == t["value"]
    assert "an output of the modelled step" in next(
        m.help for m in page.metric if m.label == t["label"]
    )


def test_fabric_worth_in_days_and_dollars_per_day(page, catalog):
    # halving the scale-out bandwidth and raising the latency both cost money per day,
    # priced as `goodput compare` prices them
    from goodput_lab.models import compare

    spec = json.loads(page.get("plotly_chart")[0].proto.spec)["data"][0]
    changes = [v.replace("<br>", " ") for v in values(spec["y"])]
    usd = dict(zip(changes, values(spec["x"]), strict=True))
    base = _current(page)
    half = compare(base, base.replace({"network.inter_node_gbps": 1600.0}), catalog)
    assert usd["Half the scale-out bandwidth"] == pytest.approx(half.savings_usd_per_day)
    assert usd["Half the scale-out bandwidth"] < 0 < usd["Double the scale-out bandwidth"]
    slow = compare(base, base.replace({"network.alpha_network_us": 50.0}), catalog)
    assert usd["Network latency α × 5"] == pytest.approx(slow.savings_usd_per_day)
    assert usd["Network latency α × 5"] < 0
    # the fabric table, first on the page, formatted from the registry
    table = page.table[0].value
    assert "Change in time to train (days)" in table.columns
    half_row = table[table["Change"] == "Half the scale-out bandwidth"].iloc[0]
    assert half_row["Savings per day"] == display.cell(
        "savings_usd_per_day", half.savings_usd_per_day, "savings"
    )


@pytest.mark.parametrize("zero", [0, 1, 2, 3])
@pytest.mark.parametrize("precision", ["bf16", "fp32"])
def test_algorithm_table_reads_the_step_models_traffic(zero, precision, catalog):
    """Issue 26: the service held its own copy of the ZeRO traffic formula; it now calls
    models.compute.dp_allreduce_bytes_per_param, so the NCCL row is the step model's
    all-reduce at every ZeRO stage and gradient precision (ZeRO-3 with fp32 gradients is
    (4 + 4m)/2 bytes per parameter: the weights are gathered again for each of the step's m
    micro-batches)."""
    from goodput_lab.views import network as svc

    s = load_preset("aws-16k-h100").replace(
        {"workload.zero_stage": zero, "workload.gradient_precision": precision}
    )
    ev = evaluate(s, catalog)
    t = svc.algorithm_table(ev)
    nccl = t.filter(t["algorithm"] == "Hierarchical, phases overlapped (NCCL)").row(0, named=True)
    assert nccl["collective_ms"] == pytest.approx(ev["allreduce_ms"], rel=1e-9)
    g = 2.0 if precision == "bf16" else 4.0
    m = ev["micro_batches_per_step"]
    per_param = {0: g, 1: (g + 2) / 2, 2: (g + 2) / 2, 3: (g + 4 * m) / 2}[zero]
    n = (
        ev["model_parameters_billion"]
        * 1e9
        / (s["workload.tensor_parallel"] * s["workload.pipeline_parallel"])
    )
    assert nccl["allreduce_message_GB"] == pytest.approx(per_param * n / 1e9)


def test_this_scenario_label_sits_on_the_log_axis_at_the_logarithm():
    """An annotation's x on a log axis is log10 of the value: given 128 (nodes) it was read
    as 10^128, and the x axis stretched until every line sat in its first few pixels, the
    ticks piled on each other (QA pass, December 2026)."""
    import math

    import polars as pl

    from goodput_lab.charts.network import allreduce_vs_nodes_chart, scaling_efficiency_chart

    df = pl.DataFrame(
        {
            "instance": ["a"] * 3 + ["b"] * 3,
            "fabric": ["a"] * 3 + ["b"] * 3,
            "nodes": [1.0, 10.0, 1000.0] * 2,
            "allreduce_ms": [1.0, 5.0, 9.0, 2.0, 6.0, 10.0],
            "scaling_efficiency_pct": [99.0, 90.0, 50.0, 98.0, 80.0, 40.0],
        }
    )
    for chart in (allreduce_vs_nodes_chart, scaling_efficiency_chart):
        fig = chart(df, 128.0)
        assert fig.layout.xaxis.type == "log"
        (note,) = [a for a in fig.layout.annotations if a.text == "this scenario"]
        assert note.x == pytest.approx(math.log10(128.0))
        (line,) = fig.layout.shapes
        assert line.x0 == line.x1 == 128.0  # a shape takes the data value
        # no x tick beyond the data (the stretched axis had ticks to 10,000 of 1,000 nodes)
        assert max(fig.layout.xaxis.tickvals) <= 1000.0


@pytest.mark.parametrize(
    ("timeout_s", "subtitle"),
    [
        (600.0, "none restarts the job"),  # every reroute (1-180 s) ends before it
        (60.0, "Red: the stall outlasts"),  # the two BGP timers restart the job
    ],
)
def test_reroute_chart_names_only_the_colours_drawn(catalog, timeout_s, subtitle):
    """The chart said "Red: ... restarts" over four blue bars at the preset's 600 s."""
    from goodput_lab.charts.network import reroute_chart
    from goodput_lab.views.network import reroute_comparison

    sc = load_preset("aws-16k-h100").replace({"network.collective_timeout_seconds": timeout_s})
    spec = json.loads(reroute_chart(reroute_comparison(sc, catalog, 1.0)).to_json())
    text = spec["layout"]["title"]["subtitle"]["text"].replace("<br>", " ")
    assert subtitle in text
    reds = [c == "#d62728" for c in spec["data"][0]["marker"]["color"]]
    assert reds == ([False] * 4 if timeout_s == 600.0 else [False, False, True, True])


@pytest.mark.parametrize("preset", ["deepseek-v3", "mixtral-8x22b", "gpt-oss-120b"])
def test_moe_algorithm_rows_are_the_step_models_two_reductions(preset, catalog):
    """QA pass 19 #6: DeepSeek-V3's table reduced every parameter over every replica
    (125.8 GB a rank, 1,342.5 ms) beside the step's 85.4 ms all-reduce.  The table now has
    the step's two groups, non-expert gradients over every replica and the routed experts'
    over the expert data-parallel group, and their NCCL rows add up to the step's."""
    from goodput_lab.models.compute import gradient_reduction_groups

    from goodput_lab.views import network as svc

    ev = evaluate(load_preset(preset), catalog)
    t = svc.algorithm_table(ev)
    assert t["gradients"].unique().sort().to_list() == ["Non-expert", "Routed experts"]
    nccl = t.filter(t["algorithm"] == "Hierarchical, phases overlapped (NCCL)")
    assert nccl["collective_ms"].sum() == pytest.approx(ev["allreduce_ms"], rel=1e-9)
    g = gradient_reduction_groups(resolve_inputs(load_preset(preset), catalog))
    assert nccl["allreduce_ranks"].to_list() == list(g["ranks"])
    assert nccl["allreduce_ranks"][0] == ev["data_parallel_size"]
    assert "Gradients" in svc.algorithm_display(t).columns
    assert "add up to the step's all-reduce" in svc.algorithm_caption(t, ev)


def test_the_algorithm_caption_names_whose_performance_notes_it_cites(catalog):
    """QA: "(doc/PERFORMANCE.md)" read as a file of this project; it is nccl-tests'."""
    from goodput_lab.views import network as svc

    ev = evaluate(load_preset("aws-16k-h100"), catalog)
    caption = svc.algorithm_caption(svc.algorithm_table(ev), ev)
    assert "(nccl-tests' own doc/PERFORMANCE.md; docs/references.md)" in caption


@pytest.mark.parametrize("basis", ["modelled", "end_to_end"])
def test_fabric_table_reads_no_change_as_the_chart_does_and_small_changes_as_such(basis, catalog):
    """QA: a zero saving read "saves $0" in the table while the chart said "no change", and
    "Change in time to train 0.0" sat beside "costs $23" (llama3-70b, α × 5)."""
    from goodput_lab.charts.network import fabric_value_chart
    from goodput_lab.views import network as svc

    sc = load_preset("llama3-70b").replace({"workload.mfu_basis": basis})
    df = svc.fabric_value(sc, catalog)
    table = svc.fabric_value_display(df)
    bars = json.loads(fabric_value_chart(df).to_json())["data"][0]["text"]
    for row, bar in zip(table.iter_rows(named=True), bars, strict=True):
        days, usd = row["Change in time to train (days)"], row["Savings per day"]
        assert usd != "saves $0" and (days == "no change" or not display.reads_zero(days)), row
        assert (usd == "no change") == (bar == "no change"), (row, bar)
        assert (days == "no change") == (usd == "no change"), row
    if basis == "modelled":
        slow = table.filter(table["Change"] == "Network latency α × 5").row(0, named=True)
        assert slow["Change in time to train (days)"].startswith("+0.0")
        assert slow["Change in time to train (days)"] != "+0.0"


def test_a_change_too_small_for_the_registry_keeps_its_sign_and_two_digits():
    assert display.change("time_to_train_change_days", 0.026452) == "+0.026 days"
    assert display.change("time_to_train_change_days", -0.005952, unit=False) == "−0.006"
    assert display.change("time_to_train_change_days", 0.0) == "no change"
    assert display.change("goodput", 1e-6) == "+0.0001 points"
    assert display.change("goodput", 0.0403) == "+4.03 points"
    assert display.cell("savings_usd_per_day", 0.0, "savings") == "no change"
    assert display.cell("savings_usd_per_day", -8360.2, "savings") == "costs $8,360"


def test_the_step_breakdown_says_what_auto_recomputation_chose(catalog):
    """workload.recompute = 'auto' (the default): the Network page, which splits the step
    time, says what the step model chose (Evaluation.texts["recompute_note"], capitalised as
    the report writes it); nothing when the level is entered.  The sidebar's dropdown words
    the choice."""
    from goodput_lab.dashboard import url_state

    from goodput_lab.views import network as svc
    from tests.dashboard._pages import open_page

    sc = load_preset("llama3-70b").replace(
        {"workload.recompute": "auto", "workload.micro_batch_sequences": 3}
    )
    ev = evaluate(sc, catalog)
    note = ev.texts["recompute_note"]
    assert note.startswith("recomputation (auto): full on 25% of the layers")
    assert ev["recompute_seconds_per_step"] > 0
    at = open_page("network", url_state.encode(sc, "llama3-70b"))
    captions = [c.value for c in at.caption]
    expected = "R" + note[1:] + "."
    assert expected == svc.recompute_caption(ev)
    assert expected in captions, captions
    step = next(m for m in at.metric if m.label == "Step time")
    recompute = display.format_value("recompute_seconds_per_step", ev["recompute_seconds_per_step"])
    assert f"recomputation {recompute}" in step.help
    open_sidebar(at, "Model shape and parallelism")
    box = at.selectbox(key="w:workload.recompute")
    assert box.value == "auto"
    assert "Auto (least that fits)" in box.options
    # an entered level: no note
    entered = sc.replace({"workload.recompute": "full"})
    at = open_page("network", url_state.encode(entered, "llama3-70b"))
    assert not any(c.value.startswith("Recomputation (auto)") for c in at.caption)
    assert svc.recompute_caption(evaluate(entered, catalog)) == ""


def test_a_saving_under_a_dollar_reads_as_the_chart_writes_it(catalog):
    """QA (llama3-70b, auto recomputation, 3 sequences per micro-batch): the table read
    "saves $0.99" beside the chart's "+$1/day" for the same saving."""
    from goodput_lab.charts.network import fabric_value_chart
    from goodput_lab.views import network as svc

    sc = load_preset("llama3-70b").replace(
        {"workload.recompute": "auto", "workload.micro_batch_sequences": 3}
    )
    df = svc.fabric_value(sc, catalog)
    table = svc.fabric_value_display(df)
    bars = json.loads(fabric_value_chart(df).to_json())["data"][0]["text"]
    for cell, bar in zip(table["Savings per day"], bars, strict=True):
        if bar == "no change":
            assert cell == "no change"
            continue
        amount = bar.lstrip("+−").removesuffix("/day")
        assert cell == ("saves " if bar.startswith("+") else "costs ") + amount, (cell, bar)
    assert display.cell("savings_usd_per_day", 0.99, "savings") == "saves $1"
    assert display.cell("savings_usd_per_day", -8360.2, "savings") == "costs $8,360"


def test_the_step_breakdown_says_when_the_batch_does_not_split(catalog):
    """A global batch that does not split into whole micro-batches on every replica
    (llama3-8b on 85 nodes: 340 replicas of 1,024 sequences) is said under the step tiles,
    as `goodput evaluate` says it (Evaluation.texts["batch_note"]); nothing when it does."""
    from goodput_lab.dashboard import url_state

    from goodput_lab.views import network as svc
    from tests.dashboard._pages import open_page

    sc = load_preset("llama3-8b").replace({"cluster.nodes": 85})
    expected = svc.batch_caption(evaluate(sc, catalog))
    assert expected.startswith("The global batch of 1,024 sequences does not split")
    at = open_page("network", url_state.encode(sc, "llama3-8b"))
    assert expected in [c.value for c in at.caption]
    assert svc.batch_caption(evaluate(load_preset("llama3-8b"), catalog)) == ""


def test_a_configuration_that_cannot_run_says_why_as_the_cli_does(catalog):
    """The warning reads models.evaluate.step_reason, which goodput evaluate and compare
    print too (TP 16 on 8-GPU nodes)."""
    from goodput_lab.dashboard import url_state
    from goodput_lab.models.evaluate import step_reason

    from goodput_lab.views import network as svc
    from tests.dashboard._pages import open_page

    sc = load_preset("llama3-70b").replace({"workload.tensor_parallel": 16})
    ev = evaluate(sc, catalog)
    reason = step_reason(ev)
    assert reason and svc.cannot_run_warning(ev) == f"This configuration cannot run: {reason}"
    at = open_page("network", url_state.encode(sc, "llama3-70b"))
    assert svc.cannot_run_warning(ev) in [w.value for w in at.warning]
    assert step_reason(evaluate(load_preset("llama3-70b"), catalog)) == ""


@pytest.mark.parametrize(
    ("change", "plotted"),
    [
        ({"workload.tensor_parallel": 16}, True),  # TP 16 on 8-GPU nodes: NVL72 types run it
        ({"workload.params_billion": 20_000.0}, False),  # fits in no catalog type's memory
    ],
)
def test_a_configuration_that_cannot_run_values_no_fabric(catalog, change, plotted):
    """Without a step time every fabric change read "no change" on an axis of −$1..$1: the
    section gives way to one line (the warning above says why), and the charts against nodes
    to the same line when no catalog type runs the workload either."""
    from goodput_lab.dashboard import url_state

    from goodput_lab.views import network as svc
    from tests.dashboard._pages import open_page

    sc = load_preset("aws-16k-h100").replace(change)
    ev = evaluate(sc, catalog)
    scaling = svc.scaling_vs_nodes(sc, catalog)
    assert (scaling.height > 0) is plotted
    line = svc.nothing_to_value(ev, scaling)
    assert line == (
        "Nothing to value: this configuration cannot run (the warning above says why), so no "
        "change to the fabric moves its time to train."
        if plotted
        else "Nothing to value or plot: this configuration cannot run (the warning above says "
        "why), nor can its workload on any catalog instance type at these parallel sizes."
    )
    at = open_page("network", url_state.encode(sc, "aws-16k-h100"))
    assert [i.value for i in at.info if i.value.startswith("Nothing")] == [line]
    assert [w.value for w in at.warning][:1] == [svc.cannot_run_warning(ev)]
    assert "What the fabric is worth" not in [s.value for s in at.subheader]
    titles = [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]
    assert not any("Savings per day of each change" in t for t in titles)
    # the charts against nodes (when any type runs it) and the reroute costs remain; a
    # single line (the NVL72 type alone runs TP 16) still names its type in a legend
    assert len(titles) == (3 if plotted else 1)
    for c in at.get("plotly_chart")[: 2 if plotted else 0]:
        spec = json.loads(c.proto.spec)
        assert spec["layout"]["showlegend"] is True
        assert [t["name"] for t in spec["data"]] == scaling["instance"].unique(
            maintain_order=True
        ).to_list()
    assert "Cost of fabric reroute stalls" in titles[-1]
    assert not any("Change" in t.value.columns for t in at.table)  # no fabric-value table
    # a configuration that runs values its fabric as before, with no such line
    assert svc.nothing_to_value(evaluate(load_preset("aws-16k-h100"), catalog), scaling) == ""
    assert svc.cannot_run_warning(evaluate(load_preset("aws-16k-h100"), catalog)) == ""


def test_qa27_11_reroute_labels_keep_two_significant_digits():
    """QA 27 #11: "−0.0011 points" (SIDR, 1 s) beside "−0.001 points" (BFD, 0.9 s): the
    registry's two significant digits dropped the trailing zero of 0.0010, so the smaller
    stall read less precise.  (1 s of 86,400 is 0.00116 points of wall time, but the loss is
    of goodput, 0.965 of it: 0.00112, so −0.0011 is rightly rounded.)"""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.outputs import format_value

    from goodput_lab.charts.network import reroute_chart
    from goodput_lab.views import network as net_svc

    rr = net_svc.reroute_comparison(load_preset("deepseek-v3"), dict(load_catalog()), 1.0)
    text = reroute_chart(rr).data[0].text
    points = [t.split("<br>")[1] for t in text]
    assert points[:2] == ["−0.0011 points", "−0.0010 points"]
    loss = rr["fabric_goodput_loss"].to_list()
    assert points[0] == format_value("fabric_goodput_loss", -loss[0])  # the registry's own
    assert points[2:] == [format_value("fabric_goodput_loss", -x) for x in loss[2:]]


def test_the_network_page_of_an_fp8_scenario_leaves_out_the_types_without_fp8():
    """FP8 on an A100 is now refused (QA 27 #1); the Network page's per-type scaling curves
    moved deepseek-v3 (FP8) onto every type and the page stopped on that refusal."""
    from tests.dashboard._pages import open_page

    at = open_page("network", {"preset": "deepseek-v3"})  # asserts no exception
    titles = [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]
    assert any("Cost of fabric reroute stalls" in t for t in titles)
    from goodput_lab.views import network as net_svc

    names = set(net_svc.scaling_vs_nodes(load_preset("deepseek-v3"), _catalog())["instance"])
    assert "p4d.24xlarge" not in names and "p5.48xlarge" in names


def _catalog():
    from goodput_lab.models import load_catalog

    return dict(load_catalog())
