"""Shared fixtures: paths, presets, the catalog, a seeded RNG."""

from __future__ import annotations

import fcntl
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from goodput_lab.models import Scenario, load_catalog, load_preset

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
SCENARIOS = DATA_DIR / "scenarios"
APP = ROOT / "dashboard" / "app.py"


@pytest.fixture(scope="session")
def catalog():
    return load_catalog()


@pytest.fixture
def headline_baseline() -> Scenario:
    return load_preset("aws-16k-h100")


@pytest.fixture
def headline_improved() -> Scenario:
    return load_preset("aws-16k-h100-improved")


@pytest.fixture
def rng():
    return np.random.default_rng(20261202)


def built_once(tmp_path_factory, name: str, build: Callable[[], Any]) -> Any:
    """``build()``'s result, built by one pytest-xdist worker and read back by the others.

    The first worker to ask builds it under an exclusive lock in the run's shared base
    directory and pickles it there; the others wait on the lock and unpickle it.  For
    fixtures whose building dominates their tests (the printed PDFs of every preset: a
    minute of Chromium each time), which xdist would otherwise build once per worker.
    """
    root = tmp_path_factory.getbasetemp()
    if root.name.startswith("popen-gw"):  # under xdist: one folder per worker, shared parent
        root = root.parent
    path = root / f"{name}.pickle"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if path.is_file():
                return pickle.loads(path.read_bytes())
            value = build()
            path.write_bytes(pickle.dumps(value))
            return value
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


#: QA pass 21's short run log: 18 minutes, steps end at 5 and 10 min, a failure at 6,
#: restore 8-9, then 8 idle minutes before job_end (productive 6 min, badput 12: restore 1,
#: recovery 2, rework 1, other 8).
SHORT_RUN_LOG = b"""timestamp,event,step,node_id
2025-03-01T00:00:00Z,job_start,,
2025-03-01T00:05:00Z,step_end,1,
2025-03-01T00:06:00Z,failure,,n7
2025-03-01T00:08:00Z,restore_start,1,
2025-03-01T00:09:00Z,restore_end,1,
2025-03-01T00:10:00Z,step_end,2,
2025-03-01T00:18:00Z,job_end,,
"""
