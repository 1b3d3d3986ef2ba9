"""Defects of a QA pass over the command line: overrides that round-trip, counts and words,
figures that cannot be computed, formats and help text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from goodput_lab.models import load_catalog, load_preset
from goodput_lab.models.decide import Config, PriceOption, config_scenario, set_arguments

from goodput_lab.cli.main import load_scenario


def _round_trip(base, sets):
    return base.with_overrides(sets)


def test_the_choices_overrides_keep_the_scenarios_own_price_date_and_round_trip():
    base = load_preset("p6e-gb200-nvl72")
    cat = load_catalog()
    own = cat[base["cluster.instance"]]
    cfg = Config(own.instance, int(base["cluster.nodes"]) + 8, 2, "durable_only", (), 4.3)
    price = base["pricing.usd_per_instance_hour"]
    opt = PriceOption(base["pricing.model"], price, base["pricing.price_source"], "2026-09", True)
    final = config_scenario(base, cfg, cat, {}, opt)
    assert final["pricing.price_as_of"] == base["pricing.price_as_of"] == "2026-09"
    sets = set_arguments(base, final)
    assert not any(s.startswith("pricing.price_") for s in sets)
    assert _round_trip(base, sets) == final


def test_a_price_entered_for_the_decision_states_no_date_and_the_override_round_trips():
    base = load_preset("p6e-gb200-nvl72")
    cat = load_catalog()
    cfg = Config(base["cluster.instance"], int(base["cluster.nodes"]), 0, "durable_only", (), 5.0)
    opt = PriceOption("spot", 12.5, "entered for this decision", "now", True)
    final = config_scenario(base, cfg, cat, {}, opt)
    assert final["pricing.price_as_of"] is None
    sets = set_arguments(base, final)
    # QA 26: no "--set pricing.price_as_of=" with nothing after it (the field's rule is a
    # non-empty text or nothing): the command line drops a typed price's old date itself
    assert not any(s.startswith("pricing.price_as_of") for s in sets)
    assert not any(s.endswith("=none") and s.startswith("pricing.price_") for s in sets)
    again = load_scenario("p6e-gb200-nvl72", sets)  # as `goodput plan` loads them
    assert again["pricing.price_as_of"] is None
    assert dict(again.values) == dict(final.values)


def _run(capsys, *argv):
    from goodput_lab.cli.main import main

    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_compare_says_which_sides_step_is_not_computed_and_writes_null_for_what_rests_on_it(
    capsys,
):
    args = ("compare", "llama3-8b", "llama3-8b", "--set-candidate", "cluster.nodes=512")
    code, out, _ = _run(capsys, *args)
    assert code == 0
    assert "note: the candidate's step time is not computed: " in out
    assert "0.50 sequences per step" in out
    assert "baseline's step time" not in out
    code, out, _ = _run(capsys, *args, "--json")
    d = json.loads(out)
    assert d["productive_time_ratio"] is None
    assert d["step_time_savings_usd_per_day"] is None
    step = next(r for r in d["savings_by_component"] if r["component"] == "step_time")
    assert step["usd_per_day"] is None
    assert d["reason"].startswith("the candidate's step time is not computed: ")
    # both computed: the figures stay numbers and no reason is written
    code, out, _ = _run(capsys, "compare", "llama3-8b", "llama3-8b", "--json")
    d = json.loads(out)
    assert d["productive_time_ratio"] == 1.0 and "reason" not in d


ONE_NODE_HOUR = (
    "timestamp,event,step,node_id\n2025-03-01T00:00:00Z,job_start,,\n"
    "2025-03-01T00:05:00Z,step_end,1,\n2025-03-01T00:06:00Z,failure,,n7\n"
    "2025-03-01T00:08:00Z,restore_start,1,\n2025-03-01T00:09:00Z,restore_end,1,\n"
    "2025-03-01T00:10:00Z,step_end,2,\n2025-03-01T01:00:00Z,job_end,,\n"
)


def test_reconcile_of_one_node_for_an_hour_says_1_node_and_its_node_days(tmp_path, capsys):
    run = tmp_path / "one.csv"
    run.write_text(ONE_NODE_HOUR)
    code, out, err = _run(capsys, "reconcile", str(run), "--nodes", "1", "--trials", "20")
    assert code == 0, err
    assert " on 1 node (" in out and "1 nodes" not in out
    assert "1 incident in 0.042 node-days)" in out  # 1 node × 1/24 day, not "0 node-days"


def test_node_days_are_never_rounded_to_zero():
    from goodput_lab.models._text import node_days

    assert node_days(1 / 24) == "0.042 node-days"
    assert node_days(1.0) == "1 node-day"
    assert node_days(25.0) == "25 node-days" and node_days(1280.4) == "1,280 node-days"


def test_fit_of_a_one_row_log_says_1_distinct_failure_time(tmp_path, capsys):
    log = tmp_path / "one.csv"
    log.write_text("timestamp,node_id\n2026-01-05T01:38:12Z,node-1\n")
    code, _, err = _run(capsys, "fit", str(log), "--nodes", "4")
    assert code == 2
    assert "has 1 distinct failure time;" in err


def test_the_report_says_1_hot_spare_node_minimises(monkeypatch):
    import dataclasses

    from goodput_lab.models import load_catalog
    from goodput_lab.models import optimize as opt_mod

    from goodput_lab.reports.content import _recommendation_metrics

    real = opt_mod.optimize

    def one_spare(*a, **k):
        o = real(*a, **k)
        return dataclasses.replace(o, spares=dataclasses.replace(o.spares, spares=1))

    monkeypatch.setattr(opt_mod, "optimize", one_spare)
    _, text = _recommendation_metrics(load_preset("llama3-8b"), load_catalog())
    assert "1 hot spare node minimises the lost dollars" in text
    assert "node(s)" not in text
    monkeypatch.setattr(opt_mod, "optimize", real)
    _, text = _recommendation_metrics(load_preset("aws-16k-h100"), load_catalog())
    assert "10 hot spare nodes minimise the lost dollars" in text


EXAMPLE_RUN = "data/timelines/example-run.csv"


def test_reconcile_reads_the_files_node_count_when_nodes_is_not_given(capsys):
    # the file says # nodes=2000; llama3-70b runs on 128: the rate was fitted on 128 nodes
    args = ("reconcile", EXAMPLE_RUN, "--scenario", "llama3-70b", "--trials", "20")
    code, out, err = _run(capsys, *args)
    assert code == 0, err
    assert "on 2,000 nodes (the file's # nodes= line)" in out
    assert "fitted failure rate  0.55% per node-day" in out
    code, out, _ = _run(capsys, *args, "--json")
    d = json.loads(out)
    assert d["run_nodes"] == 2000 and d["run_nodes_source"] == "the file's # nodes= line"
    # --nodes still wins
    code, out, _ = _run(capsys, *args, "--nodes", "64")
    assert code == 0 and "on 64 nodes (--nodes)" in out


def test_reconcile_refuses_fewer_nodes_than_the_timeline_names(tmp_path, capsys):
    code, _, err = _run(capsys, "reconcile", EXAMPLE_RUN, "--nodes", "21")
    assert code == 2
    assert err.strip().splitlines() == [
        "goodput: --nodes: 21 is out of range (at least the 22 distinct nodes the timeline "
        "names, at most 200,000)"
    ]
    # without a comment, a base scenario with fewer nodes than the file names is refused too
    text = Path(EXAMPLE_RUN).read_text().split("\n", 3)[3]
    run = tmp_path / "no-comment.csv"
    run.write_text(text)
    small = tmp_path / "small.toml"
    small.write_text(load_preset("llama3-8b").replace({"cluster.nodes": 16}).to_toml())
    code, _, err = _run(capsys, "reconcile", str(run), "--scenario", str(small))
    assert code == 2
    assert err.strip().splitlines() == [
        "goodput: --nodes: the base scenario has 16 nodes, fewer than the 22 distinct nodes "
        "the timeline names: give --nodes of at least 22"
    ]
    # nor is a comment that states fewer
    run.write_text("# nodes=5\n" + text)
    code, _, err = _run(capsys, "reconcile", str(run))
    assert code == 2
    assert err.strip().splitlines() == [
        "goodput: --nodes: the file's comment states 5 nodes, fewer than the 22 distinct nodes "
        "the timeline names: give --nodes of at least 22"
    ]


def test_report_monte_carlo_uses_simulates_default_seed(tmp_path, capsys):
    import polars as pl

    out = tmp_path / "r.csv"
    code, _, err = _run(capsys, "report", "aws-16k-h100", "--trials", "40", "-o", str(out))
    assert code == 0, err
    mc = pl.read_csv(out).filter(pl.col("table") == "montecarlo")
    row = mc.filter(pl.col("key") == "goodput_mean").row(0, named=True)
    assert "seed 0" in row["label"]
    code, sim, _ = _run(capsys, "simulate", "aws-16k-h100", "--trials", "40", "--json")
    assert float(row["value"]) == json.loads(sim)["goodput_mean"]
    code, text, _ = _run_help(capsys, "report")
    assert "(default 0, as goodput simulate)" in " ".join(text.split())


def _run_help(capsys, command):
    import pytest

    from goodput_lab.cli.main import main

    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    out = capsys.readouterr()
    return e.value.code, out.out, out.err


def test_evaluate_writes_days_to_train_with_thousands_separators(capsys):
    args = ("evaluate", "aws-16k-h100", "--set", "workload.recompute=auto")
    code, out, _ = _run(capsys, *args, "--set", "cluster.nodes=16")
    assert code == 0
    line = next(x for x in out.splitlines() if "time / cost to train" in x)
    assert "9,262.8 days, $" in line


def test_the_value_of_reliability_line_is_signed_by_the_registry(capsys, monkeypatch):
    import dataclasses

    import goodput_lab.cli.main as cli

    real = cli.evaluate

    def negative(*a, **k):
        ev = real(*a, **k)
        v = {**ev.value_of_reliability, "goodput_gain_per_0p1pp": -0.0409}
        return dataclasses.replace(ev, value_of_reliability=v)

    monkeypatch.setattr(cli, "evaluate", negative)
    code, out, _ = _run(capsys, "evaluate", "llama3-8b")
    assert code == 0
    assert "value of 0.1 pp lower node failure rate: −4.09 goodput points" in out
    assert "+-" not in out and "+−" not in out


def test_simulate_gives_the_analytic_time_in_the_same_decimals(capsys):
    code, out, _ = _run(capsys, "simulate", "p6e-gb200-nvl72", "--days", "10", "--trials", "50")
    assert code == 0
    line = next(x for x in out.splitlines() if "days to finish" in x)
    assert "(analytic 12.37)" in line


def test_compare_writes_a_negative_goodput_delta_with_a_true_minus(capsys):
    code, out, _ = _run(capsys, "compare", "llama3-70b", "p6e-gb200-nvl72")
    assert code == 0
    assert "goodput delta      −16.10 points        (first order: −18.09)" in out
    assert "-16.10" not in out


def _help(capsys, command: str) -> str:
    return " ".join(_run_help(capsys, command)[1].split())


def test_fit_help_says_the_nodes_default_is_the_logs_comment(capsys):
    text = _help(capsys, "fit")
    assert "default: the log's '# nodes=N' comment before its header, else the distinct" in text


def test_simulate_days_help_and_messages_give_the_range_enforced(capsys):
    allowed = "a number of days in [0.04167, 3,650], at least one hour"
    assert allowed in _help(capsys, "simulate") and allowed in _help(capsys, "ladder")
    for days, word in (("0", "out of range"), ("0.01", "too short"), ("4000", "out of range")):
        code, _, err = _run(capsys, "simulate", "llama3-8b", "--days", days, "--trials", "5")
        assert code == 2 and f"--days: {days} is {word} ({allowed}" in err
    code, _, err = _run(capsys, "simulate", "llama3-8b", "--days", "0.0417", "--trials", "5")
    assert code == 0, err


def test_decide_help_gives_the_ranges_it_enforces(capsys):
    from goodput_lab.models import decide as model

    from goodput_lab.cli import decide as cli_decide

    text = _help(capsys, "decide")
    assert f"a probability in [{model.MIN_CONFIDENCE}, {model.MAX_CONFIDENCE}]" in text
    assert f"an integer in [{model.MIN_TRIALS}, {model.MAX_TRIALS:,}] (default 2000)" in text
    assert f"a number of days in (0, {model.MAX_DEADLINE_DAYS:,.0f}]" in text
    assert "(0, 3,650]" in text and "3650" not in text  # separators, as a field's range
    assert cli_decide.CONFIDENCE_ALLOWED in text and cli_decide.TRIALS_ALLOWED in text
    assert "1e+" not in text


@pytest.mark.parametrize(
    ("extra", "err"),
    [
        (("--confidence", "nan"), "--confidence: 'nan' is not a number (a probability in"),
        (("--confidence", "abc"), "--confidence: 'abc' is not a number (a probability in"),
        (("--confidence", "2"), "--confidence: 2 is out of range (a probability in"),
        (
            ("--confidence", "0.9", "--price", "p5.48xlarge:spot=abc"),
            "--price p5.48xlarge:spot: 'abc' is not a number (a number in (0, 10,000]",
        ),
        (
            ("--confidence", "0.9", "--price", "p5.48xlarge:spot=nan"),
            "--price p5.48xlarge:spot: 'nan' is not a number (a number in (0, 10,000]",
        ),
        (
            ("--confidence", "0.9", "--price", "p5.48xlarge:spot=-3"),
            "--price p5.48xlarge:spot: '-3' is out of range (a number in (0, 10,000]",
        ),
    ],
)
def test_decide_says_not_a_number_for_what_is_not_one(capsys, extra, err):
    code, _, got = _run(capsys, "decide", "llama3-70b", "--deadline-days", "30", *extra)
    assert code == 2
    assert got.startswith(f"goodput: {err}") and len(got.strip().splitlines()) == 1


def test_the_decide_model_says_not_a_number_too():
    from goodput_lab.models import ValidationError
    from goodput_lab.models.decide import _validate

    with pytest.raises(ValidationError) as e:
        _validate(30.0, float("nan"), None, 200, 0)
    assert "is not a number (a probability in [0.5, 0.999])" in e.value.message
    with pytest.raises(ValidationError) as e:
        _validate(30.0, 1.5, None, 200, 0)
    assert "is out of range (a probability in [0.5, 0.999])" in e.value.message


def test_evaluate_says_a_durable_only_restore_always_reads_the_durable_tier(capsys):
    code, out, _ = _run(capsys, "evaluate", "aws-16k-h100")
    assert code == 0
    assert "every restore reads the durable tier (single level)" in out  # as the page
    assert "durable_only" not in out  # the strategy in the pages' words (QA 17)
    assert "checkpoints               Durable tier only, every 40.0 min" in out
    assert "0.00% of node failures fall back" not in out
    code, out, _ = _run(capsys, "evaluate", "aws-16k-h100-memory")  # memory+durable
    assert "8.40% of node failures fall back to the durable tier" in out


def test_the_reports_lost_per_day_names_checkpoint_storage_too():
    from goodput_lab.models import load_catalog
    from goodput_lab.models.outputs import format_usd

    from goodput_lab.reports import build_report
    from goodput_lab.reports.content import METHODS
    from goodput_lab.reports.html import render_html

    text = dict(METHODS)["Costs and value of reliability"]
    assert "lost/day = (1 − goodput) × cluster cost + idle spare nodes + checkpoint storage" in text
    report = build_report(load_preset("aws-16k-h100"), catalog=load_catalog())
    m = report.evaluation.metrics
    storage = format_usd(m["storage_usd_per_day"], "day")
    assert m["storage_usd_per_day"] > 0 and m["spare_usd_per_day"] == 0
    assert f"Lost per day also includes checkpoint storage ({storage})." in render_html(report)


def test_instances_refuses_an_mfu_the_modelled_step_would_ignore(capsys):
    code, out, err = _run(capsys, "instances", "llama3-8b", "--mfu", "p5.48xlarge=0.5")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "goodput: --mfu: 'p5.48xlarge=0.5' is not read when the step time is modelled "
        "(workload.mfu_basis = modelled: the MFU is an outcome); to rank at a stated MFU add "
        "--set workload.mfu_basis=end_to_end"
    ]
    # with a stated MFU it is read: the type's time to train moves
    stated = ("instances", "llama3-8b", "--set", "workload.mfu_basis=end_to_end", "--json")
    code, plain, _ = _run(capsys, *stated)
    code, entered, _ = _run(capsys, *stated, "--mfu", "p5.48xlarge=0.5")
    assert code == 0

    def days(text):
        rows = json.loads(text)["instances"]
        return next(r["time_to_train_days"] for r in rows if r["instance"] == "p5.48xlarge")

    assert days(entered) != days(plain)
