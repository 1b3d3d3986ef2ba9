"""``goodput sweep`` against real Dask clusters started as separate processes (the ``dask
scheduler`` / ``dask worker`` command lines): byte-identical Parquet on a healthy cluster
reached through ``--scheduler-file``; one line naming the worker when a worker lacks
goodput_lab (simulated by a ``sitecustomize`` that blocks its import, as on a machine where
it is not installed); one line within the timeout for an address that is not a scheduler."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "goodput_lab.cli.main"]
DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]
RATE = "reliability.node_failure_rate_per_day"
SWEEP = [
    "sweep",
    "aws-16k-h100",
    "--vary",
    f"{RATE}=0.001:0.004:4",
    "--trials",
    "300",
    "--days",
    "10",
    "--seed",
    "5",
]

BLOCK = """
import importlib.abc, sys
class _NoGoodput(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "goodput_lab" or name.startswith("goodput_lab."):
            raise ModuleNotFoundError("No module named 'goodput_lab'", name=name)
        return None
sys.meta_path.insert(0, _NoGoodput())
"""


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout)


QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def _worker(sched_file: Path, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *WORKER,
            "--scheduler-file",
            str(sched_file),
            "--nthreads",
            "1",
            "--no-nanny",  # one process per worker: half the start-up of a nanny and a worker
            "--no-dashboard",
            "--host",
            "127.0.0.1",
        ],
        env={**os.environ, **(env or {})},
        **QUIET,
    )


def _wait_for_workers(sched_file: Path, n: int) -> None:
    from distributed import Client

    with Client(scheduler_file=str(sched_file), timeout="30s") as c:
        c.wait_for_workers(n, timeout=60)


def _stop(procs) -> None:
    for p in reversed(procs):
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler and two single-threaded workers, each its own process (the ``dask
    scheduler`` and ``dask worker`` command lines); yields the scheduler file."""
    tmp = tmp_path_factory.mktemp("cluster")
    sched_file = tmp / "scheduler.json"
    procs = [
        subprocess.Popen(
            [
                *DASK,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(sched_file),
            ],
            **QUIET,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        procs += [_worker(sched_file), _worker(sched_file)]
        _wait_for_workers(sched_file, 2)
        yield sched_file
    finally:
        _stop(procs)


def test_a_healthy_cluster_of_processes_writes_the_same_bytes(cluster, tmp_path):
    local = tmp_path / "local.parquet"
    res = _run(*SWEEP, "--workers", "1", "-o", str(local))
    assert res.returncode == 0, res.stderr[-2000:]
    remote = tmp_path / "remote.parquet"
    res = _run(*SWEEP, "--scheduler-file", str(cluster), "-o", str(remote), "--json")
    assert res.returncode == 0, res.stderr[-2000:]
    assert '"workers": 2' in res.stdout and '"engine": "dask"' in res.stdout
    assert remote.read_bytes() == local.read_bytes()


def test_a_worker_without_goodput_lab_is_named_in_one_line(cluster, tmp_path):
    """A third worker joins without goodput_lab: the sweep stops before any work, naming it."""
    block = tmp_path / "block"
    block.mkdir()
    (block / "sitecustomize.py").write_text(BLOCK)
    bad = _worker(cluster, env={"PYTHONPATH": str(block)})
    try:
        _wait_for_workers(cluster, 3)
        t0 = time.monotonic()
        out = tmp_path / "x.parquet"
        res = _run(*SWEEP, "--scheduler-file", str(cluster), "-o", str(out), timeout=90)
        took = time.monotonic() - t0
    finally:
        _stop([bad])
    assert res.returncode == 2 and took < 60
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "cannot import goodput_lab" in res.stderr and "tcp://127.0.0.1:" in res.stderr
    assert not out.exists() and not Path(f"{out}.lock").exists()


@pytest.fixture
def silent_port():
    """A TCP port that accepts connections and never says a word (like a web server waiting
    for a request)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held, stop = [], threading.Event()

    def accept():
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield srv.getsockname()[1]
    stop.set()
    t.join(2)
    for c in held:
        c.close()
    srv.close()


def test_an_address_that_is_not_a_scheduler_times_out_in_one_line(tmp_path, silent_port):
    out = tmp_path / "x.parquet"
    t0 = time.monotonic()
    res = _run(
        *SWEEP,
        "--scheduler",
        f"tcp://127.0.0.1:{silent_port}",
        "--connect-timeout",
        "2",
        "-o",
        str(out),
        timeout=60,
    )
    assert res.returncode == 2 and time.monotonic() - t0 < 30
    assert res.stderr.count("\n") == 1
    assert "did not answer as a Dask scheduler within 2 s" in res.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [(None, "cannot read"), ("{not json", "is not a Dask scheduler file")],
)
def test_a_missing_or_bad_scheduler_file_is_one_line(tmp_path, content, words):
    from goodput_lab.models import ValidationError, load_preset, resolve_inputs
    from goodput_lab.models.sweep import parse_axis

    from goodput_lab.engine import sweep as engine

    f = tmp_path / "sched.json"
    if content is not None:
        f.write_text(content)
    s = load_preset("aws-16k-h100")
    spec = engine.SweepSpec(resolve_inputs(s), (parse_axis(f"{RATE}=0.001:0.004:4"),), 10)
    with pytest.raises(ValidationError) as exc:
        engine.run_sweep(spec, tmp_path / "x.parquet", scheduler_file=str(f))
    assert exc.value.field == "--scheduler-file" and words in str(exc.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["sched.json"] if content else [])
