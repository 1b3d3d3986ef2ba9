"""Issue 30 for ``goodput sweep``: one writer per output, outputs checked before any work,
temporary files that never follow a planted link, parts that heal, bounded workers and
work.  The engine is driven in-process where that is enough (fast), and through the command
line where the exit status and stderr are the contract."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from goodput_lab.models import ValidationError, load_preset, resolve_inputs
from goodput_lab.models.sweep import evaluate_batch, grid, parse_axis

from goodput_lab.cli.sweep import _Bar
from goodput_lab.engine import sweep as engine

CLI = [sys.executable, "-m", "goodput_lab.cli.main"]
RATE = "reliability.node_failure_rate_per_day"


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout)


def _one_line_refusal(res: subprocess.CompletedProcess, *words: str) -> None:
    assert res.returncode == 2, res.stderr[-2000:]
    assert res.stdout == "" and res.stderr.count("\n") == 1, res.stderr
    assert "Traceback" not in res.stderr
    for w in words:
        assert w in res.stderr, res.stderr


# --------------------------------------------------------------------------- in-process
def _spec(trials=40, seed=3, n=8):
    s = load_preset("aws-16k-h100")
    axes = (parse_axis(f"{RATE}=0.001:0.004:{n}"),)
    return engine.SweepSpec(resolve_inputs(s), axes, trials, 5.0, seed, s.name)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A clean in-process run of the small Monte Carlo sweep (8 batches of one point)."""
    out = tmp_path_factory.mktemp("clean") / "clean.parquet"
    engine.run_sweep(_spec(), out, workers=1)
    return out


def _interrupted(out: Path, after: int) -> None:
    """Run the sweep and stop it (Ctrl-C) after ``after`` batches: parts are kept."""

    def stop(done, total):
        if done >= after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        engine.run_sweep(_spec(), out, workers=1, progress=stop)
    assert len(list(engine.parts_dir(out).glob("part-*.parquet"))) == after


def test_the_output_records_the_sweep(clean):
    spec = _spec()
    desc = engine.output_description(clean)
    assert desc == spec.description()
    assert desc["seed"] == 3 and desc["trials"] == 40 and desc["version"] == "0.2.0"
    assert desc["grid"] == [f"{RATE}=0.001:0.004:8"] and len(desc["fingerprint"]) == 64
    df = pl.read_parquet(clean)
    assert df["point"].to_list() == list(range(8))
    ref = evaluate_batch(
        spec.inputs, grid(spec.axes), np.arange(8), trials=40, days=5.0, seed=3
    )  # one batch or eight: the same rows
    for k, v in ref.items():
        assert np.array_equal(df[k].to_numpy(), v, equal_nan=True), k


def test_the_fingerprint_covers_version_catalog_and_seed(monkeypatch, tmp_path):
    base = _spec().fingerprint()
    assert _spec(seed=4).fingerprint() != base
    cat = tmp_path / "cat.csv"
    cat.write_text("x")
    spec = _spec()
    assert engine.SweepSpec(**{**spec.__dict__, "catalog": str(cat)}).fingerprint() != base
    import goodput_lab

    monkeypatch.setattr(goodput_lab, "__version__", "9.9.9")
    assert _spec().fingerprint() != base


