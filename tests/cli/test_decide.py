"""`goodput decide` and `goodput plan --deadline-days`: JSON contract, resume, bad input; a
fitted scenario's failure-rate interval narrows with a longer log."""

from __future__ import annotations

import json

import numpy as np
import pytest
from goodput_lab.models import ValidationError, evaluate, load_preset
from goodput_lab.models.outputs import format_range
from goodput_lab.models.scenario import resolve_scenario

from goodput_lab.cli.main import main
from goodput_lab.views.decide import dask_runner
from tests.cli.test_outputs_registry import _unregistered
from tests.timeline_generator import GeneratorParams, generate

SMALL = (
    "llama3-8b",
    "--deadline-days",
    "16",
    "--confidence",
    "0.8",
    "--trials",
    "100",
    "--workers",
    "0",
    "--instances",
    "p5.48xlarge",
    "--quiet",
)


def test_decide_json_is_registered_written_and_the_parts_are_removed(tmp_path, capsys):
    out = tmp_path / "decision.json"
    assert main(["decide", *SMALL, "-o", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert _unregistered(d) == []
    for key in ("choice", "closest", "would_take", "reference"):
        if isinstance(d[key], dict):
            assert _unregistered(d[key]) == [], key
    for row in d["runners_up"] + d["frontier"]:
        assert _unregistered(row) == []
    assert d["meets_target"] and d["choice"]["instance"] == "p5.48xlarge"
    assert d["probability_finish_by_deadline"] >= 0.8
    written = json.loads(out.read_text())
    assert written["choice"] == d["choice"] and written["set"] == d["set"]
    assert not (tmp_path / "decision.json.parts").exists()
    # text output: the answer in one sentence and the --set overrides
    assert main(["decide", *SMALL]) == 0
    text = capsys.readouterr().out
    assert "Buy " in text and "--set cluster.nodes=" in text
    # the intervals in the registry's range format of their JSON keys (not 0.126-0.402%,
    # nor "0.09-0.41% ... x0.81-1.43" with hyphens, nor "(fleet prior (docs/decide.md))")
    fr = format_range
    assert (
        "  failure rate's 80% interval "
        f"{fr('node_failure_rate_low', d['node_failure_rate_low'], d['node_failure_rate_high'])}"
        f" per node-day, source: {d['failure_rate_interval_source']}; step time "
        f"×{fr('step_time_multiplier_low', d['step_time_multiplier_low'], d['step_time_multiplier_high'])}"
        f", source: {d['step_time_interval_source']}\n"
    ) in text
    if "check it:" in text:  # a Capacity Block choice: the check names the scenario
        assert "check it: goodput plan llama3-8b --set " in text
        assert "--trials 100 --seed 0" in text


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("--confidence", "1.5"), "--confidence"),
        (("--deadline-days", "abc"), "--deadline-days"),
        (("--trials", "5"), "--trials"),
        (("--price", "bogus=3"), "--price"),
        (("--instances", "nope"), "--instances"),
        (("--instances", ""), "--instances"),  # QA 28 #16: searched every type
        (("--instances", " , "), "--instances"),
        (("-o", "out.txt"), "-o"),
    ],
)
def test_decide_bad_input_exits_2_with_one_line_naming_the_flag(capsys, args, flag):
    base = {"--deadline-days": "14", "--confidence": "0.8"}
    argv = ["decide", "llama3-8b", "--workers", "0"]
    flags = dict(base)
    for k, v in zip(args[::2], args[1::2], strict=True):
        flags[k] = v
    for k, v in flags.items():
        argv += [k, v]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and flag in err and "Traceback" not in err


