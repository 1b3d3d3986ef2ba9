"""`--set` of the failure rate alone moves (or empties) a stated 80% interval of it
(models.scenario.interval_follows_rate): the sidebar said so, the CLI said nothing."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import goodput

RATE = "reliability.node_failure_rate_per_day"
STATED = """name = "stated interval"
[reliability]
node_failure_rate_per_day = 0.0042
node_failure_rate_low = 0.004
node_failure_rate_high = 0.0045
"""
HOW = (
    "(set reliability.node_failure_rate_low and reliability.node_failure_rate_high to state "
    "another)."
)


@pytest.fixture
def stated(tmp_path):
    path = tmp_path / "stated.toml"
    path.write_text(STATED)
    return str(path)


def test_a_moved_interval_is_said_on_stderr(stated):
    out = goodput("evaluate", stated, "--set", f"{RATE}=0.0021")
    assert out.returncode == 0, out.stderr
    assert out.stderr == (
        "note: The failure rate's stated 80% interval (0.4–0.45%) moved with the rate: → "
        f"0.2–0.225% per node-day {HOW}\n"
    )
    assert "moved with the rate" not in out.stdout  # the note is on stderr only


def test_an_emptied_interval_says_the_fleet_prior_is_used(stated):
    out = goodput("evaluate", stated, "--set", f"{RATE}=0")
    assert out.returncode == 0, out.stderr
    assert out.stderr == (
        "note: The failure rate's stated 80% interval (0.4–0.45%) no longer applies at this "
        f"rate: the fleet prior around the rate is used {HOW}\n"
    )


def test_json_stdout_stays_one_object(stated):
    out = goodput("evaluate", stated, "--set", f"{RATE}=0.0021", "--json")
    assert out.returncode == 0, out.stderr
    assert isinstance(json.loads(out.stdout), dict)


@pytest.mark.parametrize(
    "sets",
    [
        (f"{RATE}=0.0042",),  # the rate as it was: nothing moved
        (f"{RATE}=0.0021", "reliability.node_failure_rate_low=0.001"),  # the user's own
        ("cluster.nodes=100",),  # no rate
    ],
)
def test_no_note_when_nothing_followed_the_rate(stated, sets):
    args = [a for s in sets for a in ("--set", s)]
    out = goodput("evaluate", stated, *args)
    assert out.returncode == 0, out.stderr
    assert "interval" not in out.stderr


def test_no_note_without_a_stated_interval():
    out = goodput("evaluate", "aws-16k-h100", "--set", f"{RATE}=0.002")
    assert out.returncode == 0, out.stderr
    assert "interval" not in out.stderr
