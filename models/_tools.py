"""Small helpers shared by the models: array coercion that preserves the caller's type."""

from __future__ import annotations

from typing import Any

import numpy as np

MINUTES_PER_DAY = 1440.0
HOURS_PER_DAY = 24.0


def as_float_array(x: Any) -> np.ndarray:
    """Return ``x`` as a float ndarray (scalars become 0-d arrays)."""
    return np.asarray(x, dtype=float)


def like_input(result: np.ndarray, *inputs: Any) -> Any:
    """Return a Python float when every input was a scalar, else the ndarray.

    Mirrors pvlib's convention: scalars in, scalar out; arrays (or lists) in, ndarray out.
    """
    result = np.asarray(result)
    if result.ndim == 0 and all(np.ndim(i) == 0 for i in inputs):
        return float(result)
    return result
