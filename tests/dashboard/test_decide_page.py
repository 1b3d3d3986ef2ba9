"""AppTest of the Decide page: its figures are `goodput decide --json`'s for the same inputs;
its link restores it; the tables have no raw values."""

from __future__ import annotations

import json

import pytest
from goodput_lab.dashboard import url_state
from goodput_lab.dashboard.text import plain
from goodput_lab.models.outputs import format_value

from goodput_lab.cli.main import main
from tests.dashboard._pages import chart, metric

QUERY = {
    "preset": "llama3-8b",
    "dec.deadline": "16",
    "dec.confidence_pct": "80",
    "dec.trials": "200",
    "dec.instances": "p5.48xlarge",
    "dec.go": "true",
}


@pytest.fixture(scope="module")
def app():
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=180)  # the decision simulates
    for k, v in QUERY.items():
        at.query_params[k] = v
    at.run()
    at.switch_page("app_pages/decide.py").run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(scope="module")
def cli():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(
            [
                "decide",
                "llama3-8b",
                "--deadline-days",
                "16",
                "--confidence",
                "0.8",
                "--trials",
                "200",
                "--instances",
                "p5.48xlarge",
                "--workers",
                "0",
                "--quiet",
                "--json",
            ]
        )
    assert code == 0
    return json.loads(buf.getvalue())


def test_page_figures_equal_goodput_decide_json(app, cli):
    assert cli["meets_target"]
    assert metric(app, "P(finish by the deadline)") == format_value(
        "probability_finish_by_deadline", cli["probability_finish_by_deadline"]
    )
    assert metric(app, "Expected total cost") == format_value(
        "expected_total_cost_usd", cli["expected_total_cost_usd"]
    )
    assert any(plain(cli["answer"]) in s.value for s in app.success)
    assert any("Deadline used: 16 days" in m.value for m in app.markdown)
    codes = [c.value for c in app.code]
    assert any(all(f"--set {s}" in c for s in cli["set"]) for c in codes)
    # the adopted features by their names on the Resilience page, not their identifiers
    (adopted,) = [c.value for c in app.caption if c.value.startswith("Resilience features")]
    from goodput_lab.views.decide import feature_label

    assert cli["choice"]["features"]
    for key in cli["choice"]["features"]:
        assert feature_label(key) in adopted and key not in adopted


def test_frontier_chart_marks_the_choice_and_is_labelled(app, cli):
    fig = chart(app, 0)
    assert fig["layout"]["title"]["text"].startswith("Expected cost against")
    assert "(%)" in fig["layout"]["xaxis"]["title"]["text"]
    assert "million USD" in fig["layout"]["yaxis"]["title"]["text"]
    names = [t["name"] for t in fig["data"]]
    c = cli["choice"]
    assert any(n.startswith(f"Choice: {c['instance']} × {c['nodes']:,}") for n in names)
    assert "p5.48xlarge" in names and "Target: 80%" in names
    # QA 17: the whole 0-100% scale, so a target at the options' edge is drawn inside
    assert fig["layout"]["xaxis"]["range"] == [-3.0, 103.0]


def test_runners_up_table_has_no_raw_values(app):
    for df in app.table:
        text = df.value.to_string()
        assert "None" not in text and "nan" not in text


def test_the_share_link_restores_the_page(app):
    keys = (
        "dec:go",
        "dec:deadline",
        "dec:confidence",
        "dec:trials",
        "dec:seed",
        "dec:instances",
        "dec:budget_on",
        "dec:budget",
    )
    params = url_state.encode_page({k: app.session_state[k] for k in keys})
    for key, value in QUERY.items():
        if key.startswith("dec."):
            back = url_state.decode_page({key: params[key]})
            assert back == url_state.decode_page({key: value})
    assert params["dec.instances"] == "p5.48xlarge"


def test_the_page_waits_for_the_button_without_a_link():
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["preset"] = "llama3-8b"
    at.run()
    at.switch_page("app_pages/decide.py").run()
    assert not at.exception
    assert not at.metric and any("press **Decide**" in i.value for i in at.info)


