"""Sensitivity analysis: one-at-a-time tornado and 2-D grids, on the vectorised core.

Both evaluate every perturbed point in ONE call of :func:`models.evaluate.evaluate_arrays`
(inputs broadcast), so a 40-row tornado or a 120 × 120 heatmap costs one model evaluation.

The tornado is the classic one-at-a-time (OAT) local sensitivity: each numeric field marked
``sensitivity=True`` in :mod:`models.fields` is moved to (1 ± x)·value with all others
held at the scenario (Saltelli et al., *Global Sensitivity Analysis: The Primer*, Wiley
2008, §1.2.4).  A moved value that would leave the field's validation range is set to the
range bound and the row says so (``low_clipped``/``high_clipped``): the model is never
evaluated outside what a scenario may hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .evaluate import evaluate_arrays
from .fields import FIELDS

DEFAULT_METRICS = ("goodput", "lost_usd_per_day")


#: Rates that are 0 unless a scenario states them (then ±x% of 0 moves nothing), each with
#: the fields that matter only when it is not: moved when the rate is above 0 (QA pass 19:
#: on the NVL72 preset the rack event rate swings goodput 2.7 points, more than the node
#: failure rate, and the tornado left it out).
WHEN_NONZERO: dict[str, tuple[str, ...]] = {
    "reliability.domain_failure_rate_per_day": ("reliability.domain_repair_hours",),
    "reliability.switch_failure_rate_per_day": ("reliability.switch_repair_hours",),
    "reliability.job_interruptions_per_day": (),
}


def sensitivity_keys(inputs: Mapping[str, Any]) -> list[str]:
    """Numeric fields with ``sensitivity=True`` that are present in ``inputs``, and the rates
    of :data:`WHEN_NONZERO` (with their repair times) that the inputs set above 0.

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Flat chain inputs (:func:`models.evaluate.resolve_inputs`).

    Returns
    -------
    list of str
        Field keys, in registry order.
    """
    extra = set()
    for rate, others in WHEN_NONZERO.items():
        if rate in inputs and float(np.asarray(inputs[rate])) > 0:
            extra.update((rate, *others))
    return [
        k
        for k, f in FIELDS.items()
        if (f.sensitivity or k in extra) and f.kind in ("int", "float") and k in inputs
    ]


def _moved(key: str, value: float, factor: float) -> tuple[float, bool]:
    f = FIELDS[key]
    x = value * factor
    if f.kind == "int":
        x = float(round(x))
    clipped = False
    if f.min is not None and x < f.min:
        x, clipped = float(f.min), True
    if f.max is not None and x > f.max:
        x, clipped = float(f.max), True
    return x, clipped


def tornado(
    inputs: Mapping[str, Any],
    fraction: float = 0.2,
    metrics: Sequence[str] = DEFAULT_METRICS,
    keys: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Each input moved to (1 − fraction) and (1 + fraction) times its value, others fixed.

    Parameters
    ----------
    inputs : flat numeric inputs (:func:`models.evaluate.resolve_inputs`), scalars.
    fraction : relative move, e.g. 0.2 for ±20 % [fraction, > 0].
    metrics : outputs of ``evaluate_arrays`` to report.
    keys : fields to move (default: :func:`sensitivity_keys`).

    Returns
    -------
    dict with ``keys``, ``base_value``, ``low_value``, ``high_value`` (arrays, model units),
    ``low_clipped``/``high_clipped`` (bool arrays), ``base`` {metric: float} and
    ``low``/``high`` {metric: array}: the metric with the field at its low/high value,
    ``swing`` {metric: array}: |high − low|, in the metric's unit.
    A checkpoint interval left to 'optimal' is moved around the resolved optimum.

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> t = tornado(resolve_inputs(load_preset("aws-16k-h100")), 0.5, keys=["cluster.nodes"])
    >>> [round(float(t[s]["goodput"][0]), 4) for s in ("low", "high")]
    [0.9337, 0.8546]
    """
    if not fraction > 0:
        raise ValueError(f"fraction must be > 0, got {fraction!r}")
    keys = list(keys) if keys is not None else sensitivity_keys(inputs)
    base_out = evaluate_arrays(inputs)
    k = len(keys)
    n = 2 * k
    batch: dict[str, Any] = dict(inputs)  # unmoved inputs stay scalars and broadcast
    for key in keys:
        batch[key] = np.full(n, float(np.asarray(inputs[key])))
    base_vals = np.empty(k)
    lo_vals, hi_vals = np.empty(k), np.empty(k)
    lo_clip, hi_clip = np.zeros(k, bool), np.zeros(k, bool)
    for i, key in enumerate(keys):
        v = float(np.asarray(inputs[key]))
        if key == "checkpoint.interval_minutes" and np.isnan(v):
            v = float(np.asarray(base_out["checkpoint_interval_minutes"]))
        base_vals[i] = v
        lo_vals[i], lo_clip[i] = _moved(key, v, 1.0 - fraction)
        hi_vals[i], hi_clip[i] = _moved(key, v, 1.0 + fraction)
        batch[key][2 * i] = lo_vals[i]
        batch[key][2 * i + 1] = hi_vals[i]
    out = evaluate_arrays(batch, broadcast=True) if n else {}
    low = {m: np.asarray(out[m], float)[0::2] if n else np.zeros(0) for m in metrics}
    high = {m: np.asarray(out[m], float)[1::2] if n else np.zeros(0) for m in metrics}
    return {
        "keys": keys,
        "base_value": base_vals,
        "low_value": lo_vals,
        "high_value": hi_vals,
        "low_clipped": lo_clip,
        "high_clipped": hi_clip,
        "base": {m: float(np.asarray(base_out[m])) for m in metrics},
        "low": low,
        "high": high,
        "swing": {m: np.abs(high[m] - low[m]) for m in metrics},
    }


