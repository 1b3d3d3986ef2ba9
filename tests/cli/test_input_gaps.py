"""Input paths found by the issue #8 audit: each states the contract (exit 2, one line
naming the input, no traceback).  The huge-integer case of --set is in tests/fuzz."""

from __future__ import annotations

from tests.cli.test_cli import goodput
from tests.conftest import SCENARIOS


def test_dashboard_port_out_of_range_is_a_clear_error():
    out = goodput("dashboard", "--port", "999999")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and "--port" in out.stderr


def test_huge_integer_override_is_a_clear_error():
    out = goodput(
        "evaluate", str(SCENARIOS / "aws-16k-h100.toml"), "--set", "cluster.nodes=" + "9" * 400
    )
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("goodput: cluster.nodes:")
