"""Reading user-named files safely: regular files only, size checked before reading.

Every file the tool reads on a user's behalf (scenario TOML, instance catalog, checkpoint
tier table, failure log) goes through :func:`read_capped`: the file is opened without
blocking (a FIFO cannot hang the call), must be a regular file (not a device such as
``/dev/zero``, a FIFO or a folder, also behind a symlink), its size is checked before any
byte is read, and at most ``max_bytes + 1`` bytes are read (a file that grows while being
read is still refused).  :func:`decode_utf8` accepts a UTF-8 byte-order mark;
:func:`decode_upload` turns uploaded or pasted data (bytes or text) into capped text.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from .errors import ValidationError

BOM = "\ufeff"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(n: int) -> str:
    return f"{n // 1024:,} KiB" if n >= 1024 else f"{n:,} bytes"


def read_capped(path: str | Path, max_bytes: int, name: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, refusing anything over ``max_bytes``.

    ``name`` is the field named in errors (default: the path, cut to 80 characters).

    Parameters
    ----------
    path : str or Path
        File to read.
    max_bytes : int
        Largest size accepted [bytes].
    name : str, optional
        Field named in errors.

    Returns
    -------
    bytes
        The file's contents.
    """
    label = name or _short_path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ValidationError(label, f"cannot be read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValidationError(label, f"is {_kind(st.st_mode)}; a regular file is needed")
        if st.st_size > max_bytes:
            raise ValidationError(
                label, f"is {_size(st.st_size)}, too large (at most {_size(max_bytes)})"
            )
        chunks, total = [], 0
        while total <= max_bytes:
            block = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not block:
                break
            chunks.append(block)
            total += len(block)
    except OSError as exc:
        raise ValidationError(label, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if total > max_bytes:
        raise ValidationError(label, f"is too large (at most {_size(max_bytes)})")
    return b"".join(chunks)


def decode_utf8(raw: bytes, name: str) -> str:
    """UTF-8 text without a leading byte-order mark; ValidationError if not UTF-8.

    Parameters
    ----------
    raw : bytes
        The data.
    name : str
        Field named in errors.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> decode_utf8(b"\\xef\\xbb\\xbfok", "file")  # the UTF-8 byte-order mark is dropped
    'ok'
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(name, f"is not UTF-8 text (byte {exc.start})") from None
    return text.removeprefix(BOM)


def decode_upload(
    data: str | bytes,
    max_bytes: int,
    name: str,
    *,
    kind: str = "text or bytes",
    save_as: str = "UTF-8",
    column: Callable[[bytes, int], str] | None = None,
) -> str:
    """Uploaded or pasted data as text, without a leading byte-order mark.

    ``data`` is bytes (UTF-8) or str; more than ``max_bytes`` of UTF-8 is refused naming
    ``name``.  A byte that is not UTF-8, or a character that has no UTF-8 form (a lone
    surrogate), is refused naming its row, and its column when ``column(raw, offset)``
    can tell it.  ``kind`` is what the data must be, for the message about any other type.

    Parameters
    ----------
    data : str or bytes
        The uploaded or pasted data.
    max_bytes : int
        Largest UTF-8 size accepted [bytes].
    name : str
        Field named in errors.
    kind : str
        What the data must be, for the message about any other type.
    save_as : str
        Encoding the message asks the user to save as.
    column : callable, optional
        ``column(raw, offset)`` -> column name of a bad byte, for the message.

    Returns
    -------
    str
        The text.
    """
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        if len(raw) > max_bytes:
            raise ValidationError(
                name, f"{len(raw):,} bytes is too large (at most {max_bytes:,} bytes)"
            )
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            row = raw.count(b"\n", 0, exc.start) + 1
            # a column is named from the header: not when the bad byte is in the header
            named = column is not None and row > 1
            where = f"row {row}" + (f", column {column(raw, exc.start)}" if named else "")
            raise ValidationError(
                where,
                f"is not UTF-8 text (byte {exc.start}: {raw[exc.start : exc.start + 1]!r}); "
                f"save the file as {save_as}",
            ) from None
    if not isinstance(data, str):
        raise ValidationError(name, f"must be {kind}, not {type(data).__name__}")
    if len(data) > max_bytes:  # characters <= bytes: the cheap bound first
        raise ValidationError(name, f"is too large (at most {max_bytes:,} bytes)")
    try:
        encoded = len(data.encode("utf-8"))
    except UnicodeEncodeError as exc:
        row = data.count("\n", 0, exc.start) + 1
        raise ValidationError(f"row {row}", "contains characters that are not valid text") from None
    if encoded > max_bytes:
        raise ValidationError(name, f"is too large (at most {max_bytes:,} bytes)")
    return data.removeprefix(BOM)


def _short_path(path: str | Path, limit: int = 80) -> str:
    text = str(path)
    return text if len(text) <= limit else "..." + text[-(limit - 3) :]


#: Bytes of the target's name kept in a temporary name (``.NAME.XXXXXXXX.tmp``), so a
#: temporary name always fits the file system's limit on a name (255 bytes).
TEMP_NAME_BYTES = 60


def _temp_prefix(name: str) -> str:
    raw = name.encode("utf-8", "surrogateescape")[:TEMP_NAME_BYTES]
    return "." + raw.decode("utf-8", "ignore") + "."


def check_output(path: str | Path, name: str | None = None) -> Path:
    """Refuse an output path that cannot be written, before any work is done.

    The checks a write would otherwise fail at the end of a long run: the path must not be
    empty or an existing folder (or a device, FIFO or socket), its name must fit the file
    system's limit, its folder must exist, be a folder, and take a new file: a temporary
    file is created there exclusively (never following a link) and removed at once, which
    also catches a read-only folder or file system and a full disk's inode table.  Each
    failure is a ValidationError naming ``name`` (the flag as typed, e.g. ``-o``) with the
    reason in words; nothing is left behind.  Returns the path.

    Parameters
    ----------
    path : str or Path
        The output path.
    name : str, optional
        Flag or field named in errors (default: the path).

    Returns
    -------
    Path
        ``path``, checked.
    """
    label = name or _short_path(path)
    text = str(path)
    if not text.strip():
        raise ValidationError(label, "is empty; give a file name")
    if "\0" in text:
        raise ValidationError(label, "contains a NUL character")
    p = Path(text)
    shown = _short_path(text)
    limit = _name_max(p.parent)
    if len(p.name.encode("utf-8", "surrogateescape")) > limit:
        raise ValidationError(
            label, f"the file name is {len(p.name):,} characters, too long (at most {limit})"
        )
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:  # ENAMETOOLONG, ENOTDIR, ELOOP, EACCES ...
        raise ValidationError(label, f"{shown!r} cannot be written ({exc.strerror})") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise ValidationError(label, f"{shown!r} is {_kind(st.st_mode)}; give a file name")
    parent = p.parent
    try:
        pst = os.stat(parent)
    except OSError as exc:
        why = "does not exist" if isinstance(exc, FileNotFoundError) else exc.strerror
        raise ValidationError(
            label, f"the folder {_short_path(parent)!r} {why}; create it first"
        ) from None
    if not stat.S_ISDIR(pst.st_mode):
        raise ValidationError(label, f"{_short_path(parent)!r} is not a folder")
    try:
        with atomic_writer(p, label) as _probe:
            raise _Probe
    except _Probe:
        pass
    return p


class _Probe(Exception):
    """Raised inside :func:`atomic_writer` by :func:`check_output`: remove, do not rename."""


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255


@contextlib.contextmanager
def atomic_writer(path: str | Path, name: str | None = None):
    """A binary file to write ``path`` through, put in place only when the block succeeds.

    The file is a new temporary file in the target's own folder (``tempfile.mkstemp``:
    a random name, created exclusively, so a file or link planted under any name is never
    opened or followed); on success it is flushed to disk, given the permissions a plain
    ``open(path, "wb")`` would give (or the previous file's), and renamed over ``path``
    (which replaces a link there rather than writing through it).  Any failure or
    interruption (a full disk, Ctrl-C, an exception in the block) removes the temporary
    file and leaves a previous file intact.  OSError becomes a ValidationError naming
    ``name`` (default: the path).  This is the one way the project writes a user's file.

    Parameters
    ----------
    path : str or Path
        File to write.
    name : str, optional
        Flag or field named in errors (default: the path).

    Returns
    -------
    context manager
        Yields the temporary file, opened for binary writing.
    """
    import tempfile

    p = Path(path)
    label = name or _short_path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(p.name), suffix=".tmp", dir=p.parent)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), _new_file_mode(p))
        os.replace(tmp, p)
        tmp = None
    except OSError as exc:
        where = f"{_short_path(path)!r} " if name else ""
        raise ValidationError(label, f"{where}cannot be written ({exc.strerror})") from None
    finally:
        if tmp is not None:  # any failure, including KeyboardInterrupt
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_atomic(path: str | Path, data: bytes, name: str | None = None) -> Path:
    """Write ``data`` to ``path`` all at once through :func:`atomic_writer`: readers never
    see a half-written file and a failed write leaves any previous file intact.

    Parameters
    ----------
    path : str or Path
        File to write.
    data : bytes
        Contents.
    name : str, optional
        Flag or field named in errors (default: the path).

    Returns
    -------
    Path
        ``path``.
    """
    with atomic_writer(path, name) as fh:
        fh.write(data)
    return Path(path)


def _new_file_mode(p: Path) -> int:
    """The previous file's permissions, else what open() would give under the umask."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(os.stat(p).st_mode)
    umask = 0o022
    with contextlib.suppress(OSError, ValueError):  # Linux: read it without changing it
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                umask = int(line.split()[1], 8)
    return 0o666 & ~umask
