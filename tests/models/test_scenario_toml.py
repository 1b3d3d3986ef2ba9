"""Scenario.to_toml (written by tomli-w) reads back to the same scenario whatever the text:
control characters (U+007F, NUL, ESC), quotes, backslashes, line breaks (LF, CR LF, U+2028),
triple quotes and any other unicode in the name, the description and the text fields."""

from __future__ import annotations

import math
import tomllib

import pytest
from goodput_lab.models import FIELDS, Scenario, ValidationError, load_preset
from goodput_lab.models.scenario import shape_params_billion
from hypothesis import given, reject, settings
from hypothesis import strategies as st

#: What broke the hand-made writer or tends to break TOML writers, mixed into any unicode.
AWKWARD = ["\x7f", "\x00", "\x1b", "\x08", "\x0c", '"', "'", "\\", "\n", "\r", "\r\n", "\t",
           '"""', "'''", "\u2028", "\x85", "\ufeff", "#", "=", "[a]", "é", "中", "🙂"]  # fmt: skip
TEXT = st.lists(
    st.one_of(st.sampled_from(AWKWARD), st.characters(exclude_categories=("Cs",))), max_size=40
).map("".join)

#: Bounded float fields, for a value drawn anywhere in their range.
FLOATS = sorted(
    k
    for k, f in FIELDS.items()
    if f.kind == "float" and f.min is not None and f.max is not None and math.isfinite(f.max)
)


def _round_trip(s: Scenario) -> Scenario:
    text = s.to_toml()
    tomllib.loads(text)  # valid TOML in its own right
    return Scenario.from_toml(text)


def test_a_name_with_u007f_reads_back():
    """The case of the report: U+007F in a name gave a file that did not read back."""
    s = Scenario.from_dict({"name": "cluster\x7fA"})
    assert 'name = "cluster\\u007fA"' in s.to_toml()
    assert _round_trip(s).name == "cluster\x7fA"


def test_a_description_with_line_breaks_stays_readable_and_reads_back():
    s = Scenario.from_dict({"description": "first line\nsecond line"})
    assert 'description = """\nfirst line\nsecond line"""' in s.to_toml()
    assert _round_trip(s).description == "first line\nsecond line"
    crlf = Scenario.from_dict({"description": "a\r\nb"})  # CR LF: escaped, not normalised
    assert _round_trip(crlf).description == "a\r\nb"


@settings(max_examples=300, deadline=None)
@given(
    name=TEXT,
    description=TEXT,
    source=TEXT,
    as_of=TEXT,
    instance=TEXT,
    numeric=st.sampled_from(FLOATS),
    fraction=st.floats(0, 1),
)
def test_any_text_round_trips_through_toml(
    name, description, source, as_of, instance, numeric, fraction
):
    f = FIELDS[numeric]
    value = f.min + fraction * (f.max - f.min)
    try:
        s = Scenario.from_dict(
            {
                "name": name,
                "description": description,
                "cluster.instance": instance,
                "pricing.price_source": source,
                "pricing.price_as_of": as_of[:40],
                numeric: value,
            }
        )
    except ValidationError:
        reject()  # blank or over-long text for a required field: refused on the way in
    again = _round_trip(s)
    assert again == s
    assert (again.name, again.description) == (s.name, s.description)
    assert again["pricing.price_source"] == s["pricing.price_source"]
    assert again[numeric] == s[numeric]


#: Optional fields: left empty (None) they are derived or looked up in the catalog.
OPTIONAL = sorted(k for k, f in FIELDS.items() if f.optional)


def test_params_billion_left_empty_reads_back_empty_not_405():
    """The registry default of workload.params_billion is 405; a scenario that leaves it empty
    (derived from the shape) reads back empty, not as 405."""
    s = Scenario.from_dict({"workload.params_billion": None, "workload.layers": 126})
    again = _round_trip(s)
    assert again["workload.params_billion"] is None
    assert again == s


