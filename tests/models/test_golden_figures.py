"""Golden figures (issue 26): every preset's `goodput evaluate` figures are those of
tests/golden/figures.json, and the figures of other views that the issue's listed defects
moved are documented there with their value before and after and why.

A change that moves a figure fails here until tests/golden/figures.json says so: regenerate
its ``evaluate`` section with ``scripts/golden_figures.py`` and add the figure to ``moved``
with its reason.
"""

from __future__ import annotations

import importlib.util
import json
import math

import pytest

from tests.conftest import ROOT

GOLDEN = json.loads((ROOT / "tests" / "golden" / "figures.json").read_text())


def _script():
    spec = importlib.util.spec_from_file_location(
        "golden_figures", ROOT / "scripts" / "golden_figures.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def now():
    return _script().evaluate_figures()


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)


def test_every_presets_evaluate_figures_are_golden(now):
    assert set(now) == set(GOLDEN["evaluate"])  # every preset of data/scenarios
    for preset, figures in now.items():
        want = GOLDEN["evaluate"][preset]
        assert set(figures) == set(want), (preset, set(figures) ^ set(want))
        moved = [k for k in figures if not _same(figures[k], want[k])]
        assert not moved, (preset, {k: (want[k], figures[k]) for k in moved})


def test_new_keys_are_registered_chain_outputs(now):
    from goodput_lab.models.outputs import OUTPUTS

    for key, why in GOLDEN["new_keys"].items():
        assert why and OUTPUTS[key].computed_by, key
        assert all(key in figures for figures in now.values()), key


def test_moved_figures_say_why_and_did_move():
    assert len(GOLDEN["moved"]) >= 8
    for m in GOLDEN["moved"]:
        assert m["why"].startswith("item "), m["figure"]
        b, a = m["before"], m["after"]
        assert a is not None and math.isfinite(a), m["figure"]
        assert b is None or abs(a - b) > 1e-9 * max(abs(a), abs(b)), m["figure"]


def test_moved_and_unchanged_figures_of_the_monte_carlo_and_the_ranking_are_the_codes():
    """The cheap ones recomputed here; the ladder's and the plan's have their own tests
    (tests/models/test_resilience.py, tests/dashboard/test_plan_page.py,
    tests/models/test_pricing.py)."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import rank_instances
    from goodput_lab.models.montecarlo import simulate

    from goodput_lab.views import montecarlo as mc_svc

    want = {m["figure"]: m["after"] for m in GOLDEN["moved"]} | GOLDEN["unchanged"]
    cat = load_catalog()
    s = load_preset("aws-16k-h100")
    page = mc_svc.run(mc_svc.params(s, cat), 1000, 30.0, 0).summary()
    cli = simulate(s, 1000, 30.0, rng=0, catalog=cat).summary()
    for k in ("goodput_p5", "goodput_mean", "lost_p95_usd_per_month"):
        assert page[k] == pytest.approx(want[f"montecarlo_page.aws-16k-h100.{k}"], rel=1e-12)
        assert cli[k] == pytest.approx(want[f"simulate.aws-16k-h100.{k}"], rel=1e-12)
        assert page[k] == cli[k]  # the page is the command
    row = rank_instances(s, cat).row("p5.48xlarge")
    assert row.cost_to_train_usd == pytest.approx(
        want["instances.aws-16k-h100.own_cost_to_train_usd"], rel=1e-12
    )
