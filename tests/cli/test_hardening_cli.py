"""Issue 18 on the command line: every path exits 2 with one short line, Ctrl-C exits 130
quietly, and the simulation that used to hang is bounded.  One named test per defect."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from goodput_lab.dashboard.cli import main
from goodput_lab.models.catalog import DEFAULT_CATALOG

from tests.cli.test_cli import BASE, goodput
from tests.reports.test_atomic_writes import _cpu_seconds


def _one_line(rc: int, err: str) -> str:
    assert rc == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert len(lines[0]) <= 520
    return lines[0]


def test_issue18_acceptance_week_long_replacement_simulates_in_bounded_time():
    """``goodput simulate aws-16k-h100 --trials 5 --days 1 --set
    recovery.replacement_minutes=10080`` used to run forever; the simulation itself now takes
    a fraction of a second (its JSON ``seconds``; start-up time is the interpreter's)."""
    out = goodput(
        "simulate",
        "aws-16k-h100",
        "--trials",
        "5",
        "--days",
        "1",
        "--set",
        "recovery.replacement_minutes=10080",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["seconds"] < 10.0
    assert d["unfinished_trials"] == 5.0
    assert d["events_simulated"] < 400


def test_issue18_days_1e_minus_300_is_refused(capsys):
    rc = main(["simulate", BASE, "--days", "1e-300"])
    line = _one_line(rc, capsys.readouterr().err)
    assert line.startswith("goodput: --days: 1e-300 is too short (a number of days in [0.04167, ")


def test_issue18_huge_weibull_run_is_refused_naming_the_fields(capsys):
    args = ["--trials", "1", "--days", "3650", "--set", "cluster.nodes=200000"]
    rc = main(["simulate", BASE, *args, "--set", "reliability.weibull_shape=0.3"])
    line = _one_line(rc, capsys.readouterr().err)
    assert line.startswith("goodput: --days: 1 trials x 3650 days would take ~")
    assert "reliability.weibull_shape" in line and "(allowed: days <= " in line


def test_issue18_instances_with_an_unknown_instance_is_one_line():
    """``goodput instances --set cluster.instance=abc`` raised KeyError (a traceback)."""
    out = goodput("instances", "--set", "cluster.instance=abc")
    line = _one_line(out.returncode, out.stderr)
    assert line.startswith("goodput: cluster.instance: 'abc' is not in the catalog; allowed: ")
    assert "p5.48xlarge" in line


def test_issue18_report_negative_seed_is_one_line(tmp_path, capsys):
    """``report --seed -1`` raised ValueError from numpy."""
    with pytest.raises(SystemExit) as exc:
        main(["report", BASE, "--trials", "10", "--seed", "-1", "-o", str(tmp_path / "r.csv")])
    line = _one_line(exc.value.code, capsys.readouterr().err)
    assert line == (
        "goodput: argument --seed: -1 is out of range (an integer in [0, 9223372036854775807])"
    )
    assert not (tmp_path / "r.csv").exists()


def test_a_bad_seed_reaching_the_simulator_is_a_validation_error():
    from goodput_lab.models import ValidationError, load_preset
    from goodput_lab.models.montecarlo import simulate

    with pytest.raises(ValidationError, match="seed: -1 is not a seed"):
        simulate(load_preset("aws-16k-h100"), 5, 1.0, rng=-1)


def _catalog_with(tmp_path: Path, old: str, new: str) -> str:
    text = DEFAULT_CATALOG.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "instances.csv"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def test_issue18_catalog_with_zero_bf16_tflops_names_row_and_column(tmp_path, capsys):
    """bf16_dense_tflops=0 raised ZeroDivisionError."""
    cat = _catalog_with(
        tmp_path, "p5.48xlarge,H100,8,80,3.35,989,", "p5.48xlarge,H100,8,80,3.35,0,"
    )
    rc = main(["evaluate", BASE, "--catalog", cat])
    line = _one_line(rc, capsys.readouterr().err)
    assert line == "goodput: instances.csv row 3, column bf16_dense_tflops: 0 must be a number > 0"


@pytest.mark.parametrize(
    ("old", "new", "column"),
    [
        (
            "p5.48xlarge,H100,8,80,3.35,989,1979,0.80,",
            "p5.48xlarge,H100,8,80,0,989,1979,0.80,",
            "hbm",
        ),
        (
            "p5.48xlarge,H100,8,80,3.35,989,1979,0.80,",
            "p5.48xlarge,H100,8,0,3.35,989,1979,0.80,",
            "accel_memory",
        ),
        (
            "p5.48xlarge,H100,8,80,3.35,989,1979,0.80,",
            "p5.48xlarge,H100,8,80,3.35,989,0,0.80,",
            "fp8",
        ),
    ],
)
def test_catalog_rejects_non_positive_figures(tmp_path, capsys, old, new, column):
    rc = main(["evaluate", BASE, "--catalog", _catalog_with(tmp_path, old, new)])
    line = _one_line(rc, capsys.readouterr().err)
    assert f"row 3, column {column}" in line and "must be a number > 0" in line


def test_issue18_catalog_cell_over_128_kb_names_row_and_column(tmp_path, capsys):
    """A catalog field over 128 KB raised csv.Error."""
    cat = _catalog_with(tmp_path, "p5.48xlarge,H100,", "p5.48xlarge," + "H" * 200_000 + ",")
    rc = main(["evaluate", BASE, "--catalog", cat])
    line = _one_line(rc, capsys.readouterr().err)
    assert line == (
        "goodput: instances.csv row 3, column accelerator: has a cell over 131,072 characters"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", BASE, "--set", "cluster.instance=" + "x" * 600],
        ["evaluate", BASE, "--set", "cluster.nodes=" + "9x" * 300],
        ["evaluate", BASE, "--set", "checkpoint.strategy=" + "y" * 600],
        ["evaluate", BASE, "--set", "x" * 600 + "=1"],
        ["evaluate", "z" * 600],
        ["instances", "--price", "q" * 600],
        ["simulate", BASE, "--trials", "7" * 600],
        ["report", BASE, "-o", "r." + "e" * 600],
        ["nosuchcommand" + "w" * 600],
    ],
)
def test_issue18_error_lines_never_echo_hundreds_of_characters(args, capsys):
    """Error lines echoed 500+ characters of the bad value; values are cut to ~80."""
    try:
        rc = main(args)
    except SystemExit as exc:  # argparse's own errors
        rc = exc.code
    line = _one_line(rc, capsys.readouterr().err)
    longest = max(len(w) for w in line.replace("'", " ").split())
    assert longest <= 101, line  # a field of at most 100 characters and its colon
    assert len(line) <= 300, line


def _console() -> list[str]:
    script = Path(sys.executable).with_name("goodput")
    return [str(script)] if script.exists() else [sys.executable, "-m", "goodput_lab._console"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("delay", [0.2, None])
def test_issue18_ctrl_c_exits_130_without_a_traceback(delay):
    """Ctrl-C printed a KeyboardInterrupt traceback.  ``delay`` 0.2 s interrupts during the
    imports; None waits until the simulation runs (its first output is not printed yet)."""
    proc = subprocess.Popen(
        [*_console(), "simulate", BASE, "--trials", "600000", "--days", "30"],  # ~15+ s
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    if delay is None:  # wait until it simulates: imports done, CPU time past ~4 s
        deadline = time.monotonic() + 60
        while _cpu_seconds(proc.pid) < 4.0 and time.monotonic() < deadline:
            time.sleep(0.2)
    else:
        time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "goodput: interrupted\n"
    assert out == ""
