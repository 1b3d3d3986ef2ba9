"""Fuzz the failure-log parser and fitter: a valid result or models.ValidationError, nothing else."""

from __future__ import annotations

import contextlib
import csv
import io
from datetime import datetime

import numpy as np
from goodput_lab.models import ValidationError
from goodput_lab.models.failure_log import COLUMNS, FailureLog, log_header, parse_failure_log
from goodput_lab.models.fitting import WEIBULL_TBF_KEYS, LogFit, fit_failure_log
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HEADERS = st.lists(
    st.one_of(
        st.sampled_from([n for names in COLUMNS.values() for n in names]), st.text(max_size=10)
    ),
    min_size=1,
    max_size=5,
)
CELLS = st.one_of(
    st.text(max_size=25),
    st.sampled_from(
        [
            "2024-01-01T00:00:00Z",
            "2024-02-30",
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-14:00",
            "2024-01-01T00:00:00.123456+05:30",
            "1e309",
            "-1",
            "nan",
            "inf",
            "525601",
            "",
            '"',
            "\x00",
            "\ufeff",
        ]
    ),
    st.datetimes().map(lambda d: d.isoformat()),
    st.floats().map(repr),
)


def check_log(make) -> FailureLog | None:
    try:
        log = make()
    except ValidationError as exc:
        assert exc.field and exc.message
        return None
    assert isinstance(log, FailureLog) and len(log) >= 1
    assert np.all(np.isfinite(log.time_h)) and np.all(np.diff(log.time_h) >= 0)
    dt = log.downtime_minutes[np.isfinite(log.downtime_minutes)]
    assert np.all(dt >= 0)
    assert all(len(n) > 0 for n in log.node_id)
    return log


@FUZZ
@given(st.binary(max_size=600))
def test_parse_arbitrary_bytes(data):
    check_log(lambda: parse_failure_log(data))
    with contextlib.suppress(ValidationError):
        assert isinstance(log_header(data), list)


@FUZZ
@given(st.text(max_size=600))
def test_parse_arbitrary_text(text):
    check_log(lambda: parse_failure_log(text))


@FUZZ
@given(
    HEADERS,
    st.lists(st.lists(CELLS, min_size=0, max_size=6), max_size=8),
    st.dictionaries(st.sampled_from(list(COLUMNS)), st.text(max_size=10), max_size=2),
)
def test_parse_structured_csv_and_fit(header, rows, mapping):
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    w.writerows(rows)
    log = check_log(lambda: parse_failure_log(buf.getvalue(), mapping))
    if log is not None:
        try:
            fit = fit_failure_log(log)
        except ValidationError as exc:
            assert exc.field and exc.message
        else:
            assert isinstance(fit, LogFit)
            assert 0 <= fit.node_failure_rate_per_day_lo <= fit.node_failure_rate_per_day
            assert fit.weibull_shape is None or fit.weibull_shape > 0


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.datetimes(
                min_value=datetime(2000, 1, 1),
                max_value=datetime(2026, 1, 1),  # valid logs lie in the past (no future row)
            ),
            st.sampled_from(["a", "b", "c", "d"]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.one_of(st.none(), st.integers(min_value=-5, max_value=100)),
)
def test_fit_valid_logs(events, nodes):
    text = "timestamp,node_id\n" + "".join(f"{t.isoformat()},{n}\n" for t, n in events)
    log = parse_failure_log(text)
    try:
        fit = fit_failure_log(log, nodes)
    except ValidationError as exc:
        assert exc.field and exc.message
        return
    t = fit.tbf
    assert t["exp_rate_per_h_lo"] <= t["exp_rate_per_h"] <= t["exp_rate_per_h_hi"]
    assert fit.node_failure_rate_per_day_lo <= fit.node_failure_rate_per_day
    if np.isnan(t["weibull_shape"]):  # gaps (nearly) all the same: the exponential alone
        assert all(np.isnan(t[k]) for k in WEIBULL_TBF_KEYS)
        return
    assert t["weibull_shape_lo"] <= t["weibull_shape"] <= t["weibull_shape_hi"]
    assert np.isfinite(list(t.values())).all() or t["weibull_scale_h_hi"] == np.inf
