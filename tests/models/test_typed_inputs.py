"""Typed inputs (issue 26, item 1): resolve_inputs returns frozen per-section objects built
from the field registry, and the simulator's parameters come from the chain's results and
those sections, with no defaults of the simulator's own."""

from __future__ import annotations

import dataclasses
import math
import pickle

import numpy as np
import pytest
from goodput_lab.models import Scenario, evaluate_arrays, load_preset, resolve_inputs
from goodput_lab.models.fields import FIELDS
from goodput_lab.models.inputs import Inputs, MissingInput, as_inputs, required_keys
from goodput_lab.models.montecarlo import params_from_inputs
from goodput_lab.models.scenario import preset_paths

PRESETS = sorted(preset_paths())
#: a price for the presets whose node type has none in the catalog (on premises)
PRICE = {
    "pricing.usd_per_instance_hour": 30.0,
    "pricing.price_source": "test",
    "pricing.price_as_of": "2025-01",
}
#: every optional failure class and recovery feature on, so that none of the simulator's
#: parameters is an absent term
ALL_ON = {
    "checkpoint.strategy": "memory+durable",
    "pricing.model": "spot",
    **PRICE,
    "network.fabric_events_per_day": 2.0,
    "cluster.spare_nodes": 8,
    "cluster.spare_domains": 1,
    # domains of two nodes at least: a domain of one node (an 8-GPU server) has no domain
    # events of its own (models.chain._domain_events_per_day)
    "cluster.nodes_per_domain": 2,
    "reliability.domain_failure_rate_per_day": 0.001,
    "reliability.switch_failure_rate_per_day": 0.001,
    "reliability.job_interruptions_per_day": 0.2,
    "reliability.fail_slow_rate_per_day": 0.0005,
    "recovery.comm_init_seconds_per_gpu": 0.01,
    "recovery.retry_success_fraction": 0.8,
    "checkpoint.validation": "fallback",
    "checkpoint.corrupt_fraction": 0.01,
    "resilience.straggler_slowdown": 0.05,
    "resilience.overhead_fraction": 0.02,
}


def _scenario(preset: str, updates=None):
    s = load_preset(preset)
    try:
        resolve_inputs(s)
    except Exception:  # no catalog price (a reference system): enter one
        s = s.replace(PRICE)
    return s.replace(updates or {})


@pytest.fixture(scope="module")
def resolved():
    return {p: resolve_inputs(_scenario(p)) for p in PRESETS}


def test_every_registry_field_is_a_section_attribute_equal_to_its_key(resolved):
    for preset, x in resolved.items():
        assert isinstance(x, Inputs)
        for key in required_keys():
            section, name = key.split(".", 1)
            got, want = getattr(getattr(x, section), name), x[key]
            assert got is want or (got != got and want != want), (preset, key)
        # registry order, the derived values after them
        names = [f.name for f in dataclasses.fields(x.checkpoint)]
        assert names[: len(names) - 1] == [
            k.split(".", 1)[1]
            for k, f in FIELDS.items()
            if k.startswith("checkpoint.") and f.kind != "str"
        ]
        assert names[-1] == "interval_optimal"


