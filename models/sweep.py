"""Sweeps: many scenarios that differ in a few numeric fields, evaluated point by point.

A sweep varies fields over grids (``--vary field=lo:hi:n``, the Cartesian product of the
axes, first axis slowest) around one scenario.  This module holds the pure parts: parsing
and validating the axes, the grid, the per-point random streams and the evaluation of one
batch of points (the analytic chain, vectorised over the batch, and optionally the Monte
Carlo simulator per point).  No I/O, no Dask: the engine that distributes batches and keeps
partial results is :mod:`goodput_lab.engine.sweep`.

Reproducibility: point i draws its trials from ``SeedSequence(seed, spawn_key=(i,))``, the
i-th child of ``SeedSequence(seed).spawn(...)``, so a point's result depends only on the
scenario, the point and the seed, never on how points are batched or on how many workers
run them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import ValidationError
from .evaluate import evaluate_arrays
from .fields import FIELDS

#: Most points along one axis and in a whole sweep (each analytic point is ~100 floats).
MAX_POINTS_PER_AXIS = 1_000_000
MAX_POINTS = 1_000_000
#: Most points and point-trials of a sweep with Monte Carlo.
MAX_MC_POINTS = 100_000
MAX_POINT_TRIALS = 1_000_000_000
#: Monte Carlo summary columns of a sweep (the keys of ``SimulationResult.summary``, which
#: ``goodput simulate --json`` prints too), registered in :mod:`models.outputs`.
MC_COLUMNS: tuple[str, ...] = (
    "goodput_mean",
    "goodput_stderr",
    "goodput_p5",
    "goodput_p50",
    "goodput_p95",
    "time_to_finish_mean_days",
    "time_to_finish_stderr_days",
    "time_to_finish_p5_days",
    "time_to_finish_p50_days",
    "time_to_finish_p95_days",
    "lost_mean_usd",
    "lost_p95_usd",
    "failures_mean",
    "unfinished_trials",
)


@dataclass(frozen=True)
class Axis:
    """One varied field: ``n`` values from ``lo`` to ``hi`` (linearly spaced)."""

    key: str
    lo: float
    hi: float
    n: int

    def values(self) -> np.ndarray:
        """The axis values; whole numbers for integer fields (:func:`check_whole` refuses an
        integer axis whose points are not whole, so the rounding here only clears the last
        bits of ``linspace`` and never merges two points).

        Returns
        -------
        numpy.ndarray
            ``n`` values in the field's unit.
        """
        v = np.linspace(self.lo, self.hi, self.n)
        return np.round(v) if FIELDS[self.key].kind == "int" else v

    def spec(self) -> str:
        """``key=lo:hi:n`` as typed back: integer fields' ends as integers, other ends as
        short as they can be without losing a digit (the spec enters the fingerprint)."""
        return f"{self.key}={_num(self.key, self.lo)}:{_num(self.key, self.hi)}:{self.n}"


def _num(key: str, x: float) -> str:
    if FIELDS[key].kind == "int" and float(x) == round(x):
        return str(int(x))
    short = f"{x:g}"
    return short if float(short) == x else repr(float(x))


def _steps_that_fit(span: int, n: int) -> list[int]:
    """The point counts nearest to ``n`` (one below, one above) whose step divides ``span``
    (a whole number > 0): n − 1 must be a divisor of the span."""
    divisors = set()
    d = 1
    while d * d <= span:
        if span % d == 0:
            divisors.update((d, span // d))
        d += 1
    counts = sorted(k + 1 for k in divisors if k + 1 <= MAX_POINTS_PER_AXIS)
    below = [c for c in counts if c < n]
    above = [c for c in counts if c > n]
    return below[-1:] + above[:1]


def check_whole(axis: Axis, flag: str = "--vary") -> None:
    """Refuse an axis of an integer field whose points are not all whole numbers (its step
    (hi − lo) / (n − 1) is not whole), and an axis whose n > 1 points are all the same
    (lo = hi): either would repeat a point, silently.  The message names the field and the
    point counts nearest to n that give whole steps (and, for integer fields, the hi that
    keeps n).

    Parameters
    ----------
    axis : Axis
        The axis (its ends already allowed values of the field).
    flag : str
        The flag the axis came with, for error messages.

    Returns
    -------
    None
        Returns when the axis is valid.

    Raises
    ------
    ValidationError
        Naming the flag, the field and the point counts that would do.
    """
    key, lo, hi, n = axis.key, axis.lo, axis.hi, axis.n
    if n > 1 and lo == hi:
        raise ValidationError(
            flag, f"{axis.spec()} repeats one point {n} times (lo = hi); use n = 1 for one point"
        )
    f = FIELDS[key]
    if f.kind != "int" or n == 1:
        return
    span = round(hi - lo)
    if span % (n - 1) == 0:
        return
    sign = 1 if span > 0 else -1
    fit = [f"n = {c} (step {span // (c - 1):,})" for c in _steps_that_fit(abs(span), n)]
    options = " or ".join(fit)
    step = sign * math.ceil(abs(span) / (n - 1))
    end = lo + step * (n - 1)
    if (f.min is None or end >= f.min) and (f.max is None or end <= f.max):
        options += f", or hi = {end:.0f} for {n} points (step {step:,})"
    shown = f"{span / (n - 1):,.2f}".rstrip("0").rstrip(".")
    raise ValidationError(
        flag,
        f"{axis.spec()} gives points that are not whole numbers (step {shown}) and {key} is "
        f"an integer field: use {options}",
    )


def parse_axis(text: str, flag: str = "--vary") -> Axis:
    """``section.key=lo:hi:n`` as an :class:`Axis`, validated against the field registry.

    The field must exist and be numeric, lo and hi must be allowed values of the field
    (its range, whole numbers for integer fields) and n a whole number in
    [1, MAX_POINTS_PER_AXIS] (n = 1 needs lo = hi, and lo = hi needs n = 1); an integer
    field's points must all be whole numbers (:func:`check_whole`: n − 1 divides hi − lo).
    Errors name the flag, the text and the allowed values.

    Parameters
    ----------
    text : str
        ``section.key=lo:hi:n`` as typed; lo and hi in the field's unit, n [count].
    flag : str
        The flag the text came with, for error messages.

    Returns
    -------
    Axis
        The validated axis.
    """
    shown = text if len(text) <= 80 else text[:77] + "..."
    key, sep, rng = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ValidationError(flag, f"{shown!r} is not of the form section.key=lo:hi:n")
    if key not in FIELDS:
        raise ValidationError(
            flag, f"{key[:80]!r} is not a scenario field (see `goodput evaluate --help`)"
        )
    f = FIELDS[key]
    if f.kind not in ("int", "float"):
        raise ValidationError(
            flag, f"{key} is not numeric ({f.allowed()}); only numeric fields can be swept"
        )
    parts = rng.split(":")
    if len(parts) != 3:
        raise ValidationError(flag, f"{shown!r} is not of the form {key}=lo:hi:n")
    bounds = []
    for name, raw in zip(("lo", "hi"), parts[:2], strict=True):
        try:
            x = float(raw)
        except ValueError:
            raise ValidationError(
                flag, f"{key} {name} {raw[:40]!r} is not a number ({f.allowed()})"
            ) from None
        bad = not math.isfinite(x)
        bad |= f.min is not None and x < f.min
        bad |= f.max is not None and x > f.max
        bad |= f.kind == "int" and math.isfinite(x) and x != round(x)
        if bad:
            raise ValidationError(flag, f"{key} {name} {raw[:40]} is out of range ({f.allowed()})")
        bounds.append(x)
    try:
        n = int(parts[2])
    except ValueError:
        raise ValidationError(
            flag,
            f"{key} n {parts[2][:40]!r} is not a whole number "
            f"(an integer in [1, {MAX_POINTS_PER_AXIS:,}])",
        ) from None
    if not 1 <= n <= MAX_POINTS_PER_AXIS:
        raise ValidationError(
            flag, f"{key} n {n:,} is out of range (an integer in [1, {MAX_POINTS_PER_AXIS:,}])"
        )
    if n == 1 and bounds[0] != bounds[1]:
        raise ValidationError(flag, f"{key}: one point (n = 1) needs lo = hi")
    axis = Axis(key, bounds[0], bounds[1], n)
    check_whole(axis, flag)
    return axis


def check_axes(axes: Sequence[Axis], trials: int) -> int:
    """Validate the axes together; return the number of points.

    Each field at most once; an integer field's points whole numbers and no axis repeating
    a point (:func:`check_whole`, for axes built without :func:`parse_axis`); points at most
    MAX_POINTS (MAX_MC_POINTS with trials) and points × trials at most MAX_POINT_TRIALS.

    Parameters
    ----------
    axes : sequence of Axis
        The varied fields.
    trials : int
        Monte Carlo runs per point [count] (0 for none).

    Returns
    -------
    int
        Points of the sweep [count].
    """
    if not axes:
        raise ValidationError("--vary", "at least one --vary section.key=lo:hi:n is needed")
    seen = set()
    for a in axes:
        if a.key in seen:
            raise ValidationError("--vary", f"{a.key} is varied twice (one --vary per field)")
        seen.add(a.key)
        check_whole(a)
    points = math.prod(a.n for a in axes)
    limit = MAX_MC_POINTS if trials else MAX_POINTS
    if points > limit:
        what = "with --trials" if trials else "analytic"
        raise ValidationError(
            "--vary",
            f"{' x '.join(str(a.n) for a in axes)} = {points:,} points is over the limit "
            f"({what}: at most {limit:,} points)",
        )
    if trials and points * trials > MAX_POINT_TRIALS:
        raise ValidationError(
            "--trials",
            f"{points:,} points x {trials:,} trials = {points * trials:.3g} simulated runs is "
            f"over the limit of {MAX_POINT_TRIALS:.0e} (allowed: an integer in "
            f"[0, {MAX_POINT_TRIALS // points:,}] for {points:,} points)",
        )
    return points


def grid(axes: Sequence[Axis]) -> dict[str, np.ndarray]:
    """The points as one 1-D column per varied field (Cartesian product, first axis slowest).

    Parameters
    ----------
    axes : sequence of Axis
        The varied fields.

    Returns
    -------
    dict[str, numpy.ndarray]
        One column of all points per field key, in the field's unit.

    Examples
    --------
    >>> g = grid([Axis("cluster.nodes", 1, 2, 2), Axis("checkpoint.interval_minutes", 10, 20, 2)])
    >>> g["cluster.nodes"].tolist(), g["checkpoint.interval_minutes"].tolist()
    ([1.0, 1.0, 2.0, 2.0], [10.0, 20.0, 10.0, 20.0])
    """
    mesh = np.meshgrid(*(a.values() for a in axes), indexing="ij")
    return {a.key: m.reshape(-1) for a, m in zip(axes, mesh, strict=True)}


def point_seed(seed: int, point: int) -> np.random.SeedSequence:
    """The random stream of point ``point``: child ``point`` of ``SeedSequence(seed)``.

    Parameters
    ----------
    seed : int
        The sweep's seed [-].
    point : int
        Point index [count].

    Returns
    -------
    numpy.random.SeedSequence
        The point's seed sequence; the same whatever worker runs it.
    """
    return np.random.SeedSequence(seed, spawn_key=(int(point),))


def evaluate_batch(
    base: Mapping[str, Any],
    columns: Mapping[str, np.ndarray],
    points: np.ndarray,
    *,
    trials: int = 0,
    days: float = 30.0,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Evaluate the points of one batch: one row per point.

    Parameters
    ----------
    base : flat inputs of the sweep's scenario (:func:`models.evaluate.resolve_inputs`).
    columns : the varied fields' values at the batch's points, 1-D arrays of one length.
    points : the points' numbers in the whole sweep (they pick the random streams).
    trials : Monte Carlo runs per point; 0 = analytic only.
    days : Monte Carlo horizon [day].
    seed : the sweep's seed (:func:`point_seed`).

    Returns
    -------
    ``{"point": ..., <varied field>: ..., <every analytic figure>: ..., <MC_COLUMNS>: ...}``,
    1-D arrays (analytic figures keyed as in :data:`models.outputs.OUTPUTS`).
    """
    idx = np.asarray(points, dtype=np.int64)
    n = idx.size
    x = dict(base)
    x.update({k: np.asarray(v, dtype=float) for k, v in columns.items()})
    out: dict[str, np.ndarray] = {"point": idx}
    out.update({k: np.asarray(v, dtype=float) for k, v in columns.items()})
    # batch after batch on a worker: the last batches' memory is written again once their
    # figures are let go, rather than fresh memory cleared by the system first
    for key, value in evaluate_arrays(x, reuse_memory=True).items():
        out[key] = np.ascontiguousarray(np.broadcast_to(np.asarray(value, dtype=float), (n,)))
    if trials:
        from .montecarlo import simulate_inputs  # only sweeps with trials need the simulator

        mc = {k: np.empty(n) for k in MC_COLUMNS}
        for j in range(n):
            xi = dict(base)
            xi.update({k: float(v[j]) for k, v in columns.items()})
            res = simulate_inputs(
                xi,
                trials,
                days,
                rng=np.random.default_rng(point_seed(seed, int(idx[j]))),
                record_timeline=False,
                grid_points=2,
            )
            summary = res.summary()
            for k in MC_COLUMNS:
                mc[k][j] = summary[k]
        out.update(mc)
    return out
