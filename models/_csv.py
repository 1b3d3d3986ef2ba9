"""Strict reading of the project's small CSV tables (instance catalog, checkpoint tiers).

Shared by :mod:`models.catalog` and :mod:`models.checkpoint`: the header must hold exactly
the expected columns; empty cells are allowed only in optional columns (they mean
*unknown*); every other cell is text or a finite number >= 0.  Every problem raises a
:class:`~models.errors.ValidationError` naming the file, the row and the column.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._files import decode_utf8, read_capped
from .errors import ValidationError

if TYPE_CHECKING:  # polars is imported when a log is read, not with the models
    import polars as pl

#: The command-line hint a missing required column's message ends with
#: (:func:`resolve_header`); a page that maps columns its own way rewrites it (group 1: the
#: column).
CLI_MAP_HINT = re.compile(r"or map one, e\.g\. --map (\w+)=<header>")


def read_text_file(path: Path, max_bytes: int) -> str:
    """UTF-8 text of ``path`` (a BOM is dropped); unreadable, oversized, non-regular or
    non-UTF-8 files raise ValidationError before more than ``max_bytes + 1`` bytes are read.

    Parameters
    ----------
    path : Path
        File to read.
    max_bytes : int
        Largest size accepted [bytes].

    Returns
    -------
    str
        The file's text.
    """
    raw = read_capped(path, max_bytes)
    return decode_utf8(raw, str(path)[-80:])


def strict_records(
    text: str,
    columns: list[str],
    *,
    optional: Collection[str],
    text_columns: Collection[str],
    origin: str,
    renamed: Mapping[str, str] | None = None,
) -> Iterator[tuple[int, dict[str, str | float | None]]]:
    """Yield ``(row number, {column: value})`` with text, float or None (empty optional cell).

    Row numbers are the file's line numbers (the header is row 1).

    Parameters
    ----------
    text : str
        CSV text with a header row.
    columns : list of str
        Columns every row must have, in the header's terms.
    optional : collection of str
        Columns whose empty cell reads as None.
    text_columns : collection of str
        Columns read as text; the others must be finite numbers.
    origin : str
        What the text is, for the messages (e.g. ``"catalog"``).
    renamed : mapping of str to str, optional
        Former column name -> the message that names its new one: a header still using it
        is refused with that message, not as a missing and an unknown column.

    Returns
    -------
    iterator of (int, dict)
        Row number [count] and ``{column: value}`` per data row.
    """
    reader = csv.DictReader(io.StringIO(text))
    try:
        yield from _records(reader, columns, optional, text_columns, origin, renamed or {})
    except csv.Error as exc:  # e.g. a cell over csv.field_size_limit() (128 KiB)
        found = _long_cell(text)
        if found is not None:
            rowno, col = found
            try:
                name = reader.fieldnames[col] if rowno > 1 else None  # type: ignore[index]
            except (csv.Error, IndexError, TypeError):
                name = None
            where = f"{origin} row {rowno}" + (f", column {name}" if name else "")
            raise ValidationError(
                where, f"has a cell over {csv.field_size_limit():,} characters"
            ) from None
        raise ValidationError(origin, f"is not valid CSV ({str(exc)[:80]})") from None


def _long_cell(text: str) -> tuple[int, int] | None:
    """(line number, column index) of the first cell longer than the csv module accepts."""
    limit = csv.field_size_limit()
    line, col, size, quoted = 1, 0, 0, False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in ",\n":
            if ch == "\n":
                line, col = line + 1, 0
            else:
                col += 1
            size = 0
            continue
        elif ch == "\n":
            line += 1
        size += 1
        if size > limit:
            return line, col
    return None


def _records(reader, columns, optional, text_columns, origin, renamed):
    header = reader.fieldnames or []
    for old in header:
        if old in renamed:
            raise ValidationError(f"{origin}, column {old}", renamed[old])
    missing = [c for c in columns if c not in header]
    unknown = [c for c in header if c not in columns]
    if missing:
        raise ValidationError(origin, "missing column(s): " + ", ".join(missing))
    if unknown:
        raise ValidationError(origin, "unknown column(s): " + ", ".join(unknown))
    for rowno, row in enumerate(reader, start=2):
        out: dict[str, str | float | None] = {}
        for col in columns:
            raw = (row.get(col) or "").strip()
            where = f"{origin} row {rowno}, column {col}"
            if raw == "":
                if col not in optional:
                    raise ValidationError(where, "is empty but required")
                out[col] = None
            elif col in text_columns:
                out[col] = raw
            else:
                try:
                    x = float(raw)
                except ValueError:
                    raise ValidationError(where, f"{raw!r} is not a number") from None
                if not math.isfinite(x) or x < 0:
                    raise ValidationError(where, f"{raw!r} must be a finite number >= 0")
                out[col] = x
        yield rowno, out


def short_repr(value: object, n: int = 40) -> str:
    """``repr(value)`` cut to ``n`` characters (for messages that echo user input).

    Parameters
    ----------
    value : object
        The value to show.
    n : int
        Largest length [characters].

    Returns
    -------
    str
        ``repr(value)``, cut with ``...`` when longer than ``n``.

    Examples
    --------
    >>> short_repr("x" * 50, 10)
    "'xxxxxx..."
    """
    r = repr(value)
    return r if len(r) <= n else r[: n - 3] + "..."


def resolve_header(
    header: list[str],
    mapping: Mapping[str, str],
    row: int,
    columns: Mapping[str, tuple[str, ...]],
    required: Collection[str],
    what: str,
    *,
    empty_means_absent: bool = False,
) -> dict[str, int]:
    """Column index of each known column in a CSV header, for the timeline and failure-log
    readers.

    A column mapped in ``mapping`` (key -> header) must exist; the others are found by their
    accepted names in ``columns`` (case-insensitive).  ``empty_means_absent``: an optional
    column mapped to "" is absent rather than auto-detected.  Errors name the row
    (``row``, 1-based) or the mapping and list the header.

    Parameters
    ----------
    header : list of str
        The CSV header.
    mapping : mapping of str to str
        Canonical column -> header name given by the user.
    row : int
        Row of the header in the file [count].
    columns : mapping of str to tuple of str
        Canonical column -> accepted header names.
    required : collection of str
        Canonical columns that must be found.
    what : str
        What the file is, for the messages.
    empty_means_absent : bool
        Whether a column mapped to ``""`` is absent.

    Returns
    -------
    dict of str to int
        Canonical column -> index in the header [count].
    """
    if not any(header):
        raise ValidationError(f"row {row}", "the header row is empty")
    dup = sorted({h for h in header if h and header.count(h) > 1})
    if dup:
        raise ValidationError(f"row {row}", f"header repeats column {dup[0]!r}")
    lower = {h.lower(): i for i, h in enumerate(header)}
    listed = ", ".join(short_repr(h, 30) for h in header[:12])
    index: dict[str, int] = {}
    for key, names in columns.items():
        if key in mapping:
            name = str(mapping[key] or "").strip()
            if empty_means_absent and not name and key not in required:
                continue  # explicitly absent: no auto-detection
            if name not in header:
                raise ValidationError(
                    "column mapping",
                    f"{key}={short_repr(name)}: no such column; the header has {listed}",
                )
            index[key] = header.index(name)
            continue
        hit = next((lower[n] for n in names if n in lower), None)
        if hit is not None:
            index[key] = hit
        elif key in required:
            raise ValidationError(
                f"row {row}",
                f"no {key} column (accepted names: {', '.join(names)}; or map one, e.g. "
                f"--map {key}=<header>); the header has {listed}",
            )
    by_header: dict[int, list[str]] = {}
    for key, i in index.items():
        by_header.setdefault(i, []).append(key)
    clash = next((keys for keys in by_header.values() if len(keys) > 1), None)
    if clash:
        raise ValidationError(
            "column mapping",
            f"the {what} columns {' and '.join(clash)} are both mapped to "
            f"{short_repr(header[index[clash[0]]], 30)}; map each to its own header",
        )
    return index


# --------------------------------------------------------------------------- plain CSV, fast
@dataclass(frozen=True)
class PlainCsv:
    """A CSV split by :func:`plain_csv`: its header, every data row's cells and line number.

    Attributes
    ----------
    header : the header cells, stripped of spaces.
    header_row : the header's line number in the file (1-based).
    cells : one string column per header cell (``c0``, ``c1`` ...), one row per non-empty
        data line, cells as written (not stripped).
    row : the line number (1-based) of every row of ``cells``.
    """

    header: list[str]
    header_row: int
    cells: pl.DataFrame
    row: np.ndarray


_PRINTABLE = bytes(range(32, 256))


def empty_cells_as_text() -> dict[str, bool]:
    """The ``read_csv`` keyword that reads an empty cell as "" rather than null, in this
    polars (1.x: ``missing_utf8_is_empty_string``; 2.x: ``empty_string_is_null``).

    Parameters
    ----------
    None
        The function takes no parameters.

    Returns
    -------
    dict of str to bool
        The keyword argument for ``polars.read_csv``.
    """
    import inspect

    import polars as pl

    params = inspect.signature(pl.read_csv).parameters
    if "empty_string_is_null" in params:
        return {"empty_string_is_null": False}
    return {"missing_utf8_is_empty_string": True}


def plain_csv(text: str) -> PlainCsv | None:
    """Split CSV text with polars when it is *plain*, else None (use the full reader).

    Plain means: ASCII, no quote character, no control character other than line ends
    (``\\n`` or ``\\r\\n``), and every non-empty data line has as many cells as the header.
    Lines that are empty or start with ``#`` before the header are skipped, as the full
    readers do; empty data lines are skipped.  A file that is not plain returns None: the
    caller then reads it with the ``csv`` module, row by row, which either reads it the
    same way or names the row and column that is wrong.  For plain text the two readers
    agree cell for cell and line for line (tests/models/test_fast_readers.py).

    Parameters
    ----------
    text : str
        CSV text.

    Returns
    -------
    PlainCsv or None
        Header, cells and line numbers of the data rows, or None when the text is not plain.
    """
    if not text.isascii() or '"' in text:
        return None
    import polars as pl

    raw = text.encode("ascii")
    controls = raw.translate(None, _PRINTABLE)  # the bytes below 32, in order
    if controls.count(b"\n") + controls.count(b"\r") != len(controls):
        return None  # tabs, NULs and other controls: the full reader names them
    if b"\r" in controls:
        if raw.count(b"\r\n") != controls.count(b"\r"):
            return None  # a lone carriage return ends a line for csv, not for polars
        raw = raw.replace(b"\r\n", b"\n")
    pos, header_row = 0, 0
    while True:  # skip blank lines and # comments before the header
        if pos >= len(raw):
            return None
        end = raw.find(b"\n", pos)
        end = len(raw) if end < 0 else end
        line = raw[pos:end].decode("ascii")
        header_row += 1
        pos = end + 1
        if line.strip() and not line.lstrip().startswith("#"):
            break
    header = [h.strip() for h in line.split(",")]
    width = len(header)
    body = raw[pos:]
    if width < 2 or not body:
        return None
    try:
        # one string per line (no control character can occur in the text: \x01 never
        # splits), to check every line's number of cells before reading the cells
        lines = pl.read_csv(
            body,
            has_header=False,
            separator="\x01",
            schema={"line": pl.String},
            quote_char=None,
            **empty_cells_as_text(),
        )["line"]
        filled = lines.str.len_bytes() > 0
        ragged = (lines.str.count_matches(",", literal=True) != width - 1) & filled
        if not filled.any() or ragged.any():
            return None  # ragged rows: the full reader names the row
        lead = len(body) - len(body.lstrip(b"\n"))  # polars takes the width from line 1
        frame = pl.read_csv(
            body[lead:],
            has_header=False,
            schema={f"c{i}": pl.String for i in range(width)},
            quote_char=None,
            **empty_cells_as_text(),
            truncate_ragged_lines=False,
        )
    except Exception:  # any surprise: the full reader decides
        return None
    if frame.height != lines.len() - lead:
        return None
    keep = filled.to_numpy()
    if not keep[lead:].all():
        frame = frame.filter(filled[lead:])
    rows = np.flatnonzero(keep).astype(np.int64) + (header_row + 1)
    return PlainCsv(header, header_row, frame, rows)


#: A time the fast readers parse: ``YYYY-MM-DD`` with optional ``[T ]HH:MM[:SS[.ffffff]]``
#: and ``Z`` or ``±HH:MM``; every field in range (the day of the month is checked by
#: polars).  Anything else goes to :func:`datetime.fromisoformat`, row by row.
_ISO = (
    r"^[12][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?"
    r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$"
)


def iso_microseconds(cells: pl.Series) -> np.ndarray | None:
    """Microseconds since 1970-01-01 UTC of ISO 8601 texts (no zone: UTC), or None when a
    cell is not in the plain form :data:`_ISO` or lies outside 1685..2255 (the caller then
    reads the times one by one).  ``us / 1e6`` equals ``datetime.fromisoformat(text)
    .timestamp()`` for every accepted text (tests/models/test_fast_readers.py).

    Parameters
    ----------
    cells : polars.Series
        ISO 8601 date-times as text.

    Returns
    -------
    ndarray or None
        Microseconds since 1970-01-01 UTC [µs], or None.
    """
    ts = cells.str.strip_chars(" ")
    if not ts.str.contains(_ISO).all():
        return None
    us = _fixed_layout_us(ts)
    if us is None:
        us = _polars_us(ts)
    if us is None or np.any(np.abs(us) > _EXACT_US):
        return None  # beyond 1685..2255 seconds as floats would not be exact
    return us


#: Microseconds up to which ``us / 1e6`` is the correctly rounded number of seconds.
_EXACT_US = 2**53


def _polars_us(ts) -> np.ndarray | None:
    """:func:`iso_microseconds` of texts in several layouts, parsed by polars."""
    import polars as pl

    norm = (
        pl.DataFrame({"t": ts})
        .select(
            pl.when(pl.col("t").str.len_bytes() == 10)
            .then(pl.col("t") + "T00:00:00")
            .otherwise(pl.col("t").str.replace(" ", "T", literal=True))
            .str.replace(r"^([0-9-]{10}T[0-9]{2}:[0-9]{2})($|Z|[+-])", "${1}:00${2}")
        )
        .to_series()
    )
    norm = pl.select(
        pl.when(norm.str.contains(r"(Z|[+-][0-9]{2}:[0-9]{2})$")).then(norm).otherwise(norm + "Z")
    ).to_series()
    try:
        dt = norm.str.to_datetime(
            "%Y-%m-%dT%H:%M:%S%.f%#z", time_unit="us", time_zone="UTC", strict=False
        )
    except Exception:
        return None
    if dt.null_count():
        return None  # e.g. 2024-02-30
    return dt.dt.epoch("us").to_numpy()


def _fixed_layout_us(ts) -> np.ndarray | None:
    """:func:`iso_microseconds` by arithmetic on the characters, when every text (already
    checked against :data:`_ISO`) has the same length and the same non-digit characters in
    the same places (one layout, as a logger writes them); else None.  Day of the month
    beyond the month's length: None."""
    n = ts.len()
    lengths = ts.str.len_bytes()
    width = int(lengths[0]) if n else 0
    if n == 0 or int(lengths.min()) != width or int(lengths.max()) != width:
        return None
    joined = ts.str.join("") if hasattr(ts.str, "join") else ts.str.concat("")
    mat = np.frombuffer(joined.item().encode("ascii"), dtype=np.uint8)
    mat = mat.reshape(n, width)
    first = ts[0]
    nondigit = np.array([not ch.isdigit() for ch in first])
    if np.any(mat[:, nondigit] != mat[0, nondigit]):
        return None
    cols = np.ascontiguousarray(mat.T)  # one row per character position

    def num(a: int, b: int) -> np.ndarray:
        out = cols[a].astype(np.int64) - 48
        for k in range(a + 1, b):
            out *= 10
            out += cols[k]
            out -= 48
        return out

    year, month, day = num(0, 4), num(5, 7), num(8, 10)
    leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
    month_days = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])[month - 1] + (
        leap & (month == 2)
    )
    if np.any(day > month_days):
        return None
    # days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-compatible
    # low-level date algorithms", days_from_civil)
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + np.where(month > 2, -3, 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146_097 + doe - 719_468
    seconds = days * 86_400
    rest = first[10:]
    if rest:
        seconds = seconds + num(11, 13) * 3600 + num(14, 16) * 60
        rest = first[16:]
    if rest.startswith(":"):
        seconds = seconds + num(17, 19)
        rest = first[19:]
    micro = np.zeros(n, dtype=np.int64)
    if rest.startswith("."):
        k = len(re.match(r"[0-9]*", rest[1:]).group())
        micro = num(20, 20 + k) * 10 ** (6 - k)
        rest = rest[1 + k :]
    if rest[:1] in ("+", "-"):
        at = width - 6
        offset = num(at + 1, at + 3) * 3600 + num(at + 4, at + 6) * 60
        seconds = seconds - offset if rest[0] == "+" else seconds + offset
    return seconds * 1_000_000 + micro
