"""The badput mapping (models/badput.py) against Google's ml-goodput-measurement, installed
as a test dependency: the names the models use are the library's own enum member names, and
every predicted loss lands in exactly one bucket."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from goodput_lab.models import badput as bp
from goodput_lab.models.outputs import LOSS_COMPONENTS

goodput_utils = pytest.importorskip("ml_goodput_measurement.src.goodput_utils")
LIBRARY_NAMES = {m.name for m in goodput_utils.BadputType}


def test_google_names_are_the_librarys():
    assert set(bp.GOOGLE_BADPUT) <= LIBRARY_NAMES


def test_our_buckets_are_not_the_librarys():
    assert not set(bp.OUR_BADPUT) & LIBRARY_NAMES
    assert not {b.upper() for b in bp.OUR_BADPUT} & LIBRARY_NAMES


def test_every_loss_component_maps_to_one_bucket():
    assert set(bp.COMPONENT_BADPUT) == set(LOSS_COMPONENTS)
    assert set(bp.COMPONENT_BADPUT.values()) <= set(bp.BADPUT_BUCKETS)
    assert set(bp.BADPUT_LABELS) == set(bp.BADPUT_BUCKETS)


def test_timeline_buckets_partition_the_badput_buckets():
    from goodput_lab.models.timeline import BUCKETS

    assert set(bp.TIMELINE_BADPUT) == set(BUCKETS)
    held = [b for group in bp.TIMELINE_BADPUT.values() for b in group]
    assert sorted(held) == sorted(b for b in bp.BADPUT_BUCKETS if b != "idle_spares")


def test_minutes_sum_per_bucket():
    comps = dict.fromkeys(LOSS_COMPONENTS, 1.0)
    out = bp.badput_minutes_per_day(comps)
    assert sum(out.values()) == pytest.approx(len(LOSS_COMPONENTS))
    # detection, replacement and Spot notices are the infrastructure's recovery
    assert out["INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION"] == 3.0
    assert out["WASTED_PROGRESS_FROM_DISRUPTION"] == 4.0
    usd = bp.badput_usd_per_day(comps, 5.0)
    assert usd["idle_spares"] == 5.0


def test_models_do_not_import_the_library():
    """The mapping is checked here; the models never import ml_goodput_measurement."""
    root = Path(bp.__file__).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.startswith("ml_goodput_measurement") for n in names), path.name