def test_plan_reports_the_deadline_probability_of_the_scenario_as_it_stands(capsys):
    args = ["plan", "llama3-8b", "--trials", "200", "--json"]
    assert main([*args, "--deadline-days", "400"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["deadline_days"] == 400.0 and d["deadline_trials"] == 200
    p = d["probability_finish_by_deadline"]
    assert 0.0 <= p <= 1.0
    assert d["node_failure_rate_low"] < 0.002 < d["node_failure_rate_high"]
    # a later deadline cannot be less likely (same seed: the same runs)
    assert main([*args, "--deadline-days", "600"]) == 0
    assert json.loads(capsys.readouterr().out)["probability_finish_by_deadline"] >= p
    assert main([*args, "--deadline-days", "-3"]) == 2
    assert "--deadline-days" in capsys.readouterr().err


def test_runner_resumes_from_its_parts_and_refuses_another_decisions(tmp_path):
    from goodput_lab.models import load_catalog
    from goodput_lab.models.decide import Config, config_inputs, config_scenario

    cat = load_catalog()
    sc = load_preset("llama3-8b")
    tasks = []
    for n in (160, 192):
        cfg = Config("p5.48xlarge", n, 0, "durable_only", (), 20.0)
        x = config_inputs(config_scenario(sc, cfg, cat, {}), cat)
        tasks.append((cfg.key(), x, 100, 0, 0))
    parts = tmp_path / "d.json.parts"
    stats: dict = {}
    first = dask_runner(0, None, parts, "fp-1", stats)(tasks, None)
    assert stats["resumed"] == 0 and len(list(parts.glob("cfg-*.npz"))) == 2
    again: dict = {}
    second = dask_runner(0, None, parts, "fp-1", again)(tasks, None)
    assert again["resumed"] == 2
    for k in first:
        np.testing.assert_array_equal(
            first[k]["time_to_finish_days"], second[k]["time_to_finish_days"]
        )
    with pytest.raises(ValidationError) as e:
        dask_runner(0, None, parts, "fp-2", {})(tasks, None)
    assert e.value.field == "-o"


def _fitted_goodput_width(tmp_path, days: float, name: str) -> tuple[float, float]:
    g = generate(
        GeneratorParams(
            nodes=200,
            days=days,
            node_failure_rate_per_day=0.02,
            step_seconds=120.0,
            checkpoint_every_steps=20,
            seed=4,
        )
    )
    log = tmp_path / f"{name}.csv"
    log.write_text(g.csv())
    toml = tmp_path / f"{name}.toml"
    assert (
        main(
            [
                "reconcile",
                str(log),
                "--nodes",
                "200",
                "--trials",
                "50",
                "--write-scenario",
                str(toml),
                "--json",
            ]
        )
        == 0
    )
    sc = resolve_scenario(str(toml))
    ev = evaluate(sc)
    return ev["goodput_high"] - ev["goodput_low"], sc["reliability.node_failure_rate_high"]


def test_two_day_log_gives_a_wider_goodput_interval_than_thirty_days(tmp_path, capsys):
    """Acceptance 3: reconcile --write-scenario from a two-day log of a cluster gives a wider
    goodput interval than from a thirty-day log of the same cluster."""
    short, _ = _fitted_goodput_width(tmp_path, 2.0, "two-days")
    long, _ = _fitted_goodput_width(tmp_path, 30.0, "thirty-days")
    capsys.readouterr()
    assert short > 1.5 * long > 0


def test_decide_exits_1_when_nothing_meets_the_target_and_still_answers(capsys):
    """QA pass 18: nothing meeting the target exited 0, like an answer that meets it; a script
    had to read the JSON's meets_target.  Two days for Llama 3 8B on p5 (10.5 days at best)."""
    args = ["decide", "llama3-8b", "--deadline-days", "2", *SMALL[3:]]
    assert main([*args, "--json"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d["meets_target"] is False and d["choice"] is None
    assert d["closest"]["instance"] == "p5.48xlarge"
    assert main(args) == 1
    text = capsys.readouterr().out
    assert "Nothing meets the target; closest:" in text and "what it would take:" in text


def test_decide_choice_json_counts_the_spares_the_answer_buys(capsys):
    """NVL72: the answer buys '+ 72 spare (4 spare domains)'; the choice's JSON said only
    spare_nodes 0 (the paid spares were private keys of the simulated rows)."""
    args = ["decide", "p6e-gb200-nvl72", "--deadline-days", "30", "--confidence", "0.9"]
    args += ["--trials", "200", "--workers", "0", "--instances", "p6e-gb200.36xlarge"]
    assert main([*args, "--json", "--quiet"]) == 0
    d = json.loads(capsys.readouterr().out)
    c = d["choice"]
    assert "+ 72 spare (4 spare domains)" in d["answer"]
    assert (c["spare_nodes"], c["paid_spare_nodes"]) == (0, 72)
    assert (c["spare_domains"], c["spare_nodes_per_domain"]) == (4, 0)
    assert _unregistered(c) == []


def test_a_confidence_of_0999_is_printed_as_999_percent(capsys):
    """QA 28 #12: "finish within 10 days with probability 100%", "reaches 100% with a
    deadline of 18.3 days" for --confidence 0.999: one rule, the digits given."""
    args = ["decide", "llama3-8b", "--deadline-days", "10", "--confidence", "0.999"]
    args += ["--trials", "100", "--workers", "0", "--instances", "p5.48xlarge", "--quiet"]
    assert main(args) == 1
    text = capsys.readouterr().out
    assert "finish within 10 days with probability 99.9%" in text
    assert "reaches 99.9% with a deadline of" in text
    assert "100%" not in text
