"""`goodput simulate` as a subprocess: JSON contract and bad input (README.md 'Command line')."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from goodput_lab.cli.main import main
from tests.conftest import SCENARIOS

BASE = str(SCENARIOS / "aws-16k-h100.toml")
KEYS = [
    "goodput_mean",
    "goodput_p5",
    "goodput_p50",
    "goodput_p95",
    "goodput_stderr",
    "goodput_analytic",
    "trials",
    "events_simulated",
    "seconds",
]


def goodput(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goodput_lab.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_simulate_json_contract_and_agreement_with_evaluate():
    out = goodput("simulate", BASE, "--trials", "400", "--days", "30", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in KEYS:
        assert key in d, key
    assert d["trials"] == 400
    assert d["goodput_p5"] <= d["goodput_p50"] <= d["goodput_p95"]
    # evaluate's Daly goodput for the headline baseline: 4 failures/day, R = 11 min, τ = 40,
    # δ = 1 min (src: models.goodput doctest 0.8934)
    assert d["goodput_analytic"] == pytest.approx(0.8934, abs=1e-4)
    # recovery spread 0.3 barely moves the mean: 4 standard errors plus 0.001 for the spread
    assert abs(d["goodput_mean"] - d["goodput_analytic"]) <= 4 * d["goodput_stderr"] + 0.001
    assert d["events_simulated"] > 400 * 2 * 100  # ~134 failures + recoveries per run
    assert d["seconds"] > 0


def test_simulate_is_reproducible_with_seed(capsys):
    args = ["simulate", BASE, "--trials", "50", "--days", "5", "--seed", "9", "--json"]
    assert main(args) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["goodput_mean"] == b["goodput_mean"]
    assert a["seed"] == 9


def test_simulate_text_output_and_set_override():
    out = goodput(
        "simulate", BASE, "--trials", "50", "--days", "5", "--set", "cluster.spare_nodes=8"
    )
    assert out.returncode == 0, out.stderr
    assert "goodput" in out.stdout and "analytic" in out.stdout


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("--trials", "0"), "--trials"),
        (("--trials", "-3"), "--trials"),
        (("--trials", "ten"), "--trials"),
        (("--trials", "1000000", "--days", "3650"), "--trials"),
        (("--days", "0"), "--days"),
        (("--days", "nan"), "--days"),
        (("--days", "99999"), "--days"),
        (("--seed", "-1"), "--seed"),
        (("--set", "simulation.recovery_spread=-1"), "simulation.recovery_spread"),
    ],
)
def test_simulate_bad_input_is_one_line_exit_2(args, flag, capsys):
    """In-process (``main(argv)``) to keep the suite fast; one subprocess case below."""
    rc = main(["simulate", BASE, *args])
    err = capsys.readouterr().err
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert flag in lines[0]
    assert "[" in lines[0] or "(" in lines[0]  # names the allowed range


def test_simulate_bad_trials_in_a_subprocess():
    out = goodput("simulate", BASE, "--trials", "0")
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "goodput: --trials: 0 is out of range (an integer in [1, 1,000,000])"
    )


def test_most_runs_unfinished_marks_the_finished_only_figures_biased_low(capsys):
    """NVL72 at 1%/node-day and 5%/domain-day: 1,709 of 2,000 runs do not finish; the days
    to finish (mean 121.77 against the closed form's 136.04) and the failures (1,850.2
    against 2,002.6) are of the fast runs or stop at the cap, and now say so."""
    sets = ["--set", "reliability.node_failure_rate_per_day=0.01"]
    sets += ["--set", "reliability.domain_failure_rate_per_day=0.05"]
    assert main(["simulate", "p6e-gb200-nvl72", "--trials", "2000", *sets]) == 0
    lines = {ln.split()[0]: ln for ln in capsys.readouterr().out.splitlines()[1:]}
    assert (
        "mean 121.77  p95 126.09  (analytic 136.04)  [finished runs only: biased low]"
        in (lines["days"])
    )
    assert lines["lost"].endswith("[finished runs only: biased low]")
    assert "mean 1,850.2 per run" in lines["failures"] and "biased low" in lines["failures"]
    assert "1,709 of 2,000 runs (85.45%) had not finished" in lines["unfinished"]
    assert "of the 291 finished runs only" in lines["unfinished"]
    # a small share unfinished keeps the plain lines (the default scenario: none)
    assert main(["simulate", "p6e-gb200-nvl72", "--trials", "50"]) == 0
    assert "biased low" not in capsys.readouterr().out


def test_a_too_short_window_names_the_days_range_with_separators(capsys):
    """The range read "[0.04167, 3650]" (the CLI's and the simulator's message)."""
    assert main(["simulate", "aws-16k-h100", "--trials", "10", "--days", "0.01"]) == 2
    err = capsys.readouterr().err
    assert "0.01 is too short (a number of days in [0.04167, 3,650], at least one hour" in err
