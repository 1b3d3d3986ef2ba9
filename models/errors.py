"""The project's one validation error: it names the field, the value and what is allowed."""

from __future__ import annotations


class ValidationError(ValueError):
    """Bad input, reported as ``field: value is not allowed (allowed: ...)``.

    Parameters
    ----------
    field : str
        Dotted name of the offending input, e.g. ``"cluster.nodes"`` or ``"row 12, column ts"``.
    message : str
        What is wrong and what range or form is allowed.
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def __reduce__(self):  # rebuilt from (field, message) when a Dask worker sends it back
        return (type(self), (self.field, self.message))
