"""The sweep engine: batches of points on dask.distributed, Parquet parts, resume.

:mod:`models.sweep` evaluates one batch of points (pure).  This module runs a whole sweep:
it cuts the points into batches (their size depends only on the sweep, never on the number
of workers, so results are the same on any cluster), sends them to a Dask cluster (a
``LocalCluster`` of worker processes by default, or an existing scheduler by address), writes
each finished batch as one Parquet part in a sidecar folder next to the output
(``results.parquet.parts/``) and merges the parts into the output at the end.  An interrupted
sweep (killed, Ctrl-C, a lost worker) keeps its finished parts: running the same sweep again
evaluates only the missing batches.  The sidecar's manifest records a fingerprint of the
sweep, so parts are never mixed with another sweep's.

Used by ``goodput sweep`` (:mod:`goodput_lab.dashboard.commands.sweep`) and by the dashboard
(:func:`shared_client`, :func:`submit_points` for work that must not block the app).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import shutil
import sys
import time
import types
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from goodput_lab.models.errors import ValidationError
from goodput_lab.models.montecarlo import check_size
from goodput_lab.models.sweep import Axis, check_axes, evaluate_batch, grid

ENGINE = "dask"
#: Analytic points per batch (vectorised on the worker), and the Monte Carlo work per batch
#: in trial-days (~1 s of one core at ~1 µs per trial-day).
ANALYTIC_BATCH_POINTS = 65_536
MC_BATCH_TRIAL_DAYS = 1_500_000
#: A sweep is cut into at least this many batches when it has that many points (balance
#: across workers, and partial results to resume from).
MIN_BATCHES = 8
#: How long to try to reach a scheduler given by address.
CONNECT_TIMEOUT = "10s"
MANIFEST = "manifest.json"
PART_GLOB = "part-*.parquet"


def batch_points(points: int, trials: int, days: float) -> int:
    """Points per batch: a function of the sweep alone (never of the workers)."""
    if trials:
        per = max(1, int(MC_BATCH_TRIAL_DAYS // max(1.0, trials * days)))
    else:
        per = ANALYTIC_BATCH_POINTS
    return max(1, min(per, math.ceil(points / MIN_BATCHES)))


@dataclass(frozen=True)
class SweepSpec:
    """What to sweep: the scenario's flat inputs, the axes, trials, horizon and seed."""

    inputs: Mapping[str, Any]
    axes: tuple[Axis, ...]
    trials: int = 0
    days: float = 30.0
    seed: int = 0
    scenario_name: str = ""

    @property
    def points(self) -> int:
        return math.prod(a.n for a in self.axes)

    def fingerprint(self) -> str:
        """sha256 of everything that decides the results (inputs, axes, trials, days, seed,
        batch size)."""
        numbers = {
            k: (v if isinstance(v, str | bool) else repr(float(np.asarray(v))))
            for k, v in sorted(self.inputs.items())
            if isinstance(v, str | bool | int | float | np.ndarray | np.generic)
        }
        doc = {
            "inputs": numbers,
            "axes": [a.spec() for a in self.axes],
            "trials": self.trials,
            "days": repr(float(self.days)),
            "seed": self.seed,
            "batch_points": batch_points(self.points, self.trials, self.days),
        }
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


@dataclass
class SweepSummary:
    """What ``goodput sweep --json`` prints (keys registered in models/outputs.py)."""

    engine: str
    workers: int
    points: int
    points_evaluated: int
    points_resumed: int
    batches: int
    trials: int
    days: float
    seed: int
    seconds: float
    cluster_start_seconds: float
    output: str
    varied_fields: list[str] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "workers": self.workers,
            "points": self.points,
            "points_evaluated": self.points_evaluated,
            "points_resumed": self.points_resumed,
            "batches": self.batches,
            "trials": self.trials,
            "days": self.days,
            "seed": self.seed,
            "seconds": self.seconds,
            "cluster_start_seconds": self.cluster_start_seconds,
            "output": self.output,
            "varied_fields": list(self.varied_fields),
        }


