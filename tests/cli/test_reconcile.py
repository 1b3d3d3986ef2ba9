"""`goodput reconcile` as a subprocess: the JSON contract, the fitted TOML, what-if, bad input."""

from __future__ import annotations

import gzip
import json

import pytest
from goodput_lab.models import Scenario, evaluate
from goodput_lab.models.outputs import OUTPUTS

from goodput_lab.cli.main import main
from tests.cli.test_cli import goodput
from tests.conftest import DATA_DIR

EXAMPLE = str(DATA_DIR / "timelines" / "example-run.csv")
FITTED_KEYS = (
    "failure_rate_per_node_day",
    "failure_rate_per_node_day_lo",
    "failure_rate_per_node_day_hi",
    "save_seconds",
    "restore_seconds",
    "recovery_minutes",
    "step_seconds",
    "checkpoint_interval_minutes",
)


def test_reconcile_json_contract_on_the_example(tmp_path):
    out_toml = tmp_path / "fitted.toml"
    out = goodput(
        "reconcile",
        EXAMPLE,
        "--nodes",
        "2000",
        "--scenario",
        "aws-16k-h100",
        "--set",
        "checkpoint.save_seconds=10",
        "--trials",
        "300",
        "--write-scenario",
        str(out_toml),
        "--json",
    )
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    # the example's header states the generator's truth: goodput 0.794051, 22 failures
    assert d["measured_goodput"] == pytest.approx(0.794051, abs=1e-6)
    assert d["failure_events"] == 22
    assert abs(d["predicted_goodput"] - d["measured_goodput"]) < 0.015
    assert d["predicted_goodput_p5"] < d["predicted_goodput"] < d["predicted_goodput_p95"]
    assert d["monte_carlo_trials"] == 300
    f = d["fitted"]
    for key in FITTED_KEYS:
        assert isinstance(f[key], float), key
    assert f["save_seconds"] == pytest.approx(45.0, rel=0.05)
    assert f["failure_rate_per_node_day_lo"] < 0.004 < f["failure_rate_per_node_day_hi"]
    assert set(d["timeline_buckets"]) == {
        "checkpoint_save",
        "restore",
        "recovery",
        "rework",
        "other",
    }
    # the same run under ml-goodput-measurement's badput names (and ours where none fits)
    assert {
        "UNPRODUCTIVE_CHECKPOINT_SAVE_TIME",
        "UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME",
        "WASTED_PROGRESS_FROM_DISRUPTION",
        "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION",
    } <= set(d["buckets"])
    for name, t in (
        ("UNPRODUCTIVE_CHECKPOINT_SAVE_TIME", "checkpoint_save"),
        ("WASTED_PROGRESS_FROM_DISRUPTION", "rework"),
        ("INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION", "recovery"),
    ):
        b, tb = d["buckets"][name], d["timeline_buckets"][t]
        assert b["measured_hours"] == pytest.approx(tb["measured_hours"])
        assert b["predicted_group_hours"] == pytest.approx(tb["predicted_hours"])
    price = 98.32 * 2000  # aws-16k-h100's price in force, per hour of the whole job
    for b in d["timeline_buckets"].values():
        assert b["measured_usd"] == pytest.approx(b["measured_hours"] * price)
        assert b["predicted_usd"] == pytest.approx(b["predicted_hours"] * price)
    assert d["run_cost_usd"] == pytest.approx(48.0 * price)
    w = d["what_if"]
    assert w["what_if_set"] == ["checkpoint.save_seconds=10"]
    assert w["goodput_delta"] > 0 and w["run_savings_usd"] == pytest.approx(
        w["savings_usd_per_day"] * d["run_days"]
    )
    assert d["scenario_written"] == str(out_toml)
    # the written scenario is what the rest of the tool reads, with the fit in it
    s = Scenario.load(out_toml)
    assert s["reliability.node_failure_rate_per_day"] == pytest.approx(
        f["failure_rate_per_node_day"]
    )
    assert s["pricing.usd_per_instance_hour"] == 98.32
    assert evaluate(s)["goodput"] == pytest.approx(d["predicted_goodput"], abs=1e-12)
    ev = goodput("evaluate", str(out_toml), "--json")
    assert ev.returncode == 0, ev.stderr
    assert "reliability.node_failure_rate_per_day=" in " ".join(d["scenario_overrides"])
    # every leaf key is in the output registry
    for key in (k for k in d if k not in ("buckets", "timeline_buckets", "fitted", "what_if")):
        assert key in OUTPUTS, key
    for key in [*f, *w, *next(iter(d["buckets"].values()))]:
        assert key in OUTPUTS, key


