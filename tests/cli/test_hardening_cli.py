"""Issue 18 on the command line: every path exits 2 with one short line, Ctrl-C exits 130
quietly, and the simulation that used to hang is bounded.  One named test per defect."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from goodput_lab.models.catalog import DEFAULT_CATALOG

from goodput_lab.cli.main import main
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
    assert line.startswith("goodput: --days: 1 trial x 3650 days would take ~")  # singular
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
        "goodput: argument --seed: -1 is out of range "
        "(an integer in [0, 9,223,372,036,854,775,807])"
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
    # the simulation's estimate may come first (issue 30: stated before the work starts)
    assert err.removeprefix(ESTIMATE_LINE.match(err)[0] if ESTIMATE_LINE.match(err) else "") == (
        "goodput: interrupted\n"
    )
    assert out == ""


ESTIMATE_LINE = re.compile(r"goodput: simulating 600,000 trials x 30 days: estimated ~.*\n")


# ----------------------------------------------------------------------- issue 30
TIMELINE = str(Path(__file__).resolve().parents[2] / "data" / "timelines" / "example-run.csv")


def _no_work(monkeypatch):
    """Fail the test if the command gets as far as its work (the check must come first)."""
    import goodput_lab.models.timeline as timeline

    import goodput_lab.reports as reports

    def boom(*a, **k):
        raise AssertionError("the output should have been refused before any work")

    monkeypatch.setattr(reports, "build_report", boom)
    monkeypatch.setattr(timeline, "parse_timeline", boom)


def _read_only(monkeypatch):
    """A folder that takes no new file (as root, chmod does not stop writes: the file
    system's answer is simulated at the one place files are created)."""
    import errno
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)


@pytest.mark.parametrize(
    ("cmd", "flag", "name"),
    [
        (("reconcile", TIMELINE), "--write-scenario", "fitted.toml"),
        (("report", BASE), "-o", "r.html"),
        (("report", BASE), "--output", "r.toml"),
    ],
)
def test_issue30_unwritable_outputs_are_refused_before_any_work(
    tmp_path, capsys, monkeypatch, cmd, flag, name
):
    """An existing folder, a missing folder, a name too long and a read-only folder: one
    line naming the flag as typed, exit 2, no work done, nothing left behind (reconcile
    --write-scenario into a read-only folder used to end in two chained tracebacks)."""
    _no_work(monkeypatch)
    (tmp_path / name).mkdir()  # an existing folder where the file should go
    suffix = Path(name).suffix
    cases = {
        str(tmp_path / name): "is a folder; give a file name",
        str(tmp_path / "missing" / name): "does not exist; create it first",
        str(tmp_path / ("x" * 300 + suffix)): "characters, too long (at most 255)",
    }
    for target, words in cases.items():
        rc = main([*cmd, flag, target])
        line = _one_line(rc, capsys.readouterr().err)
        assert line.startswith(f"goodput: {flag}: ") and words in line, line
    _read_only(monkeypatch)
    rc = main([*cmd, flag, str(tmp_path / f"ok{suffix}")])
    line = _one_line(rc, capsys.readouterr().err)
    # the path as typed, cut like every long value when the temporary folder's name is long
    assert line.startswith(f"goodput: {flag}: '{str(tmp_path)[:20]}"), line
    assert line.endswith("' cannot be written (Read-only file system)"), line
    assert sorted(os.listdir(tmp_path)) == [name]  # no temporary file, no partial output


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_issue30_reconcile_into_a_chmod_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    out = goodput("reconcile", TIMELINE, "--write-scenario", str(folder / "f.toml"))
    line = _one_line(out.returncode, out.stderr)
    assert line.endswith("cannot be written (Permission denied)")
    assert os.listdir(folder) == []


def test_issue30_a_link_at_the_output_is_replaced_never_written_through(tmp_path):
    """The temporary file has a random name, created exclusively (a planted file or link
    under any name is never opened); a link at the output itself is replaced by the file."""
    from goodput_lab.models._files import atomic_writer

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "out.toml"
    link.symlink_to(victim)
    rc = main(["report", BASE, "-o", str(link)])
    assert rc == 0
    assert victim.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text().startswith("name = ")

    def interrupted() -> None:
        with atomic_writer(tmp_path / "half.csv") as fh:
            fh.write(b"half")
            raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        interrupted()
    assert sorted(os.listdir(tmp_path)) == ["out.toml", "victim.txt"]


