"""URL state: round trip, clear errors, a fuzzed decoder, and shared links in AppTest."""

from __future__ import annotations

import pytest
from goodput_lab.dashboard import url_state
from goodput_lab.models import (
    FIELDS,
    Scenario,
    ValidationError,
    compare,
    evaluate,
    load_preset,
    preset_paths,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from goodput_lab.views import display
from tests.dashboard._pages import RATE_KEY, metric, open_page, open_sidebar


@pytest.mark.parametrize("preset", sorted(preset_paths()))
def test_round_trip_every_preset(preset):
    s = load_preset(preset).replace({"cluster.spare_nodes": 3, "checkpoint.save_seconds": 12.5})
    params = url_state.encode(s, preset)
    assert set(params) <= url_state.ALLOWED
    back, p = url_state.decode(params)
    assert p == preset
    assert back == s  # same values, name and (via the preset) description


def test_round_trip_without_preset_keeps_values_and_specials():
    s = Scenario.default().replace(
        {"checkpoint.interval_minutes": "optimal", "pricing.usd_per_instance_hour": None},
        name="Shared",
    )
    back, preset = url_state.decode(url_state.encode(s))
    assert preset is None
    assert back.values == s.values and back.name == "Shared"


def test_float_text_is_exact():
    s = Scenario.default().replace({"reliability.node_failure_rate_per_day": 0.1 + 0.2})
    params = url_state.encode(s)
    assert params["reliability.node_failure_rate_per_day"] == "0.30000000000000004"
    assert url_state.decode(params)[0]["reliability.node_failure_rate_per_day"] == 0.1 + 0.2


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"cluster.nodes": "-1"}, "cluster.nodes", "out of range"),
        ({"cluster.nodes": "12.5"}, "cluster.nodes", "whole number"),
        ({"reliability.node_failure_rate_per_day": "nan"}, "reliability", "finite"),
        ({"evil": "1"}, "link", "unknown parameter"),
        ({"__reduce__": "os.system"}, "link", "unknown parameter"),
        ({"preset": "nope"}, "link parameter 'preset'", "not a preset"),
        ({"cluster.nodes": ["1", "2"]}, "link parameter 'cluster.nodes'", "exactly once"),
        ({"name": "x" * 2001}, "link parameter 'name'", "longer than 2,000"),
    ],
)
def test_invalid_links_name_the_problem(params, field, words):
    with pytest.raises(ValidationError) as exc:
        url_state.decode(params)
    assert exc.value.field.startswith(field)
    assert words in str(exc.value)


KEYS = st.one_of(st.sampled_from(sorted(url_state.ALLOWED)), st.text(max_size=30))
VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["optimal", "catalog", "1e308", "1e309", "-0", "inf", "0x10", "1_000"]),
    st.floats(allow_nan=True).map(repr),
    st.integers(-(10**12), 10**12).map(str),
    st.lists(st.text(max_size=5), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=8))
def test_decoder_fuzz_returns_scenario_or_validation_error(params):
    try:
        scenario, _ = url_state.decode(params)
    except ValidationError:
        return
    assert isinstance(scenario, Scenario)
    for key, f in FIELDS.items():  # every value it lets through is within the field's range
        v = scenario[key]
        if f.kind in ("int", "float") and isinstance(v, int | float):
            assert (f.min is None or v >= f.min) and (f.max is None or v <= f.max)


def test_shared_link_reproduces_the_numbers(catalog):
    # the colleague opens a link with a modified scenario: same numbers as the sender
    sender = open_page("overview")
    sender.slider(key=RATE_KEY).set_value(0.37).run()
    open_sidebar(sender, "Recovery and hot spares")
    sender.number_input(key="w:cluster.spare_nodes").set_value(6).run()
    link = dict(sender.query_params)
    assert link["reliability.node_failure_rate_per_day"] == "0.0037"
    assert link["cluster.spare_nodes"] == "6"
    receiver = open_page("overview", dict(link))
    expected = evaluate(
        load_preset("aws-16k-h100").replace(
            {"reliability.node_failure_rate_per_day": 0.0037, "cluster.spare_nodes": 6}
        ),
        catalog,
    )
    for label in ("Goodput", "Lost per day", "Failures per day"):
        assert metric(receiver, label) == metric(sender, label)
    assert metric(receiver, "Goodput") == f"{expected['goodput'] * 100:.2f}%"


