"""Fuzz the scenario parsers: each returns a valid Scenario or raises models.ValidationError.

Anything else (TypeError, KeyError, OverflowError, ...) would reach a user as a traceback.
Inputs: arbitrary text and bytes, TOML built from real and bogus field names with values of
every TOML type, nested mappings for ``from_dict`` and ``--set`` strings.
"""

from __future__ import annotations

import json
import math

import pytest
from goodput_lab.models import FIELDS, SECTIONS, Scenario, ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# TOML integers are 64-bit; larger Python ints are covered by the known-gap test below.
INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    INT64,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["optimal", "catalog", "", " 12 ", "1e999", "nan", "-0", "0x10"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
SECTION_NAMES = st.one_of(st.sampled_from([*SECTIONS, "name", "description"]), st.text(max_size=12))
FIELD_NAMES = st.one_of(
    st.sampled_from(sorted({f.name for f in FIELDS.values()})), st.text(max_size=12)
)


def check(make):
    try:
        scenario = make()
    except ValidationError as exc:
        assert isinstance(exc.field, str) and exc.message  # names what is wrong (may be '')
        return
    assert isinstance(scenario, Scenario)
    for key, f in FIELDS.items():  # a returned scenario is valid in every field
        v = scenario[key]
        if v is None:
            assert f.optional
        elif isinstance(v, int | float) and not isinstance(v, bool):
            assert math.isfinite(v)
            assert f.min is None or v >= f.min
            assert f.max is None or v <= f.max
    assert Scenario.from_toml(scenario.to_toml()) == scenario  # and round-trips


@FUZZ
@given(st.text(max_size=400))
def test_from_toml_arbitrary_text(text):
    check(lambda: Scenario.from_toml(text))


@FUZZ
@given(st.binary(max_size=400))
def test_from_toml_arbitrary_bytes(data):
    check(lambda: Scenario.from_toml(data))


def _toml_value(v) -> str:
    if v is None:
        return '""'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return (
            "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
        )
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"


@FUZZ
@given(st.dictionaries(SECTION_NAMES, st.dictionaries(FIELD_NAMES, VALUES, max_size=4), max_size=4))
def test_from_toml_structured(doc):
    lines = []
    for section, table in doc.items():
        lines.append(f"[{json.dumps(section)}]")
        lines += [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in table.items()]
    check(lambda: Scenario.from_toml("\n".join(lines)))


@FUZZ
@given(
    st.dictionaries(
        SECTION_NAMES,
        st.one_of(VALUES, st.dictionaries(FIELD_NAMES, VALUES, max_size=4)),
        max_size=4,
    )
)
def test_from_dict_nested(data):
    check(lambda: Scenario.from_dict(data))


@FUZZ
@given(st.dictionaries(st.sampled_from(sorted(FIELDS)), VALUES, max_size=6))
def test_from_dict_flat_real_fields(data):
    check(lambda: Scenario.from_dict(data))


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.builds(
                lambda k, v: f"{k}={v}",
                st.sampled_from(sorted(FIELDS)),
                st.one_of(st.text(max_size=20), INT64.map(str), st.floats().map(repr)),
            ),
            st.text(max_size=30),
        ),
        max_size=4,
    )
)
def test_set_overrides(assignments):
    check(lambda: Scenario.default().with_overrides(assignments))


@pytest.mark.parametrize(
    "make",
    [
        lambda: Scenario.from_dict({"cluster": {"nodes": 10**400}}),
        lambda: Scenario.default().with_overrides(["cluster.nodes=" + "1" * 400]),
    ],
)
def test_huge_integer_is_a_validation_error(make):
    with pytest.raises(ValidationError):
        make()
