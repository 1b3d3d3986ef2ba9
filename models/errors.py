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


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters (terminal escapes included)
    replaced by a space: an error is one line on a terminal and in a page."""
    return _CONTROL.sub(" ", text)


def cut(text: str, limit: int = MAX_VALUE_CHARS) -> str:
    """``text`` shortened to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cut_values(message: str) -> str:
    """``message`` with every echoed value cut to about 80 characters, at most 500 in all."""
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