def test_bad_link_shows_a_clear_message_and_the_default():
    at = open_page("overview", {"cluster.nodes": "lots"})
    assert any("cluster.nodes" in e.value and "'lots' is not a number" in e.value for e in at.error)
    ev = evaluate(load_preset("aws-16k-h100"))
    assert metric(at, "Goodput") == f"{ev['goodput'] * 100:.2f}%"


def test_links_open_on_every_decision_page(catalog):
    s = load_preset("llama3-16k").replace({"cluster.nodes": 1024})
    at = open_page("sensitivity", url_state.encode(s, "llama3-16k"))
    ev = evaluate(s, catalog)
    assert metric(at, "Goodput") == f"{ev['goodput'] * 100:.2f}%"


def test_toml_upload_and_download_in_the_sidebar(catalog):
    at = open_page("overview")
    s = load_preset("llama3-16k").replace({"cluster.spare_nodes": 4})
    open_sidebar(at, "Share")  # the uploader is in the Share popover
    at.file_uploader(key="scenario_upload").set_value(
        ("mine.toml", s.to_toml().encode(), "application/toml")
    ).run()
    assert not at.exception
    assert any("Loaded" in m.value and "mine.toml" in m.value for m in at.success)
    ev = evaluate(s, catalog)
    assert metric(at, "Goodput") == f"{ev['goodput'] * 100:.2f}%"
    assert at.query_params["cluster.spare_nodes"] == "4"  # and the link follows
    # invalid file: clear message naming file, field and range; nothing changes
    at.file_uploader(key="scenario_upload").set_value(
        ("bad.toml", b"[reliability]\nnode_failure_rate_per_day = 2.0\n", "application/toml")
    ).run()
    assert not at.exception
    assert any(
        "bad.toml" in e.value
        and "node_failure_rate_per_day" in e.value
        and "[0, 1]" in e.value.replace("\\", "")  # as rendered: user text is escaped
        for e in at.error
    )
    assert metric(at, "Goodput") == f"{ev['goodput'] * 100:.2f}%"
    # oversized file
    at.file_uploader(key="scenario_upload").set_value(
        ("huge.toml", b"#" * (300 * 1024), "application/toml")
    ).run()
    assert any("huge.toml" in e.value and "at most" in e.value for e in at.error)


def test_download_toml_reads_back(catalog):
    from goodput_lab.dashboard import state

    s = load_preset("aws-16k-h100")
    assert state.load_upload("x.toml", s.to_toml().encode()) == s
    with pytest.raises(ValidationError, match="x.toml"):
        state.load_upload("x.toml", b"\xff\xfe")


def test_page_controls_round_trip_and_validate():
    state = {
        "cmp:baseline": "Preset: llama3-16k",
        "cmp:candidate": "Uploaded TOML file",  # cannot travel in a link: left out
        "cmp:candidate:edits": "cluster.spare_nodes = 4",
        "sens:pct": 35,
        "deadline:on": True,
        "deadline:days": 45.5,
        "inst:price:trn2.48xlarge": 40.5,  # per-instance controls of the Instances page
        "inst:mfu:p5.48xlarge": 41.0,
        "inst:price:p5.48xlarge": None,  # empty = catalog: not in the link
        "w:cluster.nodes": 7,  # scenario widgets travel as fields, not as page controls
    }
    params = url_state.encode_page(state)
    assert params == {
        "cmp.baseline": "Preset: llama3-16k",
        "cmp.candidate_edits": "cluster.spare_nodes = 4",
        "sens.pct": "35",
        "deadline.on": "true",
        "deadline.days": "45.5",
        "inst.price.trn2.48xlarge": "40.5",
        "inst.mfu.p5.48xlarge": "41.0",
    }
    back = url_state.decode_page(params)
    assert back == {k: v for k, v in state.items() if k in back}
    assert len(back) == 7
    for bad in (
        {"sens.pct": "7"},  # not a multiple of 5
        {"sens.pct": "500"},
        {"deadline.on": "yes"},
        {"inst.price.trn2.48xlarge": "0"},  # below the allowed price
        {"inst.mfu.p5.48xlarge": "101"},
        {"cmp.baseline": "Uploaded TOML file"},
        {"sens.colour": "red"},
        {"cmp.candidate_edits": "a=1\n" * 21},
    ):
        with pytest.raises(ValidationError, match="link parameter"):
            url_state.decode_page(bad)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(url_state.PAGE_PARAMS)), VALUES, max_size=5))
