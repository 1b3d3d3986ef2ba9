"""Issue 18: export failures are visible and offer no file.  With Chromium missing the
dashboard's PDF download was a 158-byte "Export failed" text file named .pdf; a hung
Chromium blocked 180 s (Playwright's default launch timeout); GOODPUT_CHROMIUM pointing at
a missing file was silently ignored."""

from __future__ import annotations

import os
import time

import pytest
from goodput_lab.dashboard.components import export_buttons
from goodput_lab.models import ValidationError, load_preset
from streamlit.testing.v1 import AppTest

from goodput_lab.reports import pdf
from tests.conftest import APP
from tests.dashboard._pages import open_sidebar


def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_issue18_goodput_chromium_pointing_at_a_missing_file_is_an_error(monkeypatch, tmp_path):
    missing = str(tmp_path / "no-such-chromium")
    monkeypatch.setenv("GOODPUT_CHROMIUM", missing)
    with pytest.raises(ValidationError) as exc:
        pdf.chromium_path()
    assert exc.value.field == "GOODPUT_CHROMIUM"
    assert exc.value.message.endswith(" does not exist (set it to a Chromium binary)")
    assert exc.value.message.startswith(repr(missing)[:40])


def test_goodput_chromium_that_is_not_executable_is_an_error(monkeypatch, tmp_path):
    path = tmp_path / "chromium"
    path.write_text("")
    path.chmod(0o644)
    monkeypatch.setenv("GOODPUT_CHROMIUM", str(path))
    with pytest.raises(ValidationError, match="is not executable"):
        pdf.chromium_path()


def test_issue18_missing_chromium_disables_the_pdf_button_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv("GOODPUT_CHROMIUM", str(tmp_path / "gone"))
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    open_sidebar(at, "Export")  # the sidebar's export popover, opened
    assert not at.exception
    buttons = {b.proto.label: b.proto for b in at.get("download_button") if "export." in b.proto.id}
    assert buttons["PDF report"].disabled
    assert not buttons["PDF report"].deferred_file_id  # no file is offered
    assert buttons["HTML report"].deferred_file_id and not buttons["HTML report"].disabled
    notes = [c.value for c in at.caption if c.value.startswith("PDF report unavailable")]
    assert len(notes) == 1
    assert "GOODPUT_CHROMIUM" in notes[0] and "does not exist" in notes[0]


def test_issue18_a_failed_pdf_build_offers_no_file(monkeypatch, tmp_path):
    """A browser that fails at launch: the deferred build raises (Streamlit then shows
    'Failed to generate file for download' and offers nothing) and keeps our message for
    the sidebar; it no longer returns an 'Export failed' text as the PDF's bytes."""
    monkeypatch.setenv("GOODPUT_CHROMIUM", _script(tmp_path, "chromium", "exit 1"))
    scenario = load_preset("aws-16k-h100").replace(name="export failure test")
    build = export_buttons._deferred(scenario, ".pdf")
    with pytest.raises(export_buttons.ExportFailed) as exc:
        build()
    assert "Chromium failed" in str(exc.value)
    assert "Chromium failed" in export_buttons._last_failure(scenario, ".pdf")
    assert export_buttons._last_failure(load_preset("aws-16k-h100"), ".pdf") is None


def test_issue18_a_hung_chromium_fails_within_our_launch_timeout(monkeypatch, tmp_path):
    monkeypatch.setenv("GOODPUT_CHROMIUM", _script(tmp_path, "chromium", "exec sleep 600"))
    monkeypatch.setattr(pdf, "LAUNCH_TIMEOUT_MS", 2_000)
    report = export_buttons.build_report(load_preset("aws-16k-h100"), detail=True)
    start = time.monotonic()
    with pytest.raises(ValidationError) as exc:
        pdf.render_pdf(report)
    assert time.monotonic() - start < 60  # 2 s launch timeout plus start-up on a busy host
    assert exc.value.field == "PDF output"
    assert "Chromium failed" in exc.value.message and "Timeout 2000ms" in exc.value.message


def test_the_launch_timeout_is_ours():
    assert pdf.LAUNCH_TIMEOUT_MS == 20_000
    assert pdf.RENDER_TIMEOUT_MS == 30_000
    assert os.environ.get("GOODPUT_CHROMIUM") is None or os.path.isfile(
        os.environ["GOODPUT_CHROMIUM"]
    )
