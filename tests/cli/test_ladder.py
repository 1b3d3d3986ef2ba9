"""`goodput ladder` as a subprocess: the JSON contract of issue 15 and bad input (DESIGN.md)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest
from goodput_lab.models import evaluate, load_preset

from goodput_lab.cli.main import main

RUNG_KEYS = {
    "feature",
    "goodput",
    "lost_usd_per_day",
    "delta_goodput_points",
    "delta_usd_per_day",
    "source",
}


def goodput(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goodput_lab.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.fixture(scope="module")
def recommended():
    out = goodput("ladder", "aws-16k-h100", "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_ladder_json_contract(recommended):
    d = recommended
    rungs = d["rungs"]
    assert d["order"] == "recommended"
    assert rungs[0]["feature"] == "baseline"
    assert len(rungs) >= 7  # the baseline and at least six features
    for r in rungs:
        assert set(r) >= RUNG_KEYS, RUNG_KEYS - set(r)
        assert isinstance(r["goodput"], float) and 0 < r["goodput"] < 1
    assert rungs[0]["delta_usd_per_day"] == 0.0
    # the baseline rung is `goodput evaluate aws-16k-h100`
    assert rungs[0]["lost_usd_per_day"] == pytest.approx(
        evaluate(load_preset("aws-16k-h100"))["lost_usd_per_day"], rel=1e-12
    )
    # deltas add up to first minus last, to the cent
    total = sum(r["delta_usd_per_day"] for r in rungs[1:])
    assert total == pytest.approx(
        rungs[0]["lost_usd_per_day"] - rungs[-1]["lost_usd_per_day"], abs=0.005
    )
    assert d["total_delta_usd_per_day"] == pytest.approx(total, abs=0.005)
    for prev, r in itertools.pairwise(rungs):
        assert r["delta_usd_per_day"] == pytest.approx(
            prev["lost_usd_per_day"] - r["lost_usd_per_day"], abs=1e-6
        )
        assert r["delta_goodput_points"] == pytest.approx(
            100 * (r["goodput"] - prev["goodput"]), abs=1e-9
        )
        assert r["source"]  # every feature names its sources
    assert set(d["recommended_features"]) <= {r["feature"] for r in rungs}


def test_each_rung_reproduced_by_evaluate_with_its_settings(recommended):
    """`goodput evaluate aws-16k-h100 --set ...` with a rung's settings gives its figures."""
    rung = recommended["rungs"][3]
    args = ["evaluate", "aws-16k-h100", "--json"]
    for item in rung["set"]:
        args += ["--set", item]
    out = goodput(*args)
    assert out.returncode == 0, out.stderr
    ev = json.loads(out.stdout)
    assert ev["lost_usd_per_day"] == pytest.approx(rung["lost_usd_per_day"], rel=1e-12)
    assert ev["goodput"] == pytest.approx(rung["goodput"], rel=1e-12)


def test_given_order_with_trials_has_p5_p95_per_rung(capsys):
    rc = main(
        [
            "ladder",
            "aws-16k-h100",
            "--features",
            "hot_spares,memory_checkpoints",
            "--trials",
            "200",
            "--days",
            "10",
            "--seed",
            "5",
            "--json",
        ]
    )
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d["order"] == "given"
    assert [r["feature"] for r in d["rungs"]] == ["baseline", "hot_spares", "memory_checkpoints"]
    assert (d["trials"], d["days"], d["seed"]) == (200, 10.0, 5)
    for r in d["rungs"]:
        assert r["goodput_p5"] < r["goodput_mc_mean"] < r["goodput_p95"]
        assert r["lost_usd_per_day_p5"] < r["lost_usd_per_day_p95"]
        assert isinstance(r["montecarlo_within_tolerance"], bool)


def test_text_output_lists_every_rung_and_the_total(capsys):
    assert main(["ladder", "aws-16k-h100", "--features", "elastic,async_saves"]) == 0
    text = capsys.readouterr().out
    assert "Elastic degraded mode" in text
    assert "Asynchronous checkpoint saves" in text
    assert "whole ladder" in text


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--features", "hot_spares,warp_drive"], "--features"),
        (["--features", "elastic,elastic"], "more than once"),
        (["--trials", "lots"], "--trials"),
        (["--trials", "0"], "--trials"),
        (["--days", "-3"], "--days"),
        (["--param", "hot_spares.spares=-1"], "--param"),
        (["--param", "nonsense"], "--param"),
        (["--set", "resilience.overhead_fraction=2"], "resilience.overhead_fraction"),
        (["--fit", "/no/such/log.csv"], "/no/such/log.csv"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, needle, capsys):
    assert main(["ladder", "aws-16k-h100", *args]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err


def test_bad_input_in_a_real_process_has_no_traceback():
    out = goodput("ladder", "no-such-preset", "--features", "elastic")
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_nodes_without_a_failure_log_is_refused(capsys):
    """QA pass 21: --nodes counts a failure log's nodes; without --fit it was ignored in
    silence (report refuses a flag that has no effect; ladder now does too)."""
    assert main(["ladder", "llama3-70b", "--nodes", "5"]) == 2
    assert capsys.readouterr().err == (
        "goodput: --nodes: counts the failure log's nodes; it has no effect without --fit LOG.csv\n"
    )