def _damage_truncate(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _damage_empty(p: Path) -> None:
    p.write_bytes(b"")


def _damage_garbage(p: Path) -> None:
    p.write_bytes(os.urandom(p.stat().st_size))


def _damage_flip_tail(p: Path) -> None:  # the footer (schema, lengths) corrupted
    b = bytearray(p.read_bytes())
    for i in range(len(b) - 40, len(b) - 8):
        b[i] ^= 0xFF
    p.write_bytes(bytes(b))


def _damage_schema(p: Path) -> None:
    meta = pl.read_parquet_metadata(p)
    pl.DataFrame({"point": [0], "goodput": ["x"]}).write_parquet(
        p, metadata={engine.METADATA_KEY: meta[engine.METADATA_KEY]}
    )


def _damage_foreign(p: Path) -> None:  # a part of another sweep (another fingerprint)
    df = pl.read_parquet(p)
    df.write_parquet(p, metadata={engine.METADATA_KEY: json.dumps({"fingerprint": "other"})})


def _damage_rows(p: Path) -> None:
    meta = pl.read_parquet_metadata(p)
    df = pl.read_parquet(p)
    pl.concat([df, df]).write_parquet(p, metadata={engine.METADATA_KEY: meta[engine.METADATA_KEY]})


def _damage_dir(p: Path) -> None:
    p.unlink()
    p.mkdir()


DAMAGES = [
    _damage_truncate,
    _damage_empty,
    _damage_garbage,
    _damage_flip_tail,
    _damage_schema,
    _damage_foreign,
    _damage_rows,
    _damage_dir,
]


def test_damaged_parts_are_evaluated_again_and_the_result_equals_a_clean_run(clean, tmp_path):
    out = tmp_path / "healed.parquet"
    _interrupted(out, len(DAMAGES))
    side = engine.parts_dir(out)
    parts = sorted(side.glob("part-*.parquet"))
    for damage, part in zip(DAMAGES, parts, strict=True):
        damage(part)
    lines = []
    summary = engine.run_sweep(_spec(), out, workers=1, notify=lines.append)
    assert summary.parts_healed == len(DAMAGES)
    assert summary.points_resumed == 0 and summary.points_evaluated == 8
    again = [line for line in lines if "evaluating its 1 point again" in line]
    assert len(again) == len(DAMAGES), lines
    assert any("does not read back" in line for line in again)
    assert any("is empty" in line for line in again)
    assert any("another sweep" in line for line in again)
    assert any("wrong columns" in line for line in again)
    assert pl.read_parquet(out).equals(pl.read_parquet(clean))
    assert not side.exists()


def test_good_parts_are_kept_and_a_damaged_manifest_heals(clean, tmp_path):
    out = tmp_path / "resumed.parquet"
    _interrupted(out, 3)
    (engine.parts_dir(out) / engine.MANIFEST).write_bytes(b"\x00garbage")
    summary = engine.run_sweep(_spec(), out, workers=1)
    assert summary.points_resumed == 3 and summary.points_evaluated == 5
    assert pl.read_parquet(out).equals(pl.read_parquet(clean))
    # the same sweep again: the output already holds it, nothing is evaluated
    again = engine.run_sweep(_spec(), out, workers=1)
    assert (again.engine, again.points_resumed, again.points_evaluated) == ("none", 8, 0)


def test_a_lock_held_by_another_process_is_refused_naming_it(tmp_path):
    out = tmp_path / "held.parquet"
    with engine.OutputLock(out):
        with pytest.raises(ValidationError) as exc:
            engine.run_sweep(_spec(), out, workers=1)
        msg = str(exc.value)
        assert f"pid {os.getpid()}" in msg and "started 20" in msg and "another sweep" in msg
        assert not out.exists() and not engine.parts_dir(out).exists()
    assert not engine.lock_path(out).exists()  # released and removed
    engine.run_sweep(_spec(), out, workers=1)  # free again


def test_a_stale_lock_file_of_a_dead_process_does_not_block(tmp_path):
    out = tmp_path / "stale.parquet"
    engine.lock_path(out).write_text('{"pid": 999999, "host": "gone", "started": "then"}')
    engine.run_sweep(_spec(), out, workers=1)
    assert out.exists() and not engine.lock_path(out).exists()


def test_a_symlink_planted_at_the_next_temporary_name_is_never_followed(
    clean, tmp_path, monkeypatch
):
    """Every temporary file is first offered names at which links are planted (mkstemp's
    names made known): each is skipped (O_EXCL), the file the links point to is untouched,
    and the sweep still writes the clean run's rows."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out.parquet"
    side = engine.parts_dir(out)
    side.mkdir()
    planted = [f"planted{i}" for i in range(3)]
    offered = []

    def plant() -> None:  # (again: a sweep clears leftovers of killed runs when it starts)
        for t in targets:
            for name in planted:
                link = t.with_name(f"{t.name}.{name}.tmp")
                if not link.is_symlink():
                    link.symlink_to(victim)

    def candidates():  # a fresh sequence for every temporary file, links planted first
        plant()
        real = tempfile._RandomNameSequence()

        def names():
            yield from planted
            while True:
                name = next(real)
                offered.append(name)
                yield name

        return names()

    targets = [tmp_path / out.name, side / engine.MANIFEST]
    targets += [side / f"part-{b:06d}.parquet" for b in range(8)]
    plant()
    # and at the fixed names older versions used
    (tmp_path / "out.parquet.tmp").symlink_to(victim)
    (side / "part-000000.parquet.tmp").symlink_to(victim)
    monkeypatch.setattr(tempfile, "_get_candidate_names", candidates)
    engine.run_sweep(_spec(), out, workers=1)
    assert len(offered) == len(targets)  # every file went past the planted names
    assert victim.read_text() == "precious"
    assert pl.read_parquet(out).equals(pl.read_parquet(clean))
    assert not out.is_symlink()


@pytest.mark.parametrize("where", ["lock", "parts"])
def test_a_symlink_at_the_lock_or_the_parts_folder_is_refused(tmp_path, where):
    target = tmp_path / "elsewhere"
    target.mkdir()
    out = tmp_path / "o.parquet"
    link = engine.lock_path(out) if where == "lock" else engine.parts_dir(out)
    link.symlink_to(target if where == "parts" else target / "f")
    with pytest.raises(ValidationError) as exc:
        engine.run_sweep(_spec(), out, workers=1)
    assert exc.value.field == "-o" and "symbolic link" in str(exc.value)
    assert list(target.iterdir()) == [] and not out.exists()


def test_an_output_that_is_a_link_is_replaced_not_followed(clean, tmp_path):
    victim = tmp_path / "victim.parquet"
    victim.write_bytes(b"precious")
    out = tmp_path / "link.parquet"
    out.symlink_to(victim)
    with pytest.raises(ValidationError):  # something else is there: refused by default
        engine.run_sweep(_spec(), out, workers=1)
    assert out.is_symlink() and victim.read_bytes() == b"precious"
    engine.run_sweep(_spec(), out, workers=1, replace=True)
    assert victim.read_bytes() == b"precious" and not out.is_symlink()
    assert pl.read_parquet(out).equals(pl.read_parquet(clean))


def test_workers_are_capped_to_the_work_and_the_cores(monkeypatch):
    monkeypatch.setattr(engine, "local_cores", lambda: 2)
    assert engine.plan_workers(64, 4, 100.0) == (
        2,
        "--workers 64 capped to 2 (4 batches of work and 2 cores)",
    )
    assert engine.plan_workers(3, 1, 100.0)[0] == 1
    assert engine.plan_workers(None, 16, 100.0) == (2, None)
    n, line = engine.plan_workers(2, 16, 0.5)  # too little work to start workers
    assert n == 1 and "runs in this process" in line
    with pytest.raises(ValidationError) as exc:
        engine.plan_workers(engine.MAX_WORKERS + 1, 4)
    assert exc.value.field == "--workers" and "[1, 256]" in str(exc.value)


def test_progress_lines_without_a_terminal():
    stream = io.StringIO()
    bar = _Bar(stream, every=0.0)
    bar(0, 10)
    time.sleep(0.01)
    bar(4, 10)
    bar(10, 10)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("goodput: sweep 4/10 points (40%)")
    assert "left" in lines[0]


def test_the_estimate_follows_the_trials():
    spec = _spec(trials=1000)
    cols = grid(spec.axes)
    # the simulator's own model alone: proportional to the trials
    a = engine.estimate_cpu_seconds(spec, cols, measure=False)
    b = engine.estimate_cpu_seconds(_spec(trials=4000), cols, measure=False)
    assert 0 < a < b and b / a == pytest.approx(4, rel=0.35)
    # measured here: more trials cost more, but a point also has a fixed part
    a = engine.estimate_cpu_seconds(spec, cols)
    b = engine.estimate_cpu_seconds(_spec(trials=4000), cols)
    assert 0 < a < b and b / a < 4.5
    assert engine.estimate_cpu_seconds(_spec(trials=0), cols) == pytest.approx(
        engine.SWEEP_SECONDS + 8 * engine.ANALYTIC_SECONDS_PER_POINT + 8 * engine.BATCH_SECONDS
    )


# --------------------------------------------------------------------------- command line
BASE = ["sweep", "aws-16k-h100", "--vary", f"{RATE}=0.001:0.004:4"]


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: d / "dir.parquet", ["is a folder"]),
        (lambda d: d / "missing" / "x.parquet", ["does not exist"]),
        (lambda d: d / ("n" * 250 + ".parquet"), ["too long"]),
    ],
    ids=["existing-folder", "missing-parent", "name-too-long"],
)
def test_outputs_that_cannot_be_written_are_refused_up_front(tmp_path, make, words):
    (tmp_path / "dir.parquet").mkdir()
    before = sorted(tmp_path.rglob("*"))
    res = _run(*BASE, "-o", str(make(tmp_path)), timeout=60)
    _one_line_refusal(res, "-o", *words)
    assert sorted(tmp_path.rglob("*")) == before  # nothing left behind


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused_up_front(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        res = _run(*BASE, "-o", str(ro / "x.parquet"), timeout=60)
    finally:
        ro.chmod(0o755)
    _one_line_refusal(res, "-o", "not writable")
    assert list(ro.iterdir()) == []


def test_a_read_only_folder_is_refused_before_work(tmp_path, monkeypatch):
    """The same check in-process, for runs as root (who may write anywhere): the engine asks
    ``os.access`` before creating anything."""
    monkeypatch.setattr(engine.os, "access", lambda *a, **k: False)
    with pytest.raises(ValidationError) as exc:
        engine.run_sweep(_spec(), tmp_path / "x.parquet", workers=1)
    assert "not writable" in str(exc.value) and list(tmp_path.iterdir()) == []


def test_a_4_point_sweep_with_64_workers_is_quick(tmp_path):
    t0 = time.monotonic()
    res = _run(*BASE, "--workers", "64", "-o", str(tmp_path / "w.parquet"), "--json")
    took = time.monotonic() - t0
    assert res.returncode == 0, res.stderr[-2000:]
    assert took < 20
    assert "--workers 64" in res.stderr and "Traceback" not in res.stderr
    out = json.loads(res.stdout)
    assert out["points"] == 4 and out["workers"] <= 2 and out["estimated_seconds"] >= 0
    res = _run(*BASE, "--workers", "257", "-o", str(tmp_path / "w.parquet"), timeout=60)
    _one_line_refusal(res, "--workers", "[1, 256]")


#: long enough (~4 s of compute) that the second sweep starts while the first writes
SEED_TRIALS = 60_000
SEED_SWEEP = [
    "sweep",
    "aws-16k-h100",
    "--vary",
    f"{RATE}=0.001:0.004:4",
    "--trials",
    str(SEED_TRIALS),
    "--days",
    "20",
    "--workers",
    "1",
    "--json",
]


def test_two_sweeps_on_one_output_one_wins_the_other_is_refused(tmp_path):
    """Issue 30's acceptance: seeds 0 and 1 started 0.5 s apart on the same -o. The second
    starts 0.5 s after the first holds the output's lock (not after the first is launched:
    on a busy host the first one's imports alone can outlast a fixed 0.5 s, and a first
    sweep that finishes before the second starts is not a conflict)."""
    out = tmp_path / "shared.parquet"
    procs = []
    for seed in (0, 1):
        procs.append(
            subprocess.Popen(
                [*CLI, *SEED_SWEEP, "--seed", str(seed), "-o", str(out)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
        deadline = time.monotonic() + 60.0
        while seed == 0 and not engine.lock_path(out).exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)
    res = [(p.wait(timeout=180), *p.communicate()) for p in procs]
    codes = sorted(r[0] for r in res)
    assert codes == [0, 2], [r[2][-500:] for r in res]
    winner = next(seed for seed, r in enumerate(res) if r[0] == 0)
    loser = res[1 - winner]
    assert loser[1] == "" and loser[2].count("\n") == 1 and "Traceback" not in loser[2]
    assert "another sweep (pid " in loser[2] and "started " in loser[2]
    desc = engine.output_description(out)
    assert desc["seed"] == winner
    # the file equals a clean run of the winner (the engine's rows, evaluated here)
    s = load_preset("aws-16k-h100")
    axes = (parse_axis(f"{RATE}=0.001:0.004:4"),)
    spec = engine.SweepSpec(resolve_inputs(s), axes, SEED_TRIALS, 20.0, winner, s.name)
    assert desc == spec.description()
    ref = evaluate_batch(
        spec.inputs, grid(axes), np.arange(4), trials=SEED_TRIALS, days=20.0, seed=winner
    )
    got = pl.read_parquet(out)
    for k, v in ref.items():
        assert np.array_equal(got[k].to_numpy(), v, equal_nan=True), k
    assert not engine.lock_path(out).exists() and not engine.parts_dir(out).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.parquet"]


def test_a_truncated_part_is_one_line_and_the_sweep_finishes(tmp_path):
    out = tmp_path / "t.parquet"
    _interrupted_cli = [*BASE, "--trials", "40", "--days", "5", "--seed", "3", "-o", str(out)]
    side = engine.parts_dir(out)
    # parts of this exact sweep, made in-process, one truncated
    s = load_preset("aws-16k-h100")
    spec = engine.SweepSpec(
        resolve_inputs(s), (parse_axis(f"{RATE}=0.001:0.004:4"),), 40, 5.0, 3, s.name
    )

    def stop(done, total):
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        engine.run_sweep(spec, out, workers=1, progress=stop)
    part = sorted(side.glob("part-*.parquet"))[0]
    _damage_truncate(part)
    res = _run(*_interrupted_cli)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    assert f"{part.name} in {side.name} does not read back" in res.stderr
    assert "evaluating its 1 point again" in res.stderr
    assert "(1 resumed)" in res.stdout