def test_derived_values_are_resolved_once():
    """'optimal' is NaN plus a flag; an empty optional number is NaN; the price in force,
    the node type's specs, the tier table and the storage prices are sections."""
    x = resolve_inputs(Scenario.default().replace({"checkpoint.interval_minutes": "optimal"}))
    assert math.isnan(x.checkpoint.interval_minutes) and x.checkpoint.interval_optimal is True
    assert FIELDS["cluster.nodes_per_domain"].default is None
    assert math.isnan(x.cluster.nodes_per_domain)
    # the catalog's price in force, with its date
    assert x.pricing.usd_per_instance_hour == x.pricing.price.usd_per_instance_hour == 55.04
    assert x.pricing.price.origin == "catalog"
    assert x.instance.accelerators_per_node == 8  # p5.48xlarge
    assert x.tier.shared_fs.provisioned_TiB == x["tier.shared_fs.provisioned_TiB"] == 100.0
    assert x.storage.fsx_usd_per_GB_month == x["storage.fsx_usd_per_GB_month"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        x.cluster.nodes = 1
    with pytest.raises(AttributeError, match="no input section 'clusters'"):
        _ = x.clusters


def test_sections_hold_arrays_as_given_and_follow_writes():
    x = resolve_inputs(_scenario("aws-16k-h100"))
    nodes = np.array([100.0, 2000.0, 4000.0])
    y = x.replace({"cluster.nodes": nodes})
    assert y.cluster.nodes is nodes  # no per-scenario copy or conversion
    assert x.cluster.nodes == 2000  # replace leaves the original alone
    x["cluster.nodes"] = 500  # a write (still allowed in the transition) drops the sections
    assert x.cluster.nodes == 500
    back = pickle.loads(pickle.dumps(y))
    assert isinstance(back, Inputs) and back.cluster.nodes.tolist() == nodes.tolist()
    assert as_inputs(y) is y and as_inputs(dict(y)).cluster.spare_nodes == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_simulator_params_are_the_chains_figures(preset):
    """Every preset, every optional class on: the simulator's save, restore, interval,
    rates, price and storage are the figures evaluate_arrays reports (to the bit)."""
    x = resolve_inputs(_scenario(preset, ALL_ON))
    m = {k: float(np.asarray(v)) for k, v in evaluate_arrays(x).items() if np.ndim(v) == 0}
    p = params_from_inputs(x)
    day = 1440.0
    assert p.seg_save == m["save_seconds"] / 60.0
    validation = x.checkpoint.validation_seconds / 60.0  # validated restores read it back
    assert p.memory_restore == m["restore_seconds"] / 60.0 + validation
    assert p.restore == m["durable_restore_seconds"] / 60.0 + validation
    assert p.seg_compute == p.interval_minutes == m["checkpoint_interval_minutes"]
    assert p.durable_ratio == max(1.0, m["durable_interval_minutes"] / p.seg_compute)
    assert p.durable_extra_save == m["durable_save_seconds"] / 60.0
    assert p.p_fallback == m["fallback_fraction"]
    assert p.spot_rate_per_min == m["spot_interruptions_per_day"] / day > 0
    assert p.spot_saved == (m["spot_save_fits_notice"] > 0.5)
    assert p.domain_rate_per_min == m["domain_failures_per_day"] / day > 0
    assert p.switch_rate_per_min == m["switch_failures_per_day"] / day > 0
    assert p.job_rate_per_min == m["job_interruptions_per_day"] / day > 0
    assert p.slow_rate_per_min == m["fail_slow_events_per_day"] / day > 0
    assert p.domains == round(m["scaleup_domains"])
    assert p.restart == x.recovery.restart_minutes + m["comm_init_minutes"]
    assert p.cluster_usd_per_min == x.cluster.nodes * m["usd_per_instance_hour_effective"] / 60
    assert p.storage_usd_per_min == m["storage_usd_per_day"] / day
    assert p.goodput_analytic == m["goodput"]
    assert p.lost_usd_per_month == m["lost_usd_per_month"]
    assert p.work_factor == pytest.approx((1 - 0.05) * (1 - 0.02), abs=0)
    assert p.corrupt_loop == 0.0  # validated checkpoints: no restart loop


def test_schema_defaults_reach_the_simulator_not_its_own():
    """The simulator used to default correlated nodes to 1 (the schema says 8) and ten
    fields to 0.0; now it reads the resolved value."""
    x = resolve_inputs(_scenario("aws-16k-h100", {"checkpoint.correlated_fraction": 0.1}))
    assert FIELDS["checkpoint.correlated_nodes"].default == 8
    assert params_from_inputs(x).corr_nodes == 8


@pytest.mark.parametrize(
    "key",
    [
        "checkpoint.correlated_nodes",
        "checkpoint.rereplication_minutes",
        "reliability.domain_repair_hours",
        "simulation.recovery_spread",
        "recovery.hang_detection_minutes",
        "resilience.sdc_detection_minutes",
        "network.reroute_seconds",
    ],
)
def test_a_key_missing_from_the_inputs_is_an_error_naming_it(key):
    x = dict(resolve_inputs(_scenario("aws-16k-h100")))
    del x[key]
    with pytest.raises(MissingInput, match=key.replace(".", r"\.")):
        params_from_inputs(x)


def test_the_chain_reads_sections_as_it_reads_keys():
    """models.chain.section: the failure step's reading of a section is number()/choice()
    of its keys (registry default where a hand-built mapping leaves one out); a name the
    registry lacks, or a write, is an error naming the key."""
    from goodput_lab.models.chain import choice, number, section
    from goodput_lab.models.choices import PricingModel

    x = resolve_inputs(Scenario.default())
    rc = section(x, "recovery")
    assert rc.restart_minutes == number(x, "recovery.restart_minutes")
    assert section(x, "pricing").model is choice(x, "pricing.model") is PricingModel.ON_DEMAND
    assert section({}, "checkpoint").correlated_nodes == 8.0  # the registry's default
    with pytest.raises(AttributeError, match=r"recovery\.restart_minute "):
        _ = rc.restart_minute
    with pytest.raises(AttributeError, match=r"recovery\.restart_minutes"):
        rc.restart_minutes = 1.0
    with pytest.raises(KeyError, match="recover"):
        section(x, "recover")


def test_no_simulator_parameter_is_left_to_its_dataclass_default(monkeypatch):
    """params_from_inputs sets every SimulationParams field from the chain or the inputs
    (the dataclass defaults serve hand-built parameters only)."""
    from goodput_lab.models import montecarlo as mc

    seen: dict = {}
    real = mc.SimulationParams

    def record(**kw):
        seen.update(kw)
        return real(**kw)

    monkeypatch.setattr(mc, "SimulationParams", record)
    mc.params_from_inputs(resolve_inputs(Scenario.default()))
    assert set(seen) == {f.name for f in dataclasses.fields(real)}
