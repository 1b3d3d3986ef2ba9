"""QA 27 #1, #2, #8 at the command line."""

from __future__ import annotations

import json

from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.outputs import format_value

from goodput_lab.cli.main import main


def _line(out: str, marker: str) -> str:
    return next(x for x in out.splitlines() if marker in x)


def test_evaluate_text_names_the_time_interval_it_prints(capsys):
    """The text printed the all-inputs P10/P90 (44.1–82.8 days) under a bare "time to train"
    while --json's time_to_train_days_low/high is the step model's (44.0–82.6)."""
    ev = evaluate(load_preset("deepseek-v3"))
    assert main(["evaluate", "deepseek-v3"]) == 0
    line = _line(capsys.readouterr().out, "80% intervals")
    p10 = format_value("time_to_train_days", ev["time_to_train_days_p10"], unit=False)
    p90 = format_value("time_to_train_days", ev["time_to_train_days_p90"])
    assert f"time to train P10–P90 (all inputs) {p10}–{p90};" in line
    assert (p10, p90) == ("44.1", "82.8 days")
    assert main(["evaluate", "deepseek-v3", "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    # the JSON's low/high are another interval, and the text does not give them that name
    low = format_value("time_to_train_days", js["time_to_train_days_low"], unit=False)
    assert low == "44.0" and f"time to train {low}" not in line


def test_evaluate_refuses_fp8_on_a100_in_one_line(capsys):
    sets = ["workload.precision=fp8", "cluster.instance=p4d.24xlarge", "cluster.nodes=64"]
    args = ["evaluate", "mixtral-8x22b"] + [a for s in sets for a in ("--set", s)]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "goodput: workload.precision: fp8 cannot run on p4d.24xlarge (A100 40GB): the catalog "
        "gives its accelerator no dense FP8 rate (instance.fp8_dense_tflops is empty), so FP8 "
        "GEMMs cannot be timed; allowed on this type: bf16"
    )


def test_instances_marks_a100_as_unable_to_run_fp8(capsys):
    assert main(["instances", "mixtral-8x22b", "--set", "workload.precision=fp8"]) == 0
    out = capsys.readouterr().out
    row = _line(out, "p4d.24xlarge ")
    assert row.split()[3:] == ["-", "21.96", "-", "-", "-", "-"]
    lines = out.splitlines()
    reason = lines[lines.index(row) + 1].strip()
    assert reason.startswith("workload.precision = fp8 cannot run on this instance type")
    verdict = _line(out, "too close to call")
    assert "p4d" not in verdict


def test_evaluate_refuses_experts_per_token_beyond_experts(capsys):
    assert main(["evaluate", "mixtral-8x22b", "--set", "workload.experts_per_token=9"]) == 2
    assert capsys.readouterr().err.strip() == (
        "goodput: workload.experts_per_token: 9 exceeds workload.experts = 8 "
        "(allowed: an integer in [1, 8])"
    )
