"""Issue 18, links: a bad value is reported (never silently replaced), an uploaded
scenario's description travels in the link, and error lines never echo 500+ characters."""

from __future__ import annotations

import re

from goodput_lab.dashboard import state, url_state
from goodput_lab.models import ValidationError, load_preset

from tests.dashboard._pages import open_page


def _as_rendered(markdown: str) -> str:
    """The text Streamlit shows for Markdown whose punctuation is backslash-escaped."""
    return re.sub(r"\\(.)", r"\1", markdown)


UPLOAD = b"""name = "Uploaded plan"
description = "Our Q3 cluster: 1,024 nodes with 8 hot spares, per the capacity review."

[cluster]
instance = "p5.48xlarge"
nodes = 1024
spare_nodes = 8
"""


def test_issue18_unknown_instance_in_a_link_is_reported_not_replaced(catalog):
    """It used to fall back silently to the first catalog entry (p4d.24xlarge)."""
    params = {"preset": "aws-16k-h100", "cluster.instance": "abc"}
    try:
        url_state.decode(params, catalog)
    except ValidationError as exc:
        assert exc.field == "link parameter 'cluster.instance'"
        assert exc.message.startswith("'abc' is not in the catalog; allowed: p4d.24xlarge")
    else:
        raise AssertionError("an unknown instance must not decode")
    at = open_page("overview", params)
    errors = [_as_rendered(e.value) for e in at.main.error]  # atop the page (and the sidebar)
    assert len(errors) == 1 and [_as_rendered(e.value) for e in at.sidebar.error] == errors
    assert errors[0].startswith(
        "The link's scenario could not be read — link parameter 'cluster.instance': "
        "'abc' is not in the catalog; allowed: p4d.24xlarge, p5.48xlarge"
    )
    assert errors[0].endswith("Showing the aws-16k-h100 preset instead.")
    # the page shows the default preset whole, not the link with another instance
    assert at.session_state["w:cluster.instance"] == "p5.48xlarge"


def test_an_unknown_instance_in_an_upload_changes_nothing(catalog):
    bad = UPLOAD.replace(b"p5.48xlarge", b"p9.huge")
    try:
        state.load_upload("plan.toml", bad, catalog)
    except ValidationError as exc:
        assert exc.field == "plan.toml: cluster.instance"
        assert exc.message.startswith("'p9.huge' is not in the catalog; allowed: ")
    else:
        raise AssertionError("an unknown instance must not load")


def test_issue18_an_uploaded_description_travels_in_the_link(catalog):
    scenario = state.load_upload("plan.toml", UPLOAD, catalog)
    params = url_state.encode(scenario, "aws-16k-h100")
    assert params["description"] == scenario.description
    back, preset = url_state.decode(params, catalog)
    assert back == scenario and preset == "aws-16k-h100"
    # an unmodified preset keeps its link short: its description comes from the preset
    assert "description" not in url_state.encode(load_preset("llama3-16k"), "llama3-16k")


def test_the_description_in_the_app_link_reaches_a_colleague(catalog):
    sender = open_page("overview")
    sender.session_state[state.DESC_KEY] = "Shared with finance: see row 3."
    sender.run()
    link = dict(sender.query_params)
    assert link["description"] == "Shared with finance: see row 3."
    receiver = open_page("overview", link)
    assert receiver.session_state[state.DESC_KEY] == "Shared with finance: see row 3."
    assert any("Shared with finance" in c.value for c in receiver.caption)


def test_a_description_is_size_capped_in_links():
    long = "d" * (url_state.MAX_DESC_CHARS + 1)
    try:
        url_state.decode({"description": long})
    except ValidationError as exc:
        assert exc.field == "link parameter 'description'"
        assert exc.message == "is longer than 2,000 characters"
    else:
        raise AssertionError("an oversized description must not decode")
    ok, _ = url_state.decode({"description": long[:-1]})
    assert ok.description == long[:-1]


def test_issue18_link_error_lines_never_echo_500_characters():
    """Error lines echoed 500+ characters of the bad value."""
    for params in (
        {"cluster.instance": "x" * 190, "cluster.nodes": "y" * 199},
        {"cluster.nodes": "9" * 199},
        {"name": "![t](x.png)", "checkpoint.strategy": "z" * 199},
        {"q" * 600: "1"},
        {"cmp.baseline": "w" * 199},
    ):
        at = open_page("overview", params)
        for e in at.error:
            longest = max(len(word) for word in e.value.split())
            assert longest < 200, e.value
            assert len(e.value) < 700, e.value
