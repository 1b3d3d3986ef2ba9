"""Allowed ranges in the CLI's messages and ``--help``, written as the field registry writes
a field's range (:func:`goodput_lab.models.fields._fmt`: "[1, 200,000]", "(0, 10,000]"), so
a flag's range reads like a ``--set`` field's."""

from __future__ import annotations

from goodput_lab.models.fields import _fmt


def bound(x: float) -> str:
    """A range bound as the field registry writes it ("10,000", "0.04167"); a Python int
    exactly, with separators (a seed's 9,223,372,036,854,775,807 is not 9.22337e+18)."""
    return f"{x:,}" if isinstance(x, int) and not isinstance(x, bool) else _fmt(x)


def allowed_range(
    what: str, lo: float, hi: float, unit: str = "", *, low_open: bool = False
) -> str:
    """ "a number in (0, 10,000] USD/h": ``what`` in [lo, hi] (``low_open``: (lo, hi]),
    then the unit."""
    text = f"{what} in {'(' if low_open else '['}{bound(lo)}, {bound(hi)}]"
    return f"{text} {unit}" if unit else text
