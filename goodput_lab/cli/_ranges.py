"""Allowed ranges in the CLI's messages and ``--help``, written as the field registry writes
a field's range (:func:`goodput_lab.models.fields._fmt`: "[1, 200,000]", "(0, 10,000]"), so
a flag's range reads like a ``--set`` field's."""

from __future__ import annotations

from goodput_lab.models.fields import _fmt


def allowed_range(
    what: str, lo: float, hi: float, unit: str = "", *, low_open: bool = False
) -> str:
    """ "a number in (0, 10,000] USD/h": ``what`` in [lo, hi] (``low_open``: (lo, hi]),
    then the unit."""
    text = f"{what} in {'(' if low_open else '['}{_fmt(lo)}, {_fmt(hi)}]"
    return f"{text} {unit}" if unit else text
