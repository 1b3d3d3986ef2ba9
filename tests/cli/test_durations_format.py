"""A short MTBF read "0.02 h" and a Capacity Block "98.00 days": where the registry writes
hours, a duration under an hour reads in minutes (under a minute in seconds), and whole days
read without decimals (models.outputs.format_value, which CLI text, tiles and reports use)."""

from __future__ import annotations

from goodput_lab.models.outputs import format_value

from tests.cli.test_cli import goodput


def test_hours_under_an_hour_read_in_minutes():
    assert format_value("mtbf_hours", 0.02) == "1.2 min"
    assert format_value("mtbf_hours", 0.5) == "30.0 min"
    assert format_value("mtbf_hours", 0.005) == "18.0 s"
    assert format_value("mtbf_hours", 1.0) == "1.00 h"
    assert format_value("mtbf_hours", 5.672) == "5.67 h"
    assert format_value("fitted_job_mtbf_hours", 0.02) == "1.2 min"
    # a cell under a header that says (h) stays in hours
    assert format_value("mtbf_hours", 0.02, unit=False) == "0.02"


def test_whole_days_read_without_decimals():
    assert format_value("block_days", 98.0) == "98 days"
    assert format_value("block_days", 1.0) == "1 day"
    assert format_value("block_days", 92.49) == "92.49 days"
    assert format_value("time_to_train_days", 45.0) == "45 days"
    assert format_value("time_to_train_delta_days", -2.0, signed=True) == "−2 days"


def test_evaluate_prints_a_short_mtbf_in_minutes():
    out = goodput("evaluate", "aws-16k-h100", "--set", "reliability.node_failure_rate_per_day=0.6")
    assert out.returncode == 0, out.stderr
    assert "(MTBF 1.2 min)" in out.stdout  # 1,200 failures a day


def test_fit_prints_the_job_mtbf_with_the_registry_format(tmp_path):
    log = tmp_path / "fast.csv"
    rows = [f"2024-01-01T00:{m:02d}:00Z,n{m % 3}" for m in (0, 1, 3, 4, 6, 8)]
    log.write_text("timestamp,node_id\n" + "\n".join(rows) + "\n")
    out = goodput("fit", str(log))
    assert out.returncode == 0, out.stderr
    assert "job MTBF (exponential)     1.6 min" in out.stdout  # 8 min over 5 gaps
