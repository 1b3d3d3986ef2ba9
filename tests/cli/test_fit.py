"""`goodput fit` as a subprocess: JSON contract, --map, --nodes, and bad input (exit 2)."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import goodput
from tests.conftest import DATA_DIR

SAMPLE = str(DATA_DIR / "failure_logs" / "synthetic-sample.csv")


def test_fit_json_on_sample_log():
    out = goodput("fit", SAMPLE, "--nodes", "1024", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["nodes"] == 1024 and d["failures"] == 797 and d["incidents"] == 762
    # synthetic truth: 0.4 %/node-day (+2 lemons at 25x), per-node shape 0.75
    # (scripts/make_sample_log.py defaults)
    assert d["node_failure_rate_per_day_lo"] < 0.004 * (1022 + 2 * 25) / 1024
    assert d["node_weibull_shape_lo"] < 0.75 < d["node_weibull_shape_hi"]
    assert d["weibull_shape"] == d["node_weibull_shape"]
    assert len(d["lemon_nodes"]) == 2
    assert d["scenario_overrides"][0].startswith("reliability.node_failure_rate_per_day=0.0041")
    assert d["scenario_overrides"][1].startswith("reliability.weibull_shape=0.74")


def test_fit_text_with_column_mapping(tmp_path):
    log = tmp_path / "log.csv"
    log.write_text(
        "when,host\n2024-01-01T00:00Z,a\n2024-01-01T05:00Z,b\n2024-01-01T06:00Z,c\n"
        "2024-01-02T00:00Z,a\n"
    )
    out = goodput("fit", str(log), "--map", "timestamp=when", "--map", "node_id=host")
    assert out.returncode == 0, out.stderr
    assert "4 failures, 4 incidents over 1.0 days" in out.stdout
    assert "--set reliability.node_failure_rate_per_day=" in out.stdout
    assert "per node     not estimable" in out.stdout  # no node failed twice within the log


@pytest.mark.parametrize(
    ("content", "args", "stderr"),
    [
        (b"timestamp,node_id\n2024-01-01,a\n2024-01-0x,b\n", (), "row 3, column 'timestamp'"),
        (b"timestamp,node_id\n2024-01-01,a\n2024-01-02,\xff\n", (), "row 3, column 'node_id'"),
        (b"timestamp,node_id\n2024-01-01,a\n", ("--map", "node=host"), "--map"),
        # issue 30: a row dated 9999-12-31 was fitted silently with a tight interval
        (
            b"timestamp,node_id\n2024-01-01,a\n2024-03-01,b\n9999-12-31,c\n",
            (),
            "row 4, column 'timestamp': 9999-12-31T00:00:00Z (UTC) is in the future",
        ),
        (b"timestamp,node_id\n1999-12-31T23:00:00,a\n", (), "row 2, column 'timestamp'"),
        (b"timestamp,node_id\n2024-01-01,a\n", ("--nodes", "zero"), "--nodes"),
        (
            b"timestamp,node_id\n2024-01-01,a\n2024-01-02,b\n2024-01-03,c\n",
            ("--nodes", "2"),
            "--nodes",
        ),
    ],
)
def test_fit_bad_input_exits_2_with_one_line(tmp_path, content, args, stderr):
    log = tmp_path / "bad.csv"
    log.write_bytes(content)
    out = goodput("fit", str(log), *args)
    assert out.returncode == 2
    assert stderr in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_fit_missing_file():
    out = goodput("fit", "/nonexistent/log.csv")
    assert out.returncode == 2 and "cannot be read" in out.stderr


def test_job_level_marks_are_not_counted_as_nodes(tmp_path):
    """QA pass 21: ids n1, n2, n1 and "job" read as 3 nodes and 17.1429% per node-day, and
    --nodes 2 was refused as below "the 3 distinct nodes"."""
    log = tmp_path / "mapped.csv"
    log.write_text(
        "when,host,why,mins\n2026-01-01T00:00:00+02:00,n1,GPU,10\n2026-01-02T05:00:00,n2,NIC,5\n"
        "2026-01-03T01:00:00Z,job,software,3\n2026-01-05T07:00:00Z,n1,GPU,\n"
    )
    maps = ("--map", "timestamp=when", "--map", "node_id=host", "--map", "cause=why")
    out = goodput("fit", str(log), *maps)
    assert out.returncode == 0, out.stderr
    # 3 gaps over 105 h, node share 3/4, 2 nodes: 3/105 × 24 × 3/4 / 2 = 25.7143%
    assert "  nodes                      2 (distinct node ids in the log" in out.stdout
    # (the registry's format of the rate, as the pages write it; 25.7143% before)
    assert "node failure rate          25.71% per node-day" in out.stdout
    assert "1 incident marked as the job's own" in out.stdout
    out = goodput("fit", str(log), *maps, "--nodes", "2", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["nodes"] == 2 and d["node_failure_rate_per_day"] == pytest.approx(0.9 / 3.5)


def test_counts_have_thousands_separators(tmp_path):
    """QA pass 21: "137394 failures", "62683 repeat gaps" had no separators."""
    # 1,500 failures, one a minute plus i mod 7 seconds, over nodes n0 ... n2
    rows = ["2024-01-01T00:00:00Z,n0"]
    t = 0
    for i in range(1, 1500):
        t += 60 + i % 7
        rows.append(
            f"2024-01-{1 + t // 86400:02d}T{t // 3600 % 24:02d}:{t // 60 % 60:02d}:"
            f"{t % 60:02d}Z,n{i % 3}"
        )
    log = tmp_path / "many.csv"
    log.write_text("timestamp,node_id\n" + "\n".join(rows) + "\n")
    out = goodput("fit", str(log))
    assert out.returncode == 0, out.stderr
    assert ": 1,500 failures, 1,500 incidents over " in out.stdout
    # each node fails 500 times: 499 gaps each; censored tails to the log's end for two of
    # them (the node that failed last has none)
    assert "; 1,497 repeat gaps, 2 censored, lemons left out)" in out.stdout


def test_fit_json_writes_gap_counts_as_integers():
    """`goodput fit --json` wrote node_n_gaps, node_n_censored and job_n_gaps as 278.0,
    471.0 and 761.0: whole counts are JSON integers, as failures and incidents are."""
    out = goodput("fit", SAMPLE, "--nodes", "1024", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in ("node_n_gaps", "node_n_censored", "job_n_gaps", "failures", "incidents"):
        assert type(d[key]) is int, (key, d[key])
    assert '"job_n_gaps": 761,' in out.stdout


def test_cause_rates_count_only_node_failures(tmp_path):
    """A failure marked as the job's own (node id "job") was counted in its cause's rate per
    node-day, which the node rate leaves out: the causes' rates count node failures only,
    the job's failures are the job-level rate's (the Failure log page reads the same rows)."""
    log = tmp_path / "mapped.csv"
    log.write_text(
        "when,host,why\n2026-01-01T00:00:00+02:00,n1,GPU\n2026-01-02T05:00:00,n2,NIC\n"
        "2026-01-03T01:00:00Z,job,software\n2026-01-05T07:00:00Z,n1,GPU\n"
        "2026-01-06T07:00:00Z,n2,software\n"
    )
    maps = ("--map", "timestamp=when", "--map", "node_id=host", "--map", "cause=why")
    out = goodput("fit", str(log), *maps, "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    causes = {c["category"]: c for c in d["causes"]}
    # the node rate's exposure: 5 incidents, 4 gaps over the span (models.fitting)
    node_days = 2 * d["span_days"] * 5 / 4
    software = causes["software_bug"]
    assert software["failures"] == 2  # the job's failure and n2's: both in the count
    assert software["rate_per_node_day"] == pytest.approx(1 / node_days, rel=1e-12)
    assert causes["faulty_gpu"]["rate_per_node_day"] == pytest.approx(2 / node_days, rel=1e-12)
    # the node failures' rates add up to the node failures per node-day
    assert sum(c["rate_per_node_day"] for c in d["causes"]) == pytest.approx(4 / node_days)
    assert d["node_failure_rate_per_day"] == pytest.approx(4 / node_days, rel=1e-12)
    text = goodput("fit", str(log), *maps).stdout
    assert "the causes' rates leave out the 1 failure marked as the job's own" in text


def test_fit_prints_and_sets_the_repair_time_of_stepfuns_trace():
    """The repair lines in the registry's formats, one range format, and the two --set
    values the Failure log page's button applies (models.fitting.scenario_values)."""
    log = str(DATA_DIR / "failure_logs" / "stepfun-infinitehbd-2024.csv")
    out = goodput("fit", log).stdout
    assert (
        "  repair time per failure    mean 132.8 h (95% CI 106.1–159.7 h, bootstrap), median "
        "20.4 h (584 downtimes of node failures, 14 of them 0)\n"
    ) in out
    assert "  repair lognormal shape     1.94 (95% CI 1.78–2.04): the lognormal" in out
    assert "--set reliability.repair_hours=132.84 --set simulation.repair_sigma=1.93605" in out
    d = json.loads(goodput("fit", log, "--json").stdout)
    assert d["repair_hours_mean"] == pytest.approx(132.840, abs=1e-3)
    assert d["repairs"] == 584 and d["repair_sigma_hi"] > d["repair_sigma"]
