"""The polars readers of plain CSV (models._csv.plain_csv, iso_microseconds) against the
row-by-row readers they stand in for, and the readers' limits (issue 30 item 6: JSON
nesting, failure times outside 2000..now)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import numpy as np
import polars as pl
import pytest
from goodput_lab.models import ValidationError
from goodput_lab.models import failure_log as fl
from goodput_lab.models import timeline as tlm
from goodput_lab.models._csv import iso_microseconds, plain_csv
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA_DIR
from tests.timeline_generator import GeneratorParams, generate

SMALL = GeneratorParams(days=1.0, step_seconds=60.0, node_failure_rate_per_day=0.02, seed=3)


def _slow_timeline(text: str, mapping=None) -> tlm.Timeline:
    lines = text.splitlines(keepends=True)
    first = 0
    while not lines[first].strip() or lines[first].lstrip()[:1] == "#":
        first += 1
    return tlm._parse_csv(lines, first, dict(mapping or {}), tlm.MAX_TIMELINE_ROWS, None)


def _same_timeline(a: tlm.Timeline, b: tlm.Timeline) -> None:
    for name in ("time_s", "event", "step", "node_id", "row"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert (a.columns, a.rows, a.format) == (b.columns, b.rows, b.format)


@pytest.fixture(scope="module")
def run_csv() -> str:
    return generate(SMALL).csv()


def test_plain_timeline_is_read_by_polars_like_the_row_reader(run_csv):
    assert plain_csv(run_csv) is not None  # the fast path is taken
    _same_timeline(tlm.parse_timeline(run_csv), _slow_timeline(run_csv))


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("\n", "\r\n"),  # Windows line ends
        lambda t: "# a comment\n\n" + t + "\n\n",  # comments before, blank lines after
        lambda t: t.replace("job_start", "JOB_START").replace(",step_end,", ", step_end ,"),
        lambda t: t.replace(".000Z", "Z"),  # two layouts of times
        lambda t: t.replace("Z,", "+00:00,", 3).replace("T", " ", 5),
    ],
)
def test_variants_of_a_plain_file_read_the_same_both_ways(run_csv, edit):
    text = edit(run_csv)
    assert plain_csv(text) is not None
    _same_timeline(tlm.parse_timeline(text), _slow_timeline(text))


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("node_id\n", '"node_id"\n', 1),  # a quote: the csv module reads it
        lambda t: t.replace("step_end,2,", "step_end,2,\t", 1),  # a control character
        lambda t: t.replace("job_start,,", "job_start,,,", 1),  # a ragged row
        lambda t: t.replace("node_id\n", "node_id\n\r", 1),  # a lone carriage return
        lambda t: t + "é",  # not ASCII
    ],
)
def test_files_that_are_not_plain_go_to_the_row_reader(run_csv, edit):
    assert plain_csv(edit(run_csv)) is None


def test_a_bad_cell_is_named_by_row_and_column_as_before(run_csv):
    lines = run_csv.splitlines()
    lines[7] = lines[7].replace("step_end", "stepend")
    with pytest.raises(ValidationError, match=r"row 8, column 'event'"):
        tlm.parse_timeline("\n".join(lines))
    lines = run_csv.splitlines()
    lines[9] = lines[9].replace("-03-", "-13-", 1)
    with pytest.raises(ValidationError, match=r"row 10, column 'timestamp'"):
        tlm.parse_timeline("\n".join(lines))


# ----------------------------------------------------------------- times
LAYOUTS = [
    "%Y-%m-%d",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S.{ms}",
    "%Y-%m-%dT%H:%M:%S.{us}",
    "%Y-%m-%dT%H:%M:%S.{cs}",
]
ZONES = ["", "Z", "+00:00", "+05:30", "-11:30", "+14:00", "-00:00"]


def _text(d: datetime, layout: str, zone: str) -> str:
    body = d.strftime(layout.split(".{")[0])
    if ".{" in layout:
        digits = {"ms": 3, "us": 6, "cs": 2}[layout.split(".{")[1][:2]]
        body += "." + f"{d.microsecond:06d}"[:digits]
    return body + (zone if "%H" in layout else "")


def _python_us(text: str) -> int:
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return (dt - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        # within 2**53 microseconds of 1970 (1685-2255), where seconds as floats are exact
        st.datetimes(min_value=datetime(1686, 1, 1), max_value=datetime(2254, 12, 31)),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from(LAYOUTS),
    st.sampled_from(ZONES),
    st.booleans(),
)
def test_iso_microseconds_equals_fromisoformat(dates, layout, zone, mixed):
    texts = [_text(d, layout, zone) for d in dates]
    if mixed:  # several layouts in one column: polars parses them, not the fixed-layout path
        texts = [_text(d, LAYOUTS[i % len(LAYOUTS)], ZONES[i % 3]) for i, d in enumerate(dates)]
    got = iso_microseconds(pl.Series(texts))
    assert got is not None
    assert got.tolist() == [_python_us(t) for t in texts]
    # and the seconds the timeline stores equal datetime.timestamp() exactly
    seconds = got / 1e6
    for t, s in zip(texts, seconds, strict=True):
        dt = datetime.fromisoformat(t)
        assert s == (dt if dt.tzinfo else dt.replace(tzinfo=UTC)).timestamp()


@pytest.mark.parametrize(
    "text",
    ["2024-02-30", "2023-02-29T00:00:00Z", "2024-01-01T00:00:60Z", "2024-01-01T24:00:00",
     "2024-01-01T00:00:00z", "20240101T000000", "0000-01-01", "2024-01-01T00:00:00.1234567",
     "1600-01-01", "2999-01-01T00:00:00Z"],
)  # fmt: skip
def test_times_the_fast_path_leaves_to_python(text):
    assert iso_microseconds(pl.Series([text])) is None
    assert iso_microseconds(pl.Series(["2024-01-01T00:00:00Z", text])) is None


# ----------------------------------------------------------------- failure logs
def test_sample_failure_log_is_read_by_polars_like_the_row_reader():
    text = (DATA_DIR / "failure_logs" / "synthetic-sample.csv").read_text()
    assert plain_csv(text) is not None
    a = fl.parse_failure_log(text)
    b = fl._parse_rows(text, {}, fl.MAX_LOG_ROWS)
    for name in ("time_h", "node_id", "cause", "downtime_minutes", "row"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype.kind == y.dtype.kind, name
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), name
    assert a.columns == b.columns


def test_failure_log_with_empty_cells_reads_the_same_both_ways():
    text = "timestamp,node,cause,downtime\n2024-01-02,b,,\n2024-01-01T10:00,a,xid,12.5\n"
    a = fl.parse_failure_log(text)
    b = fl._parse_rows(text, {}, fl.MAX_LOG_ROWS)
    assert a.cause.tolist() == b.cause.tolist() == ["xid", "unknown"]
    assert np.array_equal(a.downtime_minutes, b.downtime_minutes, equal_nan=True)
    assert a.row.tolist() == b.row.tolist() == [3, 2]


# ----------------------------------------------------------------- limits (issue 30 item 6)
@pytest.mark.parametrize("quoted", [False, True])  # the polars path and the csv path
def test_failure_in_the_future_is_refused_naming_its_row(quoted):
    rows = ["2024-01-01,a", "2024-03-01,b", "9999-12-31,c", "2024-05-01,d"]
    if quoted:
        rows = [f'"{r.split(",")[0]}",{r.split(",")[1]}' for r in rows]
    text = "timestamp,node_id\n" + "\n".join(rows) + "\n"
    with pytest.raises(ValidationError) as err:
        fl.parse_failure_log(text)
    assert err.value.field == "row 4, column 'timestamp'"
    assert "9999-12-31T00:00:00Z (UTC) is in the future" in err.value.message


def test_failure_window_edges():
    now = datetime(2025, 6, 1, tzinfo=UTC)
    now_h = now.timestamp() / 3600

    def log(*times: str):
        return "timestamp,node_id\n" + "".join(f"{t},n{i}\n" for i, t in enumerate(times))

    ok = fl.parse_failure_log(log("2000-01-01T00:00:00Z", "2025-06-01T23:00:00Z"), now_h=now_h)
    assert len(ok) == 2  # 2000-01-01 itself and up to a day of clock skew are accepted
    with pytest.raises(ValidationError, match=r"row 2, column 'timestamp'.*before 2000"):
        fl.parse_failure_log(log("1999-12-31T23:59:59Z", "2024-01-01"), now_h=now_h)
    late = (now + timedelta(hours=25)).isoformat()
    with pytest.raises(ValidationError, match=r"row 3, column 'timestamp'.*in the future"):
        fl.parse_failure_log(log("2024-01-01", late), now_h=now_h)


def _jsonl_run() -> str:
    return (
        '{"timestamp": "2024-01-01T00:00:00Z", "event": "job_start"}\n'
        '{"timestamp": "2024-01-01T00:00:10Z", "event": "step_end", "step": 1}\n'
        '{"timestamp": "2024-01-01T00:00:20Z", "event": "job_end"}\n'
    )


def test_json_nested_a_thousand_deep_is_refused_in_one_line():
    # issue 30: 6 KB nested 1,000 deep was a RecursionError traceback
    deep = '{"timestamp": "2024-01-01T00:00:05Z", "event": "pause_start", "x": '
    deep += "[" * 1000 + "]" * 1000 + "}\n"
    lines = _jsonl_run().splitlines(keepends=True)
    text = lines[0] + deep + "".join(lines[1:])
    with pytest.raises(ValidationError) as err:
        tlm.parse_timeline(text.encode())
    assert err.value.field == "row 2"
    assert f"nested more than {tlm.MAX_JSON_DEPTH} levels deep" in err.value.message
    for n in (6, 100, 5000):  # below and above the interpreter's recursion limit
        bad = '{"a": ' * n + "1" + "}" * n + "\n"
        with pytest.raises(ValidationError, match="row 1: is nested"):
            tlm.parse_timeline(bad)


def test_cloud_logging_export_depth_is_accepted():
    # a Cloud Logging entry: jsonPayload beside resource.labels (3 deep)
    records = [json.loads(x) for x in _jsonl_run().splitlines()]
    wrapped = [
        {"jsonPayload": r, "resource": {"type": "k8s", "labels": {"pod": "p"}}, "severity": "I"}
        for r in records
    ]
    tl = tlm.parse_timeline("\n".join(json.dumps(w) for w in wrapped))
    assert tl.end_s - tl.start_s == 20.0


# ----------------------------------------------------------------- JSON lines
def _slow_jsonl(text: str) -> tlm.Timeline:
    lines = text.splitlines(keepends=True)
    return tlm._parse_json_lines(lines, 0, {}, tlm.MAX_TIMELINE_ROWS, None)


@pytest.fixture(scope="module")
def run_jsonl() -> str:
    return generate(SMALL).jsonl()


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t,
        lambda t: t.replace("\n", "\r\n", 5) + "\n\n",  # some Windows line ends, blank lines
        lambda t: re.sub(r'"node-0*([0-9]+)"', r"\1", t).replace('", "event', '","event'),
        lambda t: t.replace('"step": 1}', '"step": "1"}', 1),  # a step number as text
    ],
)
def test_plain_json_lines_are_read_by_polars_like_the_record_reader(run_jsonl, edit):
    text = edit(run_jsonl)
    fast = tlm._parse_plain_json_lines(text, {}, tlm.MAX_TIMELINE_ROWS)
    assert fast is not None
    _same_timeline(fast, _slow_jsonl(text))
    _same_timeline(tlm.parse_timeline(text), fast)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace('"step": 1}', '"step": 1, "step": 2}', 1),  # json.loads: the last
        lambda t: t.replace('"step": 1}', '"step": null}', 1),
        lambda t: t.replace('"step": 1}', '"step": [1]}', 1),
        lambda t: t.replace('"step": 1}', '"extra": {"a": 1}, "step": 1}', 1),
        lambda t: t.replace('"step": 1}', '"step": 1.0}', 1),
        lambda t: t.replace('"step": 1}', '"step": true}', 1),
        lambda t: t.replace('"node_id": "node-0', '"node_id": "\\u0007node-0', 1),
        lambda t: t.replace('"step": 1}', '"global_step": 1}', 1),  # two names for one key
        lambda t: "# a comment\n" + t,
        lambda t: '{"jsonPayload": ' + t.splitlines()[0] + "}\n" + t,
    ],
)
def test_json_lines_that_are_not_plain_go_to_the_record_reader(run_jsonl, edit):
    text = edit(run_jsonl)
    assert tlm._parse_plain_json_lines(text, {}, tlm.MAX_TIMELINE_ROWS) is None


# ----------------------------------------------------------------- property: same or defer
EVENT_NAMES = ["step_end", "step_start", "failure", "restore_start", "restore_end",
               "pause_start", "pause_end", "STEP_END"]  # fmt: skip
STAMPS = ["2024-01-01T00:00:05Z", "2024-01-01T00:00:05.5Z", "2024-01-01 00:00:09+00:00",
          "2024-01-01T00:01", "2024-01-01T01:00:00+01:00", "2024-01-01T00:00:07z", "x", ""]  # fmt: skip
FIRST = {"timestamp": "2024-01-01T00:00:00Z", "event": "job_start"}
LAST = {"timestamp": "2024-01-01T00:02:00Z", "event": "job_end"}
SCALARS = st.one_of(
    st.integers(-2, 10**17), st.sampled_from(["", "1", " 2 ", "007", "x"]), st.none(),
    st.booleans(), st.floats(allow_nan=False),
)  # fmt: skip
RECORDS = st.fixed_dictionaries(
    {"timestamp": st.sampled_from(STAMPS), "event": st.sampled_from(EVENT_NAMES)},
    optional={"step": SCALARS, "node_id": SCALARS, "host": SCALARS, "extra": SCALARS},
)


def _outcome(read):
    try:
        return read()
    except ValidationError as exc:
        return str(exc)


def _agree(fast, slow):
    if fast is None:
        return False  # the full reader reads it
    if isinstance(fast, str) or isinstance(slow, str):
        assert fast == slow  # the same refusal, word for word
    else:
        _same_timeline(fast, slow)
    return True


@settings(max_examples=200, deadline=None)
@given(st.lists(RECORDS, max_size=8), st.booleans())
@example(  # a boolean node id beside a text one: polars read the column as text ("false")
    middle=[
        {"timestamp": "2024-01-01T00:00:05Z", "event": "step_end", "step": 0, "node_id": ""},
        {"timestamp": "2024-01-01T00:00:05Z", "event": "failure", "node_id": False},
    ],
    ends=False,
)
@example(  # a number beside a text node id: polars read the column as text ("0.0")
    middle=[
        {"timestamp": "2024-01-01T00:00:05Z", "event": "failure", "node_id": 0.0},
        {"timestamp": "2024-01-01T00:00:05Z", "event": "step_end", "step": 0, "node_id": ""},
    ],
    ends=False,
)
def test_json_lines_polars_path_agrees_with_the_record_reader(middle, ends):
    records = [FIRST, *middle, LAST] if ends else middle or [FIRST]
    text = "\n".join(json.dumps(r) for r in records) + "\n"
    fast = _outcome(lambda: tlm._parse_plain_json_lines(text, {}, tlm.MAX_TIMELINE_ROWS))
    _agree(fast, _outcome(lambda: _slow_jsonl(text)))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(STAMPS),
            st.sampled_from([*EVENT_NAMES, "bad"]),
            st.sampled_from(["", "1", "2", "007", "-1", "x", " 3 "]),
            st.sampled_from(["", "n1", " n2 ", "a" * 201]),
        ),
        max_size=8,
    ),
    st.booleans(),
)
def test_csv_polars_path_agrees_with_the_row_reader(middle, ends):
    rows = [",".join(r) for r in middle]
    if ends:
        rows = ["2024-01-01T00:00:00Z,job_start,,", *rows, "2024-01-01T00:02:00Z,job_end,,"]
    text = "timestamp,event,step,node_id\n" + "".join(r + "\n" for r in rows)
    fast = _outcome(lambda: tlm._parse_plain_csv(text, {}, tlm.MAX_TIMELINE_ROWS))
    _agree(fast, _outcome(lambda: _slow_timeline(text)))
