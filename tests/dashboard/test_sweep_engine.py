"""goodput_lab/engine/sweep.py in-process: an existing cluster by address, progress, the
dashboard's submit/gather, an unreachable scheduler.  Uses one small threaded cluster."""

from __future__ import annotations

import logging

import numpy as np
import polars as pl
import pytest
from goodput_lab.models import ValidationError, evaluate, load_preset, resolve_inputs
from goodput_lab.models.sweep import evaluate_batch, parse_axis

from goodput_lab.engine import sweep as engine

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
    assert seen[-1] == (20, 20)
    # once before the cluster is used and once when its workers are up: the time left is
    # counted from the second (QA 27 #7: the first estimate counted the cluster's start)
    assert seen[:2] == [(0, 20), (0, 20)] and seen[2][0] > 0
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
    # another seed of an analytic sweep is the same sweep; another input is not: refused
    # unless replacing is asked for, then evaluated afresh
    same = engine.SweepSpec(spec.inputs, spec.axes, 0, 10.0, 4, s.name)
    assert engine.run_sweep(same, out, scheduler=cluster.scheduler_address).engine == "none"
    inputs = resolve_inputs(s.replace({"recovery.restart_minutes": 20.0}))
    other = engine.SweepSpec(inputs, spec.axes, 0, 10.0, 4, s.name)
    with pytest.raises(ValidationError, match="--force"):
        engine.run_sweep(other, out, scheduler=cluster.scheduler_address)
    assert pl.read_parquet(out).equals(df)
    replaced = engine.run_sweep(other, out, scheduler=cluster.scheduler_address, replace=True)
    assert replaced.points_resumed == 0
    assert engine.output_description(out)["fingerprint"] == other.fingerprint()


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


def test_a_stalled_sweep_stops_and_names_the_stuck_batches(cluster, tmp_path, monkeypatch):
    """No batch finishes within --stall-timeout: one line naming the batches and where they
    run, instead of waiting forever (a worker stuck on one batch here)."""
    import time as _time

    from distributed import Client

    def stuck(*args, **kw):
        _time.sleep(3.0)
        return {}

    monkeypatch.setattr(engine, "evaluate_batch", stuck)
    _, spec = _spec()
    with Client(cluster) as client:
        with pytest.raises(engine.SweepError) as exc:
            engine.run_sweep(spec, tmp_path / "s.parquet", client=client, stall_timeout=1.0)
        msg = str(exc.value)
        assert exc.value.field == "--stall-timeout"
        assert "no batch finished in 1 s (1 worker connected)" in msg
        assert "batch 0 (running on " in msg and "and 1 more" in msg
        assert client.status != "closed"  # the caller's client is left open
    assert not (tmp_path / "s.parquet").exists() and not (tmp_path / "s.parquet.lock").exists()


def test_tls_through_dasks_own_configuration(tmp_path):
    """A tls:// scheduler: refused in one line without certificates, reached with the
    certificates in Dask's configuration (distributed.comm.tls.*), as docs/cluster.md says."""
    import dask
    from distributed import LocalCluster
    from distributed.security import Security

    pytest.importorskip("cryptography")
    sec = Security.temporary()
    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        security=sec,
        protocol="tls",
        silence_logs=logging.ERROR,
    ) as tls_cluster:
        _, spec = _spec()
        address = tls_cluster.scheduler_address
        assert address.startswith("tls://")
        with pytest.raises(ValidationError) as exc:
            engine.run_sweep(spec, tmp_path / "a.parquet", scheduler=address)
        assert "needs TLS" in str(exc.value) and "distributed.comm.tls.ca-file" in str(exc.value)
        cfg = {
            "distributed.comm.tls.ca-file": sec.tls_ca_file,
            "distributed.comm.tls.client.cert": sec.tls_client_cert,
            "distributed.comm.tls.client.key": sec.tls_client_key,
        }
        with dask.config.set(cfg):
            summary = engine.run_sweep(spec, tmp_path / "b.parquet", scheduler=address)
    assert (summary.engine, summary.workers, summary.points) == ("dask", 1, 20)
    assert pl.read_parquet(tmp_path / "b.parquet").height == 20


def test_the_notebook_example_in_docs_runs(tmp_path, monkeypatch):
    """docs/cluster.md's notebook example, run as written on a small in-process cluster (the
    address it names is swapped for that cluster's)."""
    import re
    from pathlib import Path

    from distributed import LocalCluster

    text = (Path(__file__).resolve().parents[2] / "docs" / "cluster.md").read_text()
    block = re.search(r"<!-- notebook:start -->\n```python\n(.*?)```", text, re.S).group(1)
    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as local:
        code = block.replace('"tcp://scheduler.example.org:8786"', repr(local.scheduler_address))
        assert code != block
        monkeypatch.chdir(tmp_path)
        ns: dict = {}
        try:
            exec(compile(code, "docs/cluster.md", "exec"), ns)
        finally:
            if "client" in ns:
                ns["client"].close()
    assert ns["summary"].points == ns["df"].height == 16
    assert ns["summary"].engine == "dask"