# --------------------------------------------------------------------------- clusters
def start_client(workers: int | None = None, scheduler: str | None = None):
    """A ``distributed.Client``: on the scheduler at ``scheduler`` (``tcp://host:8786``), or
    on a new ``LocalCluster`` of ``workers`` single-threaded worker processes (default:
    one per core).  Returns (client, cluster or None)."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            return Client(scheduler, timeout=CONNECT_TIMEOUT), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise ValidationError(
                "--scheduler", f"cannot connect to {scheduler[:80]!r} ({type(exc).__name__})"
            ) from None
    n = int(workers or os.cpu_count() or 1)
    # the scheduler's HTTP port (8787, used by health checks) moves on silently when taken
    with _no_main_module(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        cluster = LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    return Client(cluster), cluster


@contextlib.contextmanager
def _no_main_module():
    """Worker processes are spawned, and a spawned child first imports the parent's
    ``__main__``.  Inside a Streamlit script run that is the app script itself (Streamlit
    swaps it in), which a worker must not run; so workers start with an empty ``__main__``
    (they import goodput_lab when the first task arrives).  A plain ``python -c`` or stdin
    parent has no importable main either: this makes both work."""
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def worker_count(client) -> int:
    return len(client.scheduler_info(n_workers=-1).get("workers", {}))


# --------------------------------------------------------------------------- the sweep
def _check_output(output: Path) -> None:
    if output.suffix != ".parquet":
        raise ValidationError("-o", f"{str(output)[:80]!r} must end in .parquet")
    if not output.parent.is_dir():
        raise ValidationError("-o", f"the folder {str(output.parent)[:80]!r} does not exist")


def parts_dir(output: Path) -> Path:
    """The sidecar folder that keeps finished batches: ``<output>.parts``."""
    return output.with_name(output.name + ".parts")


def _read_parts(output: Path, fp: str, batches: int) -> set[int]:
    """Batches already finished by an interrupted run of the same sweep (none when there is
    no sidecar); a sidecar of another sweep is refused."""
    side = parts_dir(output)
    if not side.exists():
        return set()
    try:
        doc = json.loads((side / MANIFEST).read_text())
    except (OSError, ValueError):
        doc = {}
    if doc.get("fingerprint") != fp:
        raise ValidationError(
            "-o",
            f"{str(side)[:80]!r} holds partial results of a different sweep; delete it or "
            "choose another output",
        )
    done = set()
    for p in side.glob(PART_GLOB):
        try:
            b = int(p.stem.split("-")[1])
        except (IndexError, ValueError):
            continue
        if 0 <= b < batches:
            done.add(b)
    return done


def _create_parts(output: Path, fp: str, batches: int) -> Path:
    side = parts_dir(output)
    if not side.exists():
        side.mkdir()
        tmp = side / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps({"fingerprint": fp, "batches": batches}))
        os.replace(tmp, side / MANIFEST)
    return side


def _write_parquet(columns: Mapping[str, np.ndarray], path: Path) -> None:
    """Write atomically (a temporary file renamed), so a kill never leaves half a file."""
    import polars as pl

    tmp = path.with_name(path.name + ".tmp")
    pl.DataFrame({k: np.asarray(v) for k, v in columns.items()}).write_parquet(tmp)
    os.replace(tmp, path)


def _merge(side: Path, batches: int, output: Path) -> None:
    import polars as pl

    frames = [pl.read_parquet(side / f"part-{b:06d}.parquet") for b in range(batches)]
    tmp = output.with_name(output.name + ".tmp")
    pl.concat(frames, how="vertical").write_parquet(tmp)
    os.replace(tmp, output)
    shutil.rmtree(side)


def check_trials(spec: SweepSpec, columns: Mapping[str, np.ndarray]) -> None:
    """Refuse Monte Carlo sizes the simulator would refuse, before any work starts: the
    simulator's limits checked at the points with the most events and the most nodes."""
    if not spec.trials:
        return
    x = dict(spec.inputs)
    x.update(columns)
    from goodput_lab.models.evaluate import evaluate_arrays

    m = evaluate_arrays(x)
    n = len(next(iter(columns.values())))
    events = np.broadcast_to(m["failures_per_day"] + m["fabric_events_per_day"], (n,))
    nodes = np.broadcast_to(np.asarray(x.get("cluster.nodes", 0.0), dtype=float), (n,))
    for i in {int(np.nanargmax(events)), int(np.nanargmax(nodes))}:
        xi = dict(spec.inputs)
        xi.update({k: float(v[i]) for k, v in columns.items()})
        check_size(spec.trials, spec.days, xi)


