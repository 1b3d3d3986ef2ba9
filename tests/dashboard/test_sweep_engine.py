"""dashboard/services/sweep.py in-process: an existing cluster by address, progress, the
dashboard's submit/gather, an unreachable scheduler.  Uses one small threaded cluster."""

from __future__ import annotations

import logging

import numpy as np
import polars as pl
import pytest
from goodput_lab.dashboard.services import sweep as engine
from goodput_lab.models import ValidationError, evaluate, load_preset, resolve_inputs
from goodput_lab.models.sweep import evaluate_batch, parse_axis

RATE = "reliability.node_failure_rate_per_day"


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    c = LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    yield c
    c.close()


def _spec(trials=0):
    s = load_preset("aws-16k-h100")
    axes = (parse_axis(f"{RATE}=0.001:0.003:5"), parse_axis("cluster.nodes=500:2000:4"))
    return s, engine.SweepSpec(resolve_inputs(s), axes, trials, 10.0, 3, s.name)


def test_sweep_on_a_cluster_by_address(cluster, tmp_path):
    s, spec = _spec()
    seen = []
    out = tmp_path / "grid.parquet"
    summary = engine.run_sweep(
        spec, out, scheduler=cluster.scheduler_address, progress=lambda d, n: seen.append((d, n))
    )
    assert summary.engine == "dask" and summary.workers == 1
    assert summary.points == 20 and summary.batches == 7  # ceil(20 / 8) = 3 points a batch
    assert seen[0] == (0, 20) and seen[-1] == (20, 20)
    df = pl.read_parquet(out)
    assert df.height == 20
    row = df.row(13, named=True)  # rate index 3 (0.0025), nodes index 1 (1000)
    assert (row[RATE], row["cluster.nodes"]) == (0.0025, 1000.0)
    ev = evaluate(s.replace({RATE: 0.0025, "cluster.nodes": 1000}))
    assert row["goodput"] == pytest.approx(ev["goodput"], rel=1e-12)
    assert row["lost_usd_per_day"] == pytest.approx(ev["lost_usd_per_day"], rel=1e-12)
    # the same sweep again: the output already holds it (its metadata's fingerprint)
    again = engine.run_sweep(spec, out, scheduler=cluster.scheduler_address)
    assert (again.engine, again.points_resumed) == ("none", 20)
    assert pl.read_parquet(out).equals(df)
    # another seed: evaluated afresh, and the output is replaced
    other = engine.SweepSpec(spec.inputs, spec.axes, 0, 10.0, 4, s.name)
    assert engine.run_sweep(other, out, scheduler=cluster.scheduler_address).points_resumed == 0
    assert engine.output_description(out)["seed"] == 4


def test_unreachable_scheduler_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "CONNECT_TIMEOUT", 1.0)
    _, spec = _spec()
    out = tmp_path / "x.parquet"
    with pytest.raises(ValidationError) as exc:
        engine.run_sweep(spec, out, scheduler="tcp://127.0.0.1:9")
    assert exc.value.field == "--scheduler" and "cannot connect" in str(exc.value)
    assert not out.exists() and not engine.parts_dir(out).exists()


def test_submit_and_gather_points_for_the_dashboard(cluster):
    from distributed import Client

    _, spec = _spec()
    cols = {RATE: np.linspace(0.001, 0.004, 30)}
    with Client(cluster) as client:
        futures = engine.submit_points(client, spec.inputs, cols, trials=50, days=5.0, seed=1)
        got = engine.gather_points(futures)
    assert len(futures) == 8  # at least 8 batches: 4 points each
    ref = evaluate_batch(spec.inputs, cols, np.arange(30), trials=50, days=5.0, seed=1)
    for k, v in ref.items():
        assert np.array_equal(got[k], v, equal_nan=True), k
