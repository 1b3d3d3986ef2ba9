"""Goodput Lab models: pure, vectorised numpy functions (no Streamlit, no I/O side effects)."""

from .catalog import Instance, load_catalog
from .errors import ValidationError
from .evaluate import Comparison, Evaluation, compare, evaluate, evaluate_arrays, resolve_inputs
from .fields import FIELDS, SECTIONS, Field
from .scenario import Scenario, load_preset, preset_paths

__all__ = [
    "FIELDS",
    "SECTIONS",
    "Comparison",
    "Evaluation",
    "Field",
    "Instance",
    "Scenario",
    "ValidationError",
    "compare",
    "evaluate",
    "evaluate_arrays",
    "load_catalog",
    "load_preset",
    "preset_paths",
    "resolve_inputs",
]
