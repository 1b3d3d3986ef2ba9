"""The lazy sidebar: closed advanced groups and popovers draw no widgets, yet every field
still travels in the link, reaches the model and shows up when its group is opened."""

from __future__ import annotations

from goodput_lab.dashboard import state, url_state
from goodput_lab.dashboard.components import sidebar
from goodput_lab.models import FIELDS, load_preset

from tests.dashboard._pages import open_page, open_sidebar


def _sidebar_widget_keys(at) -> set[str]:
    kinds = ("number_input", "slider", "selectbox", "checkbox", "text_input")
    return {w.key for kind in kinds for w in at.get(kind) if str(w.key).startswith("w:")}


def test_closed_groups_draw_only_the_essentials():
    at = open_page("overview")
    drawn = {k.removeprefix("w:").split(":")[0] for k in _sidebar_widget_keys(at)}
    assert drawn <= {*sidebar.ESSENTIALS, "name"}
    assert not [b for b in at.get("download_button") if "export." in b.proto.id]  # popover shut
    assert set(at.session_state[state.VALUES_KEY]) >= set(FIELDS)  # every value still kept


def test_an_advanced_field_travels_with_its_group_closed():
    s = load_preset("aws-16k-h100").replace(
        {"cluster.spare_nodes": 5, "network.inter_node_efficiency": 0.6}
    )
    at = open_page("overview", url_state.encode(s, "aws-16k-h100"))
    assert at.query_params["cluster.spare_nodes"] == "5"  # written back, group closed
    assert at.query_params["network.inter_node_efficiency"] == "0.6"
    assert "w:cluster.spare_nodes" not in _sidebar_widget_keys(at)
    open_sidebar(at, "Recovery and hot spares", "Network")
    assert at.number_input(key="w:cluster.spare_nodes").value == 5
    assert at.slider(key="w:network.inter_node_efficiency").value == 60.0  # shown in %
    at.number_input(key="w:cluster.spare_nodes").set_value(7).run()
    at.session_state[sidebar.group_key("Recovery and hot spares")] = False
    at.run()  # closed again: the edit stays in the scenario and the link
    assert not at.exception
    assert at.query_params["cluster.spare_nodes"] == "7"
    assert at.session_state[state.VALUES_KEY]["cluster.spare_nodes"] == 7
