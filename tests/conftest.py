"""Shared fixtures: paths, presets, the catalog, a seeded RNG."""

from __future__ import annotations

from pathlib import Path

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
