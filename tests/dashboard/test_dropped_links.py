"""Issue 30: a link Streamlit throws away (over 1,000 parameters or 512 Ki characters) is
said to be ignored, instead of the default preset appearing as if no link had been given."""

from __future__ import annotations

from goodput_lab.dashboard import url_state
from streamlit.runtime.state.query_params import sanitize_query_string


class AppSession:  # the name Streamlit's session class has; what the watcher looks for
    def __init__(self, session_id: str) -> None:
        self.id = session_id

    def handle(self, query: str) -> str:
        return sanitize_query_string(query)  # as AppSession does with a rerun's link


def test_a_link_over_1000_parameters_is_noted_for_its_session_once():
    url_state.watch_dropped_links()
    url_state.watch_dropped_links()  # idempotent
    big = "&".join(f"inst.price.a{i}=1" for i in range(1001))
    assert AppSession("s1").handle(big) == ""  # Streamlit's own limit
    assert AppSession("s2").handle("preset=aws-16k-h100") == "preset=aws-16k-h100"
    note = url_state.dropped_link("s1")
    assert note is not None and "1001 parameters" in note and "1000 parameter limit" in note
    assert url_state.dropped_link("s1") is None  # told once
    assert url_state.dropped_link("s2") is None  # a link that was read is not noted
    assert url_state.dropped_link(None) is None


def test_a_link_over_512_ki_characters_is_noted():
    url_state.watch_dropped_links()
    assert AppSession("s3").handle("name=" + "x" * (512 * 1024)) == ""
    assert "character limit" in (url_state.dropped_link("s3") or "")