def test_the_command_line_carries_the_sidebars_edits():
    """QA pass 17: the page's "same answer from the command line" named the preset alone, so
    a sidebar edit (2 failures a day) gave another answer (2,240 nodes, not 2,208)."""
    import shlex

    from goodput_lab.models import load_preset

    from goodput_lab.cli.main import load_scenario
    from goodput_lab.views.decide import cli_command

    edited = load_preset("aws-16k-h100").replace(
        {"reliability.node_failure_rate_per_day": 0.001, "workload.tokens_trillion": 12.5}
    )
    cmd = cli_command("aws-16k-h100", 100.0, 0.9, None, None, 2000, 0, edited)
    assert "--set reliability.node_failure_rate_per_day=0.001" in cmd
    words = shlex.split(cmd)
    sets = [words[i + 1] for i, w in enumerate(words) if w == "--set"]
    assert dict(load_scenario("aws-16k-h100", sets).values) == dict(edited.values)
    # nothing edited: the preset alone, as before
    plain_cmd = cli_command(
        "aws-16k-h100", 100.0, 0.9, None, None, 2000, 0, load_preset("aws-16k-h100")
    )
    assert "--set" not in plain_cmd


def test_an_impossible_deadline_is_not_shown_as_an_answer():
    """QA pass 17: the closest configuration's tiles read like an answer and the advice
    offered "a target of 0.0% by day 5"."""
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=180)
    for k, v in {**QUERY, "dec.deadline": "2", "dec.confidence_pct": "95"}.items():
        at.query_params[k] = v
    at.run()
    at.switch_page("app_pages/decide.py").run()
    assert not at.exception, at.exception
    texts = [c.value for c in at.caption] + [i.value for i in at.info]
    assert any("closest configuration (it does not meet the target)" in t for t in texts)
    assert not any("or a target of 0.0%" in t for t in texts)
    assert any(w.value.startswith("Nothing meets the target") for w in at.warning)


def test_the_target_line_is_drawn_with_one_option():
    """QA pass 18: with one simulated option the target's line had no length (from the
    least to the greatest cost, the same), listed in the legend and not drawn."""
    from goodput_lab.charts.decide import frontier_chart

    row = {
        "instance": "p5.48xlarge", "probability_finish_by_deadline": 0.0,
        "expected_total_cost_usd": 741.3e6, "on_frontier": True, "chosen": False,
        "nodes": 12, "pricing": "On-Demand",
    }  # fmt: skip
    fig = frontier_chart([row], 0.9, 5.0)
    line = next(t for t in fig.data if t.name == "Target: 90%")
    assert list(line.x) == [90.0, 90.0] and line.y[1] - line.y[0] > 1.0


def test_the_widgets_top_confidence_is_the_decisions_and_errors_name_the_widgets():
    """QA pass 21 M1: 99.9% (the widget's maximum) reached the decision as
    0.9990000000000001 and was refused as above 0.999, under the CLI's "--confidence"."""
    from goodput_lab.models import ValidationError, load_preset
    from goodput_lab.models.decide import decide

    from goodput_lab.views import decide as dsvc

    assert dsvc.confidence_fraction(99.9) == 0.999
    assert 99.9 / 100.0 > 0.999  # the float noise the page used to pass on
    with pytest.raises(ValidationError) as e:
        decide(load_preset("llama3-70b"), 45.0, 99.95 / 100, trials=10)
    assert dsvc.page_error(e.value).startswith("Confidence (%): ")


def test_the_answer_and_the_tile_write_the_interval_alike(app, cli):
    """QA: the answer said "checkpoints every 3 min" beside a tile of 3.4 min (the sentence
    rounded to whole minutes, the tile to the registry's one decimal)."""
    tile = metric(app, "Checkpoint interval")
    assert tile == format_value(
        "checkpoint_interval_minutes", cli["choice"]["checkpoint_interval_minutes"]
    )
    (answer,) = [s.value for s in app.success]
    assert f"checkpoints every {tile}:" in answer, (tile, answer)
    assert f"checkpoints every {tile}:" in cli["answer"]


