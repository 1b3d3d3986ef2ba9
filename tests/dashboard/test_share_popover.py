"""The Share popover says what a link cannot carry: an uploaded file on the Failure log and
Run log pages (QA 29 #7), page settings a link would refuse; and a scenario name travels
whole, as long as a scenario allows (QA 29 #15)."""

from __future__ import annotations

import pytest
from goodput_lab.dashboard import state, url_state
from goodput_lab.dashboard.components import sidebar
from goodput_lab.models import ValidationError, load_preset
from streamlit.testing.v1 import AppTest

from tests.conftest import DATA_DIR
from tests.dashboard._pages import open_page, open_sidebar


# ------------------------------------------------------ QA 29 #7: uploads are not in links
def _popover_warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.sidebar.warning]


def test_run_log_share_popover_says_the_uploaded_timeline_is_not_in_the_link():
    at = open_page("run_log")
    open_sidebar(at, "Share")
    (before,) = _popover_warnings(at)  # said before any upload, and why
    assert "a timeline uploaded on this page" in before
    assert "sees the synthetic example run" in before
    timeline = (DATA_DIR / "timelines" / "example-run.csv").read_bytes()
    at.file_uploader(key="run_log:upload").set_value(("mine.csv", timeline, "text/csv")).run()
    assert not at.exception
    (note,) = _popover_warnings(at)
    assert note.startswith("Not in the link: your timeline 'mine.csv'.")
    assert "press 'Load the fitted scenario into the sidebar' on the page first" in note
    assert any(b.label == "Load the fitted scenario into the sidebar" for b in at.button)


def test_failure_log_share_popover_says_an_uploaded_log_is_not_in_the_link():
    at = open_page("failure_log")
    open_sidebar(at, "Share")
    (note,) = _popover_warnings(at)
    assert "Not in the link: a failure log uploaded on this page" in note
    assert "sees the synthetic sample log" in note
    assert "press 'Use the fitted values in the scenario' on the page first" in note
    assert any(b.label == "Use the fitted values in the scenario" for b in at.button)


def test_pages_without_an_upload_share_without_that_note():
    at = open_page("overview")
    open_sidebar(at, "Share")
    assert _popover_warnings(at) == []
    assert sidebar.upload_note("overview") is None


# -------------------------------------------------- QA 29 #15: a name is carried whole
def test_a_name_as_long_as_a_scenario_allows_travels_whole_in_the_link():
    """QA 29 #15: a 1,500-character name (a scenario allows 2,000) arrived cut to 400 with
    no word. Every name travels whole now: the worst link (2,000-character names and
    descriptions outside ASCII, every other value at its limit) is about 77,000 characters,
    within Streamlit's server (about 128,000 measured) and browsers' limits."""
    for name in ("N" * 1500, "\U0001f600" * 2000):
        scenario = load_preset("aws-16k-h100").replace({}, name=name)
        link = url_state.encode(scenario, "aws-16k-h100")
        assert link["name"] == name
        assert url_state.decode(link)[0].name == name
    with pytest.raises(ValidationError, match="longer than 2,000 characters"):
        url_state.decode({"name": "N" * 2001})


def test_an_uploaded_long_name_is_in_the_share_link_and_the_name_box_whole():
    at = open_page("overview")
    open_sidebar(at, "Share")
    name = "Q" * 1500
    toml = load_preset("aws-16k-h100").replace({}, name=name).to_toml().encode()
    at.file_uploader(key=state.UPLOAD_KEY).set_value(("long.toml", toml, "text/plain")).run()
    at.run()  # a rerun kept only the name box's 200 characters before
    assert not at.exception
    assert at.text_input(key=state.NAME_KEY).value == name
    (link,) = [c.value for c in at.sidebar.code]
    assert "name=" + name + "&" in link
    assert sidebar.left_out() == []


def test_the_share_popover_names_compare_edits_a_link_would_refuse():
    at = open_page("compare")
    edits = "\n".join(["cluster.spare_nodes = 2"] * 21)
    at.text_area(key="widget::cmp:candidate:edits").input(edits).run()
    open_sidebar(at, "Share")
    notes = [c.value for c in at.sidebar.caption if c.value.startswith("Not carried")]
    assert len(notes) == 1 and "'cmp.candidate_edits'" in notes[0], notes
    assert "is longer than 400 characters" in notes[0]