def test_page_decoder_fuzz_returns_dict_or_validation_error(params):
    try:
        out = url_state.decode_page(params)
    except ValidationError:
        return
    assert set(out) <= {key for key, _ in url_state.PAGE_PARAMS.values()}


def test_compare_view_travels_in_the_link(catalog):
    sender = open_page("compare")
    sender.selectbox(key="widget::cmp:candidate").set_value("Preset: llama3-16k").run()
    sender.text_area(key="widget::cmp:candidate:edits").input("cluster.spare_nodes = 2").run()
    link = dict(sender.query_params)
    assert link["cmp.candidate"] == "Preset: llama3-16k"
    receiver = open_page("compare", link)
    c = compare(
        load_preset("aws-16k-h100"),
        load_preset("llama3-16k").replace({"cluster.spare_nodes": 2}),
        catalog,
    )
    t = display.tile("savings_usd_per_day", c.savings_usd_per_day, savings=True)
    assert metric(receiver, t["label"]) == t["value"] == f"${abs(c.savings_usd_per_day):,.0f}"
    assert metric(receiver, t["label"]) == metric(sender, t["label"])
    # no 'default value and session state' clash (the page's own notes are warnings too)
    assert not any("default value" in w.value for w in receiver.warning)


def test_bad_page_control_keeps_the_scenario_and_says_so(catalog):
    s = load_preset("aws-16k-h100").replace({"cluster.nodes": 1500})
    at = open_page("overview", {**url_state.encode(s, "aws-16k-h100"), "sens.pct": "13"})
    assert any("sens.pct" in e.value and "ignored" in e.value for e in at.error)
    assert metric(at, "Goodput") == f"{evaluate(s, catalog)['goodput'] * 100:.2f}%"


def test_a_link_that_sets_fields_over_a_preset_is_not_passed_off_as_it(catalog):
    """QA pass: ?preset=llama3-70b&cluster.nodes=256 showed the right figures under the
    header "Llama 3 70B on 1,024 H100"; like a sidebar edit, it is now "Modified from"."""
    link = {"preset": "llama3-70b", "cluster.nodes": "256"}
    at = open_page("overview", link)
    assert not at.exception
    head = " ".join(c.value for c in at.caption).replace("\\", "")
    name = load_preset("llama3-70b").name
    # the origin without "(p5.48xlarge)", which the edit could have changed (QA 18 15c)
    assert "Modified from Llama 3 70B on 1,024 H100 ·" in head.replace("*", "")
    ev = evaluate(load_preset("llama3-70b").replace({"cluster.nodes": 256}), catalog)
    assert metric(at, "Goodput") == f"{ev['goodput'] * 100:.2f}%"
    # the preset itself, by its link, keeps its name
    at = open_page("overview", {"preset": "llama3-70b"})
    head = " ".join(c.value for c in at.caption).replace("\\", "")
    assert name in head and "Modified from" not in head


def test_a_bad_link_falls_back_to_its_own_preset_and_echoes_the_value_as_written():
    at = open_page("overview", {"preset": "llama3-70b", "cluster.nodes": "-5"})
    # said in the sidebar and atop the page, above figures that are not the link's
    (err,) = [e.value for e in at.main.error]
    assert [e.value for e in at.sidebar.error] == [err]
    assert "cluster.nodes: -5 is out of range" in err  # not -5.0
    assert "Showing the llama3-70b preset instead" in err
    ev = evaluate(load_preset("llama3-70b"))
    assert metric(at, "Goodput") == f"{ev['goodput'] * 100:.2f}%"


