"""The sweep engine: batches of points, in this process or on dask.distributed, to Parquet.

:mod:`models.sweep` evaluates one batch of points (pure).  This module runs a whole sweep:
it cuts the points into batches (their size depends only on the sweep, never on the number
of workers, so results are the same on any cluster) and evaluates them in this process (one
worker) or on a Dask cluster (a ``LocalCluster`` of worker processes, an existing scheduler
by address or scheduler file, or the caller's own ``distributed.Client``), then writes the
rows to one Parquet file whose metadata records the sweep's fingerprint.

Safety rules (issue 30, 31):

* **One writer per output.**  Before any work or cluster start the sweep takes an OS lock on
  ``<output>.lock`` (``flock``; the OS releases it when the process dies, so a killed sweep
  never blocks the next one).  A second sweep on the same output is refused in one line that
  names the other (pid, host, start time).
* **Outputs checked up front**: the suffix, an existing folder, a missing or read-only parent
  folder, a name too long for the file system are refused before anything is created.
* **Outputs that hold something else**: an output that already holds this very sweep is
  kept as it is (nothing evaluated); one that holds another sweep or another file is
  refused before anything is written or removed unless the caller lets it be replaced
  (``goodput sweep --force``, :func:`run_sweep`'s ``replace=True``; then with a line saying
  so).
* **Unique temporary files**: everything is written to a ``tempfile.mkstemp`` name in the
  target folder (created exclusively, so a planted link is never followed) and renamed.
* **Parts that heal.**  A Monte Carlo sweep keeps each finished batch in
  ``<output>.parts/part-NNNNNN.parquet`` (each part carries the sweep's fingerprint), so an
  interrupted sweep resumes.  A part that does not read back (truncated, empty, garbage, the
  wrong rows or columns, another sweep's) is evaluated again, with a line saying so.
* **A cluster that cannot hang silently**: a connect timeout for addresses that do not answer
  as a Dask scheduler, a check that every worker imports ``goodput_lab`` at this version (and
  the same Python and numpy), and a stall timeout that names the batches that are stuck.

Used by ``goodput sweep`` (:mod:`goodput_lab.cli.sweep`) and by the dashboard
(:func:`start_client`, :func:`submit_points` for work that must not block the app).  The public
entry point for notebooks is :func:`run_sweep` (``client=`` takes your own cluster's client;
docs/cluster.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import glob
import hashlib
import json
import logging
import math
import os
import signal
import socket
import stat
import sys
import tempfile
import threading
import time
import types
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from goodput_lab.models._text import with_unit
from goodput_lab.models.errors import ValidationError
from goodput_lab.models.montecarlo import check_size
from goodput_lab.models.sweep import Axis, check_axes, evaluate_batch, grid

try:  # POSIX; elsewhere the lock file is created exclusively instead
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: Analytic points per batch (vectorised on the worker), and the Monte Carlo work per batch
#: in trial-days (~1 s of one core at ~1 µs per trial-day).
ANALYTIC_BATCH_POINTS = 65_536
MC_BATCH_TRIAL_DAYS = 1_500_000
#: A sweep is cut into at least this many batches when it has that many points (balance
#: across workers, and partial results to resume from).
MIN_BATCHES = 8
#: Most worker processes a local cluster may start (``--workers``); fewer are started when
#: the sweep has fewer batches or the machine fewer cores (a line says so).
MAX_WORKERS = 256
#: A local sweep predicted to need less CPU than this runs in this process, whatever
#: ``--workers`` says: starting a LocalCluster costs ~1-2 s of CPU and more of wall time.
LOCAL_BELOW_CPU_SECONDS = 2.0
#: Seconds to reach a scheduler given by address and to hear it answer as one.
CONNECT_TIMEOUT = 10.0
#: Seconds to wait for a scheduler to have at least one worker.
WORKERS_TIMEOUT = 60.0
#: Seconds without any batch finishing after which a sweep on a cluster stops and names the
#: stuck batches (``--stall-timeout``).
STALL_TIMEOUT = 600.0
#: Analytic CPU seconds per point for the estimate (evaluation, ~0.5 µs, then the copy
#: into the output's columns, the memory's first touch and Parquet encoding).  Whole
#: in-process sweeps on the 2-core test machine: 10^5 points 0.28 s, 2·10^5 0.52 s, 10^6
#: 4.4 s (bench/bench_sweep.py: 3.8 µs per point at 10^6).
ANALYTIC_SECONDS_PER_POINT = 3.5e-6
#: CPU seconds of any sweep besides its points and batches (the Parquet writer's start,
#: ~0.1 s measured), and of each batch (the analytic chain's fixed cost, ~1.2 ms measured,
#: its part file and the hand-over).
SWEEP_SECONDS = 0.1
BATCH_SECONDS = 0.003
#: The Monte Carlo part of the estimate is measured here, not taken from the simulator's
#: constants (``estimate_work`` alone was 6-20x too high on the 2-core test machine; its
#: shape over a grid was right within ~30%): up to CALIBRATION_POINTS points of the grid
#: are simulated with 1, 4, 16 ... trials until a run takes CALIBRATION_RUN_SECONDS of CPU
#: or has the sweep's trials, and the runs weigh the model's parts (loop passes, events,
#: Weibull draws; :func:`_measured_weights`).  The measuring takes at most
#: CALIBRATION_SECONDS of CPU and CALIBRATION_SHARE of the sweep's own estimate (but
#: CALIBRATION_FLOOR seconds may always be spent).
CALIBRATION_POINTS = 3
CALIBRATION_RUN_SECONDS = 0.05
CALIBRATION_SECONDS = 0.5
CALIBRATION_SHARE = 0.1
CALIBRATION_FLOOR = 0.05
#: CPU seconds here per second the simulator's constants predict for its loop passes, its
#: events and its Weibull draws (measured on the 2-core test machine: 0.16-0.5 and
#: 0.047-0.061 over four presets, ~0.25 with Weibull failures): what a calibration keeps
#: for a part its runs hardly exercise (pulled towards with CALIBRATION_PRIOR_WEIGHT).
CALIBRATION_PRIOR = (0.25, 0.05, 0.25)
CALIBRATION_PRIOR_WEIGHT = 0.1
#: Wall seconds to start a LocalCluster's worker processes (1.1-2 s measured on 2 cores),
#: added to the time a sweep on local workers is predicted to take.
LOCAL_CLUSTER_START_SECONDS = 1.5
MANIFEST = "manifest.json"
PART_GLOB = "part-*.parquet"
#: Key of the sweep's description in the Parquet file's key-value metadata.
METADATA_KEY = "goodput_lab.sweep"
#: Longest suffix this module adds to the output's name (``.<8 random>.tmp``, ``.parts``).
_SUFFIX_ROOM = 14

Notify = Callable[[str], None]


class SweepError(ValidationError):
    """A sweep that started but cannot finish (a stall, a failing batch, a full disk): one
    line naming what happened; ``goodput sweep`` exits 1."""


def batch_points(points: int, trials: int, days: float) -> int:
    """Points per batch: a function of the sweep alone (never of the workers)."""
    if trials:
        per = max(1, int(MC_BATCH_TRIAL_DAYS // max(1.0, trials * days)))
    else:
        per = ANALYTIC_BATCH_POINTS
    return max(1, min(per, math.ceil(points / MIN_BATCHES)))


def package_version() -> str:
    from goodput_lab import __version__

    return __version__


@functools.lru_cache(maxsize=8)
def data_hash(catalog: str | None = None) -> str:
    """sha256 of the shipped catalogs and presets (``data/*.csv``, ``data/scenarios/*.toml``)
    and of ``catalog`` (a user's catalog file) when given: part of a sweep's fingerprint, so
    a resume after an upgrade or a catalog edit never mixes old and new figures."""
    from goodput_lab.models._resources import data_path

    root = Path(str(data_path()))
    h = hashlib.sha256()
    files = sorted(root.glob("*.csv")) + sorted((root / "scenarios").glob("*.toml"))
    for p in files:
        h.update(p.name.encode() + b"\0")
        h.update(p.read_bytes())
    if catalog:
        h.update(b"catalog\0")
        with contextlib.suppress(OSError):
            h.update(Path(catalog).read_bytes())
    return h.hexdigest()


@dataclass(frozen=True)
class SweepSpec:
    """What to sweep: the scenario's flat inputs, the axes, trials, horizon and seed.

    ``catalog`` is the path of a user's instance catalog when one was used (its bytes enter
    the fingerprint; the shipped catalog and presets always do).
    """

    inputs: Mapping[str, Any]
    axes: tuple[Axis, ...]
    trials: int = 0
    days: float = 30.0
    seed: int = 0
    scenario_name: str = ""
    catalog: str | None = None

    @property
    def points(self) -> int:
        return math.prod(a.n for a in self.axes)

    def fingerprint(self) -> str:
        """sha256 of everything that decides the results: inputs, axes, trials, days, seed,
        batch size, the package version and the shipped catalog and presets (the horizon and
        the seed only for a Monte Carlo sweep: an analytic one gives the same rows whatever
        they are)."""
        mc = self.trials > 0
        numbers = {
            k: (v if isinstance(v, str | bool) else repr(float(np.asarray(v))))
            for k, v in sorted(self.inputs.items())
            if isinstance(v, str | bool | int | float | np.ndarray | np.generic)
        }
        doc = {
            "inputs": numbers,
            "axes": [a.spec() for a in self.axes],
            "trials": self.trials,
            "days": repr(float(self.days)) if mc else None,
            "seed": self.seed if mc else None,
            "batch_points": batch_points(self.points, self.trials, self.days),
            "version": package_version(),
            "data": data_hash(self.catalog),
        }
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()

    def description(self) -> dict[str, Any]:
        """What the output's Parquet metadata records (:data:`METADATA_KEY`)."""
        return {
            "fingerprint": self.fingerprint(),
            "scenario": self.scenario_name,
            "grid": [a.spec() for a in self.axes],
            "points": self.points,
            "trials": self.trials,
            "days": float(self.days),
            "seed": self.seed,
            "version": package_version(),
        }


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
    estimated_seconds: float = 0.0
    fingerprint: str = ""
    parts_healed: int = 0
    #: False when the output already held this very sweep and was left as it was.
    written: bool = True

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "workers": self.workers,
            "points": self.points,
            "points_evaluated": self.points_evaluated,
            "points_resumed": self.points_resumed,
            "parts_healed": self.parts_healed,
            "batches": self.batches,
            "trials": self.trials,
            "days": self.days,
            "seed": self.seed,
            "estimated_seconds": self.estimated_seconds,
            "seconds": self.seconds,
            "cluster_start_seconds": self.cluster_start_seconds,
            "output": self.output,
            "fingerprint": self.fingerprint,
            "varied_fields": list(self.varied_fields),
        }


# --------------------------------------------------------------------------- the output
def _short(path: Path | str) -> str:
    s = str(path)  # the end of a long path (the name) matters most; errors cut at 80
    return repr(s if len(s) <= 72 else "..." + s[-69:])


def check_output(output: str | Path) -> Path:
    """Refuse, before any work, an output the sweep could not write: a name not ending in
    ``.parquet``, an existing folder or other non-file, a missing or read-only parent
    folder, a name too long for the file system.  Returns the absolute path."""
    out = Path(os.path.abspath(os.fspath(output)))
    if out.suffix != ".parquet":
        raise ValidationError("-o", f"{_short(output)} must end in .parquet")
    parent = out.parent
    try:
        if not parent.is_dir():
            what = "is not a folder" if parent.exists() else "does not exist"
            raise ValidationError("-o", f"the folder {_short(parent)} {what}")
        try:
            name_max = os.pathconf(parent, "PC_NAME_MAX")
        except (OSError, ValueError):
            name_max = 255
        longest = len(out.name.encode()) + _SUFFIX_ROOM
        if longest > name_max:
            raise ValidationError(
                "-o",
                f"the name {_short(out.name)} is too long ({len(out.name.encode())} bytes; "
                f"this folder allows {name_max}, and a sweep adds up to {_SUFFIX_ROOM} for "
                "its temporary files)",
            )
        if out.is_dir():
            raise ValidationError("-o", f"{_short(output)} is a folder; give a file name")
        if out.exists() and not out.is_file():
            raise ValidationError("-o", f"{_short(output)} exists and is not a regular file")
    except OSError as exc:
        raise ValidationError("-o", f"cannot use {_short(output)}: {exc.strerror}") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValidationError("-o", f"the folder {_short(parent)} is not writable")
    return out


def parts_dir(output: Path) -> Path:
    """The sidecar folder that keeps finished batches: ``<output>.parts``."""
    output = Path(output)
    return output.with_name(output.name + ".parts")


def lock_path(output: Path) -> Path:
    """The lock file of an output: ``<output>.lock``."""
    output = Path(output)
    return output.with_name(output.name + ".lock")


class OutputLock:
    """An exclusive lock on an output, held while a sweep writes it.

    ``<output>.lock`` is opened without following a link and locked with ``flock``; its
    text says who holds it (pid, host, start time).  The OS drops the lock when the process
    ends, however it ends; :meth:`release` also removes the file.
    """

    def __init__(self, output: Path) -> None:
        self.output = Path(output)
        self.path = lock_path(self.output)
        self.fd: int | None = None

    def acquire(self) -> OutputLock:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        if fcntl is None:  # pragma: no cover - no flock: an exclusive create instead
            flags |= os.O_EXCL
        for _ in range(20):
            try:
                fd = os.open(self.path, flags, 0o644)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise ValidationError(
                        "-o", f"{_short(self.path)} is a symbolic link; it is not followed"
                    ) from None
                if exc.errno == errno.EEXIST:  # pragma: no cover - Windows
                    raise ValidationError(
                        "-o", f"another sweep is writing {_short(self.output)} ({self.path})"
                    ) from None
                raise ValidationError(
                    "-o", f"cannot create {_short(self.path)}: {exc.strerror}"
                ) from None
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise ValidationError("-o", f"{_short(self.path)} is not a regular file")
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    holder = _read_holder(fd)
                    os.close(fd)
                    raise ValidationError(
                        "-o",
                        f"another sweep ({holder}) is writing {_short(self.output)}; wait for "
                        "it to finish or choose another output",
                    ) from None
                # the previous holder may have removed the file between our open and lock
                try:
                    now = os.stat(self.path, follow_symlinks=False)
                except FileNotFoundError:
                    now = None
                st = os.fstat(fd)
                if now is None or (now.st_ino, now.st_dev) != (st.st_ino, st.st_dev):
                    os.close(fd)
                    continue
            started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            text = json.dumps(
                {"pid": os.getpid(), "host": socket.gethostname(), "started": started}
            )
            os.ftruncate(fd, 0)
            os.pwrite(fd, text.encode(), 0)
            self.fd = fd
            return self
        raise ValidationError("-o", f"cannot lock {_short(self.path)} (it keeps changing)")

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self.fd = None

    def __enter__(self) -> OutputLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        doc = json.loads(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
        return (
            f"pid {int(doc['pid'])} on {str(doc['host'])[:60]}, started {str(doc['started'])[:40]}"
        )
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that has not yet said who it is"


@functools.lru_cache(maxsize=1)
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _unique_tmp(target: Path) -> tuple[int, str]:
    """A new temporary file next to ``target``: created exclusively (``O_EXCL``, so a link
    planted at its name is never followed) under a random name, with the permissions a
    plain ``open`` would give (mkstemp's are owner-only)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".tmp")
    with contextlib.suppress(OSError, AttributeError):
        os.fchmod(fd, 0o666 & ~_umask())
    return fd, tmp


def _write_parquet(frame, path: Path, metadata: Mapping[str, str]) -> None:
    """Write ``frame`` (a polars DataFrame) to ``path`` atomically: into a unique temporary
    file in the same folder, then renamed over ``path`` (a kill never leaves half a file,
    and a link at ``path`` is replaced, not followed)."""
    fd, tmp = _unique_tmp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            frame.write_parquet(fh, metadata=dict(metadata))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_text(text: str, path: Path) -> None:
    fd, tmp = _unique_tmp(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _remove_stale_tmp(folder: Path, pattern: str) -> None:
    """Temporary files a killed run left (``pattern`` is a glob, e.g. ``NAME.*.tmp``; links
    are removed, not followed).  Called with the output's lock held."""
    with contextlib.suppress(OSError):
        for p in folder.glob(pattern):
            with contextlib.suppress(OSError):
                if p.is_symlink() or p.is_file():
                    p.unlink()


def output_description(path: Path) -> dict[str, Any] | None:
    """The sweep description in a Parquet file's metadata (None if absent or unreadable)."""
    import polars as pl

    try:
        meta = pl.read_parquet_metadata(path)
        return json.loads(meta[METADATA_KEY])
    except BaseException as exc:  # polars raises its own errors, pyo3 panics included
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        return None


# --------------------------------------------------------------------------- clusters
def local_cores() -> int:
    """Cores this process may run on (its CPU affinity, e.g. under ``taskset``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def plan_workers(
    requested: int | None, batches: int, cpu_seconds: float = math.inf
) -> tuple[int, str | None]:
    """Local worker processes for a sweep of ``batches`` batches and about ``cpu_seconds``
    of work: ``requested`` (default one per core) capped to the batches and the cores, and
    to one (this process) when the work is shorter than starting workers
    (:data:`LOCAL_BELOW_CPU_SECONDS`); with a line saying so when a request is capped."""
    cores = local_cores()
    if requested is not None and not 1 <= requested <= MAX_WORKERS:
        raise ValidationError(
            "--workers", f"{requested} is out of range (an integer in [1, {MAX_WORKERS}])"
        )
    want = requested or cores
    n = max(1, min(want, batches, cores))
    small = n > 1 and cpu_seconds < LOCAL_BELOW_CPU_SECONDS
    if small:
        n = 1
    if requested and n < requested:
        if small:
            return 1, (
                f"--workers {requested}: the sweep's ~{_fmt_seconds(cpu_seconds)} of work runs "
                "in this process (starting worker processes would take longer)"
            )
        why = []
        if batches < requested:
            why.append(f"{batches} batch{'es' if batches != 1 else ''} of work")
        if cores < requested:
            why.append(f"{cores} core{'s' if cores != 1 else ''}")
        return n, f"--workers {requested} capped to {n} ({' and '.join(why)})"
    return n, None


def start_client(workers: int | None = None, scheduler: str | None = None, **kw: Any):
    """A ``distributed.Client``: on the scheduler at ``scheduler`` (``tcp://host:8786``, or
    ``scheduler_file=``), checked with :func:`connect`; or on a new ``LocalCluster`` of
    ``workers`` single-threaded worker processes (default: one per core).  Returns
    (client, cluster or None)."""
    if scheduler or kw.get("scheduler_file"):
        return connect(scheduler, **kw), None
    from distributed import Client, LocalCluster

    n = int(workers or local_cores())
    # the scheduler's HTTP port (8787, used by health checks) moves on silently when taken
    with _no_main_module(), _workers_ignore_interrupt(), warnings.catch_warnings():
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
def _workers_ignore_interrupt():
    """Worker processes started inside this block ignore SIGINT: a Ctrl-C (sent to the whole
    process group) reaches the command, which closes the cluster and says the sweep was
    interrupted, and not every worker, each of which printed a KeyboardInterrupt traceback
    first (QA pass 27: some 65 lines before the one-line message).  An ignored signal stays
    ignored in a spawned child, and Python installs its KeyboardInterrupt handler only where
    SIGINT is at its default.  Signals can be set from the main thread only: elsewhere (a
    Streamlit script thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, saved)


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


def _scheduler_address(scheduler: str | None, scheduler_file: str | None) -> tuple[str, str]:
    """(address, the flag it came from); a scheduler file is read here, so that a missing or
    malformed file is one line."""
    if scheduler:
        return scheduler, "--scheduler"
    flag = "--scheduler-file"
    try:
        with open(scheduler_file, encoding="utf-8") as fh:  # type: ignore[arg-type]
            doc = json.loads(fh.read(1_000_000))
        address = doc["address"]
        if not isinstance(address, str):
            raise TypeError
    except OSError as exc:
        raise ValidationError(
            flag, f"cannot read {_short(scheduler_file)}: {exc.strerror}"
        ) from None
    except (ValueError, KeyError, TypeError):
        raise ValidationError(
            flag, f"{_short(scheduler_file)} is not a Dask scheduler file (JSON with an 'address')"
        ) from None
    return address, flag


def _in_thread(fn, *args):
    """``fn(*args)`` in a thread of its own (``asyncio.run`` works there even when the caller
    runs an event loop, as a notebook does)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


async def _identity(address: str, timeout: float, security) -> dict:
    from distributed.comm import connect as comm_connect

    comm = await asyncio.wait_for(
        comm_connect(address, timeout=timeout, **security.get_connection_args("client")),
        timeout + 2.0,  # a refused or unreachable address: Dask's own error comes first
    )
    try:
        await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), timeout)
        return await asyncio.wait_for(comm.read(), timeout)
    finally:
        comm.abort()


def connect(
    scheduler: str | None = None,
    *,
    scheduler_file: str | None = None,
    connect_timeout: float | None = None,
    workers_timeout: float | None = None,
    security=None,
):
    """A ``distributed.Client`` on an existing scheduler, checked before any work.

    The address (or the scheduler file's) must answer Dask's identity request as a
    scheduler within ``connect_timeout`` seconds (an HTTP port or a closed one is refused
    in one line instead of hanging); the scheduler must have a worker within
    ``workers_timeout`` seconds; every worker must import ``goodput_lab`` at this version
    with the same Python and numpy (:func:`check_workers`).  TLS and authentication come
    from Dask's own configuration (``distributed.comm.tls.*``; docs/cluster.md) unless a
    ``distributed.security.Security`` is passed.
    """
    from distributed import Client
    from distributed.security import Security

    address, flag = _scheduler_address(scheduler, scheduler_file)
    t_conn = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
    t_work = WORKERS_TIMEOUT if workers_timeout is None else workers_timeout
    security = security or Security()
    shown = _short(address)
    if address.startswith("tls://") and not security.get_connection_args("client").get(
        "ssl_context"
    ):
        raise ValidationError(
            flag,
            f"{shown} needs TLS: set Dask's distributed.comm.tls.ca-file, .client.cert and "
            ".client.key (docs/cluster.md) or pass security=",
        )
    try:
        ident = _in_thread(asyncio.run, _identity(address, t_conn, security))
    except TimeoutError:
        raise ValidationError(
            flag, f"{shown} did not answer as a Dask scheduler within {t_conn:g} s"
        ) from None
    except Exception as exc:  # OSError, CommClosedError, a bad address (ValueError) ...
        raise ValidationError(
            flag, f"cannot connect to {shown} ({type(exc).__name__}: {_one(exc)})"
        ) from None
    if not isinstance(ident, dict) or ident.get("type") != "Scheduler":
        raise ValidationError(flag, f"{shown} answered, but not as a Dask scheduler")
    try:
        with warnings.catch_warnings():  # the version table: check_workers says it in one line
            warnings.simplefilter("ignore")
            client = Client(address, timeout=t_conn, security=security)
    except Exception as exc:
        raise ValidationError(
            flag, f"cannot connect to {shown} ({type(exc).__name__}: {_one(exc)})"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=t_work)
        except TimeoutError:
            raise ValidationError(
                flag, f"the scheduler at {shown} has no workers (waited {t_work:g} s)"
            ) from None
        check_workers(client, flag)
    except BaseException:
        client.close()
        raise
    return client


def _one(exc: BaseException) -> str:
    from goodput_lab.models.errors import cut, one_line

    return cut(one_line(str(exc)) or type(exc).__name__, 120)


#: Runs on each worker: pickled by value (its module is ``__main__``), so it works on a
#: worker that lacks goodput_lab.
_PROBE_SOURCE = """
def probe():
    import sys
    out = {"python": "%d.%d" % sys.version_info[:2]}
    try:
        import numpy
        out["numpy"] = numpy.__version__
    except Exception as exc:
        out["numpy"] = None
    try:
        import goodput_lab
        out["goodput_lab"] = goodput_lab.__version__
        import goodput_lab.models.sweep
    except Exception as exc:
        out["goodput_lab"] = None
        out["error"] = "%s: %s" % (type(exc).__name__, str(exc)[:120])
    return out
"""


def _probe_function():
    ns: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(_PROBE_SOURCE, "<goodput_lab worker probe>", "exec"), ns)
    return ns["probe"]


def worker_versions(client) -> dict[str, dict]:
    """``{worker address: {"python", "numpy", "goodput_lab", "error"?}}`` of every worker."""
    return client.run(_probe_function())


def check_workers(client, flag: str = "--scheduler") -> None:
    """Stop with one line naming the first worker that lacks goodput_lab, runs another
    version of it, or another Python (major.minor) or numpy (major) than this process."""
    import numpy

    mine = {
        "python": f"{sys.version_info[0]}.{sys.version_info[1]}",
        "numpy": numpy.__version__,
        "goodput_lab": package_version(),
    }
    try:
        found = worker_versions(client)
    except Exception as exc:
        raise ValidationError(
            flag, f"cannot ask the workers for their versions ({type(exc).__name__}: {_one(exc)})"
        ) from None
    for worker, v in sorted(found.items()):
        w = _short(worker)
        if v.get("goodput_lab") is None:
            why = v.get("error") or "ModuleNotFoundError"
            raise ValidationError(
                flag,
                f"worker {w} cannot import goodput_lab ({why[:120]}); install goodput-lab "
                f"{mine['goodput_lab']} on every worker",
            )
        if v["goodput_lab"] != mine["goodput_lab"]:
            raise ValidationError(
                flag,
                f"worker {w} runs goodput_lab {str(v['goodput_lab'])[:20]}, this process "
                f"{mine['goodput_lab']}; install the same version on every worker",
            )
        if v.get("python") != mine["python"]:
            raise ValidationError(
                flag,
                f"worker {w} runs Python {str(v.get('python'))[:10]}, this process {mine['python']}",
            )
        if str(v.get("numpy")).split(".")[0] != mine["numpy"].split(".")[0]:
            raise ValidationError(
                flag,
                f"worker {w} runs numpy {str(v.get('numpy'))[:20]}, this process {mine['numpy']} "
                "(the major versions differ)",
            )


def worker_count(client) -> int:
    return len(client.scheduler_info(n_workers=-1).get("workers", {}))


# --------------------------------------------------------------------------- the sweep
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


def estimate_cpu_seconds(
    spec: SweepSpec, columns: Mapping[str, np.ndarray], *, measure: bool = True
) -> float:
    """Estimated CPU seconds of the whole sweep on this machine (:func:`estimate_batches`
    summed, plus :data:`SWEEP_SECONDS`)."""
    return SWEEP_SECONDS + float(np.sum(estimate_batches(spec, columns, measure=measure)))


def estimate_batches(
    spec: SweepSpec, columns: Mapping[str, np.ndarray], *, measure: bool = True
) -> np.ndarray:
    """Estimated CPU seconds of each batch of the sweep on this machine.

    Analytic work at :data:`ANALYTIC_SECONDS_PER_POINT` per point and :data:`BATCH_SECONDS`
    per batch.  With trials, the simulator's work model
    (:func:`models.montecarlo.estimate_work`) at up to 64 points spread over the grid (every
    point of a smaller grid), its parts (loop passes, events, Weibull draws) weighted by
    what they measurably cost here (:func:`_measured_weights`: up to
    :data:`CALIBRATION_SECONDS` of CPU), interpolated between those points by their number.
    ``measure=False`` skips the measurement and uses the simulator's own constants (6-20x
    too high on the 2-core test machine).
    """
    n = spec.points
    if not n:
        return np.zeros(0)
    per = batch_points(n, spec.trials, spec.days)
    starts = np.arange(0, n, per)
    rows = np.minimum(starts + per, n) - starts
    seconds = BATCH_SECONDS + rows * ANALYTIC_SECONDS_PER_POINT
    if spec.trials:
        picks = np.unique(np.linspace(0, n - 1, min(n, 64)).round().astype(int))
        xs = []
        for i in picks:
            xi = dict(spec.inputs)
            xi.update({k: float(v[i]) for k, v in columns.items()})
            xs.append(xi)
        works = [_work(x, spec.trials, spec.days) for x in xs]
        if measure:
            parts = np.array([_parts(w) for w in works])
            weights = _measured_weights(xs, parts, spec.trials, spec.days, n)
            at_picks = parts @ np.asarray(weights)
        else:
            at_picks = np.array([w[0].seconds for w in works])
        each = np.interp(np.arange(n), picks, at_picks)
        seconds = seconds + np.add.reduceat(each, starts)
    return seconds


def makespan(costs: Sequence[float], workers: int) -> float:
    """Seconds until ``workers`` workers finish batches of these costs handed out in order,
    each to the first worker free (how a sweep's batches are submitted): the total over
    the workers, or more when a few batches dominate."""
    import heapq

    free = [0.0] * max(1, int(workers))
    for c in costs:
        heapq.heapreplace(free, free[0] + float(c))
    return max(free)


def _work(x: Mapping[str, Any], trials: int, days: float) -> tuple[Any, bool]:
    """(the simulator's work prediction for one point, whether it draws Weibull failures)."""
    from goodput_lab.models import montecarlo as mc

    p = mc.params_from_inputs(x)
    weibull = p.weibull_shape != 1.0 and p.node_rate_per_min > 0
    return mc.estimate_work(p, trials, days, grid_points=2), weibull


def _parts(work: tuple[Any, bool]) -> tuple[float, float, float]:
    """A work prediction in three parts, each in seconds at the simulator's own constants
    (loop passes all at the exponential loop's cost): (loop passes, per-trial events with
    their spare bookkeeping, per-node Weibull draws)."""
    from goodput_lab.models import montecarlo as mc

    w, weibull = work
    own_passes = w.loop_passes * (mc.SEC_PER_PASS_WEIBULL if weibull else mc.SEC_PER_PASS)
    draws = w.weibull_draws * mc.SEC_PER_WEIBULL_DRAW
    return w.loop_passes * mc.SEC_PER_PASS, max(0.0, w.seconds - own_passes - draws), draws


def _measured_weights(
    xs: Sequence[Mapping[str, Any]], parts: np.ndarray, trials: int, days: float, points: int
) -> tuple[float, ...]:
    """What one second of each part of :func:`_parts` costs in CPU seconds here.

    A few of the points ``xs`` (the median, then the quartiles of the predicted cost) are
    simulated with 1, 4, 16, 64 ... trials until a run takes :data:`CALIBRATION_RUN_SECONDS`
    or reaches the sweep's trials.  Small runs are mostly loop passes, large ones mostly
    events (or draws), so the weights come from a least-squares fit of all runs
    (:func:`_fit_weights`).  A run is not started when it is predicted to take the
    measuring past :data:`CALIBRATION_SECONDS`, or past :data:`CALIBRATION_SHARE` of the
    sweep as estimated so far (:data:`CALIBRATION_FLOOR` seconds may always be spent, and
    the first run is always made).
    """
    order = np.argsort(parts.sum(axis=1), kind="stable")
    last = len(order) - 1
    at = list(dict.fromkeys(round(q * last) for q in (0.5, 0.25, 0.75)))[:CALIBRATION_POINTS]
    _run_cpu_seconds(xs[int(order[0])], 1, min(days, 0.1))  # first-call costs, not counted
    rows: list[tuple[float, ...]] = []
    cpu: list[float] = []
    spent = 0.0
    for j in at:
        x = xs[int(order[j])]
        t = 1
        while True:
            part = _parts(_work(x, t, days))
            if cpu:
                w = np.asarray(_fit_weights(np.array(rows), np.array(cpu)))
                sweep = float(np.mean(parts @ w)) * points
                budget = max(CALIBRATION_FLOOR, CALIBRATION_SHARE * sweep)
                if spent + float(np.asarray(part) @ w) > min(CALIBRATION_SECONDS, budget):
                    break
            c = _run_cpu_seconds(x, t, days)
            spent += c
            rows.append(part)
            cpu.append(c)
            if t >= trials or (c >= CALIBRATION_RUN_SECONDS and len(cpu) >= 2):
                break
            t = min(trials, 4 * t)
    return _fit_weights(np.array(rows), np.array(cpu))


def _fit_weights(a: np.ndarray, b: np.ndarray) -> tuple[float, ...]:
    """Weights w ≥ 0 minimising Σ((a·w − b) / b)² over the runs (a row of :func:`_parts`
    and the measured CPU seconds b per run) plus a weak pull towards
    :data:`CALIBRATION_PRIOR` (a ridge of weight :data:`CALIBRATION_PRIOR_WEIGHT` on
    relative departures), so that a part the runs hardly exercise (the events of a few
    small runs, the draws of a scenario without Weibull failures) keeps its usual cost."""
    w0 = np.asarray(CALIBRATION_PRIOR, dtype=float)
    scale = 1.0 / np.maximum(b, 1e-9)
    aw, bw = a * scale[:, None], b * scale
    d = CALIBRATION_PRIOR_WEIGHT * np.diag(1.0 / w0**2)
    try:
        w = np.linalg.solve(aw.T @ aw + d, aw.T @ bw + d @ w0)
    except np.linalg.LinAlgError:
        w = w0
    if not np.all(np.isfinite(w)):
        w = w0
    return tuple(float(v) for v in np.maximum(w, 0.0))


def _run_cpu_seconds(x: Mapping[str, Any], trials: int, days: float) -> float:
    """CPU seconds of this process to simulate ``trials`` runs of one point, as
    :func:`models.sweep.evaluate_batch` does (the summary included)."""
    from goodput_lab.models.montecarlo import simulate_inputs

    t0 = time.process_time()
    simulate_inputs(
        x, trials, days, rng=np.random.default_rng(0), record_timeline=False, grid_points=2
    ).summary()
    return time.process_time() - t0


def _fmt_seconds(s: float) -> str:
    if s < 90:
        return f"{s:.0f} s" if s >= 10 else f"{s:.1f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


@dataclass
class _Plan:
    spec: SweepSpec
    out: Path
    columns: dict[str, np.ndarray]
    points: int
    per: int
    batches: int
    fp: str
    meta: dict[str, str]
    keep_parts: bool
    #: estimated CPU seconds of each batch still to evaluate (:func:`estimate_batches`)
    costs: dict[int, float] = field(default_factory=dict)

    def rows(self, b: int) -> int:
        return min(self.per, self.points - b * self.per)

    def span(self, b: int) -> tuple[int, int]:
        return b * self.per, min((b + 1) * self.per, self.points)

    @property
    def int_fields(self) -> tuple[str, ...]:
        """The varied integer fields: written as Int64 columns (their points are whole)."""
        from goodput_lab.models.fields import FIELDS

        return tuple(a.key for a in self.spec.axes if FIELDS[a.key].kind == "int")

    def typed(self, cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """``cols`` with the varied integer fields as int64 (for the Parquet files)."""
        for k in self.int_fields:
            cols[k] = np.rint(np.asarray(cols[k], dtype=float)).astype(np.int64)
        return cols


def run_sweep(
    spec: SweepSpec,
    output: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    scheduler_file: str | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    notify: Notify | None = None,
    stall_timeout: float | None = None,
    connect_timeout: float | None = None,
    workers_timeout: float | None = None,
    security=None,
    replace: bool = False,
) -> SweepSummary:
    """Run the sweep and write one Parquet row per point to ``output``.

    Where the batches run: ``client`` (your own ``distributed.Client``, left open), else the
    scheduler at ``scheduler`` or in ``scheduler_file`` (:func:`connect`: timeouts and the
    workers' versions checked), else ``workers`` local processes (default one per core,
    capped to the batches and the cores; with one, the batches run in this process without
    Dask).  Results do not depend on which.

    An output that already holds this very sweep (same fingerprint, every row) is left as it
    is and nothing is evaluated.  An output that holds anything else (another sweep, another
    file) is refused before anything is written or removed, as ``goodput sweep`` refuses it
    without ``--force``; with ``replace=True`` it is replaced when the sweep finishes, with a
    line saying so.

    ``progress(points_done, points)`` is called as batches finish (resumed ones first);
    when ``progress`` has a ``work`` method, ``progress.work(done, total)`` is called just
    before, with the estimated CPU seconds of the batches evaluated so far and of all the
    batches to evaluate (batches differ in cost: the time left follows the work);
    ``notify(line)`` receives one-line notices (capped workers, the time estimate, parts
    evaluated again).  ``stall_timeout``: seconds without a finished batch after which a
    cluster sweep stops and names the stuck batches (default :data:`STALL_TIMEOUT`).

    Raises :class:`ValidationError` (bad sizes, an output that cannot be written, that
    another sweep is writing or, with ``replace=False``, that holds something else, a
    foreign sidecar, an unreachable or mismatched cluster) before any evaluation, and
    :class:`SweepError` when a started sweep cannot finish.  The output's Parquet metadata
    holds :meth:`SweepSpec.description` under :data:`METADATA_KEY`.
    """
    say = notify or (lambda line: None)
    out = check_output(output)
    points = check_axes(spec.axes, spec.trials)
    columns = grid(spec.axes)
    check_trials(spec, columns)
    per = batch_points(points, spec.trials, spec.days)
    batches = math.ceil(points / per)
    remote = client is not None or bool(scheduler) or bool(scheduler_file)
    if not remote:
        plan_workers(workers, batches)  # a bad request is refused before the lock
    desc = spec.description()
    plan = _Plan(
        spec=spec,
        out=out,
        columns=columns,
        points=points,
        per=per,
        batches=batches,
        fp=desc["fingerprint"],
        meta={METADATA_KEY: json.dumps(desc, sort_keys=True)},
        keep_parts=bool(spec.trials),
    )
    with OutputLock(out):
        complete = not parts_dir(out).exists() and _output_complete(plan)
        if not complete:
            _other_output(plan, output, desc, replace, say)  # refused before any change
        _remove_stale_tmp(out.parent, glob.escape(out.name) + ".*.tmp")
        done, healed = (set(range(batches)), 0) if complete else _resume(plan, say, replace)
        if complete:
            say(
                f"sweep: {out.name} already holds this sweep's {points:,} points (the same "
                "results); nothing to evaluate"
            )
        resumed = sum(plan.rows(b) for b in done)
        todo = [b for b in range(batches) if b not in done]
        costs = np.zeros(0)
        cpu_todo = 0.0
        n_local = 0
        if todo and not remote:
            costs = estimate_batches(spec, columns)[todo]
            cpu_todo = SWEEP_SECONDS + float(costs.sum())
            n_local, capped = plan_workers(workers, len(todo), cpu_todo)
            if capped:
                say(capped)
        results = _Rows(points)
        t_cluster = seconds = estimate = 0.0
        n_workers = 0
        engine = "none"
        own = None
        owned_client = client is None
        try:
            if todo and remote:  # reached and checked before the estimate and any work
                t0 = time.perf_counter()
                if not owned_client:
                    check_workers(client, "client")
                else:
                    client = connect(
                        scheduler,
                        scheduler_file=scheduler_file,
                        connect_timeout=connect_timeout,
                        workers_timeout=workers_timeout,
                        security=security,
                    )
                t_cluster = time.perf_counter() - t0
                n_workers = worker_count(client)
            elif todo:
                n_workers = n_local
            if todo:
                if remote:  # the cluster is checked before the measuring
                    costs = estimate_batches(spec, columns)[todo]
                    cpu_todo = SWEEP_SECONDS + float(costs.sum())
                estimate = SWEEP_SECONDS + makespan(costs, n_workers)
                plan.costs = {b: float(c) for b, c in zip(todo, costs, strict=True)}
                if not remote and n_local == 1:
                    where = "in this process"
                else:
                    where = f"on {n_workers} worker{'s' if n_workers != 1 else ''}"
                    if not remote:
                        estimate += LOCAL_CLUSTER_START_SECONDS
                        where += " (their start included)"
                say(
                    f"sweep: {points - resumed:,} points"
                    + (f" x {spec.trials:,} trials" if spec.trials else " (analytic)")
                    + f": an estimated {_fmt_seconds(cpu_todo)} of CPU"
                    + (" (timed on this machine)" if spec.trials else "")
                    + f", about {_fmt_seconds(estimate)} {where}"
                )
            if progress is not None:
                _work_done(progress, plan, 0.0)
                progress(resumed, points)
            if todo and plan.keep_parts:
                _make_parts_dir(plan)
            if todo and not remote and n_local == 1:
                engine = "local"
                seconds = _evaluate_here(plan, todo, results, resumed, progress)
            elif todo:
                engine = "dask"
                if client is None:
                    t0 = time.perf_counter()
                    client, own = start_client(n_local)
                    t_cluster = time.perf_counter() - t0
                    n_workers = worker_count(client)
                seconds = _evaluate_dask(
                    client, plan, todo, results, resumed, progress, stall_timeout
                )
        finally:
            if owned_client and client is not None:
                client.close()
            if own is not None:
                own.close()
        if not complete:
            _merge(plan, results, done)
    return SweepSummary(
        engine=engine,
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
        output=str(output),
        varied_fields=[a.key for a in spec.axes],
        estimated_seconds=estimate,
        fingerprint=plan.fp,
        parts_healed=healed,
        written=not complete,
    )


def _other_output(
    plan: _Plan, typed: str | Path, desc: Mapping[str, Any], replace: bool, say: Notify
) -> None:
    """An output file that holds something other than this sweep: refused (one line naming
    it as ``typed`` and how to go on) unless ``replace``, then a line says it will be
    replaced.  Called with the lock held and before anything is written or removed."""
    out = plan.out
    if not (out.exists() or out.is_symlink()):
        return
    old = output_description(out) if out.is_file() else None
    if isinstance(old, dict) and old.get("fingerprint") == plan.fp:
        return  # this sweep, incomplete or damaged: written again, the same rows
    if isinstance(old, dict):
        what = f"a finished sweep of {_difference(old, desc)}"
    else:
        what = "a file that is not a goodput sweep's output"
    if not replace:
        raise ValidationError(
            "-o",
            f"{_short(typed)} holds {what}; choose another -o, or add --force to replace it",
        )
    say(f"sweep: {out.name} holds {what}; it is replaced when this sweep finishes")


def _difference(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """What sets another sweep's description ``old`` apart from ``new``, in a few words."""

    def shown(v: Any) -> str:
        return (", ".join(map(str, v)) if isinstance(v, list) else str(v))[:120]

    if old.get("grid") != new.get("grid"):
        return f"another grid ({shown(old.get('grid'))}; this one {shown(new.get('grid'))})"
    for key, name in (
        ("scenario", "scenario"),
        ("trials", "number of trials"),
        ("days", "horizon in days"),
        ("seed", "seed"),
        ("version", "goodput_lab version"),
    ):
        if old.get(key) != new.get(key):
            return (
                f"the same grid with another {name} ({shown(old.get(key))}; this one "
                f"{shown(new.get(key))})"
            )
    return "the same grid with other inputs (--set, --catalog or the shipped data)"


def _output_complete(plan: _Plan) -> bool:
    """Whether the output already holds this very sweep (same fingerprint, every row)."""
    import polars as pl

    if plan.out.is_symlink() or not plan.out.is_file():
        return False
    desc = output_description(plan.out)
    if desc is None or desc.get("fingerprint") != plan.fp:
        return False
    try:
        return pl.scan_parquet(plan.out).select(pl.len()).collect().item() == plan.points
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        return False


def _make_parts_dir(plan: _Plan) -> None:
    side = parts_dir(plan.out)
    if side.is_symlink() or (side.exists() and not side.is_dir()):
        raise ValidationError("-o", f"{_short(side)} is not a folder (a link is not followed)")
    if not side.exists():
        side.mkdir()
    manifest = side / MANIFEST
    if not manifest.is_file() or manifest.is_symlink():
        _write_text(json.dumps({"fingerprint": plan.fp, "batches": plan.batches}), manifest)


def _expected_columns(plan: _Plan) -> list[str]:
    """The column names of a batch, in order (from one analytic point, ~1 ms)."""
    from goodput_lab.models.sweep import MC_COLUMNS

    one = evaluate_batch(
        plan.spec.inputs, {k: v[:1] for k, v in plan.columns.items()}, np.arange(1)
    )
    names = list(one)
    return names + list(MC_COLUMNS) if plan.spec.trials else names


def _resume(plan: _Plan, say: Notify, replace: bool = False) -> tuple[set[int], int]:
    """Batches already finished by an interrupted run of the same sweep, after checking
    each part reads back whole (a damaged one is removed, to be evaluated again, with a
    line saying so); a sidecar of another sweep is refused, or with ``replace`` (``--force``)
    removed with a line saying so (QA pass 19: --force did not clear it).  Returns
    (batches, healed)."""
    side = parts_dir(plan.out)
    if side.is_symlink():
        raise ValidationError("-o", f"{_short(side)} is a symbolic link; it is not followed")
    if not side.exists():
        return set(), 0
    if not side.is_dir():
        raise ValidationError("-o", f"{_short(side)} is not a folder")
    try:
        raw = (side / MANIFEST).read_text(encoding="utf-8")
        doc = json.loads(raw) if raw.strip() else None
    except FileNotFoundError:
        doc = None
    except (OSError, ValueError, UnicodeDecodeError):
        doc = None
    if isinstance(doc, dict) and doc.get("fingerprint") not in (None, plan.fp):
        if not replace:
            raise ValidationError(
                "-o",
                f"{_short(side)} holds partial results of a different sweep; delete it, "
                "choose another output, or add --force to replace them",
            )
        import shutil

        shutil.rmtree(side)
        say(f"sweep: {side.name} held partial results of a different sweep; removed (--force)")
        return set(), 0
    _remove_stale_tmp(side, "*.tmp")
    expected = _expected_columns(plan)
    done, healed = set(), 0
    for p in sorted(side.glob(PART_GLOB)):
        try:
            b = int(p.stem.split("-")[1])
        except (IndexError, ValueError):
            continue
        if not 0 <= b < plan.batches:
            continue
        why = _part_problem(p, plan, b, expected)
        if why is None:
            done.add(b)
            continue
        healed += 1
        pts = with_unit(f"{plan.rows(b):,}", "points")
        say(f"sweep: {p.name} in {side.name} {why}; evaluating its {pts} again")
        with contextlib.suppress(OSError):
            if p.is_dir() and not p.is_symlink():
                import shutil

                shutil.rmtree(p)
            else:
                p.unlink()
    return done, healed


def _part_problem(path: Path, plan: _Plan, b: int, expected: list[str]) -> str | None:
    """Why part ``b`` cannot be used (None when it reads back whole and belongs here)."""
    import polars as pl

    if path.is_symlink() or not path.is_file():
        return "is not a regular file"
    if path.stat().st_size == 0:
        return "is empty"
    try:
        desc = output_description(path)
        frame = pl.read_parquet(path)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        return "does not read back (truncated or damaged)"
    if desc is None or desc.get("fingerprint") != plan.fp:
        return "belongs to another sweep"
    if frame.columns != expected:
        return "has the wrong columns"
    lo, hi = plan.span(b)
    if frame.height != hi - lo:
        return f"has {frame.height:,} rows instead of {hi - lo:,}"
    point = frame["point"]
    if point.dtype != pl.Int64 or not np.array_equal(point.to_numpy(), np.arange(lo, hi)):
        return "holds other points"
    ints = set(plan.int_fields)
    for c in expected[1:]:
        allowed = (pl.Int64, pl.Float64) if c in ints else (pl.Float64,)
        if frame[c].dtype not in allowed:
            return "has columns of the wrong type"
    return None


def _batch_args(plan: _Plan, b: int) -> tuple:
    lo, hi = plan.span(b)
    return (
        plan.spec.inputs,
        {k: v[lo:hi] for k, v in plan.columns.items()},
        np.arange(lo, hi),
    )


class _Rows:
    """The sweep's rows, filled batch by batch into columns allocated once (at the first
    batch): memory stays at the output's size plus one batch, as a single evaluation's."""

    def __init__(self, points: int) -> None:
        self.points = points
        self.cols: dict[str, np.ndarray] | None = None

    def put(self, lo: int, batch: Mapping[str, np.ndarray]) -> None:
        if self.cols is None:
            self.cols = {
                k: np.empty(self.points, dtype=np.asarray(v).dtype) for k, v in batch.items()
            }
        for k, col in self.cols.items():
            v = batch[k]
            col[lo : lo + len(v)] = v


def _finished(plan: _Plan, b: int, result: dict, results: _Rows) -> None:
    results.put(plan.span(b)[0], result)
    if plan.keep_parts:
        import polars as pl

        part = parts_dir(plan.out) / f"part-{b:06d}.parquet"
        try:
            _write_parquet(pl.DataFrame(plan.typed(dict(result))), part, plan.meta)
        except OSError as exc:
            raise SweepError("-o", f"cannot write {_short(part)}: {exc.strerror}") from None


def _work_done(progress, plan: _Plan, done: float) -> None:
    """Tell a progress display that has a ``work`` method how much of the estimated work is
    done (see :func:`run_sweep`)."""
    work = getattr(progress, "work", None)
    if callable(work) and plan.costs:
        work(done, sum(plan.costs.values()))


def _evaluate_here(plan, todo, results, resumed, progress) -> float:
    t0 = time.perf_counter()
    spec = plan.spec
    done_points, done_work = resumed, 0.0
    for b in todo:
        result = evaluate_batch(
            *_batch_args(plan, b), trials=spec.trials, days=spec.days, seed=spec.seed
        )
        _finished(plan, b, result, results)
        done_points += plan.rows(b)
        done_work += plan.costs.get(b, 0.0)
        if progress is not None:
            _work_done(progress, plan, done_work)
            progress(done_points, plan.points)
    return time.perf_counter() - t0


def _evaluate_dask(client, plan, todo, results, resumed, progress, stall_timeout) -> float:
    from distributed import wait

    spec = plan.spec
    stall = STALL_TIMEOUT if stall_timeout is None else float(stall_timeout)
    t0 = time.perf_counter()
    futures = {}
    for b in todo:
        fut = client.submit(
            evaluate_batch,
            *_batch_args(plan, b),
            trials=spec.trials,
            days=spec.days,
            seed=spec.seed,
            pure=False,
        )
        futures[fut] = b
    pending = set(futures)
    done_points, done_work = resumed, 0.0
    if progress is not None:  # the workers are up: a time-left estimate counts from here,
        _work_done(progress, plan, 0.0)  # not from before the cluster started
        progress(done_points, plan.points)
    try:
        while pending:
            try:
                finished, pending = wait(pending, timeout=stall, return_when="FIRST_COMPLETED")
            except TimeoutError:
                raise SweepError(
                    "--stall-timeout", _stuck(client, futures, pending, stall)
                ) from None
            for fut in sorted(finished, key=futures.get):
                b = futures[fut]
                if fut.status == "error":
                    exc = fut.exception()
                    raise SweepError(
                        "sweep", f"batch {b} failed on a worker: {type(exc).__name__}: {_one(exc)}"
                    )
                if fut.status != "finished":
                    raise SweepError("sweep", f"batch {b} was {fut.status} (a worker was lost?)")
                result = fut.result()
                fut.release()
                _finished(plan, b, result, results)
                done_points += plan.rows(b)
                done_work += plan.costs.get(b, 0.0)
                if progress is not None:
                    _work_done(progress, plan, done_work)
                    progress(done_points, plan.points)
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        raise
    return time.perf_counter() - t0


def _stuck(client, futures: Mapping, pending: set, stall: float) -> str:
    """'no batch finished in 600 s; stuck: batch 3 (processing on tcp://...), batch 5
    (waiting) ...' for the stall error."""
    where: dict[str, str] = {}
    with contextlib.suppress(Exception):
        for worker, keys in client.processing().items():
            for k in keys:
                where[str(k)] = worker
    names = []
    for fut in sorted(pending, key=futures.get)[:6]:
        w = where.get(str(fut.key))
        names.append(f"batch {futures[fut]} ({'running on ' + w if w else fut.status})")
    more = f" and {len(pending) - 6} more" if len(pending) > 6 else ""
    try:
        n = worker_count(client)
    except Exception:
        n = 0
    return (
        f"no batch finished in {stall:g} s ({n} worker{'s' if n != 1 else ''} connected); "
        f"stuck: {', '.join(names)}{more}; finished batches are kept, run the same command "
        "to resume"
    )


def _merge(plan: _Plan, results: _Rows, done: set[int]) -> None:
    """All batches into the output, in point order, with the sweep's description in the
    metadata; the parts folder is removed once the output is in place."""
    import polars as pl

    for b in sorted(done):
        part = parts_dir(plan.out) / f"part-{b:06d}.parquet"
        try:
            batch = {k: s.to_numpy() for k, s in pl.read_parquet(part).to_dict().items()}
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            raise SweepError(
                "-o", f"{_short(part)} stopped reading back during the merge; run again"
            ) from None
        results.put(plan.span(b)[0], batch)
    cols, results.cols = results.cols, None
    frame = pl.DataFrame(plan.typed(cols))  # float and integer columns: no copy
    del cols
    try:
        _write_parquet(frame, plan.out, plan.meta)
    except OSError as exc:
        raise SweepError("-o", f"cannot write {_short(plan.out)}: {exc.strerror}") from None
    side = parts_dir(plan.out)
    if side.is_dir() and not side.is_symlink():
        import shutil

        shutil.rmtree(side, ignore_errors=True)


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
