"""Failure logs: parse a CSV of incidents into validated arrays.

A failure log has one row per node failure with four columns (names mapped by the user
where they differ): ``timestamp`` (ISO 8601; times without a zone are read as UTC),
``node_id`` (any text), ``cause`` (free text, mapped onto the Llama 3 root-cause taxonomy by
:mod:`models.fitting`; optional) and ``downtime_minutes`` (optional, ≥ 0).  Lines starting
with ``#`` before the header are comments.

Everything that can go wrong raises :class:`models.errors.ValidationError` naming the row
(the 1-based line number in the file, as a spreadsheet shows it) and the column; so does a
failure dated before 2000 or in the future.  A plain file (ASCII, no quotes, one layout of
times) is read column by column with polars; anything else row by row with the standard
library's ``csv`` module, which names the row and column of any problem.
"""

from __future__ import annotations

import csv
import io
import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from ._csv import iso_microseconds, plain_csv, resolve_header
from ._csv import short_repr as _short
from ._files import decode_upload
from ._tools import repeats
from .errors import ValidationError

#: Largest log accepted, in bytes (the dashboard's upload cap, .streamlit/config.toml
#: ``server.maxUploadSize = 10`` MB, is the same).
MAX_LOG_BYTES = 10 * 1024 * 1024
#: Most data rows accepted (a year of a 100,000-node fleet at 0.3 %/day is ~110k rows;
#: 200k keeps parsing under a few seconds).
MAX_LOG_ROWS = 200_000
#: Longest accepted text in a node id or cause cell.
MAX_TEXT = 200
#: Longest accepted downtime: one year, in minutes.
MAX_DOWNTIME_MINUTES = 525_600.0

#: Canonical column -> accepted header names when the user gives no mapping.
COLUMNS: dict[str, tuple[str, ...]] = {
    "timestamp": ("timestamp", "time", "ts", "datetime", "date", "time_utc"),
    "node_id": ("node_id", "node", "host", "hostname", "instance_id", "nodeid"),
    "cause": ("cause", "root_cause", "reason", "category", "failure_cause"),
    "downtime_minutes": ("downtime_minutes", "downtime_min", "downtime", "duration_minutes"),
}
REQUIRED = ("timestamp", "node_id")


#: Node ids that mark a failure as the job's own (software, user, data: no node to blame);
#: a log that uses them distinguishes job-level interruptions from node failures.
JOB_NODE_IDS = frozenset({"job", "*", "-", "none", "n/a", "na", "all", "(job)"})


def job_level_mask(node_ids) -> np.ndarray:
    """Which failures a log marks as job-level (node id in :data:`JOB_NODE_IDS`, any case)
    [bool array].  An empty node id is "not said", not job-level.

    Parameters
    ----------
    node_ids : array_like of str
        Node id of each failure.

    Returns
    -------
    ndarray of bool
        True where the failure is marked job-level.
    """
    ids = np.asarray(node_ids, dtype=str)
    if ids.size == 0:
        return np.zeros(0, dtype=bool)
    uniq, inverse = np.unique(ids, return_inverse=True)
    marks = np.array([u.strip().lower() in JOB_NODE_IDS for u in uniq], dtype=bool)
    return marks[inverse]


