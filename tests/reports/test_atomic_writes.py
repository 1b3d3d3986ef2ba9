"""Issue 18: reports are written to a temporary file beside the target and renamed, so a
failed or interrupted write never leaves a truncated file or destroys the previous one."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from goodput_lab.models import ValidationError, _files

from goodput_lab.cli.main import main
from tests.cli.test_cli import BASE


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_write_atomic_replaces_the_file_whole(tmp_path):
    target = tmp_path / "r.html"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    _files.write_atomic(target, b"new report")
    assert target.read_bytes() == b"new report"
    assert os.stat(target).st_mode & 0o777 == 0o640  # the previous file's permissions
    assert os.listdir(tmp_path) == ["r.html"]


@pytest.mark.parametrize("fmt", [".html", ".csv", ".toml"])
def test_issue18_full_disk_leaves_the_previous_report_intact(tmp_path, capsys, monkeypatch, fmt):
    """``report -o r.html`` on a full disk used to truncate the file and lose the old one."""
    target = tmp_path / f"r{fmt}"
    target.write_bytes(b"previous report")
    monkeypatch.setattr(_files.os, "fsync", _no_space)
    rc = main(["report", BASE, "-o", str(target)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.strip() == f"goodput: -o: '{target}' cannot be written (No space left on device)"
    assert target.read_bytes() == b"previous report"
    assert os.listdir(tmp_path) == [target.name]  # no temporary file left


def test_issue18_interrupted_write_removes_its_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "r.csv"
    target.write_bytes(b"previous")

    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(_files.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        _files.write_atomic(target, b"x" * 5_000_000)
    assert target.read_bytes() == b"previous"
    assert os.listdir(tmp_path) == ["r.csv"]


def test_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ValidationError, match=r"cannot be written \(No such file or directory\)"):
        _files.write_atomic(tmp_path / "nope" / "r.html", b"x")


def test_writing_over_a_folder_is_a_clear_error(tmp_path):
    (tmp_path / "r.html").mkdir()
    with pytest.raises(ValidationError, match="cannot be written"):
        _files.write_atomic(tmp_path / "r.html", b"x")
    assert sorted(os.listdir(tmp_path)) == ["r.html"]


@pytest.mark.browser
def test_issue18_pdf_rendering_writes_no_temporary_file(monkeypatch, catalog):
    """The print HTML (4.9 MB with plotly.js) is served to Chromium from memory: a killed
    report used to leave it behind in the temp folder."""
    import tempfile

    from goodput_lab.models import load_preset

    from goodput_lab.reports import build_report, render

    def forbidden(*args, **kwargs):
        raise AssertionError("the PDF renderer must not create temporary files")

    for name in ("TemporaryDirectory", "mkdtemp", "mkstemp", "NamedTemporaryFile"):
        monkeypatch.setattr(tempfile, name, forbidden)
    report = build_report(load_preset("aws-16k-h100"), catalog=catalog)
    assert render(report, ".pdf").startswith(b"%PDF")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_issue18_terminated_report_leaves_no_temporary_file(tmp_path):
    """``kill`` (SIGTERM) during a report unwinds: exit 143, nothing left in the output
    folder or the temp folder."""
    out_dir, tmp_dir = tmp_path / "out", tmp_path / "tmp"
    out_dir.mkdir()
    tmp_dir.mkdir()
    script = Path(sys.executable).with_name("goodput")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "goodput_lab._console"]
    proc = subprocess.Popen(
        [*cmd, "report", BASE, "--trials", "200000", "-o", str(out_dir / "r.html")],
        env={**os.environ, "TMPDIR": str(tmp_dir)},
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:  # until it is simulating
        time.sleep(0.5)
        if _cpu_seconds(proc.pid) > 6.0:
            break
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode in (143, -signal.SIGTERM)
    assert os.listdir(out_dir) == []
    assert os.listdir(tmp_dir) == []


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
