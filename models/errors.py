"""The project's one validation error: it names the field, the value and what is allowed."""

from __future__ import annotations

import re

#: Longest echo of one input value inside a message (quoted values, long words).
MAX_VALUE_CHARS = 80
#: Longest message (and field) text; anything longer is cut (a safety net: a bad value of
#: hundreds of characters must not come back in full on the one error line).
MAX_MESSAGE_CHARS = 500
MAX_FIELD_CHARS = 100

_N = str(MAX_VALUE_CHARS)
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.){" + _N + r",}'|\"(?:[^\"\\\n]|\\.){" + _N + r",}\"")
_LONG_WORD = re.compile(r"\S{" + str(MAX_VALUE_CHARS + 20) + ",}")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
#: Characters that change what a terminal shows without being seen themselves: C0 and C1
#: controls and DEL (ESC starts colour, cursor and title sequences, BEL rings, CR
#: overwrites), bidirectional controls (U+202E turns the text after it right to left,
#: Trojan Source, CVE-2021-42574), zero-width and other invisible format characters, line
#: and paragraph separators, and lone surrogates (which cannot even be encoded).
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def escape_controls(text: str, keep: str = "") -> str:
    """``text`` with every control, bidirectional or invisible format character written
    as an escape (``\\x1b``, ``\\u202e``), except those in ``keep`` (e.g. ``"\\n"``).

    The one function through which the command line's text output passes (scenario names,
    file names, echoed values): what a terminal shows is then what the text holds, and a
    name cannot recolour the screen, set the window title, ring the bell or reverse the
    line.  Printable text, accented letters and other scripts are left as they are.

    Parameters
    ----------
    text : str
        The text to show.
    keep : str
        Characters left as they are.

    Returns
    -------
    str
        The text with the characters escaped.

    Examples
    --------
    >>> escape_controls("a\\x1bb\\n", keep="\\n")
    'a\\\\x1bb\\n'
    """
    if not _UNSAFE.search(text):
        return text
    if not keep:
        return _UNSAFE.sub(_escape, text)
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _escape(m), text)


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters (terminal escapes included)
    replaced by a space, and bidirectional and invisible format characters escaped
    (:func:`escape_controls`): an error is one line on a terminal and in a page.

    Parameters
    ----------
    text : str
        The text to show.

    Returns
    -------
    str
        The text on one line.
    """
    return escape_controls(_CONTROL.sub(" ", text))


_DIGITS = re.compile(r"integer string conversion.*?value has (\d+) digits")


def reading_error(exc: BaseException) -> str:
    """What a parser's ValueError means, in words for the user: Python's refusal of a
    whole number of thousands of digits (which tells the user to call
    ``sys.set_int_max_str_digits()``) becomes "a whole number of 5,000 digits, longer than
    any value here"; any other message is kept.

    Parameters
    ----------
    exc : BaseException
        The parser's exception.

    Returns
    -------
    str
        The message for the user.
    """
    m = _DIGITS.search(str(exc))
    if m:
        return f"a whole number of {int(m.group(1)):,} digits, longer than any value here"
    return str(exc)


def cut(text: str, limit: int = MAX_VALUE_CHARS) -> str:
    """``text`` shortened to ``limit`` characters with an ellipsis.

    Parameters
    ----------
    text : str
        The text.
    limit : int
        Largest length [characters].

    Returns
    -------
    str
        ``text``, or its first ``limit - 3`` characters and ``...``.

    Examples
    --------
    >>> cut("abcdefghij", 6)
    'abc...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cut_values(message: str) -> str:
    """``message`` with every echoed value cut to about 80 characters, at most 500 in all.

    Parameters
    ----------
    message : str
        An error message echoing values in quotes.

    Returns
    -------
    str
        The message with long values cut.
    """
    message = _QUOTED.sub(lambda m: cut(m.group()[:-1], MAX_VALUE_CHARS) + m.group()[-1], message)
    message = _LONG_WORD.sub(lambda m: cut(m.group(), MAX_VALUE_CHARS), message)
    return cut(message, MAX_MESSAGE_CHARS)


class ValidationError(ValueError):
    """Bad input, reported as ``field: value is not allowed (allowed: ...)``.

    Values echoed in the message are cut to about 80 characters and the whole line to 500
    (and the field to 100), wherever the error is raised: a value of hundreds of
    characters (a crafted link, a huge cell) never comes back in full.  Line breaks and
    other control characters become spaces (one line, no terminal escape sequences).

    Parameters
    ----------
    field : str
        Dotted name of the offending input, e.g. ``"cluster.nodes"`` or ``"row 12, column ts"``.
    message : str
        What is wrong and what range or form is allowed.
    """

    def __init__(self, field: str, message: str):
        self.field = cut(one_line(str(field)), MAX_FIELD_CHARS)
        self.message = cut_values(one_line(str(message)))
        super().__init__(f"{self.field}: {self.message}")

    def __reduce__(self):  # rebuilt from (field, message) when a Dask worker sends it back
        return (type(self), (self.field, self.message))