def test_every_field_left_empty_is_one_commented_out_line():
    """QA 27 #12: params_billion was written as ``params_billion = ""`` (an empty string in a
    numeric field) while every other derived field was commented out; now one convention,
    and the file still reads back to the same scenario and the same figures."""
    from goodput_lab.models import evaluate, load_preset

    s = load_preset("mixtral-8x22b").with_overrides(["workload.params_billion=none"])
    text = s.to_toml()
    assert '= ""' not in text
    lines = [x for x in text.splitlines() if "params_billion" in x]
    assert len(lines) == 1 and lines[0].startswith("# params_billion = (derived: ")
    assert "# attention_params_million = (derived: " in text
    again = Scenario.from_toml(text)
    assert again == s and again["workload.params_billion"] is None
    assert evaluate(again)["model_parameters_billion"] == pytest.approx(
        evaluate(s)["model_parameters_billion"], rel=1e-12
    )
    assert 140 < evaluate(again)["model_parameters_billion"] < 142  # Mixtral 8x22B: 141B
    # a file written before still reads: an empty string is "derive it" too
    assert (
        Scenario.from_toml(text.replace("# params_billion = (derived", 'params_billion = ""  # ('))
        == s
    )


def test_params_billion_help_says_total_count_as_moe_presets_enter():
    """QA 27 #12: MoE presets enter the total count (DeepSeek-V3: 671), not a dense one."""
    from goodput_lab.models import load_preset

    help_text = FIELDS["workload.params_billion"].help
    assert not help_text.startswith("Dense")
    assert "Total parameter count" in help_text
    assert "671" in help_text
    assert load_preset("deepseek-v3")["workload.params_billion"] == 671.0


def test_evaluate_json_scenario_reads_back_with_params_billion_left_empty():
    """`goodput evaluate --json` carries the scenario as ``to_dict``; with the parameter count
    left empty it used to omit the key, which read back as the default 405 and contradicted
    the 80-layer shape (a ValidationError) instead of giving the same scenario."""
    import json

    from goodput_lab.models import evaluate, load_preset

    s = load_preset("llama3-70b").replace({"workload.params_billion": None})
    d = json.loads(json.dumps(evaluate(s).to_json_dict()["scenario"]))
    assert d["workload"]["params_billion"] is None
    assert Scenario.from_dict(d) == s
    # fields whose default is empty stay out of the object
    assert "expert_tensor_parallel" not in d["workload"]


@settings(max_examples=100, deadline=None)
@given(empty=st.sets(st.sampled_from(OPTIONAL), min_size=1))
def test_optional_fields_left_empty_round_trip(empty):
    data: dict = dict.fromkeys(empty)
    if "workload.params_billion" in empty and "workload.layers" not in empty:
        data["workload.layers"] = 126  # a shape to derive the parameter count from
    try:
        s = Scenario.from_dict(data)
    except ValidationError:
        reject()
    again = _round_trip(s)
    assert again == s
    assert all(again[k] is None for k in empty)
    assert Scenario.from_dict(s.to_dict()) == s  # the JSON shape round-trips too


def test_a_file_with_a_shape_and_no_count_derives_the_count():
    """A scenario file that gives the model's shape and no parameter count derives the count
    from the shape (Nemotron-4 15B: 32 layers, hidden 6,144, 48 heads, 8 KV heads, FFN
    24,576 with a two-matrix MLP, vocabulary 256,000: 15.6B), instead of failing against the
    registry's default of 405B, which goes with the default shape."""
    text = """
[workload]
layers = 32
hidden_size = 6144
attention_heads = 48
kv_heads = 8
mlp = "gelu"
ffn_hidden_size = 24576
vocab_size = 256000
"""
    s = Scenario.from_toml(text)
    assert s["workload.params_billion"] is None
    assert shape_params_billion(s.values) == pytest.approx(15.6, abs=0.05)


def test_an_edit_that_contradicts_a_stated_count_says_how_to_derive_it():
    """An edit of the shape of a preset that states its count keeps the check, and the
    message says how to leave the count empty from the command line."""
    with pytest.raises(ValidationError) as e:
        load_preset("llama3-8b").with_overrides(["workload.layers=80"])
    assert e.value.field == "workload.layers"
    assert "(workload.params_billion = none)" in e.value.message
    again = load_preset("llama3-8b").with_overrides(
        ["workload.layers=80", "workload.params_billion=none"]
    )
    assert again["workload.params_billion"] is None