def test_reconcile_text_gzip_and_mapping(tmp_path):
    text = (DATA_DIR / "timelines" / "example-run.csv").read_text()
    renamed = text.replace("timestamp,event,step,node_id", "time_utc,kind,global_step,host")
    renamed = renamed.replace(",failure,", ",NODE_DOWN,")
    path = tmp_path / "renamed.csv.gz"
    path.write_bytes(gzip.compress(renamed.encode()))
    out = goodput(
        "reconcile",
        str(path),
        "--map",
        "timestamp=time_utc",
        "--map",
        "event=kind",
        "--map",
        "step=global_step",
        "--map",
        "node_id=host",
        "--map",
        "failure=NODE_DOWN",
        "--trials",
        "50",
    )
    assert out.returncode == 0, out.stderr
    assert "measured goodput     79.41%" in out.stdout
    assert "on 2,000 nodes (the file's # nodes= line)" in out.stdout  # gzip read too
    assert "Rework" in out.stdout and "fitted failure rate" in out.stdout


BAD_TIMELINE = (
    "timestamp,event,step\n2024-01-01T00:00:00Z,job_start,\n2024-01-01T00:00:10Z,step_end,x\n"
)


BAD_CASES = [
    (BAD_TIMELINE, (), "row 3, column 'step'"),
    ("timestamp,event\n2024-01-01T00:00:00Z,job_start\n", ("--nodes", "0"), "--nodes"),
    ("timestamp,event\n", ("--nodes", "many"), "--nodes"),
    ("timestamp,event\n", ("--map", "when"), "--map"),
    ("timestamp,event\n", ("--trials", "0"), "--trials"),
    ("timestamp,event\n", ("--set", "checkpoint.save_seconds=-1"), "checkpoint.save_seconds"),
    ("timestamp,event\n", ("--set", "nonsense"), "--set"),
    ("timestamp,event\n", ("--write-scenario", "out.txt"), "must end in .toml"),
    ("timestamp,event\n", ("--scenario", "no-such-preset"), "no-such-preset"),
    ("timestamp,event\n", (), "no event rows"),
    # issue 30: a 6 KB JSON-lines timeline nested 1,000 deep was a RecursionError traceback
    (
        '{"timestamp": "2024-01-01T00:00:00Z", "event": "job_start"}\n'
        '{"timestamp": "2024-01-01T00:00:10Z", "event": "step_end", "step": '
        + "[" * 1000
        + "1"
        + "]" * 1000
        + "}\n",
        (),
        "row 2: is nested more than 5 levels deep",
    ),
]


