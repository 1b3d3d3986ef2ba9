"""The dashboard's export buttons and the escaping of user text in the app (issue #7)."""

from __future__ import annotations

import pytest
from goodput_lab.dashboard.components.export_buttons import BUTTONS, file_stem, report_bytes
from goodput_lab.models import load_preset
from streamlit.testing.v1 import AppTest

from tests.conftest import APP
from tests.dashboard._pages import open_sidebar

XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def app() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    open_sidebar(at, "Export")  # the sidebar's export popover, opened
    assert not at.exception
    return at


def _export_buttons(at: AppTest) -> dict[str, object]:
    return {b.proto.label: b.proto for b in at.get("download_button") if "export." in b.proto.id}


def test_sidebar_has_deferred_export_buttons(app):
    buttons = _export_buttons(app)
    assert list(buttons) == [label for _fmt, label, _help in BUTTONS]
    for proto in buttons.values():
        assert proto.deferred_file_id  # built on click, not on every rerun
        assert proto.ignore_rerun


def test_scenario_name_with_markup_is_text_in_the_app(app):
    app.text_input(key="w:name").set_value(XSS).run()
    assert not app.exception
    shown = [
        el
        for kind in ("markdown", "caption", "title", "header", "subheader", "text")
        for el in app.get(kind)
        if "alert" in str(getattr(el, "value", "") or getattr(el.proto, "body", ""))
    ]
    assert shown, "the scenario name should be displayed"
    for el in shown:  # as text: Markdown and HTML characters escaped (dashboard.text.plain)
        assert r"\<script\>alert(1)\</script\>" in str(el.value)
        assert not getattr(el.proto, "allow_html", False)  # rendered as text, never as HTML
        body = str(getattr(el, "value", "") or getattr(el.proto, "body", ""))
        assert "<script>" not in body or "\\<script\\>" in body  # Markdown-escaped
    # the only raw HTML is the app's own static stylesheet (tile labels wrap), never user text
    for el in app.get("html"):
        body = str(el.proto.body)
        assert body.startswith("<style>") and body.endswith("</style>"), body[:80]
        assert "alert" not in body and "<script" not in body


def test_export_bytes_escape_the_name():
    scenario = load_preset("aws-16k-h100").replace(name=XSS)
    html = report_bytes(scenario, ".html").decode("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert XSS not in html
    assert report_bytes(scenario, ".toml").decode().startswith('name = "<script>alert(1)</script>"')


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        (XSS, "script-alert-1-script-goodput"),
        ("AWS 16k H100: baseline (0.2%/day)", "aws-16k-h100-baseline-0-2-day-goodput"),
        ("../../etc/passwd", "etc-passwd-goodput"),
        ("???", "scenario-goodput"),
    ],
)
def test_file_stem_is_safe(name, stem):
    assert file_stem(name) == stem
