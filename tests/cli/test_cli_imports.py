"""The CLI answers at once: building the parser and ``goodput evaluate`` import none of the
heavy libraries (the rule in goodput_lab/cli/main.py's docstring), checked in a fresh interpreter
through sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("scipy.stats", "scipy.optimize", "plotly", "polars", "streamlit", "dask", "distributed")

_PROBE = """
import contextlib, io, json, sys
from goodput_lab.cli import main as cli
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        status = cli.main(sys.argv[1:])
    except SystemExit as exc:  # --help
        status = exc.code
heavy = sorted(m for m in sys.modules if any(m == p or m.startswith(p + ".") for p in HEAVY))
print(json.dumps({"status": status, "heavy": heavy, "out": out.getvalue()[:200]}))
""".replace("HEAVY", repr(HEAVY))


def _probe(*argv: str) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    "argv",
    [
        ("evaluate", "aws-16k-h100", "--json"),
        ("evaluate", "hyperpod-tiered-16k-h100"),
        ("compare", "aws-16k-h100", "aws-16k-h100-improved", "--json"),
        ("--help",),
    ],
)
def test_light_commands_import_no_heavy_library(argv):
    got = _probe(*argv)
    assert got["status"] == 0
    assert got["heavy"] == []


def test_the_probe_sees_a_heavy_import():
    """The check can fail: ``goodput fit`` needs scipy.stats and imports it."""
    got = _probe("fit", "/nonexistent.csv")
    assert got["status"] == 2
    assert "scipy.stats" in got["heavy"]