def run_sweep(
    spec: SweepSpec,
    output: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
) -> SweepSummary:
    """Run the sweep on Dask and write one Parquet row per point to ``output``.

    ``client`` reuses a running ``distributed.Client``; else ``scheduler`` connects to one
    and else a LocalCluster of ``workers`` processes is started (and closed at the end).
    ``progress(points_done, points)`` is called as batches finish (resumed ones first).
    Raises :class:`ValidationError` for bad sizes, a foreign sidecar or an unreachable
    scheduler, before any evaluation.
    """
    out = Path(output)
    _check_output(out)
    points = check_axes(spec.axes, spec.trials)
    columns = grid(spec.axes)
    check_trials(spec, columns)
    per = batch_points(points, spec.trials, spec.days)
    batches = math.ceil(points / per)
    fp = spec.fingerprint()
    done = _read_parts(out, fp, batches)
    side = parts_dir(out)

    def rows(b: int) -> int:
        return min(per, points - b * per)

    resumed = sum(rows(b) for b in done)
    if progress is not None:
        progress(resumed, points)
    todo = [b for b in range(batches) if b not in done]
    own = None
    t_cluster = 0.0
    n_workers = 0
    seconds = 0.0
    if todo:
        t0 = time.perf_counter()
        if client is None:
            client, own = start_client(workers, scheduler)
        t_cluster = time.perf_counter() - t0
        try:
            n_workers = worker_count(client)
            _create_parts(out, fp, batches)  # only once there is a cluster to fill it
            seconds = _evaluate(client, spec, columns, todo, per, points, side, resumed, progress)
        finally:
            if own is not None or scheduler:
                client.close()
            if own is not None:
                own.close()
    _merge(side, batches, out)
    return SweepSummary(
        engine=ENGINE,
        workers=n_workers,
        points=points,
        points_evaluated=points - resumed,
        points_resumed=resumed,
        batches=batches,
        trials=spec.trials,
        days=float(spec.days),
        seed=spec.seed,
        seconds=seconds,
        cluster_start_seconds=t_cluster,
        output=str(out),
        varied_fields=[a.key for a in spec.axes],
    )


def _evaluate(client, spec, columns, todo, per, points, side, resumed, progress) -> float:
    from distributed import as_completed

    t0 = time.perf_counter()
    base = dict(spec.inputs)  # ~100 numbers and enums: sent with each task
    futures = {}
    for b in todo:
        lo, hi = b * per, min((b + 1) * per, points)
        fut = client.submit(
            evaluate_batch,
            base,
            {k: v[lo:hi] for k, v in columns.items()},
            np.arange(lo, hi),
            trials=spec.trials,
            days=spec.days,
            seed=spec.seed,
            pure=False,
        )
        futures[fut] = b
    done_points = resumed
    try:
        for fut in as_completed(futures):
            b = futures[fut]
            result = fut.result()  # re-raises a worker's error here
            _write_parquet(result, side / f"part-{b:06d}.parquet")
            done_points += len(result["point"])
            if progress is not None:
                progress(done_points, points)
    except BaseException:
        client.cancel(list(futures))
        raise
    return time.perf_counter() - t0


# --------------------------------------------------------------------------- dashboard use
def submit_points(
    client, inputs: Mapping[str, Any], columns: Mapping[str, np.ndarray], **kw: Any
) -> list:
    """Submit points to ``client`` in batches without waiting (the dashboard polls the
    futures for progress); keywords as :func:`models.sweep.evaluate_batch`.  Returns the
    futures in point order; :func:`gather_points` puts their rows back together."""
    n = len(next(iter(columns.values())))
    per = batch_points(n, kw.get("trials", 0), kw.get("days", 30.0))
    base = dict(inputs)
    return [
        client.submit(
            evaluate_batch,
            base,
            {k: np.asarray(v)[lo : lo + per] for k, v in columns.items()},
            np.arange(lo, min(lo + per, n)),
            pure=False,
            **kw,
        )
        for lo in range(0, n, per)
    ]


def gather_points(futures: Sequence) -> dict[str, np.ndarray]:
    """The rows of finished :func:`submit_points` futures, concatenated in point order."""
    parts = [f.result() for f in futures]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