def grid(
    inputs: Mapping[str, Any],
    x_key: str,
    x_values,
    y_key: str,
    y_values,
    metrics: Sequence[str] = DEFAULT_METRICS,
) -> dict[str, np.ndarray]:
    """Metrics on the grid y × x: ``out[m][j, i]`` is the metric at (x_values[i], y_values[j]).

    ``x_key``/``y_key`` are input names (e.g. ``"reliability.node_failure_rate_per_day"``,
    ``"checkpoint.interval_minutes"``); a fixed checkpoint interval on an axis overrides
    'optimal'.  One broadcast call of ``evaluate_arrays``.

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Flat chain inputs (:func:`models.evaluate.resolve_inputs`).
    x_key, y_key : str
        Input field keys of the two axes.
    x_values, y_values : array_like
        Axis values, each in its field's unit (e.g. [min], [per node-day]).
    metrics : sequence of str
        Output keys to return.

    Returns
    -------
    dict[str, numpy.ndarray]
        Per metric a ``(len(y_values), len(x_values))`` array in the metric's unit
        (:mod:`models.outputs`).

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> g = grid(resolve_inputs(load_preset("aws-16k-h100")),
    ...          "checkpoint.interval_minutes", [20.0, 40.0],
    ...          "reliability.node_failure_rate_per_day", [0.001, 0.002])
    >>> g["goodput"].round(4).tolist()
    [[0.9243, 0.9337], [0.897, 0.8934]]
    """
    x = np.asarray(x_values, dtype=float)[np.newaxis, :]
    y = np.asarray(y_values, dtype=float)[:, np.newaxis]
    batch = {**inputs, x_key: x, y_key: y}
    if "checkpoint.interval_minutes" in (x_key, y_key):
        batch["checkpoint.interval_optimal"] = False
    out = evaluate_arrays(batch)
    shape = (y.shape[0], x.shape[1])
    return {m: np.broadcast_to(np.asarray(out[m], dtype=float), shape) for m in metrics}
