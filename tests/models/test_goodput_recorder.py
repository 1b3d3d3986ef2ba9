"""Cross-check with Google's ml-goodput-measurement on the same GoodputRecorder records.

The real library's ``GoodputRecorder`` writes the records of a simulated job (start-up,
steps with an evaluation inside some of them, two crashes with restarts that roll back to
the last checkpoint) into an in-memory logger (it accepts any ``cloud_logger`` object), and
its own ``GoodputCalculator`` computes the job's goodput from them.  We read the same
records as JSON lines and measure them.  Required: agreement within 0.5 points.

The one definitional difference (docs/timeline.md): the library books the first step after
each (re)start beyond the segment's mean step time as PROGRAM_STARTUP badput; we count that
step whole, as productive.  So ours − theirs must equal their PROGRAM_STARTUP share exactly.
"""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest
from goodput_lab.models.timeline import FORMAT_RECORDER, measure, parse_timeline
from ml_goodput_measurement.src import goodput as gp

T0 = dt.datetime(2025, 3, 1, tzinfo=dt.UTC)


class MemoryLogger:
    """What GoodputRecorder and GoodputCalculator need of a Cloud Logging logger."""

    def __init__(self, job_name: str):
        self.job_name = job_name
        self.entries: list[dict] = []

    def write_cloud_logging_entry(self, entry):
        if entry is not None and entry.get("job_name") == self.job_name:
            self.entries.append(dict(entry))

    def read_cloud_logging_entries(self, start_time=None, end_time=None, last_entry_info=None):
        return list(self.entries), (None, None)

    def flush(self):
        pass


def _at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=float(seconds))


def record_job(rec, rng, first_step_extra: float) -> None:
    """A job of ~7 h: 5 s steps (2% jitter), a 6 s save inside every 100th step, a 30 s
    evaluation inside every 250th, two crashes (10 and 15 min down) that restart from the
    last checkpoint, and a compile-like ``first_step_extra`` on the first step of each run."""
    t = 0.0
    saved = 0

    def startup(t):
        rec.record_tpu_init_start_time(_at(t))
        t += 20
        rec.record_tpu_init_end_time(_at(t))
        rec.record_training_preparation_start_time(_at(t))
        t += 40  # includes loading the checkpoint
        rec.record_training_preparation_end_time(_at(t))
        rec.record_data_loading_start_time(_at(t))
        t += 5
        rec.record_data_loading_end_time(_at(t))
        return t

    def run(t, step, n):
        nonlocal saved
        for i in range(n):
            rec.record_step_start_time(step, _at(t))
            d = 5.0 * rng.lognormal(0.0, 0.02) + (first_step_extra if i == 0 else 0.0)
            if step % 250 == 100:
                rec.record_custom_badput_event_start_time(_at(t + 1), "eval")
                rec.record_custom_badput_event_end_time(_at(t + 31), "eval")
                d += 30.0
            if step % 100 == 0:
                saved = step
                d += 6.0
            t += d
            step += 1
        return t, step

    rec.record_job_start_time(_at(t))
    t = startup(t)
    t, step = run(t, 0, 1234)
    for down, n in ((600.0, 2000), (900.0, 1500)):
        rec.record_step_start_time(step, _at(t))  # the step the crash cuts
        t += 2.5 + down
        rec.record_job_start_time(_at(t))
        t = startup(t)
        t, step = run(t, saved, n)
    rec.record_job_end_time(_at(t))


def google_and_ours(tmp_path, first_step_extra: float):
    mem = MemoryLogger("run-1")
    rec = gp.GoodputRecorder("run-1", "goodput", logging_enabled=True, cloud_logger=mem)
    record_job(rec, np.random.default_rng(11), first_step_extra)
    calc = gp.GoodputCalculator(
        "run-1", "goodput", cloud_logger=mem, cache_dir=str(tmp_path / "cache")
    )
    theirs, breakdown, _ = calc.get_job_goodput(include_badput_breakdown=True)
    text = "\n".join(json.dumps(e) for e in mem.entries) + "\n"
    tl = parse_timeline(text.encode())
    assert tl.format == FORMAT_RECORDER
    return theirs, breakdown, measure(tl), mem.entries


def test_goodput_agrees_with_ml_goodput_measurement(tmp_path):
    theirs, breakdown, m, _ = google_and_ours(tmp_path, first_step_extra=8.0)
    ours = 100.0 * m.goodput
    startup = breakdown[gp.BadputType.PROGRAM_STARTUP]
    assert 80.0 < theirs < 95.0  # a run with real badput, not a trivial one
    assert abs(ours - theirs) < 0.5
    assert startup > 0.05  # the difference is exercised ...
    assert ours - theirs == pytest.approx(startup, abs=1e-6)  # ... and is exactly it
    # steps redone after a crash: their wasted progress is our rework, except that an
    # evaluation inside such a step is wasted progress to them and "other" to us
    wasted = breakdown[gp.BadputType.WASTED_PROGRESS_FROM_DISRUPTION]
    share = {b: 100 * v / m.wall_seconds for b, v in m.bucket_seconds.items()}
    assert share["rework"] - 1e-6 <= wasted <= share["rework"] + share["other"]
    evals = breakdown[gp.BadputType.CUSTOM_BADPUT_EVENTS]["EVAL"]
    assert evals > 1.0
    assert m.failures == 2


def test_cloud_logging_export_and_foreign_records_are_read(tmp_path):
    _, _, m, entries = google_and_ours(tmp_path, first_step_extra=8.0)
    lines = [json.dumps({"jsonPayload": e, "severity": "INFO"}) for e in entries]
    lines.insert(5, json.dumps({"jsonPayload": {"event_type": "save", "step": 0}}))
    tl = parse_timeline(("\n".join(lines) + "\n").encode())
    assert tl.ignored_rows == 1
    assert measure(tl).goodput == m.goodput
