"""Absent terms (a rate, share or duration that is one number, exactly 0) are left out of
the chain's arithmetic rather than multiplied out into arrays of zeros.  Leaving them out
must change no figure: the same scenarios with those inputs given as arrays of zeros (which
the shortcut cannot see) give exactly the same figures."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import load_preset, resolve_inputs
from goodput_lab.models._tools import ZERO, is_zero, minus, term, total
from goodput_lab.models.chain import run_chain
from hypothesis import given
from hypothesis import strategies as st

#: Inputs whose 0 makes a failure class, a loss component or a cost absent.
ZERO_INPUTS = (
    "reliability.sdc_fraction",
    "resilience.peer_recovery_fraction",
    "resilience.in_process_fraction",
    "resilience.elastic_fraction",
    "resilience.straggler_slowdown",
    "resilience.overhead_fraction",
    "recovery.warmup_minutes",
    "checkpoint.corrupt_fraction",
    "network.fabric_events_per_day",
    "cluster.spare_nodes",
)


def test_is_zero_sees_one_number_only():
    assert is_zero(0.0) and is_zero(np.float64(0.0)) and is_zero(np.array(0.0))
    assert is_zero(np.broadcast_to(0.0, (5,)))  # a broadcast holds one value
    assert not is_zero(np.zeros(5))  # an array of zeros may be written to: not seen
    assert not is_zero(np.array([0.0])) and not is_zero(np.zeros(0))
    assert not is_zero(1e-300) and not is_zero(np.nan) and not is_zero(np.broadcast_to(2.0, 3))


def test_term_total_minus_by_hand():
    a = np.array([1.0, 2.0, np.inf, np.nan])
    assert term(a, 0.0) is ZERO and term(np.broadcast_to(0.0, 4), a) is ZERO
    assert term(a, 1.0) is a  # a factor of one number 1 is left out: no copy
    assert np.array_equal(term(a, 2.0, 3.0), a * 2.0 * 3.0, equal_nan=True)
    assert total(ZERO, 0.0) is ZERO and total(a, 0.0) is a
    assert np.array_equal(total(1.0, a, 0.0, a), 1.0 + a + a, equal_nan=True)
    assert minus(a, 0.0) is a and np.array_equal(minus(a, 1.0), a - 1.0, equal_nan=True)


finite = st.floats(-1e6, 1e6, allow_nan=False)


@given(st.lists(st.one_of(finite, st.just(0.0), st.just(1.0)), min_size=1, max_size=6))
def test_term_and_total_are_the_left_to_right_product_and_sum(values):
    """Bit for bit what ``a * b * c`` and ``a + b + c`` give, whatever is left out."""
    arrays = [np.array([v, -v, 2.5 * v]) if i % 2 else v for i, v in enumerate(values)]
    product, summed = arrays[0], arrays[0]
    for v in arrays[1:]:
        product = product * v
        summed = summed + v
    assert np.array_equal(np.broadcast_to(term(*arrays), np.shape(product)), product)
    assert np.array_equal(np.broadcast_to(total(*arrays), np.shape(summed)), summed)


def _scenarios(preset: str, n: int = 64, **changes):
    rng = np.random.default_rng(17)
    x = dict(resolve_inputs(load_preset(preset)))
    x.update(changes)
    rate = rng.uniform(0.0005, 0.005, n)
    rate[::8] = 0.0  # no failures at all: every share of a failure class is "when none"
    x["reliability.node_failure_rate_per_day"] = rate
    x["cluster.nodes"] = rng.integers(100, 4000, n).astype(float)
    x["checkpoint.interval_minutes"] = rng.uniform(5.0, 120.0, n)
    return x


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("aws-16k-h100", {}),
        ("aws-16k-h100", {"checkpoint.strategy": "memory+durable", "pricing.model": "spot"}),
        ("hyperpod-tiered-16k-h100", {"checkpoint.save_mode": "async"}),
        ("llama3-70b", {"checkpoint.durable_tier": "object_store"}),
    ],
)
def test_absent_terms_change_no_figure(preset, changes):
    x = _scenarios(preset, **changes)
    for key in ZERO_INPUTS:
        x[key] = 0.0
    arrays = dict(x, **{key: np.zeros(64) for key in ZERO_INPUTS})
    assert all(is_zero(x[key]) and not is_zero(arrays[key]) for key in ZERO_INPUTS)
    short, long = run_chain(x).metrics(), run_chain(arrays).metrics()
    assert list(short) == list(long)
    for key, value in long.items():  # (an array input makes some one-number figures arrays)
        got = np.broadcast_to(short[key], np.shape(value))
        assert np.array_equal(got, value, equal_nan=True), key