def test_issue30_terminal_escapes_in_names_are_shown_escaped(tmp_path, capsys):
    """A scenario named with ESC, BEL and U+202E printed them raw (recolouring the
    terminal, ringing it, reversing the line)."""
    path = tmp_path / "evil.toml"
    path.write_text('name = "a\\u001b[31mred\\u0007 \\u202eevil"\n', encoding="utf-8")
    assert main(["evaluate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "a\\x1b[31mred\\x07 \\u202eevil"
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert main(["evaluate", str(path), "--json"]) == 0  # JSON escapes them itself
    assert json.loads(capsys.readouterr().out)["scenario_name"] == "a\x1b[31mred\x07 \u202eevil"
    rc = main(["evaluate", BASE, "--set", "cluster.instance=\u202ep5\x1b[2J"])
    line = _one_line(rc, capsys.readouterr().err)
    assert "\\u202e" in line and "\x1b" not in line and "\u202e" not in line


@pytest.mark.parametrize("kind", ["toml", "jsonl", "set"])
def test_issue30_a_huge_integer_is_one_line_in_words(tmp_path, capsys, kind):
    digits = "9" * 5000
    if kind == "set":  # read as inf by float(): said as typed, not as 'inf'
        rc = main(["evaluate", BASE, "--set", f"cluster.nodes={digits}"])
        line = _one_line(rc, capsys.readouterr().err)
        assert line.startswith("goodput: cluster.nodes: 99999999999999999999... (5,000 ")
        assert "far out of range" in line
        return
    if kind == "toml":
        path = tmp_path / "big.toml"
        path.write_text(f"[cluster]\nnodes = {digits}\n")
        rc = main(["evaluate", str(path)])
    else:
        path = tmp_path / "big.jsonl"
        path.write_text(f'{{"event": "step", "timestamp": {digits}}}\n')
        rc = main(["reconcile", str(path)])
    line = _one_line(rc, capsys.readouterr().err)
    assert "a whole number of 5,000 digits, longer than any value here" in line
    assert "set_int_max_str_digits" not in line


@pytest.mark.parametrize("cmd", [("instances",), ("optimize", BASE)])
def test_issue30_errors_name_the_flag_as_typed(capsys, cmd):
    rc = main([*cmd, "--deadline-days", "0"])
    line = _one_line(rc, capsys.readouterr().err)
    assert line.startswith("goodput: --deadline-days: ")


def test_issue30_ladder_time_limit_is_the_whole_commands(capsys):
    """The limit applied per rung: 12 rungs of ~40 s each were accepted (13 since the
    spares-by-domain rung)."""
    from goodput_lab.models.resilience import FEATURES

    rungs = len(FEATURES) + 1  # every feature and the scenario as it stands
    rc = main(["ladder", BASE, "--trials", "100000", "--days", "30"])
    line = _one_line(rc, capsys.readouterr().err)
    want = f"goodput: --trials: {rungs} rungs x 100,000 trials x 30 days would take ~"
    assert line.startswith(want)
    assert "in all (allowed: trials <= " in line
    allowed = int(line.rsplit("trials <= ", 1)[1].rstrip(")").replace(",", ""))
    assert 10_000 < allowed < 100_000  # each rung alone would fit 100,000


def test_issue30_estimates_before_the_work_in_json_and_on_stderr(capsys):
    assert main(["simulate", BASE, "--trials", "50", "--days", "2", "--json"]) == 0
    cap = capsys.readouterr()
    d = json.loads(cap.out)
    assert 0 < d["estimated_seconds"] < 5
    assert cap.err.startswith("goodput: simulating 50 trials x 2 days: estimated ~")
    assert "(limit 300 s)" in cap.err and "GB (limit 2 GB)" in cap.err
    args = ["ladder", BASE, "--features", "hot_spares,async_saves", "--trials", "20"]
    assert main([*args, "--days", "2", "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["estimated_seconds"] > 0
    assert cap.err.startswith("goodput: simulating 3 rungs x 20 trials x 2 days, in all: ")


def test_a_binary_failure_log_is_refused_without_its_bytes_as_a_column_name(tmp_path, capsys):
    """QA pass 17: the message quoted the file's first bytes as the column's name."""
    path = tmp_path / "bin.csv"
    path.write_bytes(b"\x8f\xdb\x19\x00\xfe" * 400)
    assert main(["fit", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("goodput: row 1: is not UTF-8 text (byte 0: b'\\x8f')"), err
    assert "column" not in err and len(err) < 120


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # 1e9 is a whole number, only too large (it read "'1e9' is not a whole number")
        (["simulate", "aws-16k-h100", "--trials", "1e9"], "1,000,000,000 is out of range"),
        (["simulate", "aws-16k-h100", "--trials", "1.5"], "'1.5' is not a whole number"),
        # NaN and inf are not numbers in range, as --set says ("nan is out of range" before)
        (["plan", "aws-16k-h100", "--block-days", "nan"], "nan is not a finite number"),
        (["simulate", "aws-16k-h100", "--days", "inf"], "inf is not a finite number"),
        # the prices plan takes are decide's: above 0
        (
            ["plan", "aws-16k-h100", "--price", "spot=0"],
            "0 is out of range (a number in (0, 10,000] USD/h)",
        ),
    ],
)
def test_cli_numbers_are_refused_alike(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