@dataclass(frozen=True)
class FailureLog:
    """A parsed, validated failure log, sorted by time.

    Attributes
    ----------
    time_h : failure times [h since 1970-01-01 UTC], sorted ascending.
    node_id : node identifier per failure (str array).
    cause : cause text per failure ("unknown" when absent).
    downtime_minutes : downtime per failure [min] (NaN when absent).
    row : line number of each failure in the source file.
    columns : canonical column -> header name actually used (absent optional columns omitted).
    duplicates : (row, earlier row) of each row dropped because it repeats an earlier row
        cell for cell (time, node, cause, downtime): an export that lists a failure twice
        would otherwise count it twice (:func:`drop_duplicate_rows`).
    """

    time_h: np.ndarray
    node_id: np.ndarray
    cause: np.ndarray
    downtime_minutes: np.ndarray
    row: np.ndarray
    columns: Mapping[str, str] = field(default_factory=dict)
    duplicates: tuple[tuple[int, int], ...] = ()

    def __len__(self) -> int:
        return int(self.time_h.size)

    @property
    def span_days(self) -> float:
        """Days from the first to the last failure."""
        return float((self.time_h[-1] - self.time_h[0]) / 24.0) if len(self) else 0.0

    @property
    def distinct_nodes(self) -> int:
        """Distinct real node ids [count]: the ids that mark a failure as the job's own
        (:data:`JOB_NODE_IDS`: ``job``, ``*``, ``-``, ``none`` ...) are not nodes."""
        ids = self.node_id[~job_level_mask(self.node_id)]
        return int(np.unique(ids).size)


