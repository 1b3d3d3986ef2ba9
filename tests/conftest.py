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
