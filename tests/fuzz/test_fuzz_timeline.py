"""Fuzz the timeline parser and measurement: a valid result or models.ValidationError, nothing
else; and whenever a timeline measures, its buckets add up to its wall time."""

from __future__ import annotations

import gzip
import json

import pytest
from goodput_lab.models import ValidationError
from goodput_lab.models.timeline import BUCKETS, EVENTS, measure, parse_timeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TIMES = st.one_of(
    st.datetimes().map(lambda d: d.isoformat()),
    st.sampled_from(
        ["2024-01-01T00:00:00Z", "2024-01-01T00:00:05Z", "2024-02-30", "", "nan", "\x00"]
    ),
    st.text(max_size=12),
)
ROW = st.tuples(
    TIMES,
    st.one_of(st.sampled_from(EVENTS), st.text(max_size=8)),
    st.one_of(st.integers(-2, 30).map(str), st.just(""), st.text(max_size=4)),
    st.one_of(st.just(""), st.text(max_size=8)),
)


def check(data) -> None:
    try:
        m = measure(parse_timeline(data))
    except ValidationError as exc:
        assert exc.field and exc.message
        return
    total = sum(m.bucket_seconds[b] for b in ("productive", *BUCKETS))
    assert total == pytest.approx(m.wall_seconds, rel=1e-9, abs=1e-6)
    assert all(v >= -1e-9 for v in m.bucket_seconds.values())
    assert 0.0 <= m.goodput <= 1.0 + 1e-12


@FUZZ
@given(st.lists(ROW, max_size=12))
def test_csv_rows(rows):
    lines = ["timestamp,event,step,node_id"]
    for r in rows:
        lines.append(",".join(c.replace(",", " ").replace("\n", " ") for c in r))
    check("\n".join(lines) + "\n")


@FUZZ
@given(st.lists(st.sampled_from(EVENTS), max_size=14), st.lists(st.integers(0, 600), max_size=14))
def test_event_orders_on_a_clock(events, gaps):
    """Plausible timestamps, any order of events: refused by row, or it adds up."""
    t, lines = 0, ["timestamp,event,step,node_id", "2024-01-01T00:00:00Z,job_start,,"]
    for i, e in enumerate(events):
        t += gaps[i] if i < len(gaps) else 1
        lines.append(f"2024-01-01T00:00:00Z,{e},{i % 5},n{i}".replace("00:00:00", _hms(t)))
    lines.append(f"2024-01-01T{_hms(t + 10)}Z,job_end,,")
    check("\n".join(lines) + "\n")


def _hms(s: int) -> str:
    return f"{s // 3600 % 24:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


@FUZZ
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(
                [
                    "timestamp",
                    "event",
                    "step",
                    "node_id",
                    "step_count",
                    "job_start_time",
                    "step_start_time",
                    "job_end_time",
                    "jsonPayload",
                    "job_name",
                ]
            ),
            st.one_of(
                st.integers(-5, 2_000_000_000),
                st.floats(allow_nan=True),
                st.text(max_size=10),
                st.sampled_from(EVENTS),
                st.none(),
                st.booleans(),
            ),
            max_size=4,
        ),
        max_size=10,
    )
)
def test_json_lines(objects):
    check("\n".join(json.dumps(o) for o in objects) + "\n")


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes_and_gzip(raw):
    check(raw)
    check(gzip.compress(raw))