def parse_mapping(items: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """Parse ``col=name`` strings (the CLI's ``--map``) into {canonical: header name}.

    >>> parse_mapping(["timestamp=time_utc", "node_id=host"])
    {'timestamp': 'time_utc', 'node_id': 'host'}

    Parameters
    ----------
    items : list or tuple of str, or None
        ``col=name`` strings; None or empty gives an empty mapping.

    Returns
    -------
    dict of str to str
        Canonical column -> header name in the file.
    """
    out: dict[str, str] = {}
    for item in items or ():
        if not isinstance(item, str) or "=" not in item:
            raise ValidationError("--map", f"{_short(item)} is not of the form column=header")
        key, name = (s.strip() for s in item.split("=", 1))
        if key not in COLUMNS:
            raise ValidationError(
                "--map", f"{_short(key)} is not a log column; allowed: " + ", ".join(COLUMNS)
            )
        if not name:
            raise ValidationError("--map", f"{key}= needs a header name")
        out[key] = name
    return out


def parse_failure_log(
    data: str | bytes,
    mapping: Mapping[str, str] | None = None,
    *,
    max_bytes: int = MAX_LOG_BYTES,
    max_rows: int = MAX_LOG_ROWS,
    now_h: float | None = None,
) -> FailureLog:
    """Parse failure-log CSV text into a :class:`FailureLog`.

    Parameters
    ----------
    data : str or bytes
        CSV as UTF-8 bytes (a BOM is allowed) or text.
    mapping : mapping of str to str, optional
        Canonical column (``timestamp``, ``node_id``, ``cause``, ``downtime_minutes``) ->
        header name in this file, for headers that differ from the accepted names in
        :data:`COLUMNS`; ``""`` marks an optional column as absent.
    max_bytes : int
        Cap on the text [bytes].
    max_rows : int
        Cap on the data rows [count].
    now_h : float, optional
        The present [h since 1970-01-01 UTC] (default: the clock); failures dated more than
        a day after it, or before 2000, are refused naming their row.

    Returns
    -------
    FailureLog
        Failure times [h since 1970-01-01 UTC] in time order, node ids, causes and
        downtimes [min] (NaN where not given).

    Raises
    ------
    ValidationError
        naming ``row R, column C`` for a bad cell, or ``failure log`` for file-level
        problems (size, encoding, header, too many rows); a failure dated before 2000 or
        in the future is refused naming its row.

    Examples
    --------
    >>> log = parse_failure_log("timestamp,node_id\\n2024-01-01T00:00Z,n1\\n2024-01-02,n2\\n")
    >>> len(log), log.span_days
    (2, 1.0)
    """
    text = _decode(data, max_bytes)
    log = _parse_plain(text, mapping or {}, max_rows)
    if log is None:
        log = _parse_rows(text, mapping or {}, max_rows)
    _check_window(log, time.time() / 3600.0 if now_h is None else float(now_h))
    return drop_duplicate_rows(log)


def drop_duplicate_rows(log: FailureLog) -> FailureLog:
    """The log without rows that repeat an earlier row cell for cell (the same time, node,
    cause and downtime), each dropped row kept in ``duplicates`` with the row it repeats.

    A node cannot fail twice at one moment with the same cause and downtime: such a row is
    the same failure listed twice (an export joined twice, a retried upload), which would
    count twice in the rate, make its node a lemon and weigh twice in the repair time
    (QA pass 26).  Rows that differ in any cell are kept.

    Parameters
    ----------
    log : FailureLog
        A parsed log, sorted by time.

    Returns
    -------
    FailureLog
        The same log without the repeated rows, their (row, earlier row) line numbers in
        ``duplicates``.

    Examples
    --------
    >>> text = "timestamp,node_id\\n2024-01-01,n1\\n2024-01-02,n2\\n2024-01-01,n1\\n"
    >>> log = parse_failure_log(text)
    >>> len(log), log.duplicates
    (2, ((4, 2),))
    """
    cells = zip(
        log.time_h.tolist(),
        log.node_id.tolist(),
        log.cause.tolist(),
        np.round(log.downtime_minutes, 9).tolist(),
        strict=True,
    )
    pairs = repeats(
        tuple("nan" if isinstance(k, float) and math.isnan(k) else k for k in key) for key in cells
    )
    if not pairs:
        return log
    keep = np.ones(len(log), dtype=bool)
    keep[[i for i, _ in pairs]] = False
    dup = [(int(log.row[i]), int(log.row[j])) for i, j in pairs]
    return FailureLog(
        time_h=log.time_h[keep],
        node_id=log.node_id[keep],
        cause=log.cause[keep],
        downtime_minutes=log.downtime_minutes[keep],
        row=log.row[keep],
        columns=log.columns,
        duplicates=tuple(sorted(dup)),
    )


def _parse_plain(text: str, mapping: Mapping[str, str], max_rows: int) -> FailureLog | None:
    """The log read column by column with polars when the CSV is plain and every cell in
    its plainest form (:func:`models._csv.plain_csv`), else None (then :func:`_parse_rows`
    reads it row by row and names the row and column of any problem).  Both give the same
    FailureLog for a plain file (tests/models/test_fast_readers.py)."""
    plain = plain_csv(text)
    if plain is None or plain.row.size > max_rows:
        return None
    import polars as pl

    header = plain.header
    index = _resolve_columns(header, mapping, plain.header_row)
    cells = plain.cells
    us = iso_microseconds(cells[f"c{index['timestamp']}"])
    if us is None:
        return None
    nodes = cells[f"c{index['node_id']}"].str.strip_chars(" ")
    if bool((nodes == "").any()) or bool((nodes.str.len_bytes() > MAX_TEXT).any()):
        return None
    n = nodes.len()
    if "cause" in index:
        cause = cells[f"c{index['cause']}"].str.strip_chars(" ")
        if bool((cause.str.len_bytes() > MAX_TEXT).any()):
            return None
        causes = np.asarray(
            pl.select(pl.when(cause == "").then(pl.lit("unknown")).otherwise(cause))
            .to_series()
            .to_numpy(),
            dtype=str,
        )
    else:
        causes = np.full(n, "unknown")
    if "downtime_minutes" in index:
        text_dt = cells[f"c{index['downtime_minutes']}"].str.strip_chars(" ")
        empty = text_dt == ""
        if not bool((empty | text_dt.str.contains(r"^[0-9]{1,12}(\.[0-9]{1,12})?$")).all()):
            return None
        downtimes = text_dt.cast(pl.Float64, strict=False).to_numpy().astype(float)
        downtimes[empty.to_numpy()] = math.nan
        if np.any(downtimes > MAX_DOWNTIME_MINUTES):
            return None
    else:
        downtimes = np.full(n, math.nan)
    t = us / 1e6 / 3600.0
    order = np.argsort(t, kind="stable")
    return FailureLog(
        time_h=t[order],
        node_id=np.asarray(nodes.to_numpy(), dtype=str)[order],
        cause=causes[order],
        downtime_minutes=downtimes[order],
        row=plain.row[order],
        columns={k: header[i] for k, i in index.items()},
    )


#: Failure times accepted: from 2000-01-01 UTC [h since 1970] to one day after now.
EARLIEST_H = 946_684_800 / 3600.0
FUTURE_SLACK_H = 24.0


def _check_window(log: FailureLog, now_h: float) -> None:
    """Refuse a failure dated before 2000 or more than a day in the future, naming its row
    (the earliest such row in the file)."""
    late = now_h + FUTURE_SLACK_H
    bad = (log.time_h < EARLIEST_H) | (log.time_h > late)
    if not bad.any():
        return
    i = int(np.flatnonzero(bad)[np.argmin(log.row[bad])])
    when = np.datetime64(round(float(log.time_h[i]) * 3600.0), "s")
    col = log.columns.get("timestamp", "timestamp")
    last = np.datetime64(round(now_h * 3600.0), "s").astype("datetime64[D]")
    what = "is before 2000" if log.time_h[i] < EARLIEST_H else "is in the future"
    raise ValidationError(
        f"row {int(log.row[i])}, column {col!r}",
        f"{when}Z (UTC) {what}: failure times must lie between 2000-01-01 and today ({last})",
    )


def _parse_rows(text: str, mapping: Mapping[str, str], max_rows: int) -> FailureLog:
    """The full reader: the ``csv`` module, row by row, every problem named."""
    lines = list(io.StringIO(text, newline=""))  # the line breaks csv sees
    first = 0
    while first < len(lines) and (
        lines[first].lstrip().startswith("#") or not lines[first].strip()
    ):
        first += 1
    if first >= len(lines):
        raise ValidationError(
            "failure log", "is empty (expected a header row, then one row per failure)"
        )
    reader = csv.reader(io.StringIO("".join(lines[first:]), newline=""))
    try:
        header = next(reader)
    except csv.Error as exc:
        raise ValidationError(f"row {first + 1}", f"is not valid CSV ({exc})") from None
    header = [h.strip() for h in header]
    index = _resolve_columns(header, mapping, first + 1)

    times: list[float] = []
    nodes: list[str] = []
    causes: list[str] = []
    downtimes: list[float] = []
    rows: list[int] = []
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValidationError(
                f"row {first + reader.line_num}", f"is not valid CSV ({exc})"
            ) from None
        row = first + reader.line_num
        if not cells or all(not c.strip() for c in cells):
            continue
        if len(rows) >= max_rows:
            raise ValidationError("failure log", f"has more than {max_rows:,} rows (the cap)")
        if len(cells) != len(header):
            col = header[min(len(cells), len(header) - 1)]
            raise ValidationError(
                f"row {row}, column {col!r}",
                f"the row has {len(cells)} fields but the header has {len(header)}",
            )
        rows.append(row)
        times.append(_time_h(cells[index["timestamp"]], row, header[index["timestamp"]]))
        nodes.append(_text(cells[index["node_id"]], row, header[index["node_id"]], required=True))
        if "cause" in index:
            causes.append(_text(cells[index["cause"]], row, header[index["cause"]]) or "unknown")
        else:
            causes.append("unknown")
        if "downtime_minutes" in index:
            k = index["downtime_minutes"]
            downtimes.append(_downtime(cells[k], row, header[k]))
        else:
            downtimes.append(math.nan)
    if not rows:
        raise ValidationError("failure log", "has a header but no failure rows")
    t = np.asarray(times, dtype=float)
    order = np.argsort(t, kind="stable")
    return FailureLog(
        time_h=t[order],
        node_id=np.asarray(nodes, dtype=str)[order],
        cause=np.asarray(causes, dtype=str)[order],
        downtime_minutes=np.asarray(downtimes, dtype=float)[order],
        row=np.asarray(rows, dtype=int)[order],
        columns={k: header[i] for k, i in index.items()},
    )


def log_header(data: str | bytes, *, max_bytes: int = MAX_LOG_BYTES) -> list[str]:
    """Column names of a failure log (first non-comment row), for column-mapping pickers.

    >>> log_header("# synthetic\\nwhen,host\\n2024-01-01,a\\n")
    ['when', 'host']

    Parameters
    ----------
    data : str or bytes
        The failure log (UTF-8 bytes or text).
    max_bytes : int
        Cap on the text [bytes].

    Returns
    -------
    list of str
        The header's column names.
    """
    text = _decode(data, max_bytes)
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                return [h.strip() for h in next(csv.reader([line]))]
            except csv.Error as exc:
                raise ValidationError("row 1", f"is not valid CSV ({exc})") from None
    raise ValidationError(
        "failure log", "is empty (expected a header row, then one row per failure)"
    )


#: A comment line that states the fleet size: ``# nodes=N`` at its start (more ``key=value``
#: may follow, as in ``# nodes=1024, days=180``); free text that merely contains "nodes=2"
#: ("# spare nodes=2", "# gpus_per_nodes=8") states nothing (QA pass 29)
_STATED_NODES = re.compile(r"#+\s*nodes\s*=\s*(\d{1,9})(?![\w.])")


def stated_nodes(data: str | bytes, *, max_bytes: int = MAX_LOG_BYTES) -> int | None:
    """The fleet size a log states in a comment before its header (``# nodes=1024``, as
    scripts/make_sample_log.py writes), or None (:func:`stated_nodes_row`).

    A log lists only the nodes that failed, so the distinct ids undercount the fleet and
    overstate the per-node rate; a stated size is the better default.

    >>> stated_nodes("# nodes=1024, days=180\\ntimestamp,node_id\\n")
    1024
    >>> stated_nodes("timestamp,node_id\\n# nodes=5\\n") is None  # after the header: data
    True
    >>> stated_nodes("# spare nodes=2, total 512 nodes\\ntimestamp,node_id\\n") is None
    True

    Parameters
    ----------
    data : str or bytes
        The failure log (UTF-8 bytes or text).
    max_bytes : int
        Cap on the text [bytes].

    Returns
    -------
    int or None
        The stated node count [nodes], None when no comment states one (or it is 0).
    """
    found = stated_nodes_row(data, max_bytes=max_bytes)
    return None if found is None else found[0]


def stated_nodes_row(
    data: str | bytes, *, max_bytes: int = MAX_LOG_BYTES
) -> tuple[int, int] | None:
    """``(N, row)``: the fleet size a comment line before the header states and that line's
    number, or None.

    Only a comment that states the count counts: ``# nodes=N`` at the start of the comment
    (the documented form; more ``key=value`` may follow), the first such line; free text
    that merely contains ``nodes=2`` is no statement.  The row is the 1-based line number,
    as the reader names rows, so a count that cannot be (fewer than the log's distinct
    nodes) is blamed on its line.

    >>> stated_nodes_row("# SYNTHETIC\\n# nodes=1024, days=180\\ntimestamp,node_id\\n")
    (1024, 2)

    Parameters
    ----------
    data : str or bytes
        The failure log (UTF-8 bytes or text).
    max_bytes : int
        Cap on the text [bytes].

    Returns
    -------
    tuple of (int, int) or None
        The stated node count [nodes] and its row [-]; None when no comment states one (or
        it states 0).
    """
    text = _decode(data, max_bytes)
    for row, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            return None
        m = _STATED_NODES.match(stripped)
        if m and int(m.group(1)) > 0:
            return int(m.group(1)), row
    return None


def default_column(header: list[str], key: str) -> str | None:
    """The header name :func:`parse_failure_log` would use for ``key`` without a mapping.

    >>> default_column(["Time", "host"], "node_id")
    'host'

    Parameters
    ----------
    header : list of str
        Column names of the file.
    key : str
        Canonical column (``timestamp``, ``node_id``, ``cause``, ``downtime_minutes``).

    Returns
    -------
    str or None
        The header name found, or None.
    """
    lower = {h.lower(): h for h in header}
    return next((lower[n] for n in COLUMNS[key] if n in lower), None)


# --------------------------------------------------------------------------- helpers
def _decode(data: str | bytes, max_bytes: int) -> str:
    return decode_upload(
        data, max_bytes, "failure log", kind="CSV text", save_as="UTF-8 CSV", column=_column_of
    )


def _column_of(raw: bytes, offset: int) -> str:
    """Name (or 1-based number) of the column byte ``offset`` of ``raw`` falls in."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return _column_at(raw, raw[line_start:offset].decode("utf-8", errors="replace"))


def _column_at(raw: bytes, prefix: str) -> str:
    """Name (or 1-based number) of the column a partial line ``prefix`` ends in."""
    k = 0
    try:
        k = len(next(csv.reader([prefix]))) - 1 if prefix else 0
        text = raw.decode("utf-8", errors="replace")
        line = next(
            ln
            for ln in io.StringIO(text, newline="")
            if ln.strip() and not ln.lstrip().startswith("#")
        )
        header = next(csv.reader([line.rstrip("\r\n")]))
    except (csv.Error, StopIteration):
        return str(k + 1)
    return repr(header[k].strip()) if 0 <= k < len(header) else str(k + 1)


def _resolve_columns(header: list[str], mapping: Mapping[str, str], row: int) -> dict[str, int]:
    for key in mapping:
        if key not in COLUMNS:
            raise ValidationError(
                "column mapping",
                f"{_short(key)} is not a log column; allowed: " + ", ".join(COLUMNS),
            )
    return resolve_header(header, mapping, row, COLUMNS, REQUIRED, "log", empty_means_absent=True)


def _time_h(value: str, row: int, col: str) -> float:
    text = value.strip()
    where = f"row {row}, column {col!r}"
    if not text:
        raise ValidationError(where, "is empty (a failure time is required)")
    try:
        dt = datetime.fromisoformat(text.replace("z", "Z"))
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=UTC)
        hours = dt.timestamp() / 3600.0
    except (ValueError, OverflowError, OSError):
        raise ValidationError(
            where, f"{_short(text)} is not an ISO 8601 time (e.g. 2024-05-01T13:45:00Z)"
        ) from None
    return hours


def _text(value: str, row: int, col: str, *, required: bool = False) -> str:
    text = value.strip()
    where = f"row {row}, column {col!r}"
    if required and not text:
        raise ValidationError(where, "is empty (a node id is required)")
    if len(text) > MAX_TEXT:
        raise ValidationError(where, f"is {len(text)} characters long (at most {MAX_TEXT})")
    if any(ord(ch) < 32 for ch in text):
        raise ValidationError(where, f"{_short(text)} contains control characters")
    return text


def _downtime(value: str, row: int, col: str) -> float:
    text = value.strip()
    if not text:
        return math.nan
    where = f"row {row}, column {col!r}"
    allowed = f"a number of minutes in [0, {MAX_DOWNTIME_MINUTES:g}] or empty"
    try:
        x = float(text)
    except ValueError:
        raise ValidationError(where, f"{_short(text)} is not a number ({allowed})") from None
    if not math.isfinite(x) or not 0.0 <= x <= MAX_DOWNTIME_MINUTES:
        raise ValidationError(where, f"{_short(text)} is out of range ({allowed})")
    return x


__all__ = [
    "COLUMNS",
    "JOB_NODE_IDS",
    "MAX_LOG_BYTES",
    "MAX_LOG_ROWS",
    "FailureLog",
    "default_column",
    "job_level_mask",
    "log_header",
    "parse_failure_log",
    "parse_mapping",
    "stated_nodes",
    "stated_nodes_row",
]
