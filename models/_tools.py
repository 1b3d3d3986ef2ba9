"""Small helpers shared by the models: array coercion that preserves the caller's type."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

MINUTES_PER_DAY = 1440.0
HOURS_PER_DAY = 24.0


def as_float_array(x: Any) -> np.ndarray:
    """Return ``x`` as a float ndarray (scalars become 0-d arrays).

    Parameters
    ----------
    x : array_like
        A number, list or array.

    Returns
    -------
    ndarray
        ``x`` as float64 (0-d for a scalar).
    """
    if type(x) is np.ndarray and x.dtype is _FLOAT64:  # itself, as np.asarray gives it
        return x
    return np.asarray(x, dtype=float)


_FLOAT64 = np.dtype(float)


def _is_scalar(value: Any) -> bool:
    """np.ndim(value) == 0, without its call for the common types."""
    if isinstance(value, np.ndarray):
        return value.ndim == 0
    if isinstance(value, float | int | np.generic):
        return True
    return np.ndim(value) == 0


def like_input(result: np.ndarray, *inputs: Any) -> Any:
    """Return a Python float when every input was a scalar, else the ndarray.

    Mirrors pvlib's convention: scalars in, scalar out; arrays (or lists) in, ndarray out.

    Parameters
    ----------
    result : ndarray
        The computed figure.
    *inputs : array_like
        The caller's inputs.

    Returns
    -------
    float or ndarray
        A float when ``result`` is 0-d and every input a scalar, else the ndarray.
    """
    result = np.asarray(result)
    if result.ndim == 0 and all(_is_scalar(i) for i in inputs):
        return float(result)
    return result


# Terms that are absent.  Several failure classes, loss components and costs are products
# of a rate or share that is often one number, exactly 0, for every scenario (no Spot
# pricing, no silent data corruption, no peer recovery, no warm-up ...).  Multiplying it
# out would fill an array with zeros and then add it to every sum; these helpers leave
# such a term out instead, so a sweep of 10^6 scenarios spends no pass on it.
#: A term that is absent: one number, 0.
ZERO = np.float64(0.0)


def _single(value: Any) -> Any:
    """The one number ``value`` holds for every scenario (a scalar, a 0-d array or an
    array whose every stride is 0), else None."""
    kind = type(value)  # the exact types the chain passes most, tested first
    if kind is np.ndarray:
        if not value.ndim:
            return value
        if value.size == 0 or any(value.strides):
            return None
        return value.flat[0]
    if kind is float or kind is np.float64 or kind is int:
        return value
    if isinstance(value, float | int):  # the common scalars first (np.float64 is a float)
        return value
    if isinstance(value, np.ndarray):
        if not value.ndim:
            return value
        if value.size == 0 or any(value.strides):
            return None
        return value.flat[0]
    return value if np.ndim(value) == 0 else None


def is_zero(value: Any) -> bool:
    """Whether ``value`` is one number, exactly 0, for every scenario: a scalar or 0-d
    array equal to 0, or an array whose every stride is 0 (a broadcast of one value).

    Parameters
    ----------
    value : array_like
        A rate, share, duration or term.

    Returns
    -------
    bool
        True when ``value`` is one number, exactly 0, for every scenario.
    """
    if type(value) is np.ndarray and value.ndim and any(value.strides):
        return False  # (the common case: an array of scenarios)
    one = _single(value)
    return one is not None and bool(one == 0)


def term(*factors: Any) -> Any:
    """The product of ``factors``, left to right; :data:`ZERO` when any of them is one
    number equal to 0 (:func:`is_zero`).  A process that never happens (a zero rate,
    share or duration) adds nothing, whatever the other factors hold, even an infinite
    or undefined one.  A factor that is one number equal to 1 is left out (x · 1 = x for
    every x), so the result may be one of the factors itself (not a copy).

    Parameters
    ----------
    *factors : array_like
        The factors (rates [per day], shares [fraction], durations [min] ...).

    Returns
    -------
    ndarray or float
        Their product, or :data:`ZERO` when one of them is one number, 0.
    """
    out = None
    for f in factors:
        one = _single(f)
        if one is not None:
            if one == 0:
                return ZERO
            # (one number, not a broadcast array: np.ndim(f) == 0, without its call)
            if one == 1 and not (isinstance(f, np.ndarray) and f.ndim):
                continue
        out = f if out is None else out * f
    return factors[0] if out is None else out


def total(*terms: Any) -> Any:
    """The sum of ``terms``, left to right, leaving out those that are one number equal
    to 0 (adding 0.0 changes no value); :data:`ZERO` when all are.  The result may be
    one of the terms itself (not a copy).

    Parameters
    ----------
    *terms : array_like
        The terms, in one unit.

    Returns
    -------
    ndarray or float
        Their sum, or :data:`ZERO` when every term is one number, 0.
    """
    out = None
    for t in terms:
        if is_zero(t):
            continue
        out = t if out is None else out + t
    return ZERO if out is None else out


def minus(a: Any, b: Any) -> Any:
    """a − b, or ``a`` itself when b is one number equal to 0.

    Parameters
    ----------
    a, b : array_like
        Two terms in one unit.

    Returns
    -------
    ndarray or float
        a − b (``a`` itself when b is one number, 0).
    """
    return a if is_zero(b) else a - b


# Memory a caller gives for a result.  A chunked evaluation hands the chain the rows its
# figures end up in; writing a result straight there spares a temporary and a copy.  The
# operation is the same whether or not it has memory given, so the values are the same.
def fits_into(dest: np.ndarray | None, *operands: Any) -> bool:
    """Whether ``dest`` is given and has the shape ``operands`` broadcast to: memory their
    result may be written into.

    Parameters
    ----------
    dest : ndarray or None
        The memory given for the result.
    *operands : array_like
        The operation's operands.

    Returns
    -------
    bool
        True when the result can be written into ``dest``.
    """
    return dest is not None and np.broadcast_shapes(*(np.shape(v) for v in operands)) == dest.shape


def sum_into(dest: np.ndarray | None, a: Any, b: Any) -> Any:
    """a + b, written into ``dest`` when it fits (:func:`fits_into`), else ``a + b``.

    Parameters
    ----------
    dest : ndarray or None
        The memory given for the result.
    a, b : array_like
        The operands.

    Returns
    -------
    ndarray or float
        a + b: ``dest`` itself when it fits.
    """
    return np.add(a, b, out=dest) if fits_into(dest, a, b) else a + b


def product_into(dest: np.ndarray | None, a: Any, b: Any) -> Any:
    """a · b, written into ``dest`` when it fits (:func:`fits_into`), else ``a * b``.

    Parameters
    ----------
    dest : ndarray or None
        The memory given for the result.
    a, b : array_like
        The operands.

    Returns
    -------
    ndarray or float
        a · b: ``dest`` itself when it fits.
    """
    return np.multiply(a, b, out=dest) if fits_into(dest, a, b) else a * b


def quotient_into(dest: np.ndarray | None, a: Any, b: Any) -> Any:
    """a / b, written into ``dest`` when it fits (:func:`fits_into`), else ``a / b``.

    Parameters
    ----------
    dest : ndarray or None
        The memory given for the result.
    a, b : array_like
        The operands.

    Returns
    -------
    ndarray or float
        a / b: ``dest`` itself when it fits.
    """
    return np.divide(a, b, out=dest) if fits_into(dest, a, b) else a / b


def sqrt_over(value: Any, dest: np.ndarray | None = None) -> Any:
    """√value: for an array (a new one of the caller's), written into ``dest`` when it has
    the array's shape, else over the array itself; for one number, ``np.sqrt(value)``.

    Parameters
    ----------
    value : array_like
        The radicand; an array is overwritten unless ``dest`` fits.
    dest : ndarray or None
        The memory given for the result.

    Returns
    -------
    ndarray or float
        √value.
    """
    if isinstance(value, np.ndarray) and value.ndim:
        into = dest if dest is not None and dest.shape == value.shape else value
        return np.sqrt(value, out=into)
    return np.sqrt(value)


def json_finite(obj: Any) -> Any:
    """``obj`` with every non-finite float (NaN, ±inf) replaced by None, through nested dicts,
    lists and tuples (tuples become lists): JSON has no NaN.

    Parameters
    ----------
    obj : Any
        A JSON-shaped value (dicts, lists, numbers, strings).

    Returns
    -------
    Any
        The same shape with ``None`` where a float was not finite.

    Examples
    --------
    >>> json_finite({"a": float("nan"), "b": [1.0, float("inf")], "c": "x"})
    {'a': None, 'b': [1.0, None], 'c': 'x'}
    """
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_finite(v) for v in obj]
    return obj


def six_digits(x: float) -> float:
    """``x`` rounded to 6 significant digits: the one rule of the values `goodput fit`,
    `goodput reconcile` and `goodput decide` set (and print as ``--set``).

    Parameters
    ----------
    x : float
        A field's value, in its unit.

    Returns
    -------
    float
        The value in 6 significant digits.

    Examples
    --------
    >>> six_digits(14 / 59), six_digits(4.7870), six_digits(1234.5678)
    (0.237288, 4.787, 1234.57)
    """
    return float(f"{x:.6g}")


def repeats(keys) -> list[tuple[int, int]]:
    """Where a sequence repeats itself: (position, position of its first occurrence) of
    every key equal to an earlier one, in order (the rule that drops a log's repeated rows:
    :func:`models.failure_log.drop_duplicate_rows`, :func:`models.timeline.drop_repeated_rows`).

    Parameters
    ----------
    keys : iterable of hashable
        One key per row, e.g. the row's cells as a tuple.

    Returns
    -------
    list of tuple of (int, int)
        (position, earlier position) of each repeat [index].

    Examples
    --------
    >>> repeats(["a", "b", "a", "a", "c"])
    [(2, 0), (3, 0)]
    """
    first: dict[Any, int] = {}
    out: list[tuple[int, int]] = []
    for i, key in enumerate(keys):
        j = first.setdefault(key, i)
        if j != i:
            out.append((i, j))
    return out
