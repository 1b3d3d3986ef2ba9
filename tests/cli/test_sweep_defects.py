"""``goodput sweep`` QA pass: a finished output of another sweep is refused without --force
(the same sweep again is kept as it is), an integer field's grid must have whole points
(and is written as integers), and the time estimate is within 2x of the work on this
machine (the Monte Carlo part timed on a few points first)."""

from __future__ import annotations

import io
import json
import os
import re
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from goodput_lab.models import ValidationError, load_preset, resolve_inputs
from goodput_lab.models.sweep import Axis, check_axes, evaluate_batch, grid, parse_axis

from goodput_lab.cli.sweep import _Bar
from goodput_lab.engine import sweep as engine
from tests.cli.test_sweep_safety import RATE, _one_line_refusal, _run

GRID_A = ["sweep", "aws-16k-h100", "--vary", f"{RATE}=0.001:0.004:4"]
GRID_B = ["sweep", "aws-16k-h100", "--vary", f"{RATE}=0.001:0.005:5"]


def _state(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file in ``folder``: (mtime in ns, bytes)."""
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.iterdir())}


# --------------------------------------------------------------------------- defect 1
def test_a_finished_output_of_another_grid_is_refused_without_force(tmp_path):
    out = tmp_path / "grid.parquet"
    assert _run(*GRID_A, "-o", str(out)).returncode == 0
    before = _state(tmp_path)
    res = _run(*GRID_B, "-o", str(out))
    _one_line_refusal(res, "-o", "grid.parquet' holds", "another grid", "--force", "another -o")
    assert f"{RATE}=0.001:0.004:4" in res.stderr  # what the output holds
    assert _state(tmp_path) == before  # nothing written, nothing removed
    # --force replaces it, with a line saying so
    res = _run(*GRID_B, "-o", str(out), "--force", "--json")
    assert res.returncode == 0, res.stderr
    assert "is replaced when this sweep finishes" in res.stderr
    assert engine.output_description(out)["grid"] == [f"{RATE}=0.001:0.005:5"]
    assert pl.read_parquet(out).height == 5


def test_another_seed_or_a_file_that_is_not_a_sweep_is_refused_too(tmp_path):
    out = tmp_path / "mc.parquet"
    mc = [*GRID_A, "--trials", "20", "--days", "5", "-o", str(out)]
    assert _run(*mc).returncode == 0
    before = _state(tmp_path)
    res = _run(*mc, "--seed", "1")
    _one_line_refusal(res, "same grid with another seed (0; this one 1)", "--force")
    assert _state(tmp_path) == before
    other = tmp_path / "notes.parquet"
    other.write_bytes(b"precious")
    res = _run(*GRID_A, "-o", str(other))
    _one_line_refusal(res, "notes.parquet' holds", "not a goodput sweep's output", "--force")
    assert other.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mc.parquet", "notes.parquet"]


def test_the_same_sweep_again_is_kept_as_it_is_and_exits_0(tmp_path):
    out = tmp_path / "same.parquet"
    assert _run(*GRID_A, "-o", str(out)).returncode == 0
    before = _state(tmp_path)
    res = _run(*GRID_A, "-o", str(out), "--json")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert (summary["engine"], summary["points_evaluated"], summary["points_resumed"]) == (
        "none",
        0,
        4,
    )
    assert "already holds this sweep's 4 points" in res.stderr
    assert _state(tmp_path) == before  # not even rewritten
    res = _run(*GRID_A, "-o", str(out))
    assert res.returncode == 0 and "  kept " in res.stdout and "  written " not in res.stdout
    # --force does not recompute it either (the results would be identical)
    res = _run(*GRID_A, "-o", str(out), "--force", "--json")
    assert res.returncode == 0 and json.loads(res.stdout)["points_evaluated"] == 0
    assert _state(tmp_path) == before


def test_the_help_says_what_happens_to_an_existing_output():
    res = _run("sweep", "--help")
    text = " ".join(res.stdout.split())
    assert "--force" in text
    assert "Running the same sweep again on its finished output evaluates nothing" in text
    assert "refused (exit 2, nothing written) unless --force replaces it" in text


def _mc_spec(seed: int = 3) -> engine.SweepSpec:
    s = load_preset("aws-16k-h100")
    axes = (parse_axis(f"{RATE}=0.001:0.004:4"), parse_axis("cluster.nodes=1000:2000:2"))
    return engine.SweepSpec(resolve_inputs(s), axes, 40, 5.0, seed, s.name)


def test_an_interrupted_sweep_still_resumes_without_force(tmp_path):
    out = tmp_path / "resumed.parquet"

    def stop(done, total):
        if done >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        engine.run_sweep(_mc_spec(), out, workers=1, progress=stop, replace=False)
    summary = engine.run_sweep(_mc_spec(), out, workers=1, replace=False)
    assert summary.points_resumed == 3 and summary.points_evaluated == 5
    clean = tmp_path / "clean.parquet"
    engine.run_sweep(_mc_spec(), clean, workers=1, replace=False)
    assert pl.read_parquet(out).equals(pl.read_parquet(clean))
    # the output of another sweep is refused before its parts are touched
    with pytest.raises(ValidationError) as exc:
        engine.run_sweep(_mc_spec(seed=4), out, workers=1, replace=False)
    assert exc.value.field == "-o" and "--force" in str(exc.value)
    assert not engine.parts_dir(out).exists() and not engine.lock_path(out).exists()


def test_an_analytic_sweep_with_another_seed_or_horizon_is_the_same_sweep(tmp_path):
    """The seed and the horizon decide only Monte Carlo rows: an analytic sweep's output is
    kept (nothing evaluated) when it is run again with others, where it was refused."""
    s = load_preset("aws-16k-h100")
    axes = (parse_axis(f"{RATE}=0.001:0.004:4"),)
    out = tmp_path / "analytic.parquet"
    first = engine.run_sweep(engine.SweepSpec(resolve_inputs(s), axes, 0, 30.0, 1, s.name), out)
    assert first.points_evaluated == 4
    again = engine.run_sweep(engine.SweepSpec(resolve_inputs(s), axes, 0, 7.0, 9, s.name), out)
    assert (again.engine, again.points_resumed, again.points_evaluated) == ("none", 4, 0)
    # a Monte Carlo sweep's seed still sets it apart
    a = engine.SweepSpec(resolve_inputs(s), axes, 40, 5.0, 1, s.name)
    assert (
        a.fingerprint()
        != engine.SweepSpec(resolve_inputs(s), axes, 40, 5.0, 2, s.name).fingerprint()
    )


# --------------------------------------------------------------------------- defect 2
def test_an_integer_axis_whose_points_are_not_whole_is_refused():
    with pytest.raises(ValidationError) as exc:
        parse_axis("cluster.nodes=64:65:3")
    msg = str(exc.value)
    assert exc.value.field == "--vary" and "\n" not in msg and len(msg) < 300
    for w in ("cluster.nodes", "not whole numbers", "step 0.5", "n = 2 (step 1)", "hi = 66"):
        assert w in msg, msg
    with pytest.raises(ValidationError) as exc:
        parse_axis("cluster.nodes=1000:2000:4")
    assert "n = 3 (step 500) or n = 5 (step 250)" in str(exc.value)
    assert "hi = 2002 for 4 points" in str(exc.value)
    with pytest.raises(ValidationError, match="repeats one point 3 times"):
        parse_axis("cluster.nodes=64:64:3")
    with pytest.raises(ValidationError, match="not whole numbers"):  # built without parse_axis
        check_axes([Axis("cluster.nodes", 64, 65, 3)], 0)
    assert parse_axis("cluster.nodes=64:66:3").values().tolist() == [64, 65, 66]
    assert parse_axis("cluster.nodes=2000:500:4").values().tolist() == [2000, 1500, 1000, 500]
    # integers are printed as integers, other ends without losing a digit
    assert parse_axis("workload.vocab_size=100000:1000000:10").spec() == (
        "workload.vocab_size=100000:1000000:10"
    )
    assert parse_axis(f"{RATE}=0.0012345678:0.002:3").spec() == f"{RATE}=0.0012345678:0.002:3"


def test_the_command_refuses_an_integer_grid_that_is_not_whole(tmp_path):
    out = tmp_path / "n.parquet"
    res = _run("sweep", "aws-16k-h100", "--vary", "cluster.nodes=64:65:3", "-o", str(out))
    _one_line_refusal(res, "--vary", "cluster.nodes", "not whole numbers", "n = 2")
    assert list(tmp_path.iterdir()) == []


def test_integer_fields_are_written_as_integers(tmp_path):
    out = tmp_path / "ints.parquet"
    res = _run("sweep", "aws-16k-h100", "--vary", "cluster.nodes=64:66:3", "-o", str(out))
    assert res.returncode == 0, res.stderr
    df = pl.read_parquet(out)
    assert df["cluster.nodes"].dtype == pl.Int64
    assert df["cluster.nodes"].to_list() == [64, 65, 66]
    assert df["goodput"].n_unique() == 3  # three different points
    # a Monte Carlo sweep resumed from its parts: integers too, and the same rows
    clean = tmp_path / "clean.parquet"
    engine.run_sweep(_mc_spec(), clean, workers=1)
    part = pl.read_parquet(clean)
    assert part["cluster.nodes"].dtype == pl.Int64
    assert part["cluster.nodes"].to_list() == [1000, 2000] * 4
    ref = evaluate_batch(
        _mc_spec().inputs, grid(_mc_spec().axes), np.arange(8), trials=40, days=5.0, seed=3
    )
    for k, v in ref.items():
        assert np.array_equal(part[k].to_numpy(), v, equal_nan=True), k


# --------------------------------------------------------------------------- defect 3
def _batches_cpu_seconds(spec: engine.SweepSpec) -> float:
    """CPU seconds of this process to evaluate every batch of the sweep, as the engine does."""
    cols = grid(spec.axes)
    n = spec.points
    per = engine.batch_points(n, spec.trials, spec.days)
    t0 = time.process_time()
    for lo in range(0, n, per):
        evaluate_batch(
            spec.inputs,
            {k: v[lo : lo + per] for k, v in cols.items()},
            np.arange(lo, min(lo + per, n)),
            trials=spec.trials,
            days=spec.days,
            seed=spec.seed,
        )
    return time.process_time() - t0


# The two accuracy checks time the work itself (CPU time, within 2x): a measurement, which a
# loaded or slower machine can move, so they run with the slow tests (`-m slow`), not in CI.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "axes", "trials", "days"),
    [
        ("aws-16k-h100", [f"{RATE}=0.001:0.004:4", "cluster.nodes=1000:2000:2"], 1200, 20.0),
        ("llama3-8b", [f"{RATE}=0.001:0.01:8"], 20000, 30.0),
    ],
)
def test_the_monte_carlo_estimate_is_within_2x_of_the_work(preset, axes, trials, days):
    s = load_preset(preset)
    spec = engine.SweepSpec(
        resolve_inputs(s), tuple(parse_axis(a) for a in axes), trials, days, 0, s.name
    )
    estimate = engine.estimate_cpu_seconds(spec, grid(spec.axes))
    actual = _batches_cpu_seconds(spec)
    assert 0.5 <= estimate / actual <= 2.0, (estimate, actual)
    # the simulator's constants alone were 6-20x too high
    assert engine.estimate_cpu_seconds(spec, grid(spec.axes), measure=False) > 3 * actual


@pytest.mark.slow
def test_the_analytic_estimate_is_within_2x_of_the_whole_sweep(tmp_path):
    s = load_preset("aws-16k-h100")
    axes = (parse_axis(f"{RATE}=0.001:0.004:200"), parse_axis("cluster.nodes=500:2000:501"))
    spec = engine.SweepSpec(resolve_inputs(s), axes, 0, 30.0, 0, s.name)
    estimate = engine.estimate_cpu_seconds(spec, grid(axes))
    engine.run_sweep(spec, tmp_path / "warm.parquet", workers=1)  # imports, first writes
    t0 = time.process_time()
    engine.run_sweep(spec, tmp_path / "a.parquet", workers=1)
    actual = time.process_time() - t0
    assert 0.5 <= estimate / actual <= 2.0, (estimate, actual)


def test_the_estimate_line_says_it_is_an_estimate(tmp_path):
    res = _run(*GRID_A, "--trials", "200", "--days", "5", "-o", str(tmp_path / "e.parquet"))
    assert res.returncode == 0, res.stderr
    line = next(x for x in res.stderr.splitlines() if "of CPU" in x)
    assert "4 points x 200 trials: an estimated " in line
    assert "(timed on this machine)" in line and "in this process" in line
    res = _run(*GRID_A, "-o", str(tmp_path / "a.parquet"))
    assert "4 points (analytic): an estimated " in res.stderr
    assert os.path.exists(tmp_path / "a.parquet")


def test_the_time_left_follows_the_estimated_work_not_the_points():
    """Half the points done but a tenth of the work (the cheap points come first): the time
    left is ~9 times the time so far, not ~1 time."""
    stream = io.StringIO()
    bar = _Bar(stream, every=0.0)
    bar.work(0.0, 10.0)
    bar(0, 8)
    time.sleep(0.2)
    bar.work(1.0, 10.0)
    bar(4, 8)
    line = stream.getvalue().splitlines()[-1]
    left = float(re.search(r"about ([\d.]+) s left", line).group(1))
    assert 1.2 <= left <= 4.0, line
    # without work reports, the points' rate as before
    stream = io.StringIO()
    bar = _Bar(stream, every=0.0)
    bar(0, 8)
    time.sleep(0.2)
    bar(4, 8)
    left = float(re.search(r"about ([\d.]+) s left", stream.getvalue()).group(1))
    assert left < 0.6


def test_the_time_left_counts_from_the_last_report_before_the_first_batch():
    """A resumed sweep reports its resumed points, then again once its workers are up: the
    rate counts from the second report, so the workers' start is not read as slow work
    (QA 27 #7: "about 24 min left" for 3.5 min of work)."""
    stream = io.StringIO()
    bar = _Bar(stream, every=0.0)
    bar.work(0.0, 10.0)
    bar(65, 193)  # resumed points, before the cluster starts
    time.sleep(0.5)  # the cluster starts
    bar(65, 193)  # the workers are up
    time.sleep(0.1)
    bar.work(1.0, 10.0)
    bar(70, 193)
    left = float(re.search(r"about ([\d.]+) s left", stream.getvalue()).group(1))
    assert left < 2.5, stream.getvalue()  # 9 units at ~10 a second, not 9 at ~2 a second


def test_the_wall_estimate_follows_the_batches_handed_to_the_workers():
    costs = [0.26, 1.01, 0.58, 2.88, 1.01, 5.86, 1.42, 10.1]  # a grid whose last batch dominates
    assert engine.makespan(costs, 2) == pytest.approx(15.24)  # not sum / 2 = 11.56
    assert engine.makespan(costs, 1) == pytest.approx(sum(costs))
    assert engine.makespan([1.0] * 4, 2) == pytest.approx(2.0)
    assert engine.makespan([], 3) == 0.0