def test_the_answer_names_its_strategy_and_runners_up_in_words(app, cli):
    """QA: the interval tile's caption read "strategy nvme+durable" (a raw value) and, with
    one instance type, the runners-up read "None: no other instance type ..." (a bare
    None reads as a missing value)."""
    from goodput_lab.views.display import choice_words

    captions = [c.value for c in app.caption]
    strategy = choice_words("checkpoint.strategy", cli["choice"]["checkpoint_strategy"])
    assert f"strategy {strategy}" in captions, captions
    # the answer words the strategy as the caption does ("nvme+durable" before), from the
    # models' words the page reads too
    from goodput_lab.models import choices

    assert choice_words("checkpoint.strategy", "nvme+durable") == "Local NVMe + durable"
    assert choices.CHOICE_WORDS["checkpoint.strategy"] == {
        "durable_only": "Durable tier only",
        "nvme+durable": "Local NVMe + durable",
        "memory+durable": "CPU memory + durable",
    }
    assert f", {strategy} checkpoints every " in cli["answer"]
    assert "+durable" not in cli["answer"] and "durable_only" not in cli["answer"]
    assert not any(c.startswith("strategy ") and "+durable" in c for c in captions)
    assert not any(c.startswith("None") for c in captions)
    from goodput_lab.views.decide import runners_caption

    assert runners_caption(0).startswith("No runner-up: no other instance type")
    assert runners_caption(2) in captions  # this one has runners-up


def test_the_uncertainty_caption_quotes_the_intervals_in_the_registrys_formats():
    """The caption wrote the failure rate's interval in three decimals (0.126–0.402%) beside
    the registry's 0.13% and 0.40% (node_failure_rate_low/high, step_time_multiplier_*)."""
    from types import SimpleNamespace

    from goodput_lab.views.decide import uncertainty_caption

    d = SimpleNamespace(
        failure_rate_interval=(0.00126, 0.00402, "fleet prior"),
        step_time_interval=(0.9, 1.25, "assumed"),
        analytic_candidates=2000,
        simulated_configurations=1,
    )
    assert uncertainty_caption(d) == (
        "Failure rate's 80% interval 0.13–0.40% per node-day, source: fleet prior; step "
        "time ×0.90–1.25, source: assumed. 2,000 candidates evaluated analytically, "
        "1 configuration simulated."
    )
    # a source note in brackets is not put inside brackets of its own
    d.failure_rate_interval = (0.0009, 0.0041, "fleet prior (docs/decide.md)")
    assert "per node-day, source: fleet prior (docs/decide.md); step" in uncertainty_caption(d)
    # a rate too small for two decimals keeps two significant digits, as the registry does
    d.failure_rate_interval = (0.00002, 0.0001, "stated")
    assert uncertainty_caption(d).startswith("Failure rate's 80% interval 0.002–0.01% per")


def test_the_answer_quotes_the_tiles_figures_as_they_read(app, cli):
    """QA: the answer read "probability 90.0%" and "expected $258,123,456" beside tiles of
    "90.00%" and "$258.1M": it now quotes the tiles' texts, and the range under the tile."""
    (shown,) = [s.value for s in app.success]
    answer = shown.replace("\\", "")  # the page escapes "$" for Markdown
    p = metric(app, "P(finish by the deadline)")
    cost = metric(app, "Expected total cost")
    assert f"with probability {p}, expected {cost} (" in answer, (p, cost, answer)
    low, high = (
        format_value(k, cli[k]) if cli[k] < 1e7 else None
        for k in ("total_cost_usd_p10", "total_cost_usd_p90")
    )
    captions = [c.value for c in app.caption if c.value.startswith("80% range ")]
    assert len(captions) == 1 and f"({captions[0]})." in answer, (captions, answer)
    if low and high:  # under $10M: exact dollars, as the registry writes them
        assert captions[0] == f"80% range {low}–{high}"
    assert plain(cli["answer"]) == shown
