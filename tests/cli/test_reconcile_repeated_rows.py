"""`goodput reconcile` drops a timeline's repeated rows and says so, in its text and its
JSON, as `goodput fit` does a failure log's; a step number that goes back with no restore is
refused in one line (QA pass 29, defect 3)."""

from __future__ import annotations

import json

from goodput_lab.cli.main import main
from tests.models.test_timeline_repeated_rows import BACK, REPEATED_STEP


def test_the_text_names_the_repeated_rows_and_the_goodput_leaves_them_out(tmp_path, capsys):
    path = tmp_path / "dupl.csv"
    path.write_text(REPEATED_STEP)
    assert main(["reconcile", str(path), "--nodes", "8", "--trials", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dupl.csv: timeline, 13 rows, 0.01 days on 8 nodes")
    assert lines[1] == (
        "  duplicate rows       1 row of the timeline repeats an earlier row cell for cell "
        "(the same time, event, step and node: a log shipper's repeat) and is not counted: "
        "row 5 repeats row 4."
    )
    assert lines[2] == "  measured goodput     5.56%"  # 3.70% with the repeat as rework


def test_the_json_counts_the_repeated_rows(tmp_path, capsys):
    path = tmp_path / "dupl.csv"
    path.write_text(REPEATED_STEP)
    assert main(["reconcile", str(path), "--nodes", "8", "--trials", "10", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["duplicates"] == 1
    assert d["timeline_rows"] == 13
    assert round(d["measured_goodput"], 6) == 0.055556
    assert d["timeline_buckets"]["rework"]["measured_hours"] * 3600 == 27.0


def test_without_repeats_the_text_has_no_duplicate_line(tmp_path, capsys):
    path = tmp_path / "once.csv"
    path.write_text(REPEATED_STEP.replace("2025-03-01T00:05:20Z,step_end,1,\n", "", 1))
    assert main(["reconcile", str(path), "--nodes", "8", "--trials", "10"]) == 0
    out = capsys.readouterr().out
    assert "duplicate rows" not in out and "measured goodput     5.56%" in out
    assert main(["reconcile", str(path), "--nodes", "8", "--trials", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["duplicates"] == 0


def test_steps_going_back_without_a_restore_exit_2_in_one_line(tmp_path, capsys):
    path = tmp_path / "back.csv"
    path.write_text(BACK)
    assert main(["reconcile", str(path), "--nodes", "8", "--trials", "10"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "goodput: row 7, column 'step': step_end of step 1 follows step_end of step 3 (row 6) "
        "with no failure and restore between them: a step number repeats or goes back only "
        "after a restore\n"
    )
