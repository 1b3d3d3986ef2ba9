"""Rows repeated by an at-least-once log shipper are dropped and named, not measured as
rework; a step number that goes back with no failure and restore between is refused (QA
pass 29, defect 3: 1% of the example's step_end rows repeated measured 78.57% for 79.41%,
and steps 1, 2, 3, 1, 2, 3 with no failure were read as rework)."""

from __future__ import annotations

import json

import pytest
from goodput_lab.models import ValidationError
from goodput_lab.models.reconcile import reconcile
from goodput_lab.models.timeline import measure, parse_timeline

from tests.conftest import DATA_DIR
from tests.models.test_goodput_recorder import google_and_ours
from tests.models.test_timeline import HAND, HAND_BUCKETS

EXAMPLE = DATA_DIR / "timelines" / "example-run.csv"

# QA's rec/dupl.csv: step_end 1 shipped twice (rows 4 and 5)
REPEATED_STEP = """timestamp,event,step,node_id
2025-03-01T00:00:00Z,job_start,,
2025-03-01T00:05:00Z,step_start,1,
2025-03-01T00:05:20Z,step_end,1,
2025-03-01T00:05:20Z,step_end,1,
2025-03-01T00:05:40Z,step_end,2,
2025-03-01T00:05:40Z,checkpoint_start,2,
2025-03-01T00:06:25Z,checkpoint_end,2,
2025-03-01T00:06:45Z,step_end,3,
2025-03-01T00:06:52Z,failure,,NODEID
2025-03-01T00:15:52Z,restore_start,2,
2025-03-01T00:17:22Z,restore_end,2,
2025-03-01T00:17:42Z,step_end,3,
2025-03-01T00:18:00Z,job_end,,
"""


def _repeat_every(lines: list[str], event: str, every: int) -> tuple[list[str], int]:
    """Each ``every``-th row of ``event`` written twice in a row; the rows added."""
    out, seen, added = [], 0, 0
    for line in lines:
        out.append(line)
        if f",{event}," in line:
            seen += 1
            if seen % every == 0:
                out.append(line)
                added += 1
    return out, added


def test_the_example_with_repeated_step_end_rows_measures_as_the_example():
    lines = EXAMPLE.read_text().splitlines(keepends=True)
    repeated, added = _repeat_every(lines, "step_end", 100)
    assert added == 77
    plain = measure(parse_timeline("".join(lines)))
    tl = parse_timeline("".join(repeated))
    m = measure(tl)
    assert plain.goodput == pytest.approx(0.794051, abs=1e-6)  # the example's stated truth
    assert m.goodput == plain.goodput  # was 78.57% with the repeats read as rework
    assert dict(m.bucket_seconds) == dict(plain.bucket_seconds)
    assert len(tl.duplicates) == 77 and tl.rows == 7977 + 77
    assert all(row == first + 1 for row, first in tl.duplicates)  # each right after itself
    assert repeated[tl.duplicates[0][0] - 1] == repeated[tl.duplicates[0][1] - 1]


def test_a_repeated_step_end_is_dropped_and_named():
    tl = parse_timeline(REPEATED_STEP)
    m = measure(tl)
    assert tl.duplicates == ((5, 4),)
    assert tl.rows == 13 and len(tl) == 12
    # steps 1, 2 (20 s each) and the redone step 3 (20 s) in 1,080 s: 5.56% (3.70% before)
    assert m.goodput == pytest.approx(60 / 1080)
    assert m.bucket_seconds["rework"] == pytest.approx(27.0)  # step 3's first run + 7 s cut


@pytest.mark.parametrize("event", ["job_start", "checkpoint_start", "failure", "job_end"])
def test_any_repeated_row_is_dropped_and_the_run_measures_the_same(event):
    lines = HAND.splitlines(keepends=True)
    repeated, added = _repeat_every(lines, event, 1)
    assert added >= 1
    tl = parse_timeline("".join(repeated))
    assert len(tl.duplicates) == added
    m = measure(tl)
    assert dict(m.bucket_seconds) == pytest.approx(HAND_BUCKETS, abs=1e-9)
    assert m.failures == 2


def test_rows_differing_in_one_cell_are_kept():
    text = (
        "timestamp,event,step,node_id\n2024-01-01T00:00:00Z,job_start,,\n"
        "2024-01-01T00:00:10Z,step_end,1,\n2024-01-01T00:00:15Z,failure,,n1\n"
        "2024-01-01T00:00:15Z,failure,,n2\n2024-01-01T00:00:20Z,restore_start,1,\n"
        "2024-01-01T00:00:25Z,restore_end,1,\n2024-01-01T00:00:35Z,step_end,2,\n"
        "2024-01-01T00:00:35Z,job_end,,\n"
    )
    tl = parse_timeline(text)
    assert tl.duplicates == ()
    m = measure(tl)
    assert m.failures == 2 and m.incidents == 1  # two nodes at once: one row per node


