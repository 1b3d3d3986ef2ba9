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
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

from ._files import decode_utf8, read_capped
from .errors import ValidationError


def read_text_file(path: Path, max_bytes: int) -> str:
    """UTF-8 text of ``path`` (a BOM is dropped); unreadable, oversized, non-regular or
    non-UTF-8 files raise ValidationError before more than ``max_bytes + 1`` bytes are read."""
    raw = read_capped(path, max_bytes)
    return decode_utf8(raw, str(path)[-80:])


def strict_records(
    text: str,
    columns: list[str],
    *,
    optional: Collection[str],
    text_columns: Collection[str],
    origin: str,
) -> Iterator[tuple[int, dict[str, str | float | None]]]:
    """Yield ``(row number, {column: value})`` with text, float or None (empty optional cell).

    Row numbers are the file's line numbers (the header is row 1).
    """
    reader = csv.DictReader(io.StringIO(text))
    try:
        yield from _records(reader, columns, optional, text_columns, origin)
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


def _records(reader, columns, optional, text_columns, origin):
    header = reader.fieldnames or []
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
    """``repr(value)`` cut to ``n`` characters (for messages that echo user input)."""
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
    used = list(index.values())
    if len(set(used)) != len(used):
        raise ValidationError("column mapping", f"two {what} columns are mapped to the same header")
    return index