@pytest.mark.parametrize(("content", "args", "stderr"), BAD_CASES)
def test_reconcile_bad_input_exits_2_with_one_line(tmp_path, capsys, content, args, stderr):
    """In-process through cli.main (the same handler and error path as the subprocess)."""
    path = tmp_path / "t.csv"
    path.write_text(content)
    args = tuple(str(tmp_path / a) if a == "out.txt" else a for a in args)
    assert main(["reconcile", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert stderr in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.parametrize(("content", "args", "stderr"), [BAD_CASES[0], BAD_CASES[7], BAD_CASES[-1]])
def test_reconcile_bad_input_as_a_subprocess(tmp_path, content, args, stderr):
    path = tmp_path / "t.csv"
    path.write_text(content)
    args = tuple(str(tmp_path / a) if a == "out.txt" else a for a in args)
    out = goodput("reconcile", str(path), *args)
    assert out.returncode == 2, out.stdout
    assert stderr in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_reconcile_missing_file():
    out = goodput("reconcile", "/nonexistent/run.csv")
    assert out.returncode == 2 and "cannot be read" in out.stderr


def test_short_run_what_if_stays_below_100_percent(tmp_path):
    """QA pass 21: an 18-minute run (measured 6 of 18 min, 8 idle after the last step) with
    the failure rate cut from 4% to 0.2% per node-day read "would have measured about
    103.19%": the measured goodput plus +69.86 points."""
    run = tmp_path / "short.csv"
    run.write_text(
        "timestamp,event,step,node_id\n2025-03-01T00:00:00Z,job_start,,\n"
        "2025-03-01T00:05:00Z,step_end,1,\n2025-03-01T00:06:00Z,failure,,n7\n"
        "2025-03-01T00:08:00Z,restore_start,1,\n2025-03-01T00:09:00Z,restore_end,1,\n"
        "2025-03-01T00:10:00Z,step_end,2,\n2025-03-01T00:18:00Z,job_end,,\n"
    )
    sets = (
        "--set",
        "reliability.node_failure_rate_per_day=0.002",
        "--set",
        "reliability.node_failure_rate_low=",
        "--set",
        "reliability.node_failure_rate_high=",
    )
    out = goodput("reconcile", str(run), *sets)
    assert out.returncode == 0, out.stderr
    assert "1 incident in 25 node-days" in out.stdout  # 2,000 nodes × 18/1440 days
    assert "predicted 91.35% (+69.86 points); this run would have measured about 53.11%" in (
        out.stdout
    )
    d = json.loads(goodput("reconcile", str(run), *sets, "--json").stdout)
    w = d["what_if"]
    # 8 idle minutes kept, the 4 failure minutes scaled by the model's badput ratio
    ratio = (1 - w["predicted_goodput"]) / (1 - d["predicted_goodput"])
    assert w["estimated_goodput"] == pytest.approx(1 - (8 + 4 * ratio) / 18, rel=1e-12)


def test_reconcile_prints_the_rate_in_the_registry_format():
    """The CLI printed 0.5500% per node-day (CI 0.3400-0.8300) where the Run log page writes
    0.55% (CI 0.34–0.83%): one format for the same figure, the registry's."""
    from goodput_lab.views.run_log import rate_range, rate_text

    out = goodput("reconcile", str(DATA_DIR / "timelines" / "example-run.csv"), "--trials", "20")
    assert out.returncode == 0, out.stderr
    assert "fitted failure rate  0.55% per node-day (95% CI 0.34–0.83%, exact Poisson;" in (
        out.stdout
    )
    assert rate_text(0.0055) == "0.55% per node-day" and rate_range(0.0034, 0.0083) == (
        "0.34–0.83%"
    )


def test_the_bucket_rows_keep_the_measured_times_unit(capsys):
    """The predicted column read "1.10 h" beside a measured "56.9 min" and "0.00 h" beside
    "5.1 min": each row is now in its measured time's unit."""
    assert main(["reconcile", EXAMPLE]) == 0
    rows = {ln[:34].strip(): ln[34:].split() for ln in capsys.readouterr().out.splitlines()}
    assert rows["Checkpoint saves"][:4] == ["56.9", "min", "65.8", "min"]
    assert rows["Restores"][:4] == ["31.2", "min", "29.9", "min"]
    assert rows["Recovery (failure to restore)"][:4] == ["3.28", "h", "3.02", "h"]
    assert rows["Other"][:4] == ["5.1", "min", "0.0", "min"]


def test_what_if_says_whether_it_saves_or_costs_more():
    """QA 26 #8: spare domains on the example run gain 4.08 points but cost $72,966/day
    more; the text printed "−$72,966/day, −$145,932 over the run" beside "+4.08 points",
    which reads as a cost cut.  The JSON keeps the signed savings; the text says the verb."""
    args = (
        "reconcile",
        EXAMPLE,
        "--trials",
        "50",
        "--scenario",
        "p6e-gb200-nvl72",
        "--set",
        "cluster.spare_domains=2",
        "--set",
        "cluster.spare_nodes_per_domain=1",
    )
    out = goodput(*args)
    assert out.returncode == 0, out.stderr
    w = json.loads(goodput(*args, "--json").stdout)["what_if"]
    assert w["goodput_delta"] == pytest.approx(0.0408, abs=5e-5)
    assert round(w["savings_usd_per_day"]) == -72966
    assert round(w["run_savings_usd"]) == -145932
    assert "(+4.08 points)" in out.stdout
    assert "costs $72,966/day more, $145,932 more over the run" in out.stdout
    assert "−$72,966" not in out.stdout
    # a change that pays: the verb is "saves", without a sign
    cheaper = goodput(
        "reconcile", EXAMPLE, "--trials", "20", "--set", "recovery.restart_minutes=0.5"
    )
    assert "; saves $24,280/day, $48,560 over the run" in cheaper.stdout