def test_the_column_reader_and_the_row_reader_drop_the_same_rows():
    plain = parse_timeline(REPEATED_STEP)  # plain CSV: read column by column
    quoted = parse_timeline(REPEATED_STEP.replace("NODEID", '"NODEID"'))  # row by row
    records = []
    for line in REPEATED_STEP.splitlines()[1:]:
        ts, ev, step, node = line.split(",")
        rec = {"timestamp": ts, "event": ev}
        rec.update({"step": int(step)} if step else {})
        rec.update({"node_id": node} if node else {})
        records.append(json.dumps(rec))
    jsonl = parse_timeline("\n".join(records) + "\n")
    assert plain.duplicates == quoted.duplicates == ((5, 4),)
    assert jsonl.duplicates == ((4, 3),)  # JSON lines have no header row
    for tl in (quoted, jsonl):
        assert measure(tl).goodput == measure(plain).goodput


def test_a_repeated_goodput_recorder_record_is_dropped_not_read_as_a_restart(tmp_path):
    _, _, m, entries = google_and_ours(tmp_path, first_step_extra=8.0)
    assert m.failures == 2
    lines = [json.dumps(e) for e in entries]
    first_start = next(i for i, e in enumerate(entries) if "job_start_time" in e)
    step = next(i for i, e in enumerate(entries) if "step_start_time" in e)
    lines.insert(first_start + 1, lines[first_start])  # the job_start_time record again
    lines.insert(step + 2, lines[step + 1])  # and a step_start_time record
    tl = parse_timeline("\n".join(lines) + "\n")
    assert tl.duplicates == ((first_start + 2, first_start + 1), (step + 3, step + 2))
    again = measure(tl)
    assert again.failures == 2  # not a third crash at the job's start
    assert again.goodput == m.goodput


def test_reconcile_reports_the_dropped_rows_in_its_json():
    r = reconcile(parse_timeline(REPEATED_STEP), nodes=8, trials=10)
    d = r.to_json_dict()
    assert r.timeline_duplicates == ((5, 4),)
    assert d["duplicates"] == 1 and d["timeline_rows"] == 13
    assert d["measured_goodput"] == pytest.approx(60 / 1080)


# ----------------------------------------------------------------- steps that go back
BACK = """timestamp,event,step,node_id
2025-03-01T00:00:00Z,job_start,,
2025-03-01T00:05:00Z,step_start,1,
2025-03-01T00:05:20Z,step_end,1,
2025-03-01T00:05:40Z,step_end,2,
2025-03-01T00:06:00Z,step_end,3,
2025-03-01T00:06:20Z,step_end,1,
2025-03-01T00:06:40Z,step_end,2,
2025-03-01T00:07:00Z,step_end,3,
2025-03-01T00:18:00Z,job_end,,
"""


def test_a_step_number_going_back_without_a_restore_is_refused_naming_both_rows():
    with pytest.raises(ValidationError) as info:
        measure(parse_timeline(BACK))
    assert info.value.field == "row 7, column 'step'"
    assert info.value.message == (
        "step_end of step 1 follows step_end of step 3 (row 6) with no failure and restore "
        "between them: a step number repeats or goes back only after a restore"
    )
    assert "\n" not in str(info.value)


def test_a_step_number_repeated_later_without_a_restore_is_refused():
    text = BACK.replace("2025-03-01T00:06:20Z,step_end,1,", "2025-03-01T00:06:20Z,step_end,3,")
    with pytest.raises(ValidationError, match=r"step_end of step 3 follows step_end of step 3"):
        measure(parse_timeline(text))


def test_steps_go_back_after_a_failure_and_restore():
    text = BACK.replace(
        "2025-03-01T00:06:20Z,step_end,1,\n",
        "2025-03-01T00:06:05Z,failure,,n1\n2025-03-01T00:06:10Z,restore_start,,\n"
        "2025-03-01T00:06:12Z,restore_end,,\n2025-03-01T00:06:20Z,step_end,1,\n",
    )
    m = measure(parse_timeline(text))
    assert m.step_number.tolist() == [1, 2, 3, 1, 2, 3]
    assert m.productive.tolist() == [False, False, False, True, True, True]
