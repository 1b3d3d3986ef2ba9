"""``goodput sweep`` end to end in subprocesses: the same Parquet rows on 1 and 2 workers,
a sweep killed half way finishes only its missing points, and one-line errors for bad
input.  Sweeps are small (a 1- or 2-worker LocalCluster starts in a few seconds)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from goodput_lab.models import load_preset, resolve_inputs
from goodput_lab.models.sweep import evaluate_batch, grid, parse_axis

from goodput_lab.engine.sweep import batch_points, parts_dir

CLI = [sys.executable, "-m", "goodput_lab.cli.main"]
RATE = "reliability.node_failure_rate_per_day"
# 8 points x 24,000 trials: 8 batches of one point (~3 s of CPU, estimated by timing a few
# points: enough work for --workers 2 to start two worker processes, since less than 2 s runs
# in the calling process)
SMALL = [
    "sweep",
    "aws-16k-h100",
    "--vary",
    f"{RATE}=0.001:0.004:4",
    "--vary",
    "cluster.nodes=1000:2000:2",
    "--trials",
    "24000",
    "--days",
    "20",
    "--seed",
    "7",
    "--json",
]


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def one_and_two(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    out = {}
    for w in (1, 2):
        path = d / f"w{w}.parquet"
        res = _run(*SMALL, "--workers", str(w), "-o", str(path))
        assert res.returncode == 0, res.stderr[-3000:]
        out[w] = (json.loads(res.stdout), path)
    return out


def test_same_results_on_one_and_two_workers(one_and_two):
    (j1, p1), (j2, p2) = one_and_two[1], one_and_two[2]
    assert (j1["engine"], j2["engine"]) == ("local", "dask")  # one worker: this process
    assert (j1["workers"], j2["workers"]) == (1, 2)
    assert j1["points"] == j2["points"] == 8
    assert j1["points_evaluated"] == 8 and j1["points_resumed"] == 0
    assert j1["seconds"] > 0 and j1["output"] == str(p1)
    a, b = pl.read_parquet(p1), pl.read_parquet(p2)
    assert a.equals(b)  # identical rows, bit for bit
    assert a.height == 8 and a["point"].to_list() == list(range(8))
    assert not parts_dir(p1).exists()  # the sidecar is gone once merged


def test_rows_are_the_pure_batch_function(one_and_two):
    """The engine adds nothing: rows equal models.sweep.evaluate_batch on the same batches."""
    _, path = one_and_two[1]
    axes = [parse_axis(f"{RATE}=0.001:0.004:4"), parse_axis("cluster.nodes=1000:2000:2")]
    cols = grid(axes)
    base = resolve_inputs(load_preset("aws-16k-h100"))
    per = batch_points(8, 24000, 20.0)
    parts = [
        evaluate_batch(
            base,
            {k: v[lo : lo + per] for k, v in cols.items()},
            np.arange(lo, min(lo + per, 8)),
            trials=24000,
            days=20.0,
            seed=7,
        )
        for lo in range(0, 8, per)
    ]
    ref = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    got = pl.read_parquet(path)
    assert set(got.columns) == set(ref)
    for k, v in ref.items():
        assert np.array_equal(got[k].to_numpy(), v, equal_nan=True), k
    assert np.all(np.abs(ref["goodput_mean"] - ref["goodput"]) <= 4 * ref["goodput_stderr"] + 2e-3)


def _signal_sweep(args: list[str], out: Path, parts: int, sig: int) -> tuple[int, str]:
    """Run ``goodput`` with ``args`` in a process group of its own, send ``sig`` to the group
    (the CLI and its LocalCluster workers, as Ctrl-C or a kill does) once ``parts`` batches
    are kept beside ``out``, and return (exit code, stderr)."""
    proc = subprocess.Popen(
        [*CLI, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    side = parts_dir(out)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if side.is_dir() and len(list(side.glob("part-*.parquet"))) >= parts:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the sweep ended before the signal"
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    return proc.returncode, err


def test_killed_sweep_resumes_only_the_missing_points(one_and_two, tmp_path):
    _, reference = one_and_two[1]
    out = tmp_path / "killed.parquet"
    # a longer sweep (1 worker, 16 points, 8 batches) so that the kill lands half way
    args = [*SMALL, "--workers", "1", "-o", str(out)]
    args[args.index("24000")] = "3000"
    args[args.index("cluster.nodes=1000:2000:2")] = "cluster.nodes=500:2000:4"
    _signal_sweep(args, out, 2, signal.SIGKILL)  # the CLI and its LocalCluster workers
    side = parts_dir(out)
    kept = len(list(side.glob("part-*.parquet")))
    assert 2 <= kept < 8 and not out.exists()
    res = _run(*args)
    assert res.returncode == 0, res.stderr[-3000:]
    summary = json.loads(res.stdout)
    assert summary["points"] == 16
    assert summary["points_resumed"] >= 2 * kept - 2  # each part holds 2 points
    assert summary["points_resumed"] >= 4
    assert summary["points_evaluated"] == 16 - summary["points_resumed"]
    got = pl.read_parquet(out)
    assert got["point"].to_list() == list(range(16))
    # the half it did not redo matches the same points of the other sweep's grid
    ref = pl.read_parquet(reference)
    both = got.filter(pl.col("cluster.nodes").is_in([1000, 2000]))
    assert both[RATE].to_list() == ref[RATE].to_list()
    assert np.array_equal(both["goodput"].to_numpy(), ref["goodput"].to_numpy())


def test_a_finished_sweep_rerun_is_not_resumed_from_stale_parts(tmp_path):
    out = tmp_path / "a.parquet"
    side = parts_dir(out)
    side.mkdir()
    (side / "manifest.json").write_text('{"fingerprint": "someone else"}')
    res = _run("sweep", "aws-16k-h100", "--vary", f"{RATE}=0.001:0.002:2", "-o", str(out))
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "different sweep" in res.stderr
    assert "add --force to replace them" in res.stderr and "run_sweep" not in res.stderr
    # QA pass 19 #11: --force did not clear another sweep's parts; now it does, and says so
    res = _run(
        "sweep", "aws-16k-h100", "--vary", f"{RATE}=0.001:0.002:2", "-o", str(out), "--force"
    )
    assert res.returncode == 0, res.stderr
    assert "held partial results of a different sweep; removed (--force)" in res.stderr
    assert pl.read_parquet(out).height == 2 and not side.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--vary", "cluster.bogus=1:2:3"], ["--vary", "'cluster.bogus' is not a scenario field"]),
        (["--vary", "checkpoint.strategy=1:2:2"], ["--vary", "not numeric"]),
        (["--vary", f"{RATE}=-1:0.1:3"], ["--vary", "lo -1 is out of range", "[0, 1]"]),
        (["--vary", f"{RATE}=0:0.1:0"], ["--vary", "n 0 is out of range"]),
        ([], ["--vary", "at least one"]),
        (["--vary", f"{RATE}=0:0.1:3", "--trials", "-1"], ["--trials", "out of range"]),
        (["--vary", f"{RATE}=0:0.1:3", "--workers", "0"], ["--workers", "out of range"]),
        (["--vary", f"{RATE}=0:0.1:3", "--days", "0"], ["--days", "out of range"]),
        (["--vary", "cluster.nodes=100:100000:1000", "--trials", "2000000"], ["--trials"]),
    ],
)
def test_bad_input_is_one_line_exit_2(args, words, tmp_path):
    res = _run("sweep", "aws-16k-h100", *args, "-o", str(tmp_path / "x.parquet"), timeout=60)
    assert res.returncode == 2
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    for w in words:
        assert w in res.stderr
    assert not (tmp_path / "x.parquet").exists()


def test_bad_output_and_flags(tmp_path):
    res = _run("sweep", "aws-16k-h100", "--vary", f"{RATE}=0:0.1:3", "-o", str(tmp_path / "x.csv"))
    assert res.returncode == 2 and "must end in .parquet" in res.stderr
    res = _run(
        "sweep",
        "aws-16k-h100",
        "--vary",
        f"{RATE}=0:0.1:3",
        "--workers",
        "2",
        "--scheduler",
        "tcp://127.0.0.1:1",
        "-o",
        str(Path(tmp_path) / "x.parquet"),
    )
    assert res.returncode == 2 and "not allowed with argument" in res.stderr


def test_ctrl_c_on_a_dask_sweep_prints_one_line_and_no_worker_traceback(tmp_path):
    """QA pass 27: a Ctrl-C (SIGINT to the process group) reached every worker process, each
    printing a KeyboardInterrupt traceback (some 65 lines) before the command's one line;
    workers now ignore SIGINT and the command closes them."""
    out = tmp_path / "interrupted.parquet"
    args = [*SMALL, "--workers", "2", "-o", str(out)]
    args[args.index("cluster.nodes=1000:2000:2")] = "cluster.nodes=500:2100:9"
    code, err = _signal_sweep(args, out, 1, signal.SIGINT)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert "goodput: sweep interrupted; finished batches are kept in" in err
    assert code == 130
