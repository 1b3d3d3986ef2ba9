"""Scenario validation, TOML round trip and --set overrides."""

from __future__ import annotations

import pytest
from goodput_lab.models import FIELDS, Scenario, ValidationError
from goodput_lab.models.scenario import preset_paths
from hypothesis import given, settings
from hypothesis import strategies as st


def test_defaults_validate():
    s = Scenario.default()
    assert s.cluster.nodes == 2000
    assert s["reliability.node_failure_rate_per_day"] == 0.002


@pytest.mark.parametrize("stem", list(preset_paths()))
def test_presets_round_trip_through_toml(stem):
    s = Scenario.load(preset_paths()[stem])
    again = Scenario.from_toml(s.to_toml())
    assert again == s


@pytest.mark.parametrize(
    ("update", "field", "fragment"),
    [
        ({"cluster.nodes": 0}, "cluster.nodes", "[1, 200,000]"),
        ({"cluster.nodes": -5}, "cluster.nodes", "out of range"),
        ({"cluster.nodes": 2.5}, "cluster.nodes", "whole number"),
        ({"reliability.node_failure_rate_per_day": float("nan")}, "reliability", "finite"),
        ({"reliability.node_failure_rate_per_day": 1.5}, "reliability", "[0, 1]"),
        ({"recovery.detection_minutes": "soon"}, "recovery.detection_minutes", "not a number"),
        ({"checkpoint.interval_minutes": "never"}, "checkpoint.interval_minutes", "'optimal'"),
        ({"cluster.nodes": True}, "cluster.nodes", "not a number"),
        ({"cluster.bogus": 1}, "cluster.bogus", "unknown field"),
    ],
)
def test_bad_values_name_field_and_range(update, field, fragment):
    with pytest.raises(ValidationError) as err:
        Scenario.default().replace(update)
    assert str(err.value).startswith(field)
    assert fragment in str(err.value)


def test_unknown_section_and_malformed_toml():
    with pytest.raises(ValidationError, match="unknown section"):
        Scenario.from_toml("[clusterz]\nnodes = 3\n")
    with pytest.raises(ValidationError, match="not valid TOML"):
        Scenario.from_toml("[cluster\nnodes = 3")
    with pytest.raises(ValidationError, match="not UTF-8"):
        Scenario.from_toml(b"name = '\xff\xfe'")
    with pytest.raises(ValidationError, match="too large"):
        Scenario.from_toml(b"#" * (300 * 1024))


def test_set_overrides_parse_types():
    s = Scenario.default().with_overrides(
        [
            "cluster.nodes=128",
            "checkpoint.interval_minutes=optimal",
            "pricing.usd_per_instance_hour=12.5",
        ]
    )
    assert s.cluster.nodes == 128
    assert s.checkpoint.interval_minutes == "optimal"
    assert s.pricing.usd_per_instance_hour == 12.5
    with pytest.raises(ValidationError, match="section.key=value"):
        Scenario.default().with_overrides(["cluster.nodes"])


def test_scenario_is_immutable():
    s = Scenario.default()
    with pytest.raises(TypeError):
        s.values["cluster.nodes"] = 5  # type: ignore[index]


numeric = [f for f in FIELDS.values() if f.kind in ("int", "float")]


@settings(max_examples=200, deadline=None)
@given(
    field=st.sampled_from(numeric),
    value=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-(10**12), 10**12),
        st.text(max_size=20),
        st.none(),
        st.booleans(),
    ),
)
def test_any_value_is_accepted_in_range_or_rejected_by_name(field, value):
    try:
        s = Scenario.default().replace({field.key: value})
    except ValidationError as exc:
        assert exc.field == field.key
        return
    v = s[field.key]
    if v is None or isinstance(v, str):
        assert v is None or v in field.special
    else:
        assert field.min is None or v >= field.min
        assert field.max is None or v <= field.max


def test_empty_scenario_file_is_rejected():
    with pytest.raises(ValidationError, match="scenario file: is empty"):
        Scenario.from_toml(b"  \n")


def test_an_optional_fields_range_message_says_what_leaving_it_empty_means():
    # the error for a bad value names the range and, where the field says (its none_label),
    # what an empty value stands for; otherwise that it is derived
    assert FIELDS["workload.recompute_layers"].allowed() == (
        "a number in [0, 10,000] layers, or omitted: every layer"
    )
    assert (
        FIELDS["workload.kv_heads"]
        .allowed()
        .endswith(", or omitted: same as the attention heads (MHA)")
    )
    assert "omitted" not in FIELDS["cluster.nodes"].allowed()  # required: no such clause
    with pytest.raises(ValidationError, match="or omitted: every layer"):
        Scenario.from_dict({"workload": {"recompute_layers": -1}})


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("1e12", "1e+12"),
        ("86401", "86401"),
        ("86400.5", "86400.5"),
        ("1234567890123.0", "1.234567890123e+12"),
    ],
)
def test_a_large_out_of_range_number_is_echoed_with_its_exponent(written, shown):
    """1e12 seconds was echoed as 1000000000000.0 (thirteen digits to count); a large
    whole number is written with an exponent, every digit kept, others as Python writes."""
    with pytest.raises(ValidationError) as err:
        Scenario.from_toml(f"[checkpoint]\nsave_seconds = {written}\n".encode())
    assert str(err.value) == (
        f"checkpoint.save_seconds: {shown} is out of range (a number in [0, 86,400] s)"
    )


def test_a_scenario_path_with_a_nul_character_is_one_line():
    """The report helper's find: a NUL in the path raised Python's ValueError."""
    from goodput_lab.models.scenario import resolve_scenario

    with pytest.raises(ValidationError, match="cannot contain a NUL character"):
        resolve_scenario("a\x00b.toml")


@pytest.mark.parametrize("text", ["1e-400", "0.5e-330", "-3e-999"])
def test_a_number_too_small_to_represent_is_refused_not_read_as_zero(text):
    """QA pass 17: --set reliability.node_failure_rate_per_day=1e-400 became 0 silently."""
    s = Scenario.default()
    for apply in (
        lambda: s.with_overrides([f"reliability.node_failure_rate_per_day={text}"]),
        lambda: s.replace({"reliability.node_failure_rate_per_day": text}),  # a link's text
    ):
        with pytest.raises(ValidationError) as exc:
            apply()
        assert exc.value.field == "reliability.node_failure_rate_per_day"
        assert exc.value.message.startswith(f"{text} is too small to represent (it reads as 0")
    for zero in ("0", "0.0", "0e5", "-0.0"):
        r = s.with_overrides([f"reliability.node_failure_rate_per_day={zero}"])
        assert r["reliability.node_failure_rate_per_day"] == 0.0