def test_a_new_instance_in_the_sidebar_drops_the_price_entered_for_the_old_one(catalog):
    """QA pass 17: p6-b200 was priced at the aws-16k-h100 preset's $98.32, the 2023 price of
    p5.48xlarge; the public price now applies, and the sidebar says why."""
    at = open_page("overview", {"preset": "aws-16k-h100"})
    at.selectbox(key="w:cluster.instance").set_value("p6-b200.48xlarge").run()
    assert not at.exception
    assert any("was entered for p5.48xlarge" in i.value for i in at.sidebar.info)
    want = evaluate(
        load_preset("aws-16k-h100").replace(
            {
                "cluster.instance": "p6-b200.48xlarge",
                "pricing.usd_per_instance_hour": None,
                "pricing.price_source": None,
                "pricing.price_as_of": None,
            }
        ),
        catalog,
    )
    assert want["usd_per_instance_hour"] == pytest.approx(113.9328)
    assert metric(at, "Cluster cost per day") == f"${want['cluster_usd_per_day']:,.0f}"


def test_a_link_moving_a_preset_to_another_instance_prices_it_publicly(catalog):
    s, preset = url_state.decode(
        {"preset": "aws-16k-h100", "cluster.instance": "p6-b200.48xlarge"}, catalog
    )
    assert preset == "aws-16k-h100" and s["pricing.usd_per_instance_hour"] is None
    assert s["pricing.price_source"] is None and s["pricing.price_as_of"] is None
    # a price in the link is the link's own, kept
    s, _ = url_state.decode(
        {
            "preset": "aws-16k-h100",
            "cluster.instance": "p6-b200.48xlarge",
            "pricing.usd_per_instance_hour": "98.32",
        },
        catalog,
    )
    assert s["pricing.usd_per_instance_hour"] == 98.32


def test_a_per_instance_control_for_a_type_not_in_the_catalog_is_reported(catalog):
    """QA pass 17: inst.price.nonexistent=5 was dropped without a word."""
    with pytest.raises(ValidationError) as exc:
        url_state.decode_page({"inst.price.nonexistent": "5"}, catalog)
    assert exc.value.field == "link parameter 'inst.price.nonexistent'"
    assert exc.value.message.startswith("'nonexistent' is not in the catalog; allowed: p4d")
    assert url_state.decode_page({"inst.price.p5.48xlarge": "50"}, catalog) == {
        "inst:price:p5.48xlarge": 50.0
    }
    at = open_page("overview", {"preset": "aws-16k-h100", "inst.price.nonexistent": "5"})
    assert any("Part of the link was ignored" in e.value for e in at.main.error)


def test_a_price_the_user_sets_with_the_new_instance_is_kept(catalog):
    """QA pass 18: a price typed with the new type was dropped when it equalled the old
    type's ($98.32), although the note told the user to set one."""
    from goodput_lab.cli.main import load_scenario
    from goodput_lab.views.compare import build_with_note

    sets = ["cluster.instance=p6-b200.48xlarge", "pricing.usd_per_instance_hour=98.32"]
    assert load_scenario("aws-16k-h100", sets)["pricing.usd_per_instance_hour"] == 98.32
    sc, note = build_with_note(
        "Preset: aws-16k-h100", None, None, "\n".join(s.replace("=", " = ") for s in sets)
    )
    assert sc["pricing.usd_per_instance_hour"] == 98.32 and note == ""
    params = {"preset": "aws-16k-h100", **dict(s.split("=") for s in sets)}
    at = open_page("overview", params)
    assert "price in force **$98.32/instance-h**" in at.caption[0].value.replace("\\", "")
    # a link moving the instance without a price: the preset's is dropped, and said so
    at = open_page("overview", {"preset": "aws-16k-h100", "cluster.instance": "p6-b200.48xlarge"})
    assert any("was entered for p5.48xlarge" in i.value for i in at.sidebar.info)


@pytest.mark.parametrize(
    ("text", "value"), [("true", True), ("1", True), ("FALSE", False), ("0", False)]
)
def test_a_links_switch_reads_true_false_and_1_0(text, value):
    """QA pass 18: dec.go=1 was refused while the rest of the link grammar is forgiving."""
    assert url_state.decode_page({"dec.go": text})["dec:go"] is value


def test_a_links_switch_refuses_other_words():
    with pytest.raises(ValidationError) as exc:
        url_state.decode_page({"dec.go": "maybe"})
    assert "'true' or 'false' (or 1 or 0)" in exc.value.message
